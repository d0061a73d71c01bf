"""The headless command, the menus, the generic decision panel, replays and the bot controller."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pygame

from game.rules.actions import EndPhase
from game.rules.decisions import Decision
from game.ui.decisions import PanelContext, build_view
from game.ui.intents import intent
from game.ui.labels import describe
from tests.ui.conftest import frames
from tests.ui.uihelpers import hotseat, scripted_session

ROOT = Path(__file__).resolve().parents[2]


def test_headless_screenshot_command_writes_png_of_the_right_size(tmp_path):
    out = tmp_path / "shot.png"
    env = {k: v for k, v in os.environ.items() if k not in ("SDL_VIDEODRIVER", "DISPLAY", "WAYLAND_DISPLAY")}
    env["PYTHONPATH"] = str(ROOT)
    proc = subprocess.run(
        [sys.executable, "-m", "game.ui.app", "--headless", "--frames", "3", "--screenshot", str(out), "--size", "1024x640"],
        cwd=tmp_path, env=env, capture_output=True, text=True, timeout=60,
    )
    assert proc.returncode == 0, proc.stderr
    img = pygame.image.load(str(out))
    assert img.get_size() == (1024, 640)
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_add_play_arguments_keeps_existing_options():
    import argparse

    from game.ui.app import add_play_arguments

    p = argparse.ArgumentParser()
    p.add_argument("--seed", type=int, default=1)
    add_play_arguments(p)  # must not clash with --seed
    a = p.parse_args(["--headless", "--frames", "2", "--size", "800x600", "--seed", "4"])
    assert a.headless and a.frames == 2 and a.size == (800, 600) and a.seed == 4 and a.screenshot is None


def test_generic_panel_plays_an_unknown_decision_kind(app):
    session = scripted_session([])  # only the panel is built: nothing is rolled
    st = session.state
    fake = Decision(player=1, kind="mystery_choice", prompt="pick something new",
                    options=(EndPhase(player=1),),
                    data={"point_action": "PlaceManifestation", "centre": [10, 10], "reach": 6})
    view = build_view(PanelContext(session, fake, {}))
    assert view.title == "Player 1: pick something new"
    assert [b.label for b in view.buttons] == ["End deployment"]
    assert view.point is not None and view.point.action_at(3, 4).to_dict() == {
        "type": "PlaceManifestation", "player": 1, "x": 3, "y": 4}
    # labels for actions the UI has never heard of: type and fields, ids as names
    from dataclasses import dataclass

    from game.rules.actions import Action

    @dataclass(frozen=True)
    class MarchTo(Action):
        unit: str
        x: float
        y: float

    lab = describe(st, MarchTo(player=1, unit="p1u0", x=1.0, y=2.5))
    assert lab.text == "March to: unit Pyre-Magister, x 1.0, y 2.5"


def test_menu_new_game_and_resume_without_saves(app):
    from game.ui.scenes.battle import BattleScene
    from game.ui.scenes.menu import MenuScene, NewGameScene

    menu = MenuScene(app)
    app.push(menu)
    frames(app)
    menu.handle(intent("menu", go="resume"))
    assert "No saved game" in menu.message or menu.message == "" or isinstance(app.scene, BattleScene)
    menu.handle(intent("menu", go="new"))
    assert isinstance(app.scene, NewGameScene)
    ng = app.scene
    ng.handle(intent("ui", name="map", value="drowned_fen"))
    ng.handle(intent("ui", name="profile", value="aos3"))
    ng.handle(intent("ui", name="seed", value="11"))
    frames(app)
    ng.handle(intent("start"))
    assert isinstance(app.scene, BattleScene)
    g = app.scene.session.game
    assert g.battlefield.map.id == "drowned_fen" and g.profile.name == "aos3"
    frames(app, 3)
    app.scene.handle(intent("back"))  # leave: it asks first, then writes the replay of the moves so far
    assert app.scene.confirm is not None and app.scene.confirm.question == "Leave the battle?"
    app.scene.handle(intent("continue"))
    assert isinstance(app.scene, MenuScene)


def test_replay_scene_steps_forward_and_back(app, tmp_path):
    from game.ai.random_bot import RandomBot
    from game.rules.game import Game
    from game.rules.session import Recorder

    game = Game.load()
    rec = Recorder(game, 5, game.new_state(seed=5))
    bots = {1: RandomBot(1, 5), 2: RandomBot(2, 5)}
    for _ in range(25):
        rec.apply(bots[rec.state.pending().player].choose(rec.state))
    path = tmp_path / "r.json"
    path.write_text(json.dumps(rec.to_dict()))
    assert app.open_replay(path) is None
    scene = app.scene
    frames(app)
    scene.handle(intent("step", delta=10))
    frames(app)
    assert scene.ctl.index == 10 and scene.mismatch is None
    scene.handle(intent("step", delta=-3))
    frames(app)
    assert scene.ctl.index == 7 and scene.session.state.checksum() == rec.steps[6]["checksum"]
    scene.handle(intent("step", delta=100))
    frames(app)
    assert scene.ctl.index == 25 and scene.session.state.checksum() == rec.state.checksum()
    assert "step 25 of 25" in scene.view.title


def test_bot_controller_thinks_off_the_render_loop(app):
    from game.ai.random_bot import RandomBot
    from game.ui.controllers import BotController
    from game.ui.scenes.battle import BattleScene
    from game.ui.session import Session

    class SlowBot(RandomBot):
        def choose(self, state):
            time.sleep(0.05)
            return super().choose(state)

    session = Session.new(seed=3)
    scene = BattleScene(app, session, {p: BotController(p, SlowBot(p, 3)) for p in (1, 2)}, mode="demo")
    app.push(scene)
    t0 = time.perf_counter()
    drawn_while_thinking = 0
    while session.version < 4 and time.perf_counter() - t0 < 10:
        app.frame(1 / 60)
        if any(c.thinking() for c in scene.controllers.values()):
            drawn_while_thinking += 1
    # the window kept drawing while the bots were thinking (each sleeps 50 ms per decision)
    assert session.version >= 4 and drawn_while_thinking >= 4


def test_event_log_click_shows_rule_text(app):
    session = scripted_session([5, 2])  # the priority roll-off
    scene = hotseat(app, session)
    scene.handle(intent("end_phase"))
    frames(app)
    scene.handle(intent("continue"))
    scene.handle(intent("end_phase"))
    frames(app, 3)
    scene.handle(intent("continue"))  # player 1's hand-over screen (the turn order choice)
    frames(app)
    assert scene.log_boxes
    rect, i = scene.log_boxes[0]
    scene.handle(intent("press", pos=rect.center, button=1))
    assert scene.rule_popup is not None and scene.rule_popup[0].startswith("R2")
    assert "roll off" in scene.rule_popup[1]


def test_the_menu_switches_to_the_colour_blind_safe_palette_and_back(app):
    # colour is never the only signal, and the colours themselves can be the safe set (Okabe-Ito)
    from game.ui import theme
    from game.ui.intents import intent
    from game.ui.scenes.menu import PALETTE_LABELS, MenuScene

    menu = MenuScene(app)
    app.push(menu)
    try:
        menu.handle(intent("menu", go="palette"))
        assert theme.PALETTE == "okabe_ito"
        menu.handle(intent("menu", go="palette"))
        assert theme.PALETTE == "default"
        assert PALETTE_LABELS["default"] == "Colours: standard"
    finally:
        theme.use_palette("default")
