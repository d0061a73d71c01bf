"""Mutable per-unit and per-manifestation state, stored inside `State` and serialised with it."""

from __future__ import annotations

import copy
from dataclasses import asdict, dataclass, field
from typing import Any, ClassVar

from game.rules.state_schema import ManifestationDoc, UnitDoc, shape_problems

_EPOCH = [0]


def geometry_epoch() -> int:
    """A counter that moves whenever any model or manifestation moves, is slain or is replaced;
    `State` keeps derived geometry (sight, distances) while it stands still."""
    return _EPOCH[0]


class _Tracked:
    """Bumps a movement counter when one of `_TRACKED` is assigned.

    The counter is the global epoch, except for the copies a cloned state owns (`_twin`), which
    count in their state's own cell: a search moving things on clones leaves the geometry cached
    on the real state valid."""

    _TRACKED: ClassVar[frozenset[str]] = frozenset()
    _cell: ClassVar[list[int]] = _EPOCH

    def __setattr__(self, name: str, value: Any) -> None:
        if name in self._TRACKED:
            self._cell[0] += 1
        object.__setattr__(self, name, value)

    def _twin(self, cell: list[int], **changes: Any) -> Any:
        """A copy at the same place, counting its moves in `cell`; nothing moved, so no counter moves."""
        twin = object.__new__(type(self))
        twin.__dict__.update(self.__dict__)
        twin.__dict__.update(changes)
        twin.__dict__["_cell"] = cell
        return twin


@dataclass
class ModelState(_Tracked):
    """One model: the centre of its base in inches, and the damage points it has taken (R3)."""

    _TRACKED: ClassVar[frozenset[str]] = frozenset({"x", "y", "slain"})
    x: float
    y: float
    damage: int = 0
    slain: bool = False


@dataclass
class Buff:
    """A timed modifier from a spell or prayer, e.g. +1 save until the caster's next hero phase."""

    kind: str  # effect handler name: save_buff, ward_buff, hit_debuff, move_debuff
    value: int
    source: str  # ability id
    until_hero_of: int  # expires at the start of this player's next hero phase
    set_turn: int  # the global turn number it was set in


@dataclass
class UnitState(_Tracked):
    _TRACKED: ClassVar[frozenset[str]] = frozenset({"models"})
    id: str
    player: int
    warscroll: str
    name: str
    models: list[ModelState]
    ritual_points: int = 0  # M5: persists across turns
    buffs: list[Buff] = field(default_factory=list)
    flags: dict[str, Any] = field(default_factory=dict)

    @property
    def alive(self) -> bool:
        # a plain loop, not any(genexpr): option lists ask this millions of times a game
        for m in self.models:
            if not m.slain:
                return True
        return False

    def live_models(self) -> list[tuple[int, ModelState]]:
        return [(i, m) for i, m in enumerate(self.models) if not m.slain]

    def to_dict(self) -> dict[str, Any]:
        """The same as `dataclasses.asdict(self)`, written out: saves and replay checksums call it
        for every unit after every action."""
        return {
            "id": self.id,
            "player": self.player,
            "warscroll": self.warscroll,
            "name": self.name,
            "models": [{"x": m.x, "y": m.y, "damage": m.damage, "slain": m.slain} for m in self.models],
            "ritual_points": self.ritual_points,
            "buffs": [
                {
                    "kind": b.kind,
                    "value": b.value,
                    "source": b.source,
                    "until_hero_of": b.until_hero_of,
                    "set_turn": b.set_turn,
                }
                for b in self.buffs
            ],
            "flags": _copy_flags(self.flags),
        }

    def copy(self, cell: list[int]) -> "UnitState":
        """The same as `from_dict(to_dict())`, without the round trip (for `State.clone`)."""
        return self._twin(
            cell,
            models=[m._twin(cell) for m in self.models],
            buffs=[Buff(b.kind, b.value, b.source, b.until_hero_of, b.set_turn) for b in self.buffs],
            flags=_copy_flags(self.flags),
        )

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> "UnitState":
        """Rebuild a unit from `to_dict()` output. Raises ValueError naming the field if it is not
        shaped like one (the checks against the game are `State.from_dict`'s)."""
        _check(UnitDoc, d, "unit")
        return cls.from_checked(d)

    @classmethod
    def from_checked(cls, d: dict[str, Any]) -> "UnitState":
        """`from_dict` for a dict already checked (by `state_check.state_problems`)."""
        return cls(
            id=d["id"],
            player=d["player"],
            warscroll=d["warscroll"],
            name=d["name"],
            models=[ModelState(**m) for m in d["models"]],
            ritual_points=d["ritual_points"],
            buffs=[Buff(**b) for b in d["buffs"]],
            flags=_copy_flags(d["flags"]),
        )


@dataclass
class ManifestationState(_Tracked):
    """A manifestation on the battlefield (M9-M11, E4-E10).

    `summoner` and `summoner_model` name the unit and the model picked when it was summoned
    (E5): control (E7) is measured from that model. `commander` is who makes its choices (E8).
    """

    _TRACKED: ClassVar[frozenset[str]] = frozenset({"x", "y"})
    id: str
    scroll: str
    player: int  # the army it belongs to (its summoner's)
    summoner: str
    summoner_model: int
    x: float
    y: float
    damage: int = 0
    commander: int = 0
    moves_made: int = 0
    flags: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    def copy(self, cell: list[int]) -> "ManifestationState":
        """The same as `from_dict(to_dict())`, without the round trip (for `State.clone`)."""
        return self._twin(cell, flags=_copy_flags(self.flags))

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> "ManifestationState":
        """Rebuild a manifestation from `to_dict()` output. Raises ValueError naming the field if it
        is not shaped like one (the checks against the game are `State.from_dict`'s)."""
        _check(ManifestationDoc, d, "manifestation")
        return cls.from_checked(d)

    @classmethod
    def from_checked(cls, d: dict[str, Any]) -> "ManifestationState":
        """`from_dict` for a dict already checked (by `state_check.state_problems`)."""
        return cls(**{**d, "flags": _copy_flags(d["flags"])})


def _check(model: Any, d: Any, label: str) -> None:
    problems = shape_problems(model, d, label)
    if problems:
        raise ValueError("; ".join(problems[:3]) + (f"; and {len(problems) - 3} more" if len(problems) > 3 else ""))


_SCALARS = (int, float, str, bool, type(None))


def _copy_flags(flags: dict[str, Any]) -> dict[str, Any]:
    """A deep copy of a flags dict; most hold scalars only, which need no deep copy."""
    if all(isinstance(v, _SCALARS) for v in flags.values()):
        return dict(flags)
    return copy.deepcopy(flags)
