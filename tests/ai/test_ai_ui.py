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
    app.scene.handle(intent("ui", name="side", value=VsAIScene.SIDES[1]))  # we play player 2
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
