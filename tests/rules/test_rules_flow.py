"""The turn skeleton (R2), dice, actions and the engine API's contract."""

from __future__ import annotations

import json

import pytest

from game.rules import ChooseTurnOrder, DiceScriptError, EndPhase, Game, IllegalActionError, ScriptedDice, SeededDice
from game.rules.actions import Action, CastSpell
from game.rules.turn import TURN
from tests.helpers import kinds


def _to_battle(state, first_rolls=(4, 2)):
    """Both players end deployment; the round-1 roll-off follows."""
    state.apply(EndPhase(player=1))
    return state.apply(EndPhase(player=2))


def test_r2_priority_roll_off_winner_chooses_first_turn():
    # R2: at the start of each battle round both players roll off; the winner chooses.
    game = Game.load()
    state = game.new_state(dice=ScriptedDice([{"purpose": None, "dice": [2, 5]}]))
    events = _to_battle(state)
    assert kinds(events) == ["RoundStarted", "DiceRolled", "PriorityWon"]
    assert events[-1].winner == 2 and state.pending().kind == "turn_order" and state.pending().player == 2
    events = state.apply(ChooseTurnOrder(player=2, first=1))
    assert state.active == 1 and state.phase == "start_of_turn"
    assert kinds(events) == ["TurnOrderChosen", "TurnStarted", "PhaseStarted"]


def test_r2_priority_loser_cannot_choose():
    # R2: only the roll-off's winner chooses who goes first.
    state = Game.load().new_state(dice=ScriptedDice([5, 1]))
    _to_battle(state)
    with pytest.raises(IllegalActionError) as err:
        state.apply(ChooseTurnOrder(player=2, first=2))
    assert err.value.code == "not_your_decision"


def test_r2_priority_tie_is_rolled_again():
    # R2 [ruling]: a tied roll-off is rolled again.
    state = Game.load().new_state(dice=ScriptedDice([3, 3, 1, 6]))
    events = _to_battle(state)
    assert kinds(events).count("DiceRolled") == 2
    assert state.priority_winner == 2


def test_r2_phases_in_order_two_turns_per_round_and_game_ends_after_rounds():
    # R2: start of turn, hero, movement, shooting, charge, combat, end of turn; two turns a round.
    game = Game.load(rounds=2)
    state = game.new_state(dice=ScriptedDice([6, 1, 1, 6]))
    _to_battle(state)
    state.apply(ChooseTurnOrder(player=1, first=1))
    log = []
    while state.pending().kind == "phase":
        log.append((state.round, state.active, state.phase))
        events = state.apply(EndPhase(player=state.active))
        if state.pending().kind == "turn_order":
            state.apply(ChooseTurnOrder(player=state.priority_winner, first=2))
    r2 = ["start_of_turn", "hero", "movement", "shooting", "charge", "combat", "end_of_turn"]  # RULES.md R2
    assert [p for _, _, p in log[:7]] == r2 == list(TURN.phase_names)
    assert [(r, a) for r, a, _ in log[::7]] == [(1, 1), (1, 2), (2, 2), (2, 1)]
    assert state.is_over() and state.result()["reason"] == "all 2 battle rounds played"
    assert events[-1].type == "GameEnded"
    with pytest.raises(IllegalActionError):
        state.apply(EndPhase(player=1))


def test_r2_default_game_length_is_five_rounds():
    assert Game.load().rounds == 5


def test_r2_end_phase_by_the_wrong_player_is_refused():
    state = Game.load().new_state(seed=1)
    with pytest.raises(IllegalActionError) as err:
        state.apply(EndPhase(player=2))
    assert "player 1" in err.value.message


def test_action_that_does_not_answer_the_decision_names_it():
    state = Game.load().new_state(seed=1)
    reasons = state.explain(CastSpell(player=1, unit="p1u0", spell="cinder_bolt", target="p2u5"))
    assert reasons and "deploy" in reasons[0]


def test_actions_round_trip_through_json():
    for cls in Action.registry.values():
        fields = {"player": 1}
        for name, kind in cls.__annotations__.items():
            if name in ("player", "registry"):
                continue
            fields[name] = {
                "str": "p1u0", "int": 2, "float": 1.5, "str | None": None,
                "tuple[tuple[float, float], ...]": ((1.5, 2), (3.25, 4.0)),
            }.get(str(kind), "x")
        a = cls(**fields)
        assert Action.from_dict(json.loads(json.dumps(a.to_dict()))) == a


def test_action_from_dict_rejects_unknown_type_and_fields():
    with pytest.raises(ValueError, match="unknown action type"):
        Action.from_dict({"type": "Teleport", "player": 1})
    with pytest.raises(ValueError, match="unknown field"):
        Action.from_dict({"type": "EndPhase", "player": 1, "extra": 3})


@pytest.mark.dice_unchecked("provokes ScriptedDice's run-out error, leaving the 3 it could not use")
def test_scripted_dice_fail_loudly_when_the_script_runs_out():
    dice = ScriptedDice([3])
    assert dice.roll(1, 6, "chanting") == (3,)
    with pytest.raises(DiceScriptError, match="ran out"):
        dice.roll(2, 6, "casting")


@pytest.mark.dice_unchecked("provokes ScriptedDice's purpose-mismatch error")
def test_scripted_dice_fail_loudly_on_an_unexpected_purpose():
    dice = ScriptedDice([{"purpose": "unbinding", "dice": [4, 4]}])
    with pytest.raises(DiceScriptError, match="expected a 'unbinding' roll"):
        dice.roll(2, 6, "casting")


@pytest.mark.dice_unchecked("provokes ScriptedDice's impossible-value error")
def test_scripted_dice_reject_impossible_values():
    with pytest.raises(DiceScriptError, match="not a D3"):
        ScriptedDice([5]).roll(1, 3, "miscast damage")


def test_seeded_dice_are_uniform_and_deterministic():
    a, b = SeededDice.from_seed(9), SeededDice.from_seed(9)
    rolls = a.roll(6000, 6, "x")
    assert rolls == b.roll(6000, 6, "x")
    counts = [rolls.count(i) for i in range(1, 7)]
    assert all(850 < c < 1150 for c in counts), counts


def test_every_roll_is_an_event_with_purpose_and_unmodified_dice():
    state = Game.load().new_state(dice=ScriptedDice([2, 5]))
    events = _to_battle(state)
    roll = next(e for e in events if e.type == "DiceRolled")
    assert roll.dice == (2, 5) and "priority" in roll.purpose and roll.rule == "R2"
