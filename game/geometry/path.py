"""Where a round base moving along a straight path stops, decided in geometry alone (G4).

This is the rule's authority. ``game.rules`` asks :func:`sweep_move` whether a model's path is
clear; the physics layer (:mod:`game.physics.move`) runs the same solver on the candidates that
pymunk's broad phase proposes, cross-checks the decisive contacts with pymunk, and so returns
the same answer (its tests hold it to that). No pymunk here.

1. Broad phase. Bases: one numpy distance pass (:meth:`BaseIndex.near_segment`), then the exact
   closest approach of the path to each candidate. Terrain and battlefield edges: a
   bounding-box test over a cached array of every edge (:func:`edge_set`), the box of the path
   widened by the radius, inclusive (the same set pymunk's ``bb_query`` gives, or a superset by
   boxes that only touch, which cannot change the answer).
2. Exact contact time for every candidate in closed form (:mod:`game.geometry.sweep`).
3. The stop point is backed off along the path so the base ends touching-not-overlapping,
   rounded to 1e-6", and verified with exact maths; if rounding left it overlapping by more than
   ``TOL`` the back-off doubles until it is clean.

Decisions (G4): the start is assumed legal (obstacles already overlapped at the start are
ignored, so a misplaced model can move out); touching is allowed and grazing past an obstacle
does not stop the move, but the battlefield edge stops the base before it reaches the edge
(touching the edge is edge contact, G3). ``fly=True`` ignores bases and terrain, never the edge.
``passable`` bases (friendly models) may be crossed; whether the END is legal on top of
something passable is reported in ``end_problems``: the caller decides. Manifestations are not
obstacles for paths (M10, E1).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass

import numpy as np
from shapely import Polygon

from .measure import TOL, overlaps
from .nearby import BaseIndex
from .polygon_cache import PolygonCache
from .shapes import Circle
from .sweep import circle_toi1, polygon_edges, segment_distance1, segment_toi1

__all__ = ["MoveResult", "EdgeSet", "edge_set", "sweep_move", "solve_move", "Segment"]

Point2 = tuple[float, float]
Segment = tuple[float, float, float, float, "int | str"]
"""An obstacle edge ``(ax, ay, bx, by, label)``: label is the polygon's index, or ``"edge"``
for a side of the battlefield."""
Candidates = Callable[[float, float, float, float], Sequence[Segment]]

ROUND = 6
"""Decimal places (inches) results are rounded to: 1e-6"."""
BACKOFF = 2e-6
"""Initial back-off (inches along the path) from the first contact."""


@dataclass(frozen=True)
class MoveResult:
    """Where a moving base stopped (G4).

    ``touched``: obstacles met first, e.g. ``"base:3"``, ``"terrain:Basalt Spire"``
    (or ``"terrain:<index>"`` without names), ``"edge"``.  ``end_problems``: exact
    reasons the end point is not a legal final position even though the path was
    allowed (ends on a passable base, or a flyer ends on a base or on terrain).
    """

    end: Point2
    travelled: float
    blocked: bool
    touched: tuple[str, ...]
    reason: str
    end_problems: tuple[str, ...] = ()


class EdgeSet:
    """Every edge of the impassable polygons, then the four battlefield sides, as
    :data:`Segment` tuples of plain floats (``ends``, in that order), grouped by polygon with
    bounding boxes: a box query tests the polygons' boxes, then the edges of those it meets.
    (Measured: a flat numpy test of every edge's box costs 5-8 µs a query whatever the board;
    this costs ~1 µs on the shipped maps' few pieces. Past `_MANY` groups their boxes go
    through numpy.)"""

    _MANY = 40

    def __init__(self, polys: Sequence[Polygon], width: float, height: float) -> None:
        self.polys = tuple(polys)  # held so that the cache's ids cannot be recycled
        edges, owner = polygon_edges(self.polys)
        ends: list[Segment] = [(a[0], a[1], b[0], b[1], k) for (a, b), k in zip(edges.tolist(), owner.tolist())]
        corners = [(0.0, 0.0), (width, 0.0), (width, height), (0.0, height)]
        sides: list[Segment] = [(a[0], a[1], b[0], b[1], "edge") for a, b in zip(corners, corners[1:] + corners[:1])]
        self.ends = ends + sides
        members: dict = {}
        for seg in self.ends:  # polygons in order, then each side of the battlefield on its own
            members.setdefault(seg[4] if seg[4] != "edge" else ("edge", len(members)), []).append(
                (seg, min(seg[0], seg[2]), min(seg[1], seg[3]), max(seg[0], seg[2]), max(seg[1], seg[3]))
            )
        self.groups = [
            (min(m[1] for m in g), min(m[2] for m in g), max(m[3] for m in g), max(m[4] for m in g), g)
            for g in members.values()
        ]
        box = np.array([g[:4] for g in self.groups], dtype=float)
        self._box = box if len(self.groups) > self._MANY else None

    def candidates(self, minx: float, miny: float, maxx: float, maxy: float) -> list[Segment]:
        """Edges whose bounding box meets the given box (touching counts), in ``ends`` order."""
        groups = self.groups
        if self._box is not None:
            b = self._box
            near = np.flatnonzero((b[:, 0] <= maxx) & (b[:, 2] >= minx) & (b[:, 1] <= maxy) & (b[:, 3] >= miny))
            groups = [groups[i] for i in near.tolist()]
        out: list[Segment] = []
        for lx, ly, hx, hy, members in groups:
            if lx <= maxx and hx >= minx and ly <= maxy and hy >= miny:
                for seg, ax, ay, bx, by in members:
                    if ax <= maxx and bx >= minx and ay <= maxy and by >= miny:
                        out.append(seg)
        return out


edge_set: PolygonCache[EdgeSet] = PolygonCache(EdgeSet)
"""The cached :class:`EdgeSet` for a set of polygon objects and a board size."""


def sweep_move(
    start: Point2,
    end: Point2,
    radius: float,
    *,
    bases: Sequence[Circle] | BaseIndex,
    impassable: Sequence[Polygon],
    width: float,
    height: float,
    fly: bool = False,
    passable: Collection[int] = (),
    impassable_names: Sequence[str] = (),
) -> MoveResult:
    """G4: move a round base of ``radius`` from ``start`` straight towards ``end``.

    Returns the furthest point before the swept circle would overlap a base (not in
    ``passable``), impassable terrain, or touch the battlefield edge.  ``bases`` must
    not include the moving model.  Manifestations are not obstacles for paths.
    """
    edges = edge_set(() if fly else impassable, width, height)
    return solve_move(
        start,
        end,
        radius,
        bases=bases,
        candidates=edges.candidates,
        impassable=impassable,
        width=width,
        height=height,
        fly=fly,
        passable=passable,
        impassable_names=impassable_names,
    )[0]


def solve_move(
    start: Point2,
    end: Point2,
    radius: float,
    *,
    bases: Sequence[Circle] | BaseIndex,
    candidates: Candidates,
    impassable: Sequence[Polygon],
    width: float,
    height: float,
    fly: bool = False,
    passable: Collection[int] = (),
    impassable_names: Sequence[str] = (),
) -> tuple[MoveResult, list[tuple[float, tuple]]]:
    """:func:`sweep_move` with the terrain broad phase given: ``candidates(minx, miny, maxx,
    maxy)`` returns the obstacle edges (:data:`Segment`) whose boxes meet the path's box (it must
    return every edge that box meets; extra ones are harmless). Also returns the decisive
    contacts, ``(t, obstacle)`` with a base as ``(index, x, y, r)`` or an edge as its
    :data:`Segment`, for a caller that cross-checks them."""
    sx, sy = float(start[0]), float(start[1])
    ex, ey = float(end[0]), float(end[1])
    dx, dy = ex - sx, ey - sy
    L = math.hypot(dx, dy)
    if L == 0.0:
        s = (round(sx, ROUND), round(sy, ROUND))
        return MoveResult(s, 0.0, False, (), "no movement"), []
    r = float(radius)

    # --- candidates -----------------------------------------------------------------
    # numpy broad phase (one distance pass over all bases), then the exact closest
    # approach of the path per candidate; only real candidates go on.
    cand_bases: list[tuple[int, float, float, float]] = []
    end_bases: list[tuple[int, float, float, float]] = []  # passable/flown-over bases near the end
    if len(bases):
        index = bases if isinstance(bases, BaseIndex) else BaseIndex(bases)
        bx, by, br = index.arrays()
        for i in index.near_segment((sx, sy), (ex, ey), r + 1e-6).tolist():
            cx, cy, rb = float(bx[i]), float(by[i]), float(br[i])
            if segment_distance1(cx, cy, sx, sy, ex, ey) > r + rb + 1e-6:
                continue
            if fly or i in passable:
                end_bases.append((i, cx, cy, rb))
            else:
                cand_bases.append((i, cx, cy, rb))
    pad = r + 1e-6
    segs = candidates(min(sx, ex) - pad, min(sy, ey) - pad, max(sx, ex) + pad, max(sy, ey) + pad)

    # --- exact contact times -------------------------------------------------------------
    hits: list[tuple[float, tuple]] = []  # (exact t, base tuple or segment)
    for cb in cand_bases:
        hits.append((circle_toi1(sx, sy, dx, dy, cb[1], cb[2], cb[3] + r), cb))
    for seg in segs:
        ax, ay, qx, qy, label = seg
        if label == "edge":
            hits.append((_edge_toi(sx, sy, dx, dy, r, ax, ay, qx, qy), seg))
        else:
            hits.append((segment_toi1(sx, sy, dx, dy, r, ax, ay, qx, qy), seg))

    t = min((h[0] for h in hits), default=math.inf)
    decisive: list[tuple[float, tuple]] = []
    touched: tuple[str, ...]
    if not math.isfinite(t):
        t_stop, touched, blocked = 1.0, (), False
    else:
        decisive = [h for h in hits if h[0] <= t + 1e-9 / L]
        touched = tuple(dict.fromkeys(_label(h[1], impassable_names) for h in decisive))
        t_stop, blocked = t, True

    # --- back off, round, verify --------------------------------------------------------
    backoff = BACKOFF if blocked else 0.0
    for _ in range(40):
        tt = max(0.0, t_stop - backoff / L)
        px, py = round(sx + tt * dx, ROUND), round(sy + tt * dy, ROUND)
        if tt == 0.0:
            px, py = round(sx, ROUND), round(sy, ROUND)
        if not blocked or _end_clear(px, py, r, cand_bases, segs, width, height, sx, sy):
            break
        backoff = max(backoff * 2.0, 1e-6)
    else:  # pragma: no cover - would need a pathological input
        px, py = round(sx, ROUND), round(sy, ROUND)
    if not blocked and not _end_clear(px, py, r, cand_bases, segs, width, height, sx, sy):
        # rounding the unobstructed end landed a hair inside something: step back
        backoff = 1e-6
        while backoff < 1e-3:
            tt = max(0.0, 1.0 - backoff / L)
            px, py = round(sx + tt * dx, ROUND), round(sy + tt * dy, ROUND)
            if _end_clear(px, py, r, cand_bases, segs, width, height, sx, sy):
                break
            backoff *= 2.0

    travelled = round(math.hypot(px - sx, py - sy), ROUND)
    end_problems = tuple(
        f'overlaps base {i} ({(rb + r) - math.hypot(px - cx, py - cy):.2f}" overlap)'
        for i, cx, cy, rb in end_bases
        if math.hypot(px - cx, py - cy) < rb + r - TOL
    )
    if fly and impassable:
        me = Circle(px, py, r)
        for k, poly in enumerate(impassable):
            if overlaps(me, poly):
                nm = impassable_names[k] if k < len(impassable_names) else k
                end_problems += (f"overlaps impassable terrain {nm!r}",)
    if blocked:
        reason = f'blocked by {", ".join(touched)} after {travelled:.2f}" of {L:.2f}"'
    else:
        reason = "clear"
    if end_problems:
        reason += "; cannot end here: " + "; ".join(end_problems)
    return MoveResult((px, py), travelled, blocked, touched, reason, end_problems), decisive


def _label(obj: tuple, names: Sequence[str]) -> str:
    if len(obj) == 4:  # a base: (index, x, y, r)
        return f"base:{obj[0]}"
    k = obj[4]
    if k == "edge":
        return "edge"
    return f"terrain:{names[k] if k < len(names) else k}"


def _edge_toi(sx, sy, dx, dy, r, ax, ay, bx, by) -> float:
    # battlefield edge: contact (touching) is already illegal, so stop when the
    # circle reaches the edge line, moving towards it, anywhere along the side.
    if ax == bx:  # vertical side x = ax
        p, v = sx, dx
        inward = 1.0 if ax == 0.0 else -1.0
        line = ax
    else:
        p, v = sy, dy
        inward = 1.0 if ay == 0.0 else -1.0
        line = ay
    gap = (p - line) * inward - r  # > 0 when clear of the edge
    vel = v * inward
    if vel >= 0.0 or gap < -TOL:
        return math.inf
    t = max(0.0, gap / -vel)
    return t if t <= 1.0 else math.inf


def _end_clear(px, py, r, cand_bases, segs, width, height, sx, sy) -> bool:
    """Exact check that a stop point overlaps no candidate obstacle (G4) and is off the edge (G3)."""
    for _i, cx, cy, rb in cand_bases:
        if math.hypot(px - cx, py - cy) < rb + r - TOL and math.hypot(sx - cx, sy - cy) >= rb + r - TOL:
            return False
    for ax, ay, bx, by, label in segs:
        if label == "edge":
            continue
        if segment_distance1(px, py, ax, ay, bx, by) < r - TOL and segment_distance1(sx, sy, ax, ay, bx, by) >= r - TOL:
            return False
    inside = (px - r > TOL) and (py - r > TOL) and (px + r < width - TOL) and (py + r < height - TOL)
    start_inside = (sx - r > TOL) and (sy - r > TOL) and (sx + r < width - TOL) and (sy + r < height - TOL)
    return inside or not start_inside
