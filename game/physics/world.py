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

from collections.abc import Sequence

import pymunk
from shapely import Polygon

from game.geometry.path import EdgeSet
from game.geometry.polygon_cache import PolygonCache

__all__ = ["StaticWorld", "static_world", "BASE_BODY"]

BASE_BODY = pymunk.Body(body_type=pymunk.Body.STATIC)
"""Static body that the per-call base circles hang from (never added to a space)."""

_FILTER = pymunk.ShapeFilter()


class StaticWorld:
    """A pymunk space holding impassable terrain edges and the four battlefield edges.

    Each shape carries an ``obstacle`` label (polygon index or ``"edge"``) and ``ends``,
    its endpoints and label as plain floats (the :class:`game.geometry.path.EdgeSet` tuple).
    """

    def __init__(self, polys: Sequence[Polygon], width: float, height: float) -> None:
        self.polys = tuple(polys)
        self.space = pymunk.Space()
        body = self.space.static_body
        shapes = []
        # the same edges, in the same order, as the geometry's own broad phase (one source)
        for seg in EdgeSet(self.polys, width, height).ends:
            s = pymunk.Segment(body, (seg[0], seg[1]), (seg[2], seg[3]), 0.0)
            s.obstacle = seg[4]
            s.ends = seg  # plain floats: Vec2d properties are slow
            shapes.append(s)
        self.space.add(*shapes)
        self.width = width
        self.height = height

    def candidates(self, minx: float, miny: float, maxx: float, maxy: float) -> list[pymunk.Shape]:
        """Shapes whose bounding box meets the given box (pymunk broad phase)."""
        return self.space.bb_query(pymunk.BB(minx, miny, maxx, maxy), _FILTER)


static_world: PolygonCache[StaticWorld] = PolygonCache(StaticWorld)
"""The cached :class:`StaticWorld` for a set of polygon objects and a board size."""
