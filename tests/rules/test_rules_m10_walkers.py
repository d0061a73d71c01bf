"""M10: manifestations with Move above 0" use the CORE MOVE abilities like a unit (normal move,
run, retreat, charge), commanded by their summoner's player, with a unit's legality (G4, R4);
with weapons they shoot and fight like a unit, piling in. PREDATORY ones move only by the
predatory procedure [ruling]; Move 0" ones never move; E1 kinds (endless spells under aos3) do
none of this. The walkers of the default content: the Kiln Golem (an Emberward endless spell,
Move 5", 60mm, a 10" ranged weapon) and the Reedwrack Stalker (a Mirecourt invocation, Move 6",
50mm)."""

from __future__ import annotations

import pytest

from game.rules import EndPhase, IllegalActionError, ManifestationSpec, add_manifestations
from game.rules.actions import Charge, FailCharge, Fight, MoveUnit, Retreat, Run, Shoot
from tests.helpers import P1_SPEARS, P1_WIZ2, P2_PRI2, P2_WARDENS, P2_WIZ2, R32, battle, kinds, only

R60 = 60 / 25.4 / 2  # Kiln Golem
R50 = 50 / 25.4 / 2  # Reedwrack Stalker


def _put(s, mid, scroll, player, summoner, x, y):
    add_manifestations(s, [ManifestationSpec(mid, scroll, summoner, x, y, player=player, commander=player)])


def _field(dice=(), phase="movement", profile="aos4", enemy_at=(50, 40), extra=None, golem_at=(20, 22), terrain=()):
    """Player 1's Pyre-Magister (a WIZARD) at (10, 22) with its Kiln Golem; a player 2 line
    unit of one 32mm model at `enemy_at`."""
    units = {"w1": (1, P1_WIZ2, [(10, 22)]), "w2": (2, P2_WIZ2, [(55, 5)]), "foe": (2, P2_WARDENS, [enemy_at])}
    units.update(extra or {})
    s = battle(units, dice, phase=phase, profile=profile, terrain=terrain)
    _put(s, "golem", "kiln_golem", 1, "w1", *golem_at)
    return s


def _used_up(s):
    s.dice.assert_exhausted()


# --- normal moves ----------------------------------------------------------------------------


def test_m10_a_walker_makes_a_normal_move_of_up_to_its_move():
    # M10: Move 5"; exactly 5" is allowed, 5.01" refused with the distance (G4).
    s = _field()
    with pytest.raises(IllegalActionError) as err:
        s.apply(MoveUnit(player=1, unit="golem", to=((25.01, 22),)))
    assert err.value.code == "bad_move" and "5.01\"" in err.value.message
    events = s.apply(MoveUnit(player=1, unit="golem", to=((25, 22),)))
    moved = only(events, "UnitMoved")
    assert (moved.unit, moved.kind, moved.distance) == ("golem", "normal", 5.0)
    assert (s.manifestations["golem"].x, s.manifestations["golem"].y) == (25, 22)
    with pytest.raises(IllegalActionError) as err:  # once per phase (R1)
        s.apply(MoveUnit(player=1, unit="golem", to=((26, 22),)))
    assert err.value.rule == "R1"


def test_m10_the_movement_options_name_the_walker():
    s = _field()
    opts = s.pending().options
    assert Run(player=1, unit="golem") in opts
    assert any(isinstance(a, MoveUnit) and a.unit == "golem" for a in opts)


def test_m10_only_its_summoners_player_moves_it():
    s = _field()
    s.active = 2
    with pytest.raises(IllegalActionError) as err:
        s.apply(MoveUnit(player=2, unit="golem", to=((22, 22),)))
    assert err.value.code == "not_your_unit"


def test_m10_r4_a_walkers_normal_move_cannot_end_within_3_inches_of_an_enemy():
    # R4: the foe's base edge at x = 28; the Golem's edge must stay more than 3" away.
    foe_x = 28 + R32
    s = _field(enemy_at=(foe_x, 22))
    edge_at_3 = 28 - 3 - R60
    with pytest.raises(IllegalActionError) as err:
        s.apply(MoveUnit(player=1, unit="golem", to=((edge_at_3, 22),)))
    assert "R4" in err.value.message
    s.apply(MoveUnit(player=1, unit="golem", to=((edge_at_3 - 0.01, 22),)))


def test_m10_g4_a_walkers_path_is_blocked_by_enemy_models_not_friendly_ones():
    # G4: like a unit's models, it may not pass through enemy models; friends may be crossed.
    # It runs (5" + 6") from x = 12 to x = 23, across a model standing at x = 17.5.
    s = _field(dice=[6], enemy_at=(17.5, 40), golem_at=(12, 22), extra={"spears": (1, P1_SPEARS, [(17.5, 22)])})
    s.apply(Run(player=1, unit="golem"))
    s.apply(MoveUnit(player=1, unit="golem", to=((23, 22),)))  # across a friendly model
    s = _field(dice=[6], enemy_at=(17.5, 22), golem_at=(12, 22))
    s.apply(Run(player=1, unit="golem"))
    with pytest.raises(IllegalActionError) as err:
        s.apply(MoveUnit(player=1, unit="golem", to=((23, 22),)))
    assert "blocked by Mire Wardens" in err.value.message


def test_m10_g4_a_walker_may_cross_a_manifestation_but_not_end_on_one():
    # G4, M10: models move through manifestations but never end on one; the same for a walker.
    s = _field(golem_at=(13, 22))
    _put(s, "lights", "bog_light_swarm", 1, "w1", 15.5, 22)  # 50mm: 2.5" from both ends, clear
    with pytest.raises(IllegalActionError) as err:
        s.apply(MoveUnit(player=1, unit="golem", to=((15.5, 22),)))
    assert "ends on manifestation" in err.value.message
    s.apply(MoveUnit(player=1, unit="golem", to=((18, 22),)))  # across it, clear of it at the end


def test_m10_a_walker_runs_d6_more_and_then_cannot_shoot_or_charge():
    s = _field(dice=[4])
    s.apply(Run(player=1, unit="golem"))
    with pytest.raises(IllegalActionError):
        s.apply(MoveUnit(player=1, unit="golem", to=((29.01, 22),)))
    s.apply(MoveUnit(player=1, unit="golem", to=((29, 22),)))  # 5" + 4"
    _used_up(s)
    s.phase = "shooting"
    assert "ran" in s.explain(Shoot(player=1, unit="golem", target="foe"))[0]
    s.phase = "charge"
    assert "ran" in s.explain(Charge(player=1, unit="golem"))[0]


def test_m10_a_walker_in_combat_can_only_retreat_and_takes_d3_mortal_damage():
    # R4: in combat, a normal move is refused; a retreat costs D3 mortal damage (M10: it takes damage).
    s = _field(dice=[2], enemy_at=(20 + R60 + R32 + 1, 22))
    with pytest.raises(IllegalActionError) as err:
        s.apply(MoveUnit(player=1, unit="golem", to=((17, 22),)))
    assert "retreat" in err.value.message
    assert s.explain(Run(player=1, unit="golem"))
    events = s.apply(Retreat(player=1, unit="golem"))
    assert only(events, "ManifestationDamaged").amount == 2 and s.manifestations["golem"].damage == 2
    s.apply(MoveUnit(player=1, unit="golem", to=((15, 22),)))
    _used_up(s)


# --- who does not move like a unit ---------------------------------------------------------------


def test_m10_ruling_a_predatory_manifestation_makes_no_normal_move():
    s = _field()
    _put(s, "pyre", "rolling_pyre", 1, "w1", 20, 30)
    with pytest.raises(IllegalActionError) as err:
        s.apply(MoveUnit(player=1, unit="pyre", to=((22, 30),)))
    assert err.value.code == "predatory" and err.value.rule == "M10"
    assert not any(getattr(a, "unit", None) == "pyre" for a in s.pending().options)


def test_m10_a_move_0_manifestation_cannot_move():
    s = _field()
    _put(s, "beacon", "ember_beacon", 1, "w1", 20, 32)
    with pytest.raises(IllegalActionError) as err:
        s.apply(MoveUnit(player=1, unit="beacon", to=((21, 32),)))
    assert err.value.code == "cannot_move"


def test_e1_under_aos3_an_endless_spell_walker_does_not_move_but_an_invocation_does():
    # E1: endless spells are untouchable under aos3 and do not act as units; invocations keep
    # M10 there [ruling].
    s = _field(profile="aos3")
    with pytest.raises(IllegalActionError) as err:
        s.apply(MoveUnit(player=1, unit="golem", to=((22, 22),)))
    assert err.value.rule == "E1"
    s = battle({"pri": (2, P2_PRI2, [(50, 22)]), "foe": (1, P1_SPEARS, [(5, 40)])}, phase="movement", active=2, profile="aos3")
    _put(s, "stalker", "reedwrack_stalker", 2, "pri", 40, 22)
    moved = only(s.apply(MoveUnit(player=2, unit="stalker", to=((34, 22),))), "UnitMoved")
    assert moved.distance == 6.0


# --- charges -------------------------------------------------------------------------------------


def test_m10_r4_a_walker_charges_and_must_end_within_half_an_inch():
    # R4: 2D6 = 8; the foe's edge lies 7.5" from the Golem's; it must end within 1/2".
    foe_x = 20 + R60 + 7.5 + R32
    s = _field(dice=[4, 4], phase="charge", enemy_at=(foe_x, 22))
    assert Charge(player=1, unit="golem") in s.pending().options
    s.apply(Charge(player=1, unit="golem"))
    d = s.pending()
    assert d.kind == "charge_move" and d.data["unit"] == "golem"
    with pytest.raises(IllegalActionError) as err:  # 6.99" short of the foe: not within 1/2"
        s.apply(MoveUnit(player=1, unit="golem", to=((20.5, 22),)))
    assert err.value.code == "bad_charge"
    events = s.apply(MoveUnit(player=1, unit="golem", to=((27.1, 22),)))  # ends 0.4" away
    assert only(events, "UnitMoved").kind == "charge"
    assert s.manifestations["golem"].flags["charged_turn"] == s.turn
    _used_up(s)


def test_m10_a_walker_with_no_enemy_within_12_inches_cannot_charge():
    s = _field(phase="charge", enemy_at=(20 + R60 + 12.01 + R32, 22))
    assert "12\"" in s.explain(Charge(player=1, unit="golem"))[0]


def test_m10_a_failed_walker_charge_does_not_move_it():
    s = _field(dice=[1, 1], phase="charge", enemy_at=(20 + R60 + 7.5 + R32, 22))
    s.apply(Charge(player=1, unit="golem"))
    assert only(s.apply(FailCharge(player=1)), "ChargeFailed")
    assert (s.manifestations["golem"].x, s.manifestations["golem"].y) == (20, 22)


# --- shooting -----------------------------------------------------------------------------------


def test_m10_a_walker_with_a_ranged_weapon_shoots_like_a_unit():
    # M10, G1: Slag Spit reaches 10" from the Golem's footprint: 10.00" allowed, 10.01" refused.
    far = _field(phase="shooting", enemy_at=(20 + R60 + 10.01 + R32, 22))
    assert "10.01\"" in far.explain(Shoot(player=1, unit="golem", target="foe"))[0]
    # 2 attacks: hits on 4+ (4, 5), wounds on 4+ (4, 1), the foe's save (4+? its save roll: 2)
    s = _field(dice=[4, 5, 4, 1, 2], phase="shooting", enemy_at=(20 + R60 + 10 + R32, 22))
    assert Shoot(player=1, unit="golem", target="foe") in s.pending().options
    events = s.apply(Shoot(player=1, unit="golem", target="foe"))
    r = only(events, "AttacksResolved")
    assert (r.unit, r.attacks, r.hits, r.wounds, r.damage) == ("golem", 2, 2, 1, 1)
    _used_up(s)


# --- combat: fights with a pile-in --------------------------------------------------------------


def test_m10_a_walker_piles_in_when_it_fights():
    # M10: Fight includes its pile-in: up to 3" straight at its target, as a unit does.
    foe_x = 20 + R60 + 2.5 + R32  # 2.5" apart: in combat
    s = _field(dice=[1, 1, 1], phase="combat", enemy_at=(foe_x, 22))
    s.phase = "charge"
    s.apply(EndPhase(player=1))  # into the combat phase
    d = s.pending()
    assert d.kind == "fight" and Fight(player=1, unit="golem", target="foe") in d.options
    events = s.apply(Fight(player=1, unit="golem", target="foe"))
    pile = only(events, "UnitMoved")
    assert (pile.unit, pile.kind) == ("golem", "pile_in") and pile.distance == pytest.approx(2.45)
    assert only(events, "AttacksResolved").attacks == 3
    _used_up(s)


def test_m10_ruling_a_predatory_manifestation_fights_where_it_stands():
    # [ruling]: PREDATORY ones make no move but the predatory one: no pile-in.
    s = battle({"w1": (1, P1_WIZ2, [(10, 22)]), "foe": (2, P2_WARDENS, [(20 + 3 + 2.5 + R32, 22)])},
               [1, 1, 1, 1], phase="charge")
    _put(s, "serpent", "ashen_serpent", 1, "w1", 20, 22)  # 6" x 2" oval with Searing Coils
    s.apply(EndPhase(player=1))
    events = s.apply(Fight(player=1, unit="serpent", target="foe"))
    assert "UnitMoved" not in kinds(events) and only(events, "AttacksResolved").attacks == 4
    assert (s.manifestations["serpent"].x, s.manifestations["serpent"].y) == (20, 22)
    _used_up(s)


def test_m10_enemy_walkers_count_as_units_for_movement_in_every_phase():
    # M10: Move above 0": it counts as a unit for combat range in the movement phase too, so an
    # enemy unit cannot end a normal move within 3" of it.
    s = battle({"w1": (1, P1_WIZ2, [(10, 22)]), "spears": (2, P2_WARDENS, [(28, 22)])}, phase="movement", active=2)
    _put(s, "golem", "kiln_golem", 1, "w1", 20, 22)
    edge = 20 + R60 + 3 + R32
    assert "R4" in s.explain(MoveUnit(player=2, unit="spears", to=((edge, 22),)))[0]
    assert s.legal(MoveUnit(player=2, unit="spears", to=((edge + 0.01, 22),)))


def test_m10_g4_a_walkers_path_is_blocked_by_impassable_terrain_unless_it_goes_round():
    # G4: impassable terrain blocks the footprint's path, as it blocks a model's; the same move
    # past the rock's end is allowed.
    rock = {"name": "Basalt Spur", "traits": ["impassable"], "points": [(22.5, 18), (23.5, 18), (23.5, 26), (22.5, 26)]}
    s = _field(terrain=[rock])
    with pytest.raises(IllegalActionError) as err:
        s.apply(MoveUnit(player=1, unit="golem", to=((25, 22),)))
    assert "blocked by impassable terrain 'Basalt Spur'" in err.value.message
    s = _field(terrain=[rock], golem_at=(20, 15.5))
    s.apply(MoveUnit(player=1, unit="golem", to=((25, 15.5),)))  # below the rock's end (18 - 1.18 = 16.8)
