"""The army builder (issue 23), driven by intents: build a list, save it, find it in the set-up
forms, play with it; a list that breaks a rule is saved but never started; lists are opened,
edited and deleted; nothing overlaps or leaves the window at the smallest size."""

from __future__ import annotations

from pathlib import Path

import pygame
import pytest

from game.ai.random_bot import RandomBot
from game.data import army_lists as al
from game.data import library
from game.rules import data_dir
from game.ui import choices, storage, widgets
from game.ui.intents import intent
from game.ui.scenes.battle import BattleScene
from game.ui.scenes.builder import BuilderScene
from game.ui.scenes.menu import MenuScene, NewGameScene, VsAIScene


@pytest.fixture(autouse=True)
def _library():
    """The library the app would have: the built-in content with the (temporary) data folder's."""
    library.set_active(library.load_library(data_dir()), data_dir())
    yield
    library.set_active(None)


def open_builder(app) -> BuilderScene:
    menu = MenuScene(app)
    app.push(menu)
    menu.handle(intent("menu", go="builder"))
    scene = app.scene
    assert isinstance(scene, BuilderScene)
    return scene


def b(scene, op: str, **kw) -> None:
    scene.handle(intent("builder", op=op, **kw))


def build_fen_patrol(scene: BuilderScene) -> None:
    b(scene, "faction", keyword="MIRECOURT")
    scene.handle(intent("ui", name="list_name", value="Fen Patrol"))
    for w in ("reed_witch", "fen_oracle", "mire_wardens", "mire_wardens", "reedstalker_archers"):
        b(scene, "add", warscroll=w)
    scene.handle(intent("ui", name="unit:3", value="Second Wardens"))
    scene.handle(intent("ui", name="spell_lore", value="Lore of the Fen"))


def test_a_list_built_through_intents_is_saved_offered_and_played(app) -> None:
    scene = open_builder(app)
    build_fen_patrol(scene)
    assert [n for _w, n in scene.units] == ["Reed-Witch", "Fen-Oracle", "Mire Wardens", "Second Wardens",
                                            "Reedstalker Archers"]  # fmt: skip
    assert scene.general == 0 and scene.lores["spell_lore"] == "lore_of_the_fen"
    b(scene, "general", index=1)
    assert scene.problems() == [] and al.points_total(scene.content, scene.draft()) == 60 + 110 + 75 + 75 + 80
    app.frame(1 / 60)
    b(scene, "save")
    path = data_dir() / "armies" / "fen_patrol.toml"
    assert path.is_file() and "offered in New hotseat game" in scene.message
    saved = al.load_list(path)
    assert saved.general == 1 and saved.units[3].name == "Second Wardens"
    scene.handle(intent("back"))
    menu = app.scene
    assert isinstance(menu, MenuScene)
    menu.handle(intent("menu", go="new"))
    form = app.scene
    assert isinstance(form, NewGameScene)
    mine = choices.by_id(form.options["army1"], "fen_patrol")
    assert choices.label(mine) == "Fen Patrol (your list, 400 points)" and mine.problem == ""
    assert "Your own list: 5 units, 400 of 1000 points" in choices.description(mine)
    form.handle(intent("ui", name="army1", value=choices.label(mine)))
    form.handle(intent("start"))
    battle = app.scene
    assert isinstance(battle, BattleScene) and form.message == ""
    session = battle.session
    assert session.game.army(1).name == "Fen Patrol"
    assert [u.name for u in session.state.units.values() if u.player == 1][3] == "Second Wardens"
    bots = {1: RandomBot(1, 5), 2: RandomBot(2, 5)}
    for _ in range(25):  # deployment and on into the battle
        session.apply(bots[session.decision.player].choose(session.state))
    app.frame(1 / 60)
    assert len(session.actions()) == 25


def test_a_list_that_breaks_a_rule_is_saved_but_never_started(app) -> None:
    scene = open_builder(app)
    b(scene, "faction", keyword="EMBERWARD")
    scene.handle(intent("ui", name="list_name", value="All Spears"))
    b(scene, "add", warscroll="emberward_spears")
    assert scene.problems() == ["The general, Emberward Spears, is not a HERO: choose one of the list's heroes."]
    b(scene, "save")
    assert "cannot be played until its problems are fixed" in scene.message
    scene.handle(intent("back"))
    app.scene.handle(intent("menu", go="vs_ai"))
    form = app.scene
    assert isinstance(form, VsAIScene)
    mine = choices.by_id(form.options["army2"], "all_spears")
    assert mine.problem and "Cannot be played: The general" in choices.description(mine)
    form.handle(intent("ui", name="army2", value=choices.label(mine)))
    form.handle(intent("start"))
    assert app.scene is form
    assert form.message.startswith("Player 2's army cannot be played: The general, Emberward Spears, is not a HERO")


def test_a_broken_list_file_is_offered_with_its_reason(app) -> None:
    folder = data_dir() / "armies"
    folder.mkdir(parents=True)
    (folder / "old_list.toml").write_text(
        '[[army]]\nid = "old_list"\nname = "Old"\ncolour = [1, 2, 3]\nunits = [{ warscroll = "gone" }]\n',
        encoding="utf-8",
    )
    library.reload()
    mine = next(c for c in choices.armies() if c.id.startswith("file:"))
    assert choices.label(mine) == "old list (your list, cannot be read)"
    assert "armies/old_list.toml" in mine.problem and "unknown warscroll 'gone'" in mine.problem


def test_saved_lists_open_edit_and_delete(app) -> None:
    scene = open_builder(app)
    build_fen_patrol(scene)
    b(scene, "save")
    first = scene.editing
    b(scene, "new")
    assert scene.units == [] and scene.editing is None
    b(scene, "lists")
    assert scene.mode == "lists" and [r[1] for r in scene.rows] == ["Fen Patrol"]
    app.frame(1 / 60)
    b(scene, "edit", path=str(first))
    assert scene.mode == "edit" and scene.editing == first and len(scene.units) == 5
    b(scene, "remove", index=0)  # the general was the witch: the oracle takes over
    assert scene.general == 0 and scene.units[0][0] == "fen_oracle"
    scene.handle(intent("ui", name="list_name", value="Fen Patrol Two"))
    b(scene, "save")
    assert not first.exists() and scene.editing.name == "fen_patrol_two.toml"
    assert "fen_patrol_two" in library.active().content.armies
    assert "fen_patrol" not in library.active().content.armies
    b(scene, "lists")
    b(scene, "delete", path=str(scene.editing))
    assert scene.editing.exists()  # the first press asks
    b(scene, "delete", path=str(scene.editing))
    assert not (data_dir() / "armies" / "fen_patrol_two.toml").exists()
    assert "fen_patrol_two" not in library.active().content.armies
    scene.handle(intent("back"))
    assert scene.mode == "edit" and app.scene is scene
    scene.handle(intent("back"))
    assert isinstance(app.scene, MenuScene)


def test_an_empty_list_is_not_saved(app) -> None:
    scene = open_builder(app)
    b(scene, "save")
    assert scene.message == "Add at least one unit before saving the list."
    assert not (data_dir() / "armies").exists() or not list((data_dir() / "armies").iterdir())


def _rects(scene) -> list[tuple[pygame.Rect, object]]:
    return [(e.rect, e) for e in scene.manager.get_root_container().elements if e.visible]


@pytest.mark.parametrize("size", [(1024, 640), (1280, 800)])
def test_nothing_leaves_the_window_or_overlaps(app, size) -> None:
    scene = open_builder(app)
    build_fen_patrol(scene)
    for _ in range(14):  # more units than rows: the list pages
        b(scene, "add", warscroll="mire_wardens")
    b(scene, "general", index=2)  # a non-hero general: a problem to show
    app.frame(1 / 60)
    app.resize(size)
    window = pygame.Rect(0, 0, *size)
    for mode in ("edit", "lists"):
        if mode == "lists":
            b(scene, "save")
            b(scene, "lists")
        rects = _rects(scene)
        for r, e in rects:
            assert window.contains(r), (mode, e, r)
        buttons = [r for r, e in rects if e in widgets.INTENTS or e in widgets.NAMES]
        for i, r in enumerate(buttons):
            for other in buttons[i + 1 :]:
                assert not r.colliderect(other), (mode, r, other)
        scene.draw(pygame.Surface(size))
    left, mid, card = scene.columns()
    assert left.right < mid.left and mid.right < card.left and card.right <= size[0]
    assert scene.units_bottom() > scene.units_top() + 5 * 34  # room for several units


def test_a_game_with_a_saved_list_loads_in_a_data_folder_without_it(app, tmp_path, monkeypatch) -> None:
    scene = open_builder(app)
    build_fen_patrol(scene)
    b(scene, "save")
    scene.handle(intent("back"))
    app.scene.handle(intent("menu", go="new"))
    form = app.scene
    form.handle(intent("ui", name="army1", value="fen_patrol"))
    form.handle(intent("start"))
    session = app.scene.session
    bots = {1: RandomBot(1, 9), 2: RandomBot(2, 9)}
    for _ in range(20):
        session.apply(bots[session.decision.player].choose(session.state))
    saved = storage.save(session)
    # another machine: a fresh data folder, without the list file
    fresh = tmp_path / "fresh-data"
    monkeypatch.setenv("SPELLFIELD_DATA_DIR", str(fresh))
    library.set_active(library.load_library(fresh), fresh)
    assert "fen_patrol" not in library.active().content.armies
    game, state, _meta = storage.load(Path(saved))
    here = session.state
    for _ in range(30):  # both play on, action for action, event for event
        if here.is_over():
            break
        act = bots[here.pending().player].choose(here)
        assert [e.to_dict() for e in state.apply(act)] == [e.to_dict() for e in here.apply(act)]


def test_many_saved_lists_page_with_the_wheel(app) -> None:
    scene = open_builder(app)
    app.resize((1024, 640))
    b(scene, "add", warscroll="pyre_magister")
    for k in range(12):
        scene.handle(intent("ui", name="list_name", value=f"List {k:02d}"))
        scene.editing = None
        b(scene, "save")
    b(scene, "lists")
    first, last, of = scene.lists_more
    assert first == 0 and of == 12 and last < 12
    names = [r[1] for r in scene.rows]
    scene.handle(intent("scroll", pos=(500, 300), dy=-1))
    assert [r[1] for r in scene.rows][0] == names[1]
    window = pygame.Rect(0, 0, 1024, 640)
    assert all(window.contains(r) for r, _e in _rects(scene))
    scene.draw(pygame.Surface((1024, 640)))
