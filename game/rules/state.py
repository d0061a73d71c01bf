"""`State`: the mutable position of one battle, and the engine API every caller drives.

    state.pending()          -> Decision: who must choose what, with the options where countable
    state.legal(action)      -> bool
    state.explain(action)    -> list[str]: why an action is illegal (empty when legal)
    state.apply(action)      -> list[Event]; raises IllegalActionError, leaving the state untouched
    state.clone(); state.to_dict(); State.from_dict(d, game); state.is_over(); state.result()

Everything in the state is plain data or a typed record that saves as plain data (the decision
frames, game.rules.frames; the use counters, game.rules.allowances); `to_dict()` and
`from_dict()` round-trip exactly, dice included, so a save or a clone continues the same game.
"""

from __future__ import annotations

import copy
import hashlib
import json
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

from game.rules import flow
from game.rules.actions import Action
from game.rules.allowances import ArmyUses, PlayerUses, UnitUses, fresh_turn_uses, phase_uses_from_checked
from game.rules.decisions import HANDLERS, Decision
from game.rules.deployment import deploy_army
from game.rules.dice import Dice, dice_from_dict
from game.rules.errors import IllegalActionError
from game.rules.events import DiceRolled, Event
from game.rules.frames import Frame, frame_from_checked
from game.rules.state_check import state_problems
from game.rules.state_schema import STATE_FORMAT
from game.rules.units import ManifestationState, ModelState, UnitState, geometry_epoch

if TYPE_CHECKING:
    from game.rules.game import Game

SHOWN_PROBLEMS = 3  # how many of a refused state's problems `from_dict` names
# The state's plain fields, by how a copy takes them (`State._fill`).
_SCALAR_FIELDS = ("round", "turn", "first_player", "active", "stage", "phase", "priority_winner", "counter")
_LIST_FIELDS = ("steps", "score", "objectives")
_NESTED_FIELDS = ("flags", "outcome")
# The typed records (game.rules.stored) are copied and read back by `clone` and `from_dict`:
# decisions, phase_uses and turn_uses.


class State:
    """The mutable game state. Build one with `Game.new_state()` or `State.from_dict()`."""

    def __init__(self, game: Game, dice: Dice) -> None:
        self.game = game
        self.dice = dice
        self.round = 0
        self.turn = 0  # global turn number, 1 .. 2 * rounds
        self.first_player = 0  # who took the first turn this round
        self.active = 1  # the player whose turn it is (or who is deploying)
        self.stage = "deployment"  # deployment | turn_order | battle | over
        self.phase = "deployment"
        self.priority_winner = 0
        self.units: dict[str, UnitState] = {}
        self.manifestations: dict[str, ManifestationState] = {}
        self.decisions: list[Frame] = []  # stack of open decisions (game.rules.frames); the last is on top
        self.steps: list[str] = []  # queued automatic steps (flow.STEPS), run when no decision is open
        # per unit, and per player under "player1" / "player2" (E3), reset each phase (M1, R1)
        self.phase_uses: dict[str, UnitUses | PlayerUses] = {}
        self.turn_uses: dict[str, ArmyUses] = fresh_turn_uses()  # per army "1", "2", reset each turn (M2, M7, M9)
        self.score = [0, 0]
        self.objectives: list[int | None] = [None] * len(game.battlefield.map.objectives)
        self.flags: dict[str, Any] = {}  # one-off battle facts, e.g. a general-slain bonus paid
        self.outcome: dict[str, Any] | None = None
        self.counter = 0  # for fresh manifestation ids
        self._events: list[Event] | None = None
        # derived geometry, never serialised (see space.positions): "positions", or a tuple naming
        # what was derived and from what
        self._cache: dict[str | tuple[Any, ...], Any] = {}
        self._cache_fp: tuple | None = None  # the geometry epoch the cache was computed at
        # answers kept from one decision to the next (`recall`): name -> (game, inputs, answer)
        self._keep: dict[str | tuple[Any, ...], tuple[Any, Any, Any]] = {}
        # refutations of moves kept across positions, each checked again before it is used
        # (`movement._ends_on_a_base`); a clone starts without them
        self._witnesses: dict[tuple[Any, ...], tuple[Any, ...]] = {}
        self._querying = False
        self._moves = [0]  # moves of the models a clone owns (units._Tracked)

    # --- construction ------------------------------------------------------------------------

    @classmethod
    def new(cls, game: Game, dice: Dice) -> "State":
        s = cls(game, dice)
        for player, spots in zip((1, 2), game.derived("default_deployment", lambda: default_deployment(game))):
            for i, (au, where) in enumerate(zip(game.army(player).units, spots)):
                ws = game.warscroll(au.warscroll)
                uid = f"p{player}u{i}"
                s.units[uid] = UnitState(uid, player, ws.id, au.name or ws.name, [ModelState(x, y) for x, y in where])
        return s

    # --- the engine API ----------------------------------------------------------------------

    def pending(self) -> Decision:
        """The open decision (see `Decision`)."""
        with self.query():
            return flow.pending(self)

    @contextmanager
    def query(self) -> Iterator[None]:
        """A read-only stretch: derived geometry is cached until it ends (see space.positions)."""
        if self._querying:
            yield
            return
        self._sync_cache()
        self._querying = True
        try:
            yield
        finally:
            self._querying = False

    def lazily(self, fn: Callable[[], list]) -> Callable[[], list]:
        """Wrap a deferred option list so that it runs as one read-only query."""

        def run() -> list:
            with self.query():
                return fn()

        return run

    def explain(self, action: Action) -> list[str]:
        """Why `action` is illegal now; an empty list when it is legal."""
        if not self._querying:
            self._sync_cache()
        try:
            self._check(action)
        except IllegalActionError as exc:
            return [exc.message]
        return []

    def legal(self, action: Action) -> bool:
        """Whether `action` is legal now: `explain` is empty. A handler's `refute` may say no
        first, without the reasons being worded (the same answer, issue 24)."""
        if not self._querying:
            self._sync_cache()
        try:
            handler = self._handler(action)
            if handler.refute is not None and handler.refute(self, action):
                return False
            handler.check(self, action)
        except IllegalActionError:
            return False
        return True

    def apply(self, action: Action) -> list[Event]:
        """Validate and apply `action`; return the events. Illegal actions change nothing."""
        self._sync_cache()
        handler = self._check(action)
        self._events = []
        try:
            handler.do(self, action)
            flow.settle(self)
            return self._events
        finally:
            self._events = None

    def _check(self, action: Action):
        handler = self._handler(action)
        handler.check(self, action)
        return handler

    def _handler(self, action: Action):
        """The handler that answers `action` now; IllegalActionError when none does or it is
        not the actor's decision (everything `_check` asks before the handler's own check)."""
        if self.stage == "over":
            raise IllegalActionError("game_over", "the game is over; no more actions", "R2")
        by_kind = HANDLERS.get(type(action))
        if by_kind is None:
            raise IllegalActionError("unknown_action", f"{type(action).__name__} is not an action this engine knows")
        player, kind = flow.head(self)
        handler = by_kind.get(kind)
        if handler is None:
            raise IllegalActionError(
                "wrong_decision",
                f"{action.type} does not answer the open decision: player {player} must make a {kind} decision",
                action=action.type,
                player=player,
                kind=kind,
            )
        if action.player != player:
            raise IllegalActionError(
                "not_your_decision",
                f"player {action.player} cannot act now: player {player} must make a {kind} decision",
                asker=action.player,
                player=player,
                kind=kind,
            )
        return handler

    def _sync_cache(self) -> None:
        """Keep derived geometry while nothing has moved; drop it when anything has.

        Models and manifestations bump `units.geometry_epoch()` (or, for a clone's own copies,
        the clone's `_moves`) when they move, are slain or are replaced, so positions changed
        from outside (tests, editors) are caught too."""
        key = self._cache_key()
        if key != self._cache_fp:
            self._cache.clear()
            self._cache_fp = key

    def _cache_key(self) -> tuple:
        return (
            geometry_epoch(),
            self._moves[0],
            id(self.units),
            len(self.units),
            id(self.manifestations),
            len(self.manifestations),
        )

    def recall(self, name: str | tuple[Any, ...], inputs: Any, make: Callable[[], Any]) -> Any:
        """`make()`, or the answer kept under `name` when it was made from equal `inputs` (and
        this same game). Nothing is invalidated by guesswork: the caller passes every input the
        answer depends on, so a changed input can only miss. Answers must be immutable (a
        clone takes a shallow copy of what is kept)."""
        kept = self._keep.get(name)
        if kept is not None and kept[0] is self.game and kept[1] == inputs:
            return kept[2]
        answer = make()
        self._keep[name] = (self.game, inputs, answer)
        return answer

    def is_over(self) -> bool:
        return self.stage == "over"

    def result(self) -> dict[str, Any] | None:
        """None while the game runs; then {"winner": 1 | 2 | None, "reason": str, "score": [a, b]}."""
        return None if self.outcome is None else dict(self.outcome)

    # --- engine helpers used by rule modules ------------------------------------------------

    def emit(self, event: Event) -> None:
        if self._events is not None:
            self._events.append(event)

    def roll(self, count: int, sides: int, purpose: str, rule: str, player: int | None = None) -> tuple[int, ...]:
        """Roll through the injected dice and record the roll as an event."""
        dice = self.dice.roll(count, sides, purpose)
        self.emit(DiceRolled(purpose=purpose, dice=dice, rule=rule, player=player))
        return dice

    def opponent(self, player: int) -> int:
        return 3 - player

    def fresh_id(self, prefix: str) -> str:
        """A new id for a manifestation: `prefix` and the next count, never one in use (a state
        built by hand or read from a file may hold "m3" with a lower counter)."""
        self.counter += 1
        while f"{prefix}{self.counter}" in self.manifestations or f"{prefix}{self.counter}" in self.units:
            self.counter += 1
        return f"{prefix}{self.counter}"

    # --- copying and serialisation --------------------------------------------------------

    def clone(self) -> "State":
        """An independent copy: changing one never changes the other.

        The same as `State.from_dict(self.to_dict(), self.game)`, without the round trip. Derived
        geometry that is still valid is handed on, since the copy stands where this state does."""
        s = State(self.game, self.dice.clone())
        valid = self._cache_fp is not None and self._cache_fp == self._cache_key()
        s._fill(lambda key: getattr(self, key))
        s.decisions = [f.copy() for f in self.decisions]
        s.phase_uses = {k: u.copy() for k, u in self.phase_uses.items()}
        s.turn_uses = {k: t.copy() for k, t in self.turn_uses.items()}
        s.units = {k: u.copy(s._moves) for k, u in self.units.items()}
        s.manifestations = {k: m.copy(s._moves) for k, m in self.manifestations.items()}
        s._keep = dict(self._keep)
        if valid:
            s._cache = {k: (v.twin() if hasattr(v, "twin") else v) for k, v in self._cache.items()}
            s._cache_fp = s._cache_key()
        return s

    def to_dict(self) -> dict[str, Any]:
        return {
            "format": STATE_FORMAT,
            "game": self.game.header(),
            "dice": self.dice.to_dict(),
            "round": self.round,
            "turn": self.turn,
            "first_player": self.first_player,
            "active": self.active,
            "stage": self.stage,
            "phase": self.phase,
            "priority_winner": self.priority_winner,
            "units": {k: u.to_dict() for k, u in self.units.items()},
            "manifestations": {k: m.to_dict() for k, m in self.manifestations.items()},
            "decisions": [f.to_dict() for f in self.decisions],
            "steps": list(self.steps),
            "phase_uses": {k: u.to_dict() for k, u in self.phase_uses.items()},
            "turn_uses": {k: t.to_dict() for k, t in self.turn_uses.items()},
            "score": list(self.score),
            "objectives": list(self.objectives),
            "flags": copy.deepcopy(self.flags),
            "outcome": copy.deepcopy(self.outcome),
            "counter": self.counter,
        }

    @classmethod
    def from_dict(cls, d: dict[str, Any], game: Game) -> "State":
        """Rebuild a state saved by `to_dict()`.

        The whole of `d` is checked against `game` first (`state_check.state_problems`: types,
        ids, counters, stage and phase, decisions, dice, and every base on the battlefield clear
        of the others); a state with problems raises ValueError listing the first few, with
        their field paths. Nothing of `d` is shared with the new state."""
        if not isinstance(d, dict):
            raise ValueError(f"a state must be an object, got {type(d).__name__}")
        if d.get("format") != STATE_FORMAT:
            raise ValueError(f"format: state format {d.get('format')!r} is not {STATE_FORMAT}")
        if d.get("game") != game.header():
            raise ValueError(
                "game: the state was saved for a different game configuration (content, map, armies or profile)"
            )
        problems = state_problems(d, game)
        if problems:
            shown = "; ".join(problems[:SHOWN_PROBLEMS])
            more = len(problems) - SHOWN_PROBLEMS
            raise ValueError(shown + (f"; and {more} more" if more > 0 else ""))
        s = cls(game, dice_from_dict(d["dice"]))
        s._fill(d.__getitem__)
        s.decisions = [frame_from_checked(f) for f in d["decisions"]]
        s.phase_uses = phase_uses_from_checked(d["phase_uses"])
        s.turn_uses = {k: ArmyUses.from_checked(t) for k, t in d["turn_uses"].items()}
        s.units = {k: UnitState.from_checked(u) for k, u in d["units"].items()}
        s.manifestations = {k: ManifestationState.from_checked(m) for k, m in d["manifestations"].items()}
        return s

    def _fill(self, source: Callable[[str], Any]) -> None:
        """Copy every plain field (all but units, manifestations, dice and the typed records)
        from `source(name)`."""
        for key in _SCALAR_FIELDS:
            setattr(self, key, source(key))
        for key in _LIST_FIELDS:
            setattr(self, key, list(source(key)))
        for key in _NESTED_FIELDS:
            setattr(self, key, copy.deepcopy(source(key)))

    def checksum(self) -> str:
        """A short hash of `to_dict()`, for replays."""
        blob = json.dumps(self.to_dict(), sort_keys=True, separators=(",", ":"))
        return hashlib.sha256(blob.encode()).hexdigest()[:16]


def default_deployment(game: Game) -> tuple[tuple[tuple[tuple[float, float], ...], ...], ...]:
    """Each player's units' model centres at their default deployment (G4, `deploy_army`):
    player 1 first, then player 2 clear of player 1's bases. It depends on the game alone."""
    placed: list = []
    bf = game.battlefield
    out = []
    for player in (1, 2):
        army = game.army(player)
        zone = next((z for z in bf.map.deployment if z.player == player), None)
        anchors = list(zone.anchors) if zone else []
        sizes = []
        for au in army.units:
            ws = game.warscroll(au.warscroll)
            sizes.append((ws.models, ws.base.radius_in or 0.5))
        spots = deploy_army(bf, bf.zones.get(player), player, anchors, sizes, placed)
        out.append(tuple(tuple(where) for where in spots))
    return tuple(out)
