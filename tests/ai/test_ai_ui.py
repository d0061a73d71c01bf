"""Solo play against the AI in the front end: the menu entry, and the AI's explanations in the log."""

from __future__ import annotations

import os
import time

os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ["SDL_AUDIODRIVER"] = "dummy"
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

import pytest  # noqa: E402


@pytest.fixture
def app(tmp_path, monkeypatch):
    monkeypatch.setenv("SPELLFIELD_HOME", str(tmp_path / "home"))
    from game.ui.app import App, init_pygame

    init_pygame(True)
    a = App((1280, 800), headless=True)
    yield a
    while a.scenes:
        a.pop()


def test_play_vs_ai_from_the_menu_and_the_ai_explains_itself_in_the_log(app):
    from game.ui.controllers import BotController, HumanController
    from game.ui.intents import intent
    from game.ui.scenes.menu import MenuScene, VsAIScene

    app.push(MenuScene(app))
    app.scene.handle(intent("menu", go="vs_ai"))
    assert isinstance(app.scene, VsAIScene)
    app.scene.handle(intent("ui", name="side", value="Player 2"))  # we play player 2
    app.scene.handle(intent("start"))
    scene = app.scene
    assert isinstance(scene.controllers[1], BotController) and scene.controllers[1].bot.name == "normal"
    assert isinstance(scene.controllers[2], HumanController)
    t0 = time.perf_counter()
    while scene.session.version < 1 and time.perf_counter() - t0 < 20:  # the AI deploys first
        app.frame(1 / 60)
    app.frame(1 / 60)
    assert scene.session.version >= 1
    assert any(text.startswith("AI (player 1):") and rule == "" for text, rule in scene._log_lines)


@pytest.mark.parametrize("level", ["random", "normal", pytest.param("hard", marks=pytest.mark.soak)])
def test_a_whole_game_against_each_level_from_the_menu(app, level):
    """Solo play from the main menu to the result: the person's choices arrive as intents (a
    random legal choice stands in for them); the AI answers from its thread between frames."""
    from game.ai.random_bot import RandomBot
    from game.ui.intents import intent
    from game.ui.scenes.menu import MenuScene, VsAIScene

    app.push(MenuScene(app))
    app.scene.handle(intent("menu", go="vs_ai"))
    app.scene.handle(intent("ui", name="level", value=level))
    app.scene.handle(intent("ui", name="side", value="Player 2"))  # the person plays second
    app.scene.handle(intent("start"))
    scene = app.scene
    ai = scene.controllers[1]
    assert ai.bot.name == level
    ai.min_delay = 0.0  # the pause that lets a person follow each AI move
    person = RandomBot(2, 5)
    explained = thinking_frames = 0
    # a stall guard, not a time limit: a loaded machine may take long, but every decision moves on
    seen, since = scene.session.version, time.perf_counter()
    while not scene.state.is_over() and time.perf_counter() - since < 120:
        if scene.session.version != seen:
            seen, since = scene.session.version, time.perf_counter()
        if scene.needs_handover():
            scene.handle(intent("continue"))
        if scene.decision.player == 2:
            scene.handle(intent("choose", action=person.choose(scene.state)))
        thinking_frames += ai.thinking()
        app.frame(1 / 60)  # the window keeps drawing while the AI thinks
        explained += bool(scene._log_lines) and scene._log_lines[-1][0].startswith("AI (player 1):")
    app.frame(1 / 60)
    assert scene.state.is_over() and scene.state.result()["reason"]
    assert scene.view is not None and scene.view.title == "Game over"
    if level != "random":  # the random level has nothing to explain
        assert explained and thinking_frames
