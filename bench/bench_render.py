"""Frame times of the battle scene with the SDL dummy driver (update + draw, overlays on).

    python bench/bench_render.py [--frames 300]

Scenes:
- default: the default battle in player 1's hero phase, a caster selected, another unit hovered
  (its range rings, the sight line) and the ruler out;
- heavy: 100 models, 12 manifestations and 30 terrain pieces, the same overlays, the camera
  panning one pixel every other frame (so the cached static layer is redrawn half the time).

Targets (issue 6): p95 <= 8 ms default, <= 12 ms heavy.
"""

from __future__ import annotations

import argparse
import math
import os
import random
import statistics
import sys
import time
from pathlib import Path

os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ["SDL_AUDIODRIVER"] = "dummy"
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from game.data.models import BattleMap  # noqa: E402
from game.rules import Game  # noqa: E402
from game.rules.units import ManifestationState, ModelState, UnitState  # noqa: E402
from game.ui.app import App, init_pygame  # noqa: E402
from game.ui.controllers import HumanController  # noqa: E402
from game.ui.intents import intent  # noqa: E402
from game.ui.scenes.battle import BattleScene  # noqa: E402
from game.ui.session import Session  # noqa: E402


def to_hero(scene, app) -> None:
    for _ in range(20):
        st, d = scene.state, scene.decision
        if st.phase == "hero" and not scene.needs_handover():
            return
        if scene.needs_handover():
            scene.handle(intent("continue"))
        elif d.kind == "turn_order":
            scene.handle(intent("choose", action=next(o for o in d.options if o.first == d.player)))
        else:
            scene.handle(intent("end_phase"))
        app.frame(1 / 60)


def screen(scene, x, y):
    sx, sy = scene.camera.to_screen(x, y)
    return int(sx + scene.field_rect.x), int(sy + scene.field_rect.y)


def overlays_on(scene, observer: str, target: str) -> None:
    st = scene.state
    o = st.units[observer].models[0]
    t = st.units[target].models[0]
    scene.handle(intent("select", unit=observer))
    scene.handle(intent("pointer", pos=screen(scene, t.x, t.y)))
    scene.ruler = None
    from game.geometry.shapes import Circle

    scene.ruler = [Circle(o.x, o.y, 0.8), Circle(t.x, t.y, 0.8)]


def heavy_session() -> Session:
    rng = random.Random(4)
    terrain = []
    traits = [["obscuring"], ["impassable"], ["cover"], ["obscuring", "cover"], ["impassable", "obscuring"]]
    for i in range(30):
        cx, cy = 5 + (i % 6) * 10, 14 + (i // 6) * 4.2
        r = rng.uniform(0.8, 1.6)
        pts = [[round(cx + r * math.cos(a), 3), round(cy + r * math.sin(a), 3)]
               for a in [k * 2 * math.pi / 6 + rng.uniform(-0.2, 0.2) for k in range(6)]]
        terrain.append({"name": f"Piece {i}", "traits": traits[i % 5], "points": pts})
    bmap = BattleMap(id="heavy", name="Heavy", width=60, height=44, terrain=terrain)
    game = Game.load(battlefield=bmap)
    st = game.new_state(seed=2)
    units = {}
    ws1 = ["pyre_magister", "ashen_abbess", "cinder_adept", "emberward_spears", "forge_guard"]
    ws2 = ["fen_oracle", "moon_hierophant", "reed_witch", "mire_wardens", "toadback_riders"]
    n = 0
    for p, names, y0 in ((1, ws1, 3.0), (2, ws2, 37.0)):
        for k in range(10):
            ws = names[k % len(names)]
            models = [ModelState(2.5 + k * 5.8 + (j % 3) * 1.7, y0 + (j // 3) * 1.7) for j in range(5)]
            uid = f"p{p}u{k}"
            units[uid] = UnitState(uid, p, ws, game.warscroll(ws).name, models)
            n += 5
    st.units = units
    scrolls = list(game.content.manifestations)
    for i in range(12):
        mid = f"m{i}"
        st.manifestations[mid] = ManifestationState(mid, scrolls[i % len(scrolls)], 1 + i % 2, f"p{1 + i % 2}u0", 0,
                                                     4 + i * 4.6, 11 if i % 2 else 33, commander=1 + (i // 2) % 2)
    st.stage, st.round, st.turn, st.active, st.first_player, st.phase = "battle", 1, 1, 1, 1, "hero"
    assert n == 100
    return Session(game, st, 2)


def measure(app, scene, frames: int, pan: bool) -> list[float]:
    for _ in range(10):  # warm the caches
        app.frame(1 / 60)
    times = []
    for i in range(frames):
        if pan and i % 2 == 0:
            scene.camera.pan(1, 0)
        t0 = time.perf_counter()
        app.frame(1 / 60)
        times.append((time.perf_counter() - t0) * 1000)
    return times


def report(name: str, times: list[float], target: float) -> bool:
    times = sorted(times)
    p95 = times[int(0.95 * (len(times) - 1))]
    med = statistics.median(times)
    ok = p95 <= target
    print(f"{name:8s} median {med:5.2f} ms  p95 {p95:5.2f} ms  (target p95 <= {target:g} ms: {'OK' if ok else 'MISSED'})")
    return ok


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--frames", type=int, default=300)
    args = ap.parse_args()
    init_pygame(True)
    app = App((1280, 800), headless=True)

    session = Session.new(seed=3)
    scene = BattleScene(app, session, {1: HumanController(1), 2: HumanController(2)})
    scene.seen_player = 1
    app.push(scene)
    to_hero(scene, app)
    overlays_on(scene, "p1u0", "p1u1")
    ok1 = report("default", measure(app, scene, args.frames, pan=False), 8)
    ok1b = report("default+pan", measure(app, scene, args.frames // 2, pan=True), 8)
    app.pop()

    heavy = heavy_session()
    scene = BattleScene(app, heavy, {1: HumanController(1), 2: HumanController(2)})
    scene.seen_player = 1
    app.push(scene)
    overlays_on(scene, "p1u0", "p2u3")
    ok2 = report("heavy", measure(app, scene, args.frames, pan=False), 12)
    ok2b = report("heavy+pan", measure(app, scene, args.frames // 2, pan=True), 12)
    print(f"static layer renders: {scene.renderer.static_renders}")
    return 0 if ok1 and ok2 else 1


if __name__ == "__main__":
    raise SystemExit(main())
