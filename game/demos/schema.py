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
from typing import Any, Literal

from pydantic import Field, field_validator, model_validator

from game.data.models import Objective, Strict, Terrain

RULE_IDS = (
    [f"M{i}" for i in range(1, 13)] + [f"E{i}" for i in range(1, 11)] + [f"G{i}" for i in range(1, 5)]
    + [f"R{i}" for i in range(1, 5)]
)

Point = tuple[float, float]
Id = str
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
    rules: list[str] = Field(min_length=1)
    profile: Literal["aos4", "aos3"] = "aos4"
    summary: str = ""
    armies: tuple[str, str] | None = None

    @field_validator("rules")
    @classmethod
    def _rules(cls, v: list[str]) -> list[str]:
        return [_rule(r) for r in v]


class BattlefieldSpec(Strict):
    map: str | None = None  # an embedded map id instead of an inline field
    width: float = Field(default=60, gt=0, le=120)
    height: float = Field(default=44, gt=0, le=120)
    terrain: list[Terrain] = []
    objectives: list[Objective] = []


class StartSpec(Strict):
    round: int = Field(default=1, ge=1, le=10)
    active: Literal[1, 2] = 1
    phase: Phase = "hero"
    first_player: Literal[1, 2] | None = None  # defaults to the active player


class UnitSpec(Strict):
    id: str = Field(pattern=_ID)
    player: Literal[1, 2]
    warscroll: str
    models: list[Point] = Field(min_length=1)
    name: str | None = None
    damage: int | list[int] = 0  # on the first model, or per model
    ritual_points: int = Field(default=0, ge=0)

    @model_validator(mode="after")
    def _damage(self) -> "UnitSpec":
        if isinstance(self.damage, list) and len(self.damage) != len(self.models):
            raise ValueError(f"damage lists {len(self.damage)} values for {len(self.models)} models")
        return self


class ManifestationSpec(Strict):
    id: str = Field(pattern=_ID)
    scroll: str
    summoner: str
    model: int = Field(default=0, ge=0)
    x: float
    y: float
    player: Literal[1, 2] | None = None  # defaults to the summoner's
    commander: Literal[1, 2] | None = None  # defaults to its player
    damage: int = Field(default=0, ge=0)
    moves_made: int = Field(default=0, ge=0)


class DiceEntry(Strict):
    purpose: str | None = None
    dice: list[int] = Field(min_length=1)


class RingSpec(Strict):
    """A ring `radius` inches out from the base of `around` (a unit's model or a manifestation);
    with `from_centre` the radius is measured from the centre instead (predatory reach)."""

    around: str
    model: int = 0
    radius: float = Field(gt=0)
    label: str = ""
    colour: Colour = "spell"
    from_centre: bool = False


class MeasureSpec(Strict):
    """A measured line drawn on the frame; `value` (if given) is checked against the engine's
    geometry to 0.01". kind: distance (closest points, G1) or farthest (the "wholly within"
    measure: how far the farthest point of `to` is from the base of `from`)."""

    from_: str = Field(alias="from")
    from_model: int = 0
    to: str
    to_model: int = 0
    kind: Literal["distance", "farthest"] = "distance"
    value: float | None = None
    label: str = ""
    colour: Colour = "ruler"


class Show(Strict):
    rings: list[RingSpec] = []
    measures: list[MeasureSpec] = []
    highlight: dict[str, Colour] = {}
    auto: bool = True  # also draw the geometry the action and its events imply


class PendingSpec(Strict):
    player: Literal[1, 2] | None = None
    kind: str | None = None


class Facts(Strict):
    """State facts checked after a step (or after the last step)."""

    damage: dict[str, int] = {}  # unit id -> damage points on its models, or manifestation id -> damage
    ritual_points: dict[str, int] = {}
    alive: dict[str, bool] = {}
    manifestations: list[str] | None = None  # exactly these remain (ids)
    commander: dict[str, Literal[1, 2]] = {}
    controlled_by: dict[str, str] = {}  # manifestation id -> unit id, or "" for not controlled
    at: dict[str, list[Point]] = {}  # unit id -> model centres, or manifestation id -> [centre]
    power_left: dict[str, int] = {}  # unit id -> spells, prayers and banishes it may still use this phase (M1, E3)
    phase: Phase | None = None
    active: Literal[1, 2] | None = None
    pending: PendingSpec | None = None


class Refusal(Strict):
    rule: str
    contains: list[str] = []

    @field_validator("rule")
    @classmethod
    def _r(cls, v: str) -> str:
        return _rule(v)


class StepExpect(Facts):
    events: list[dict[str, Any]] = []  # in order (a subsequence of the step's events): {type = ..., field = value}
    absent: list[str] = []  # event types that must not occur in this step

    @field_validator("events")
    @classmethod
    def _typed(cls, v: list[dict[str, Any]]) -> list[dict[str, Any]]:
        for i, e in enumerate(v):
            if not isinstance(e.get("type"), str):
                raise ValueError(f"events[{i}] needs a type, e.g. {{type = \"CastAttempted\", outcome = \"miscast\"}}")
        return v


class Step(Strict):
    caption: str = Field(min_length=1)
    action: dict[str, Any]
    refused: Refusal | None = None
    rules: list[str] = []  # the rules this step turns on (for the rule text panel); default: the demo's
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
    unit: list[UnitSpec] = Field(min_length=1)
    manifestation: list[ManifestationSpec] = []
    dice: list[int | DiceEntry] = []
    intro: str = ""  # the caption of the set-up frame
    intro_show: Show = Show()  # geometry on the set-up frame
    step: list[Step] = Field(min_length=1)
    expect: Facts = Facts()

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
