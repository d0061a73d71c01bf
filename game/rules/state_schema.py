"""The shape of a saved state, as pydantic schemas: the documents of its parts (dice, units,
models, buffs, manifestations, flags), the strict scalar types (`Int`, `Num`, `Str`, `Bool`),
`doc_model` (a typed record's schema derived from its class, game.rules.stored) and
`shape_problems` (every type problem of a dict as `label: path: reason, got value`).

This is the low layer of `game.rules.state_check`: it imports nothing of the engine above the
records, so the record classes (`stored`, `units`) can use it, and the whole-state check above it
can import every rule module it needs.
"""

from __future__ import annotations

import copy
import math
import re
import types
import typing
from typing import TYPE_CHECKING, Annotated, Any, Literal, Union

from pydantic import (
    BaseModel,
    ConfigDict,
    Discriminator,
    Field,
    PlainValidator,
    StrictBool,
    StrictStr,
    Tag,
    ValidationError,
    create_model,
)
from pydantic_core import ErrorDetails

from game.rules.records import _show

if TYPE_CHECKING:
    from game.rules.stored import Stored

STATE_FORMAT = 1  # the version of State.to_dict()'s layout (saves carry it)

MAX_SHOWN = 40  # problems collected at most; State.from_dict shows the first few


def _whole(v: Any) -> int:
    if type(v) is not int:
        raise ValueError("must be a whole number")
    return v


def _number(v: Any) -> float:
    if type(v) not in (int, float):
        raise ValueError("must be a number")
    if not math.isfinite(v):
        raise ValueError("must be a finite number")
    return v


Int = Annotated[int, PlainValidator(_whole)]
Num = Annotated[float, PlainValidator(_number)]
Str = StrictStr
Bool = StrictBool


class _Doc(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


# --- the dice (game.rules.dice) -------------------------------------------------------------


class SeededDiceDoc(_Doc):
    kind: Literal["seeded"]
    state: Annotated[Int, Field(ge=0, lt=1 << 64)]


class ScriptedRollDoc(_Doc):
    purpose: Str | None = None
    dice: list[Int]


class ScriptedDiceDoc(_Doc):
    kind: Literal["scripted"]
    script: list[
        Annotated[
            Annotated[Int, Tag("die")] | Annotated[ScriptedRollDoc, Tag("roll")],
            Discriminator(lambda v: "roll" if isinstance(v, dict) else "die"),
        ]
    ]


DiceDoc = Annotated[SeededDiceDoc | ScriptedDiceDoc, Field(discriminator="kind")]


# --- units and manifestations (game.rules.units) ---------------------------------------------


class DeclaredDoc(_Doc):
    kind: Literal["run", "retreat"]
    extra: Int
    turn: Int


class FlagsDoc(_Doc):
    """The per-unit (and per-manifestation) facts the rule modules stamp, each a turn number
    unless said otherwise (movement, shooting, charge, combat, predatory, removal)."""

    moved_turn: Int | None = None
    ran_turn: Int | None = None
    retreated_turn: Int | None = None
    shot_turn: Int | None = None
    charge_tried_turn: Int | None = None
    charged_turn: Int | None = None
    fought_turn: Int | None = None
    declared: DeclaredDoc | None = None
    controlled_by: tuple[Str, Int] | None = None  # E7: [unit, model]
    wild: Bool | None = None  # E7
    set_up_round: Int | None = None  # E4c


class ModelDoc(_Doc):
    x: Num
    y: Num
    damage: Int
    slain: Bool


class BuffDoc(_Doc):
    kind: Str
    value: Int
    source: Str
    until_hero_of: Int
    set_turn: Int


class UnitDoc(_Doc):
    id: Str
    player: Int
    warscroll: Str
    name: Str
    models: Annotated[list[ModelDoc], Field(min_length=1)]
    ritual_points: Int
    buffs: list[BuffDoc]
    flags: FlagsDoc


class ManifestationDoc(_Doc):
    id: Str
    scroll: Str
    player: Int
    summoner: Str
    summoner_model: Int
    x: Num
    y: Num
    damage: Int
    commander: Int
    moves_made: Int
    flags: FlagsDoc


# --- records derived from their classes (game.rules.stored) ----------------------------------

_PLAIN: dict[Any, Any] = {int: Int, float: Num, str: Str, bool: Bool}
_DOCS: dict[type, type[_Doc]] = {}


def _doc_type(tp: Any) -> Any:
    """A record field's type as the state's schema checks it: int, float, str and bool strictly
    (`Int`, `Num`, `Str`, `Bool`), through lists, tuples, unions with None and Annotated
    constraints; Literal as it is."""
    if tp in _PLAIN:
        return _PLAIN[tp]
    if tp is type(None):
        return tp
    origin, args = typing.get_origin(tp), typing.get_args(tp)
    if origin is Annotated:
        return Annotated[(_doc_type(args[0]), *tp.__metadata__)]
    if origin is Literal:
        return tp
    if origin is list:
        return types.GenericAlias(list, (_doc_type(args[0]),))  # list[...], built at run time
    if origin is tuple:
        return types.GenericAlias(tuple, tuple(_doc_type(a) for a in args))
    if origin in (Union, types.UnionType):
        return Union[tuple(_doc_type(a) for a in args)]  # noqa: UP007  (a Union built from a runtime tuple)
    raise TypeError(f"no schema for a record field of type {tp!r}")


def doc_model(cls: type["Stored"]) -> type[_Doc]:
    """The pydantic model of a typed record's saved dict, derived from its fields: a `kind`
    class constant first (decision frames), then the saved fields in order; a SPARSE field may
    be absent. Built once per class."""
    found = _DOCS.get(cls)
    if found is None:
        fields: dict[str, Any] = {}
        kind = getattr(cls, "kind", None)
        if isinstance(kind, str):
            fields["kind"] = (Literal[kind], ...)
        sparse = cls.layout().defaults
        for name, tp in cls.field_types().items():
            default = Field(default_factory=lambda v=sparse[name]: copy.copy(v)) if name in sparse else ...
            fields[name] = (_doc_type(tp), default)
        found = _DOCS[cls] = create_model(f"{cls.__name__}Doc", __base__=_Doc, **fields)
    return found


def shape_problems(model: type[BaseModel], d: Any, label: str) -> list[str]:
    """The pydantic layer alone: every type problem of `d` as `label: path: reason, got value`."""
    try:
        model.model_validate(d)
    except ValidationError as exc:
        out: list[str] = []
        for err in exc.errors(include_url=False):
            text = f"{label}: {_problem(err)}"
            if text not in out:
                out.append(text)
        return out[:MAX_SHOWN]
    except RecursionError:
        return [f"{label}: nesting too deep"]
    return []


# Where pydantic puts a union member's tag into an error's location (it is not a field):
# dice.<kind>..., dice.<kind>.script[i].<die|roll>..., decisions[i].<kind>..., phase_uses.<id>.<unit|player>...
_TAG_AT: dict[str | int, tuple[int, ...]] = {"dice": (1, 4), "decisions": (2,), "phase_uses": (2,)}


def _problem(err: ErrorDetails) -> str:
    loc = err.get("loc", ())
    skip = _TAG_AT.get(loc[0], ()) if loc else ()
    path = ""
    for n, item in enumerate(loc):
        if n in skip and not (loc[0] == "dice" and n == 4 and (len(loc) < 3 or loc[2] != "script")):
            continue
        if isinstance(item, int):
            path += f"[{item}]"
        elif "[" not in str(item):  # not a validator's tag such as function-plain[_whole()]
            path += f".{item}" if path else str(item)
    kind, ctx = err["type"], err.get("ctx") or {}
    if kind in ("union_tag_invalid", "union_tag_not_found"):
        if kind == "union_tag_not_found":
            return f"{path}.kind: missing required field"
        return f"{path}.kind: must be one of {ctx.get('expected_tags', '')}, got {_show(ctx.get('tag'))}"
    if kind == "missing":
        return f"{path}: missing required field"
    if kind == "extra_forbidden":
        return f"{path}: unknown key"
    msg = str(err.get("msg", "is invalid")).removeprefix("Value error, ")
    msg = re.sub(r"^(?:Input|String|List|Tuple|Dictionary|Value|Object|Data) should (be|have)", r"must \1", msg)
    msg = re.sub(r" after validation, not \d+$", "", msg)
    msg = msg.replace("a valid dictionary or object to extract fields from", "an object")
    msg = re.sub(r"a valid dictionary or instance of \w+", "an object", msg)  # a record's schema, by class name
    msg = msg.replace("a valid dictionary", "an object").replace("a valid list", "a list")
    return f"{path}: {msg}, got {_show(err.get('input'))}"


# --- meaning --------------------------------------------------------------------------------
