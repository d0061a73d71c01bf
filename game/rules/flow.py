"""The turn's machinery (R2): deployment, battle rounds, priority roll-offs, turns and phases.

The turn itself is one declared table, `game.rules.turn.TURN`, in the manner of boardgame.io's
phase config: the phases in order and, for each, the automatic steps run when it begins and when
it ends, and the providers of its options and candidates; the checks run after every action and
step; and the decision kinds that `pending()` can show. Rule modules write the step functions
(`@step(name)`) and the providers; they do not say where those run. The table does.

This module reads the table: `pending()` and `head()` say who must decide what, `settle()` runs
the queued automatic steps until a decision is open, and the R2 skeleton (`flow.start_round`,
`flow.advance`, the EndPhase and ChooseTurnOrder handlers) moves from phase to phase, turn to
turn and round to round. A step that opens decisions holds back the next queued step until they
close. Queued steps are kept in the state by name (`State.steps`), so the names are part of the
save format.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from game.rules.actions import Action, ChooseTurnOrder, EndPhase
from game.rules.allowances import fresh_turn_uses
from game.rules.decisions import Decision, handles
from game.rules.errors import FlowLoopError, IllegalActionError
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

# The stages of a battle (`State.stage`): set-up, each round's priority roll-off, the turns, the end.
STAGES: tuple[str, ...] = ("deployment", "turn_order", "battle", "over")
# `settle` gives up after this many automatic steps without a decision: a step that keeps
# queueing steps is an engine bug, and an endless loop would hang every caller. A phase change
# runs a handful (the ending phase's end steps, flow.advance, the next phase's begin steps).
MAX_AUTOMATIC_STEPS = 100
SHOWN_STEPS = 6  # how many of the last steps a FlowLoopError names


# --- the table's parts ------------------------------------------------------------------------


class Step:
    """An automatic step of the engine: a function of the state, under a stable name (the name
    is what `State.steps` stores). Made by the `step` decorator; calling it runs it."""

    __slots__ = ("name", "run", "rule")

    def __init__(self, name: str, run: Callable[["State"], None], rule: str | None = None) -> None:
        self.name = name
        self.run = run
        self.rule = rule

    def __call__(self, state: "State") -> None:
        self.run(state)

    def __repr__(self) -> str:
        return f"Step({self.name!r})"

    def label(self) -> str:
        return f"{self.name} ({self.rule})" if self.rule else self.name


def step(name: str, rule: str | None = None) -> Callable[[Callable[["State"], None]], Step]:
    """Make the decorated function an automatic step named `name` (and citing `rule`). It runs
    only where the turn table (`game.rules.turn`) lists it."""

    def make(fn: Callable[["State"], None]) -> Step:
        return Step(name, fn, rule)

    return make


class Slot:
    """An open place in the table that rules and content add steps to, such as "end-of-hero-phase
    abilities". Where the slot runs, and so where everything added to it runs, is the table's
    business; the steps in it run in the order they were added."""

    def __init__(self, name: str, rule: str | None = None) -> None:
        self.name = name
        self.rule = rule
        self.steps: list[Step] = []

    def add(self, s: Step) -> None:
        if not isinstance(s, Step):
            raise TypeError(f"a slot holds steps made with @flow.step, got {s!r}")
        if all(x.name != s.name for x in self.steps):
            self.steps.append(s)

    def remove(self, s: Step) -> None:
        self.steps = [x for x in self.steps if x.name != s.name]

    def label(self) -> str:
        inner = ", ".join(x.label() for x in self.steps) or "none yet"
        rule = f" ({self.rule})" if self.rule else ""
        return f"[{self.name}{rule}: {inner}]"


Entry = Step | Slot
Provider = Callable[["State"], list[Action]]
View = Callable[["State", Any], Decision]


def _names(entries: tuple[Entry, ...]) -> list[str]:
    out: list[str] = []
    for e in entries:
        if isinstance(e, Slot):
            out.extend(x.name for x in e.steps)
        else:
            out.append(e.name)
    return out


def _provider_label(fn: Callable) -> str:
    return f"{fn.__module__.rsplit('.', 1)[-1]}.{fn.__name__}"


@dataclass(frozen=True)
class Phase:
    """One phase of the turn (R2): its steps when it begins and when it ends, in order, and the
    providers of the active player's options (checked, enumerable) and candidates (cheap,
    unchecked; a phase without any uses its options)."""

    name: str
    begin: tuple[Entry, ...] = ()
    end: tuple[Entry, ...] = ()
    options: tuple[Provider, ...] = ()
    candidates: tuple[Provider, ...] = ()

    def begin_steps(self) -> list[str]:
        return _names(self.begin)

    def end_steps(self) -> list[str]:
        return _names(self.end)


@dataclass(frozen=True)
class Turn:
    """The turn as one table: the phases in order, the skeleton's own steps, the checks run after
    every action and step (in every stage), and the view of each stacked decision kind."""

    phases: tuple[Phase, ...]
    skeleton: tuple[Step, ...]
    settle: tuple[Step, ...]
    decisions: Mapping[str, View]
    rule: str = "R2"
    _by_name: dict[str, Phase] = field(default_factory=dict, init=False, repr=False, compare=False)
    _steps: dict[str, Step] = field(default_factory=dict, init=False, repr=False, compare=False)
    _slots: list[Slot] = field(default_factory=list, init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        for ph in self.phases:
            if ph.name in self._by_name:
                raise ValueError(f"turn table: phase {ph.name!r} is listed twice")
            self._by_name[ph.name] = ph
            for e in ph.begin + ph.end:
                if isinstance(e, Slot):
                    self._slots.append(e)
                else:
                    self._add_step(e)
        for s in self.skeleton:
            self._add_step(s)

    def _add_step(self, s: Step) -> None:
        if self._steps.get(s.name, s) is not s:
            raise ValueError(f"turn table: two different steps are named {s.name!r}")
        self._steps[s.name] = s

    @property
    def phase_names(self) -> tuple[str, ...]:
        return tuple(ph.name for ph in self.phases)

    def phase(self, name: str) -> Phase:
        return self._by_name[name]

    def step(self, name: str) -> Step:
        """The step queued under `name`: listed in a phase, added to a slot, or the skeleton's."""
        found = self._steps.get(name)
        if found is not None:
            return found
        for slot in self._slots:
            for s in slot.steps:
                if s.name == name:
                    return s
        raise KeyError(f"no step named {name!r} in the turn table")

    def step_names(self) -> set[str]:
        return set(self._steps) | {s.name for slot in self._slots for s in slot.steps}

    def describe(self) -> str:
        """The table as text, one phase after another, as it runs."""
        lines = [f"turn ({self.rule}): " + " -> ".join(self.phase_names)]
        lines.append("  after every action and step: " + ", ".join(s.label() for s in self.settle))
        for ph in self.phases:
            lines.append(
                f"phase {ph.name}" + ("" if ph.begin or ph.end or ph.options else ": the active player ends it")
            )
            if ph.begin:
                lines.append(f"  {'begin:':<12}" + ", ".join(e.label() for e in ph.begin))
            if ph.options:
                lines.append(f"  {'options:':<12}" + ", ".join(_provider_label(f) for f in ph.options))
            if ph.candidates:
                lines.append(f"  {'candidates:':<12}" + ", ".join(_provider_label(f) for f in ph.candidates))
            if ph.end:
                lines.append(f"  {'end:':<12}" + ", ".join(e.label() for e in ph.end))
        lines.append("then flow.advance: the next phase, the next turn, or the next round (flow.start_round)")
        lines.append("decisions (stacked; pending() shows the top one):")
        lines.extend(f"  {k + ':':<19}{_provider_label(v)}" for k, v in self.decisions.items())
        return "\n".join(lines)


_TABLE: Turn | None = None


def install(turn: Turn) -> None:
    """Make `turn` the table the flow runs: `game.rules.turn` installs `TURN` when it is imported
    (by `import game.rules`, before anything is played). The table names the rule modules' steps
    and the rule modules import this module for `step`, so the table comes to the flow, not the
    other way."""
    global _TABLE
    _TABLE = turn


def table() -> Turn:
    """The turn table installed by `game.rules.turn`."""
    if _TABLE is None:
        raise RuntimeError("no turn table: import game.rules (it installs game.rules.turn.TURN)")
    return _TABLE


# --- pending ----------------------------------------------------------------------------------


def pending(state: "State") -> Decision:
    if state.stage == "over":
        return Decision(player=0, kind="over", prompt="nothing: the game is over")
    if state.decisions:
        top = state.decisions[-1]
        return table().decisions[top.kind](state, top)
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
    phase, active = table().phase(state.phase), state.active

    def options() -> list[Action]:
        out: list[Action] = []
        for fn in phase.options:
            out.extend(fn(state))
        return out + [EndPhase(player=active)]

    def candidates() -> list[Action]:
        out: list[Action] = []
        for fn in phase.candidates:
            out.extend(fn(state))
        return out + [EndPhase(player=active)]

    return Decision(
        player=active,
        kind="phase",
        prompt=f"act in the {phase.name.replace('_', ' ')} phase or end it",
        options=state.lazily(options),
        data={"phase": phase.name},
        candidates=state.lazily(candidates) if phase.candidates else None,
    )


def head(state: "State") -> tuple[int, str]:
    """Who must decide and the kind of decision, without building the options (cheap)."""
    if state.stage == "over":
        return 0, "over"
    if state.decisions:
        top = state.decisions[-1]
        return top.player, top.kind
    if state.stage == "deployment":
        return state.active, "deploy"
    if state.stage == "turn_order":
        return state.priority_winner, "turn_order"
    return state.active, "phase"


def settle(state: "State") -> None:
    """Run queued automatic steps until a decision is open or nothing is queued; the table's
    settle checks run before each step and once more at the end.

    More than MAX_AUTOMATIC_STEPS steps without a decision is a loop (a step that keeps queueing
    steps): FlowLoopError names the last ones. The state is then mid-step and not to be used."""
    t = table()
    ran: list[str] = []
    while state.stage != "over":
        for check in t.settle:
            check(state)
            if state.stage == "over":
                return
        if state.decisions or not state.steps:
            return
        if len(ran) >= MAX_AUTOMATIC_STEPS:
            last = ", ".join(ran[-SHOWN_STEPS:])
            raise FlowLoopError(
                f"the turn does not settle: {len(ran)} automatic steps ran without a decision in the "
                f"{state.phase} phase (the last: {last}; next queued: {state.steps[0]}); a step keeps queueing steps"
            )
        name = state.steps.pop(0)
        ran.append(name)
        t.step(name)(state)


# --- deployment, rounds and turns (R2) ----------------------------------------------------


def _check_end_phase(state: "State", action: EndPhase) -> None:
    if state.steps:
        raise IllegalActionError("phase_ending", f"the {state.phase} phase is already ending", "R2", phase=state.phase)


@handles(EndPhase, kinds=("deploy", "phase"), check=_check_end_phase)
def _end_phase(state: "State", action: EndPhase) -> None:
    if state.stage == "deployment":
        if state.active == 1:
            state.active = 2
        else:
            state.steps.append(start_round.name)
        return
    state.steps.extend(table().phase(state.phase).end_steps())
    state.steps.append(advance.name)


def _check_turn_order(state: "State", action: ChooseTurnOrder) -> None:
    if action.first not in (1, 2):
        raise IllegalActionError(
            "bad_player", f"first must be player 1 or 2, got {action.first}", "R2", first=action.first
        )


@handles(ChooseTurnOrder, kinds=("turn_order",), check=_check_turn_order)
def _choose_turn_order(state: "State", action: ChooseTurnOrder) -> None:
    state.first_player = action.first
    state.emit(TurnOrderChosen(round=state.round, chooser=action.player, first=action.first))
    state.stage = "battle"
    _start_turn(state, action.first)


@step("flow.start_round", rule="R2")
def start_round(state: "State") -> None:
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
    state.turn_uses = fresh_turn_uses()
    state.emit(TurnStarted(round=state.round, player=player))
    _enter_phase(state, table().phases[0])


def _enter_phase(state: "State", phase: Phase) -> None:
    state.phase = phase.name
    state.phase_uses = {}
    state.emit(PhaseStarted(phase=phase.name, player=state.active))
    state.steps.extend(phase.begin_steps())


@step("flow.advance", rule="R2")
def advance(state: "State") -> None:
    """End the current phase and start the next one, the next turn or the next round (R2)."""
    state.emit(PhaseEnded(phase=state.phase, player=state.active))
    phases = table().phases
    i = table().phase_names.index(state.phase)
    if i + 1 < len(phases):
        _enter_phase(state, phases[i + 1])
    elif state.active == state.first_player:
        _start_turn(state, 3 - state.active)
    else:
        start_round(state)


SKELETON: tuple[Step, ...] = (start_round, advance)


def end_game(state: "State", reason: str, winner: int | None = None) -> None:
    """Finish the game. Without a named winner, more victory points wins; equal is a draw."""
    if winner is None and state.score[0] != state.score[1]:
        winner = 1 if state.score[0] > state.score[1] else 2
    state.outcome = {"winner": winner, "reason": reason, "score": list(state.score)}
    state.stage = "over"
    state.decisions.clear()
    state.steps.clear()
    state.emit(GameEnded(winner=winner, reason=reason, score=(state.score[0], state.score[1])))
