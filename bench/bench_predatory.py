"""Benchmark: the whole predatory procedure (E6-E10) at the end of a hero phase (issue 4).

12 predatory manifestations (some controlled, some wild, some models eligible for two), 100
models and a 30-piece terrain map. Bot thinking is excluded: the procedure is first played by
random bots on a clone to record its actions (EndPhase, then every control and move decision),
then the recorded actions are re-applied to a fresh copy under the timer. `pending()` for the
first move decision (the option enumeration a UI or bot asks for) is timed apart.

    python bench/bench_predatory.py [--runs 200]
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import time

from game.ai.random_bot import RandomBot
from game.data.models import BattleMap
from game.geometry.measure import touches_edge
from game.geometry.shapes import Circle
from game.rules import ChooseTurnOrder, EndPhase, Game, State
from game.rules.predatory import blocked_reason
from game.rules.space import manifestation_shape
from game.rules.units import ManifestationState, ModelState, UnitState

MOVERS = ["rolling_pyre", "ashen_serpent", "bog_light_swarm", "mist_eel", "tide_hound"]
WIZARDS = {1: ["pyre_magister", "cinder_adept", "pyre_magister", "cinder_adept"], 2: ["fen_oracle", "reed_witch", "fen_oracle", "reed_witch"]}
LINES = {1: "emberward_spears", 2: "mire_wardens"}  # 10 models each
MANIFESTATIONS = 12
TERRAIN = 30


def terrain_map(seed: int = 1) -> BattleMap:
    """A 60" x 44" map with 30 small pieces: a third impassable, the rest obscuring or cover."""
    rng = random.Random(seed)
    pieces = []
    for k in range(TERRAIN):
        cx, cy, r = rng.uniform(4, 56), rng.uniform(4, 40), rng.uniform(0.8, 1.8)
        sides = rng.choice([4, 5, 6])
        rot = rng.uniform(0, math.pi)
        pts = [(round(cx + r * math.cos(rot + 2 * math.pi * i / sides), 3), round(cy + r * math.sin(rot + 2 * math.pi * i / sides), 3)) for i in range(sides)]
        traits = ["impassable"] if k % 3 == 0 else (["obscuring"] if k % 3 == 1 else ["cover"])
        pieces.append({"name": f"Piece {k}", "traits": traits, "points": pts})
    return BattleMap(id="bench_field", name="Bench Field", terrain=pieces)


def procedure_state(game: Game, seed: int) -> State:
    """Player 1's hero phase, just before it ends: 100 models and 12 predatory manifestations."""
    rng = random.Random(seed)
    s = game.new_state(seed=seed)
    s.apply(EndPhase(player=1))
    s.apply(EndPhase(player=2))
    s.apply(ChooseTurnOrder(player=s.priority_winner, first=1))
    s.apply(EndPhase(player=1))  # start of turn -> hero
    assert s.phase == "hero" and not s.decisions
    s.units = {}
    taken: list[tuple[float, float, float]] = []

    def spot(r: float, y0: float, y1: float) -> tuple[float, float]:
        while True:
            x, y = rng.uniform(2, 58), rng.uniform(y0, y1)
            clear = all(math.hypot(x - a, y - b) > r + c + 0.1 for a, b, c in taken)
            if clear and not game.battlefield.terrain.impassable_overlapping(Circle(x, y, r)):
                taken.append((x, y, r))
                return x, y

    models = 0
    for player, (y0, y1) in ((1, (2, 20)), (2, (24, 42))):
        for k, ws_id in enumerate(WIZARDS[player]):
            ws = game.warscroll(ws_id)
            uid = f"w{player}{k}"
            s.units[uid] = UnitState(uid, player, ws_id, ws.name, [ModelState(*spot(ws.base.radius_in or 0.5, y0, y1))])
            models += 1
        for k in range(4 if player == 1 else 5):
            ws = game.warscroll(LINES[player])
            uid = f"l{player}{k}"
            s.units[uid] = UnitState(uid, player, ws.id, ws.name, [ModelState(*spot(ws.base.radius_in or 0.5, y0, y1)) for _ in range(10)])
            models += 10
    ws = game.warscroll("fen_oracle")
    while models < 100:  # top up to exactly 100 models with single casters
        uid = f"x{models}"
        s.units[uid] = UnitState(uid, 2, "fen_oracle", ws.name, [ModelState(*spot(ws.base.radius_in or 0.5, 24, 42))])
        models += 1
    for j in range(MANIFESTATIONS):
        player = 1 + j % 2
        summoner = f"w{player}{(j // 2) % 4}"
        scroll = MOVERS[j % len(MOVERS)]
        mid = f"m{j}"
        for _ in range(500):
            x, y = rng.uniform(4, 56), rng.uniform(4, 40)
            s.manifestations[mid] = ManifestationState(mid, scroll, player, summoner, 0, x, y, commander=player)
            s._cache.clear()
            ok = blocked_reason(s, mid, x, y) is None and not game.battlefield.terrain.impassable_overlapping(manifestation_shape(s, mid))
            if ok and not touches_edge(manifestation_shape(s, mid), 60, 44):
                break
            del s.manifestations[mid]
    s._cache.clear()
    return s


def one_run(start: State, seed: int) -> tuple[float, float, int, int]:
    bots = {1: RandomBot(1, seed), 2: RandomBot(2, seed)}
    scout = start.clone()
    actions = [EndPhase(player=1)]
    scout.apply(actions[0])
    while scout.phase == "hero" and not scout.is_over():
        a = bots[scout.pending().player].choose(scout)
        actions.append(a)
        scout.apply(a)
    run = start.clone()
    t0 = time.perf_counter()
    events = 0
    for a in actions:
        events += len(run.apply(a))
    applied = time.perf_counter() - t0
    probe = start.clone()
    for a in actions:  # up to the first move decision
        if probe.pending().kind == "predatory_move":
            break
        probe.apply(a)
    t0 = time.perf_counter()
    probe.pending().options  # options are lazy: force the enumeration
    enumerate_once = time.perf_counter() - t0
    return applied, enumerate_once, len(actions), events


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=200)
    args = ap.parse_args()
    game = Game.load(profile="aos4", battlefield=terrain_map())
    applied, enum, counts, evs = [], [], [], []
    for seed in range(args.runs):
        start = procedure_state(game, seed)
        assert sum(len(u.models) for u in start.units.values()) == 100 and len(start.manifestations) == MANIFESTATIONS
        a, e, n, k = one_run(start, seed)
        applied.append(a * 1000)
        enum.append(e * 1000)
        counts.append(n)
        evs.append(k)
    med = statistics.median(applied)
    print(f"predatory procedure, {MANIFESTATIONS} manifestations, 100 models, {TERRAIN} terrain pieces, {args.runs} runs (medians)")
    print(f"{'apply() whole procedure':>24} {'pending().options':>19} {'actions':>8} {'events':>7}  target")
    verdict = "PASS" if med <= 20.0 else "MISS"
    print(f"{med:21.2f} ms {statistics.median(enum):16.2f} ms {statistics.median(counts):8.0f} {statistics.median(evs):7.0f}  <= 20 ms {verdict}")


if __name__ == "__main__":
    main()
