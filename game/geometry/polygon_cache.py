"""A small LRU cache of what is built from a battlefield's obstacle polygons (G4's edge lists,
the physics layer's static world), keyed by the polygons' identities and the board's size.

Identity, not value: the same `Polygon` objects come back on every call during a game, and
hashing a polygon by value costs more than rebuilding. Each entry holds its polygons, so an id
cannot be reused by a new polygon while the entry lives.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable, Sequence
from typing import Generic, TypeVar

from shapely import Polygon

T = TypeVar("T")


class PolygonCache(Generic[T]):
    """`cache(polys, width, height)` returns `build(polys, width, height)`, built once for the
    `size` most recent sets."""

    def __init__(self, build: Callable[[Sequence[Polygon], float, float], T], size: int = 8) -> None:
        self._build = build
        self._size = size
        self._entries: OrderedDict[tuple, tuple[tuple[Polygon, ...], T]] = OrderedDict()

    def __call__(self, polys: Sequence[Polygon], width: float, height: float) -> T:
        key = (tuple(map(id, polys)), float(width), float(height))
        found = self._entries.get(key)
        if found is not None:
            self._entries.move_to_end(key)
            return found[1]
        value = self._build(polys, width, height)
        self._entries[key] = (tuple(polys), value)
        if len(self._entries) > self._size:
            self._entries.popitem(last=False)
        return value

    def clear(self) -> None:
        self._entries.clear()
