"""Typed, JSON-serialisable records: the base for actions and events.

A record is a frozen dataclass registered under a `type` tag (its class name). `to_dict()`
writes the tag and the fields; `record_from_dict()` reads them back, turning lists into tuples,
so a round trip gives an equal record.
"""

from __future__ import annotations

import dataclasses
from typing import Any, ClassVar, TypeVar

T = TypeVar("T", bound="Record")


def _plain(value: Any) -> Any:
    if isinstance(value, (tuple, list)):
        return [_plain(v) for v in value]
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    return value


def _frozen(value: Any) -> Any:
    if isinstance(value, list):
        return tuple(_frozen(v) for v in value)
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
    def from_dict(cls: type[T], d: dict[str, Any]) -> T:
        """Rebuild a record of this family from `to_dict()` output; ValueError names what is wrong."""
        if not isinstance(d, dict):
            raise ValueError(f"expected an object, got {type(d).__name__}")
        tag = d.get("type")
        kind = cls.registry.get(tag) if isinstance(tag, str) else None
        if kind is None:
            raise ValueError(f"unknown {cls.__name__.lower()} type {tag!r}")
        names = {f.name for f in dataclasses.fields(kind)}
        unknown = set(d) - names - {"type"}
        if unknown:
            raise ValueError(f"{tag}: unknown field(s) {', '.join(sorted(unknown))}")
        try:
            return kind(**{k: _frozen(v) for k, v in d.items() if k != "type"})  # type: ignore[return-value]
        except TypeError as exc:
            raise ValueError(f"{tag}: {exc}") from None
