"""Issue 25: `normal` (and `hard`, which plays normal's scorers) keeps its heroes alive.

Hand-built positions (as bench/bench_hero_phase.py builds them): the standard armies' units are
replaced by a few placed ones, in player 1's movement or charge phase, and the bot plays the
phase. Each behaviour has its counter-case: when it is safe, the hero does go forward.
"""

from __future__ import annotations

import math

import pytest

from game.ai import hero_safety as H
from game.ai.hard import HardBot
from game.ai.normal import NormalBot
from game.rules import ChooseTurnOrder, EndPhase, Game, State
from game.rules.units import ModelState, UnitState

WEST_FORD = (12.0, 17.0)  # an objective of the standard map


def placed(units: list[tuple[str, str, list[tuple[float, float]]]], phase: str = "movement") -> State:
    """Player 1's `phase` with only `units` (id, warscroll, model positions) on the battlefield.
    Ids follow the armies' ("p1u0" is player 1's general)."""
    game = Game.load(profile="aos4")
    s = game.new_state(seed=3)
    s.apply(EndPhase(player=1))
    s.apply(EndPhase(player=2))
    s.apply(ChooseTurnOrder(player=s.priority_winner, first=1))
    s.apply(EndPhase(player=1))  # start of turn -> hero
    s.apply(EndPhase(player=1))  # hero -> movement
    s.units.clear()
    for uid, ws_id, pts in units:
        ws = game.warscroll(ws_id)
        s.units[uid] = UnitState(uid, int(uid[1]), ws_id, ws.name, [ModelState(x, y) for x, y in pts])
    s._cache.clear()
    while s.phase != phase:
        s.apply(EndPhase(player=1))
    return s


def line(x0: float, y: float, n: int, step: float = 1.4) -> list[tuple[float, float]]:
    return [(x0 + step * i, y) for i in range(n)]


def play_phase(state: State, bot) -> None:
    phase, turn = state.phase, state.turn
    for _ in range(60):
        if state.phase != phase or state.turn != turn or state.is_over():
            return
        d = state.pending()
        assert d.player == 1
        a = bot.choose(state)
        assert state.legal(a)
        state.apply(a)


def bots():
    return [NormalBot(1, seed=1), HardBot(1, seed=1, plan_rollouts=1)]


def centre(state: State, uid: str) -> tuple[float, float]:
    live = state.units[uid].live_models()
    return sum(m.x for _, m in live) / len(live), sum(m.y for _, m in live) / len(live)


# --- a WIZARD in an enemy charge lane stays behind its screen ---------------------------------

SCREEN = ("p1u5", "emberward_spears", line(5.7, 12.0, 10))  # a line at y = 12, x 5.7 .. 18.3


@pytest.mark.parametrize("bot", bots(), ids=["normal", "hard"])
def test_wizard_in_a_charge_lane_stays_behind_the_screen(bot) -> None:
    s = placed([("p1u2", "cinder_adept", [(12.0, 8.0)]), SCREEN, ("p2u8", "toadback_riders", line(9.0, 29.0, 5))])
    # standing on the objective it would face a likely charge; behind the spears, a screened one
    risk = H.hero_risk(s, "p1u2")
    assert risk.damage_at(*WEST_FORD) > 2 * risk.damage_at(12.0, 10.0)
    play_phase(s, bot)
    x, y = centre(s, "p1u2")
    assert y < 12.0, (x, y)  # still behind the line of spears
    assert H.hero_risk(s, "p1u2").screened_any(x, y)


@pytest.mark.parametrize("bot", bots(), ids=["normal", "hard"])
def test_wizard_with_no_enemy_in_reach_goes_to_the_objective(bot) -> None:
    s = placed([("p1u2", "cinder_adept", [(12.0, 11.0)]), ("p2u8", "toadback_riders", line(44.0, 42.0, 5))])
    play_phase(s, bot)
    x, y = centre(s, "p1u2")
    assert math.hypot(x - WEST_FORD[0], y - WEST_FORD[1]) <= 3.0 + 0.63, (x, y)


# --- an unbinder stays within unbinding range of the enemy casters (M6) ------------------------


def _caster_scene(enemy: str) -> State:
    # spears already hold the Heart of the Crossing; the wizard's objective is the West Ford,
    # which lies out of unbinding range of an enemy caster at (48, 34)
    return placed(
        [
            ("p1u2", "cinder_adept", [(24.0, 18.0)]),
            ("p1u5", "emberward_spears", line(23.7, 21.0, 10)),
            ("p2u0", enemy, [(48.0, 34.0)]),
        ]
    )


@pytest.mark.parametrize("bot", bots(), ids=["normal", "hard"])
def test_unbinder_stays_within_30_inches_of_the_enemy_caster(bot) -> None:
    s = _caster_scene("fen_oracle")
    assert not H.covers(s, "p1u2", *WEST_FORD, "p2u0")  # the objective would leave it uncovered
    play_phase(s, bot)
    assert H.covers(s, "p1u2", *centre(s, "p1u2"), "p2u0")


@pytest.mark.parametrize("bot", bots(), ids=["normal", "hard"])
def test_wizard_heads_for_its_objective_when_no_enemy_caster_needs_covering(bot) -> None:
    s = _caster_scene("mire_wardens")
    before = math.dist(centre(s, "p1u2"), WEST_FORD)
    play_phase(s, bot)
    assert math.dist(centre(s, "p1u2"), WEST_FORD) < before - 4.0


# --- the general does not charge into a fight it loses ----------------------------------------


def _charge_scene(killers: bool) -> State:
    # the general (Pyre-Magister) is 4" from a lone Reed-Witch; with killers, a Bog Behemoth and
    # Toadback Riders stand by her, ready to fall on the general once it is in combat there
    units = [("p1u0", "pyre_magister", [(30.0, 10.0)]), ("p2u2", "reed_witch", [(30.0, 15.4)])]
    if killers:
        units += [("p2u9", "bog_behemoth", [(35.0, 20.0)]), ("p2u8", "toadback_riders", line(22.0, 21.0, 5, 2.5))]
    return placed(units, phase="charge")


@pytest.mark.parametrize("bot", bots(), ids=["normal", "hard"])
def test_general_does_not_charge_into_a_fight_it_loses(bot) -> None:
    s = _charge_scene(killers=True)
    play_phase(s, bot)
    assert _charged(s) is False


@pytest.mark.parametrize("bot", bots(), ids=["normal", "hard"])
def test_general_charges_when_the_fight_is_safe(bot) -> None:
    s = _charge_scene(killers=False)
    play_phase(s, bot)
    assert _charged(s) is True


def _charged(s: State) -> bool:
    from game.rules.query import flags_of

    return flags_of(s, "p1u0").get("charge_tried_turn") == s.turn or flags_of(s, "p1u0").get("charged_turn") == s.turn
