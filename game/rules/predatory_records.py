"""Actions and events of the predatory procedure (E6-E10) and of warscroll removal (E4).

They register themselves with the Action and Event families on import (see records.py).
"""

from __future__ import annotations

from dataclasses import dataclass

from game.rules.actions import Action
from game.rules.events import Event

Point = tuple[float, float]


# --- actions ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class ChooseControlled(Action):
    """E7: a WIZARD or PRIEST unit (of one model or several, E5) qualifies to control several
    predatory manifestations; its player picks the one it controls this hero phase. The others
    are wild."""

    manifestation: str


@dataclass(frozen=True)
class MovePredatory(Action):
    """E8, E9: move a predatory manifestation with its centre to (x, y) along a straight line.

    In the controlled stages the player moves one it controls; in the wild stage it picks any wild
    one that has not moved and becomes its commanding player."""

    manifestation: str
    x: float
    y: float


# --- events -------------------------------------------------------------------------------------


@dataclass(frozen=True)
class PredatoryMovesBegan(Event):
    """E6: the end of a hero phase; the predatory procedure starts with these manifestations."""

    active: int
    manifestations: tuple[str, ...]
    rule: str = "E6"


@dataclass(frozen=True)
class ManifestationControlled(Event):
    """E7: wholly within the control range of its summoning model (E5), which controls it."""

    manifestation: str
    unit: str
    model: int
    player: int
    rule: str = "E7"


@dataclass(frozen=True)
class ManifestationWild(Event):
    """E7: no model controls it this hero phase. reason: out_of_range | chose_another |
    summoner_slain (its summoning model is slain, its unit lives: E5) | no_summoner."""

    manifestation: str
    reason: str
    rule: str = "E7"


@dataclass(frozen=True)
class CommandTaken(Event):
    """E8: the player who picked a wild manifestation commands it until the next hero phase."""

    manifestation: str
    player: int
    rule: str = "E8"


@dataclass(frozen=True)
class PredatoryPassed(Event):
    """E8: the player had no eligible wild manifestation to pick."""

    player: int
    rule: str = "E8"


@dataclass(frozen=True)
class ManifestationMoved(Event):
    """E9: a predatory move.

    `path` is the movement actually made (start, end): start == end when it did not move.
    `target` is the point picked; `measured` is how far that point was from the manifestation,
    from the closest point of its footprint (E9, G1), at most `reach` (E10). `distance` is how
    far its centre moved (0 when `reason` says why it could not be placed). `passed_across`
    lists the units whose bases the swept footprint touched, in the order it reached them.
    `player` is the commanding player (E8)."""

    manifestation: str
    scroll: str
    player: int
    path: tuple[Point, Point]
    target: Point
    distance: float
    reach: float
    passed_across: tuple[str, ...]
    controlled: bool
    measured: float = 0.0
    reason: str | None = None
    rule: str = "E9"


@dataclass(frozen=True)
class PredatoryMovesEnded(Event):
    """E6: every predatory move of this hero phase is done; end-of-hero-phase abilities follow."""

    moved: tuple[str, ...]
    rule: str = "E6"
