"""Benchmark the bots (issue 7): decision latency over real games, and win rates.

Latency: whole games of each level against `normal` (the bot's own decisions are timed, on this
machine, one process); p50, p95 and max per level, and for hard also apart for the decisions
that ran a plan search and those that did not (issue 25: at most 6 s and 1.5 s). Win rates:
`game.sim.run`, sides and armies alternated, with 95% Wilson intervals (draws count half).

    python bench/bench_ai.py [--latency-games 2] [--games 40] [--jobs 2] [--hard-budget 1.0]
    python bench/bench_ai.py --skip-latency --games 400 --pairs normal:random
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

# run as a script, Python would put bench/ first on the path and import an installed (possibly
# stale) copy of the game; the working tree is what we mean to measure
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from game.ai.registry import make_bot
from game.data.content import DEFAULT_ARMIES
from game.rules import Game
from game.sim import run, summary


def latencies(level: str, games: int, seed: int) -> tuple[list[float], list[float]]:
    """The level's decision times over `games` games against normal: the plain decisions, and
    apart the ones that ran a once-a-phase plan search (hard's `searched` counter moved)."""
    plain: list[float] = []
    searches: list[float] = []
    for g in range(games):
        state = Game.load(profile="aos4", armies=DEFAULT_ARMIES).new_state(seed=seed + g)
        me = 1 + g % 2
        bots = {me: make_bot(level, me, seed + g), 3 - me: make_bot("normal", 3 - me, seed + g + 1)}
        while not state.is_over():
            p = state.pending().player
            before = getattr(bots[p], "searched", 0)
            t = time.perf_counter()
            action = bots[p].choose(state)
            if p == me:
                took = time.perf_counter() - t
                (searches if getattr(bots[p], "searched", 0) != before else plain).append(took)
            state.apply(action)
    return plain, searches


def pct(xs: list[float], q: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))] if xs else float("nan")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--latency-games", type=int, default=2)
    ap.add_argument("--games", type=int, default=40, help="games per pairing for win rates (0: skip)")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--hard-budget", type=float, default=None, help="hard's time cap per decision (default: the bot's)")
    ap.add_argument("--pairs", default="normal:random,hard:normal", help="comma-separated first:second bot pairs")
    ap.add_argument("--skip-latency", action="store_true")
    a = ap.parse_args()
    hard = "hard" if a.hard_budget is None else f"hard@{a.hard_budget}"
    if not a.skip_latency:
        for level in ("random", "normal", hard):
            plain, searches = latencies(level, a.latency_games, a.seed)
            for what, xs in (("decisions", plain + searches), ("without a search", plain), ("plan searches", searches)):
                if xs and (what == "decisions" or searches):
                    print(f"latency {level:>10}: {len(xs):5d} {what:16}  p50 {pct(xs, .5) * 1000:7.1f} ms  "
                          f"p95 {pct(xs, .95) * 1000:7.1f} ms  max {max(xs) * 1000:7.1f} ms")
    if a.games:
        for pair in a.pairs.split(","):
            p1, p2 = (hard if b == "hard" else b for b in pair.split(":"))
            t = time.perf_counter()
            s = summary(run(a.games, p1, p2, a.seed, a.jobs, progress=False), p1, p2)
            lo, hi = s["p1_win_rate_ci95"]
            print(f"{p1} vs {p2}: {s['games']} games, {s['p1_wins']}-{s['p2_wins']}-{s['draws']} (W-L-D), "
                  f"win rate {s['p1_win_rate']:.1%} (95% CI {lo:.1%} - {hi:.1%}) in {time.perf_counter() - t:.0f} s")
            for label in ("p1_by_side", "p1_by_army"):
                print("    " + ", ".join(f"{k} {v['wins']}-{v['losses']}-{v['draws']} ({v['win_rate']:.1%})"
                                         for k, v in s[label].items()))
            capped = s["per_game"].get("searches_capped", 0)
            print(f"    searches cut short by the time cap: {capped:.2f} a game")


if __name__ == "__main__":
    main()
