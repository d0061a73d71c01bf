"""Decisions: what `State.pending()` returns, and the table of action handlers.

A handler module registers, for each action type, which decision kinds it answers, a `check`
that raises `IllegalActionError` without touching the state, and a `do` that mutates it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from game.rules.actions import Action

if TYPE_CHECKING:
    from game.rules.state import State


Options = tuple[Action, ...] | Callable[[], list[Action]]


class Decision:
    """The open decision: who must choose, what kind of choice, and the options where countable.

    `options` lists concrete legal actions when they can be enumerated; for continuous
    choices (a point on the battlefield) it lists representatives and `data` describes the rest:

    - ``data["point_action"]``: the Action type that takes the picked point as ``x`` and ``y``;
    - ``data["point_fields"]``: other fields that action needs (optional);
    - ``data["centre"]`` and ``data["reach"]``: where the point is measured from and how far.

    Front ends build ``Action.from_dict({"type": point_action, "player": player, "x": x, "y": y,
    **point_fields})`` and ask `State.explain()` whether it is legal.

    `options` may be expensive (every legal move of every unit), so it is computed on first use.
    `candidates` is a cheap superset that is NOT checked: a sampling bot draws from it in a
    random order and takes the first action `State.legal` accepts, which is a uniform choice
    among the legal ones. Providers leave out what cheap checks prove illegal, never more.
    A Decision describes the state when `pending()` was called: do not keep it across `apply()`.
    """

    __slots__ = ("player", "kind", "prompt", "data", "_options", "_candidates")

    def __init__(
        self,
        player: int,
        kind: str,
        prompt: str,
        options: Options = (),
        data: dict[str, Any] | None = None,
        candidates: Options | None = None,
    ) -> None:
        self.player = player
        self.kind = kind
        self.prompt = prompt
        self.data = data or {}
        self._options = options
        self._candidates = candidates

    @property
    def options(self) -> tuple[Action, ...]:
        if callable(self._options):
            self._options = tuple(self._options())
        return self._options

    @property
    def candidates(self) -> tuple[Action, ...]:
        """Unchecked candidate actions (defaults to `options`)."""
        if self._candidates is None:
            return self.options
        if callable(self._candidates):
            self._candidates = tuple(self._candidates())
        return self._candidates

    def __repr__(self) -> str:
        return f"Decision(player={self.player}, kind={self.kind!r}, prompt={self.prompt!r})"


Check = Callable[["State", Any], None]
Do = Callable[["State", Any], None]
Refute = Callable[["State", Any], bool]


@dataclass(frozen=True)
class Handler:
    """`check` raises `IllegalActionError` with the reasons; `refute`, where given, is a cheap
    test that answers True only for an action `check` would refuse, so that `State.legal` can
    say no without building the reasons (issue 24). It never answers for a legal action."""

    check: Check
    do: Do
    refute: Refute | None = None


# action type -> decision kind -> handler. One action type may answer several kinds of
# decision with different rules (a MoveUnit is a normal move in the movement phase and a
# charge move in a charge_move decision).
HANDLERS: dict[type[Action], dict[str, Handler]] = {}


def handles(
    action_type: type[Action], kinds: tuple[str, ...], check: Check, refute: Refute | None = None
) -> Callable[[Do], Do]:
    """Register `do` (the decorated function) as the handler of `action_type` for `kinds`."""

    def register(do: Do) -> Do:
        for kind in kinds:
            HANDLERS.setdefault(action_type, {})[kind] = Handler(check, do, refute)
        return do

    return register
