"""The battle around the magic: deployment, movement, shooting, charges, combat, damage,
objectives and the result (G4, R1-R4, M10)."""

from __future__ import annotations

from game.rules import EndPhase, ManifestationSpec, add_manifestations
from game.rules.actions import Charge, DeployUnit, FailCharge, Fight, MoveUnit, PassFight, Retreat, Run, Shoot
from tests.helpers import P1_WIZ1, P2_BEHEMOTH, P2_WARDENS, battle, kinds, only

SPEARS, CROSSBOWS, DRAKE, WARDENS, ARCHERS, BEHEMOTH, GUARD = (
    "emberward_spears", "kindled_crossbows", "cinderwing_drake", "mire_wardens",
    "reedstalker_archers", "bog_behemoth", "forge_guard",
)
R32 = 32 / 25.4 / 2
R90 = 90 / 25.4 / 2


def _shift(s, uid, dx, dy=0.0):
    return tuple((round(m.x + dx, 4), round(m.y + dy, 4)) for _, m in s.units[uid].live_models())


def _row(x, y, n, r=R32, gap=0.5):
    return [(x + i * (2 * r + gap), y) for i in range(n)]


# --- G4 and R4: movement --------------------------------------------------------------------


def test_g4_normal_move_up_to_move_is_allowed():
    s = battle({"spears": (1, SPEARS, _row(10, 10, 5)), "foe": (2, WARDENS, _row(10, 40, 5))}, phase="movement")
    events = s.apply(MoveUnit(player=1, unit="spears", to=_shift(s, "spears", 0, 5.0)))  # Move 5"
    assert only(events, "UnitMoved").distance == 5.0


def test_g4_normal_move_beyond_move_is_refused_with_the_distance():
    s = battle({"spears": (1, SPEARS, _row(10, 10, 5)), "foe": (2, WARDENS, _row(10, 40, 5))}, phase="movement")
    reasons = s.explain(MoveUnit(player=1, unit="spears", to=_shift(s, "spears", 0, 5.01)))
    assert reasons and "5.01\"" in reasons[0] and "may move 5.00\"" in reasons[0]


def test_g4_a_path_through_an_enemy_model_is_blocked():
    r60 = 60 / 25.4 / 2  # outriders: Move 10"
    s = battle({"riders": (1, "ashfield_outriders", [(10, 10)]), "foe": (2, BEHEMOTH, [(10, 10 + r60 + R90 + 3.1)])}, phase="movement")
    reasons = s.explain(MoveUnit(player=1, unit="riders", to=((10, 19.9),)))
    assert reasons and "blocked" in reasons[0] and "base" in reasons[0]


def test_g4_a_flyer_passes_over_enemy_models():
    # Clearing a 3" gap on both sides of the wall takes more than the drake's 10" Move, so it runs.
    s = battle({"drake": (1, DRAKE, [(10, 6)]), "wall": (2, WARDENS, _row(4, 12, 8))}, [3], phase="movement")
    s.apply(Run(player=1, unit="drake"))  # 10" + 3
    assert s.legal(MoveUnit(player=1, unit="drake", to=((10, 17.9),)))


def test_g4_models_may_cross_friendly_models():
    s = battle({"spears": (1, SPEARS, [(10, 10)]), "mates": (1, GUARD, _row(6, 12, 5, r=40 / 25.4 / 2)), "foe": (2, WARDENS, [(50, 40)])}, phase="movement")
    s.units["spears"].models = s.units["spears"].models[:1]
    assert s.legal(MoveUnit(player=1, unit="spears", to=((10, 14.8),)))


def test_g4_a_move_cannot_end_on_a_manifestation_but_may_cross_it():
    s = battle({"spears": (1, SPEARS, [(10, 10)]), "foe": (2, P2_WARDENS, [(50, 40)])}, phase="movement")
    add_manifestations(s, [ManifestationSpec("m1", "ember_beacon", "foe", 10, 12.5, player=2, commander=2)])
    assert s.explain(MoveUnit(player=1, unit="spears", to=((10, 12.5),)))
    assert s.legal(MoveUnit(player=1, unit="spears", to=((10, 14.9),)))


def test_g4_coherency_is_kept():
    s = battle({"spears": (1, SPEARS, _row(10, 10, 2)), "foe": (2, WARDENS, [(50, 40)])}, phase="movement")
    to = list(_shift(s, "spears", 0, 3))
    to[1] = (to[1][0] + 2.0, to[1][1])
    reasons = s.explain(MoveUnit(player=1, unit="spears", to=tuple(to)))
    assert reasons and "coherency" in reasons[0]


def test_r4_a_normal_move_cannot_end_in_combat():
    s = battle({"spears": (1, SPEARS, [(10, 10)]), "foe": (2, BEHEMOTH, [(10, 10 + R32 + R90 + 7.5)])}, phase="movement")
    reasons = s.explain(MoveUnit(player=1, unit="spears", to=((10, 14.6),)))  # ends 2.9" away
    assert reasons and "combat range" in reasons[0] and "R4" in reasons[0]
    assert s.legal(MoveUnit(player=1, unit="spears", to=((10, 14.4),)))  # ends 3.1" away


def test_r4_a_unit_in_combat_cannot_make_a_normal_move_or_run():
    s = battle({"spears": (1, SPEARS, [(10, 10)]), "foe": (2, BEHEMOTH, [(10, 10 + R32 + R90 + 2)])}, phase="movement")
    assert "retreat" in s.explain(MoveUnit(player=1, unit="spears", to=((6, 10),)))[0]
    assert s.explain(Run(player=1, unit="spears"))


def test_r4_retreat_costs_d3_mortal_damage_then_moves_out_of_combat():
    s = battle({"guard": (1, GUARD, [(10, 10)]), "foe": (2, BEHEMOTH, [(10, 10 + 0.79 + R90 + 2)])}, [2], phase="movement")
    events = s.apply(Retreat(player=1, unit="guard"))
    assert only(events, "RetreatDeclared").damage == 2 and s.units["guard"].models[0].damage == 2
    s.apply(MoveUnit(player=1, unit="guard", to=((10, 6.0),)))
    assert s.units["guard"].flags["retreated_turn"] == s.turn


def test_run_adds_a_d6_and_forbids_shooting_and_charging():
    s = battle({"xbows": (1, CROSSBOWS, [(10, 10)]), "foe": (2, WARDENS, [(10, 30)])}, [4], phase="movement")
    s.apply(Run(player=1, unit="xbows"))
    assert s.legal(MoveUnit(player=1, unit="xbows", to=((10, 18.99),)))  # 5 + 4
    assert s.explain(MoveUnit(player=1, unit="xbows", to=((10, 19.01),)))
    s.apply(MoveUnit(player=1, unit="xbows", to=((10, 18.0),)))
    s.phase = "shooting"
    assert "ran" in s.explain(Shoot(player=1, unit="xbows", target="foe"))[0]


def test_r1_a_unit_moves_once_per_movement_phase():
    s = battle({"spears": (1, SPEARS, [(10, 10)]), "foe": (2, WARDENS, [(50, 40)])}, phase="movement")
    s.apply(MoveUnit(player=1, unit="spears", to=((10, 12),)))
    assert "R1" in s.explain(MoveUnit(player=1, unit="spears", to=((10, 13),)))[0]


# --- shooting and the attack sequence (R3) --------------------------------------------------


def _range(s):
    return s


def test_r3_shooting_sequence_hit_wound_save_damage():
    # One crossbow (18", 4+ to hit, 3+ to wound, rend 1, 1 damage) at a Bog Behemoth (4+ save).
    s = battle({"xbows": (1, CROSSBOWS, [(10, 10)]), "beast": (2, BEHEMOTH, [(10, 20)])}, [4, 3, 4], phase="shooting")
    events = s.apply(Shoot(player=1, unit="xbows", target="beast"))
    r = only(events, "AttacksResolved")
    # the save of 4 with rend 1 counts as 3: failed
    assert (r.attacks, r.hits, r.wounds, r.unsaved, r.damage) == (1, 1, 1, 1, 1)
    assert s.units["beast"].models[0].damage == 1


def test_r3_no_save_is_rolled_when_no_die_can_pass():
    # R3: a crossbow (rend 1) at the Reed-Witch (6+ save): 7+ to save, so no save die is rolled;
    # the script holds only the hit and wound dice, and the conftest watch fails any left unused.
    s = battle({"xbows": (1, CROSSBOWS, [(10, 10)]), "witch": (2, "reed_witch", [(10, 20)])}, [4, 3], phase="shooting")
    events = s.apply(Shoot(player=1, unit="xbows", target="witch"))
    none = only(events, "SavesNotRolled")
    assert (none.target, none.wounds, none.save, none.rend, none.need) == ("witch", 1, 6, 1, 7)
    assert [e.purpose for e in events if e.type == "DiceRolled"] == ["Crossbow hit rolls (4++0)", "Crossbow wound rolls (3+)"]
    assert only(events, "AttacksResolved").unsaved == 1


def test_r3_a_save_of_six_after_rend_is_still_rolled():
    # R3, the boundary: a crossbow (rend 1) at the Fen-Oracle (5+ save) needs 6+: rolled, and a 6 saves.
    s = battle({"xbows": (1, CROSSBOWS, [(10, 10)]), "oracle": (2, "fen_oracle", [(10, 20)])}, [4, 3, 6], phase="shooting")
    events = s.apply(Shoot(player=1, unit="xbows", target="oracle"))
    assert not [e for e in events if e.type == "SavesNotRolled"]
    assert [e.purpose for e in events if e.type == "DiceRolled"][-1] == "save rolls (6+ after rend 1)"
    assert only(events, "AttacksResolved").unsaved == 0


def test_r3_an_unmodified_one_always_fails():
    s = battle({"xbows": (1, CROSSBOWS, [(10, 10)]), "beast": (2, BEHEMOTH, [(10, 20)])}, [1], phase="shooting")
    assert only(s.apply(Shoot(player=1, unit="xbows", target="beast")), "AttacksResolved").hits == 0


def test_g1_shooting_beyond_weapon_range_is_refused():
    s = battle({"xbows": (1, CROSSBOWS, [(10, 10)]), "beast": (2, BEHEMOTH, [(10, 10 + 0.4921 + R90 + 18.02)])}, phase="shooting")
    reasons = s.explain(Shoot(player=1, unit="xbows", target="beast"))
    assert reasons and "18.02\"" in reasons[0]


def test_g2_obscuring_terrain_blocks_shooting():
    wall = {"name": "Wall", "traits": ["obscuring"], "points": [(2, 14), (18, 14), (18, 15), (2, 15)]}
    s = battle({"xbows": (1, CROSSBOWS, [(10, 10)]), "beast": (2, BEHEMOTH, [(10, 20)])}, phase="shooting", terrain=[wall])
    assert "visible" in s.explain(Shoot(player=1, unit="xbows", target="beast"))[0]


def test_cover_gives_minus_one_to_hit():
    copse = {"name": "Copse", "traits": ["cover"], "points": [(6, 17), (14, 17), (14, 23), (6, 23)]}
    s = battle({"xbows": (1, CROSSBOWS, [(10, 10)]), "beast": (2, BEHEMOTH, [(10, 20)])}, [4], phase="shooting", terrain=[copse])
    assert only(s.apply(Shoot(player=1, unit="xbows", target="beast")), "AttacksResolved").hits == 0  # 4 - 1 < 4


def test_r3_ward_rolls_for_each_damage_point():
    # the WIZARD (2) priestess of the Mire has a 5+ ward; two points of damage, one warded.
    s = battle({"xbows": (1, CROSSBOWS, [(10, 10), (11.5, 10)]), "hiero": (2, "moon_hierophant", [(10, 20)])},
               [4, 4, 3, 3, 1, 1, 5, 2], phase="shooting")
    events = s.apply(Shoot(player=1, unit="xbows", target="hiero"))
    assert only(events, "DamageDealt").amount == 1 and s.units["hiero"].models[0].damage == 1


def test_m10_aos4_units_can_shoot_enemy_manifestations_and_aos3_only_invocations():
    # M10; E1 makes endless spells untouchable under aos3, invocations keep M10 there [ruling]
    for profile, scroll, ok in (
        ("aos4", "tide_hound", True), ("aos4", "bog_light_swarm", True),
        ("aos3", "tide_hound", True), ("aos3", "bog_light_swarm", False),
    ):
        s = battle({"xbows": (1, CROSSBOWS, [(10, 10)]), "witch": (2, "reed_witch", [(40, 40)])}, phase="shooting", profile=profile)
        add_manifestations(s, [ManifestationSpec("m1", scroll, "witch", 10, 20, player=2, commander=2)])
        assert s.legal(Shoot(player=1, unit="xbows", target="m1")) is ok, (profile, scroll)


# --- charges (R4, M10) ----------------------------------------------------------------------


def test_r4_charge_must_end_within_half_an_inch():
    s = battle({"spears": (1, SPEARS, [(10, 10)]), "beast": (2, BEHEMOTH, [(10, 10 + R32 + R90 + 6)])}, [3, 4], phase="charge")
    s.apply(Charge(player=1, unit="spears"))
    assert s.pending().kind == "charge_move"
    assert "within ½" in s.explain(MoveUnit(player=1, unit="spears", to=((10, 15.0),)))[0]  # 1" short
    events = s.apply(MoveUnit(player=1, unit="spears", to=((10, 15.6),)))  # 0.4" away
    assert only(events, "UnitMoved").kind == "charge" and s.units["spears"].flags["charged_turn"] == s.turn


def test_r4_a_charge_longer_than_the_roll_is_refused_and_a_failed_charge_does_not_move():
    s = battle({"spears": (1, SPEARS, [(10, 10)]), "beast": (2, BEHEMOTH, [(10, 10 + R32 + R90 + 6)])}, [1, 2], phase="charge")
    s.apply(Charge(player=1, unit="spears"))
    assert s.explain(MoveUnit(player=1, unit="spears", to=((10, 15.6),)))  # roll 3, needs 5.6
    events = s.apply(FailCharge(player=1))
    assert "ChargeFailed" in kinds(events) and (s.units["spears"].models[0].x, s.units["spears"].models[0].y) == (10, 10)


def test_r4_charge_needs_an_enemy_within_12_inches():
    s = battle({"spears": (1, SPEARS, [(10, 10)]), "beast": (2, BEHEMOTH, [(10, 10 + R32 + R90 + 12.5)])}, phase="charge")
    assert "12\"" in s.explain(Charge(player=1, unit="spears"))[0]


def test_m10_a_charge_may_end_within_half_an_inch_of_an_enemy_manifestation():
    s = battle({"spears": (1, SPEARS, [(10, 10)]), "witch": (2, "reed_witch", [(50, 40)])}, [3, 4], phase="charge")
    r40 = 40 / 25.4 / 2
    add_manifestations(s, [ManifestationSpec("m1", "tide_hound", "witch", 10, 10 + R32 + r40 + 6, player=2, commander=2)])
    s.apply(Charge(player=1, unit="spears"))
    assert s.legal(MoveUnit(player=1, unit="spears", to=((10, 15.6),)))


def test_m10_a_move_0_manifestation_is_not_a_charge_target():
    s = battle({"spears": (1, SPEARS, [(10, 10)]), "witch": (2, "reed_witch", [(50, 40)])}, phase="charge")
    add_manifestations(s, [ManifestationSpec("m1", "ember_beacon", "witch", 10, 17, player=2, commander=2)])
    assert s.explain(Charge(player=1, unit="spears"))


# --- combat (R4) -------------------------------------------------------------------------------


def test_r4_combat_alternates_active_player_first():
    units = {
        "a1": (1, GUARD, [(10, 10)]), "a2": (1, GUARD, [(30, 10)]),
        "b1": (2, WARDENS, [(10, 12.5)]), "b2": (2, WARDENS, [(30, 12.5)]),
    }
    s = battle(units, [1] * 6, phase="charge")  # three fights, 2 hit rolls each, all missing
    s.apply(EndPhase(player=1))  # into the combat phase
    d = s.pending()
    assert d.kind == "fight" and d.player == 1
    s.apply(Fight(player=1, unit="a1", target="b1"))
    assert s.pending().player == 2
    s.apply(Fight(player=2, unit="b1", target="a1"))
    assert s.pending().player == 1
    s.apply(PassFight(player=1))
    assert s.pending().player == 2
    s.apply(Fight(player=2, unit="b2", target="a2"))
    assert s.pending().kind == "phase"


def test_r4_a_unit_not_in_combat_cannot_fight():
    s = battle({"a1": (1, GUARD, [(10, 10)]), "b1": (2, WARDENS, [(10, 12.5)]), "b2": (2, WARDENS, [(40, 30)])}, [1, 1], phase="charge")  # a1's 2 hit rolls miss
    s.apply(EndPhase(player=1))
    s.apply(Fight(player=1, unit="a1", target="b1"))
    assert s.pending().kind == "fight" and s.explain(Fight(player=2, unit="b2", target="a1"))


# --- deployment, objectives and the result ---------------------------------------------------


def test_g4_deployment_must_be_wholly_within_the_zone():
    from game.rules import Game

    s = Game.load().new_state(seed=1)
    uid = "p1u2"
    assert s.legal(DeployUnit(player=1, unit=uid, to=((40.0, 6.0),)))
    reasons = s.explain(DeployUnit(player=1, unit=uid, to=((40.0, 11.8),)))
    assert reasons and "deployment zone" in reasons[0]


def test_r2_objectives_are_scored_at_the_end_of_the_turn():
    from game.rules import Game

    game = Game.load()
    s = game.new_state(seed=1)
    s.stage, s.round, s.turn, s.active, s.first_player, s.phase = "battle", 1, 1, 1, 1, "combat"
    o = game.battlefield.map.objectives[0]
    s.units["p1u5"].models = s.units["p1u5"].models[:1]
    s.units["p1u5"].models[0].x, s.units["p1u5"].models[0].y = o.x, o.y + 2.5
    events = s.apply(EndPhase(player=1))
    ctrl = [e for e in events if e.type == "ObjectiveControlled"]
    assert ctrl[0].player == 1 and ctrl[0].scores == (1, 0)
    vp = [e for e in events if e.type == "VictoryPoints"]
    assert s.score[0] == 2 and vp[-1].score == (2, 0)  # 1 for the objective, 1 for holding more


def test_r2_an_army_with_nothing_left_loses_at_once():
    s = battle({"w1": (1, P1_WIZ1, [(10, 22)]), "beast": (2, P2_BEHEMOTH, [(20, 22)])}, [3, 4, 3])
    s.units["beast"].models[0].damage = 11
    from game.rules.actions import CastSpell

    events = s.apply(CastSpell(player=1, unit="w1", spell="cinder_bolt", target="beast"))
    assert s.is_over() and s.result()["winner"] == 1 and events[-1].type == "GameEnded"


def test_m10_a_manifestation_with_weapons_fights_in_the_combat_phase():
    # M10 (aos4): with weapons they can use Fight. The Tide Hound has a melee weapon.
    # the spears' 2 hit rolls and the hound's 3, all missing
    s = battle({"witch": (2, "reed_witch", [(40, 40)]), "spears": (1, SPEARS, [(10, 10)])}, [1] * 5, phase="charge", active=1)
    add_manifestations(s, [ManifestationSpec("m1", "tide_hound", "witch", 10, 12.5, player=2, commander=2)])
    s.apply(EndPhase(player=1))
    d = s.pending()
    assert d.kind == "fight"
    s.apply(Fight(player=1, unit="spears", target="m1")) if d.player == 1 else None
    d = s.pending()
    assert d.kind == "fight" and d.player == 2 and Fight(player=2, unit="m1", target="spears") in d.options
    events = s.apply(Fight(player=2, unit="m1", target="spears"))
    assert only(events, "AttacksResolved").unit == "m1"


def test_e1_aos3_endless_spells_do_not_fight_but_invocations_do():
    # E1: under aos3 an endless spell with weapons (the Ashen Serpent) does not fight; an
    # invocation (the Tide-Hound) keeps M10 there [ruling] and does
    for scroll, fights in (("ashen_serpent", False), ("tide_hound", True)):
        s = battle({"witch": (2, "reed_witch", [(40, 40)]), "spears": (1, SPEARS, [(10, 10)])}, phase="charge", profile="aos3")
        add_manifestations(s, [ManifestationSpec("m1", scroll, "witch", 10, 13.5, player=2, commander=2)])
        s.apply(EndPhase(player=1))
        d = s.pending()
        assert (d.kind == "fight") is fights, scroll
        if fights:
            assert Fight(player=1, unit="spears", target="m1") in d.options
