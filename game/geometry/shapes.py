"""Value types for things on the battlefield (G1).

Units are inches.  A round base is a :class:`Circle` (centre and radius); a
manifestation footprint is either a :class:`Circle` or a shapely ``Polygon`` in
world coordinates.  Rule decisions on circles always use exact circle maths
(:mod:`game.geometry.measure`); :func:`to_shapely` exists only for drawing and
for building swept areas, never for deciding a rule (G1: "no buffered-polygon
approximations in rule decisions").
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TypeAlias

import shapely
from shapely import Polygon
from shapely.geometry.base import BaseGeometry

__all__ = ["Circle", "Shape", "polygon_at", "to_shapely", "is_convex"]


@dataclass(frozen=True, slots=True)
class Circle:
    """A round base: centre ``(x, y)`` and radius ``r`` in inches (G1)."""

    x: float
    y: float
    r: float

    @property
    def centre(self) -> tuple[float, float]:
        """The centre point ``(x, y)``."""
        return (self.x, self.y)

    def moved(self, x: float, y: float) -> "Circle":
        """The same base with its centre placed at ``(x, y)``."""
        return Circle(float(x), float(y), self.r)


Shape: TypeAlias = Circle | Polygon


def polygon_at(points: Sequence[tuple[float, float]], x: float, y: float) -> Polygon:
    """Translate a footprint given relative to its centre so the centre is at ``(x, y)``."""
    if len(points) < 3:
        raise ValueError(f"a footprint needs at least 3 points, got {len(points)}")
    return Polygon([(px + x, py + y) for px, py in points])


def to_shapely(shape: Shape, quad_segs: int = 32) -> BaseGeometry:
    """A shapely geometry for ``shape``.

    A :class:`Circle` becomes a buffered point (an inscribed polygon with
    ``4 * quad_segs`` sides, short of the true circle by up to
    ``r * (1 - cos(pi / (4 * quad_segs)))``).  Use it ONLY for drawing and for
    the documented conservative fallbacks; rule decisions on circles use exact
    maths (G1).
    """
    if isinstance(shape, Circle):
        return shapely.Point(shape.x, shape.y).buffer(shape.r, quad_segs=quad_segs)
    return shape


def is_convex(poly: Polygon) -> bool:
    """True when ``poly`` has no holes and equals its convex hull (up to 1e-12 relative area)."""
    if len(poly.interiors):
        return False
    hull = poly.convex_hull
    return hull.area - poly.area <= 1e-12 * max(1.0, hull.area)
