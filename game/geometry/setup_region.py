"""Where a summoned manifestation may be set up: the region of legal centres (M9, E2, M10, G1-G4).

The rule (M9, E2): a manifestation is set up wholly within X" of its summoning model (E5),
visible to it (G2) when its warscroll says so, more than Y" from every enemy unit (M10 says
which enemy manifestations count), and legal under G4: no overlap with any model's base,
impassable terrain or another manifestation, and not touching the battlefield edge (G3). "If it
cannot legally be set up, the attempt fails", and M9 rules that "cannot" means no legal set-up
exists anywhere: a sample of points is not enough. This module turns every constraint but sight
into one shapely region of centres; "does a legal centre exist?" is answered from the region, and
each point it offers is confirmed by the caller's exact check.

The pieces (F is the footprint with its centre at the origin, s the summoning model's base of
radius r_s, "A + B" the Minkowski sum):

- wholly within X" (G1, M9): a round footprint of radius r keeps its centre in the disk of
  radius X + r_s - r around s; a polygon footprint keeps it in the intersection, over its
  vertices v, of the disks of radius X + r_s around s - v (the distance to a disk is convex, so
  a polygon's farthest point is a vertex);
- the edge (G3): the board rectangle shrunk by the footprint's extent on each side (exact: a
  footprint never turns);
- G4: minus obstacle + (-F) for every base, impassable piece and manifestation (of either army,
  any Move). Polygons are split into convex pieces (non-convex terrain by
  ``shapely.constrained_delaunay_triangles``); the sum of two convex pieces is the convex hull of
  their vertex sums, and a disk grows a polygon by a buffer;
- more than Y" from enemy units (M9, M10): minus enemy + disk(Y) + (-F) for every enemy base and
  every enemy manifestation that counts as a unit in this phase (the caller says which);
- sight (G2) is kept apart, and only steers the search: :func:`sight_region`.

Which way each approximation errs. Shapely's buffers are polygons inscribed in their circles, so:
every disk that is KEPT (wholly within) becomes a circumscribed polygon, and every disk or rounded
sum that is REMOVED an inscribed one, with ``quad_segs`` chosen (:func:`segments_for`) so that no
polygon strays more than ``ERR`` (0.0015") from its circle; straight parts are exact. The region
is therefore a superset of the legal centres (sight aside) lying within ``ERR`` of them: an
EMPTY region proves that no legal set-up exists (E2), and a point more than about ``2 * ERR``
inside it meets every constraint the region encodes (bases and footprints are fat, far more than
``ERR`` across).

Finding a point. :meth:`SetupSpace.ray_points` first traces the constraints along 16 rays from
the summoning model, without building the region: wholly within, the edge and round obstacles
exactly (a quadratic per disk), polygons by their edge crossings; on each ray it offers the
farthest legal stretch, ``MARGIN`` (0.05") short of its end. Any point that passes the exact
check proves that a set-up exists, however it was found. When the rays find nothing,
:func:`pick` searches the 2D region (:meth:`SetupSpace.region`): the farthest points along rays
midway between the first ones, then in each connected part, deepest first, the pole of
inaccessibility of the part eroded by ``ERODE`` (0.006") and its representative point, the
part's own pole, its point nearest the summoning model (this finds a legal centre lying exactly
on the wholly-within limit, where the legal set may be a single point), nudges from there
towards the pole and a few boundary vertices; inside the sight region first once a candidate
has failed. If no candidate passes and the region is not empty, it samples the region on a fine
grid, deepest points first (the sight region first, then at most ``BLIND_CHECKS`` points outside
it; at most ``max_checks`` exact checks in all) before it answers "none".

The guarantee (M9): whenever a legal centre exists with 0.01" to spare (a disk of radius 0.01"
of legal centres), the region has a part more than 0.01" deep; the parts are searched deepest
first, and the pole of a part more than ``2 * ERR`` deep (or of the part eroded by ``ERODE``)
meets every constraint of the region, so the search returns a legal point unless sight rejects
it. Every point returned has passed the caller's exact check (``SetupCheck.problems`` is the
judge).

Limits: sight is not in the region. :func:`sight_region` approximates "some point of the
footprint is visible from the base" (lines from the base's centre and a ring of rim points; G2's
rulings: a footprint whose centre is in an obscuring piece is seen through that piece, and the
observer sees out of the piece it stands in), and it only orders the search; when sight rejects
every candidate the answer rests on the bounded sampling, so it is as exact as G2's own check,
which itself samples lines (:mod:`game.geometry.visibility`). A legal set thinner than ``ERR``
is found only at the special points above.
"""

from __future__ import annotations

import math
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Sequence
from functools import lru_cache
from typing import Any, Protocol, TypeAlias

import numpy as np
import shapely
import shapely.affinity
from shapely import Polygon
from shapely.geometry.base import BaseGeometry

from .measure import TOL
from .nearby import BaseIndex
from .shapes import Circle, Shape, is_convex
from .terrain import TerrainIndex

__all__ = [
    "ERR",
    "ERODE",
    "SetupSpace",
    "centre_region",
    "sight_region",
    "pick",
    "pick_on_rays",
    "LooksAhead",
    "convex_pieces",
    "segments_for",
]

ERR = 0.0015
"""Inches: no polygon standing for a circle strays farther than this from it."""

ERODE = 0.006
"""Inches: how deep inside the region (or short of a ray's legal stretch) points are taken."""

MARGIN = 0.05
"""Inches: points on rays are taken this far short of the end of their legal stretch, so that a
click on a hint, a pixel off, is still legal; shorter stretches give their middle."""

SPREAD = 3.0
"""Inches between the points asked for together (UI hints and bot options)."""

STRETCHES = 3
"""Legal stretches per ray offered by :meth:`SetupSpace.ray_points` (the farthest ones)."""

RAYS = 16
"""Directions from the summoning model along which the farthest legal centre is tried first."""

BLIND_CHECKS = 300
"""Exact checks :func:`pick` spends sampling the region outside the sight region, when sight
rejected everything else: points there are seen only through gaps the sight region's rays missed,
and every such check of a blocked sight costs G2 about 1.5 ms."""

SAMPLE_STEP = 0.1
"""Inches: the finest grid :func:`_samples` lays over a part deeper than this. Only sight is
left to decide a sampled point (the region's own constraints hold at its special points), and
G2's check itself samples its lines about half an inch apart round a footprint's rim
(:mod:`game.geometry.visibility`, 8 per arc), so a finer grid of centres asks nearly the same
lines again: on the 4x board of bench/bench_game.py a search that answers "none" checked about
300 points of a part often under a square inch (issue 24)."""

DIGITS = 10
"""Decimal places of the points offered (rounding moves them by at most 5e-11", well inside the
exact checks' TOL of 1e-9", so a point on a limit stays legal)."""

EMPTY = Polygon()

Point2 = tuple[float, float]
Footprint: TypeAlias = "float | Sequence[Point2] | Polygon"
Circles: TypeAlias = "BaseIndex | Sequence[Circle]"


def segments_for(radius: float, err: float = ERR) -> int:
    """``quad_segs`` for a buffer of ``radius`` whose polygon strays at most ``err`` from the circle."""
    if radius <= err:
        return 4
    q = math.ceil(math.pi / (4.0 * math.acos(1.0 - err / radius)))
    return int(min(max(q, 4), 512))


def convex_pieces(poly: Polygon) -> list[np.ndarray]:
    """Vertex arrays ``(k, 2)`` of convex polygons whose union is ``poly`` (itself when convex,
    else its constrained Delaunay triangles)."""
    if is_convex(poly):
        return [np.asarray(poly.exterior.coords, dtype=float)[:-1]]
    tris = shapely.get_parts(shapely.constrained_delaunay_triangles(poly))
    return [np.asarray(t.exterior.coords, dtype=float)[:-1] for t in tris if t.area > 0]


class _Foot:
    """A footprint around (0, 0): a radius, or a polygon with its convex pieces negated (-F)."""

    __slots__ = ("r", "poly", "key", "xy", "neg", "ext", "outer", "nearest", "targets")
    r: float | None  # the radius of a round footprint; None for a polygon
    poly: Polygon | None  # the polygon; None for a round footprint
    key: tuple[str, Any]  # ("round", r) or ("polygon", its vertices)
    ext: tuple[float, ...]  # (minx, miny, maxx, maxy)

    def __init__(self, footprint: Footprint) -> None:
        if isinstance(footprint, (int, float)):
            r = self.r = float(footprint)
            self.poly = None
            self.key = ("round", r)
            self.xy = np.zeros((0, 2))
            self.neg: list[np.ndarray] = []
            self.ext = (-r, -r, r, r)
            self.outer = self.nearest = r
            self.targets = np.zeros((1, 2))
            return
        poly = footprint if isinstance(footprint, Polygon) else Polygon(footprint)
        self.r = None
        self.poly = poly
        xy = np.asarray(poly.exterior.coords, dtype=float)[:-1]
        self.key = ("polygon", tuple(map(tuple, xy.tolist())))
        self.xy = xy
        self.neg = [-p for p in convex_pieces(poly)]
        self.ext = tuple(float(v) for v in poly.bounds)
        d = np.hypot(xy[:, 0], xy[:, 1])
        self.outer = float(d.max())
        self.nearest = float(d.min())  # a legal centre is within X + r_s + this of the source
        # G2's target points for a polygon: vertices, edge midpoints and the centroid
        c = poly.centroid
        self.targets = np.vstack([xy, 0.5 * (xy + np.roll(xy, -1, axis=0)), [[c.x, c.y]]])


_FEET: dict[tuple, _Foot] = {}


def _foot_key(footprint: Footprint) -> tuple:
    if isinstance(footprint, (int, float)):
        return ("round", float(footprint))
    poly = footprint if isinstance(footprint, Polygon) else Polygon(footprint)
    return ("polygon", tuple(map(tuple, np.asarray(poly.exterior.coords, dtype=float)[:-1].tolist())))


def _foot(footprint: Footprint) -> _Foot:
    """The footprint's derived data, kept per footprint (there are a handful of them)."""
    if isinstance(footprint, _Foot):
        return footprint
    key = _foot_key(footprint)
    found = _FEET.get(key)
    if found is None:
        if len(_FEET) > 64:
            _FEET.clear()
        found = _FEET[key] = _Foot(footprint)
    return found


def _arrays(circles: Circles) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    if hasattr(circles, "arrays"):
        return circles.arrays()
    cs = list(circles)
    n = len(cs)
    return (
        np.fromiter((c.x for c in cs), float, n),
        np.fromiter((c.y for c in cs), float, n),
        np.fromiter((c.r for c in cs), float, n),
    )


def _split(shapes: Iterable[Shape]) -> tuple[list[Circle], list[Polygon]]:
    circles: list[Circle] = []
    polys: list[Polygon] = []
    for s in shapes:
        (circles if isinstance(s, Circle) else polys).append(s)
    return circles, polys


@lru_cache(maxsize=64)
def _unit_ring(q: int) -> np.ndarray:
    """The vertices of shapely's ``quad_segs=q`` buffer of a unit circle, closed: (4q + 1, 2)."""
    a = np.arange(4 * q + 1) * (2 * math.pi / (4 * q))
    return np.column_stack([np.cos(a), np.sin(a)])


def _disk_polys(x: np.ndarray, y: np.ndarray, rho: np.ndarray, *, outside: bool = False) -> list[BaseGeometry]:
    """Polygons for disks, inscribed (vertices on the circle) or, with ``outside``, circumscribed
    (containing it); each within ``ERR`` of its circle."""
    out: list[BaseGeometry] = []
    if len(x) == 0:
        return out
    qs = np.array([segments_for(float(v)) for v in rho])
    for q in np.unique(qs):
        m = qs == q
        ring = _unit_ring(int(q))
        scale = rho[m] / math.cos(math.pi / (4 * q)) if outside else rho[m]
        coords = ring[None, :, :] * scale[:, None, None] + np.column_stack([x[m], y[m]])[:, None, :]
        out += list(shapely.polygons(coords))
    return out


@lru_cache(maxsize=256)
def _grown_piece(piece: tuple, rho: float) -> np.ndarray:
    """Ring of a convex piece (around the origin) buffered by ``rho``, inscribed arcs."""
    q = segments_for(rho)
    g = shapely.buffer(Polygon(piece), rho, quad_segs=q)
    return np.asarray(g.exterior.coords, dtype=float)


def _circles_minus_foot(foot: _Foot, x: np.ndarray, y: np.ndarray, rho: np.ndarray) -> list[np.ndarray]:
    """disk(c, rho) + (-F) for a polygon footprint, never larger than the truth: closed rings
    in groups of equal length, each group an ``(n, k + 1, 2)`` array."""
    groups: list[np.ndarray] = []
    for piece in foot.neg:
        key = tuple(map(tuple, piece.tolist()))
        for r in np.unique(rho):
            m = rho == r
            ring = _grown_piece(key, float(r))
            groups.append(ring[None, :, :] + np.column_stack([x[m], y[m]])[:, None, :])
    return groups


def _group_edges(groups: Sequence[np.ndarray]) -> list[np.ndarray]:
    """One ``(k, 4)`` edge array per ring of the groups of rings."""
    out: list[np.ndarray] = []
    for g in groups:
        out += list(np.concatenate([g[:, :-1, :], g[:, 1:, :]], axis=2))
    return out


def _hulls(point_sets: Sequence[np.ndarray]) -> list[BaseGeometry]:
    """The convex hull of each point set (sets of any sizes), in one vectorised call."""
    if not point_sets:
        return []
    idx = np.repeat(np.arange(len(point_sets)), [len(p) for p in point_sets])
    return list(shapely.convex_hull(shapely.multipoints(np.vstack(point_sets), indices=idx)))


def _sum_convex(a: Sequence[np.ndarray], b: Sequence[np.ndarray]) -> list[BaseGeometry]:
    """Convex pieces of A + B from pieces of A and of B (each sum is the hull of vertex sums)."""
    return _hulls([(pa[:, None, :] + pb[None, :, :]).reshape(-1, 2) for pa in a for pb in b])


def _polys_minus_foot(
    foot: _Foot, polys: Sequence[Polygon], extra: float = 0.0
) -> list[tuple[BaseGeometry, np.ndarray]]:
    """P + disk(extra) + (-F) for each polygon, as (piece, ring edges) pairs; never larger than
    the truth."""
    return [pair for p in polys for pair in _grown(p, foot.key, extra)]


def _foot_of(key: tuple) -> _Foot:
    return _FEET.get(key) or _foot(key[1] if key[0] == "round" else [tuple(v) for v in key[1]])


@lru_cache(maxsize=2048)
def _grown(poly: Polygon, foot_key: tuple, extra: float) -> tuple[tuple[BaseGeometry, np.ndarray], ...]:
    """P + disk(extra) + (-F) as pieces never larger than the truth, each with its ring edges.
    Kept between calls: terrain never moves, and manifestations seldom do."""
    foot = _foot_of(foot_key)
    if foot.r is not None:
        grow = foot.r + extra
        parts = [shapely.buffer(poly, grow, quad_segs=segments_for(grow))]
    else:
        parts = _sum_convex(convex_pieces(poly), foot.neg)
        if extra > 0:
            parts = list(shapely.buffer(np.array(parts, dtype=object), extra, quad_segs=segments_for(extra)))
    return tuple((g, _edges([g])[0]) for g in parts if not g.is_empty)


def _polygonal(g: BaseGeometry) -> BaseGeometry:
    """Only the areal parts of a shapely result (an overlay can leave lines and points)."""
    if g.is_empty:
        return EMPTY
    if g.geom_type in ("Polygon", "MultiPolygon"):
        return g
    parts = [p for p in shapely.get_parts(g) if p.geom_type == "Polygon" and not p.is_empty]
    if not parts:
        return EMPTY
    return parts[0] if len(parts) == 1 else shapely.MultiPolygon(parts)


@lru_cache(maxsize=64)
def _within_template(foot_key: tuple, limit: float) -> BaseGeometry:
    """Centres (source at the origin) whose polygon footprint is wholly within ``limit`` of the
    source's centre: the intersection of circumscribed disks of radius ``limit`` around -v."""
    xy = np.unique(np.round(np.array(foot_key[1], dtype=float), 12), axis=0)
    disks = _disk_polys(-xy[:, 0], -xy[:, 1], np.full(len(xy), limit), outside=True)
    return _polygonal(shapely.intersection_all(np.array(disks, dtype=object)))


# --- ray tracing ------------------------------------------------------------------------------------


def _edges(polys: Sequence[BaseGeometry]) -> tuple[np.ndarray, np.ndarray]:
    """Every ring edge of the polygons as ``(n, 4)`` [x0, y0, x1, y1], with each edge's polygon."""
    segs, ids = [], []
    for k, g in enumerate(polys):
        for part in shapely.get_parts(g):
            if part.geom_type != "Polygon" or part.is_empty:
                continue
            for ring in (part.exterior, *part.interiors):
                c = np.asarray(ring.coords, dtype=float)
                segs.append(np.hstack([c[:-1], c[1:]]))
                ids.append(np.full(len(c) - 1, k))
    if not segs:
        return np.empty((0, 4)), np.empty(0, dtype=int)
    return np.vstack(segs), np.concatenate(ids)


def _crossings(
    edges: Sequence[np.ndarray], sx: float, sy: float, u: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The stretches of the lines ``s + t u`` (one per row of ``u``) inside each polygon, given
    as one ``(n, 4)`` edge array per polygon: arrays ``(ray, t_in, t_out)``. Even-odd per
    polygon; an edge crosses when its ends lie on different sides, an end on the line counting
    as the positive side, so parity always holds."""
    none = (np.empty(0, dtype=np.intp), np.empty(0), np.empty(0))
    edges = [e for e in edges if len(e)]
    if not edges:
        return none
    ids = np.repeat(np.arange(len(edges)), [len(e) for e in edges])
    e = np.vstack(edges)
    ax, ay = e[:, 0] - sx, e[:, 1] - sy
    bx, by = e[:, 2] - sx, e[:, 3] - sy
    ux, uy = u[:, 0:1], u[:, 1:2]
    da = uy * ax - ux * ay  # which side of the line each end lies, (rays, edges)
    db = uy * bx - ux * by
    rk, ek = np.nonzero((da > 0) != (db > 0))
    if not len(rk):
        return none
    a, b = da[rk, ek], db[rk, ek]
    ta = ux[rk, 0] * ax[ek] + uy[rk, 0] * ay[ek]
    tb = ux[rk, 0] * bx[ek] + uy[rk, 0] * by[ek]
    t = ta + (a / (a - b)) * (tb - ta)
    ik = ids[ek]
    order = np.lexsort((t, ik, rk))
    rk, ik, t = rk[order], ik[order], t[order]
    group = rk * len(edges) + ik
    starts = np.flatnonzero(np.r_[True, group[1:] != group[:-1]])
    rank = np.arange(len(group)) - np.repeat(starts, np.diff(np.r_[starts, len(group)]))
    first = np.flatnonzero(rank % 2 == 0)
    first = first[first + 1 < len(group)]
    first = first[group[first + 1] == group[first]]
    return rk[first], t[first], t[first + 1]


def _stretches(
    lo: np.ndarray, hi: np.ndarray, ray: np.ndarray, t0: np.ndarray, t1: np.ndarray
) -> list[list[tuple[float, float]]]:
    """Per ray k, the stretches of [lo[k], hi[k]] outside every blocked stretch (t0, t1) of
    that ray, farthest first, in one vectorised pass: outside [lo, hi] is blocked too, and a
    gap opens wherever a blocked stretch starts after every earlier one of its ray has ended."""
    n = len(lo)
    far = 1e4  # beyond any distance on a battlefield: rays offset by it never mix
    ray = np.concatenate([ray, np.arange(n), np.arange(n)])
    a = np.concatenate([t0, lo - far / 4, hi])
    b = np.concatenate([t1, lo, hi + far / 4])
    off = ray * far
    a, b = a + off, b + off
    order = np.argsort(a, kind="stable")
    ray, a, b = ray[order], a[order], b[order]
    ends = np.maximum.accumulate(b)
    gap = np.flatnonzero((a[1:] > ends[:-1]) & (ray[1:] == ray[:-1]))
    out: list[list[tuple[float, float]]] = [[] for _ in range(n)]
    k = ray[gap + 1]
    for r, g0, g1 in zip(k.tolist(), (ends[gap] - k * far).tolist(), (a[gap + 1] - k * far).tolist()):
        out[r].append((g0, g1))
    for gaps in out:
        gaps.reverse()
    return out


@lru_cache(maxsize=16)
def _directions(rays: int, offset: float = 0.0) -> np.ndarray:
    """Unit vectors of ``rays`` directions, ``offset`` (a fraction of the step) past east
    (kept: do not change the array)."""
    a = (np.arange(rays) + offset) * (2 * math.pi / rays)
    return np.column_stack([np.cos(a), np.sin(a)])


def _on_stretch(sx: float, sy: float, u, a: float, b: float) -> Point2 | None:
    """The point ``MARGIN`` short of the far end of a legal stretch (its middle when the stretch
    is shorter than ``2 * MARGIN``); None for a stretch no longer than ``2 * ERODE`` (left to
    the region search)."""
    if b - a <= 2 * ERODE:
        return None
    t = b - min(MARGIN, (b - a) / 2)
    return (sx + t * float(u[0]), sy + t * float(u[1]))


# --- the set-up constraints -----------------------------------------------------------------------


class SetupSpace:
    """The set-up constraints of one footprint for one summoning model, gathered once (M9, G3,
    G4): what keeps a centre (wholly within, the edge) and what removes it (bases, impassable
    terrain, manifestations, enemies). Arguments as for :func:`centre_region`.

    :meth:`ray_points` traces them along rays (cheap: no union); :meth:`region` builds the 2D
    region of centres (a superset of the legal ones, sight aside; built once).
    """

    def __init__(
        self,
        source: Circle,
        reach: float,
        footprint: Footprint,
        *,
        width: float,
        height: float,
        bases: Circles = (),
        impassable: Sequence[Polygon] = (),
        manifestations: Sequence[Shape] = (),
        enemy_bases: Circles = (),
        enemy_shapes: Sequence[Shape] = (),
        min_enemy_distance: float = 0.0,
    ) -> None:
        foot = self.foot = _foot(footprint)
        self.source = source
        self.limit = limit = reach + source.r  # every point of F within this of s's centre
        self.bound = limit - foot.r if foot.r is not None else limit + foot.nearest  # |c - s| <= bound
        minx, miny, maxx, maxy = foot.ext
        self.box = (-minx, -miny, width - maxx, height - maxy)
        self._region: BaseGeometry | None = None
        self._removed: list[BaseGeometry] | None = None
        sx, sy = source.x, source.y
        x0, y0, x1, y1 = self.box
        self.empty = self.bound < 0 or x0 >= x1 or y0 >= y1
        grow = foot.outer if foot.r is None else 0.0  # how far a grown disk reaches beyond rho

        # Disks: bases and round manifestations (overlap, open) and enemies grown by Y (closed).
        bx, by, br = _arrays(bases)
        circles, polys = _split(manifestations)
        if circles:
            cx, cy, cr = _arrays(circles)
            bx, by, br = np.concatenate([bx, cx]), np.concatenate([by, cy]), np.concatenate([br, cr])
        y_min = float(min_enemy_distance)
        ecircles, epolys = _split(enemy_shapes) if y_min > 0 else ([], [])
        ex, ey, er = _arrays(enemy_bases) if y_min > 0 else (np.empty(0), np.empty(0), np.empty(0))
        if ecircles:
            cx, cy, cr = _arrays(ecircles)
            ex, ey, er = np.concatenate([ex, cx]), np.concatenate([ey, cy]), np.concatenate([er, cr])
        er = er + y_min
        # Why first: only the disks that can reach the bound matter (`near` below, per disk), and
        # the test against every enemy's disk is bases x enemies; the same disks are kept
        close = np.hypot(bx - sx, by - sy) < self.bound + (br + (foot.r or 0.0)) + grow
        bx, by, br = bx[close], by[close], br[close]
        if len(ex) and len(bx):  # a base inside an enemy's Y" disk adds nothing
            inside = (np.hypot(bx[:, None] - ex[None, :], by[:, None] - ey[None, :]) + br[:, None] <= er[None, :]).any(
                axis=1
            )
            bx, by, br = bx[~inside], by[~inside], br[~inside]
        x = np.concatenate([bx, ex])
        y = np.concatenate([by, ey])
        r = np.concatenate([br, er])
        rho = r + (foot.r or 0.0)
        near = np.hypot(x - sx, y - sy) < self.bound + rho + grow
        self.cx, self.cy, self.cr, self.crho = x[near], y[near], r[near], rho[near]

        # Polygons: impassable terrain, polygon manifestations, polygon enemies grown by Y.
        grown = _polys_minus_foot(foot, list(impassable) + polys)
        grown += _polys_minus_foot(foot, epolys, y_min) if epolys else []
        if grown:
            d = shapely.distance(np.array([g for g, _ in grown], dtype=object), shapely.points(sx, sy))
            grown = [pair for pair, dd in zip(grown, d) if dd < self.bound]
        self.polys = [g for g, _ in grown]
        self._edges = [e for _, e in grown]
        self._disk_rings: list[np.ndarray] | None = None
        self._disk_edges: list[np.ndarray] | None = None
        self._rays: dict[int, list[list[Point2]]] = {}

    def _polygon_disks(self) -> list[np.ndarray]:
        """For a polygon footprint, the rings of the disks grown by -F, in groups (built once)."""
        if self._disk_rings is None:
            self._disk_rings = _circles_minus_foot(self.foot, self.cx, self.cy, self.cr) if len(self.cx) else []
        return self._disk_rings

    def _all_edges(self) -> list[np.ndarray]:
        """Edge arrays of every removed polygon the rays must cross (built once)."""
        if self._disk_edges is None:
            self._disk_edges = self._edges + (_group_edges(self._polygon_disks()) if self.foot.r is None else [])
        return self._disk_edges

    # -- along rays --
    def _kept(self, u: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Per ray, the exact stretch [lo, hi] of t >= 0 kept by wholly within and the edge."""
        sx, sy = self.source.x, self.source.y
        foot = self.foot
        n = len(u)
        if foot.r is not None:
            lo, hi = np.zeros(n), np.full(n, self.bound)
        else:  # |t u + v| <= L for every vertex v
            uv = u @ foot.xy.T  # (rays, vertices)
            disc = uv * uv - (foot.xy[:, 0] ** 2 + foot.xy[:, 1] ** 2)[None, :] + self.limit**2
            ok = (disc >= 0).all(axis=1)
            root = np.sqrt(np.maximum(disc, 0.0))
            lo = np.maximum((-uv - root).max(axis=1), 0.0)
            hi = np.where(ok, (-uv + root).min(axis=1), -1.0)
        x0, y0, x1, y1 = self.box
        for k, (p, a, b) in enumerate(((sx, x0, x1), (sy, y0, y1))):
            d = u[:, k]
            with np.errstate(divide="ignore", invalid="ignore"):
                ta, tb = (a - p) / d, (b - p) / d
            lo = np.where(d > 0, np.maximum(lo, ta), np.where(d < 0, np.maximum(lo, tb), lo))
            hi = np.where(d > 0, np.minimum(hi, tb), np.where(d < 0, np.minimum(hi, ta), hi))
            if d.size and ((d == 0) & ((p <= a) | (p >= b))).any():
                hi = np.where((d == 0) & ((p <= a) | (p >= b)), -1.0, hi)
        return lo, hi

    def _blocked(self, u: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The stretches removed by obstacles and enemies along the rays, as arrays ``(ray,
        t0, t1)``: disks exactly for a round footprint, polygons by their inscribed buffers."""
        sx, sy = self.source.x, self.source.y
        rays, t0, t1 = [np.empty(0, dtype=np.intp)], [np.empty(0)], [np.empty(0)]
        if self.foot.r is not None and len(self.cx):
            dx, dy = self.cx - sx, self.cy - sy
            b = u[:, 0:1] * dx + u[:, 1:2] * dy
            disc = b * b - (dx * dx + dy * dy - self.crho * self.crho)
            rk, ck = np.nonzero(disc > 0)
            root = np.sqrt(disc[rk, ck])
            rays.append(rk)
            t0.append(b[rk, ck] - root)
            t1.append(b[rk, ck] + root)
        rk, a, b = _crossings(self._all_edges(), sx, sy, u)
        rays.append(rk)
        t0.append(a)
        t1.append(b)
        return np.concatenate(rays), np.concatenate(t0), np.concatenate(t1)

    def ray_points(self, rays: int = RAYS) -> list[list[Point2]]:
        """Per ray from the source's centre (in ray order), candidate centres on its farthest
        ``STRETCHES`` legal stretches, farthest first: each ``MARGIN`` short of the stretch's
        far end (see ``_on_stretch``). Stretches no longer than ``2 * ERODE`` are left to the
        region search. Kept once traced."""
        found = self._rays.get(rays)
        if found is not None:
            return found
        if self.empty or rays <= 0:
            return [[] for _ in range(max(rays, 0))]
        u = _directions(rays)
        lo, hi = self._kept(u)
        sx, sy = self.source.x, self.source.y
        out = []
        for k, gaps in enumerate(_stretches(lo, hi, *self._blocked(u))):
            pts = (_on_stretch(sx, sy, u[k], a, b) for a, b in gaps)
            out.append([p for p in pts if p is not None][:STRETCHES])
        self._rays[rays] = out
        return out

    # -- in 2D --
    def kept(self) -> BaseGeometry:
        """Centres kept by wholly within and the edge: a polygon containing the true set."""
        if self.empty:
            return EMPTY
        s, foot = self.source, self.foot
        if foot.r is not None:
            area = _disk_polys(np.array([s.x]), np.array([s.y]), np.array([max(self.bound, ERR)]), outside=True)[0]
        else:
            area = shapely.affinity.translate(_within_template(foot.key, self.limit), s.x, s.y)
        return _polygonal(area.intersection(shapely.box(*self.box)))

    def removed(self) -> list[BaseGeometry]:
        """The shapes whose centres are removed (G4, enemies), each inside the true one."""
        if self._removed is None:
            out = list(self.polys)
            if len(self.cx):
                if self.foot.r is not None:
                    out += _disk_polys(self.cx, self.cy, self.crho)
                else:
                    for group in self._polygon_disks():
                        out += list(shapely.polygons(group))
            self._removed = out
        return self._removed

    def region(self) -> BaseGeometry:
        """The region of centres meeting every rule but sight: a (Multi)Polygon, empty when no
        legal set-up exists, else a superset of the legal centres within ``ERR`` of them."""
        if self._region is None:
            area = self.kept()
            if not area.is_empty:
                removed = np.array(self.removed(), dtype=object)
                removed = removed[shapely.intersects(area, removed)] if len(removed) else removed
                if len(removed):
                    area = _polygonal(area.difference(shapely.union_all(removed)))
            self._region = area
        return self._region


def centre_region(
    source: Circle,
    reach: float,
    footprint: Footprint,
    *,
    width: float,
    height: float,
    bases: Circles = (),
    impassable: Sequence[Polygon] = (),
    manifestations: Sequence[Shape] = (),
    enemy_bases: Circles = (),
    enemy_shapes: Sequence[Shape] = (),
    min_enemy_distance: float = 0.0,
) -> BaseGeometry:
    """The centres at which ``footprint`` may be set up, every rule but sight (M9, G3, G4).

    ``source`` is the summoning model's base and ``reach`` the wholly-within distance X;
    ``footprint`` is a round footprint's radius or a polygon around (0, 0) (as
    :func:`game.geometry.shapes.polygon_at` takes it; it never turns). ``bases`` are every model
    base (the summoner's included), ``impassable`` the impassable terrain polygons,
    ``manifestations`` every manifestation's footprint (either army); ``enemy_bases`` and
    ``enemy_shapes`` (enemy manifestations that count as units now, M10) must be more than
    ``min_enemy_distance`` away (no such rule when it is 0).

    Returns a (Multi)Polygon, possibly empty, that contains every legal centre and lies within
    about ``ERR`` of the legal set (see the module docstring): empty means that none exists.
    """
    return SetupSpace(
        source,
        reach,
        footprint,
        width=width,
        height=height,
        bases=bases,
        impassable=impassable,
        manifestations=manifestations,
        enemy_bases=enemy_bases,
        enemy_shapes=enemy_shapes,
        min_enemy_distance=min_enemy_distance,
    ).region()


# --- sight (G2), to steer the search ---------------------------------------------------------------


SIGHT_RAYS = 720
"""Rays cast from each eye point to build the sight region (0.5 degrees apart)."""

SIMPLIFY = 0.01
"""Inches: the sight region's outlines are simplified this much (it only steers the search)."""


def _union(parts: Sequence[BaseGeometry]) -> BaseGeometry:
    return shapely.union_all(np.array(parts, dtype=object)) if len(parts) else EMPTY


def _first_hits(
    ex: float,
    ey: float,
    u: np.ndarray,
    edges: np.ndarray,
    piece_of: np.ndarray,
    bx: np.ndarray,
    by: np.ndarray,
    br: np.ndarray,
    far: float,
    skip: int = -1,
) -> np.ndarray:
    """Per ray from the eye (rows of ``u``), how far it runs before it enters an obscuring piece
    (the first crossing of a piece's boundary, the eye being outside them all) or comes within
    ``r - TOL`` of a blocking base's centre; ``far`` when it meets nothing. Edges of piece
    ``skip`` are ignored."""
    t = np.full(len(u), far)
    ux, uy = u[:, 0:1], u[:, 1:2]
    if len(edges):
        e = edges if skip < 0 else edges[piece_of != skip]
        ax, ay = e[:, 0] - ex, e[:, 1] - ey
        bx_, by_ = e[:, 2] - ex, e[:, 3] - ey
        da = uy * ax - ux * ay
        db = uy * bx_ - ux * by_
        cross = (da > 0) != (db > 0)
        with np.errstate(divide="ignore", invalid="ignore"):
            w = da / (da - db)
            te = (ux * ax + uy * ay) + w * ((ux * bx_ + uy * by_) - (ux * ax + uy * ay))
        te = np.where(cross & (te > 1e-9), te, np.inf)
        if te.size:
            t = np.minimum(t, te.min(axis=1))
    if len(bx):
        dx, dy = bx - ex, by - ey
        b = ux * dx + uy * dy
        rr = np.maximum(br - TOL, 0.0)
        disc = b * b - (dx * dx + dy * dy - rr * rr)
        t0 = b - np.sqrt(np.maximum(disc, 0.0))
        t0 = np.where((disc > 0) & (t0 > 0), t0, np.inf)
        t = np.minimum(t, t0.min(axis=1))
    return t


def _star(ex: float, ey: float, u: np.ndarray, t: np.ndarray, box: BaseGeometry) -> BaseGeometry:
    """The star-shaped polygon of the ray ends seen from the eye, inside ``box``, simplified."""
    ring = np.column_stack([ex + t * u[:, 0], ey + t * u[:, 1]])
    if len(ring) < 3:
        return EMPTY
    return shapely.make_valid(shapely.simplify(Polygon(ring).intersection(box), SIMPLIFY))


def sight_region(
    source: Circle,
    footprint: Footprint,
    terrain: TerrainIndex | Sequence[Polygon],
    blockers: Circles = (),
    *,
    clip: BaseGeometry,
    eyes: int = 8,
    rays: int = SIGHT_RAYS,
) -> BaseGeometry:
    """Centres (inside ``clip``) at which some point of the footprint is likely visible from
    ``source`` (G2): what ``rays`` rays from the base's centre and from ``eyes`` points just
    inside its rim reach before obscuring terrain or a blocking base, grown by the footprint.

    G2's rulings: obscuring pieces the observer's centre stands in are ignored (it sees out); a
    footprint whose centre is in an obscuring piece is seen through that piece; ``blockers`` are
    the bases of models outside the summoner's unit (manifestations never block). An
    approximation (the rays are 360/``rays`` degrees apart) that steers the search; the exact
    check decides.
    """
    if clip.is_empty:
        return EMPTY
    foot = _foot(footprint)
    x0, y0, x1, y1 = clip.bounds
    g = foot.outer + 0.01
    bx0, by0 = min(x0 - g, source.x - source.r), min(y0 - g, source.y - source.r)
    bx1, by1 = max(x1 + g, source.x + source.r), max(y1 + g, source.y + source.r)
    box = shapely.box(bx0, by0, bx1, by1)
    far = math.hypot(bx1 - bx0, by1 - by0) + 1.0
    if isinstance(terrain, TerrainIndex):
        obscuring = [p.polygon for p in terrain.pieces if "obscuring" in p.traits]
    else:
        obscuring = list(terrain)
    obscuring = [p for p in obscuring if not shapely.intersects_xy(p, source.x, source.y)]  # it sees out (G2)
    obscuring = [p for p in obscuring if p.intersects(box)]
    x, y, r = _arrays(blockers)
    keep = (x + r > bx0) & (x - r < bx1) & (y + r > by0) & (y - r < by1)
    bx, by, br = x[keep], y[keep], r[keep]
    if not obscuring and not len(bx):
        return clip
    edges, piece_of = _edges(obscuring)
    u = _directions(rays)
    centred = [k for k, p in enumerate(obscuring) if p.intersects(clip)]  # could hold a centre
    eye_pts = [(source.x, source.y)] + [
        (source.x + (source.r - 1e-6) * math.cos(a), source.y + (source.r - 1e-6) * math.sin(a))
        for a in np.arange(max(eyes, 0)) * (2 * math.pi / max(eyes, 1))
    ]
    seen: list[BaseGeometry] = []  # points visible from some eye
    seen_in: dict[int, list[BaseGeometry]] = {k: [] for k in centred}  # visible through piece k
    inside = (
        np.hypot(
            bx[None, :] - np.array([e[0] for e in eye_pts])[:, None],
            by[None, :] - np.array([e[1] for e in eye_pts])[:, None],
        )
        < br[None, :] - TOL
    )
    for j, (ex, ey) in enumerate(eye_pts):
        if any(shapely.intersects_xy(p, ex, ey) for p in obscuring) or inside[j].any():
            continue  # every line from a rim point inside another piece or base is blocked
        seen.append(_star(ex, ey, u, _first_hits(ex, ey, u, edges, piece_of, bx, by, br, far), box))
        for k in centred:
            t = _first_hits(ex, ey, u, edges, piece_of, bx, by, br, far, skip=k)
            seen_in[k].append(_star(ex, ey, u, t, box).intersection(obscuring[k]))
    if not seen:
        return EMPTY
    visible_pts = _union(seen)
    if foot.r is not None:  # centres whose footprint reaches a visible point: V + (-F)
        grown = shapely.simplify(visible_pts, SIMPLIFY).buffer(foot.r, quad_segs=3)
    else:  # G2's own target points for a polygon: vertices, edge midpoints, centroid
        visible_pts = shapely.simplify(visible_pts, SIMPLIFY)
        grown = _union([shapely.affinity.translate(visible_pts, -tx, -ty) for tx, ty in foot.targets])
    parts = [grown] + [_union(v) for v in seen_in.values() if v]  # centred in a piece: seen through it
    return _polygonal(_union(parts).intersection(clip))


# --- picking points in 2D --------------------------------------------------------------------------


def _parts(g: BaseGeometry) -> list[Polygon]:
    parts = [p for p in shapely.get_parts(g) if p.geom_type == "Polygon" and not p.is_empty]
    parts.sort(key=lambda p: -p.area)
    return parts


def _inscribed(poly: BaseGeometry) -> tuple[float, float, float]:
    """The centre and radius of the largest circle inside ``poly`` (to within ERR / 3): its pole
    of inaccessibility and its depth."""
    tol = max(min(ERR / 3, math.sqrt(poly.area) / 50), 1e-7)
    (x, y), (bx, by) = shapely.get_coordinates(shapely.maximum_inscribed_circle(poly, tol))
    return float(x), float(y), math.hypot(bx - x, by - y)


def _pole(poly: BaseGeometry) -> Point2 | None:
    if poly.is_empty:
        return None
    x, y, _ = _inscribed(poly)
    return (x, y)


def _by_depth(g: BaseGeometry, max_parts: int = 256) -> list[tuple[Polygon, float, float, float]]:
    """The connected parts of ``g`` (the ``max_parts`` largest) with their pole and depth,
    deepest first: a part more than ``2 * ERR`` deep has a pole meeting every constraint of the
    region, so the deep parts come before the slivers."""
    found = [(p, *_inscribed(p)) for p in _parts(g)[:max_parts]]
    found.sort(key=lambda t: -t[3])
    return found


def _region_rays(g: BaseGeometry, source: Point2, rays: int) -> Iterator[Point2]:
    """The farthest point of ``g`` along each ray from ``source``, ``MARGIN`` short of the end.
    The rays lie midway between :meth:`SetupSpace.ray_points`' rays, which were tried first."""
    if g.is_empty or rays <= 0:
        return
    sx, sy = source
    u = _directions(rays, 0.5)
    rk, t0, t1 = _crossings([_edges([g])[0]], sx, sy, u)
    for k in range(rays):
        m = (rk == k) & (t1 > 0)
        if m.any():
            j = int(np.argmax(np.where(m, t1, -np.inf)))
            p = _on_stretch(sx, sy, u[k], max(float(t0[j]), 0.0), float(t1[j]))
            if p is not None:
                yield p


def _specials(parts: Sequence[tuple[Polygon, float, float, float]], source: Point2) -> Iterator[Point2]:
    """Per connected part (from :func:`_by_depth`, deepest first): the pole and representative
    point of the part eroded by ERODE, its own pole, its point nearest ``source`` (and, for a
    part thinner than ERODE, nudges from it towards the pole), and a few boundary vertices."""
    src = shapely.points(source)
    for part, px, py, _depth in parts:
        inner = part.buffer(-ERODE, quad_segs=4)
        inner_parts = _parts(inner)
        for piece in inner_parts[:4]:
            p = _pole(piece)
            if p:
                yield p
            q = piece.representative_point()
            yield (float(q.x), float(q.y))
        yield (px, py)
        nx, ny = (float(v) for v in shapely.get_coordinates(shapely.shortest_line(part, src))[0])
        yield (nx, ny)
        if inner_parts:
            ix, iy = shapely.get_coordinates(shapely.shortest_line(inner, src))[0]
            yield (float(ix), float(iy))
            ring = np.asarray(inner_parts[0].exterior.coords)[:-1]
        else:
            for t in (1e-6, 1e-4, 1e-3, 0.01, 0.1, 0.5):
                yield (nx + t * (px - nx), ny + t * (py - ny))
            ring = np.asarray(part.exterior.coords)[:-1]
        if len(ring):
            d = np.hypot(ring[:, 0] - source[0], ring[:, 1] - source[1])
            picks = [
                np.argmax(d),
                np.argmin(ring[:, 0]),
                np.argmax(ring[:, 0]),
                np.argmin(ring[:, 1]),
                np.argmax(ring[:, 1]),
            ]
            for k in dict.fromkeys(int(v) for v in picks):
                yield (float(ring[k, 0]), float(ring[k, 1]))


def _samples(g: BaseGeometry, budget: int) -> Iterator[Point2]:
    """About ``budget`` grid points inside ``g``, shared among its parts by area, each part's
    deepest first. Parts no deeper than ``2 * ERR`` are left out: they may be nothing but the
    slack of the polygons standing for circles, and their special points were tried already.
    The grid is no finer than ``SAMPLE_STEP`` (or the part's depth, when that is less), so a
    small part gets fewer points than its share."""
    parts = [(p, depth) for p, _x, _y, depth in _by_depth(g) if depth > 2 * ERR]
    parts.sort(key=lambda t: -t[0].area)
    total = sum(p.area for p, _depth in parts)
    if total <= 0 or budget <= 0:
        return
    for part, part_depth in parts:
        n = max(8, int(budget * part.area / total))
        h = max(math.sqrt(part.area / n), min(SAMPLE_STEP, part_depth), 1e-5)
        x0, y0, x1, y1 = part.bounds
        while ((x1 - x0) / h + 1) * ((y1 - y0) / h + 1) > 200_000:
            h *= 1.5
        xs = np.arange(x0 + h / 2, x1, h)
        ys = np.arange(y0 + h / 2, y1, h)
        if not len(xs) or not len(ys):
            continue
        gx, gy = (a.ravel() for a in np.meshgrid(xs, ys))
        inside = shapely.contains_xy(part, gx, gy)
        gx, gy = gx[inside], gy[inside]
        if not len(gx):
            continue
        depth = shapely.distance(part.boundary, shapely.points(np.column_stack([gx, gy])))
        for k in np.argsort(-depth, kind="stable")[:n]:
            yield (float(gx[k]), float(gy[k]))


class LooksAhead(Protocol):
    """A check that may answer several points at once (issue 24): the picker hands it ``peek``,
    which gives up to ``k`` of the points it will check next, so that the check can do the
    expensive part of their checks together (sight, M9/G2) and keep the answers. The answer for
    each point must be the one it would give alone: only the work is shared."""

    def __call__(self, x: float, y: float) -> bool: ...

    def attach(self, peek: Callable[[int], list[Point2]]) -> None: ...


#: candidate points :meth:`_Picker.peek` may look through (skipped ones included) per point it gives
PEEK_SCAN = 4


class _Picker:
    """Exact checks of candidate points, each at most once, keeping those ``spread`` apart.

    The points of :meth:`run` go through a look-ahead buffer, so that a check that
    :class:`LooksAhead` can be told the next points without the order or the count of the
    checks changing."""

    def __init__(self, check: Callable[[float, float], bool], limit: int, spread: float, max_checks: int) -> None:
        self.check, self.limit, self.spread, self.max_checks = check, limit, spread, max_checks
        self.found: list[Point2] = []
        self.tried: set[Point2] = set()
        self.checks = self.failed = 0
        self._ahead: deque[Point2] = deque()
        self._source: Iterator[Point2] = iter(())
        attach = getattr(check, "attach", None)
        if attach is not None:
            attach(self.peek)

    @property
    def done(self) -> bool:
        return len(self.found) >= self.limit or self.checks >= self.max_checks

    def _would_check(self, x: float, y: float) -> bool:
        """`attempt` would check the (rounded) point now: finite, not tried, spread from the found."""
        if not (math.isfinite(x) and math.isfinite(y)) or (x, y) in self.tried:
            return False
        return not any(math.hypot(x - fx, y - fy) < self.spread for fx, fy in self.found)

    def attempt(self, p: Point2) -> bool:
        """Check one point; True when enough are found or the budget is spent."""
        x, y = round(p[0], DIGITS), round(p[1], DIGITS)
        if not (math.isfinite(x) and math.isfinite(y)) or (x, y) in self.tried:
            return self.done
        self.tried.add((x, y))
        if any(math.hypot(x - fx, y - fy) < self.spread for fx, fy in self.found):
            return self.done
        self.checks += 1
        if self.check(x, y):
            self.found.append((x, y))
        else:
            self.failed += 1
        return self.done

    def _points(self, points: Iterable[Point2]) -> Iterator[Point2]:
        """``points`` in order, the ones `peek` drew ahead first."""
        self._source = iter(points)
        self._ahead.clear()
        while True:
            if self._ahead:
                yield self._ahead.popleft()
                continue
            p = next(self._source, None)
            if p is None:
                return
            yield p

    def peek(self, k: int) -> list[Point2]:
        """Up to ``k`` of the next points `attempt` would check (rounded as it rounds them, each
        once), without taking them: the spread rule may still skip some once a point is found,
        which only wastes their share of a look-ahead. Bounded: at most ``PEEK_SCAN * k`` points
        are looked through."""
        out: list[Point2] = []
        seen: set[Point2] = set()
        i = 0
        while len(out) < k and i < PEEK_SCAN * k:
            if i == len(self._ahead):
                p = next(self._source, None)
                if p is None:
                    break
                self._ahead.append(p)
            p = self._ahead[i]
            i += 1
            q = (round(p[0], DIGITS), round(p[1], DIGITS))
            if q not in seen and self._would_check(*q):
                seen.add(q)
                out.append(q)
        return out

    def run(self, points: Iterable[Point2], stop: Callable[[], bool] | None = None) -> bool:
        """Check ``points`` in order until enough are found, the budget is spent or ``stop()``."""
        for p in self._points(points):
            if self.attempt(p) or (stop is not None and stop()):
                return self.done
        return self.done


def pick(
    region: BaseGeometry,
    check: Callable[[float, float], bool],
    *,
    source: Point2,
    limit: int = 1,
    spread: float = SPREAD,
    rays: int = RAYS,
    prefer: BaseGeometry | Callable[[], BaseGeometry | None] | None = None,
    max_checks: int = 2000,
    blind_checks: int = BLIND_CHECKS,
) -> list[Point2]:
    """Up to ``limit`` centres of ``region`` that pass ``check`` (the exact rule check), at least
    ``spread`` apart: the farthest from ``source`` along rays first, then each part's special
    points (see the module docstring), then a bounded fine sampling if nothing has passed.

    ``region`` should come from :meth:`SetupSpace.region` (a superset of the legal centres, sight
    aside); ``prefer`` (a geometry, or a callable building one, only called once some candidate
    has failed) marks where sight is likely (:func:`sight_region`). Empty means no legal centre
    was found: certain when the region is empty, and otherwise after at most ``max_checks``
    exact checks, of which at most ``blind_checks`` sample the region outside ``prefer`` (each
    check of a blocked sight costs G2 about 1.5 ms; the module docstring says what the answer
    guarantees). Deterministic.
    """
    picker = _Picker(check, limit, spread, max_checks)
    if region.is_empty or limit <= 0:
        return picker.found

    def candidates(g: BaseGeometry, parts=None) -> Iterator[Point2]:
        yield from _region_rays(g, source, rays)
        yield from _specials(_by_depth(g) if parts is None else parts, source)

    parts = _by_depth(region)
    if picker.run(candidates(region, parts)):
        return picker.found
    preferred = EMPTY
    deep = any(depth > 2 * ERR for *_, depth in parts)  # else nothing is left for sight to decide
    if prefer is not None and picker.failed and deep:
        zone = prefer() if callable(prefer) else prefer
        if zone is not None and not zone.is_empty:
            preferred = _polygonal(region.intersection(zone))
        if not preferred.is_empty and picker.run(candidates(preferred)):
            return picker.found
    if picker.found:
        return picker.found
    if not deep:
        return picker.found
    if prefer is None:
        picker.run(_samples(region, max_checks - picker.checks))
        return picker.found
    if not preferred.is_empty:
        if picker.run(_samples(preferred, (max_checks - picker.checks) // 2)):
            return picker.found
        region = _polygonal(region.difference(preferred))
    picker.run(_samples(region, min(blind_checks, max_checks - picker.checks)))
    return picker.found


def pick_on_rays(
    space: SetupSpace,
    check: Callable[[float, float], bool],
    *,
    limit: int = 1,
    spread: float = SPREAD,
    rays: int = RAYS,
    max_failures: int = 8,
) -> list[Point2]:
    """The fast path: up to ``limit`` centres from :meth:`SetupSpace.ray_points` that pass
    ``check``, ``spread`` apart, the farthest stretch of each ray first (in ray order), then the
    next stretches; it stops after ``max_failures`` failed checks. A point found proves that a
    legal set-up exists; finding none proves nothing (use :func:`pick` on the region)."""
    picker = _Picker(check, limit, spread, 10**9)
    per_ray = space.ray_points(rays)
    depth = max((len(p) for p in per_ray), default=0)
    order = [pts[level] for level in range(depth) for pts in per_ray if level < len(pts)]
    if order and max_failures > 0:
        picker.run(order, stop=lambda: picker.failed >= max_failures)
    elif order:  # no failure allowed: the first point alone (as the loop over rays had it)
        picker.run(order[:1] if per_ray[0] else [])
    return picker.found
