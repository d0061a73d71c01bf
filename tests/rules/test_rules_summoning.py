"""Summoning (M9, E2), banishing (M12), dispelling (E3), manifestations as targets (M10, E1)
and severed connection (M11)."""

from __future__ import annotations

import pytest

from game.geometry.measure import wholly_within
from game.rules import EndPhase, IllegalActionError, ManifestationSpec, add_manifestations
from game.rules.actions import Banish, CastSpell, DeclineUnbind, Dispel, PassDispel, PlaceManifestation
from game.rules.frames import DispelFrame
from game.rules.space import manifestation_shape, model_circle
from tests.helpers import (
    P1_SPEARS,
    P1_WIZ1,
    P1_WIZ2,
    P2_BEHEMOTH,
    P2_PRI1,
    P2_WARDENS,
    P2_WIZ1,
    R32,
    R40,
    at_gap,
    battle,
    kinds,
    only,
)


def _summoner(dice, profile="aos4", enemy_at=(50, 40), **kw):
    return battle(
        {
            "w2": (1, P1_WIZ2, [(15, 15)]),
            "w1": (1, P1_WIZ1, [(15, 25)]),
            "enemy": (2, P2_WARDENS, [enemy_at]),
        },
        dice,
        profile=profile,
        **kw,
    )


def _put(s, mid, scroll, player, summoner, x, y):
    add_manifestations(s, [ManifestationSpec(mid, scroll, summoner, x, y, player=player, commander=player)])


BEACON = CastSpell(player=1, unit="w2", spell="kindle_ember_beacon")  # 6+, stationary 80mm


# --- M9 summoning -----------------------------------------------------------------------------


def test_m9_summon_then_set_up_under_the_warscroll_constraints():
    s = _summoner([3, 3])
    s.apply(BEACON)
    d = s.pending()
    assert d.kind == "summon_setup" and d.player == 1 and d.options
    spot = d.options[0]
    events = s.apply(spot)
    summoned = only(events, "ManifestationSummoned")
    mid = summoned.manifestation
    assert s.manifestations[mid].summoner == "w2" and s.manifestations[mid].player == 1
    assert wholly_within(manifestation_shape(s, mid), model_circle(s, "w2", 0), 12)


def test_m9_setup_not_wholly_within_12_inches_is_refused():
    s = _summoner([3, 3])
    s.apply(BEACON)
    r80 = 80 / 25.4 / 2
    edge_ok = 15 + R40 + 12 - r80  # centre where the footprint is exactly wholly within 12"
    assert s.legal(PlaceManifestation(player=1, x=edge_ok, y=15))
    with pytest.raises(IllegalActionError) as err:
        s.apply(PlaceManifestation(player=1, x=edge_ok + 0.01, y=15))
    assert err.value.code == "bad_setup" and "wholly within 12\"" in err.value.message


def test_m9_setup_must_be_more_than_9_inches_from_enemy_units():
    s = _summoner([3, 3], enemy_at=(35, 15))
    s.apply(BEACON)
    r80 = 80 / 25.4 / 2
    x = 35 - R32 - 9.0 - r80  # exactly 9" from the enemy: not "more than"
    reasons = s.explain(PlaceManifestation(player=1, x=x, y=15))
    assert reasons and "more than 9\"" in reasons[0]
    assert s.legal(PlaceManifestation(player=1, x=x - 0.01, y=15))


def test_m9_setup_cannot_overlap_a_base():
    s = _summoner([3, 3])
    s.apply(BEACON)
    reasons = s.explain(PlaceManifestation(player=1, x=15, y=24))
    assert reasons and "G4" in reasons[0]


def test_m9_setup_check_is_reused_only_by_its_own_state_and_sees_a_moved_enemy():
    # M9: the set-up check built when the spell resolves is kept for the placement, but a
    # clone builds its own, and a model that moves afterwards is seen (no stale geometry).
    from game.rules.summoning import setup_check

    s = _summoner([3, 3], enemy_at=(50, 40))
    s.apply(BEACON)
    first = setup_check(s, 1, "w2", 0, "ember_beacon")
    assert setup_check(s, 1, "w2", 0, "ember_beacon") is first
    twin = s.clone()
    assert setup_check(twin, 1, "w2", 0, "ember_beacon").state is twin
    spot = PlaceManifestation(player=1, x=15 + R40 + 5, y=15)
    assert twin.legal(spot)
    m = twin.units["enemy"].models[0]
    m.x, m.y = 15 + R40 + 9, 15  # the enemy steps next to the spot: now within 9" (M9)
    assert "more than 9\"" in twin.explain(spot)[0]
    assert s.legal(spot)  # the original battle is untouched


def test_e2_no_legal_setup_means_the_attempt_fails():
    # Enemies all round the caster within 9": nowhere is "more than 9" from enemy units".
    ring = [(15 + dx, 15 + dy) for dx, dy in ((8, 0), (-8, 0), (0, 8), (0, -8), (6, 6), (-6, 6), (6, -6), (-6, -6))]
    s = battle({"w2": (1, P1_WIZ2, [(15, 15)]), "enemy": (2, P2_WARDENS, ring)}, [3, 3])
    events = s.apply(BEACON)
    assert only(events, "SummonFailed").rule == "E2" and not s.manifestations
    assert s.pending().kind == "phase"
    assert "ember_beacon" in s.turn_uses["1"].summon_attempts


def test_m9_only_one_summoning_attempt_per_manifestation_per_turn():
    s = _summoner([2, 2])
    s.apply(BEACON)  # fails: 4 < 6, but the attempt counts
    reasons = s.explain(CastSpell(player=1, unit="w1", spell="kindle_ember_beacon"))
    assert reasons and "M9" in reasons[0] and "already tried" in reasons[0]


def test_m9_a_manifestation_removed_this_turn_cannot_be_summoned_again():
    s = _summoner([6, 6])
    _put(s, "m1", "ember_beacon", 1, "w2", 25, 15)
    s.apply(Banish(player=1, unit="w2", manifestation="m1"))  # 12 >= 6: banished
    assert "m1" not in s.manifestations
    reasons = s.explain(CastSpell(player=1, unit="w1", spell="kindle_ember_beacon"))
    assert reasons and "removed this turn" in reasons[0]


def test_m9_a_manifestation_already_on_the_battlefield_cannot_be_summoned_again():
    s = _summoner([])
    _put(s, "m1", "ember_beacon", 1, "w2", 25, 15)
    assert "already on the battlefield" in s.explain(BEACON)[0]


def test_e2_aos3_one_endless_spell_per_wizard_per_hero_phase():
    s = _summoner([2, 2], profile="aos3")
    s.apply(BEACON)
    reasons = s.explain(CastSpell(player=1, unit="w2", spell="summon_rolling_pyre"))
    assert reasons and "E2" in reasons[0]


def test_e2_aos4_allows_a_second_summon_by_the_same_wizard():
    s = _summoner([2, 2], profile="aos4")
    s.apply(BEACON)
    assert s.legal(CastSpell(player=1, unit="w2", spell="summon_rolling_pyre"))


# --- M12 banish ---------------------------------------------------------------------------------


def _banisher(dice, enemy_manifestations=1, gap=10.0, profile="aos4"):
    s = battle({"w2": (1, P1_WIZ2, [(10, 22)]), "witch": (2, P2_WIZ1, [(50, 40)])}, dice, profile=profile)
    r_idol = 90 / 25.4 / 2
    _put(s, "idol", "idol_of_the_drowned_moon", 2, "witch", at_gap(10, R40, r_idol, gap), 22)  # banishment 7
    for k in range(enemy_manifestations - 1):
        _put(s, f"x{k}", "bog_light_swarm", 2, "witch", 40, 5 + 8 * k)
    return s


def test_m12_banishment_roll_equal_to_the_value_banishes():
    s = _banisher([3, 4])
    events = s.apply(Banish(player=1, unit="w2", manifestation="idol"))
    assert only(events, "BanishAttempted").banished is True
    assert only(events, "ManifestationRemoved").reason == "banished" and "idol" not in s.manifestations


def test_m12_banishment_roll_below_the_value_fails():
    s = _banisher([3, 3])
    events = s.apply(Banish(player=1, unit="w2", manifestation="idol"))
    assert only(events, "BanishAttempted").banished is False and "idol" in s.manifestations


def test_m12_plus_one_for_each_enemy_manifestation_beyond_the_first():
    s = _banisher([2, 3], enemy_manifestations=3)  # 5 + 2 = 7
    events = s.apply(Banish(player=1, unit="w2", manifestation="idol"))
    b = only(events, "BanishAttempted")
    assert b.bonus == 2 and b.banished is True


def test_m12_one_enemy_manifestation_gives_no_bonus():
    s = _banisher([3, 3], enemy_manifestations=1)
    assert only(s.apply(Banish(player=1, unit="w2", manifestation="idol")), "BanishAttempted").bonus == 0


def test_m12_banish_reaches_exactly_30_inches():
    assert _banisher([], gap=30.0).legal(Banish(player=1, unit="w2", manifestation="idol"))


def test_m12_banish_at_30_01_inches_is_refused_with_the_distance():
    reasons = _banisher([], gap=30.01).explain(Banish(player=1, unit="w2", manifestation="idol"))
    assert reasons and "30.01\"" in reasons[0] and "M12" in reasons[0]


def test_m12_banish_is_used_once_per_phase_by_a_unit():
    s = _banisher([1, 2], enemy_manifestations=2)
    s.apply(Banish(player=1, unit="w2", manifestation="idol"))
    reasons = s.explain(Banish(player=1, unit="w2", manifestation="x0"))
    assert reasons and "R1" in reasons[0]


def test_m12_under_aos3_endless_spells_are_dispelled_not_banished():
    # E3 replaces M12 for endless spells only: the Bog-Light Swarm cannot be banished under aos3
    s = _banisher([], profile="aos3", enemy_manifestations=2)
    reasons = s.explain(Banish(player=1, unit="w2", manifestation="x0"))
    assert reasons and "E3" in reasons[0] and "dispel" in reasons[0]


def test_m12_under_aos3_invocations_keep_banish():
    # [ruling] invocations cannot be dispelled (E3) and keep Banish (M12) under aos3
    s = _banisher([3, 4], profile="aos3")
    b = only(s.apply(Banish(player=1, unit="w2", manifestation="idol")), "BanishAttempted")
    assert b.dice_total == 7 and b.banished is True and "idol" not in s.manifestations


# --- E3 dispelling (aos3) -----------------------------------------------------------------------


def _dispel_board(dice, profile="aos3"):
    s = battle(
        {
            "w2": (1, P1_WIZ2, [(10, 22)]),
            "w1": (1, P1_WIZ1, [(10, 28)]),
            "priest": (2, P2_PRI1, [(50, 22)]),
        },
        dice,
        profile=profile,
        phase="start_of_turn",
    )
    _put(s, "lights", "bog_light_swarm", 2, "priest", 22, 22)  # summoned by a 6+ spell
    _put(s, "pyre", "rolling_pyre", 1, "w2", 40, 30)
    return s


def test_e3_dispel_window_opens_at_the_start_of_the_hero_phase_active_player_first():
    s = _dispel_board([])
    s.apply(EndPhase(player=1))
    assert s.phase == "hero" and s.pending().kind == "dispel" and s.pending().player == 1
    events = s.apply(PassDispel(player=1))
    assert only(events, "DispelPassed").player == 1
    assert s.pending().kind == "dispel" and s.pending().player == 2
    s.apply(PassDispel(player=2))
    assert s.pending().kind == "phase"


def test_e3_no_dispel_window_under_aos4():
    s = _dispel_board([], profile="aos4")
    s.apply(EndPhase(player=1))
    assert s.pending().kind == "phase"


def test_e3_dispel_must_beat_the_casting_value():
    s = _dispel_board([3, 3, 4, 3])
    s.apply(EndPhase(player=1))
    events = s.apply(Dispel(player=1, unit="w2", manifestation="lights"))
    assert only(events, "DispelAttempted").dispelled is False  # 6 is not higher than 6
    events = s.apply(Dispel(player=1, unit="w1", manifestation="pyre"))
    assert only(events, "DispelAttempted").dispelled is False  # 7 is not higher than the pyre's 7


def test_e3_dispel_higher_than_the_casting_value_removes_it():
    s = _dispel_board([4, 3])
    s.apply(EndPhase(player=1))
    events = s.apply(Dispel(player=1, unit="w2", manifestation="lights"))
    assert only(events, "ManifestationRemoved").reason == "dispelled" and "lights" not in s.manifestations


def test_e3_a_dispel_attempt_lowers_the_casters_spell_count():
    s = _dispel_board([1, 2])
    s.apply(EndPhase(player=1))
    s.apply(Dispel(player=1, unit="w1", manifestation="lights"))
    s.apply(PassDispel(player=1))
    s.apply(PassDispel(player=2))
    reasons = s.explain(CastSpell(player=1, unit="w1", spell="spark_lash", target="priest"))
    assert reasons and "E3" in reasons[0]


def test_e3_a_player_cannot_dispel_the_same_endless_spell_twice_in_a_phase():
    s = _dispel_board([1, 2])
    s.apply(EndPhase(player=1))
    s.apply(Dispel(player=1, unit="w2", manifestation="lights"))
    reasons = s.explain(Dispel(player=1, unit="w1", manifestation="lights"))
    assert reasons and "already tried to dispel lights" in reasons[0]


def test_e3_dispel_needs_the_target_visible():
    wall = {"name": "Wall", "traits": ["obscuring"], "points": [(16, 12), (17, 12), (17, 34), (16, 34)]}
    s = _dispel_board([])
    s2 = battle(
        {k: (u.player, u.warscroll, [(m.x, m.y) for m in u.models]) for k, u in s.units.items()},
        profile="aos3",
        phase="hero",
        terrain=[wall],
    )
    s2.manifestations = s.manifestations
    s2.decisions.append(DispelFrame(player=1))
    reasons = s2.explain(Dispel(player=1, unit="w2", manifestation="lights"))
    assert reasons and "not visible" in reasons[0]


def test_e3_a_dispelled_endless_spell_cannot_be_summoned_again_this_turn():
    s = _dispel_board([6, 6])
    s.manifestations["pyre"].player = 1
    s.apply(EndPhase(player=1))
    s.apply(PassDispel(player=1))
    s.apply(Dispel(player=2, unit="priest", manifestation="pyre"))  # 12 > 7
    s.apply(PassDispel(player=2))
    reasons = s.explain(CastSpell(player=1, unit="w1", spell="summon_rolling_pyre"))
    assert reasons and "removed this turn" in reasons[0]


# --- M10 and E1: manifestations as targets -------------------------------------------------


def test_m10_aos4_spells_can_target_and_damage_enemy_manifestations():
    s = battle({"w2": (1, P1_WIZ2, [(10, 22)]), "witch": (2, P2_WIZ1, [(50, 40)])}, [3, 4, 3])
    _put(s, "eel", "mist_eel", 2, "witch", 20, 22)  # health 6
    events = s.apply(CastSpell(player=1, unit="w2", spell="cinder_bolt", target="eel"))
    assert only(events, "ManifestationDamaged").amount == 3 and s.manifestations["eel"].damage == 3


def test_m10_a_manifestation_destroyed_by_damage_is_removed():
    s = battle({"w2": (1, P1_WIZ2, [(10, 22)]), "witch": (2, P2_WIZ1, [(50, 40)])}, [3, 4, 3])
    _put(s, "eel", "mist_eel", 2, "witch", 20, 22)
    s.manifestations["eel"].damage = 5
    events = s.apply(CastSpell(player=1, unit="w2", spell="cinder_bolt", target="eel"))
    assert only(events, "ManifestationRemoved").reason == "destroyed" and "eel" not in s.manifestations


def test_e1_aos3_manifestations_cannot_be_targeted():
    s = battle({"w2": (1, P1_WIZ2, [(10, 22)]), "witch": (2, P2_WIZ1, [(50, 40)])}, profile="aos3")
    _put(s, "eel", "mist_eel", 2, "witch", 20, 22)
    reasons = s.explain(CastSpell(player=1, unit="w2", spell="cinder_bolt", target="eel"))
    assert reasons and "E1" in reasons[0]


def test_m10_spells_cannot_target_friendly_manifestations():
    s = battle({"w2": (1, P1_WIZ2, [(10, 22)]), "witch": (2, P2_WIZ1, [(50, 40)])})
    _put(s, "pyre", "rolling_pyre", 1, "w2", 20, 22)
    assert s.explain(CastSpell(player=1, unit="w2", spell="cinder_bolt", target="pyre"))


# --- M11 severed connection --------------------------------------------------------------------


def test_m11_a_summoner_slain_by_its_own_miscast_loses_its_manifestations():
    s = battle({"adept": (1, P1_WIZ1, [(10, 22)]), "beast": (2, P2_BEHEMOTH, [(30, 22)])}, [1, 1, 2])
    s.units["adept"].models[0].damage = 3  # health 4
    _put(s, "pyre", "rolling_pyre", 1, "adept", 20, 10)
    events = s.apply(CastSpell(player=1, unit="adept", spell="cinder_bolt", target="beast"))
    assert "UnitDestroyed" in kinds(events)
    removed = only(events, "ManifestationRemoved")
    assert removed.reason == "severed" and removed.rule == "M11" and not s.manifestations


def test_m11_a_summoner_slain_by_an_enemy_spell_loses_its_manifestations():
    s = battle({"adept": (1, P1_WIZ1, [(10, 22)]), "witch": (2, P2_WIZ1, [(20, 22)])}, [3, 4, 3], active=2)
    s.units["adept"].models[0].damage = 2
    _put(s, "pyre", "rolling_pyre", 1, "adept", 20, 10)
    _put(s, "lights", "bog_light_swarm", 2, "witch", 40, 10)
    s.apply(CastSpell(player=2, unit="witch", spell="drowning_chill", target="adept"))
    s.apply(DeclineUnbind(player=1))  # the adept itself could try to unbind
    assert "pyre" not in s.manifestations and "lights" in s.manifestations


def test_m11_manifestations_stay_while_the_summoner_lives():
    s = battle({"adept": (1, P1_WIZ1, [(10, 22)]), "beast": (2, P2_BEHEMOTH, [(30, 22)])}, [1, 1, 1])
    _put(s, "pyre", "rolling_pyre", 1, "adept", 20, 10)
    s.apply(CastSpell(player=1, unit="adept", spell="cinder_bolt", target="beast"))
    assert "pyre" in s.manifestations


def test_e3_modifiers_expire_and_commanders_reset_before_the_dispel_window():
    # E3 happens "at the start of each hero phase"; modifiers "until your next hero phase" and
    # E8's commanding player "until the start of the next hero phase" are already gone by then.
    from game.rules.units import Buff

    s = _dispel_board([])
    s.units["w2"].buffs.append(Buff("save_buff", 1, "heat_haze", 1, 0))
    s.manifestations["lights"].commander = 1  # player 1 took command of a wild one last phase
    s.apply(EndPhase(player=1))
    assert s.pending().kind == "dispel"
    assert s.units["w2"].buffs == [] and s.manifestations["lights"].commander == 2


def test_m9_g2_a_set_up_point_out_of_sight_names_what_blocks_it():
    # M9, G2: the set-up point must be visible to the summoning model; the reason names the
    # terrain and the units in the way, not "a model" or an index
    from game.rules.query import setup_problems

    wall = {"name": "Ash Wall", "traits": ["obscuring"], "points": [(14, 18), (15, 18), (15, 26), (14, 26)]}
    s = battle({"w": (1, P1_WIZ2, [(10, 22)]), "foe": (2, P2_WARDENS, [(30, 40)])}, terrain=[wall])
    (why,) = setup_problems(s, 1, "w", 0, "rolling_pyre", 19, 22)
    assert why == "not visible to the summoning model: blocked by Ash Wall (M9, G2)"
    assert setup_problems(s, 1, "w", 0, "rolling_pyre", 10, 30) == []  # round the wall: seen


def test_m9_g2_models_in_the_way_are_named_by_their_unit():
    # G2: models of another unit block sight; the reason names that unit
    from game.rules.query import setup_problems

    wall_of_spears = [(15, 22 + 1.3 * k) for k in range(-3, 4)]
    s = battle(
        {"w": (1, P1_WIZ2, [(10, 22)]), "spears": (1, P1_SPEARS, wall_of_spears), "foe": (2, P2_WARDENS, [(30, 40)])}
    )
    (why,) = setup_problems(s, 1, "w", 0, "rolling_pyre", 21, 22)
    assert why == f"not visible to the summoning model: blocked by {s.units['spears'].name} (M9, G2)"
