"""The turn skeleton (R2): deployment, battle rounds, priority roll-offs, turns and phases.

Phases are a table of hooks, in the manner of boardgame.io's flow: each phase has named
automatic steps that run when it begins and when it ends. A step may open decisions (for
example an unbind window or the predatory procedure); the next step waits until they close.
Rule modules register their steps and their phase options here.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Callable

from game.rules.actions import Action, ChooseTurnOrder, EndPhase
from game.rules.decisions import Decision, handles
from game.rules.errors import IllegalActionError
from game.rules.events import (
    GameEnded,
    PhaseEnded,
    PhaseStarted,
    PriorityWon,
    RoundStarted,
    TurnOrderChosen,
    TurnStarted,
)

if TYPE_CHECKING:
    from game.rules.state import State

PHASES: tuple[str, ...] = ("start_of_turn", "hero", "movement", "shooting", "charge", "combat", "end_of_turn")
# The stages of a battle (`State.stage`): set-up, each round's priority roll-off, the turns, the end.
STAGES: tuple[str, ...] = ("deployment", "turn_order", "battle", "over")

Step = Callable[["State"], None]
STEPS: dict[str, Step] = {}
ON_BEGIN: dict[str, list[str]] = {p: [] for p in PHASES}
ON_BEGIN_LAST: dict[str, list[str]] = {p: [] for p in PHASES}
ON_END: dict[str, list[str]] = {p: [] for p in PHASES}
# Per phase: functions listing the enumerable actions the active player may take besides EndPhase.
PHASE_OPTIONS: dict[str, list[Callable[["State"], list[Action]]]] = {p: [] for p in PHASES}
# Per phase: functions listing cheap, unchecked candidates (a superset of the legal actions that
# bots sample from). A phase without any uses its PHASE_OPTIONS.
PHASE_CANDIDATES: dict[str, list[Callable[["State"], list[Action]]]] = {p: [] for p in PHASES}
# Per stacked decision kind: how to present it through pending().
DECISION_VIEWS: dict[str, Callable[["State", dict], Decision]] = {}
# Checks run after every action and step, e.g. "an army with nothing left loses".
SETTLE_CHECKS: list[Callable[["State"], None]] = []


def step(name: str) -> Callable[[Step], Step]:
    """Register an automatic step under `name`."""

    def register(fn: Step) -> Step:
        STEPS[name] = fn
        return fn

    return register


def on_begin(phase: str, name: str, last: bool = False) -> None:
    """Run step `name` when `phase` begins. Steps that open decisions for the players (such as
    the E3 dispel window) pass `last=True`, so that bookkeeping steps (expiring modifiers,
    resetting commanders) have already run when the players act."""
    table = ON_BEGIN_LAST if last else ON_BEGIN
    if name not in table[phase]:
        table[phase].append(name)


def on_end(phase: str, name: str) -> None:
    if name not in ON_END[phase]:
        ON_END[phase].append(name)


# --- pending ----------------------------------------------------------------------------------


def pending(state: "State") -> Decision:
    if state.stage == "over":
        return Decision(player=0, kind="over", prompt="nothing: the game is over")
    if state.decisions:
        top = state.decisions[-1]
        return DECISION_VIEWS[top["kind"]](state, top)
    if state.stage == "deployment":
        return Decision(
            player=state.active,
            kind="deploy",
            prompt="adjust deployment, then end it",
            options=(EndPhase(player=state.active),),
        )
    if state.stage == "turn_order":
        w = state.priority_winner
        return Decision(
            player=w,
            kind="turn_order",
            prompt=f"choose who takes the first turn of battle round {state.round}",
            options=(ChooseTurnOrder(player=w, first=w), ChooseTurnOrder(player=w, first=3 - w)),
        )
    phase, active = state.phase, state.active

    def options() -> list[Action]:
        out: list[Action] = []
        for fn in PHASE_OPTIONS[phase]:
            out.extend(fn(state))
        return out + [EndPhase(player=active)]

    def candidates() -> list[Action]:
        out: list[Action] = []
        for fn in PHASE_CANDIDATES[phase]:
            out.extend(fn(state))
        return out + [EndPhase(player=active)]

    return Decision(
        player=active,
        kind="phase",
        prompt=f"act in the {phase.replace('_', ' ')} phase or end it",
        options=state.lazily(options),
        data={"phase": phase},
        candidates=state.lazily(candidates) if PHASE_CANDIDATES[phase] else None,
    )


def head(state: "State") -> tuple[int, str]:
    """Who must decide and the kind of decision, without building the options (cheap)."""
    if state.stage == "over":
        return 0, "over"
    if state.decisions:
        top = state.decisions[-1]
        return top["player"], top["kind"]
    if state.stage == "deployment":
        return state.active, "deploy"
    if state.stage == "turn_order":
        return state.priority_winner, "turn_order"
    return state.active, "phase"


def settle(state: "State") -> None:
    """Run queued automatic steps until a decision is open or nothing is queued."""
    while state.stage != "over":
        for check in SETTLE_CHECKS:
            check(state)
            if state.stage == "over":
                return
        if state.decisions or not state.steps:
            return
        STEPS[state.steps.pop(0)](state)


# --- deployment, rounds and turns (R2) ----------------------------------------------------


def _check_end_phase(state: "State", action: EndPhase) -> None:
    if state.steps:
        raise IllegalActionError("phase_ending", f"the {state.phase} phase is already ending", "R2")


@handles(EndPhase, kinds=("deploy", "phase"), check=_check_end_phase)
def _end_phase(state: "State", action: EndPhase) -> None:
    if state.stage == "deployment":
        if state.active == 1:
            state.active = 2
        else:
            state.steps.append("flow.start_round")
        return
    state.steps.extend(ON_END[state.phase])
    state.steps.append("flow.advance")


def _check_turn_order(state: "State", action: ChooseTurnOrder) -> None:
    if action.first not in (1, 2):
        raise IllegalActionError("bad_player", f"first must be player 1 or 2, got {action.first}", "R2")


@handles(ChooseTurnOrder, kinds=("turn_order",), check=_check_turn_order)
def _choose_turn_order(state: "State", action: ChooseTurnOrder) -> None:
    state.first_player = action.first
    state.emit(TurnOrderChosen(round=state.round, chooser=action.player, first=action.first))
    state.stage = "battle"
    _start_turn(state, action.first)


@step("flow.start_round")
def _start_round(state: "State") -> None:
    """R2: a new battle round begins with a priority roll-off; ties are rolled again [ruling]."""
    if state.round >= state.game.rounds:
        end_game(state, reason=f"all {state.game.rounds} battle rounds played")
        return
    state.round += 1
    state.emit(RoundStarted(round=state.round))
    while True:
        a, b = state.roll(2, 6, "priority roll-off (player 1, player 2)", "R2")
        if a != b:
            break
    state.priority_winner = 1 if a > b else 2
    state.emit(PriorityWon(round=state.round, winner=state.priority_winner, rolls=(a, b)))
    state.stage = "turn_order"


def _start_turn(state: "State", player: int) -> None:
    state.turn += 1
    state.active = player
    state.turn_uses = {"1": {}, "2": {}}
    state.emit(TurnStarted(round=state.round, player=player))
    _enter_phase(state, PHASES[0])


def _enter_phase(state: "State", phase: str) -> None:
    state.phase = phase
    state.phase_uses = {}
    state.emit(PhaseStarted(phase=phase, player=state.active))
    state.steps.extend(ON_BEGIN[phase] + ON_BEGIN_LAST[phase])


@step("flow.advance")
def _advance(state: "State") -> None:
    """End the current phase and start the next one, the next turn or the next round (R2)."""
    state.emit(PhaseEnded(phase=state.phase, player=state.active))
    i = PHASES.index(state.phase)
    if i + 1 < len(PHASES):
        _enter_phase(state, PHASES[i + 1])
    elif state.active == state.first_player:
        _start_turn(state, 3 - state.active)
    else:
        _start_round(state)


def end_game(state: "State", reason: str, winner: int | None = None) -> None:
    """Finish the game. Without a named winner, more victory points wins; equal is a draw."""
    if winner is None and state.score[0] != state.score[1]:
        winner = 1 if state.score[0] > state.score[1] else 2
    state.outcome = {"winner": winner, "reason": reason, "score": list(state.score)}
    state.stage = "over"
    state.decisions.clear()
    state.steps.clear()
    state.emit(GameEnded(winner=winner, reason=reason, score=(state.score[0], state.score[1])))
