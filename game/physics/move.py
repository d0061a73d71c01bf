"""Collision-aware movement of a round base along a straight path (G4, M10, E1).

Geometry decides, pymunk is the broad phase and the cross-check.  What was chosen
and why (measured on this shared 2-core machine, see bench/bench_geometry.py):
``Shape.segment_query`` costs ~6 µs per candidate and a ``pymunk.Circle`` ~11 µs
to create, so querying pymunk for every candidate put one move at ~190 µs against
a 100 µs budget, and pymunk also reports exact grazes as hits (normal . d a hair
below 0).  So:

1. Broad phase.  Bases: one numpy distance pass, then the exact closest approach of
   the path per candidate.  Terrain and battlefield edges: pymunk ``Space.bb_query``
   over a cached static world (see :mod:`game.physics.world`) with the path's
   bounding box widened by the radius.  (``Space.segment_query_first`` is NOT used:
   it misses glancing contacts, Chipmunk2D#138.)
2. Exact contact time for every candidate in closed form
   (:mod:`game.geometry.sweep`): this is the authority.
3. Cross-check: pymunk ``Shape.segment_query(a, b, radius)`` on every decisive
   contact (the obstacles touched first), ignoring hits whose
   ``normal . direction >= 0`` (moving away / sliding along).  A proposal more than
   1e-6" from the exact answer is counted in :data:`STATS` (tests assert it stays
   at zero on legal random moves; the benchmark prints it).
4. The stop point is backed off along the path so the base ends touching-not-
   overlapping, rounded to 1e-6", and verified with exact maths; if rounding left
   it overlapping by more than ``TOL`` the back-off doubles until it is clean.

Decisions: the start is assumed legal (obstacles already overlapped at the start
are ignored, so a misplaced model can move out); touching is allowed, grazing past
an obstacle does not stop the move, but the battlefield edge stops the base before
it reaches the edge (touching the edge is edge contact, G3).  ``fly=True`` ignores
bases and terrain, never the edge.  ``passable`` bases (e.g. friendly models, and
manifestations are never passed at all) may be crossed; whether the END is legal
on top of something passable is reported in ``end_problems`` - the caller decides.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Collection, Sequence

import pymunk
from shapely import Polygon

from game.geometry.measure import TOL
from game.geometry.nearby import BaseIndex
from game.geometry.shapes import Circle
from game.geometry.sweep import circle_toi1, segment_distance1, segment_toi1

from .world import BASE_BODY, static_world

__all__ = ["MoveResult", "move_base", "move_along", "STATS"]

Point2 = tuple[float, float]

ROUND = 6
"""Decimal places (inches) results are rounded to: 1e-6"."""
BACKOFF = 2e-6
"""Initial back-off (inches along the path) from the first contact."""
AGREE = 1e-6
"""pymunk and the exact solver must agree on the contact point within this many inches."""

_PROBE = pymunk.Circle(BASE_BODY, 1.0)

STATS = {"moves": 0, "pymunk_disagreements": 0}
"""Counters for tests and the benchmark: how often the exact solver overruled pymunk."""


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


def move_base(
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
    STATS["moves"] += 1
    sx, sy = float(start[0]), float(start[1])
    ex, ey = float(end[0]), float(end[1])
    dx, dy = ex - sx, ey - sy
    L = math.hypot(dx, dy)
    if L == 0.0:
        s = (round(sx, ROUND), round(sy, ROUND))
        return MoveResult(s, 0.0, False, (), "no movement")
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
    world = static_world(() if fly else impassable, width, height)
    pad = r + 1e-6
    shapes = world.candidates(min(sx, ex) - pad, min(sy, ey) - pad, max(sx, ex) + pad, max(sy, ey) + pad)

    # --- exact contact times (the authority) ------------------------------------------
    hits: list[tuple[float, object]] = []  # (exact t, pymunk shape or base tuple)
    for cb in cand_bases:
        hits.append((circle_toi1(sx, sy, dx, dy, cb[1], cb[2], cb[3] + r), cb))
    for shape in shapes:
        ax, ay, qx, qy, label = shape.ends
        if label == "edge":
            hits.append((_edge_toi(sx, sy, dx, dy, r, ax, ay, qx, qy), shape))
        else:
            hits.append((segment_toi1(sx, sy, dx, dy, r, ax, ay, qx, qy), shape))

    t = min((h[0] for h in hits), default=math.inf)
    if not math.isfinite(t):
        t_stop, touched, blocked = 1.0, (), False
    else:
        decisive = [h for h in hits if h[0] <= t + 1e-9 / L]
        touched = tuple(dict.fromkeys(_label(h[1], impassable_names) for h in decisive))
        t_stop, blocked = t, True
        # --- pymunk cross-check of every decisive contact -------------------------------
        _cross_check(decisive, (sx, sy), (ex, ey), r, dx, dy, L)

    # --- back off, round, verify --------------------------------------------------------
    backoff = BACKOFF if blocked else 0.0
    for _ in range(40):
        tt = max(0.0, t_stop - backoff / L)
        px, py = round(sx + tt * dx, ROUND), round(sy + tt * dy, ROUND)
        if tt == 0.0:
            px, py = round(sx, ROUND), round(sy, ROUND)
        if not blocked or _end_clear(px, py, r, cand_bases, shapes, width, height, sx, sy):
            break
        backoff = max(backoff * 2.0, 1e-6)
    else:  # pragma: no cover - would need a pathological input
        px, py = round(sx, ROUND), round(sy, ROUND)
    if not blocked and not _end_clear(px, py, r, cand_bases, shapes, width, height, sx, sy):
        # rounding the unobstructed end landed a hair inside something: step back
        backoff = 1e-6
        while backoff < 1e-3:
            tt = max(0.0, 1.0 - backoff / L)
            px, py = round(sx + tt * dx, ROUND), round(sy + tt * dy, ROUND)
            if _end_clear(px, py, r, cand_bases, shapes, width, height, sx, sy):
                break
            backoff *= 2.0

    travelled = round(math.hypot(px - sx, py - sy), ROUND)
    end_problems = tuple(
        f'overlaps base {i} ({(rb + r) - math.hypot(px - cx, py - cy):.2f}" overlap)'
        for i, cx, cy, rb in end_bases
        if math.hypot(px - cx, py - cy) < rb + r - TOL
    )
    if fly and impassable:
        from game.geometry.measure import overlaps

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
    return MoveResult((px, py), travelled, blocked, touched, reason, end_problems)


def _pymunk_alpha(info, dx: float, dy: float) -> float:
    if info is None or info.shape is None:
        return math.inf
    n = info.normal
    if n.x * dx + n.y * dy >= 0.0:
        return math.inf  # moving away from (or along) a contact
    return float(info.alpha)


def _label(obj, names: Sequence[str]) -> str:
    if isinstance(obj, tuple):
        return f"base:{obj[0]}"
    k = obj.ends[4]
    if k == "edge":
        return "edge"
    return f"terrain:{names[k] if k < len(names) else k}"


def _cross_check(decisive, a: Point2, b: Point2, r: float, dx: float, dy: float, L: float) -> None:
    """pymunk ``Shape.segment_query(a, b, r)`` on each decisive contact; count in
    :data:`STATS` every proposal more than AGREE inches away from the exact answer."""
    for t_ex, obj in decisive:
        if isinstance(obj, tuple):
            _i, cx, cy, rb = obj
            shape = _PROBE  # one reusable probe circle: only its geometry is ever read
            shape.unsafe_set_radius(rb)
            shape.unsafe_set_offset((cx, cy))
            shape.cache_bb()
        else:
            shape = obj
        t_pm = _pymunk_alpha(shape.segment_query(a, b, r), dx, dy)
        if math.isinf(t_pm) or abs(t_pm - t_ex) * L > AGREE:
            STATS["pymunk_disagreements"] += 1


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


def _end_clear(px, py, r, cand_bases, shapes, width, height, sx, sy) -> bool:
    """Exact check that a stop point overlaps no candidate obstacle (G4) and is off the edge (G3)."""
    for _i, cx, cy, rb in cand_bases:
        if math.hypot(px - cx, py - cy) < rb + r - TOL and math.hypot(sx - cx, sy - cy) >= rb + r - TOL:
            return False
    for shape in shapes:
        ax, ay, bx, by, label = shape.ends
        if label == "edge":
            continue
        if segment_distance1(px, py, ax, ay, bx, by) < r - TOL and segment_distance1(sx, sy, ax, ay, bx, by) >= r - TOL:
            return False
    inside = (px - r > TOL) and (py - r > TOL) and (px + r < width - TOL) and (py + r < height - TOL)
    start_inside = (sx - r > TOL) and (sy - r > TOL) and (sx + r < width - TOL) and (sy + r < height - TOL)
    return inside or not start_inside


def move_along(
    start: Point2,
    waypoints: Sequence[Point2],
    radius: float,
    **kw,
) -> MoveResult:
    """Move through ``waypoints`` in turn with :func:`move_base`, stopping at the first block.

    ``travelled`` is the total over all legs; keyword arguments are passed through.
    """
    pos = (float(start[0]), float(start[1]))
    total = 0.0
    res = MoveResult(pos, 0.0, False, (), "no movement")
    for wp in waypoints:
        res = move_base(pos, wp, radius, **kw)
        total += res.travelled
        pos = res.end
        if res.blocked:
            break
    return MoveResult(res.end, round(total, ROUND), res.blocked, res.touched, res.reason, res.end_problems)
