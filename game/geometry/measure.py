"""Exact measuring between bases and footprints (G1, G3).

All functions are pure and work in inches.

Tolerance: comparisons that decide a rule allow ``TOL = 1e-9`` inch of floating
point slack, so a distance of exactly 24" counts as "within 24"" (and
24.000000000001 from float noise still does) while 24.01" does not.  Overlap
uses the tolerance the other way round: two bases that touch (distance 0 up to
``TOL``) do *not* overlap.

Circle maths is analytic (``hypot(dx, dy) - ra - rb``).  Polygon maths uses
shapely's exact distance between a polygon and a point or polygon (polygons
are exact; only circles would be approximated by shapely, so circles never are
buffered here).

The one documented exception is :func:`wholly_within` with a *non-convex*
polygon ``outer`` and ``x > 0``: there it is conservative (it may answer False
for a shape lying within about 0.001" of the limit, never True for a shape that
is outside).  See its docstring.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np
import shapely
import shapely.affinity
from shapely import Polygon

from .shapes import Circle, Shape, is_convex

__all__ = [
    "TOL",
    "distance",
    "within",
    "wholly_within",
    "overlaps",
    "touches_edge",
    "swept_hits",
    "segment_point_distance",
    "signed_distance",
    "point_distance",
    "reach_along_ray",
    "first_touch",
    "path_obstacles",
]

TOL = 1e-9
"""Inches of floating point slack used by every rule comparison."""


def _point(x: float, y: float) -> shapely.Point:
    # shapely.points is ~2x cheaper than the shapely.Point constructor here
    return shapely.points((x, y))


def signed_distance(poly: Polygon, x: float, y: float) -> float:
    """Distance from ``(x, y)`` to ``poly``; negative (minus the distance to the boundary) inside."""
    p = _point(x, y)
    if poly.covers(p):
        return -poly.boundary.distance(p)
    return poly.distance(p)


def distance(a: Shape, b: Shape) -> float:
    """G1: distance between the closest points of two bases/footprints; 0 when touching or overlapping."""
    if isinstance(a, Circle):
        if isinstance(b, Circle):
            return max(0.0, math.hypot(a.x - b.x, a.y - b.y) - (a.r + b.r))
        return max(0.0, b.distance(_point(a.x, a.y)) - a.r)
    if isinstance(b, Circle):
        return max(0.0, a.distance(_point(b.x, b.y)) - b.r)
    return float(a.distance(b))


def within(a: Shape, b: Shape, x: float) -> bool:
    """G1 "within x"": ``distance(a, b) <= x`` (with ``TOL`` slack, so exactly x counts)."""
    return distance(a, b) <= x + TOL


def _max_vertex_distance(poly: Polygon, cx: float, cy: float) -> float:
    xy = np.asarray(poly.exterior.coords)
    return float(np.max(np.hypot(xy[:, 0] - cx, xy[:, 1] - cy)))


def wholly_within(inner: Shape, outer: Shape, x: float) -> bool:
    """G1 "wholly within x" of outer": every point of ``inner`` is at most ``x`` from ``outer``.

    Exact cases (``TOL`` slack, so exactly x passes):

    - circle in circle: ``d + r_inner <= x + r_outer``;
    - polygon in circle: the furthest vertex from the outer centre ``<= x + r_outer``
      (distance to a disc is convex, so the maximum over a polygon is at a vertex);
    - circle in polygon zone with ``x == 0``: ``zone.covers(centre)`` and the distance
      from the centre to the zone boundary ``>= r``;
    - polygon in polygon with ``x == 0``: ``outer.covers(inner)``;
    - circle in *convex* polygon, any ``x``: ``signed_distance(centre) + r <= x`` (signed
      distance is negative inside), because the set within x of a convex polygon is
      convex and its boundary is the boundary offset by x;
    - polygon in *convex* polygon, any ``x``: every vertex within x (convexity again).

    Conservative case: a *non-convex* polygon ``outer`` with ``x > 0``.  The answer is
    True when the sufficient test above holds, otherwise it is decided against an
    inscribed buffer of ``outer`` (a subset of the true "within x" area) with the inner
    circle replaced by a circumscribed polygon (a superset).  Result: never True when
    the truth is False; may be False within ~0.001" of the limit.
    """
    if isinstance(outer, Circle):
        if isinstance(inner, Circle):
            d = math.hypot(inner.x - outer.x, inner.y - outer.y)
            return d + inner.r <= x + outer.r + TOL
        return _max_vertex_distance(inner, outer.x, outer.y) <= x + outer.r + TOL

    # outer is a polygon
    if isinstance(inner, Circle):
        sd = signed_distance(outer, inner.x, inner.y)
        if sd + inner.r <= x + TOL:
            return True
        if x <= 0.0 or is_convex(outer):
            return False
        return _conservative_within_nonconvex(inner, outer, x)

    if x <= 0.0:
        return bool(outer.covers(inner))
    xy = np.asarray(inner.exterior.coords)
    dists = shapely.distance(outer, shapely.points(xy))
    if float(np.max(dists)) <= x + TOL:
        if is_convex(outer):
            return True
        return _conservative_within_nonconvex(inner, outer, x)
    return False


def _conservative_within_nonconvex(inner: Shape, outer: Polygon, x: float) -> bool:
    # Inscribed buffer: subset of the exact "within x" region.
    region = outer.buffer(x, quad_segs=64)
    if isinstance(inner, Circle):
        n = 256
        # circumscribed regular polygon: vertices at r / cos(pi/n)
        rr = inner.r / math.cos(math.pi / n)
        ang = np.linspace(0.0, 2 * math.pi, n, endpoint=False)
        inner = Polygon(np.column_stack([inner.x + rr * np.cos(ang), inner.y + rr * np.sin(ang)]))
    return bool(region.covers(inner))


def overlaps(a: Shape, b: Shape) -> bool:
    """G4 overlap: the shapes share positive area.  Touching exactly (within ``TOL``) is NOT overlap."""
    if isinstance(a, Circle):
        if isinstance(b, Circle):
            return math.hypot(a.x - b.x, a.y - b.y) < a.r + b.r - TOL
        return b.distance(_point(a.x, a.y)) < a.r - TOL
    if isinstance(b, Circle):
        return a.distance(_point(b.x, b.y)) < b.r - TOL
    if not a.intersects(b):
        return False
    return a.intersection(b).area > TOL * TOL


def touches_edge(shape: Shape, width: float, height: float) -> bool:
    """G3: any part of ``shape`` reaches or crosses the boundary of ``[0,width] x [0,height]``.

    Reaching means coming within ``TOL`` of an edge line.
    """
    if isinstance(shape, Circle):
        return (
            shape.x - shape.r <= TOL
            or shape.y - shape.r <= TOL
            or shape.x + shape.r >= width - TOL
            or shape.y + shape.r >= height - TOL
        )
    minx, miny, maxx, maxy = shape.bounds
    return minx <= TOL or miny <= TOL or maxx >= width - TOL or maxy >= height - TOL


def segment_point_distance(ax: float, ay: float, bx: float, by: float, px: np.ndarray, py: np.ndarray) -> np.ndarray:
    """Exact distances from points ``(px, py)`` (arrays) to the segment a-b (vectorised)."""
    dx, dy = bx - ax, by - ay
    ll = dx * dx + dy * dy
    if ll == 0.0:
        return np.hypot(px - ax, py - ay)
    t = np.clip(((px - ax) * dx + (py - ay) * dy) / ll, 0.0, 1.0)
    return np.hypot(px - (ax + t * dx), py - (ay + t * dy))


def _swept_polygon(poly: Polygon, dx: float, dy: float):
    moved = shapely.affinity.translate(poly, dx, dy)
    if is_convex(poly):
        return shapely.union(poly, moved).convex_hull
    # Exact for any simple polygon under translation: P0 U P1 U every edge's parallelogram.
    parts = [poly, moved]
    rings = [poly.exterior, *poly.interiors]
    for ring in rings:
        c = np.asarray(ring.coords)
        for (x0, y0), (x1, y1) in zip(c[:-1], c[1:]):
            parts.append(Polygon([(x0, y0), (x1, y1), (x1 + dx, y1 + dy), (x0 + dx, y0 + dy)]).buffer(0))
    return shapely.union_all(parts)


def swept_hits(
    footprint: Shape,
    start: tuple[float, float],
    end: tuple[float, float],
    targets: Sequence[Circle],
) -> list[int]:
    """E9 "passed across": indices of ``targets`` that the footprint touches or overlaps
    while its centre moves in a straight line from ``start`` to ``end``.

    ``footprint`` is given at ``start`` (a Circle's own centre is ignored in favour of
    ``start``; a polygon is assumed to already sit with its centre at ``start``).

    - Circle footprint: exact segment-to-centre distance ``<= r_f + r_t + TOL``, so a
      base merely grazed still counts.
    - Polygon footprint: the swept area is built exactly - the convex hull of the
      polygon at start and at end when it is convex, otherwise the union of both
      placements and each edge's swept parallelogram - then the exact polygon-to-centre
      distance ``<= r_t + TOL``.
    """
    if not targets:
        return []
    px = np.fromiter((t.x for t in targets), float, len(targets))
    py = np.fromiter((t.y for t in targets), float, len(targets))
    pr = np.fromiter((t.r for t in targets), float, len(targets))
    (sx, sy), (ex, ey) = start, end
    if isinstance(footprint, Circle):
        d = segment_point_distance(sx, sy, ex, ey, px, py)
        return np.flatnonzero(d <= footprint.r + pr + TOL).tolist()
    swept = _swept_polygon(footprint, ex - sx, ey - sy)
    d = shapely.distance(swept, shapely.points(np.column_stack([px, py])))
    return np.flatnonzero(d <= pr + TOL).tolist()


def point_distance(shape: Shape, x: float, y: float) -> float:
    """G1: distance from the closest point of ``shape`` to the point ``(x, y)``; 0 inside."""
    if isinstance(shape, Circle):
        return max(0.0, math.hypot(x - shape.x, y - shape.y) - shape.r)
    return float(shape.distance(_point(x, y)))


def reach_along_ray(shape: Shape, cx: float, cy: float, ux: float, uy: float, reach: float) -> float:
    """How far along the unit direction ``(ux, uy)`` from ``(cx, cy)`` (a point of ``shape``,
    its centre) a point can lie and still be within ``reach`` of ``shape`` (G1, E9).

    A circle of radius r gives ``reach + r``; a polygon (convex, as footprints are) is solved by
    bisection on the exact polygon-to-point distance, to 1e-7". The answer errs short, never long.
    """
    if isinstance(shape, Circle):
        return reach + shape.r
    lo = 0.0
    hi = reach + max(math.hypot(x - cx, y - cy) for x, y in shape.exterior.coords) + 1.0
    for _ in range(60):
        mid = 0.5 * (lo + hi)
        if point_distance(shape, cx + mid * ux, cy + mid * uy) <= reach:
            lo = mid
        else:
            hi = mid
        if hi - lo < 1e-7:
            break
    return lo


def first_touch(
    footprint: Shape,
    start: tuple[float, float],
    end: tuple[float, float],
    targets: Sequence[Circle],
) -> list[float]:
    """E9: for each target base, the fraction ``t`` of the path ``start -> end`` at which the
    moving footprint first touches it (0 when it touches at the start; ``inf`` if never).

    ``footprint`` is given with its centre at ``start``. A circle is solved in closed form
    (the smallest root of ``|s + t*d - c| = r_f + r_t``); a polygon by the circle's motion
    relative to the polygon, against each polygon edge (the earliest time its centre comes
    within ``r_t`` of the edge), and 0 when it already lies within ``r_t`` at the start.
    """
    (sx, sy), (ex, ey) = start, end
    dx, dy = ex - sx, ey - sy
    out: list[float] = []
    coords = None if isinstance(footprint, Circle) else np.asarray(footprint.exterior.coords)
    for c in targets:
        if coords is None:
            t = _circle_reach_time(sx, sy, dx, dy, c.x, c.y, footprint.r + c.r + TOL)
            out.append(t if t <= 1.0 + 1e-12 else math.inf)
            continue
        if point_distance(footprint, c.x, c.y) <= c.r + TOL:
            out.append(0.0)
            continue
        # the base's centre moves by -d relative to the footprint: earliest time it comes
        # within r_t of an edge (each edge: its two ends and its interior)
        px, py = c.x, c.y
        best = math.inf
        for (x0, y0), (x1, y1) in zip(coords[:-1], coords[1:]):
            best = min(best, _segment_reach_time(px, py, -dx, -dy, c.r, x0, y0, x1, y1))
        out.append(best if best <= 1.0 + 1e-12 else math.inf)
    return out


def _circle_reach_time(px: float, py: float, vx: float, vy: float, qx: float, qy: float, R: float) -> float:
    """Earliest t >= 0 with |p + t*v - q| <= R (inf if never)."""
    fx, fy = px - qx, py - qy
    c0 = fx * fx + fy * fy - R * R
    if c0 <= 0.0:
        return 0.0
    a = vx * vx + vy * vy
    b = fx * vx + fy * vy
    disc = b * b - a * c0
    if a == 0.0 or b >= 0.0 or disc < 0.0:
        return math.inf
    return (-b - math.sqrt(disc)) / a


def _segment_reach_time(px, py, vx, vy, r, x0, y0, x1, y1) -> float:
    """Earliest t >= 0 at which the point p + t*v comes within r of the segment (x0,y0)-(x1,y1)."""
    best = min(_circle_reach_time(px, py, vx, vy, x0, y0, r), _circle_reach_time(px, py, vx, vy, x1, y1, r))
    ex, ey = x1 - x0, y1 - y0
    L = math.hypot(ex, ey)
    if L == 0.0:
        return best
    nx, ny = -ey / L, ex / L
    h0 = (px - x0) * nx + (py - y0) * ny
    vn = vx * nx + vy * ny
    if abs(h0) <= r:
        t = 0.0
    elif h0 * vn >= 0.0:
        return best
    else:
        t = (abs(h0) - r) / abs(vn)
    along = ((px + t * vx - x0) * ex + (py + t * vy - y0) * ey) / L
    if 0.0 <= along <= L:
        best = min(best, t)
    return best


def path_obstacles(
    footprint: Shape,
    start: tuple[float, float],
    end: tuple[float, float],
    bases: Sequence[Circle],
    polygons: Sequence[Polygon],
) -> tuple[list[int], list[int]]:
    """G4, M10: the bases and polygons (impassable terrain) that a footprint moving in a straight
    line from ``start`` to ``end`` would pass into: (base indices, polygon indices).

    ``footprint`` is given with its centre at ``start``. Touching or grazing is not passing
    into (overlap needs positive depth, ``TOL``), and obstacles the footprint already overlaps at
    the start are ignored, as for a model's move (:mod:`game.geometry.sweep`). Exact: a circle by
    the path segment's distance to each centre or polygon, a polygon by its swept area.
    """
    (sx, sy), (ex, ey) = start, end
    hit_bases: list[int] = []
    hit_polys: list[int] = []
    if isinstance(footprint, Circle):
        r = footprint.r
        seg = shapely.LineString([start, end]) if (sx, sy) != (ex, ey) else shapely.points(start)
        for i, b in enumerate(bases):
            if math.hypot(b.x - sx, b.y - sy) < r + b.r - TOL:
                continue  # overlapping at the start: ignored
            if float(segment_point_distance(sx, sy, ex, ey, np.array([b.x]), np.array([b.y]))[0]) < r + b.r - TOL:
                hit_bases.append(i)
        for j, poly in enumerate(polygons):
            if poly.distance(shapely.points(start)) < r - TOL:
                continue
            if poly.distance(seg) < r - TOL:
                hit_polys.append(j)
        return hit_bases, hit_polys
    swept = _swept_polygon(footprint, ex - sx, ey - sy) if (sx, sy) != (ex, ey) else footprint
    for i, b in enumerate(bases):
        c = shapely.points((b.x, b.y))
        if footprint.distance(c) < b.r - TOL:
            continue
        if swept.distance(c) < b.r - TOL:
            hit_bases.append(i)
    for j, poly in enumerate(polygons):
        if overlaps(footprint, poly):
            continue
        if swept.intersects(poly) and swept.intersection(poly).area > TOL * TOL:
            hit_polys.append(j)
    return hit_bases, hit_polys
