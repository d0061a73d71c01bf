"""Benchmark: whole random-versus-random default games, and how the cost grows with army size.

    python bench/bench_game.py [--games 10]

Prints the median wall time of a whole game (bot choices included: the random bot samples
unchecked candidates and checks them with `State.legal`) for the default armies (1x), and for
armies with every unit doubled (2x) and quadrupled (4x). Target: 1 s or less median at 1x.
"""

from __future__ import annotations

import argparse
import statistics
import time
from dataclasses import replace

from game.ai.random_bot import RandomBot
from game.data.content import DEFAULT_ARMIES, default_content
from game.rules import Game


def scaled_content(factor: int):
    content = default_content()
    if factor == 1:
        return content
    armies = dict(content.armies)
    for aid in DEFAULT_ARMIES:
        a = armies[aid]
        armies[aid] = a.model_copy(update={"units": list(a.units) * factor})
    return replace(content, armies=armies)


def deep_zones(game_map, depth: float):
    """The default map with each deployment zone `depth` inches deep (4x armies need room)."""
    h = game_map.height
    zones = []
    for z in game_map.deployment:
        y0, y1 = (0.0, depth) if z.player == 1 else (h - depth, h)
        zones.append(z.model_copy(update={"points": [(0.0, y0), (game_map.width, y0), (game_map.width, y1), (0.0, y1)]}))
    return game_map.model_copy(update={"deployment": zones})


def one_game(game: Game, seed: int) -> tuple[float, int]:
    t0 = time.perf_counter()
    state = game.new_state(seed=seed)
    bots = {1: RandomBot(1, seed), 2: RandomBot(2, seed)}
    n = 0
    while not state.is_over():
        state.apply(bots[state.pending().player].choose(state))
        n += 1
    return time.perf_counter() - t0, n


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=10)
    args = ap.parse_args()
    print(f"random vs random, default battle, {args.games} games per size (medians)")
    print(f"{'army size':10} {'units/side':>10} {'game time':>10} {'actions':>8}  target")
    for factor in (1, 2, 4):
        from game.data.content import load_map

        bmap = load_map("ashfall_crossing")
        if factor > 2:
            bmap = deep_zones(bmap, 20.0)
        game = Game.load(content=scaled_content(factor), battlefield=bmap)
        times, actions = [], []
        for seed in range(args.games):
            t, n = one_game(game, seed)
            times.append(t)
            actions.append(n)
        med = statistics.median(times)
        target = ("<= 1 s " + ("PASS" if med <= 1.0 else "MISS")) if factor == 1 else ""
        print(f"{str(factor) + 'x':10} {len(game.armies[0].units):10d} {med:8.2f} s {statistics.median(actions):8.0f}  {target}")


if __name__ == "__main__":
    main()
