"""Whole games between random bots: the battle's invariants hold throughout (G3, G4, R2, R4)."""

from __future__ import annotations

import math

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from game.ai.random_bot import RandomBot
from game.geometry.measure import TOL
from game.geometry.shapes import Circle
from game.rules import Game
from game.rules.formation import COMBAT_RANGE, coherency_problem, gap_to_enemies, radius_of
from game.rules.replay import verify
from game.rules.session import Recorder

GAMES = {p: Game.load(profile=p) for p in ("aos4", "aos3")}


def _circles(state):
    out = []
    for uid, u in state.units.items():
        r = radius_of(state, uid)
        out += [(uid, Circle(m.x, m.y, r)) for _, m in u.live_models()]
    return out


def _check(state, events) -> None:
    bf = state.game.battlefield
    circles = _circles(state)
    for uid, c in circles:  # G3/G4: nothing off the board or touching the edge
        assert c.x - c.r > 0 and c.y - c.r > 0 and c.x + c.r < bf.width and c.y + c.r < bf.height, (uid, c)
    for i in range(len(circles)):  # G4: no bases overlap
        for j in range(i + 1, len(circles)):
            (u1, a), (u2, b) = circles[i], circles[j]
            assert math.hypot(a.x - b.x, a.y - b.y) >= a.r + b.r - 1e-6, (u1, u2)
    for e in events:
        if e.type == "UnitMoved" and e.unit in state.units and state.units[e.unit].alive:
            mine = [c for uid, c in circles if uid == e.unit]
            assert coherency_problem(mine) is None, e  # coherency kept after every move
            if e.kind in ("normal", "run", "retreat"):  # R4: no normal move ends in combat
                assert gap_to_enemies(state, state.units[e.unit].player, mine, "movement") > COMBAT_RANGE + TOL, e


@settings(max_examples=4, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 100_000), profile=st.sampled_from(["aos4", "aos3"]))
def test_r2_whole_random_games_keep_the_invariants_end_with_a_result_and_replay(seed, profile):
    game = GAMES[profile]
    rec = Recorder(game, seed, game.new_state(seed=seed))
    bots = {1: RandomBot(1, seed), 2: RandomBot(2, seed)}
    while not rec.state.is_over():
        events = rec.apply(bots[rec.state.pending().player].choose(rec.state))
        _check(rec.state, events)
    result = rec.state.result()
    assert result is not None and result["reason"]
    assert verify(rec.to_dict()).ok
