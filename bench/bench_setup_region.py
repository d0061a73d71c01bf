"""Benchmark: deciding and suggesting manifestation set-ups (M9, E2) on the default battle.

Times, as medians over repeated calls:

- `candidate_points` (the AI's and the UI's suggestions, `limit` 4), cold (the state's derived
  geometry cleared first, as after any move) and warm (cached, as when the AI asks again);
- `open_setup` (does a legal set-up exist when the spell resolves?), cold.

Each call is one summoning model and one manifestation: every WIZARD and PRIEST of both armies
with every manifestation of its army's lore, on two boards: the default deployment, and the
armies' casters 20" apart in midfield (bench_hero_phase.py's layout), where the 9" from enemy
units matters.

    python bench/bench_setup_region.py [--repeat 20]

Measured on this machine (2 cores, other work running; medians of 30, two runs each), the 1"
grid search this replaced -> the region search:

    deployed  candidates cold 0.73-0.81 -> 1.12-1.47 ms, warm 0.59-0.60 -> 0.00 ms (cached),
              open_setup cold 0.24-0.26 -> 0.55-0.58 ms
    midfield  candidates cold 1.19-1.23 -> 1.31-1.36 ms, warm 0.94-0.99 -> 0.00 ms (cached),
              open_setup cold 0.35-0.39 -> 0.58-0.60 ms
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # this checkout's `game`, not an installed one

from game.rules import ChooseTurnOrder, EndPhase, Game, State  # noqa: E402
from game.rules.effects import EffectContext  # noqa: E402
from game.rules.space import invalidate  # noqa: E402
from game.rules.summoning import candidate_points, open_setup  # noqa: E402
from game.rules.units import ModelState, UnitState  # noqa: E402

SCROLLS = {
    1: ["rolling_pyre", "ashen_serpent", "ember_beacon"],
    2: ["bog_light_swarm", "mist_eel", "idol_of_the_drowned_moon"],
}
CASTERS = {
    1: ["pyre_magister", "ashen_abbess", "cinder_adept", "hearth_chaplain", "coven_of_the_kindled"],
    2: ["fen_oracle", "moon_hierophant", "reed_witch", "tide_caller", "chorus_of_the_deep"],
}


def hero_state(game: Game, seed: int, midfield: bool) -> State:
    s = game.new_state(seed=seed)
    s.apply(EndPhase(player=1))
    s.apply(EndPhase(player=2))
    s.apply(ChooseTurnOrder(player=s.priority_winner, first=1))
    s.apply(EndPhase(player=1))  # start of turn -> hero
    if midfield:
        for player, y in ((1, 12.0), (2, 32.0)):
            for k, ws_id in enumerate(CASTERS[player]):
                ws = game.warscroll(ws_id)
                models = [ModelState(8 + 8 * k + 2.2 * i, y) for i in range(ws.models)]
                s.units[f"c{player}{k}"] = UnitState(f"c{player}{k}", player, ws_id, ws.name, models)
    return s


def summoners(s: State) -> list[tuple[int, str, str]]:
    out = []
    for uid, u in s.units.items():
        kw = s.game.warscroll(u.warscroll).keywords
        if any(k.startswith(("WIZARD", "PRIEST")) for k in kw):
            out += [(u.player, uid, scroll) for scroll in SCROLLS[u.player]]
    return out


def timed(fn, repeat: int) -> float:
    runs = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        runs.append(time.perf_counter() - t0)
    return statistics.median(runs) * 1000


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=20)
    args = ap.parse_args()
    game = Game.load()
    print(f"set-up search (M9, E2), default battle, median of {args.repeat} calls per (model, manifestation)")
    print(f"{'board':10} {'calls':>5} {'candidates cold':>16} {'candidates warm':>16} {'open_setup cold':>16} {'found':>6}")
    for name, midfield in (("deployed", False), ("midfield", True)):
        s = hero_state(game, 7, midfield)
        cold, warm, opened, found = [], [], [], 0
        for player, uid, scroll in summoners(s):

            def cands_cold():
                invalidate(s)
                return candidate_points(s, player, uid, 0, scroll)

            def cands_warm():
                return candidate_points(s, player, uid, 0, scroll)

            def open_cold():
                invalidate(s)
                n = len(s.decisions)
                open_setup(s, EffectContext(player, uid, 0, "bench", None, "M3"), scroll)
                ok = len(s.decisions) > n
                del s.decisions[n:]
                return ok

            cold.append(timed(cands_cold, args.repeat))
            cands_warm()
            warm.append(timed(cands_warm, args.repeat))
            opened.append(timed(open_cold, args.repeat))
            found += bool(open_cold())
        n = len(cold)
        print(
            f"{name:10} {n:5d} {statistics.median(cold):13.2f} ms {statistics.median(warm):13.2f} ms "
            f"{statistics.median(opened):13.2f} ms {found:6d}"
        )


if __name__ == "__main__":
    main()
