"""G1: the distance between two units, or a unit and a manifestation, is the closest pair of
their bases or footprints. `gap_between` is the fast path the combat, charge and AI code use;
it must agree exactly with the pairwise `distance`."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from game.geometry.measure import distance
from game.rules import ManifestationSpec, add_manifestations
from game.rules.space import gap_between, invalidate, thing_shapes
from tests.helpers import P1_SPEARS, P1_WIZ1, P2_WARDENS, battle

coords = st.tuples(st.floats(2, 58), st.floats(2, 42))


def _pairwise(state, a: str, b: str) -> float:
    return min((distance(c, s) for c in thing_shapes(state, a) for s in thing_shapes(state, b)), default=float("inf"))


@settings(max_examples=60, deadline=None)
@given(st.lists(coords, min_size=1, max_size=5), st.lists(coords, min_size=1, max_size=5), coords)
def test_g1_gap_between_is_the_closest_pair_of_bases(ours, theirs, spot):
    # overlapping bases are allowed here: the measurement must still be exact (0 when touching)
    s = battle({"a": (1, P1_SPEARS, ours), "b": (2, P2_WARDENS, theirs), "w": (1, P1_WIZ1, [spot])}, check=False)
    add_manifestations(s, [ManifestationSpec("m1", "rolling_pyre", "w", spot[0], spot[1], player=1, commander=1)], check=False)  # round
    add_manifestations(s, [ManifestationSpec("m2", "ashen_serpent", "w", 60 - spot[0], 44 - spot[1], player=1, commander=1)], check=False)  # a polygon
    for x, y in (("a", "b"), ("b", "a"), ("a", "m1"), ("m1", "b"), ("w", "a"), ("b", "m2"), ("m2", "a")):
        assert gap_between(s, x, y) == _pairwise(s, x, y)


def test_g1_gap_between_follows_a_move_and_a_slain_model():
    s = battle({"a": (1, P1_SPEARS, [(10, 10), (12, 10)]), "b": (2, P2_WARDENS, [(20, 10), (30, 10)])})
    first = gap_between(s, "a", "b")
    assert first == _pairwise(s, "a", "b") and 5 < first < 8
    s.units["b"].models[0].slain = True  # the nearer enemy falls
    invalidate(s)  # what the damage rules do after a slain model (R3)
    assert gap_between(s, "a", "b") == _pairwise(s, "a", "b") > first + 9


def test_g1_gap_between_a_unit_with_no_models_left_is_infinite():
    s = battle({"a": (1, P1_SPEARS, [(10, 10)]), "b": (2, P2_WARDENS, [(20, 10)])})
    s.units["b"].models[0].slain = True
    invalidate(s)
    assert gap_between(s, "a", "b") == float("inf")
