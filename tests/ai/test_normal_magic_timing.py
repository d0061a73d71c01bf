"""The normal bot times its magic (issue 25): cast order and baits (M3, M6), unbinds kept for
bigger spells (M6), ritual points banked or spent (M5), summons set up where they stay under
control (E7, M12), predatory choices looked at two moves ahead (E7-E9). Hand-built positions;
each behaviour with its counter-case, for `normal` and for `hard` (normal's judgement)."""

from __future__ import annotations

import math

import pytest

from game.ai import magic_plan as MP
from game.ai.hard import HardBot
from game.ai.normal import NormalBot
from game.rules import EndPhase, ManifestationSpec, add_manifestations
from game.rules.actions import BankRitual, CastSpell, ChantPrayer, DeclineUnbind, SpendRitual, Unbind
from game.rules.allowances import UnitUses
from game.rules.frames import RitualChoiceFrame, SummonSetupFrame, UnbindFrame
from game.rules.predatory_records import MovePredatory
from tests.helpers import P1_PRI2, P1_SPEARS, P1_WIZ1, P1_WIZ2, P2_PRI1, P2_WARDENS, P2_WIZ2, battle

LEVELS = {"normal": NormalBot, "hard": HardBot}


@pytest.fixture(params=sorted(LEVELS))
def level(request):
    return LEVELS[request.param]


# --- the sequence value (game.ai.magic_plan) ----------------------------------------------------


def _cast(key: str, caster: str, value: float, casting_value: int, exposed: bool = True) -> MP.Cast:
    from game.rules import query

    return MP.Cast(
        key,
        caster,
        value,
        query.odds.cast_chance(casting_value),
        float(query.odds.miscast_fraction()),
        MP.unbind_share(casting_value),
        exposed,
    )


def test_m6_with_no_unbind_left_the_order_is_most_valuable_first():
    casts = [_cast("small", "a", 3.0, 5), _cast("big", "b", 6.0, 8)]
    order, value, plain = MP.best_order(casts, unbinds=0)
    assert [c.key for c in order] == ["big", "small"]
    assert value == pytest.approx(plain)


def test_m6_a_likely_lesser_cast_first_draws_the_last_unbind_when_the_sequence_is_worth_more():
    # the big spell is hard to cast (8+) and hard to unbind once cast; the lesser one (5+) is
    # worth unbinding to an opponent who keeps its unbind only for a bigger expected gain
    casts = [_cast("small", "a", 3.0, 5), _cast("big", "b", 8.0, 8)]
    order, value, plain = MP.best_order(casts, unbinds=1)
    assert [c.key for c in order] == ["small", "big"]
    assert value > plain
    # the counter-case: with an unbind for every cast, a bait gains nothing; the biggest first
    order, value, plain = MP.best_order(casts, unbinds=2)
    assert [c.key for c in order] == ["big", "small"] and value == pytest.approx(plain)


def test_m3_a_casters_bigger_spell_comes_before_its_lesser_one_a_miscast_ends_its_casting():
    casts = [_cast("small", "a", 1.0, 5, exposed=False), _cast("big", "a", 6.0, 5, exposed=False)]
    same = MP.sequence_value(casts, 0)
    swapped = MP.sequence_value(casts[::-1], 0)
    assert swapped > same
    assert [c.key for c in MP.best_order(casts, 0)[0]] == ["big", "small"]


def test_m6_keeps_an_unbind_while_as_many_bigger_casts_can_still_come():
    assert MP.keeps_unbind(0.2, [0.5, 0.4], left=2)
    assert not MP.keeps_unbind(0.2, [0.5, 0.1], left=2)
    assert not MP.keeps_unbind(0.2, [], left=1)


# --- cast order in a hero phase ----------------------------------------------------------------


def _three_casts(enemy_unbinds_left: int):
    """Player 1: a Pyre-Magister (2 casts) and a Cinder Adept (1), with Kiln Heart (8+, the
    biggest), Cinder Bolt and Summon Rolling Pyre to cast; the enemy Fen-Oracle in unbinding
    range with `enemy_unbinds_left` unbinds left this phase."""
    s = battle(
        {
            "p1u0": (1, P1_WIZ2, [(20, 22)]),
            "p1u2": (1, P1_WIZ1, [(20, 28)]),
            "p2u0": (2, P2_WIZ2, [(36, 22)]),
            "p2u5": (2, P2_WARDENS, [(30 + (i % 5) * 1.4, 30 + (i // 5) * 1.4) for i in range(10)]),
        }
    )
    s.phase_uses["p2u0"] = UnitUses(unbinds=2 - enemy_unbinds_left)
    return s


def test_m6_the_bot_baits_the_last_unbind_with_a_lesser_cast(level):
    s = _three_casts(enemy_unbinds_left=1)
    bot = level(1, 0)
    act = bot.choose(s)
    assert isinstance(act, CastSpell) and act.spell == "summon_rolling_pyre"
    assert "to draw the unbind before Kiln Heart" in bot.last_explanation


def test_m6_with_no_enemy_unbind_left_the_bot_casts_the_spell_that_matters_most_first(level):
    s = _three_casts(enemy_unbinds_left=0)
    bot = level(1, 0)
    act = bot.choose(s)
    assert isinstance(act, CastSpell) and act.spell == "kiln_heart"
    assert "draw the unbind" not in bot.last_explanation


# --- unbinding ---------------------------------------------------------------------------------


def _unbind_spark_lash(adept_power: bool):
    """Player 1's Pyre-Magister cast Spark Lash on a 9 (hard to unbind, little harm); its second
    cast and the Cinder Adept's (if it has power) can still come; player 2 has 2 unbinds."""
    s = battle(
        {
            "p1u0": (1, P1_WIZ2, [(20, 22)]),
            "p1u2": (1, P1_WIZ1, [(20, 28)]),
            "p2u0": (2, P2_WIZ2, [(36, 22)]),
            "p2u5": (2, P2_WARDENS, [(30 + (i % 5) * 1.4, 30 + (i // 5) * 1.4) for i in range(10)]),
        }
    )
    s.phase_uses["p1u0"] = UnitUses(power=1, used=["spark_lash"])
    if not adept_power:
        s.phase_uses["p1u2"] = UnitUses(power=1, used=["heat_haze"])
    s.decisions.append(UnbindFrame(player=2, caster="p1u0", model=0, spell="spark_lash", target="p2u5", roll=9))
    return s


def test_m6_the_bot_keeps_both_unbinds_when_two_bigger_casts_can_still_come(level):
    bot = level(2, 0)
    assert isinstance(bot.choose(_unbind_spark_lash(adept_power=True)), DeclineUnbind)
    assert "bigger spells can still come" in bot.last_explanation


def test_m6_with_one_bigger_cast_to_come_the_bot_spends_one_of_its_two_unbinds(level):
    bot = level(2, 0)
    assert isinstance(bot.choose(_unbind_spark_lash(adept_power=False)), Unbind)
    assert "unbinds Spark Lash" in bot.last_explanation


# --- ritual points -----------------------------------------------------------------------------


def _ritual(prayer: str, roll: int, points: int, round: int = 1):
    s = battle(
        {
            "p1u1": (1, P1_PRI2, [(14, 22)]),
            "p1u5": (1, P1_SPEARS, [(14 + i * 1.4, 26) for i in range(10)]),
            "p2u0": (2, P2_WIZ2, [(26, 22)]),
        },
        round=round,
    )
    s.units["p1u1"].ritual_points = points
    s.decisions.append(RitualChoiceFrame(player=1, unit="p1u1", model=0, prayer=prayer, target=None, roll=roll))
    return s


def test_m5_the_bot_banks_a_roll_that_answers_a_prayer_worth_nothing_now(level):
    # Warmth of the Hearth (3+) heals, but nobody is hurt: the 4 banked makes Judgement of the
    # Forge likelier next turn
    bot = level(1, 0)
    assert isinstance(bot.choose(_ritual("warmth_of_the_hearth", 4, 1)), BankRitual)
    assert "worth less now than the points next turn" in bot.last_explanation


def test_m5_in_the_last_round_the_bot_spends_nothing_is_left_to_bank_for(level):
    s = _ritual("warmth_of_the_hearth", 4, 1, round=5)
    bot = level(1, 0)
    assert s.round >= s.game.rounds
    assert isinstance(bot.choose(s), SpendRitual)


def test_m5_the_bot_spends_when_the_prayer_is_worth_more_now(level):
    bot = level(1, 0)
    assert isinstance(bot.choose(_ritual("judgement_of_the_forge", 3, 2)), SpendRitual)
    assert "reaches" in bot.last_explanation


def test_m5_a_chant_unlikely_to_be_answered_is_a_chant_to_bank():
    s = _ritual("judgement_of_the_forge", 3, 0)
    s.decisions.pop()
    bot = NormalBot(1, 0)
    with s.query():
        score, why = bot.cast_score(s, ChantPrayer(player=1, unit="p1u1", model=0, prayer="pale_reproach"))
        assert "to bank ritual points" in why
        s.units["p1u1"].ritual_points = 4  # now 5+ is answered on any roll but a 1
        score, why = bot.cast_score(
            s, ChantPrayer(player=1, unit="p1u1", model=0, prayer="judgement_of_the_forge", target="p2u0")
        )
    assert "to be answered" in why and score > 0


# --- summoning ---------------------------------------------------------------------------------


def _summon(banisher: bool):
    """Player 1's Pyre-Magister summoned a Rolling Pyre (predatory); the enemy's Mire Wardens
    are east; a Tide-Caller (a PRIEST: it may banish, M12) is north-east, or plain Wardens."""
    s = battle(
        {
            "p1u0": (1, P1_WIZ2, [(14, 22)]),
            "p2u5": (2, P2_WARDENS, [(40 + (i % 5) * 1.4, 20 + (i // 5) * 1.4) for i in range(10)]),
            "p2u1": (
                2,
                P2_PRI1 if banisher else P2_WARDENS,
                [(46, 40)] if banisher else [(52 + i * 1.4, 42) for i in range(5)],
            ),
        }
    )
    s.decisions.append(SummonSetupFrame(player=1, unit="p1u0", model=0, scroll="rolling_pyre"))
    return s


def test_e7_a_predator_is_set_up_where_its_summoner_controls_it_and_its_removers_reach_less(level):
    bot = level(1, 0)
    far = bot.choose(_summon(banisher=True))
    near = level(1, 0).choose(_summon(banisher=False))
    s = _summon(banisher=True)
    m = s.units["p1u0"].models[0]
    assert math.hypot(far.x - m.x, far.y - m.y) <= s.game.profile.control_range - 3.0
    # with a banisher north-east, the set-up moves out of its reach (M12), which it need not
    # do without one
    assert math.hypot(far.x - 46, far.y - 40) > s.game.profile.banish_range
    assert math.hypot(near.x - 46, near.y - 40) < s.game.profile.banish_range


# --- predatory choices, two moves ahead ---------------------------------------------------------


def _predatory_position():
    s = battle(
        {
            "p1u0": (1, P1_WIZ2, [(6, 22)]),
            "p1u5": (1, P1_SPEARS, [(15 + i * 1.4, 30) for i in range(10)]),
            "p2u0": (2, P2_WIZ2, [(55, 40)]),
            "p2u5": (2, P2_WARDENS, [(15 + i * 1.4, 14) for i in range(10)]),
        }
    )
    add_manifestations(s, [ManifestationSpec("m1", "rolling_pyre", "p1u0", 21.3, 22.0, player=1, commander=1)])
    s.apply(EndPhase(player=1))
    return s


def test_e9_the_two_move_lookahead_plays_on_clones_with_its_own_dice(level):
    s = _predatory_position()
    before = s.to_dict()
    bot = level(1, 0)
    act = bot.choose(s)
    assert isinstance(act, MovePredatory) and s.legal(act)
    assert s.to_dict() == before  # the game's dice and state untouched
    assert level(1, 0).choose(_predatory_position()) == act  # deterministic


def _two_wild():
    """Both manifestations wild (their summoners more than 24" away, E7): our Rolling Pyre
    between the enemy's Mire Wardens and our Spears, the enemy's Mist Eel near the north edge.
    Player 1 picks first (E8); whoever picks one commands it."""
    s = battle({
        "p1u0": (1, P1_WIZ2, [(58, 42)]),
        "p1u5": (1, P1_SPEARS, [(15 + i * 1.4, 30) for i in range(10)]),
        "p2u0": (2, P2_WIZ2, [(58, 2)]),
        "p2u5": (2, P2_WARDENS, [(15 + i * 1.4, 14) for i in range(10)]),
    })
    add_manifestations(
        s,
        [
            ManifestationSpec("m1", "rolling_pyre", "p1u0", 21.3, 22.0, player=1, commander=1),
            ManifestationSpec("m2", "mist_eel", "p2u0", 40.0, 36.0, player=2, commander=2),
        ],
    )
    s.apply(EndPhase(player=1))
    d = s.pending()
    assert d.kind == "predatory_move" and d.player == 1 and d.data["stage"] == "wild"
    return s


def test_e8_the_wild_pick_is_chosen_by_its_effect_two_moves_ahead(level):
    # one move ahead, running the enemy's Mist Eel off the edge looks best; but then the enemy
    # picks our Rolling Pyre and runs it off the edge. Two moves ahead, the bot strikes the
    # Wardens with the Pyre and leaves the enemy its Eel, which reaches nothing
    s = _two_wild()
    act = level(1, 0).choose(s)
    assert isinstance(act, MovePredatory) and act.manifestation == "m1"
    assert "across Mire Wardens" in NormalBot(1, 0).ranked(s)[0][2]


def test_e8_without_the_lookahead_the_one_move_policy_takes_the_eel_off_the_edge():
    # the counter-case: the fast policy (the hard bot's rollouts) looks one move ahead only
    s = _two_wild()
    act = NormalBot(1, 0, fast=True).choose(s)
    assert isinstance(act, MovePredatory) and act.manifestation == "m2"


def test_e9_a_predatory_move_that_leaves_it_in_place_is_explained_as_staying():
    """E9: normal's reason for a move to where the manifestation stands says it keeps it
    there (the log then says it stays where it is), not that it moves it into position; a move
    elsewhere still says it moves it."""
    from game.ai.reason import words

    s = _predatory_position()
    m = s.manifestations["m1"]
    bot = NormalBot(1, 0)
    _, stay = bot.predatory_move_value(s, "m1", m.x, m.y, 1)
    _, move = bot.predatory_move_value(s, "m1", m.x + 4.0, m.y, 1)
    assert words(stay).startswith("keeps ") and "where it is" in words(stay) and "into position" not in words(stay)
    assert words(move).startswith("moves ")
