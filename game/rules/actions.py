"""Actions: every choice a player makes, as frozen JSON-serialisable records.

If a thing was neither an action nor an automatic step of the engine, it did not happen.
Each action names the `player` who makes it; `State.apply` checks that it is theirs to make.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from game.rules.records import Record


@dataclass(frozen=True)
class Action(Record):
    registry: ClassVar[dict[str, type[Record]]] = {}
    player: int


@dataclass(frozen=True)
class ChooseTurnOrder(Action):
    """The priority roll-off's winner picks who takes the first turn (R2)."""

    first: int


@dataclass(frozen=True)
class EndPhase(Action):
    """The active player ends the current phase (R2)."""


def action_from_dict(d: dict) -> Action:
    return Action.from_dict(d)
