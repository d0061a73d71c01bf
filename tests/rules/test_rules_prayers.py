"""Prayers and ritual points (M5)."""

from __future__ import annotations

import pytest

from game.rules import IllegalActionError
from game.rules.actions import BankRitual, ChantPrayer, SpendRitual
from game.rules.allowances import fresh_turn_uses
from tests.helpers import P1_PRI1, P1_PRI2, P2_BEHEMOTH, P2_WIZ2, battle, kinds, only

BEHEMOTH_R = 90 / 25.4 / 2


def _chapel(dice, points: int = 0, with_enemy_wizard: bool = False):
    units = {
        "abbess": (1, P1_PRI2, [(10, 22)]),
        "chaplain": (1, P1_PRI1, [(10, 28)]),
        "beast": (2, P2_BEHEMOTH, [(20, 22)]),
    }
    if with_enemy_wizard:
        units["oracle"] = (2, P2_WIZ2, [(14, 30)])
    s = battle(units, dice)
    s.units["abbess"].ritual_points = points
    return s


JUDGEMENT = ChantPrayer(player=1, unit="abbess", prayer="judgement_of_the_forge", target="beast")  # 5+, D3


def test_m5_chanting_roll_of_one_fails_and_loses_d3_ritual_points():
    s = _chapel([1, 2], points=5)
    events = s.apply(JUDGEMENT)
    assert only(events, "RitualPoints").change == -2 and s.units["abbess"].ritual_points == 3
    assert s.pending().kind == "phase"  # no bank-or-spend choice on a 1


def test_m5_ritual_points_never_drop_below_zero():
    s = _chapel([1, 3], points=1)
    s.apply(JUDGEMENT)
    assert s.units["abbess"].ritual_points == 0


def test_m5_a_roll_of_two_or_more_offers_bank_or_spend():
    s = _chapel([2])
    s.apply(JUDGEMENT)
    d = s.pending()
    assert d.kind == "ritual_choice" and set(d.options) == {BankRitual(player=1), SpendRitual(player=1)}


def test_m5_bank_adds_the_roll_and_the_prayer_has_no_effect():
    s = _chapel([4], points=1)
    s.apply(JUDGEMENT)
    events = s.apply(BankRitual(player=1))
    assert only(events, "RitualPoints").points == 5
    assert s.units["beast"].models[0].damage == 0


def test_m5_spend_answers_when_roll_plus_points_meets_the_value_and_resets_points():
    s = _chapel([3, 2], points=2)  # 3 + 2 = 5 >= 5; D3 = 2
    s.apply(JUDGEMENT)
    events = s.apply(SpendRitual(player=1))
    assert only(events, "PrayerResolved").answered is True
    assert s.units["abbess"].ritual_points == 0 and s.units["beast"].models[0].damage == 2


def test_m5_spend_below_the_value_fails_and_keeps_the_points():
    s = _chapel([2], points=2)  # 2 + 2 = 4 < 5
    s.apply(JUDGEMENT)
    events = s.apply(SpendRitual(player=1))
    assert only(events, "PrayerResolved").answered is False
    assert s.units["abbess"].ritual_points == 2 and s.units["beast"].models[0].damage == 0


def test_m5_ritual_points_persist_across_turns_and_in_the_saved_state():
    s = _chapel([6])
    s.apply(JUDGEMENT)
    s.apply(BankRitual(player=1))
    d = s.to_dict()
    assert d["units"]["abbess"]["ritual_points"] == 6
    s.turn_uses = fresh_turn_uses()  # a later turn
    assert s.units["abbess"].ritual_points == 6


def test_m5_prayers_cannot_be_unbound():
    # M6 reacts to SPELLs only.
    s = _chapel([5, 1], points=0, with_enemy_wizard=True)
    s.apply(JUDGEMENT)
    assert s.pending().kind == "ritual_choice"
    s.apply(SpendRitual(player=1))
    assert s.pending().kind == "phase"


def test_m5_chanting_counts_towards_m1_and_r1():
    s = _chapel([4, 4])  # the two chants; the refused one rolls nothing
    s.apply(JUDGEMENT)
    s.apply(BankRitual(player=1))
    with pytest.raises(IllegalActionError) as err:
        s.apply(JUDGEMENT)
    assert err.value.code == "rule_of_one"
    s.apply(ChantPrayer(player=1, unit="abbess", prayer="oath_of_the_anvil", target="chaplain"))
    s.apply(BankRitual(player=1))
    reasons = s.explain(ChantPrayer(player=1, unit="abbess", prayer="hearthguard_blessing", target="chaplain"))
    assert reasons and "2 of its 2" in reasons[0]


def test_m7_a_second_priest_cannot_chant_the_same_prayer_this_turn():
    s = _chapel([4])
    s.apply(JUDGEMENT)
    s.apply(BankRitual(player=1))
    reasons = s.explain(ChantPrayer(player=1, unit="chaplain", prayer="judgement_of_the_forge", target="beast"))
    assert reasons and "M7" in reasons[0]


def test_m7_unlimited_prayer_can_be_chanted_by_two_priests():
    s = _chapel([4])  # the abbess's chant; the chaplain's is only checked
    s.units["chaplain"].models[0].damage = 1
    s.apply(ChantPrayer(player=1, unit="abbess", prayer="warmth_of_the_hearth", target="chaplain"))
    s.apply(BankRitual(player=1))
    assert s.legal(ChantPrayer(player=1, unit="chaplain", prayer="warmth_of_the_hearth", target="abbess"))


def test_effect_heal_removes_damage_on_an_answered_prayer():
    s = _chapel([3])
    s.units["chaplain"].models[0].damage = 3
    s.apply(ChantPrayer(player=1, unit="abbess", prayer="warmth_of_the_hearth", target="chaplain"))
    events = s.apply(SpendRitual(player=1))
    assert "EffectApplied" in kinds(events) and s.units["chaplain"].models[0].damage == 2
