"""Decision frames: the typed records on the decision stack (`State.decisions`, the last on top).

A rule that needs a player's answer outside the phase's own options pushes a frame; the turn
table (`game.rules.turn`) maps its `kind` to the view `pending()` shows, and `decisions.HANDLERS`
maps (action type, kind) to the handler that answers it. The frame holds what the answer needs
(who, what was cast, with which roll...) and is saved with the state: `to_dict()` is the format-1
dict, `{"kind": ..., "player": ..., <fields in order>}`, and `frame_from_dict` reads it back.
`game.rules.state_check` derives each kind's schema from these classes (`FRAME_TYPES`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Annotated, Any, ClassVar, Literal, TypeVar

from pydantic import Field

from game.rules.stored import Stored

if TYPE_CHECKING:
    from game.rules.state import State

F = TypeVar("F", bound="Frame")


@dataclass
class Frame(Stored):
    """One open decision: its kind (a class constant) and the player who must answer it."""

    kind: ClassVar[str]
    player: int

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, **super().to_dict()}


@dataclass
class UnbindFrame(Frame):
    """M4, M6: the opponent may unbind a spell cast with `roll` by `caster`'s `model`."""

    kind: ClassVar[str] = "unbind"
    caster: str
    model: int
    spell: str
    target: str | None
    roll: int


@dataclass
class RitualChoiceFrame(Frame):
    """M5: bank the chanting `roll` as ritual points, or spend them on `prayer`."""

    kind: ClassVar[str] = "ritual_choice"
    unit: str
    model: int
    prayer: str
    target: str | None
    roll: int


@dataclass
class ChargeMoveFrame(Frame):
    """R4: `unit` (a unit, or a manifestation that moves like one) rolled `roll` to charge."""

    kind: ClassVar[str] = "charge_move"
    unit: str
    roll: int


@dataclass
class FightFrame(Frame):
    """R4: `player` picks a unit to fight next; `passed` have given up their fights."""

    kind: ClassVar[str] = "fight"
    passed: list[int]


@dataclass
class DispelFrame(Frame):
    """E3: `player` tries to dispel endless spells, or passes."""

    kind: ClassVar[str] = "dispel"


@dataclass
class SummonSetupFrame(Frame):
    """M9: `player` picks where `scroll`, summoned by `unit`'s `model`, is set up."""

    kind: ClassVar[str] = "summon_setup"
    unit: str
    model: int
    scroll: str


@dataclass
class PredatoryControlFrame(Frame):
    """E7, E5: `unit` qualifies to control several `candidates`; its player picks one."""

    kind: ClassVar[str] = "predatory_control"
    unit: str
    candidates: Annotated[list[str], Field(min_length=1)]  # the schema's constraint (state_check)


@dataclass
class PredatoryMoveFrame(Frame):
    """E8: the predatory moves of one hero phase. `stage` "controlled": each player moves the ones
    its models control (the active player first); "wild": the players alternate, `next_wild`
    picking next. `moved` lists the manifestations moved this phase, in order."""

    kind: ClassVar[str] = "predatory_move"
    stage: Literal["controlled", "wild"]
    moved: list[str]
    next_wild: int


# Every decision kind, declared; the turn table gives each its view.
FRAME_TYPES: dict[str, type[Frame]] = {
    f.kind: f
    for f in (
        UnbindFrame,
        RitualChoiceFrame,
        ChargeMoveFrame,
        FightFrame,
        DispelFrame,
        SummonSetupFrame,
        PredatoryControlFrame,
        PredatoryMoveFrame,
    )
}


def frame_from_dict(d: Any) -> Frame:
    """A frame from its saved dict, checked (ValueError names the field)."""
    got = d.get("kind") if isinstance(d, dict) else d
    cls = FRAME_TYPES.get(got) if isinstance(got, str) else None
    if cls is None:
        raise ValueError(f"decision kind must be one of {', '.join(FRAME_TYPES)}, got {got!r}")
    return cls.from_dict(d)


def frame_from_checked(d: dict[str, Any]) -> Frame:
    """A frame from a saved dict that state_check has passed."""
    return FRAME_TYPES[d["kind"]].from_checked(d)


def top(state: "State", kind: type[F]) -> F:
    """The open decision, which the caller (a handler of `kind`'s decisions) knows the type of."""
    f = state.decisions[-1]
    if not isinstance(f, kind):
        raise TypeError(f"the open decision is a {f.kind!r} frame, not {kind.kind!r}")
    return f


def pop(state: "State", kind: type[F]) -> F:
    """Close the open decision (see `top`) and return it."""
    f = top(state, kind)
    state.decisions.pop()
    return f
