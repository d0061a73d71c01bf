"""Exact time of first contact for a round base moving in a straight line (G4).

This is the analytic authority behind :mod:`game.geometry.path` (where a moving base stops,
which the rules ask alone) and so behind :mod:`game.physics.move`, where pymunk proposes and
this checks.  Everything is closed-form and vectorised:

- against a base: the smallest root of ``|s + t*d - c|^2 = (r + rb)^2``;
- against a polygon edge: the time the circle's centre reaches distance ``r`` from
  the edge's line with its foot inside the edge, or from an edge end (a root as
  for a base of radius 0);
- against the battlefield edge: the time ``x - r`` (etc.) reaches 0.

Conventions (documented decisions):

- A *contact* only counts if the motion goes on to penetrate: a path that merely
  grazes an obstacle (closest approach ``>= R - TOL``) is clear, so touching is
  allowed, as in G4 placement.
- Obstacles the base already overlaps at the start are ignored (the start is
  assumed legal; this lets a misplaced model move out).  An obstacle exactly
  touching at the start blocks at ``t = 0`` only if the motion heads into it.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from shapely import Polygon

from .measure import TOL

__all__ = ["Contact", "first_contact", "polygon_edges", "circle_toi", "edge_toi"]


@dataclass(frozen=True)
class Contact:
    """Earliest contact along the path: ``t`` in [0, 1] (``inf`` if none) and what is hit."""

    t: float
    bases: tuple[int, ...] = ()
    edges: tuple[int, ...] = ()  # indices into the edge array given
    battlefield_edge: bool = False


def polygon_edges(polys: Sequence[Polygon]) -> tuple[np.ndarray, np.ndarray]:
    """All ring edges of ``polys`` as an ``(m, 2, 2)`` array plus the owning polygon index."""
    segs, owner = [], []
    for k, poly in enumerate(polys):
        for ring in (poly.exterior, *poly.interiors):
            c = np.asarray(ring.coords, dtype=float)
            e = np.stack([c[:-1], c[1:]], axis=1)
            segs.append(e)
            owner.append(np.full(len(e), k, dtype=np.intp))
    if not segs:
        return np.empty((0, 2, 2)), np.empty(0, dtype=np.intp)
    return np.concatenate(segs), np.concatenate(owner)


def circle_toi(sx: float, sy: float, dx: float, dy: float, cx: np.ndarray, cy: np.ndarray, R: np.ndarray) -> np.ndarray:
    """Per obstacle: first ``t`` in [0, 1] where the moving point comes within ``R`` of
    ``(cx, cy)`` and goes on to penetrate; ``inf`` if never (vectorised)."""
    out = np.full(len(cx), np.inf)
    a = dx * dx + dy * dy
    if a == 0.0 or len(cx) == 0:
        return out
    fx = sx - cx
    fy = sy - cy
    b = fx * dx + fy * dy  # half of the usual b
    c0 = fx * fx + fy * fy - R * R
    # closest approach on the segment
    tc = np.clip(-b / a, 0.0, 1.0)
    qx = fx + tc * dx
    qy = fy + tc * dy
    closest = np.sqrt(qx * qx + qy * qy)
    start_d = np.sqrt(fx * fx + fy * fy)
    cand = (closest < R - TOL) & (start_d >= R - TOL) & (b < 0.0)
    if not cand.any():
        return out
    disc = np.maximum(b[cand] * b[cand] - a * c0[cand], 0.0)
    t = (-b[cand] - np.sqrt(disc)) / a
    out[cand] = np.clip(t, 0.0, 1.0)
    return out


def edge_toi(sx: float, sy: float, dx: float, dy: float, r: float, segs: np.ndarray) -> np.ndarray:
    """Per segment: first ``t`` in [0, 1] where a circle of radius ``r`` moving from
    ``s`` by ``d`` touches the segment and goes on to penetrate; ``inf`` if never."""
    m = len(segs)
    out = np.full(m, np.inf)
    if m == 0 or (dx == 0.0 and dy == 0.0):
        return out
    a = segs[:, 0, :]
    b = segs[:, 1, :]
    e = b - a
    L = np.hypot(e[:, 0], e[:, 1])
    ok = L > 0
    ux = np.where(ok, e[:, 0] / np.where(ok, L, 1.0), 0.0)
    uy = np.where(ok, e[:, 1] / np.where(ok, L, 1.0), 0.0)
    nx, ny = -uy, ux
    h0 = (sx - a[:, 0]) * nx + (sy - a[:, 1]) * ny
    vn = dx * nx + dy * ny
    sgn = np.sign(h0)
    # approaching the line from outside the r-band
    appr = ok & (np.abs(h0) >= r - TOL) & (sgn * vn < 0)
    # inf * 0 gives nan and huge t overflow for segments that are never reached; `appr` masks them
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        t = (np.abs(h0) - r) / (-sgn * vn)
        t = np.where(appr, np.maximum(t, 0.0), np.inf)
        px = sx + t * dx
        py = sy + t * dy
        s_along = (px - a[:, 0]) * ux + (py - a[:, 1]) * uy
    inside = appr & (t < 1.0) & (s_along >= 0.0) & (s_along <= L)
    # (a contact exactly at t == 1 is only touching, so it is excluded above)
    out[inside] = t[inside]
    # the two ends as points of radius 0
    R = np.full(m, r)
    t0 = circle_toi(sx, sy, dx, dy, a[:, 0], a[:, 1], R)
    t1 = circle_toi(sx, sy, dx, dy, b[:, 0], b[:, 1], R)
    return np.minimum(out, np.minimum(t0, t1))


def _battlefield_toi(sx, sy, dx, dy, r, width, height) -> float:
    t = math.inf
    for p, v, lo, hi in ((sx, dx, 0.0, width), (sy, dy, 0.0, height)):
        if v < 0 and p - r > lo - TOL:
            t = min(t, max(0.0, (p - r - lo) / -v))
        elif v > 0 and p + r < hi + TOL:
            t = min(t, max(0.0, (hi - p - r) / v))
    return t if t <= 1.0 else math.inf


def first_contact(
    start: tuple[float, float],
    end: tuple[float, float],
    radius: float,
    *,
    bx: np.ndarray,
    by: np.ndarray,
    br: np.ndarray,
    edges: np.ndarray,
    width: float | None,
    height: float | None,
) -> Contact:
    """Earliest contact of a base of ``radius`` moving ``start -> end`` with the given
    bases (arrays), polygon edges (``(m, 2, 2)``) and, if ``width`` is given, the
    battlefield edge.  Ties within 1e-9 of ``t`` are all reported."""
    sx, sy = start
    dx, dy = end[0] - sx, end[1] - sy
    tb = circle_toi(sx, sy, dx, dy, bx, by, br + radius) if len(bx) else np.empty(0)
    te = edge_toi(sx, sy, dx, dy, radius, edges) if len(edges) else np.empty(0)
    tf = _battlefield_toi(sx, sy, dx, dy, radius, width, height) if width is not None else math.inf
    t = min(tb.min(initial=math.inf), te.min(initial=math.inf), tf)
    if not math.isfinite(t):
        return Contact(math.inf)
    eps = 1e-9
    return Contact(
        t,
        tuple(np.flatnonzero(tb <= t + eps).tolist()),
        tuple(np.flatnonzero(te <= t + eps).tolist()),
        tf <= t + eps,
    )


# --- scalar versions for the handful of candidates a single move meets -------------


def circle_toi1(sx: float, sy: float, dx: float, dy: float, cx: float, cy: float, R: float) -> float:
    """Scalar :func:`circle_toi` for one obstacle (faster than numpy for a few)."""
    a = dx * dx + dy * dy
    if a == 0.0:
        return math.inf
    fx, fy = sx - cx, sy - cy
    b = fx * dx + fy * dy
    if b >= 0.0:
        return math.inf
    if math.hypot(fx, fy) < R - TOL:
        return math.inf  # overlapping at the start: ignored
    tc = min(1.0, -b / a)
    if math.hypot(fx + tc * dx, fy + tc * dy) >= R - TOL:
        return math.inf  # grazes at most
    c0 = fx * fx + fy * fy - R * R
    t = (-b - math.sqrt(max(b * b - a * c0, 0.0))) / a
    return min(1.0, max(0.0, t))


def segment_toi1(
    sx: float, sy: float, dx: float, dy: float, r: float, ax: float, ay: float, bx: float, by: float
) -> float:
    """Scalar :func:`edge_toi` for one segment ``a-b``."""
    t_end = min(circle_toi1(sx, sy, dx, dy, ax, ay, r), circle_toi1(sx, sy, dx, dy, bx, by, r))
    ex, ey = bx - ax, by - ay
    L = math.hypot(ex, ey)
    if L == 0.0:
        return t_end
    ux, uy = ex / L, ey / L
    nx, ny = -uy, ux
    h0 = (sx - ax) * nx + (sy - ay) * ny
    vn = dx * nx + dy * ny
    if abs(h0) < r - TOL or h0 * vn >= 0.0 or (h0 == 0.0):
        return t_end
    t = max(0.0, (abs(h0) - r) / abs(vn))
    if t >= 1.0:
        return t_end  # touches only at the very end: no penetration
    s_along = (sx + t * dx - ax) * ux + (sy + t * dy - ay) * uy
    if 0.0 <= s_along <= L:
        return min(t, t_end)
    return t_end


def segment_distance1(px: float, py: float, ax: float, ay: float, bx: float, by: float) -> float:
    """Exact distance from a point to the segment a-b."""
    ex, ey = bx - ax, by - ay
    ll = ex * ex + ey * ey
    t = 0.0 if ll == 0.0 else min(1.0, max(0.0, ((px - ax) * ex + (py - ay) * ey) / ll))
    return math.hypot(px - ax - t * ex, py - ay - t * ey)
