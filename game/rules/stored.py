"""Typed records that live in the state and are saved with it: the decision frames
(`game.rules.frames`) and the use counters (`game.rules.allowances`).

Each is a mutable dataclass. `to_dict()` writes exactly the plain dict of the state format
(format 1): the fields in declaration order, lists copied; a field named in `SPARSE` may be absent
from the saved dict, and is left out while it holds its default. `from_dict(d)` checks `d`
against the schema that `game.rules.state_schema` derives from the same fields (`doc_model`),
and raises ValueError naming the field; `from_checked(d)` skips the check, for a whole state that
`state_check.state_problems` has passed. `copy()` is a deep copy: fields are scalars, lists of
scalars and tuples.

A field whose metadata has ``saved=False`` is kept in memory only (see `ArmyUses.recorded`).
"""

from __future__ import annotations

import dataclasses
import typing
from typing import Any, ClassVar, TypeVar

from game.rules.state_schema import doc_model, shape_problems

S = TypeVar("S", bound="Stored")


class _Layout(typing.NamedTuple):
    saved: tuple[str, ...]  # the fields to_dict writes, in order
    lists: tuple[str, ...]  # every list field (copied by copy and to_dict)
    defaults: dict[str, Any]  # the SPARSE fields' defaults


class Stored:
    """Base of the typed records kept in `State` (see the module docstring)."""

    # Saved fields that may be absent from a saved dict (their default then); to_dict leaves
    # them out while they hold their default.
    SPARSE: ClassVar[tuple[str, ...]] = ()
    # Each class's own layout, set by layout() (read from the class's __dict__, never inherited).
    _layout_cache: ClassVar[_Layout]

    @classmethod
    def layout(cls) -> _Layout:
        """The class's saved fields, list fields and sparse defaults, computed once per class."""
        found = cls.__dict__.get("_layout_cache")
        if found is None:
            fields = dataclasses.fields(cls)  # type: ignore[arg-type]  # every subclass is a dataclass; Stored is not
            hints = typing.get_type_hints(cls)
            saved = tuple(f.name for f in fields if f.metadata.get("saved", True))
            lists = tuple(f.name for f in fields if typing.get_origin(hints[f.name]) is list)
            defaults = {f.name: _default(f) for f in fields if f.name in cls.SPARSE}
            found = _Layout(saved, lists, defaults)
            cls._layout_cache = found
        return found

    @classmethod
    def field_types(cls) -> dict[str, Any]:
        """The saved fields' evaluated annotations (Annotated metadata kept), in order."""
        hints = typing.get_type_hints(cls, include_extras=True)
        return {name: hints[name] for name in cls.layout().saved}

    def to_dict(self) -> dict[str, Any]:
        lay = self.layout()
        out: dict[str, Any] = {}
        for name in lay.saved:
            v = getattr(self, name)
            if name in lay.defaults and v == lay.defaults[name]:
                continue
            out[name] = list(v) if isinstance(v, list) else v
        return out

    @classmethod
    def from_checked(cls: type[S], d: dict[str, Any]) -> S:
        """Build from a saved dict already checked by state_check (no check here)."""
        saved = cls.layout().saved
        return cls(**{k: (list(v) if isinstance(v, list) else v) for k, v in d.items() if k in saved})

    @classmethod
    def from_dict(cls: type[S], d: Any) -> S:
        """Check `d` against the derived schema (state_schema.doc_model), then build; ValueError
        names the field path, the reason and the value."""
        problems = shape_problems(doc_model(cls), d, cls.__name__)
        if problems:
            raise ValueError("; ".join(problems[:3]))
        return cls.from_checked(d)

    def copy(self: S) -> S:
        new = object.__new__(type(self))
        new.__dict__.update(self.__dict__)
        for name in self.layout().lists:
            setattr(new, name, list(getattr(self, name)))
        return new


def _default(f: dataclasses.Field) -> Any:
    if f.default is not dataclasses.MISSING:
        return f.default
    if f.default_factory is not dataclasses.MISSING:
        return f.default_factory()
    raise TypeError(f"a SPARSE field needs a default: {f.name}")
