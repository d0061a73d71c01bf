"""Rules corrected against the seeds: M12's banish bonus counts the enemy manifestations other
than the target; under aos3 invocations are not endless spells (E1-E3 do not cover them: they
cannot be dispelled, keep Banish and M10) [ruling]; M9's one of each on the battlefield [ruling];
and the exact geometry behind E9 (reach from the footprint, first touch along the path) and M10
(a footprint's path), checked against brute force."""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from game.geometry.measure import first_touch, path_obstacles, point_distance, reach_along_ray
from game.geometry.shapes import Circle, polygon_at
from game.rules import EndPhase, ManifestationSpec, add_manifestations
from game.rules.actions import Banish, CastSpell, Dispel, PassDispel
from tests.helpers import P1_WIZ2, P2_PRI1, P2_WIZ1, at_gap, battle, only

R40 = 40 / 25.4 / 2
R90 = 90 / 25.4 / 2


def _put(s, mid, scroll, player, summoner, x, y):
    add_manifestations(s, [ManifestationSpec(mid, scroll, summoner, x, y, player=player, commander=player)])


# --- M12: +1 for each enemy manifestation other than the target ----------------------------------


def _banish_board(dice, profile="aos4"):
    """Player 1's Pyre-Magister with its own Ember Beacon 5" away; player 2 has a Tide-Hound and a
    Bog-Light Swarm (and, under aos4, an Idol)."""
    s = battle({"w2": (1, P1_WIZ2, [(10, 22)]), "witch": (2, P2_WIZ1, [(50, 40)]), "priest": (2, P2_PRI1, [(50, 4)])},
               dice, profile=profile)
    _put(s, "beacon", "ember_beacon", 1, "w2", at_gap(10, R40, 80 / 25.4 / 2, 5.0), 22)  # banishment 6
    _put(s, "hound", "tide_hound", 2, "priest", 20, 34)  # banishment 7
    _put(s, "lights", "bog_light_swarm", 2, "witch", 30, 10)
    return s


@pytest.mark.parametrize("profile", ["aos4", "aos3"])
def test_m12_banishing_an_enemy_one_counts_the_other_enemy_ones(profile):
    # M12: the Tide-Hound (an invocation: banishable in both profiles) with one other enemy
    # manifestation on the battlefield: +1. 3 + 3 + 1 = 7 meets its 7.
    s = _banish_board([3, 3], profile)
    b = only(s.apply(Banish(player=1, unit="w2", manifestation="hound")), "BanishAttempted")
    assert (b.dice_total, b.bonus, b.banished) == (6, 1, True)
    s.dice.assert_exhausted()


def test_m12_banishing_a_friendly_one_counts_every_enemy_one():
    # M12: banishing its own Ember Beacon, player 1 adds both enemy manifestations: +2, and
    # 2 + 2 + 2 = 6 meets the beacon's 6. Had it counted "beyond the first" it would be +1 and fail.
    s = _banish_board([2, 2])
    b = only(s.apply(Banish(player=1, unit="w2", manifestation="beacon")), "BanishAttempted")
    assert (b.dice_total, b.bonus, b.value, b.banished) == (4, 2, 6, True) and "beacon" not in s.manifestations
    s.dice.assert_exhausted()


def test_m12_banishing_a_friendly_one_with_no_enemy_manifestation_adds_nothing():
    s = _banish_board([3, 2])
    del s.manifestations["hound"], s.manifestations["lights"]
    b = only(s.apply(Banish(player=1, unit="w2", manifestation="beacon")), "BanishAttempted")
    assert (b.bonus, b.banished) == (0, False)


# --- aos3: invocations are not endless spells ----------------------------------------------------


def _start_of_turn(profile="aos3"):
    s = _banish_board([], profile)
    s.phase = "start_of_turn"
    return s


def test_e3_aos3_an_invocation_cannot_be_dispelled():
    # E3: only endless spells can be dispelled; the Tide-Hound is an invocation of the Tide-Caller.
    s = _start_of_turn()
    s.apply(EndPhase(player=1))
    d = s.pending()
    assert d.kind == "dispel"
    assert all(getattr(a, "manifestation", None) != "hound" for a in d.options)
    reasons = s.explain(Dispel(player=1, unit="w2", manifestation="hound"))
    assert reasons and "only endless spells can be dispelled" in reasons[0] and "E3" in reasons[0]
    assert s.legal(Dispel(player=1, unit="w2", manifestation="lights"))


def test_e3_aos3_no_dispel_window_when_only_invocations_are_on_the_battlefield():
    s = _start_of_turn()
    del s.manifestations["beacon"], s.manifestations["lights"]
    s.apply(EndPhase(player=1))
    assert s.pending().kind == "phase"


def test_m10_aos3_an_invocation_can_be_picked_by_an_enemy_spell_and_an_endless_spell_cannot():
    # [ruling] under aos3 invocations keep M10 (enemy abilities that pick targets can pick them);
    # endless spells follow E1.
    s = _banish_board([], "aos3")
    s.manifestations["hound"].x, s.manifestations["hound"].y = 20, 22
    s.manifestations["lights"].x, s.manifestations["lights"].y = 20, 30
    assert s.legal(CastSpell(player=1, unit="w2", spell="cinder_bolt", target="hound"))
    reasons = s.explain(CastSpell(player=1, unit="w2", spell="cinder_bolt", target="lights"))
    assert reasons and "E1" in reasons[0]


def test_e3_aos3_an_endless_spell_dispelled_passes_and_the_invocation_stays():
    s = _start_of_turn()
    s.dice.script.extend([6, 6])
    s.apply(EndPhase(player=1))
    s.apply(Dispel(player=1, unit="w2", manifestation="lights"))  # 12 > 6
    s.apply(PassDispel(player=1))
    assert "hound" in s.manifestations and "lights" not in s.manifestations


# --- M9 [ruling]: one of each on the battlefield ---------------------------------------------------


def test_m9_ruling_the_other_army_having_one_does_not_stop_a_summon():
    # [ruling] an army cannot summon a manifestation IT already has on the battlefield; the
    # enemy's copy does not count. Both armies here are the Emberward Covenant.
    from game.rules import Game, ScriptedDice
    from game.rules.units import ModelState, UnitState
    from tests.helpers import small_map

    game = Game.load(armies=("emberward", "emberward"), battlefield=small_map())
    s = game.new_state(dice=ScriptedDice([]))
    s.units = {
        "w2": UnitState("w2", 1, P1_WIZ2, "Pyre-Magister", [ModelState(10, 22)]),
        "e2": UnitState("e2", 2, P1_WIZ2, "Pyre-Magister", [ModelState(50, 22)]),
    }
    s.stage, s.round, s.turn, s.active, s.first_player, s.phase = "battle", 1, 1, 1, 1, "hero"
    beacon = CastSpell(player=1, unit="w2", spell="kindle_ember_beacon")
    _put(s, "theirs", "ember_beacon", 2, "e2", 50, 30)
    assert s.legal(beacon)
    _put(s, "ours", "ember_beacon", 1, "w2", 10, 30)
    reasons = s.explain(beacon)
    assert reasons and "already on the battlefield" in reasons[0] and "M9" in reasons[0]


# --- the exact geometry, against brute force -------------------------------------------------------

ELLIPSE = [(3 * math.cos(2 * math.pi * k / 20), math.sin(2 * math.pi * k / 20)) for k in range(20)]


def _footprint(kind: str, x: float, y: float):
    return Circle(x, y, 1.2) if kind == "round" else polygon_at(ELLIPSE, x, y)


@settings(max_examples=60, deadline=None)
@given(kind=st.sampled_from(["round", "oval"]), ang=st.floats(0, 2 * math.pi), reach=st.floats(0.5, 14))
def test_e9_reach_along_a_ray_is_the_largest_point_within_reach_of_the_footprint(kind, ang, reach):
    # E9, G1: the point along the ray at exactly `reach` from the footprint, never beyond it.
    shape = _footprint(kind, 20, 20)
    ux, uy = math.cos(ang), math.sin(ang)
    t = reach_along_ray(shape, 20, 20, ux, uy, reach)
    assert point_distance(shape, 20 + t * ux, 20 + t * uy) <= reach + 1e-9
    assert point_distance(shape, 20 + (t + 1e-4) * ux, 20 + (t + 1e-4) * uy) > reach


@settings(max_examples=60, deadline=None)
@given(kind=st.sampled_from(["round", "oval"]), bx=st.floats(12, 40), by=st.floats(14, 26), br=st.floats(0.4, 2.0),
       ex=st.floats(20, 40), ey=st.floats(15, 25))
def test_e9_first_touch_matches_a_fine_sampling_of_the_path(kind, bx, by, br, ex, ey):
    # E9: the fraction of the path at which the moving footprint first touches a base.
    start, end = (10.0, 20.0), (ex, ey)
    base = Circle(bx, by, br)
    (t,) = first_touch(_footprint(kind, *start), start, end, [base])
    steps = 4000
    seen = math.inf
    for k in range(steps + 1):
        f = k / steps
        x, y = start[0] + f * (end[0] - start[0]), start[1] + f * (end[1] - start[1])
        if point_distance(_footprint(kind, x, y), bx, by) <= br:
            seen = f
            break
    if math.isinf(seen):
        assert math.isinf(t) or t > 1 - 2 / steps
    else:
        assert t <= seen + 1e-9 and seen - t <= 2.0 / steps + 1e-6


@settings(max_examples=60, deadline=None)
@given(kind=st.sampled_from(["round", "oval"]), bx=st.floats(12, 30), by=st.floats(15, 25), br=st.floats(0.3, 1.5),
       ex=st.floats(15, 30), ey=st.floats(16, 24))
def test_m10_g4_a_footprints_path_is_blocked_exactly_when_it_passes_into_a_base(kind, bx, by, br, ex, ey):
    # M10, G4: a walker's path is blocked by a base it would pass into (not one it grazes, nor
    # one it overlaps at the start): against a fine sampling of the path.
    start, end = (10.0, 20.0), (ex, ey)
    base = Circle(bx, by, br)
    shape = _footprint(kind, *start)
    hit, _ = path_obstacles(shape, start, end, [base], [])
    depth = []
    for k in range(2001):
        f = k / 2000
        x, y = start[0] + f * (end[0] - start[0]), start[1] + f * (end[1] - start[1])
        depth.append(br - point_distance(_footprint(kind, x, y), bx, by))  # > 0: overlapping
    if depth[0] > 1e-9:
        assert hit == []  # overlapping at the start: ignored
    elif max(depth) > 0.01:
        assert hit == [0]
    elif max(depth) < -0.01:
        assert hit == []
