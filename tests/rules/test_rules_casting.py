"""Casting, miscasts, unbinding, allowances and known spells (M1-M4, M6-M8, R1, E5)."""

from __future__ import annotations

import math

import pytest

from game.rules import EndPhase, IllegalActionError, ManifestationSpec, add_manifestations
from game.rules.actions import Banish, CastSpell, ChantPrayer, DeclineUnbind, Unbind
from game.rules.allowances import UnitUses, uses
from game.rules.targeting import known
from tests.helpers import (
    P1_COVEN,
    P1_PRI1,
    P1_WIZ1,
    P1_WIZ2,
    P2_BEHEMOTH,
    P2_WARDENS,
    P2_WIZ1,
    P2_WIZ2,
    R25,
    R32,
    R40,
    at_gap,
    battle,
    kinds,
    only,
)

BEHEMOTH_R = 90 / 25.4 / 2


def _duel(dice, gap_to_unbinder: float | None = None, unbinder=P2_WIZ2, **kw):
    """P1's WIZARD (2) at (10, 22) facing a Bog Behemoth 5" away; optionally an enemy wizard."""
    units = {
        "w2": (1, P1_WIZ2, [(10, 22)]),
        "w1": (1, P1_WIZ1, [(10, 30)]),
        "beast": (2, P2_BEHEMOTH, [(at_gap(10, R40, BEHEMOTH_R, 5), 22)]),
    }
    if gap_to_unbinder is not None:
        # down and to the right of the caster, so that even 31" away it stands on the battlefield
        r = R40 if unbinder == P2_WIZ2 else R32
        reach = at_gap(0, R40, r, gap_to_unbinder)
        a = math.radians(-35)
        units["foe"] = (2, unbinder, [(10 + reach * math.cos(a), 22 + reach * math.sin(a))])
    return battle(units, dice, **kw)


# --- M3 casting -------------------------------------------------------------------------------


def test_m3_casting_roll_equal_to_value_is_cast_and_resolves():
    # M3: at or above the casting value the spell is cast; Cinder Bolt is 7+, D3 mortal damage.
    s = _duel([3, 4, 2])
    events = s.apply(CastSpell(player=1, unit="w2", spell="cinder_bolt", target="beast"))
    assert only(events, "CastAttempted").outcome == "succeeded"
    assert only(events, "SpellCast").spell == "cinder_bolt"
    assert only(events, "DamageDealt").amount == 2 and s.units["beast"].models[0].damage == 2


def test_m3_casting_roll_below_value_fails_with_no_effect():
    # M3: below the casting value the spell fails; the attempt still counts as a use [ruling].
    s = _duel([3, 3])
    events = s.apply(CastSpell(player=1, unit="w2", spell="cinder_bolt", target="beast"))
    assert only(events, "CastAttempted").outcome == "failed"
    assert "SpellCast" not in kinds(events) and s.units["beast"].models[0].damage == 0
    assert s.phase_uses["w2"] == UnitUses(power=1, used=["cinder_bolt"])


def test_m3_miscast_on_double_one_deals_d3_and_stops_casting():
    # M3: two unmodified 1s: no effect, D3 mortal damage to the caster, no more casting this phase.
    s = _duel([1, 1, 3, 1, 1, 1])  # casting 1+1; D3 = 3; the WIZARD (2)'s ward 6+ rolls 1, 1, 1
    events = s.apply(CastSpell(player=1, unit="w2", spell="spark_lash", target="beast"))
    assert only(events, "CastAttempted").outcome == "miscast"
    assert only(events, "Miscast").damage == 3 and s.units["w2"].models[0].damage == 3
    assert "SpellCast" not in kinds(events)
    with pytest.raises(IllegalActionError) as err:
        s.apply(CastSpell(player=1, unit="w2", spell="cinder_bolt", target="beast"))
    assert err.value.code == "miscast" and "M3" in err.value.message


def test_m3_a_single_one_is_not_a_miscast():
    s = _duel([1, 6, 1])
    events = s.apply(CastSpell(player=1, unit="w2", spell="cinder_bolt", target="beast"))
    assert only(events, "CastAttempted").outcome == "succeeded" and "Miscast" not in kinds(events)


def test_m3_cast_only_in_your_hero_phase():
    s = _duel([], phase="movement")
    reasons = s.explain(CastSpell(player=1, unit="w2", spell="cinder_bolt", target="beast"))
    assert reasons and "hero phase" in reasons[0]


# --- M4 and M6 unbinding ----------------------------------------------------------------------


def test_m4_failed_cast_offers_no_reaction():
    # M4: the enemy can only react to a roll that met the casting value.
    s = _duel([2, 3], gap_to_unbinder=5)
    s.apply(CastSpell(player=1, unit="w2", spell="cinder_bolt", target="beast"))
    assert s.pending().kind == "phase" and s.pending().player == 1


def test_m4_successful_cast_hands_the_opponent_an_unbind_decision():
    s = _duel([3, 4], gap_to_unbinder=5)
    s.apply(CastSpell(player=1, unit="w2", spell="cinder_bolt", target="beast"))
    d = s.pending()
    assert d.kind == "unbind" and d.player == 2 and d.data["roll"] == 7
    assert Unbind(player=2, unit="foe", model=0) in d.options and DeclineUnbind(player=2) in d.options


def test_m6_unbind_must_beat_casting_roll():
    # M6: an unbinding roll equal to the casting roll fails; the spell resolves.
    s = _duel([3, 4, 4, 3, 1], gap_to_unbinder=5)
    s.apply(CastSpell(player=1, unit="w2", spell="cinder_bolt", target="beast"))
    events = s.apply(Unbind(player=2, unit="foe"))
    assert only(events, "UnbindAttempted").unbound is False
    assert only(events, "SpellCast").spell == "cinder_bolt" and s.units["beast"].models[0].damage == 1


def test_m6_unbind_higher_than_casting_roll_unbinds():
    s = _duel([3, 4, 4, 4], gap_to_unbinder=5)
    s.apply(CastSpell(player=1, unit="w2", spell="cinder_bolt", target="beast"))
    events = s.apply(Unbind(player=2, unit="foe"))
    assert only(events, "UnbindAttempted").unbound is True
    assert "SpellCast" not in kinds(events) and s.units["beast"].models[0].damage == 0


def test_m6_unbinder_at_exactly_30_inches_is_offered():
    s = _duel([3, 4], gap_to_unbinder=30.0)
    s.apply(CastSpell(player=1, unit="w2", spell="cinder_bolt", target="beast"))
    assert Unbind(player=2, unit="foe", model=0) in s.pending().options


def test_m6_unbinder_at_30_01_inches_is_not_offered_and_is_refused():
    s = _duel([3, 4], gap_to_unbinder=30.01, unbinder=P2_WIZ1)
    s.units["far2"] = s.units["foe"].__class__("far2", 2, P2_WIZ2, "Near Oracle", [s.units["foe"].models[0].__class__(10, 34)])
    s.apply(CastSpell(player=1, unit="w2", spell="cinder_bolt", target="beast"))
    d = s.pending()
    assert d.kind == "unbind" and Unbind(player=2, unit="foe", model=0) not in d.options
    with pytest.raises(IllegalActionError) as err:
        s.apply(Unbind(player=2, unit="foe"))
    assert err.value.code == "out_of_range" and "30.01\"" in err.value.message and "M6" in err.value.message


def test_m6_no_window_when_no_enemy_wizard_can_unbind():
    s = _duel([3, 4, 2], gap_to_unbinder=31)
    events = s.apply(CastSpell(player=1, unit="w2", spell="cinder_bolt", target="beast"))
    assert "SpellCast" in kinds(events) and s.pending().kind == "phase"


def test_m6_one_unbind_attempt_per_cast():
    s = _duel([3, 4, 1, 2, 2], gap_to_unbinder=5)
    s.units["foe2"] = s.units["foe"].__class__("foe2", 2, P2_WIZ1, "Second", [s.units["foe"].models[0].__class__(14, 34)])
    s.apply(CastSpell(player=1, unit="w2", spell="cinder_bolt", target="beast"))
    s.apply(Unbind(player=2, unit="foe"))
    assert s.pending().kind == "phase"  # no second window for foe2
    with pytest.raises(IllegalActionError):
        s.apply(Unbind(player=2, unit="foe2"))


def test_m6_decline_lets_the_spell_resolve():
    s = _duel([3, 4, 3], gap_to_unbinder=5)
    s.apply(CastSpell(player=1, unit="w2", spell="cinder_bolt", target="beast"))
    events = s.apply(DeclineUnbind(player=2))
    assert kinds(events)[:2] == ["UnbindDeclined", "SpellCast"]


def test_m6_wizard_2_unbinds_twice_per_phase_then_no_more():
    # M6: a WIZARD (n) can unbind n times a phase, an exception to R1.
    s = _duel([3, 4, 1, 1, 2, 1, 5, 3, 1, 2, 3], gap_to_unbinder=5)
    s.units["w1"].models[0].y = 22.5
    s.units["w1"].models[0].x = 10 - 3
    s.apply(CastSpell(player=1, unit="w2", spell="cinder_bolt", target="beast"))  # 7
    s.apply(Unbind(player=2, unit="foe"))  # 2: fails, bolt resolves (D3 = 2)
    s.apply(CastSpell(player=1, unit="w2", spell="spark_lash", target="beast"))  # 1+5 = 6
    s.apply(Unbind(player=2, unit="foe"))  # 3+1 = 4: fails, lash resolves (1 damage, no roll)
    assert uses(s, "foe").unbinds == 2
    events = s.apply(CastSpell(player=1, unit="w1", spell="spark_lash", target="beast"))
    assert "SpellCast" in kinds(events) and s.pending().kind == "phase"


def test_m6_unbinding_does_not_use_the_m1_allowance():
    s = _duel([3, 4, 1, 1, 2], gap_to_unbinder=5)
    s.apply(CastSpell(player=1, unit="w2", spell="cinder_bolt", target="beast"))
    s.apply(Unbind(player=2, unit="foe"))
    assert uses(s, "foe").power == 0


# --- M1 power level, M2/M7 once per turn, R1 -------------------------------------------------


def test_m1_wizard_2_casts_two_spells_then_a_third_is_refused():
    s = _duel([2, 2, 2, 2])
    s.apply(CastSpell(player=1, unit="w2", spell="cinder_bolt", target="beast"))
    s.apply(CastSpell(player=1, unit="w2", spell="choking_smog", target="beast"))
    with pytest.raises(IllegalActionError) as err:
        s.apply(CastSpell(player=1, unit="w2", spell="kiln_heart", target="beast"))
    assert err.value.code == "power_spent" and "2 of its 2" in err.value.message and "(M1)" in err.value.message


def test_m1_wizard_2_casts_one_spell_and_banishes_once():
    # M1's own example: a WIZARD (2) casts one spell and uses one Banish in its hero phase.
    s = _duel([2, 2, 3, 3])
    add_manifestations(s, [ManifestationSpec("m9", "bog_light_swarm", "beast", 20, 30, player=2, commander=2)])
    s.apply(CastSpell(player=1, unit="w2", spell="cinder_bolt", target="beast"))
    s.apply(Banish(player=1, unit="w2", manifestation="m9"))
    assert s.explain(CastSpell(player=1, unit="w2", spell="choking_smog", target="beast"))


def test_m1_wizard_1_has_one_use():
    s = _duel([2, 2])
    s.apply(CastSpell(player=1, unit="w1", spell="cinder_bolt", target="beast"))
    assert "1 of its 1" in s.explain(CastSpell(player=1, unit="w1", spell="spark_lash", target="beast"))[0]


def test_m7_second_wizard_cannot_cast_the_same_spell_this_turn():
    s = _duel([2, 2])
    s.apply(CastSpell(player=1, unit="w2", spell="cinder_bolt", target="beast"))
    with pytest.raises(IllegalActionError) as err:
        s.apply(CastSpell(player=1, unit="w1", spell="cinder_bolt", target="beast"))
    assert err.value.code == "once_per_turn" and "M7" in err.value.message


def test_m2_unlimited_spell_can_be_cast_by_two_wizards_in_a_turn():
    s = _duel([2, 2, 2, 2])
    s.apply(CastSpell(player=1, unit="w2", spell="spark_lash", target="beast"))
    s.apply(CastSpell(player=1, unit="w1", spell="spark_lash", target="beast"))
    assert s.turn_uses["1"].abilities == ["spark_lash", "spark_lash"]


def test_r1_a_unit_uses_an_unlimited_spell_once_per_phase():
    s = _duel([2, 2])
    s.apply(CastSpell(player=1, unit="w2", spell="spark_lash", target="beast"))
    with pytest.raises(IllegalActionError) as err:
        s.apply(CastSpell(player=1, unit="w2", spell="spark_lash", target="beast"))
    assert err.value.code == "rule_of_one" and "R1" in err.value.message


def test_m2_a_spell_is_available_again_next_turn():
    # M2: once per turn; the count resets when the army's next turn begins.
    s = _duel([2, 2, 6, 1, 2, 2])  # cast; round-2 roll-off 6-1; cast again
    s.apply(CastSpell(player=1, unit="w2", spell="cinder_bolt", target="beast"))
    while not (s.round == 2 and s.phase == "hero"):
        d = s.pending()
        if d.kind == "turn_order":
            from game.rules import ChooseTurnOrder

            s.apply(ChooseTurnOrder(player=d.player, first=1))
        else:
            s.apply(EndPhase(player=d.player))
    assert s.active == 1
    events = s.apply(CastSpell(player=1, unit="w2", spell="cinder_bolt", target="beast"))
    assert only(events, "CastAttempted").spell == "cinder_bolt"


# --- M8 known spells ----------------------------------------------------------------------------


def test_m8_wizard_knows_its_warscroll_and_its_armys_lores():
    s = _duel([])
    spells = known(s, "w2", "spell")
    assert "heat_haze" in spells  # its warscroll
    assert {"spark_lash", "cinder_bolt", "choking_smog", "kiln_heart"} <= set(spells)  # spell lore
    assert "summon_rolling_pyre" in spells  # manifestation lore
    assert "marsh_sting" not in spells and "reed_shroud" not in spells  # the other army's
    assert known(s, "w2", "prayer") == []


def test_m8_a_unit_cannot_use_what_it_does_not_know():
    s = _duel([])
    with pytest.raises(IllegalActionError) as err:
        s.apply(CastSpell(player=1, unit="w2", spell="marsh_sting", target="beast"))
    assert err.value.code == "not_known" and "M8" in err.value.message
    assert s.explain(CastSpell(player=1, unit="w1", spell="heat_haze"))  # another wizard's warscroll spell


def test_m8_wizard_cannot_chant_and_priest_cannot_cast():
    s = _duel([])
    s.units["pr"] = s.units["w1"].__class__("pr", 1, P1_PRI1, "Chaplain", [s.units["w1"].models[0].__class__(14, 30)])
    with pytest.raises(IllegalActionError) as err:
        s.apply(ChantPrayer(player=1, unit="w2", prayer="judgement_of_the_forge", target="beast"))
    assert err.value.code == "not_a_caster"
    with pytest.raises(IllegalActionError) as err:
        s.apply(CastSpell(player=1, unit="pr", spell="cinder_bolt", target="beast"))
    assert err.value.code == "not_a_caster"


# --- G1/G2 targeting ------------------------------------------------------------------------


def test_g1_spell_range_is_base_to_base_at_exactly_the_range():
    s = battle({"w2": (1, P1_WIZ2, [(10, 22)]), "beast": (2, P2_BEHEMOTH, [(at_gap(10, R40, BEHEMOTH_R, 18.0), 22)])})
    assert s.legal(CastSpell(player=1, unit="w2", spell="cinder_bolt", target="beast"))  # 18" reach


def test_g1_spell_out_of_range_by_a_hundredth_is_refused_with_the_distance():
    s = battle({"w2": (1, P1_WIZ2, [(10, 22)]), "beast": (2, P2_BEHEMOTH, [(at_gap(10, R40, BEHEMOTH_R, 18.01), 22)])})
    reasons = s.explain(CastSpell(player=1, unit="w2", spell="cinder_bolt", target="beast"))
    assert reasons and "18.01\"" in reasons[0] and "reaches 18\"" in reasons[0]


def test_g2_spell_needs_a_visible_target():
    wall = {"name": "Wall", "traits": ["obscuring"], "points": [(14, 12), (15, 12), (15, 32), (14, 32)]}
    s = battle({"w2": (1, P1_WIZ2, [(10, 22)]), "beast": (2, P2_BEHEMOTH, [(20, 22)])}, terrain=[wall])
    reasons = s.explain(CastSpell(player=1, unit="w2", spell="cinder_bolt", target="beast"))
    assert reasons and "not visible" in reasons[0]


# --- E5 wizard units of several models -------------------------------------------------------


def test_e5_range_is_measured_from_the_picked_model():
    # The coven's model 2 stands 10" further forward than model 0.
    s = battle(
        {
            "coven": (1, P1_COVEN, [(10, 22), (10 + 2 * R25 + 0.5, 22), (20, 22)]),
            "wardens": (2, P2_WARDENS, [(at_gap(20, R25, R32, 17.5), 22)]),
        },
        [3, 4, 1],
    )
    far = CastSpell(player=1, unit="coven", spell="cinder_bolt", model=0, target="wardens")
    near = CastSpell(player=1, unit="coven", spell="cinder_bolt", model=2, target="wardens")
    assert "model 0" in s.explain(far)[0] and "reaches 18\"" in s.explain(far)[0]
    assert s.legal(near)
    events = s.apply(near)
    assert only(events, "CastAttempted").model == 2


def test_e5_unbind_is_measured_from_the_picked_model():
    # Coven models 0 and 1 stand 29" from the caster (edge to edge), model 2 stands 30.5" away.
    step = 2 * R25 + 0.5
    y29 = 40 - R40 - R25 - 29.0
    y30_5 = 40 - R40 - R25 - 30.5
    s = battle(
        {
            "caster": (2, P2_WIZ2, [(30, 40)]),
            "target": (1, P1_WIZ1, [(30, 30)]),
            "coven": (1, P1_COVEN, [(30, y29), (30, y29 - step), (30, y30_5 - step)]),
        },
        [3, 4],
        active=2,
    )
    s.apply(CastSpell(player=2, unit="caster", spell="drowning_chill", target="target"))
    offered = {(a.unit, a.model) for a in s.pending().options if isinstance(a, Unbind)}
    assert ("coven", 0) in offered and ("coven", 2) not in offered
    reasons = s.explain(Unbind(player=1, unit="coven", model=2))
    assert reasons and "model 2" in reasons[0] and "30\"" in reasons[0]


def test_e5_a_model_that_is_not_there_cannot_act():
    s = _duel([])
    reasons = s.explain(CastSpell(player=1, unit="w2", spell="cinder_bolt", model=3, target="beast"))
    assert reasons and "E5" in reasons[0]
