"""Shared builders for the decision-control tests: a scene on a `tests.helpers.battle()` state,
and mouse gestures made of intents."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

from game.ui.controllers import HumanController
from game.ui.intents import intent
from game.ui.scenes.battle import BattleScene
from game.ui.session import Session
from tests.ui.uihelpers import screen_pos

SHOTS = Path(os.environ.get("SPELLFIELD_TEST_SHOTS") or Path(tempfile.gettempdir()) / "spellfield-ui-shots")


def scene_for(app, state) -> BattleScene:
    session = Session(state.game, state, 0)
    scene = BattleScene(app, session, {1: HumanController(1), 2: HumanController(2)})
    scene.seen_player = session.decision.player
    app.push(scene)
    app.frame(1 / 60)
    return scene


def frame(app, n: int = 1) -> None:
    for _ in range(n):
        app.frame(1 / 60)


def drag(app, scene, a: tuple[float, float], b: tuple[float, float], steps: int = 4, release: bool = True) -> None:
    """Press at world point a, drag to b in a few steps, release (all as intents)."""
    pa = screen_pos(scene, *a)
    scene.handle(intent("pointer", pos=pa))
    scene.handle(intent("press", pos=pa, button=1))
    for k in range(1, steps + 1):
        x = a[0] + (b[0] - a[0]) * k / steps
        y = a[1] + (b[1] - a[1]) * k / steps
        scene.handle(intent("drag", pos=screen_pos(scene, x, y), rel=(1, 1), buttons=(1, 0, 0)))
        frame(app)
    if release:
        scene.handle(intent("release", pos=screen_pos(scene, *b), button=1))
        frame(app)


def point_at(app, scene, x: float, y: float) -> None:
    scene.handle(intent("pointer", pos=screen_pos(scene, x, y)))
    frame(app)


def shot(app, name: str) -> Path:
    SHOTS.mkdir(parents=True, exist_ok=True)
    return Path(app.screenshot(SHOTS / name))
