"""Pydantic models for Spellfield's data files: the schema every TOML file is checked against.

These models are the contract between the data files and the engine. The engine reads only
validated models; it never reads raw TOML. Lengths are inches unless a field says `_mm`.

Effects are data that name a registered handler (see `EFFECT_PARAMS`): no expressions, no eval.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import cached_property
from typing import Annotated, Literal

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, field_validator, model_validator

MM_PER_INCH = 25.4

# --- limits: every count a player's file can set is capped, with the field named -------------
# Work done on a file (the checks, the engine's indexes) grows with these counts; the caps keep
# a 1 MiB file from asking for minutes of work. Each sits well above what real data needs.

#: Terrain pieces on a battlefield (shipped maps: 10).
MAX_TERRAIN = 200
#: Points of one polygon: terrain, deployment zone (shipped: at most 8).
MAX_POLYGON_POINTS = 1000
#: Objectives on a battlefield (shipped: 5; 4-6 are recommended).
MAX_OBJECTIVES = 20
#: Deployment zones (one per player; a second one for a player is reported by the map checks).
MAX_ZONES = 8
#: Default anchors per zone: one per army unit (an army has at most 40 units; shipped: 12).
MAX_ANCHORS = 100
#: Units in an army; models in a unit.
MAX_UNITS, MAX_MODELS = 40, 40
#: Definitions of each kind in one content file (shipped: at most 16).
MAX_DEFINITIONS = 500
#: Short lists: keywords, spells, prayers, weapons, effects, removal conditions ...
MAX_LIST = 20
#: Abilities in one lore.
MAX_LORE_ABILITIES = 50
#: Longest free text (rules text, captions); names are at most 60 characters.
MAX_TEXT = 5000
#: Most points one warscroll may cost; an army list's points limit when it names none.
MAX_POINTS, DEFAULT_POINTS_LIMIT = 10000, 1000
#: Longest id.
MAX_ID = 60
#: A manifestation footprint polygon: at most this many points, each within this many inches of
#: its centre (shipped: 3"; the largest round footprint is 300mm, 5.9" of radius).
MAX_FOOTPRINT_POINTS, MAX_FOOTPRINT_IN = 64, 12.0
#: Dice expressions: a whole number up to MAX_DICE_VALUE, at most MAX_DICE_COUNT dice, +k up to
#: MAX_DICE_VALUE (an expression such as 999999999D6 would roll a billion dice).
MAX_DICE_VALUE, MAX_DICE_COUNT = 100, 20


def _not_bool(v: object) -> object:
    """TOML's true/false are not 1/2: Literal[1, 2] would take True for 1 (True == 1)."""
    if isinstance(v, bool):
        raise ValueError(f"should be a number, not {'true' if v else 'false'}")
    return v


#: A player number, 1 or 2 (never a boolean).
PlayerNo = Annotated[Literal[1, 2], BeforeValidator(_not_bool)]

# A dice expression in data: a whole number, or "D3", "D6", "2D6", "D3+1".
DICE_EXPR = re.compile(r"^(?:(\d+)|(\d*)D(3|6)(?:\+(\d+))?)$")


def check_dice_expr(value: int | str) -> int | str:
    """Accept an int 0-MAX_DICE_VALUE or a dice expression such as "D3", "2D6" or "D6+1"
    (at most MAX_DICE_COUNT dice, +k at most MAX_DICE_VALUE)."""
    if isinstance(value, int):
        if not 0 <= value <= MAX_DICE_VALUE:
            raise ValueError(f"must be 0 to {MAX_DICE_VALUE}, got {value}")
        return value
    m = DICE_EXPR.match(value) if len(value) <= 12 else None
    if not m:
        raise ValueError(f"not a dice expression like 3, D3, 2D6 or D6+1: {value[:20]!r}")
    if m.group(1) is not None and int(m.group(1)) > MAX_DICE_VALUE:
        raise ValueError(f"must be 0 to {MAX_DICE_VALUE}, got {value!r}")
    if m.group(2) and int(m.group(2)) > MAX_DICE_COUNT:
        raise ValueError(f"at most {MAX_DICE_COUNT} dice, got {value!r}")
    if m.group(4) and int(m.group(4)) > MAX_DICE_VALUE:
        raise ValueError(f"the bonus must be at most {MAX_DICE_VALUE}, got {value!r}")
    return value


DiceExpr = Annotated[int | str, Field(description="3, D3, D6, 2D6 or D3+1")]

Id = Annotated[str, Field(pattern=r"^[a-z][a-z0-9_]*$", max_length=MAX_ID)]
Text = Annotated[str, Field(max_length=MAX_TEXT)]


class Strict(BaseModel):
    """Base for every data model: unknown keys are errors, values are immutable, and values
    are not converted: a string is not a number (`x = "1"`), a boolean is not a number
    (`value = true`) and a number is not a string. Whole numbers are accepted where a float is
    wanted. NaN and infinities are refused everywhere (`allow_inf_nan=False`). Pairs such as
    points are TOML arrays, so tuple fields take lists (`Pair`), with their items still strict.
    """

    model_config = ConfigDict(extra="forbid", frozen=True, strict=True, allow_inf_nan=False)


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

    handler: str = Field(max_length=MAX_ID)
    amount: DiceExpr | None = None
    value: int | None = Field(default=None, ge=0, le=MAX_DICE_VALUE)
    on: int | None = Field(default=None, ge=2, le=6)
    manifestation: str | None = Field(default=None, max_length=MAX_ID)

    @field_validator("amount")
    @classmethod
    def _amount(cls, v: int | str | None) -> int | str | None:
        return None if v is None else check_dice_expr(v)

    @model_validator(mode="after")
    def _params_fit_handler(self) -> "EffectSpec":
        allowed = EFFECT_PARAMS.get(self.handler)
        if allowed is None:
            raise ValueError(f"unknown effect handler {self.handler!r}; known: {', '.join(sorted(EFFECT_PARAMS))}")
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

    round_mm: float | None = Field(default=None, ge=1, le=300)
    polygon: list[Annotated[tuple[float, float], Field(strict=False)]] | None = Field(
        default=None, max_length=MAX_FOOTPRINT_POINTS
    )

    @field_validator("polygon")
    @classmethod
    def _polygon(cls, v: list[tuple[float, float]] | None) -> list[tuple[float, float]] | None:
        if v is None:
            return v
        if len(v) < 3:
            raise ValueError(f"polygon needs at least 3 points, got {len(v)}")
        for j, (x, y) in enumerate(v):
            if abs(x) > MAX_FOOTPRINT_IN or abs(y) > MAX_FOOTPRINT_IN:
                raise ValueError(
                    f"point [{j}] ({x:g}, {y:g}) is more than {MAX_FOOTPRINT_IN:g}\" from the centre (0, 0)"
                )
        return v

    @model_validator(mode="after")
    def _one_kind(self) -> "Footprint":
        if (self.round_mm is None) == (self.polygon is None):
            raise ValueError("give exactly one of round_mm or polygon")
        return self

    @property
    def radius_in(self) -> float | None:
        """Radius in inches of a round footprint, else None."""
        return None if self.round_mm is None else self.round_mm / MM_PER_INCH / 2


# --- weapons and warscrolls -----------------------------------------------------------------


class WeaponAbility(Strict):
    """A data-driven weapon ability, e.g. crit (2 hits), crit (mortal), charge bonus."""

    kind: Literal["crit_two_hits", "crit_auto_wound", "crit_mortal", "charge_damage_bonus", "anti_hero"]
    value: int = Field(default=1, ge=0, le=MAX_DICE_VALUE)


class Weapon(Strict):
    name: str = Field(min_length=1, max_length=60)
    range: float = Field(ge=0, le=48, description="0 for a melee weapon")
    attacks: DiceExpr
    hit: int = Field(ge=2, le=6)
    wound: int = Field(ge=2, le=6)
    rend: int = Field(default=0, ge=0, le=4)
    damage: DiceExpr
    abilities: list[WeaponAbility] = Field(default=[], max_length=MAX_LIST)

    @field_validator("attacks", "damage")
    @classmethod
    def _dice(cls, v: int | str) -> int | str:
        return check_dice_expr(v)


POWER_KEYWORD = re.compile(r"^(WIZARD|PRIEST) \(([1-9])\)$")
KEYWORD = re.compile(r"^[A-Z][A-Z0-9 ]*(?: \([1-9]\))?$")


class Warscroll(Strict):
    """A unit warscroll. Keywords include "WIZARD (n)" or "PRIEST (n)" for casters (M1)."""

    id: Id
    name: str = Field(min_length=1, max_length=60)
    models: int = Field(ge=1, le=MAX_MODELS)
    base: Footprint
    move: float = Field(ge=0, le=20)
    health: int = Field(ge=1, le=30)
    save: int = Field(ge=2, le=7, description="7 means no save")
    ward: int = Field(default=0, description="0 for none, else 2-6")
    control: int = Field(default=1, ge=0, le=10)
    keywords: list[Annotated[str, Field(max_length=MAX_ID)]] = Field(default=[], max_length=MAX_LIST)
    spells: list[Annotated[str, Field(max_length=MAX_ID)]] = Field(default=[], max_length=MAX_LIST)
    prayers: list[Annotated[str, Field(max_length=MAX_ID)]] = Field(default=[], max_length=MAX_LIST)
    weapons: list[Weapon] = Field(default=[], max_length=MAX_LIST)
    # What the unit costs in an army list (issue 23; our own costs, by its profile). Not part of
    # the rules: left out of model_dump, so the content hash and every save and replay stay the same.
    points: int = Field(default=0, ge=0, le=MAX_POINTS, exclude=True)

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

    id: Id
    name: str = Field(min_length=1, max_length=60)
    kind: Literal["spell", "prayer"]
    value: int = Field(ge=2, le=12, description="casting or chanting value")
    range: float = Field(default=0, ge=0, le=48)
    target: TargetKind = "enemy"
    visible: bool = True
    keywords: list[Annotated[str, Field(max_length=MAX_ID)]] = Field(default=[], max_length=MAX_LIST)
    effects: list[EffectSpec] = Field(min_length=1, max_length=MAX_LIST)
    text: Text = ""

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
    id: Id
    name: str = Field(min_length=1, max_length=60)
    kind: Literal["spell", "prayer", "manifestation"]
    abilities: list[Annotated[str, Field(max_length=MAX_ID)]] = Field(min_length=1, max_length=MAX_LORE_ABILITIES)


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

    id: Id
    name: str = Field(min_length=1, max_length=60)
    kind: Literal["endless_spell", "invocation"]
    move: float = Field(ge=0, le=20, description="0 means it cannot move")
    health: int = Field(ge=1, le=30)
    save: int = Field(ge=2, le=7)
    banishment: int = Field(ge=2, le=12)
    footprint: Footprint
    predatory: bool = False
    keywords: list[Annotated[str, Field(max_length=MAX_ID)]] = Field(
        default=[], max_length=MAX_LIST, description="e.g. FLY (M10: it moves like a unit)"
    )
    setup: SetupRule = SetupRule()
    pass_across: list[EffectSpec] = Field(default=[], max_length=MAX_LIST)
    removal: list[RemovalRule] = Field(default=[], max_length=MAX_LIST)
    weapons: list[Weapon] = Field(default=[], max_length=MAX_LIST)
    text: Text = ""


# --- armies and maps -------------------------------------------------------------------------


class ArmyUnit(Strict):
    warscroll: str = Field(max_length=MAX_ID)
    name: str | None = Field(default=None, max_length=60)


class Army(Strict):
    id: Id
    name: str = Field(min_length=1, max_length=60)
    # One line for the set-up screens, in the game's own words. Not part of the rules: left out
    # of model_dump, so the content hash and a replay's bytes stay the same whatever it says.
    description: str = Field(default="", max_length=120, exclude=True)
    colour: Annotated[tuple[int, int, int], Field(strict=False)]
    general: int = Field(default=0, ge=0, description="index into units")
    spell_lore: str | None = Field(default=None, max_length=MAX_ID)
    prayer_lore: str | None = Field(default=None, max_length=MAX_ID)
    manifestation_lore: str | None = Field(default=None, max_length=MAX_ID)
    units: list[ArmyUnit] = Field(min_length=1, max_length=MAX_UNITS)
    # The most points the list may cost (game.data.army_lists). Not part of the rules: left out
    # of model_dump like `description`.
    points_limit: int = Field(default=DEFAULT_POINTS_LIMIT, ge=1, le=MAX_POINTS * MAX_UNITS, exclude=True)

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


#: A point in inches: a TOML array of two numbers (strict numbers; the pair may be a list).
Point = Annotated[tuple[float, float], Field(strict=False)]


def _polygon_points(v: list[Point]) -> list[Point]:
    if len(v) < 3:
        raise ValueError(f"needs at least 3 points, got {len(v)}")
    return v


class Terrain(Strict):
    name: str = Field(min_length=1, max_length=60)
    traits: list[Literal["obscuring", "impassable", "cover"]] = Field(default=[], max_length=3)
    points: list[Point] = Field(max_length=MAX_POLYGON_POINTS)

    _points = field_validator("points")(classmethod(lambda cls, v: _polygon_points(v)))


class Objective(Strict):
    name: str = Field(default="", max_length=60)
    x: float
    y: float


class DeploymentZone(Strict):
    player: PlayerNo
    points: list[Point] = Field(max_length=MAX_POLYGON_POINTS)
    # Default anchor for each army unit in order: the unit's models are set up around it.
    anchors: list[Point] = Field(default=[], max_length=MAX_ANCHORS)

    _points = field_validator("points")(classmethod(lambda cls, v: _polygon_points(v)))


class BattleMap(Strict):
    id: Id
    name: str = Field(min_length=1, max_length=60)
    # One line for the set-up screens, in the game's own words. Not part of the rules: left out
    # of model_dump, so the content hash and a replay's bytes stay the same whatever it says.
    description: str = Field(default="", max_length=120, exclude=True)
    width: float = Field(default=60, gt=0, le=120)
    height: float = Field(default=44, gt=0, le=120)
    terrain: list[Terrain] = Field(default=[], max_length=MAX_TERRAIN)
    objectives: list[Objective] = Field(default=[], max_length=MAX_OBJECTIVES)
    deployment: list[DeploymentZone] = Field(default=[], max_length=MAX_ZONES)

    @model_validator(mode="after")
    def _inside(self) -> "BattleMap":
        size = f"{self.width:g}x{self.height:g}"
        off: list[str] = []
        groups: tuple[tuple[str, Sequence[Terrain | DeploymentZone]], ...] = (
            ("terrain", self.terrain),
            ("deployment", self.deployment),
        )
        for kind, items in groups:
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

    warscroll: list[Warscroll] = Field(default=[], max_length=MAX_DEFINITIONS)
    ability: list[Ability] = Field(default=[], max_length=MAX_DEFINITIONS)
    lore: list[Lore] = Field(default=[], max_length=MAX_DEFINITIONS)
    manifestation: list[ManifestationScroll] = Field(default=[], max_length=MAX_DEFINITIONS)
    army: list[Army] = Field(default=[], max_length=MAX_DEFINITIONS)


class MapFile(Strict):
    """A map TOML file: one [map] table."""

    map: BattleMap
