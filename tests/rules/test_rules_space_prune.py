"""G1, R4, G4: the numpy prunes of issue 24 never change an answer.

`units_maybe_within` only drops units whose exact `distance` is beyond the reach, so the charge
reach (R4), the fight targets (R4) and the nearest-enemy goal of the movement candidates give the
same answers as the unpruned pairwise maths, even at the boundary (exactly 12", 3", ½"). The
deployment's cached slot order is the order the slots were sorted in before (G4).
"""

from __future__ import annotations

import math

from hypothesis import given, settings
from hypothesis import strategies as st

from game.geometry.measure import TOL, distance
from game.geometry.shapes import Circle
from game.rules.charge import enemies_within
from game.rules.deployment import _slot_order
from game.rules.movement import _targets_for_moves
from game.rules.space import VECTOR_PAIRS, gap_between, thing_shapes, units_maybe_within
from tests.helpers import P1_SPEARS, P1_WIZ1, P2_BEHEMOTH, P2_WARDENS, battle

coords = st.tuples(st.floats(2, 58), st.floats(2, 42))
#: reaches at and around the rule boundaries, and arbitrary ones
reaches = st.one_of(st.sampled_from([0.0, 0.5, 1.0, 3.0, 12.0]), st.floats(0, 30))


def _exact_within(state, circles, thing, reach) -> bool:
    return min(distance(c, s) for c in circles for s in thing_shapes(state, thing)) <= reach + TOL


@settings(max_examples=80, deadline=None)
@given(st.lists(coords, min_size=1, max_size=4), st.lists(coords, min_size=1, max_size=4), coords, reaches)
def test_g1_units_maybe_within_keeps_every_unit_within_reach(ours, theirs, big, reach):
    s = battle({"a": (1, P1_SPEARS, ours), "b": (2, P2_WARDENS, theirs), "c": (2, P2_BEHEMOTH, [big])}, check=False)
    circles = thing_shapes(s, "a")
    near = units_maybe_within(s, circles, reach)
    assert near is not None
    for t in ("b", "c"):
        if _exact_within(s, circles, t, reach):
            assert t in near


@settings(max_examples=80, deadline=None)
@given(
    st.lists(coords, min_size=5, max_size=10),
    st.lists(coords, min_size=5, max_size=10),
    st.integers(0, 9),
    st.sampled_from([0.0, 3.0, 1e-12]),
)
def test_g1_gap_between_two_big_units_is_the_least_pairwise_distance(ours, theirs, slain, touch):
    """G1: the least distance over every pair of bases, exactly, when `gap_between` finds the
    nearest pairs with numpy first (more than VECTOR_PAIRS pairs); one pair is set `touch`
    inches apart (touching, 3", a hair apart) so the least gap sits at a rule's boundary, and
    one model of the other unit may be slain."""
    s = battle({"a": (1, P1_SPEARS, ours), "b": (2, P2_WARDENS, theirs)}, check=False)
    a0, b0 = s.units["a"].models[0], s.units["b"].models[0]
    far = thing_shapes(s, "a")[0].r + thing_shapes(s, "b")[0].r + touch
    b0.x, b0.y = a0.x + far, a0.y
    if 0 < slain < len(s.units["b"].models):
        s.units["b"].models[slain].slain = True
    with s.query():  # the moved and slain models are read afresh
        mine, their = thing_shapes(s, "a"), thing_shapes(s, "b")
        assert len(mine) * len(their) > VECTOR_PAIRS
        want = min(distance(c, t) for c in mine for t in their)
        assert gap_between(s, "a", "b") == want
        assert gap_between(s, "b", "a") == want


@settings(max_examples=60, deadline=None)
@given(coords, st.sampled_from([12.0, 3.0, 0.5]), st.floats(-1e-9, 1e-9), st.floats(0, 2 * math.pi))
def test_r4_enemies_within_at_the_boundary_matches_the_pairwise_maths(spot, reach, wobble, angle):
    # an enemy model placed exactly (up to float noise) `reach` inches from ours, in any direction
    me = Circle(spot[0], spot[1], 0.63)
    far = me.r + 0.63 + reach + wobble
    there = (spot[0] + far * math.cos(angle), spot[1] + far * math.sin(angle))
    s = battle({"a": (1, P1_WIZ1, [spot]), "b": (2, P2_WARDENS, [there])}, check=False)
    circles = thing_shapes(s, "a")
    expected = ["b"] if _exact_within(s, circles, "b", reach) else []
    assert enemies_within(s, "a", circles, reach) == expected


@settings(max_examples=60, deadline=None)
@given(coords, st.lists(coords, min_size=1, max_size=6, unique=True))
def test_g4_movement_goal_is_the_first_nearest_enemy(spot, enemies):
    units = {"a": (1, P1_WIZ1, [spot])}
    units.update({f"e{k}": (2, P2_WARDENS, [p]) for k, p in enumerate(enemies)})
    s = battle(units, check=False)
    me = s.units["a"].models[0]
    centres = [(s.units[f"e{k}"].models[0].x, s.units[f"e{k}"].models[0].y) for k in range(len(enemies))]
    want = min(centres, key=lambda p: math.hypot(p[0] - me.x, p[1] - me.y))
    assert _targets_for_moves(s, "a")[-1] == want


def test_g4_deployment_slot_order_is_the_sorted_order():
    for radius in (0.49, 0.63, 0.79, 1.77):
        step = 2 * radius + 0.5
        for span in (7, 10):
            for facing in (1, -1):
                for anchor in ((25.0, 4.0), (5.5, 40.0)):
                    old = sorted(
                        (
                            (i * step) ** 2 + (j * step) ** 2,
                            facing * i,
                            facing * j,
                            round(anchor[0] + i * step, 4),
                            round(anchor[1] + j * step, 4),
                        )
                        for i in range(-span, span + 1)
                        for j in range(-span, span + 1)
                    )
                    new = [
                        (round(anchor[0] + i * step, 4), round(anchor[1] + j * step, 4))
                        for i, j in _slot_order(step, span, facing)
                    ]
                    assert new == [(x, y) for *_, x, y in old]
