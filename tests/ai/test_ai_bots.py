"""The bots (issue 7): legal whole games at every level, determinism for a seed, and tactics on
hand-built positions (M5, M6, E9)."""

from __future__ import annotations

import sys

import pytest

from game.ai.hard import HardBot, is_movement
from game.ai.normal import NormalBot
from game.ai.random_bot import RandomBot
from game.ai.registry import BOTS, make_bot
from game.data.content import DEFAULT_ARMIES
from game.rules import EndPhase, Game, ManifestationSpec, add_manifestations
from game.rules.actions import Banish, BankRitual, DeclineUnbind, SpendRitual, Unbind
from game.rules.allowances import UnitUses
from game.rules.frames import RitualChoiceFrame, UnbindFrame
from game.rules.predatory import passed_across
from game.rules.predatory_records import MovePredatory
from tests.helpers import P1_PRI2, P1_SPEARS, P1_WIZ1, P1_WIZ2, P2_WARDENS, P2_WIZ2, battle, play_legally


def _play(bots: dict, seed: int, limit: int | None = None) -> list:
    game = Game.load(profile="aos4", armies=DEFAULT_ARMIES)
    return play_legally(game.new_state(seed=seed), bots, limit)


def test_the_levels_are_registered():
    assert {"random", "normal", "hard"} <= set(BOTS)
    assert make_bot("hard@0.25", 1, 3).budget == 0.25
    with pytest.raises(ValueError):
        make_bot("hard@fast", 1, 3)


@pytest.mark.parametrize("seed", [1, 2, 3, 4])
def test_normal_plays_whole_games_with_legal_actions_only(seed):
    bots = {1: NormalBot(1, seed), 2: RandomBot(2, seed)} if seed % 2 else {1: RandomBot(1, seed), 2: NormalBot(2, seed)}
    assert _play(bots, seed)


@pytest.mark.soak
@pytest.mark.parametrize("seed", range(10, 40))
def test_soak_every_level_plays_whole_games_with_legal_actions_only(seed):
    # thirty seeds, sides alternated; each game pits two levels against each other, in both
    # rules profiles
    levels = [("random", "normal"), ("normal", "hard"), ("hard", "random")][seed % 3]
    first, second = levels if seed % 2 else levels[::-1]
    game = Game.load(profile="aos4" if seed % 4 < 2 else "aos3", armies=DEFAULT_ARMIES)
    state = game.new_state(seed=seed)
    play_legally(state, {1: make_bot(first, 1, seed), 2: make_bot(second, 2, seed + 1)})
    assert state.result() is not None


def test_hard_plays_a_whole_game_with_legal_actions_only():
    bots = {1: HardBot(1, 4, budget=0.02), 2: NormalBot(2, 4)}
    assert _play(bots, 4)
    assert bots[1].searched > 0


def test_the_bots_are_deterministic_for_a_seed():
    # hard with two rounds per search (its schedule, cheaper: the rounds decide, whatever their
    # number); the generous time cap is never reached, so the rounds of rollouts, not the
    # machine's speed, decide its choices
    def run():
        return _play({1: NormalBot(1, 9), 2: HardBot(2, 9, budget=60.0, plan_rollouts=2)}, 9, limit=90)

    first = run()
    assert first == run()
    assert first != _play({1: NormalBot(1, 9), 2: RandomBot(2, 9)}, 9, limit=90)


def _first_movement_decision(seed: int):
    game = Game.load(profile="aos4", armies=DEFAULT_ARMIES)
    state = game.new_state(seed=seed)
    while not is_movement(state.pending()):
        state.apply(NormalBot(state.pending().player, 1).choose(state))
    return state


def test_bots_never_touch_the_games_dice():
    # the plan search plays whole turns on clones with its own dice
    state = _first_movement_decision(5)
    before = state.to_dict()
    bot = HardBot(state.pending().player, 1, budget=60.0, plan_rollouts=2)
    bot.choose(state)
    assert bot.searched == 1
    assert state.to_dict() == before


def test_hard_searches_movement_once_a_turn_and_says_which_plan_it_chose():
    state = _first_movement_decision(6)
    me = state.pending().player
    bot = HardBot(me, 2, budget=60.0, plan_rollouts=2)
    turn = state.turn
    while state.turn == turn and not state.is_over():
        d = state.pending()
        if d.player != me:
            break
        state.apply(bot.choose(state))
        if is_movement(d):
            assert "turn rollouts" in bot.last_explanation and "[plan '" in bot.last_explanation
    assert bot.searched == 1  # the plan is kept for the rest of the phase


def test_hard_without_a_budget_plays_as_normal():
    state = _first_movement_decision(7)
    me = state.pending().player
    assert HardBot(me, 3, budget=0).choose(state) == NormalBot(me, 3).choose(state)


# --- tactics on hand-built positions ------------------------------------------------------------
# Each runs for `normal` and for `hard` (which plays these decisions with normal's judgement).

LEVELS = {"normal": NormalBot, "hard": HardBot}


@pytest.fixture(params=sorted(LEVELS))
def level(request):
    return LEVELS[request.param]


def _unbind_window(state, caster, spell, target, roll):
    state.decisions.append(UnbindFrame(player=2, caster=caster, model=0, spell=spell, target=target, roll=roll))


def test_m6_the_bot_unbinds_a_lethal_spell_on_its_general_even_with_its_last_unbind(level):
    s = battle({
        "p1u0": (1, P1_WIZ2, [(20, 22)]),
        "p1u2": (1, P1_WIZ1, [(22, 30)]),
        "p2u0": (2, P2_WIZ2, [(30, 22)]),  # player 2's general
        "p2u5": (2, P2_WARDENS, [(50 + (i % 5) * 1.4, 38 + (i // 5) * 1.4) for i in range(10)]),
    })
    s.units["p2u0"].models[0].damage = 4  # 2 wounds left
    s.phase_uses["p2u0"] = UnitUses(unbinds=1)
    _unbind_window(s, "p1u0", "kiln_heart", "p2u0", 8)
    bot = level(2, 0)
    act = bot.choose(s)
    assert isinstance(act, Unbind) and act.unit == "p2u0"
    assert "Kiln Heart" in bot.last_explanation


def _buff_position(adept_has_power: bool):
    s = battle({
        "p1u0": (1, P1_WIZ2, [(15, 15)]),
        "p1u2": (1, P1_WIZ1, [(32, 22)]),
        "p2u0": (2, P2_WIZ2, [(40, 22)]),  # the general, within 12" of the Cinder Adept
        "p2u5": (2, P2_WARDENS, [(8 + (i % 5) * 1.4, 24 + (i // 5) * 1.4) for i in range(10)]),
    })
    s.phase_uses["p2u0"] = UnitUses(unbinds=1)
    s.phase_uses["p1u0"] = caster = UnitUses(power=1, used=["heat_haze"])
    if not adept_has_power:  # and the Pyre-Magister has spent its second cast too
        caster.power = 2
        s.phase_uses["p1u2"] = UnitUses(power=1, used=["spark_lash"])
    # cast on an 8: a 28% unbind on a small buff, less than keeping it for Kiln Heart
    _unbind_window(s, "p1u0", "heat_haze", None, 8)
    return s


def test_m6_the_bot_keeps_its_last_unbind_when_a_bigger_threat_can_still_come(level):
    s = _buff_position(adept_has_power=True)
    bot = level(2, 0)
    assert isinstance(bot.choose(s), DeclineUnbind)
    assert "bigger spells can still come" in bot.last_explanation


def test_m6_with_nothing_left_to_fear_the_bot_spends_its_last_unbind_on_the_buff(level):
    s = _buff_position(adept_has_power=False)
    bot = level(2, 0)
    assert isinstance(bot.choose(s), Unbind)
    assert "unbinds Heat Haze" in bot.last_explanation


def test_e9_the_bot_steers_a_predatory_manifestation_across_enemy_units_not_its_own(level):
    spears = [(15 + i * 1.4, 30) for i in range(10)]  # our own unit, 8" north of it
    wardens = [(15 + i * 1.4, 14) for i in range(10)]  # the enemy, 8" south
    s = battle({
        "p1u0": (1, P1_WIZ2, [(6, 22)]),
        "p1u5": (1, P1_SPEARS, spears),
        "p2u0": (2, P2_WIZ2, [(55, 40)]),
        "p2u5": (2, P2_WARDENS, wardens),
    })
    add_manifestations(s, [ManifestationSpec("m1", "rolling_pyre", "p1u0", 21.3, 22.0, player=1, commander=1)])
    s.apply(EndPhase(player=1))
    d = s.pending()
    assert d.kind == "predatory_move" and d.player == 1
    bot = level(1, 0)
    act = bot.choose(s)
    assert isinstance(act, MovePredatory) and act.manifestation == "m1"
    crossed = passed_across(s, "m1", (21.3, 22.0), (act.x, act.y))
    assert "p2u5" in crossed and "p1u5" not in crossed
    assert "Emberward" not in bot.last_explanation.split("(also")[0] or "Mire Wardens" in bot.last_explanation


def _near_the_west_edge(owner: int):
    s = battle({
        "p1u0": (1, P1_WIZ2, [(12, 22)]),
        "p1u5": (1, P1_SPEARS, [(20 + i * 1.4, 6) for i in range(10)]),
        "p2u0": (2, P2_WIZ2, [(50, 40)]),  # more than 24" away: its manifestation is wild (E7)
        "p2u5": (2, P2_WARDENS, [(14 + (i % 5) * 1.4, 34 + (i // 5) * 1.4) for i in range(10)]),
    })
    scroll, summoner = ("rolling_pyre", "p1u0") if owner == 1 else ("mist_eel", "p2u0")
    add_manifestations(s, [ManifestationSpec("m1", scroll, summoner, 4.0, 22.0, player=owner, commander=1)])
    s.apply(EndPhase(player=1))
    assert s.pending().kind == "predatory_move" and s.pending().player == 1
    return s


def test_e4_the_bot_runs_an_enemy_manifestation_off_the_edge_on_purpose(level):
    # E4b (aos4): a predatory manifestation whose move touches the edge is removed; commanding
    # the enemy's wild one, the bot uses that
    s = _near_the_west_edge(owner=2)
    bot = level(1, 0)
    events = s.apply(bot.choose(s))
    assert any(e.type == "ManifestationRemoved" and e.reason == "edge" for e in events)
    assert "edge" in bot.last_explanation


def test_e4_the_bot_keeps_its_own_manifestation_on_the_battlefield(level):
    s = _near_the_west_edge(owner=1)
    bot = level(1, 0)
    events = s.apply(bot.choose(s))
    assert not any(e.type == "ManifestationRemoved" for e in events)
    assert "m1" in s.manifestations


def test_m12_the_bot_banishes_the_enemy_manifestation_not_its_own(level):
    # M12: a WIZARD or PRIEST may try to banish a manifestation in range; both are within reach
    s = battle({
        "p1u0": (1, P1_PRI2, [(20, 20)]),
        "p2u0": (2, P2_WIZ2, [(50, 40)]),
    })
    add_manifestations(s, [ManifestationSpec("m1", "rolling_pyre", "p1u0", 26.0, 20.0, player=1, commander=1)])
    add_manifestations(s, [ManifestationSpec("m2", "mist_eel", "p2u0", 20.0, 27.0, player=2, commander=2)])
    bot = level(1, 0)
    act = bot.choose(s)
    assert isinstance(act, Banish) and act.manifestation == "m2"
    assert "Mist Eel" in bot.last_explanation and "% to succeed" in bot.last_explanation


def _ritual(roll: int, points: int):
    s = battle({
        "p1u0": (1, P1_WIZ2, [(10, 22)]),
        "p1u1": (1, P1_PRI2, [(14, 22)]),
        "p2u0": (2, P2_WIZ2, [(24, 22)]),
    })
    s.units["p1u1"].ritual_points = points
    s.decisions.append(RitualChoiceFrame(player=1, unit="p1u1", model=0, prayer="judgement_of_the_forge", target="p2u0", roll=roll))
    return s


def test_m5_the_bot_spends_ritual_points_when_they_reach_the_chanting_value(level):
    bot = level(1, 0)
    assert isinstance(bot.choose(_ritual(3, 2)), SpendRitual)  # 3 + 2 reaches 5
    assert "reaches" in bot.last_explanation
    assert isinstance(bot.choose(_ritual(2, 2)), BankRitual)  # 2 + 2 is short: bank the 2


def test_ai_modules_do_not_import_the_ui():
    import game.ai.hard  # noqa: F401
    import game.ai.normal  # noqa: F401

    for name in ("game.ai.normal", "game.ai.hard", "game.ai.knowledge"):
        src = sys.modules[name].__file__
        assert "game.ui" not in open(src, encoding="utf-8").read()
