"""Terrain pieces and a spatial index over them (G2, G4).

Terrain polygons live in shapely ``STRtree`` indexes, one per trait.  Line of
sight batches all of a pair's candidate lines: the tree (bounding boxes only, in
one bulk call) picks the pieces near the pair, then every line is tested against
every nearby piece in one vectorised pass:

- convex pieces (the usual case) with exact Cyrus-Beck clipping in numpy: the
  line blocks when the part of it strictly inside all the piece's half-planes
  (shrunk by ``TOL``) has positive length;
- non-convex pieces with shapely: ``intersects and not touches`` per piece,
  vectorised over the lines (GEOS ``touches`` is slow, ~200 µs per 80 lines).

On this machine shapely's STRtree predicate query costs ~5 µs per line and
``touches`` is slower still, while the numpy clipping costs ~0.5 µs per line for
all nearby pieces together.  The two methods agree exactly except within ``TOL``
of a boundary (tested in tests/geometry/test_terrain.py).

Small queries (a point, a base) use a pure-Python uniform grid over piece
bounding boxes plus shapely's scalar predicates (``contains_xy`` ~0.6 µs), since
building even one shapely Point costs ~4-13 µs here.

Grazing decision (G2), made on purpose: a line *blocks* only when it enters the
**interior** of an obscuring polygon.  A line that merely touches the boundary
(runs along an edge, or grazes a corner) does not block.  In DE-9IM terms a line
blocks when ``intersects(line, poly) and not touches(line, poly)``, which is the
same as "crosses or within" for a line against a polygon.  This matches bases:
touching a base is not overlapping it.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

import numpy as np
import shapely
from shapely import Polygon, STRtree

from .measure import TOL
from .shapes import Circle, Shape, is_convex

__all__ = ["TerrainPiece", "TerrainIndex", "TRAITS", "BBoxGrid"]

TRAITS = frozenset({"obscuring", "impassable", "cover"})
_contains_xy = shapely.lib.contains_xy_scalar
_intersects_xy = shapely.lib.intersects_xy_scalar


@dataclass(frozen=True)
class TerrainPiece:
    """One terrain feature: a name, a world-space polygon and its traits (G2, G4)."""

    name: str
    polygon: Polygon
    traits: frozenset[str] = field(default_factory=frozenset)

    def __post_init__(self) -> None:
        unknown = set(self.traits) - TRAITS
        if unknown:
            raise ValueError(f"terrain {self.name!r}: unknown traits {sorted(unknown)}")


class BBoxGrid:
    """Pure-Python uniform grid over bounding boxes: cheap candidate lookup for small boxes."""

    __slots__ = ("cell", "cells", "boxes")

    def __init__(self, boxes: Sequence[tuple[float, float, float, float]], cell: float = 3.0) -> None:
        self.cell = cell
        self.boxes = [tuple(map(float, b)) for b in boxes]
        self.cells: dict[tuple[int, int], list[int]] = {}
        for k, (x0, y0, x1, y1) in enumerate(self.boxes):
            for i in range(math.floor(x0 / cell), math.floor(x1 / cell) + 1):
                for j in range(math.floor(y0 / cell), math.floor(y1 / cell) + 1):
                    self.cells.setdefault((i, j), []).append(k)

    def query(self, x0: float, y0: float, x1: float, y1: float) -> list[int]:
        """Ids whose box meets ``[x0,x1] x [y0,y1]`` (closed), sorted."""
        c = self.cell
        i0, i1 = math.floor(x0 / c), math.floor(x1 / c)
        j0, j1 = math.floor(y0 / c), math.floor(y1 / c)
        ids: Sequence[int]
        if (i1 - i0 + 1) * (j1 - j0 + 1) > 4 * len(self.cells) + 16:
            ids = range(len(self.boxes))
        else:
            found: set[int] = set()
            get = self.cells.get
            for i in range(i0, i1 + 1):
                for j in range(j0, j1 + 1):
                    lst = get((i, j))
                    if lst:
                        found.update(lst)
            ids = sorted(found)
        boxes = self.boxes
        return [k for k in ids if boxes[k][0] <= x1 and boxes[k][2] >= x0 and boxes[k][1] <= y1 and boxes[k][3] >= y0]


def _halfplanes(poly: Polygon) -> tuple[np.ndarray, np.ndarray] | None:
    """Outward unit normals ``N`` and offsets ``C`` (inside: ``N @ p < C``) of a convex polygon."""
    if not is_convex(poly):
        return None
    ring = np.asarray(shapely.orient_polygons(poly).exterior.coords, dtype=float)
    e = ring[1:] - ring[:-1]
    ln = np.hypot(e[:, 0], e[:, 1])
    keep = ln > 0
    e, a, ln = e[keep], ring[:-1][keep], ln[keep]
    n = np.column_stack([e[:, 1], -e[:, 0]]) / ln[:, None]  # CCW ring: outward normal
    return n, np.einsum("ij,ij->i", n, a)


def clip_blocked(segs: np.ndarray, N: np.ndarray, C: np.ndarray) -> np.ndarray:
    """``(n_segments, n_pieces)``: the segment has a positive-length part strictly inside the
    convex piece.  ``N`` is ``(pieces, P, 2)`` outward unit normals and ``C`` ``(pieces, P)``
    offsets (inside: ``n . p < c - TOL``), padded with repeated planes.

    Cyrus-Beck: with ``p(t) = a + t d``, plane i bounds ``t`` above when ``n.d > 0`` and
    below when ``n.d < 0``; a plane parallel to the segment (``n.d == 0``) either never
    binds (``num > 0``) or excludes it (``num <= 0``), which the tiny stand-in
    denominator reproduces with the right sign.
    """
    ax = segs[:, 0, 0, None, None]
    ay = segs[:, 0, 1, None, None]
    dx = segs[:, 1, 0, None, None] - ax
    dy = segs[:, 1, 1, None, None] - ay
    nx, ny = N[..., 0], N[..., 1]
    num = (C - TOL) - (ax * nx + ay * ny)
    den = dx * nx + dy * ny
    den[den == 0.0] = 1e-200
    ratio = num / den
    neg = den < 0.0
    lo = np.where(neg, ratio, -np.inf).max(axis=2)
    hi = np.where(neg, np.inf, ratio).min(axis=2)
    np.minimum(hi, 1.0, out=hi)
    np.maximum(lo, 0.0, out=lo)
    return hi > lo


def clip1(ax: float, ay: float, bx: float, by: float, planes) -> bool:
    """Scalar Cyrus-Beck: segment a-b has a positive-length part strictly inside the convex
    polygon given as ``[(nx, ny, c), ...]`` (inside: ``n . p < c - TOL``)."""
    dx, dy = bx - ax, by - ay
    lo, hi = 0.0, 1.0
    for nx, ny, c in planes:
        num = c - TOL - (nx * ax + ny * ay)
        den = nx * dx + ny * dy
        if den == 0.0:
            if num <= 0.0:
                return False
        elif den > 0.0:
            t = num / den
            if t < hi:
                hi = t
        else:
            t = num / den
            if t > lo:
                lo = t
        if hi <= lo:
            return False
    return hi > lo


def _plane_list(n: np.ndarray, c: np.ndarray) -> list[tuple[float, float, float]]:
    """Half-planes as the plain-Python ``[(nx, ny, c), ...]`` that `clip1` takes."""
    return [(float(a[0]), float(a[1]), float(b)) for a, b in zip(n, c)]


def concave_parts(poly: Polygon) -> tuple[tuple[np.ndarray, np.ndarray], np.ndarray, np.ndarray]:
    """Sure answers for a non-convex obscuring piece without shapely (G2), as `clip_blocked`
    half-planes: its convex hull grown by TOL (a line that does not enter it stays TOL away from
    the piece: it does not enter), and a constrained triangulation (each triangle lies inside
    the piece, so a line with a part more than TOL inside a triangle enters the piece). Lines
    neither proves are left to shapely (`concave_enters`)."""
    h = _halfplanes(poly.convex_hull)
    assert h is not None  # a hull is convex
    hull = (h[0][None], (h[1] + 2 * TOL)[None])  # inside: n . p < c + TOL
    tri = [_halfplanes(t) for t in shapely.constrained_delaunay_triangles(poly).geoms]
    tri3 = [t for t in tri if t is not None and len(t[1]) == 3]
    n = np.array([t[0] for t in tri3]).reshape(-1, 3, 2)
    c = np.array([t[1] for t in tri3]).reshape(-1, 3)
    return hull, n, c


class _TraitTree:
    """Pieces having one trait: polygons (prepared), an STRtree and a grid; maps back to piece ids."""

    __slots__ = (
        "piece_ids",
        "local",
        "geoms",
        "tree",
        "grid",
        "planes",
        "N",
        "C",
        "py_planes",
        "bcx",
        "bcy",
        "bcr",
        "concave",
        "py_concave",
    )

    def __init__(self, pieces: Sequence[TerrainPiece], trait: str) -> None:
        self.piece_ids = [i for i, p in enumerate(pieces) if trait in p.traits]
        self.local = {pid: k for k, pid in enumerate(self.piece_ids)}
        self.geoms = np.array([pieces[i].polygon for i in self.piece_ids], dtype=object)
        for g in self.geoms:
            shapely.prepare(g)
        self.tree = STRtree(self.geoms) if len(self.geoms) else None
        self.grid = BBoxGrid([g.bounds for g in self.geoms])
        self.planes = [_halfplanes(g) for g in self.geoms] if trait == "obscuring" else []
        # plain-Python plane lists for one-line tests, and bounding circles for broad phase
        self.py_planes = [None if h is None else _plane_list(*h) for h in self.planes]
        cen = [g.centroid for g in self.geoms]
        self.bcx = np.array([c.x for c in cen])
        self.bcy = np.array([c.y for c in cen])
        self.bcr = np.array(
            [float(np.max(np.hypot(*(np.asarray(g.exterior.coords) - (c.x, c.y)).T))) for g, c in zip(self.geoms, cen)]
        )
        # the sure answers for the non-convex pieces (`concave_parts`), by trait tree index
        self.concave = {k: concave_parts(g) for k, (g, h) in enumerate(zip(self.geoms, self.planes)) if h is None}
        self.py_concave = {
            k: (_plane_list(hull[0][0], hull[1][0]), [_plane_list(n, c) for n, c in zip(tn, tc)])
            for k, (hull, tn, tc) in self.concave.items()
        }
        # padded (pieces, P, 2) / (pieces, P) arrays for the vectorised clip
        P = max((len(h[1]) for h in self.planes if h is not None), default=0)
        self.N = np.zeros((len(self.planes), P, 2))
        self.C = np.zeros((len(self.planes), P))
        for k, h in enumerate(self.planes):
            if h is not None:
                m = len(h[1])
                self.N[k, :m], self.C[k, :m] = h
                self.N[k, m:], self.C[k, m:] = h[0][0], h[1][0]


class TerrainIndex:
    """Spatial index of terrain pieces, with one STRtree (and grid) per trait.

    Build once per battlefield; every query is read-only, so one index can be
    shared between states, clones and threads.
    """

    def __init__(self, pieces: Iterable[TerrainPiece] = ()) -> None:
        self.pieces: tuple[TerrainPiece, ...] = tuple(pieces)
        self._trees = {t: _TraitTree(self.pieces, t) for t in TRAITS}
        self._all = _TraitTree(
            [TerrainPiece(p.name, p.polygon, frozenset({"obscuring"})) for p in self.pieces], "obscuring"
        )

    def __len__(self) -> int:
        return len(self.pieces)

    def polygons(self, trait: str) -> list[Polygon]:
        """The polygons of every piece with ``trait``, in piece order."""
        return [p.polygon for p in self.pieces if trait in p.traits]

    # --- G2: bulk line of sight -------------------------------------------------
    def obscuring_near(self, box: tuple[float, float, float, float]) -> list[int]:
        """Piece indices of obscuring pieces whose bounding box meets ``box``.

        Uses the pure-Python grid (a scan of the boxes for a large query box), which
        is cheaper here than building a shapely box for one STRtree query."""
        tt = self._trees["obscuring"]
        return [tt.piece_ids[i] for i in tt.grid.query(*box)]

    def obscuring_hits(
        self,
        segments: np.ndarray,
        exclude: Iterable[int] = (),
        *,
        lines: np.ndarray | None = None,
        pieces: Sequence[int] | None = None,
    ) -> np.ndarray:
        """Which segments are blocked by which obscuring pieces (G2), in bulk.

        ``segments`` is an ``(n, 2, 2)`` array of ``[[x0, y0], [x1, y1]]`` (``lines`` may
        pass the matching shapely LineStrings if already built).  Returns a ``(2, k)``
        int array of ``[segment_index, piece_index]`` pairs (``piece_index`` into
        :attr:`pieces`) where the segment enters the piece's interior; a segment that
        only touches the boundary is NOT a hit (see module docstring).  Pieces in
        ``exclude`` are ignored (e.g. terrain the viewer stands in); ``pieces``, if
        given, restricts the test to those piece indices (a broad phase already done).
        """
        tt = self._trees["obscuring"]
        empty = np.empty((2, 0), dtype=np.intp)
        if tt.tree is None or len(segments) == 0:
            return empty
        segments = np.asarray(segments, dtype=float)
        ex = set(exclude)
        if pieces is None:
            if lines is None:
                lines = shapely.linestrings(segments)
            pairs = tt.tree.query(lines)  # bounding boxes only, one bulk call
            pieces = sorted({tt.piece_ids[c] for c in set(pairs[1].tolist())})
        pieces = [p for p in pieces if p not in ex]
        if not pieces:
            return empty
        mat = self.blocked_matrix(segments, pieces, lines=lines)
        si, pj = np.nonzero(mat)
        return np.vstack([si, np.asarray(pieces, dtype=np.intp)[pj]])

    def blocked_matrix(
        self, segments: np.ndarray, pieces: Sequence[int], *, lines: np.ndarray | None = None
    ) -> np.ndarray:
        """``(n_segments, len(pieces))`` bool: segment enters the interior of obscuring piece
        ``pieces[j]`` (G2; touching the boundary does not count)."""
        tt = self._trees["obscuring"]
        out = np.zeros((len(segments), len(pieces)), dtype=bool)
        conv_cols, conv_k, other = [], [], []
        for j, pid in enumerate(pieces):
            k = tt.local[pid]
            if tt.planes[k] is None:
                other.append((j, k))
            else:
                conv_cols.append(j)
                conv_k.append(k)
        if conv_cols:
            res = clip_blocked(segments, tt.N[conv_k], tt.C[conv_k])
            if len(conv_cols) == len(pieces):
                out = res
            else:
                out[:, conv_cols] = res
        for j, k in other:
            out[:, j] = self.concave_enters(k, segments, lines=lines)
        return out

    def concave_enters(self, k: int, segments: np.ndarray, *, lines: np.ndarray | None = None) -> np.ndarray:
        """Per segment ``(n, 2, 2)``: it enters the interior of non-convex obscuring piece ``k``
        (the trait tree's index), as shapely's intersects and not touches says (G2), with the sure
        answers first (`concave_parts`, issue 24): shapely asks only the lines they leave, which
        graze the piece's outline within TOL."""
        tt = self._trees["obscuring"]
        hull, n_tri, c_tri = tt.concave[k]
        out = np.zeros(len(segments), dtype=bool)
        maybe = np.flatnonzero(clip_blocked(segments, *hull)[:, 0])
        if len(maybe) and len(n_tri):
            deep = clip_blocked(segments[maybe], n_tri, c_tri).any(axis=1)
            out[maybe[deep]] = True
            maybe = maybe[~deep]
        if len(maybe):
            sub = lines[maybe] if lines is not None else shapely.linestrings(segments[maybe])
            poly = tt.geoms[k]
            hit = np.flatnonzero(shapely.intersects(poly, sub))
            if len(hit):
                out[maybe[hit[~shapely.touches(poly, sub[hit])]]] = True
        return out

    def obscuring_near_segment(self, a: tuple[float, float], b: tuple[float, float], reach: float) -> list[int]:
        """Obscuring pieces whose bounding circle comes within ``reach`` of segment a-b (a superset
        of the pieces any line in the segment's ``reach``-corridor can meet)."""
        tt = self._trees["obscuring"]
        if not tt.piece_ids:
            return []
        ax, ay = a
        dx, dy = b[0] - ax, b[1] - ay
        ll = dx * dx + dy * dy or 1.0
        px = tt.bcx - ax
        py = tt.bcy - ay
        t = (px * dx + py * dy) / ll
        np.clip(t, 0.0, 1.0, out=t)
        ex = px - t * dx
        ey = py - t * dy
        lim = tt.bcr + (reach + TOL)
        idx = np.flatnonzero(ex * ex + ey * ey <= lim * lim)
        return [tt.piece_ids[i] for i in idx.tolist()]

    def segment_enters(self, seg: tuple[tuple[float, float], tuple[float, float]], pid: int) -> bool:
        """One segment against one obscuring piece: does it enter the interior? (G2)"""
        tt = self._trees["obscuring"]
        k = tt.local[pid]
        planes = tt.py_planes[k]
        (ax, ay), (bx, by) = seg
        if planes is None:
            # the sure answers of `concave_enters`, one line at a time
            hull, tris = tt.py_concave[k]
            if not clip1(ax, ay, bx, by, hull):
                return False
            if any(clip1(ax, ay, bx, by, t) for t in tris):
                return True
            line = shapely.LineString([seg[0], seg[1]])
            g = tt.geoms[k]
            return bool(g.intersects(line) and not g.touches(line))
        return clip1(ax, ay, bx, by, planes)

    def separates(self, pid: int, seg1, seg2, discs) -> bool:
        """Convex obscuring piece ``pid``: both segments enter it and it keeps more than
        ``r + TOL`` (half-plane distance, a lower bound) from every ``(x, y, r)`` disc."""
        tt = self._trees["obscuring"]
        planes = tt.py_planes[tt.local[pid]]
        if planes is None:
            return False
        for x, y, r in discs:
            if max(nx * x + ny * y - c for nx, ny, c in planes) <= r + TOL:
                return False
        (ax, ay), (bx, by) = seg1
        if not clip1(ax, ay, bx, by, planes):
            return False
        (ax, ay), (bx, by) = seg2
        return clip1(ax, ay, bx, by, planes)

    def obscured(self, segments: np.ndarray, exclude: Iterable[int] = (), **kw) -> np.ndarray:
        """Boolean array: segment ``i`` is blocked by obscuring terrain (G2)."""
        out = np.zeros(len(segments), dtype=bool)
        pairs = self.obscuring_hits(segments, exclude, **kw)
        out[pairs[0]] = True
        return out

    # --- G4: placement -----------------------------------------------------------
    def impassable_overlapping(self, shape: Shape) -> list[TerrainPiece]:
        """Impassable pieces that ``shape`` overlaps with positive area (touching is allowed)."""
        return [self.pieces[i] for i in self.overlapping_ids("impassable", shape)]

    def overlapping_ids(self, trait: str, shape: Shape) -> list[int]:
        """Indices of pieces with ``trait`` that ``shape`` overlaps (positive area, exact)."""
        tt = self._trees[trait]
        if not tt.piece_ids:
            return []
        if isinstance(shape, Circle):
            x, y, r = shape.x, shape.y, shape.r
            cand = tt.grid.query(x - r, y - r, x + r, y + r)
            if not cand:
                return []
            out = []
            pt = None
            for k in cand:
                g = tt.geoms[k]
                if _contains_xy(g, x, y):
                    out.append(tt.piece_ids[k])
                    continue
                if pt is None:
                    pt = shapely.points((x, y))
                if g.distance(pt) < r - TOL:
                    out.append(tt.piece_ids[k])
            return sorted(out)
        minx, miny, maxx, maxy = shape.bounds
        cand = tt.grid.query(minx, miny, maxx, maxy)
        out = []
        for k in cand:
            g = tt.geoms[k]
            if g.intersects(shape) and not g.touches(shape) and g.intersection(shape).area > TOL * TOL:
                out.append(tt.piece_ids[k])
        return sorted(out)

    def containing(self, point: tuple[float, float]) -> list[TerrainPiece]:
        """Pieces whose polygon covers ``point`` (boundary counts)."""
        return [self.pieces[i] for i in self.containing_ids(point)]

    def containing_ids(self, point: tuple[float, float], trait: str | None = None) -> list[int]:
        """Indices (into :attr:`pieces`) of pieces covering ``point``, optionally only with ``trait``."""
        tt = self._all if trait is None else self._trees[trait]
        x, y = float(point[0]), float(point[1])
        cand = tt.grid.query(x, y, x, y)
        return sorted(tt.piece_ids[k] for k in cand if _intersects_xy(tt.geoms[k], x, y))

    def in_cover(self, circle: Circle) -> bool:
        """True when the base overlaps, or lies within, a piece with the "cover" trait."""
        return bool(self.overlapping_ids("cover", circle))
