"""The demonstration file format (pydantic v2): one TOML file per demonstration in maps/demos/.

    [demo]          id, title, rules (the rule IDs it shows), profile, summary, armies
    [battlefield]   width, height, terrain, objectives (a small inline BattleMap) or map = "id"
    [start]         round, active, phase, first_player
    [[unit]]        id, player, warscroll, models = [[x, y], ...], damage, ritual_points, name
    [[manifestation]] id, scroll, summoner, model, x, y, player, commander, damage, moves_made
    dice = [...]    scripted dice: ints, or {purpose = "...", dice = [...]} entries
    [[step]]        caption, action (an Action dict), refused, expect, show
    [expect]        state facts after the last step

Every step's `action` is an ordinary engine Action (`Action.from_dict`). A step with `refused`
is an expected refusal: the runner asks `state.explain(action)`, shows the reason and checks
that it names the rule, then goes on without applying it.
"""

from __future__ import annotations

import re
from typing import Annotated, Any, Literal

from pydantic import Field, field_validator, model_validator

from game.data.models import (
    MAX_ID,
    MAX_LIST,
    MAX_MODELS,
    MAX_OBJECTIVES,
    MAX_TERRAIN,
    MAX_TEXT,
    MAX_UNITS,
    Objective,
    PlayerNo,
    Point,
    Strict,
    Terrain,
    Text,
)

RULE_IDS = (
    [f"M{i}" for i in range(1, 13)]
    + [f"E{i}" for i in range(1, 11)]
    + [f"G{i}" for i in range(1, 5)]
    + [f"R{i}" for i in range(1, 5)]
)

Id = Annotated[str, Field(max_length=MAX_ID)]
#: Most manifestations, steps and scripted dice in one demonstration (shipped: 2, 8 and 9).
MAX_MANIFESTATIONS, MAX_STEPS, MAX_DICE = 20, 200, 1000
_ID = r"^[a-z][a-z0-9_]*$"
Colour = Literal["spell", "unbind", "control", "move", "reach", "good", "bad", "ruler"]
Phase = Literal["start_of_turn", "hero", "movement", "shooting", "charge", "combat", "end_of_turn"]


def _rule(v: str) -> str:
    if v not in RULE_IDS:
        raise ValueError(f"unknown rule ID {v!r}; known: M1-M12, E1-E10, G1-G4, R1-R4")
    return v


class Meta(Strict):
    id: str = Field(pattern=_ID)
    title: str = Field(min_length=1, max_length=90)
    rules: list[str] = Field(min_length=1, max_length=MAX_LIST)
    profile: Literal["aos4", "aos3"] = "aos4"
    summary: Text = ""
    armies: Annotated[tuple[Id, Id], Field(strict=False)] | None = None

    @field_validator("rules")
    @classmethod
    def _rules(cls, v: list[str]) -> list[str]:
        return [_rule(r) for r in v]


class BattlefieldSpec(Strict):
    map: Id | None = None  # an embedded map id instead of an inline field
    width: float = Field(default=60, gt=0, le=120)
    height: float = Field(default=44, gt=0, le=120)
    terrain: list[Terrain] = Field(default=[], max_length=MAX_TERRAIN)
    objectives: list[Objective] = Field(default=[], max_length=MAX_OBJECTIVES)


class StartSpec(Strict):
    round: int = Field(default=1, ge=1, le=10)
    active: PlayerNo = 1
    phase: Phase = "hero"
    first_player: PlayerNo | None = None  # defaults to the active player


class UnitSpec(Strict):
    id: str = Field(pattern=_ID, max_length=MAX_ID)
    player: PlayerNo
    warscroll: Id
    models: list[Point] = Field(min_length=1, max_length=MAX_MODELS)
    name: str | None = Field(default=None, max_length=60)
    damage: Annotated[int, Field(ge=0)] | list[Annotated[int, Field(ge=0)]] = 0  # on the first model, or per model
    ritual_points: int = Field(default=0, ge=0, le=100)

    @model_validator(mode="after")
    def _damage(self) -> "UnitSpec":
        if isinstance(self.damage, list) and len(self.damage) != len(self.models):
            raise ValueError(f"damage lists {len(self.damage)} values for {len(self.models)} models")
        return self


class ManifestationSpec(Strict):
    id: str = Field(pattern=_ID, max_length=MAX_ID)
    scroll: Id
    summoner: Id
    model: int = Field(default=0, ge=0, le=MAX_MODELS)
    x: float
    y: float
    player: PlayerNo | None = None  # defaults to the summoner's
    commander: PlayerNo | None = None  # defaults to its player
    damage: int = Field(default=0, ge=0)
    moves_made: int = Field(default=0, ge=0, le=100)


class DiceEntry(Strict):
    purpose: str | None = Field(default=None, max_length=MAX_ID)
    dice: list[Annotated[int, Field(ge=1, le=6)]] = Field(min_length=1, max_length=MAX_DICE)


class RingSpec(Strict):
    """A ring `radius` inches out from the base of `around` (a unit's model or a manifestation);
    with `from_centre` the radius is measured from the centre instead (predatory reach)."""

    around: Id
    model: int = Field(default=0, ge=0, le=MAX_MODELS)
    radius: float = Field(gt=0, le=120)
    label: str = Field(default="", max_length=90)
    colour: Colour = "spell"
    from_centre: bool = False


class MeasureSpec(Strict):
    """A measured line drawn on the frame; `value` (if given) is checked against the engine's
    geometry to 0.01". kind: distance (closest points, G1) or farthest (the "wholly within"
    measure: how far the farthest point of `to` is from the base of `from`)."""

    from_: Id = Field(alias="from")
    from_model: int = Field(default=0, ge=0, le=MAX_MODELS)
    to: Id
    to_model: int = Field(default=0, ge=0, le=MAX_MODELS)
    kind: Literal["distance", "farthest"] = "distance"
    value: float | None = Field(default=None, ge=0, le=200)
    label: str = Field(default="", max_length=90)
    colour: Colour = "ruler"


class Show(Strict):
    rings: list[RingSpec] = Field(default=[], max_length=MAX_LIST)
    measures: list[MeasureSpec] = Field(default=[], max_length=MAX_LIST)
    highlight: dict[str, Colour] = {}
    auto: bool = True  # also draw the geometry the action and its events imply


class PendingSpec(Strict):
    player: PlayerNo | None = None
    kind: str | None = None


class Facts(Strict):
    """State facts checked after a step (or after the last step)."""

    damage: dict[str, int] = {}  # unit id -> damage points on its models, or manifestation id -> damage
    ritual_points: dict[str, int] = {}
    alive: dict[str, bool] = {}
    manifestations: list[str] | None = None  # exactly these remain (ids)
    commander: dict[str, PlayerNo] = {}
    controlled_by: dict[str, str] = {}  # manifestation id -> unit id, or "" for not controlled
    at: dict[str, list[Point]] = {}  # unit id -> model centres, or manifestation id -> [centre]
    power_left: dict[str, int] = {}  # unit id -> spells, prayers and banishes it may still use this phase (M1, E3)
    phase: Phase | None = None
    active: PlayerNo | None = None
    pending: PendingSpec | None = None


class Refusal(Strict):
    rule: str
    contains: list[Annotated[str, Field(max_length=200)]] = Field(default=[], max_length=MAX_LIST)

    @field_validator("rule")
    @classmethod
    def _r(cls, v: str) -> str:
        return _rule(v)


class StepExpect(Facts):
    events: list[dict[str, Any]] = Field(
        default=[], max_length=MAX_LIST
    )  # in order (a subsequence of the step's events): {type = ..., field = value}
    absent: list[Id] = Field(default=[], max_length=MAX_LIST)  # event types that must not occur in this step

    @field_validator("events")
    @classmethod
    def _typed(cls, v: list[dict[str, Any]]) -> list[dict[str, Any]]:
        for i, e in enumerate(v):
            if not isinstance(e.get("type"), str):
                raise ValueError(f"events[{i}] needs a type, e.g. {{type = \"CastAttempted\", outcome = \"miscast\"}}")
        return v


class Step(Strict):
    caption: str = Field(min_length=1, max_length=MAX_TEXT)
    action: dict[str, Any]
    refused: Refusal | None = None
    rules: list[str] = Field(
        default=[], max_length=MAX_LIST
    )  # the rules this step turns on (for the rule text panel); default: the demo's
    expect: StepExpect = StepExpect()
    show: Show = Show()

    @field_validator("rules")
    @classmethod
    def _rules(cls, v: list[str]) -> list[str]:
        return [_rule(r) for r in v]

    @field_validator("action")
    @classmethod
    def _action(cls, v: dict[str, Any]) -> dict[str, Any]:
        if not isinstance(v.get("type"), str) or not re.match(r"^[A-Z][A-Za-z]+$", v["type"]):
            raise ValueError("needs type = an action name such as \"CastSpell\"")
        if not isinstance(v.get("player"), int):
            raise ValueError("needs player = 1 or 2")
        return v


class DemoFile(Strict):
    demo: Meta
    battlefield: BattlefieldSpec = BattlefieldSpec()
    start: StartSpec = StartSpec()
    unit: list[UnitSpec] = Field(min_length=1, max_length=MAX_UNITS)
    manifestation: list[ManifestationSpec] = Field(default=[], max_length=MAX_MANIFESTATIONS)
    dice: list[int | DiceEntry] = Field(default=[], max_length=MAX_DICE)
    intro: Text = ""  # the caption of the set-up frame
    intro_show: Show = Show()  # geometry on the set-up frame
    step: list[Step] = Field(min_length=1, max_length=MAX_STEPS)
    expect: Facts = Facts()

    @field_validator("dice")
    @classmethod
    def _dice(cls, v: list[int | DiceEntry]) -> list[int | DiceEntry]:
        for i, d in enumerate(v):
            if isinstance(d, int) and not 1 <= d <= 6:
                raise ValueError(f"dice[{i}] is {d}; a scripted die shows 1 to 6")
        return v

    @model_validator(mode="after")
    def _ids(self) -> "DemoFile":
        ids = [u.id for u in self.unit] + [m.id for m in self.manifestation]
        dup = sorted({i for i in ids if ids.count(i) > 1})
        if dup:
            raise ValueError(f"ids must be unique across units and manifestations: {', '.join(dup)}")
        units = {u.id for u in self.unit}
        for i, m in enumerate(self.manifestation):
            if m.summoner not in units:
                raise ValueError(f"manifestation[{i}].summoner {m.summoner!r} is not a unit of this demo")
        return self
