"""G4, G2: the shortcuts of issue 24 (cost that grows with the work) never change an answer.

- Deployment coherency asks only the neighbouring grid slots (`deployment._coherent`): the same
  yes or no as asking every base of the unit placed so far.
- `unit_sees` and the shooting volleys ask `sees` (sight batched over the target's bases): the
  same yes or no as `sight(...).visible` model by model.
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from game.data.content import DEFAULT_MAP, load_map
from game.geometry.shapes import Circle
from game.rules import Game
from game.rules.battlefield import Battlefield
from game.rules.deployment import GAP, _coherent, _slot_order, place_unit
from game.rules.space import sight, unit_sees


@settings(max_examples=60, deadline=None)
@given(
    st.floats(0.02, 1.6),
    st.tuples(st.floats(5, 55), st.floats(5, 39)),
    st.integers(0, 2**16),
)
def test_g4_coherency_by_neighbouring_slots_matches_every_base(radius, anchor, pick):
    step = 2 * radius + GAP
    slots = _slot_order(step, 6, 1)[:40]
    placed: dict[tuple[int, int], Circle] = {}
    for n, (i, j) in enumerate(slots):
        c = Circle(round(anchor[0] + i * step, 4), round(anchor[1] + j * step, 4), radius)
        mine = list(placed.values())
        if mine:
            assert _coherent(c, i, j, placed, mine) == _coherent(c, i, j, None, mine)
        if (pick >> (n % 16)) & 1 or not placed:
            placed[(i, j)] = c


def test_g4_default_deployment_is_unchanged_by_the_neighbour_shortcut(monkeypatch):
    bf = Battlefield.from_map(load_map(DEFAULT_MAP))
    fast = [place_unit(bf, None, (20.0 + 6 * k, 10.0), 10, 0.5 + 0.2 * k, []) for k in range(4)]
    import game.rules.deployment as dep

    monkeypatch.setattr(dep, "NEIGHBOUR_RADIUS", float("inf"))  # always every base
    slow = [place_unit(bf, None, (20.0 + 6 * k, 10.0), 10, 0.5 + 0.2 * k, []) for k in range(4)]
    assert fast == slow


def test_g2_unit_sees_matches_sight_model_by_model():
    game = Game.load()
    s, ref = game.new_state(seed=3), game.new_state(seed=3)  # two states: no answer kept is shared
    asked = 0
    for a, ua in s.units.items():
        for b, ub in s.units.items():
            if ua.player == ub.player:
                continue
            with s.query(), ref.query():
                want = any(sight(ref, a, i, b).visible for i, _ in ua.live_models())
                assert unit_sees(s, a, b) == want, (a, b)
            asked += 1
    assert asked > 50
