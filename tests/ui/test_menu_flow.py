"""The main menu's exits and the set-up screens (issue 20): Esc on the menu never quits, Quit
asks first, Resume and Load wait for a save, and the hotseat and vs-AI forms offer every choice
by its display name with a one-line description, and start the game chosen."""

from __future__ import annotations

import pygame
import pytest

from game.ui import theme, widgets
from game.ui.intents import intent
from game.ui.scenes.menu import SAVES_RECHECK, MenuScene, NewGameScene, VsAIScene
from tests.ui.conftest import frames


def menu_button(menu: MenuScene, go: str):
    """The live menu button whose intent is menu(go=...)."""
    for element, it in list(widgets.INTENTS.items()):
        if element.alive() and element.ui_manager is menu.manager and it.kind == "menu" and it.get("go") == go:
            return element
    raise AssertionError(f"no live {go!r} button")


def press_key(app, key: int) -> None:
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=key, mod=0, unicode="", scancode=0))
    app.frame(1 / 60)


def test_esc_on_the_menu_does_not_quit(app):
    menu = MenuScene(app)
    app.push(menu)
    frames(app)
    press_key(app, pygame.K_ESCAPE)
    press_key(app, pygame.K_ESCAPE)
    assert app.running and app.scene is menu and not menu.confirming


def test_quit_asks_and_quit_again_quits(app):
    menu = MenuScene(app)
    app.push(menu)
    menu.handle(intent("menu", go="quit"))
    assert app.running and menu.confirming
    frames(app)
    menu.handle(intent("menu", go="quit"))  # Quit pressed a second time
    assert not app.running


def test_quit_asks_and_enter_quits(app):
    menu = MenuScene(app)
    app.push(menu)
    menu.handle(intent("menu", go="quit"))
    frames(app)
    press_key(app, pygame.K_RETURN)
    assert not app.running


@pytest.mark.parametrize("answer", ["esc", "stay"])
def test_quit_asks_and_esc_or_stay_stays(app, answer):
    menu = MenuScene(app)
    app.push(menu)
    menu.handle(intent("menu", go="quit"))
    frames(app)
    if answer == "esc":
        press_key(app, pygame.K_ESCAPE)
    else:
        menu.handle(intent("menu", go="stay"))
    assert app.running and not menu.confirming
    assert menu_button(menu, "new").is_enabled  # the menu is back


def test_the_question_blocks_the_other_buttons(app):
    menu = MenuScene(app)
    app.push(menu)
    menu.handle(intent("menu", go="quit"))
    menu.handle(intent("menu", go="new"))  # a stale press: nothing opens under the question
    assert app.scene is menu and menu.confirming


def test_resume_and_load_are_disabled_with_no_saves_and_wake_up_with_one(app):
    from game.ui import storage
    from game.ui.session import Session

    menu = MenuScene(app)
    app.push(menu)
    frames(app)
    assert not menu_button(menu, "resume").is_enabled and not menu_button(menu, "load").is_enabled
    assert menu_button(menu, "replays").is_enabled
    storage.save(Session.new(seed=3))
    menu.update(SAVES_RECHECK)  # the menu looks again for saves now and then
    assert menu_button(menu, "resume").is_enabled and menu_button(menu, "load").is_enabled


def _descriptions_fit(scene) -> None:
    w, h = scene.app.size
    for key, x, _y, width in scene.descriptions:
        lines = scene.description_lines(key, width)
        assert lines, f"{key} has no description"
        for line in lines:
            assert theme.font(14).size(line)[0] <= width and x + width <= w
    assert scene.bottom <= h  # the Start button is on the screen


@pytest.mark.parametrize("size", [(1280, 800), (1000, 650)])
def test_the_vs_ai_setup_offers_every_choice_with_a_description(app, size):
    app.resize(size)
    menu = MenuScene(app)
    app.push(menu)
    menu.handle(intent("menu", go="vs_ai"))
    form = app.scene
    assert isinstance(form, VsAIScene)
    assert [key for _, key, _ in form.rows()] == ["map", "army1", "army2", "profile", "side", "level"]
    frames(app)
    _descriptions_fit(form)
    levels = {c.id: c.description for c in form.options["level"]}
    assert levels["random"] == "moves and casts at random: a sandbox"
    assert "casters behind its line" in levels["normal"] and "copies of the game" in levels["hard"]
    for key in ("map", "army1", "profile"):  # display names, never ids
        assert all(c.name != c.id and c.description for c in form.options[key])


def test_the_vs_ai_setup_starts_the_chosen_game(app):
    from game.ui.controllers import BotController, HumanController
    from game.ui.scenes.battle import BattleScene

    app.push(MenuScene(app))
    app.scene.handle(intent("menu", go="vs_ai"))
    form = app.scene
    for name, value in [
        ("map", "The Drowned Fen"),
        ("army1", "The Mirecourt Circle"),
        ("army2", "The Emberward Covenant"),
        ("profile", "Classic endless spells"),
        ("side", "Player 2"),
        ("level", "Random"),
        ("seed", "11"),
    ]:
        form.handle(intent("ui", name=name, value=value))  # what the dropdowns and the entry send
    assert "You command The Emberward Covenant" in form.description("side")
    form.handle(intent("start"))
    scene = app.scene
    assert isinstance(scene, BattleScene)
    g = scene.session.game
    assert g.battlefield.map.id == "drowned_fen" and g.profile.name == "aos3"
    assert [a.id for a in g.armies] == ["mirecourt", "emberward"]
    assert scene.session.seed == 11
    assert isinstance(scene.controllers[2], HumanController) and isinstance(scene.controllers[1], BotController)
    assert scene.controllers[1].bot.name == "random"


def test_the_hotseat_setup_uses_display_names_and_starts_the_chosen_game(app):
    from game.ui.scenes.battle import BattleScene

    app.resize((1000, 650))
    app.push(MenuScene(app))
    app.scene.handle(intent("menu", go="new"))
    form = app.scene
    assert isinstance(form, NewGameScene)
    frames(app)
    _descriptions_fit(form)
    form.handle(intent("ui", name="map", value="The Drowned Fen"))
    form.handle(intent("ui", name="profile", value="Classic endless spells"))
    form.handle(intent("start"))
    assert isinstance(app.scene, BattleScene)
    g = app.scene.session.game
    assert g.battlefield.map.id == "drowned_fen" and g.profile.name == "aos3"


def test_every_shipped_map_army_and_profile_has_a_one_line_description():
    from game.ui import choices

    for c in choices.maps() + choices.armies() + choices.profiles():
        assert c.description and len(c.description) <= 90 and "\n" not in c.description, c


def test_a_description_is_not_part_of_the_content_hash_or_a_replays_map():
    # the flavour line is left out of model_dump: old replays still match this install's content
    from game.data.content import default_content, load_map

    bmap = load_map("ashfall_crossing")
    assert bmap.description and "description" not in bmap.model_dump()
    army = default_content().armies["emberward"]
    assert army.description and "description" not in army.model_dump()
