"""Events: what happened, as typed records that cite a rule ID.

The UI log, the demos, the AI's explanations and the tests read events; nothing scrapes strings.
Every event has a `rule` naming its rule ID from RULES.md.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from game.rules.records import Record


@dataclass(frozen=True)
class Event(Record):
    registry: ClassVar[dict[str, type[Record]]] = {}


# --- dice and flow (R2) ------------------------------------------------------------------------


@dataclass(frozen=True)
class DiceRolled(Event):
    """A roll: its purpose and the unmodified dice."""

    purpose: str
    dice: tuple[int, ...]
    rule: str
    player: int | None = None


@dataclass(frozen=True)
class RoundStarted(Event):
    round: int
    rule: str = "R2"


@dataclass(frozen=True)
class PriorityWon(Event):
    """The priority roll-off's winner, who chooses who takes the first turn (R2)."""

    round: int
    winner: int
    rolls: tuple[int, int]
    rule: str = "R2"


@dataclass(frozen=True)
class TurnOrderChosen(Event):
    round: int
    chooser: int
    first: int
    rule: str = "R2"


@dataclass(frozen=True)
class TurnStarted(Event):
    round: int
    player: int
    rule: str = "R2"


@dataclass(frozen=True)
class PhaseStarted(Event):
    phase: str
    player: int
    rule: str = "R2"


@dataclass(frozen=True)
class PhaseEnded(Event):
    phase: str
    player: int
    rule: str = "R2"


@dataclass(frozen=True)
class GameEnded(Event):
    winner: int | None
    reason: str
    score: tuple[int, int]
    rule: str = "R2"


# --- damage (R3) ---------------------------------------------------------------------------


@dataclass(frozen=True)
class DamageDealt(Event):
    """Damage points allocated to a unit (after ward rolls)."""

    unit: str
    amount: int
    mortal: bool
    source: str
    rule: str = "R3"


@dataclass(frozen=True)
class ModelSlain(Event):
    unit: str
    model: int
    rule: str = "R3"


@dataclass(frozen=True)
class UnitDestroyed(Event):
    unit: str
    rule: str = "R3"
