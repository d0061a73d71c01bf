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


# --- magic (M1-M12, E1-E5) ---------------------------------------------------------------


@dataclass(frozen=True)
class CastSpell(Action):
    """A WIZARD casts `spell` with the picked `model` (E5) at `target` (a unit or manifestation id,
    or None for spells without a target) (M3)."""

    unit: str
    spell: str
    model: int = 0
    target: str | None = None


@dataclass(frozen=True)
class Unbind(Action):
    """The opponent's WIZARD tries to unbind the spell just cast, from the picked model (M6, E5)."""

    unit: str
    model: int = 0


@dataclass(frozen=True)
class DeclineUnbind(Action):
    """The opponent lets the spell through (M6)."""


@dataclass(frozen=True)
class ChantPrayer(Action):
    """A PRIEST chants `prayer` with the picked `model` (E5) at `target` (M5)."""

    unit: str
    prayer: str
    model: int = 0
    target: str | None = None


@dataclass(frozen=True)
class BankRitual(Action):
    """Keep the chanting roll as ritual points; the prayer has no effect (M5)."""


@dataclass(frozen=True)
class SpendRitual(Action):
    """Add the priest's ritual points to the roll and try to answer the prayer (M5)."""


@dataclass(frozen=True)
class PlaceManifestation(Action):
    """Set up the manifestation just summoned with its centre at (x, y) (M9)."""

    x: float
    y: float


@dataclass(frozen=True)
class Banish(Action):
    """A WIZARD or PRIEST tries to banish a manifestation within 30" (M12, aos4)."""

    unit: str
    manifestation: str
    model: int = 0


@dataclass(frozen=True)
class Dispel(Action):
    """At the start of a hero phase, a WIZARD or PRIEST tries to dispel an endless spell (E3, aos3)."""

    unit: str
    manifestation: str
    model: int = 0


@dataclass(frozen=True)
class PassDispel(Action):
    """The player makes no more dispel attempts this hero phase (E3)."""


# --- the battle (R1-R4) -------------------------------------------------------------------


@dataclass(frozen=True)
class DeployUnit(Action):
    """During deployment, set a unit's models up at `to` inside the player's zone (G4)."""

    unit: str
    to: tuple[tuple[float, float], ...]


@dataclass(frozen=True)
class MoveUnit(Action):
    """Move a unit's models on the battlefield to `to` (one point per model, in order).

    In the movement phase this is the unit's normal move, run or retreat (whichever it has
    declared); in a charge it is the charge move (R4).
    """

    unit: str
    to: tuple[tuple[float, float], ...]


@dataclass(frozen=True)
class Run(Action):
    """Declare a run: roll a D6 and add it to the unit's Move; it cannot shoot or charge later."""

    unit: str


@dataclass(frozen=True)
class Retreat(Action):
    """Retreat from combat: D3 mortal damage, then move; it cannot shoot or charge later."""

    unit: str


@dataclass(frozen=True)
class Shoot(Action):
    """The unit shoots all its ranged weapons at `target` (a unit or a manifestation)."""

    unit: str
    target: str


@dataclass(frozen=True)
class Charge(Action):
    """Declare a charge: roll 2D6; then move (MoveUnit) or give up (FailCharge) (R4)."""

    unit: str


@dataclass(frozen=True)
class FailCharge(Action):
    """The charge fails: the unit does not move (R4)."""


@dataclass(frozen=True)
class Fight(Action):
    """The unit piles in up to 3" and fights `target` with its melee weapons."""

    unit: str
    target: str


@dataclass(frozen=True)
class PassFight(Action):
    """The player fights with no more units this combat phase."""


def action_from_dict(d: dict) -> Action:
    return Action.from_dict(d)
