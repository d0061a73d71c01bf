"""Typed, JSON-serialisable records: the base for actions and events.

A record is a frozen dataclass registered under a `type` tag (its class name). `to_dict()`
writes the tag and the fields; `from_dict()` reads them back, so a round trip gives an equal
record (the same values, ints still ints: `to_dict(from_dict(d)) == d`).

Decoding is typed, because replays, saves and demos are files that players send each other. Every
field is checked against its annotation by a strict pydantic schema built from the dataclass
(one per record type, built on first use and cached):

- `int`: a whole number; `true`/`false` are not numbers, and neither is 2.5 nor 2.0;
- `float`: a finite number (an int is fine and stays an int); NaN and +-Infinity are refused;
- `str`, `bool`: exactly that; `X | None`: X or null;
- `tuple[X, ...]` and `tuple[X, Y]`: a JSON list (or a tuple) of that length, made a tuple.

A wrong value is a `ValueError` naming the type, the field path and the value, e.g.
``MoveUnit.to[0][1]: must be a finite number, got NaN``; callers add the file and the step.
Decoding costs about 2 us a record: 400 actions of random games decode in 0.75 ms on this machine,
against 1.1 ms for the old name-only check (bench/bench_decode.py; a loose bound is tested).
"""

from __future__ import annotations

import builtins
import dataclasses
import json
import sys
import types
import typing
from typing import Annotated, Any, ClassVar, NotRequired, TypeVar, Union

from pydantic import AllowInfNan, ConfigDict, Strict, TypeAdapter, ValidationError, with_config
from typing_extensions import TypedDict

T = TypeVar("T", bound="Record")

MAX_PROBLEMS = 3  # per record in one message; the rest are counted


def _plain(value: Any) -> Any:
    if isinstance(value, (tuple, list)):
        return [_plain(v) for v in value]
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    return value


@dataclasses.dataclass(frozen=True)
class Record:
    registry: ClassVar[dict[str, type["Record"]]]

    def __init_subclass__(cls, **kw: Any) -> None:
        super().__init_subclass__(**kw)
        if "registry" in cls.__dict__:
            return  # a family base (Action, Event) owns a registry of its own
        cls.registry[cls.__name__] = cls

    @property
    def type(self) -> str:
        return type(self).__name__

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"type": self.type}
        for f in dataclasses.fields(self):
            out[f.name] = _plain(getattr(self, f.name))
        return out

    @classmethod
    def from_dict(cls: builtins.type[T], d: dict[str, Any]) -> T:  # (`type` here is the property above)
        """Rebuild a record of this family from `to_dict()` output (or its JSON); every field is
        type-checked. ValueError names the record type, the field and what is wrong."""
        if not isinstance(d, dict):
            raise ValueError(f"expected an object, got {_show(d)}")
        tag = d.get("type")
        kind = cls.registry.get(tag) if isinstance(tag, str) else None
        if kind is None:
            raise ValueError(f"unknown {cls.__name__.lower()} type {_show(tag)}")
        adapter = _ADAPTERS.get(kind) or _adapter(kind)
        try:
            values = adapter.validate_python(d)
        except ValidationError as exc:
            raise ValueError(_message(kind, exc)) from None
        except RecursionError:
            raise ValueError(f"{tag}: nesting too deep") from None
        del values["type"]
        return typing.cast(T, kind(**values))  # a record of cls's family: its registry holds only those


# --- the typed decoders ---------------------------------------------------------------------

_INT = Annotated[int, Strict()]
_NUMBER = Union[Annotated[int, Strict()], Annotated[float, Strict(), AllowInfNan(False)]]  # noqa: UP007  (pydantic reads this typing form)
_STR = Annotated[str, Strict()]
_BOOL = Annotated[bool, Strict()]
_CONFIG = ConfigDict(extra="forbid")  # leaves are strict; containers accept a list for a tuple

_ADAPTERS: dict[type, TypeAdapter] = {}
_FIELDS: dict[type, dict[str, Any]] = {}  # record type -> field name -> its (evaluated) annotation


def record_fields(kind: type[Record]) -> dict[str, Any]:
    """A record type's fields and their evaluated annotations, in declaration order."""
    found = _FIELDS.get(kind)
    if found is None:
        raw: dict[str, Any] = {}
        for base in reversed(kind.__mro__):
            names = vars(sys.modules[base.__module__])
            for name, ann in base.__dict__.get("__annotations__", {}).items():
                raw[name] = eval(ann, names) if isinstance(ann, str) else ann  # noqa: S307 - our own source
        found = _FIELDS[kind] = {f.name: raw[f.name] for f in dataclasses.fields(kind)}
    return found


def _strict(tp: Any) -> Any:
    """The pydantic type that decodes a field annotated `tp` from JSON, exactly."""
    if tp is bool:
        return _BOOL
    if tp is int:
        return _INT
    if tp is float:
        return _NUMBER
    if tp is str:
        return _STR
    if tp is type(None):
        return type(None)
    origin, args = typing.get_origin(tp), typing.get_args(tp)
    if origin in (Union, types.UnionType):
        return Union[tuple(_strict(a) for a in args)]  # noqa: UP007  (a Union built from a runtime tuple)
    if origin is tuple:
        if len(args) == 2 and args[1] is Ellipsis:
            return tuple[_strict(args[0]), ...]  # type: ignore[misc]
        return tuple[tuple(_strict(a) for a in args)]  # type: ignore[misc]
    raise TypeError(f"a record field cannot be a {tp!r}: add it to records._strict")


def _adapter(kind: type[Record]) -> TypeAdapter:
    fields: dict[str, Any] = {"type": _STR}
    for f in dataclasses.fields(kind):
        tp = _strict(record_fields(kind)[f.name])
        has_default = f.default is not dataclasses.MISSING or f.default_factory is not dataclasses.MISSING
        fields[f.name] = NotRequired[tp] if has_default else tp
    schema = with_config(_CONFIG)(TypedDict(f"{kind.__name__}Fields", fields))  # type: ignore[operator]
    adapter = _ADAPTERS[kind] = TypeAdapter(schema)
    return adapter


# --- messages ---------------------------------------------------------------------------------


def _show(value: Any, limit: int = 40) -> str:
    """A value as JSON would write it (NaN, Infinity, true, null), cut to `limit` characters."""
    try:
        text = json.dumps(value, allow_nan=True, ensure_ascii=False, default=repr)
    except (TypeError, ValueError, RecursionError):
        text = repr(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _describe(tp: Any) -> str:
    if tp is bool:
        return "true or false"
    if tp is int:
        return "a whole number"
    if tp is float:
        return "a finite number"
    if tp is str:
        return "a string"
    if tp is type(None):
        return "null"
    origin, args = typing.get_origin(tp), typing.get_args(tp)
    if origin in (Union, types.UnionType):
        return " or ".join(_describe(a) for a in args)
    if origin is tuple:
        if len(args) == 2 and args[1] is Ellipsis:
            return "a list"
        if len(args) == 2 and all(a is float for a in args):
            return "a point [x, y]"
        return f"a list of {len(args)} items"
    return repr(tp)


def _expected(kind: type[Record], loc: tuple[Any, ...]) -> tuple[str, Any]:
    """The field path of a pydantic error location (`to[0][1]`) and the annotation there."""
    if not loc:
        return "", None
    name = str(loc[0])
    tp = record_fields(kind).get(name, str if name == "type" else None)
    path = name
    for item in loc[1:]:
        if not isinstance(item, int):
            break  # a union member's tag ('int', 'float'), not a place
        path += f"[{item}]"
        origin, args = typing.get_origin(tp), typing.get_args(tp)
        if origin in (Union, types.UnionType):
            tp = next((a for a in args if typing.get_origin(a) is tuple), None)
            origin, args = typing.get_origin(tp), typing.get_args(tp)
        if origin is tuple and args:
            tp = args[0] if len(args) == 2 and args[1] is Ellipsis else args[min(item, len(args) - 1)]
        else:
            tp = None
    return path, tp


def _message(kind: type[Record], exc: ValidationError) -> str:
    name = kind.__name__
    unknown: list[str] = []
    problems: dict[str, str] = {}
    for err in exc.errors(include_url=False):
        loc = err.get("loc", ())
        if err["type"] == "extra_forbidden":
            unknown.append(str(loc[0]) if loc else "?")
            continue
        if err["type"] == "missing" and len(loc) > 1 and isinstance(loc[-1], int):
            loc = loc[:-1]  # a list too short for its fixed length: the list is what is wrong
            err = {**err, "type": "too_short"}
        path, tp = _expected(kind, loc)
        if path in problems:
            continue
        want = f"must be {_describe(tp)}" if tp is not None else str(err.get("msg", "is invalid"))
        if err["type"] == "missing":
            problems[path] = f"{name}.{path}: missing ({want})"
        else:
            problems[path] = f"{name}.{path}: {want}, got {_show(err.get('input'))}"
    out = []
    if unknown:
        known = ", ".join(record_fields(kind)) or "none"
        out.append(f"{name}: unknown field(s) {', '.join(sorted(unknown))} (fields: {known})")
    out += list(problems.values())
    more = len(out) - MAX_PROBLEMS
    text = "; ".join(out[:MAX_PROBLEMS])
    return text + (f"; and {more} more" if more > 0 else "")
