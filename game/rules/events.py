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


# --- magic (M1-M12, E1-E5) -------------------------------------------------------------------


@dataclass(frozen=True)
class CastAttempted(Event):
    """A casting roll against a casting value (M3). outcome: succeeded | failed | miscast."""

    unit: str
    model: int
    spell: str
    roll: int
    value: int
    outcome: str
    target: str | None = None
    rule: str = "M3"


@dataclass(frozen=True)
class Miscast(Event):
    """Two or more unmodified 1s: the caster suffers D3 mortal damage and casts no more (M3)."""

    unit: str
    spell: str
    damage: int
    rule: str = "M3"


@dataclass(frozen=True)
class UnbindAttempted(Event):
    """An unbinding roll; it must be higher than the casting roll (M6)."""

    unit: str
    model: int
    caster: str
    spell: str
    roll: int
    casting_roll: int
    unbound: bool
    distance: float
    rule: str = "M6"


@dataclass(frozen=True)
class UnbindDeclined(Event):
    player: int
    spell: str
    rule: str = "M6"


@dataclass(frozen=True)
class SpellCast(Event):
    """A spell was cast and not unbound: its effect resolves (M3)."""

    unit: str
    spell: str
    roll: int
    target: str | None = None
    rule: str = "M3"


@dataclass(frozen=True)
class PrayerChanted(Event):
    """A chanting roll (M5)."""

    unit: str
    model: int
    prayer: str
    roll: int
    target: str | None = None
    rule: str = "M5"


@dataclass(frozen=True)
class RitualPoints(Event):
    """A priest's ritual points changed (M5). how: lost | banked | spent."""

    unit: str
    how: str
    change: int
    points: int
    rule: str = "M5"


@dataclass(frozen=True)
class PrayerResolved(Event):
    """A spent chanting roll: answered when roll + ritual points >= chanting value (M5)."""

    unit: str
    prayer: str
    roll: int
    ritual_points: int
    value: int
    answered: bool
    rule: str = "M5"


@dataclass(frozen=True)
class EffectApplied(Event):
    """An effect handler resolved on a target (M3, M5)."""

    effect: str
    target: str
    value: int
    source: str
    rule: str


@dataclass(frozen=True)
class BuffExpired(Event):
    unit: str
    kind: str
    source: str
    rule: str = "M3"


@dataclass(frozen=True)
class ManifestationSummoned(Event):
    """A manifestation was set up (M9)."""

    manifestation: str
    scroll: str
    player: int
    summoner: str
    model: int
    x: float
    y: float
    rule: str = "M9"


@dataclass(frozen=True)
class SummonFailed(Event):
    """A summoning could not be set up legally, so the attempt failed (M9, E2)."""

    scroll: str
    unit: str
    reason: str
    rule: str = "E2"


@dataclass(frozen=True)
class BanishAttempted(Event):
    """2D6 + 1 per enemy manifestation other than the target, against the banishment value (M12)."""

    unit: str
    model: int
    manifestation: str
    dice_total: int
    bonus: int
    value: int
    banished: bool
    distance: float
    rule: str = "M12"
    scroll: str = ""  # what the manifestation was, for logs read after it is gone


@dataclass(frozen=True)
class DispelAttempted(Event):
    """2D6 must be higher than the endless spell's casting value (E3)."""

    unit: str
    model: int
    manifestation: str
    roll: int
    value: int
    dispelled: bool
    distance: float
    rule: str = "E3"
    scroll: str = ""  # what the manifestation was, for logs read after it is gone


@dataclass(frozen=True)
class DispelPassed(Event):
    player: int
    rule: str = "E3"


@dataclass(frozen=True)
class ManifestationDamaged(Event):
    manifestation: str
    amount: int
    source: str
    rule: str = "M10"


@dataclass(frozen=True)
class ManifestationRemoved(Event):
    """A manifestation left the battlefield. reason: banished | dispelled | destroyed |
    severed | edge | warscroll (E4, M10-M12)."""

    manifestation: str
    scroll: str
    reason: str
    rule: str


# --- the battle (R1-R4, G4) ----------------------------------------------------------------


@dataclass(frozen=True)
class UnitDeployed(Event):
    unit: str
    to: tuple[tuple[float, float], ...]
    rule: str = "G4"


@dataclass(frozen=True)
class UnitMoved(Event):
    """A unit moved. kind: normal | run | retreat | charge | pile_in."""

    unit: str
    kind: str
    to: tuple[tuple[float, float], ...]
    distance: float
    rule: str = "G4"


@dataclass(frozen=True)
class RunDeclared(Event):
    unit: str
    extra: int
    rule: str = "G4"


@dataclass(frozen=True)
class RetreatDeclared(Event):
    unit: str
    damage: int
    rule: str = "R4"


@dataclass(frozen=True)
class ChargeRolled(Event):
    unit: str
    roll: int
    rule: str = "R4"


@dataclass(frozen=True)
class ChargeFailed(Event):
    unit: str
    reason: str
    rule: str = "R4"


@dataclass(frozen=True)
class AttacksResolved(Event):
    """An attack sequence: attacks, hits, wounds, saves failed and damage (R3)."""

    unit: str
    target: str
    kind: str  # shooting | combat
    attacks: int
    hits: int
    wounds: int
    unsaved: int
    damage: int
    mortal: int
    rule: str = "R3"


@dataclass(frozen=True)
class SavesNotRolled(Event):
    """R3: `wounds` wounds on `target` with no save roll: it has no Save (`save` 7), or no die can
    pass `need`+ (its Save plus Rend, less save buffs, is 7 or more), so none is rolled."""

    target: str
    wounds: int
    save: int
    rend: int
    need: int
    rule: str = "R3"


@dataclass(frozen=True)
class FightPassed(Event):
    player: int
    rule: str = "R4"


@dataclass(frozen=True)
class ObjectiveControlled(Event):
    """End of turn: who controls an objective, with each side's control score."""

    objective: int
    player: int | None
    scores: tuple[int, int]
    rule: str = "R2"


@dataclass(frozen=True)
class VictoryPoints(Event):
    player: int
    points: int
    reason: str
    score: tuple[int, int]
    rule: str = "R2"
