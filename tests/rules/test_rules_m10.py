"""Manifestations as units (M10, aos4) versus endless spells that are not (E1, aos3), and models
moving through manifestations but never ending on one (G4)."""

from __future__ import annotations

import pytest

from game.geometry.shapes import Circle
from game.rules import ManifestationSpec, add_manifestations
from game.rules.actions import CastSpell, DeclineUnbind
from game.rules.manifest_units import (
    can_be_affected,
    counts_as_unit,
    ends_on_manifestation,
    enemy_manifestation_shapes,
    enemy_manifestations,
    in_combat_with_manifestations,
    manifestation_blockers,
)
from tests.helpers import P1_SPEARS, P1_WIZ2, P2_WARDENS, P2_WIZ1, R32, battle, only

R60 = 60 / 25.4 / 2
R80 = 80 / 25.4 / 2


def _put(s, mid, scroll, player, summoner, x, y):
    add_manifestations(s, [ManifestationSpec(mid, scroll, summoner, x, y, player=player, commander=player)])


def _board(profile="aos4", dice=(), active=1):
    s = battle(
        {
            "w1": (1, P1_WIZ2, [(10, 22)]),
            "witch": (2, P2_WIZ1, [(50, 22)]),
            "spears": (1, P1_SPEARS, [(30, 10)]),
            "wardens": (2, P2_WARDENS, [(30, 34)]),
        },
        dice,
        profile=profile,
        active=active,
    )
    _put(s, "pyre", "rolling_pyre", 1, "w1", 20, 22)  # Move 8
    _put(s, "beacon", "ember_beacon", 1, "w1", 20, 32)  # Move 0 ("-")
    _put(s, "lights", "bog_light_swarm", 2, "witch", 40, 22)  # Move 10
    return s


@pytest.mark.parametrize("phase", ["hero", "movement", "shooting", "charge", "combat"])
def test_m10_a_moving_manifestation_counts_as_a_unit_in_every_phase(phase):
    s = _board()
    assert counts_as_unit(s, "pyre", phase) and counts_as_unit(s, "lights", phase)


@pytest.mark.parametrize("phase,expect", [("movement", False), ("charge", False), ("combat", True)])
def test_m10_a_move_0_manifestation_counts_as_a_unit_only_in_the_combat_phase(phase, expect):
    s = _board()
    assert counts_as_unit(s, "beacon", phase) is expect


def test_m10_the_current_phase_is_the_default():
    s = _board()
    s.phase = "combat"
    assert counts_as_unit(s, "beacon")
    s.phase = "movement"
    assert not counts_as_unit(s, "beacon")


@pytest.mark.parametrize("phase", ["movement", "combat"])
def test_e1_aos3_manifestations_never_count_as_units(phase):
    s = _board(profile="aos3")
    assert not counts_as_unit(s, "pyre", phase) and not counts_as_unit(s, "beacon", phase)
    assert enemy_manifestations(s, 2, phase) == [] and enemy_manifestation_shapes(s, 2, phase) == []


def test_m10_enemy_manifestations_are_the_other_armys_that_count_this_phase():
    s = _board()
    assert enemy_manifestations(s, 2, "movement") == ["pyre"]
    assert enemy_manifestations(s, 2, "combat") == ["pyre", "beacon"]
    assert enemy_manifestations(s, 1, "movement") == ["lights"]
    (shape,) = enemy_manifestation_shapes(s, 1, "charge")
    assert isinstance(shape, Circle) and (shape.x, shape.y) == (40, 22)


def test_m10_r4_combat_range_reaches_an_enemy_manifestation_at_3_inches_exactly():
    # R4, M10: a unit is in combat while within 3" of an enemy manifestation.
    s = _board()
    s.units["wardens"].models[0].x, s.units["wardens"].models[0].y = 20 + R60 + 3 + R32, 22
    assert in_combat_with_manifestations(s, "wardens", "combat") == ["pyre"]
    s.units["wardens"].models[0].x += 0.01
    s._cache.clear()
    assert in_combat_with_manifestations(s, "wardens", "combat") == []


def test_m10_a_move_0_manifestation_is_in_combat_only_in_the_combat_phase():
    s = _board()
    s.units["wardens"].models[0].x, s.units["wardens"].models[0].y = 20 + R80 + 1, 32
    assert in_combat_with_manifestations(s, "wardens", "combat") == ["beacon"]
    assert in_combat_with_manifestations(s, "wardens", "movement") == []


@pytest.mark.parametrize("profile", ["aos4", "aos3"])
def test_g4_models_cannot_end_a_move_on_a_manifestation_in_either_profile(profile):
    # G4 (M10, E1): models may cross manifestations but never end a move on one.
    s = _board(profile=profile)
    assert {mid for mid, _ in manifestation_blockers(s)} == {"pyre", "beacon", "lights"}
    assert {mid for mid, _ in manifestation_blockers(s, exclude=["lights"])} == {"pyre", "beacon"}
    assert ends_on_manifestation(s, Circle(20 + R60 + R32 - 0.01, 22, R32)) == ["pyre"]
    assert ends_on_manifestation(s, Circle(20 + R60 + R32, 22, R32)) == []  # touching is allowed


def test_m10_aos4_manifestations_can_be_picked_and_damaged():
    # M10: abilities that pick targets can pick them; they take damage and can be destroyed.
    s = _board(dice=[4, 4], active=2)  # casting roll 8 (Marsh Sting 5+): 1 mortal damage
    assert can_be_affected(s, "pyre")
    s.manifestations["pyre"].damage = 4  # health 5
    s.units["witch"].models[0].x = 30
    s.apply(CastSpell(player=2, unit="witch", spell="marsh_sting", target="pyre"))
    events = s.apply(DeclineUnbind(player=1))  # the pyre's summoner could unbind
    assert s.dice.remaining() == 0
    removed = only(events, "ManifestationRemoved")
    assert (removed.reason, removed.rule) == ("destroyed", "M10")


def test_e1_aos3_endless_spells_cannot_be_picked_or_affected():
    # E1: endless spells cannot be attacked and are unaffected by abilities.
    s = _board(profile="aos3", active=2)
    s.units["witch"].models[0].x = 30
    assert not can_be_affected(s, "pyre")
    reasons = s.explain(CastSpell(player=2, unit="witch", spell="marsh_sting", target="pyre"))
    assert reasons and "E1" in reasons[0]
