"""R4, M10: `units_in_combat` answers every unit from one matrix of gaps (issue 24), exactly as
the per-unit `gap_to_enemies` does, at the 3" boundary both ways and on random boards; once it
is made, `in_combat` answers from it."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from game.geometry.measure import TOL
from game.geometry.shapes import Circle
from game.rules import ManifestationSpec, add_manifestations
from game.rules.formation import COMBAT_RANGE, gap_to_enemies, in_combat, radius_of, units_in_combat
from tests.helpers import battle

SPEARS, WARDENS, BEHEMOTH = "emberward_spears", "mire_wardens", "bog_behemoth"
R32 = 32 / 25.4 / 2
R90 = 90 / 25.4 / 2


def _one_at_a_time(s, uid, phase):
    """R4 for one unit as the engine asked it before (one numpy pass per unit)."""
    u = s.units[uid]
    circles = [Circle(m.x, m.y, radius_of(s, uid)) for _, m in u.live_models()]
    return gap_to_enemies(s, u.player, circles, phase) <= COMBAT_RANGE + TOL


def test_r4_exactly_3_inches_is_in_combat_and_a_hair_more_is_not():
    # R4: within 3" (distance <= 3") of an enemy model is in combat, base to base
    near = battle({"a": (1, SPEARS, [(10, 10)]), "b": (2, BEHEMOTH, [(10, 10 + R32 + R90 + 3.0)])}, phase="combat")
    far = battle({"a": (1, SPEARS, [(10, 10)]), "b": (2, BEHEMOTH, [(10, 10 + R32 + R90 + 3.01)])}, phase="combat")
    with near.query(), far.query():
        assert units_in_combat(near, "combat") == {"a": True, "b": True}
        assert units_in_combat(far, "combat") == {"a": False, "b": False}
        assert in_combat(near, "a") and not in_combat(far, "b")


def test_r4_m10_an_enemy_manifestation_that_counts_as_a_unit_puts_a_unit_in_combat():
    # M10 (aos4): an enemy manifestation with Move above 0" counts as a unit for combat range
    s = battle({"a": (1, SPEARS, [(10, 10)]), "b": (2, WARDENS, [(50, 40)])}, phase="movement")
    add_manifestations(s, [ManifestationSpec("m1", "rolling_pyre", "b", 10, 13.5, player=2, commander=2)])
    with s.query():
        assert _one_at_a_time(s, "a", "movement")
        assert units_in_combat(s, "movement") == {"a": True, "b": False}


@settings(max_examples=60, deadline=None)
@given(
    st.lists(st.tuples(st.floats(2, 30), st.floats(2, 30)), min_size=1, max_size=4),
    st.lists(st.tuples(st.floats(2, 30), st.floats(2, 30)), min_size=1, max_size=4),
    st.lists(st.tuples(st.floats(2, 30), st.floats(2, 30)), min_size=1, max_size=3),
    st.sampled_from(["movement", "combat"]),
    st.integers(0, 3),
)
def test_r4_every_unit_in_combat_at_once_is_each_unit_asked_alone(a, b, c, phase, slain):
    # bases may overlap here (check=False): the question is only the gap sums, the same to the
    # last bit; some of unit a's models are slain, all of them when `slain` covers the unit
    s = battle({"a": (1, SPEARS, a), "b": (2, WARDENS, b), "c": (2, BEHEMOTH, c[:1])}, phase=phase, check=False)
    for m in s.units["a"].models[:slain]:
        m.slain = True
    with s.query():
        every = units_in_combat(s, phase)
        assert every == {uid: _one_at_a_time(s, uid, phase) for uid in s.units}
        assert all(in_combat(s, uid, phase) == every[uid] for uid in s.units)
