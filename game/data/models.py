"""Pydantic models for Spellfield's data files: the schema every TOML file is checked against.

These models are the contract between the data files and the engine. The engine reads only
validated models; it never reads raw TOML. Lengths are inches unless a field says `_mm`.

Effects are data that name a registered handler (see `EFFECT_PARAMS`): no expressions, no eval.
"""

from __future__ import annotations

import re
from functools import cached_property
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

MM_PER_INCH = 25.4

# A dice expression in data: a whole number, or "D3", "D6", "2D6", "D3+1".
DICE_EXPR = re.compile(r"^(?:(\d+)|(\d*)D(3|6)(?:\+(\d+))?)$")


def check_dice_expr(value: int | str) -> int | str:
    """Accept an int >= 0 or a dice expression such as "D3", "2D6" or "D6+1"."""
    if isinstance(value, int):
        if value < 0:
            raise ValueError(f"must be 0 or more, got {value}")
        return value
    if not DICE_EXPR.match(value):
        raise ValueError(f"not a dice expression like 3, D3, 2D6 or D6+1: {value!r}")
    return value


DiceExpr = Annotated[int | str, Field(description="3, D3, D6, 2D6 or D3+1")]


class Strict(BaseModel):
    """Base for every data model: unknown keys are errors, values are immutable."""

    model_config = ConfigDict(extra="forbid", frozen=True)


# --- effects ---------------------------------------------------------------------------------

# The effect vocabulary: handler name -> allowed parameter names and their kinds.
# game.rules.effects registers one implementation per name; a test keeps the two in step.
EFFECT_PARAMS: dict[str, dict[str, str]] = {
    # Mortal damage to the target (or each unit passed across). amount: dice expression.
    "mortal_damage": {"amount": "dice"},
    # Mortal damage to the target on a roll of `on`+ on a D6 (used for passed-across units).
    "mortal_damage_on_roll": {"on": "int", "amount": "dice"},
    # +value to the target's save rolls until the caster's next hero phase.
    "save_buff": {"value": "int"},
    # Target gets a ward of `value`+ (or keeps a better one) until the caster's next hero phase.
    "ward_buff": {"value": "int"},
    # -value to the target's hit rolls until the caster's next hero phase.
    "hit_debuff": {"value": "int"},
    # -value inches to the target's Move until the caster's next hero phase.
    "move_debuff": {"value": "int"},
    # Heal up to `amount` damage points on the target.
    "heal": {"amount": "dice"},
    # Set up the named manifestation under its warscroll's set-up constraints (M9).
    "summon": {"manifestation": "str"},
}


class EffectSpec(Strict):
    """One effect: a registered handler name plus its parameters."""

    handler: str
    amount: DiceExpr | None = None
    value: int | None = None
    on: int | None = Field(default=None, ge=2, le=6)
    manifestation: str | None = None

    @field_validator("amount")
    @classmethod
    def _amount(cls, v: int | str | None) -> int | str | None:
        return None if v is None else check_dice_expr(v)

    @model_validator(mode="after")
    def _params_fit_handler(self) -> "EffectSpec":
        allowed = EFFECT_PARAMS.get(self.handler)
        if allowed is None:
            raise ValueError(
                f"unknown effect handler {self.handler!r}; known: {', '.join(sorted(EFFECT_PARAMS))}"
            )
        given = {k for k in ("amount", "value", "on", "manifestation") if getattr(self, k) is not None}
        extra = given - set(allowed)
        missing = set(allowed) - given
        if extra:
            raise ValueError(f"handler {self.handler!r} takes no {', '.join(sorted(extra))}")
        if missing:
            raise ValueError(f"handler {self.handler!r} needs {', '.join(sorted(missing))}")
        return self


# --- bases and footprints -------------------------------------------------------------------


class Footprint(Strict):
    """A base or footprint: round (`round_mm`, diameter) or a polygon in inches around the centre."""

    round_mm: float | None = Field(default=None, gt=0, le=300)
    polygon: list[tuple[float, float]] | None = None

    @model_validator(mode="after")
    def _one_kind(self) -> "Footprint":
        if (self.round_mm is None) == (self.polygon is None):
            raise ValueError("give exactly one of round_mm or polygon")
        if self.polygon is not None and len(self.polygon) < 3:
            raise ValueError(f"polygon needs at least 3 points, got {len(self.polygon)}")
        return self

    @property
    def radius_in(self) -> float | None:
        """Radius in inches of a round footprint, else None."""
        return None if self.round_mm is None else self.round_mm / MM_PER_INCH / 2


# --- weapons and warscrolls -----------------------------------------------------------------


class WeaponAbility(Strict):
    """A data-driven weapon ability, e.g. crit (2 hits), crit (mortal), charge bonus."""

    kind: Literal["crit_two_hits", "crit_auto_wound", "crit_mortal", "charge_damage_bonus", "anti_hero"]
    value: int = 1


class Weapon(Strict):
    name: str = Field(min_length=1, max_length=60)
    range: float = Field(ge=0, le=48, description="0 for a melee weapon")
    attacks: DiceExpr
    hit: int = Field(ge=2, le=6)
    wound: int = Field(ge=2, le=6)
    rend: int = Field(default=0, ge=0, le=4)
    damage: DiceExpr
    abilities: list[WeaponAbility] = []

    @field_validator("attacks", "damage")
    @classmethod
    def _dice(cls, v: int | str) -> int | str:
        return check_dice_expr(v)


POWER_KEYWORD = re.compile(r"^(WIZARD|PRIEST) \(([1-9])\)$")
KEYWORD = re.compile(r"^[A-Z][A-Z0-9 ]*(?: \([1-9]\))?$")


class Warscroll(Strict):
    """A unit warscroll. Keywords include "WIZARD (n)" or "PRIEST (n)" for casters (M1)."""

    id: str = Field(pattern=r"^[a-z][a-z0-9_]*$")
    name: str = Field(min_length=1, max_length=60)
    models: int = Field(ge=1, le=40)
    base: Footprint
    move: float = Field(ge=0, le=20)
    health: int = Field(ge=1, le=30)
    save: int = Field(ge=2, le=7, description="7 means no save")
    ward: int = Field(default=0, description="0 for none, else 2-6")
    control: int = Field(default=1, ge=0, le=10)
    keywords: list[str] = []
    spells: list[str] = []
    prayers: list[str] = []
    weapons: list[Weapon] = []

    @field_validator("ward")
    @classmethod
    def _ward(cls, v: int) -> int:
        if v != 0 and not 2 <= v <= 6:
            raise ValueError(f"ward must be 0 (none) or 2-6, got {v}")
        return v

    @field_validator("keywords")
    @classmethod
    def _keywords(cls, v: list[str]) -> list[str]:
        for k in v:
            if not KEYWORD.match(k):
                raise ValueError(f"keyword {k!r} must be upper case, e.g. HERO or WIZARD (2)")
        return v

    @model_validator(mode="after")
    def _power_keywords(self) -> "Warscroll":
        if self.base.round_mm is None:
            raise ValueError("unit bases must be round (base.round_mm)")
        if self.spells and not self.wizard_level:
            raise ValueError("only a WIZARD (n) can have spells")
        if self.prayers and not self.priest_level:
            raise ValueError("only a PRIEST (n) can have prayers")
        return self

    def _level(self, kind: str) -> int:
        for k in self.keywords:
            m = POWER_KEYWORD.match(k)
            if m and m.group(1) == kind:
                return int(m.group(2))
        return 0

    @cached_property
    def wizard_level(self) -> int:
        """Power level from "WIZARD (n)", 0 if not a wizard (M1)."""
        return self._level("WIZARD")

    @cached_property
    def priest_level(self) -> int:
        """Power level from "PRIEST (n)", 0 if not a priest (M1)."""
        return self._level("PRIEST")

    def has(self, keyword: str) -> bool:
        return keyword in self.keywords


# --- spells, prayers and lores ---------------------------------------------------------------

TargetKind = Literal["enemy", "friendly", "self", "none"]


class Ability(Strict):
    """A spell (cast by a WIZARD, 2D6 vs `value`) or a prayer (chanted by a PRIEST, D6 vs `value`)."""

    id: str = Field(pattern=r"^[a-z][a-z0-9_]*$")
    name: str = Field(min_length=1, max_length=60)
    kind: Literal["spell", "prayer"]
    value: int = Field(ge=2, le=12, description="casting or chanting value")
    range: float = Field(default=0, ge=0, le=48)
    target: TargetKind = "enemy"
    visible: bool = True
    keywords: list[str] = []
    effects: list[EffectSpec] = Field(min_length=1)
    text: str = ""

    @property
    def unlimited(self) -> bool:
        """UNLIMITED spells and prayers are exempt from M2/M7's once per turn per army."""
        return "UNLIMITED" in self.keywords

    @property
    def summons(self) -> str | None:
        """The manifestation id this ability summons (M9), if any."""
        for e in self.effects:
            if e.handler == "summon":
                return e.manifestation
        return None


class Lore(Strict):
    id: str = Field(pattern=r"^[a-z][a-z0-9_]*$")
    name: str = Field(min_length=1, max_length=60)
    kind: Literal["spell", "prayer", "manifestation"]
    abilities: list[str] = Field(min_length=1)


class SetupRule(Strict):
    """Where a summoned manifestation may be set up (M9), relative to the summoning model."""

    wholly_within: float = Field(default=12, gt=0, le=48)
    visible: bool = True
    min_enemy_distance: float = Field(default=9, ge=0, le=24, description="more than this from enemy units")


class RemovalRule(Strict):
    """A warscroll removal condition (E4c)."""

    kind: Literal["after_moves", "end_of_round", "on_roll"]
    value: int = Field(default=1, ge=1, le=10)


class ManifestationScroll(Strict):
    """A manifestation warscroll: an endless spell (WIZARD) or an invocation (PRIEST)."""

    id: str = Field(pattern=r"^[a-z][a-z0-9_]*$")
    name: str = Field(min_length=1, max_length=60)
    kind: Literal["endless_spell", "invocation"]
    move: float = Field(ge=0, le=20, description="0 means it cannot move")
    health: int = Field(ge=1, le=30)
    save: int = Field(ge=2, le=7)
    banishment: int = Field(ge=2, le=12)
    footprint: Footprint
    predatory: bool = False
    keywords: list[str] = Field(default=[], max_length=20, description="e.g. FLY (M10: it moves like a unit)")
    setup: SetupRule = SetupRule()
    pass_across: list[EffectSpec] = []
    removal: list[RemovalRule] = []
    weapons: list[Weapon] = []
    text: str = ""


# --- armies and maps -------------------------------------------------------------------------


class ArmyUnit(Strict):
    warscroll: str
    name: str | None = Field(default=None, max_length=60)


class Army(Strict):
    id: str = Field(pattern=r"^[a-z][a-z0-9_]*$")
    name: str = Field(min_length=1, max_length=60)
    colour: tuple[int, int, int]
    general: int = Field(default=0, ge=0, description="index into units")
    spell_lore: str | None = None
    prayer_lore: str | None = None
    manifestation_lore: str | None = None
    units: list[ArmyUnit] = Field(min_length=1, max_length=40)

    @field_validator("colour")
    @classmethod
    def _colour(cls, v: tuple[int, int, int]) -> tuple[int, int, int]:
        if any(not 0 <= c <= 255 for c in v):
            raise ValueError(f"colour channels must be 0-255, got {list(v)}")
        return v

    @model_validator(mode="after")
    def _general(self) -> "Army":
        if self.general >= len(self.units):
            raise ValueError(f"general is unit index {self.general} but the army has {len(self.units)} units")
        return self


Point = tuple[float, float]


def _polygon_points(v: list[Point]) -> list[Point]:
    if len(v) < 3:
        raise ValueError(f"needs at least 3 points, got {len(v)}")
    return v


class Terrain(Strict):
    name: str = Field(min_length=1, max_length=60)
    traits: list[Literal["obscuring", "impassable", "cover"]] = []
    points: list[Point]

    _points = field_validator("points")(classmethod(lambda cls, v: _polygon_points(v)))


class Objective(Strict):
    name: str = Field(default="", max_length=60)
    x: float
    y: float


class DeploymentZone(Strict):
    player: Literal[1, 2]
    points: list[Point]
    # Default anchor for each army unit in order: the unit's models are set up around it.
    anchors: list[Point] = []

    _points = field_validator("points")(classmethod(lambda cls, v: _polygon_points(v)))


class BattleMap(Strict):
    id: str = Field(pattern=r"^[a-z][a-z0-9_]*$")
    name: str = Field(min_length=1, max_length=60)
    width: float = Field(default=60, gt=0, le=120)
    height: float = Field(default=44, gt=0, le=120)
    terrain: list[Terrain] = []
    objectives: list[Objective] = []
    deployment: list[DeploymentZone] = []

    @model_validator(mode="after")
    def _inside(self) -> "BattleMap":
        size = f"{self.width:g}x{self.height:g}"
        off: list[str] = []
        for kind, items in (("terrain", self.terrain), ("deployment", self.deployment)):
            for i, item in enumerate(items):
                for j, (x, y) in enumerate(item.points):
                    if not (0 <= x <= self.width and 0 <= y <= self.height):
                        off.append(f"{kind}[{i}].points[{j}] ({x:g}, {y:g}) lies off the {size} battlefield")
        for i, o in enumerate(self.objectives):
            if not (0 < o.x < self.width and 0 < o.y < self.height):
                off.append(f"objectives[{i}] at ({o.x:g}, {o.y:g}) lies off the {size} battlefield")
        if off:
            raise ValueError("; ".join(off))
        return self


class ContentFile(Strict):
    """A content TOML file: any mix of warscrolls, abilities, lores, manifestations and armies."""

    warscroll: list[Warscroll] = []
    ability: list[Ability] = []
    lore: list[Lore] = []
    manifestation: list[ManifestationScroll] = []
    army: list[Army] = []


class MapFile(Strict):
    """A map TOML file: one [map] table."""

    map: BattleMap
