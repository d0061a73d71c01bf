"""Collision-aware movement of a round base along a straight path (G4, M10, E1): pymunk proposes.

The rule is decided in geometry (:mod:`game.geometry.path`, which ``game.rules`` uses alone);
this adapter runs the same exact solver on the candidates pymunk's broad phase proposes and
cross-checks the decisive contacts with pymunk, for the UI's drags and previews. What was chosen
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
   (:func:`game.geometry.path.solve_move`, :mod:`game.geometry.sweep`): this is the authority.
3. Cross-check: pymunk ``Shape.segment_query(a, b, radius)`` on every decisive
   contact (the obstacles touched first), ignoring hits whose
   ``normal . direction >= 0`` (moving away / sliding along).  A proposal more than
   1e-6" from the exact answer is counted in :data:`STATS` (tests assert it stays
   at zero on legal random moves; the benchmark prints it).
4. The stop point is backed off, rounded and verified in geometry (see
   :mod:`game.geometry.path`), so :func:`move_base` returns exactly what
   :func:`game.geometry.path.sweep_move` returns for the same move.

The conventions (start assumed legal, touching allowed, grazing clear, the edge stops the
base before it, ``fly``, ``passable``, ``end_problems``) are those of :mod:`game.geometry.path`.
"""

from __future__ import annotations

import math
from collections.abc import Collection, Sequence

import pymunk
from shapely import Polygon

from game.geometry.nearby import BaseIndex
from game.geometry.path import ROUND, MoveResult, solve_move
from game.geometry.shapes import Circle

from .world import BASE_BODY, static_world

__all__ = ["MoveResult", "move_base", "move_along", "STATS"]

Point2 = tuple[float, float]

AGREE = 1e-6
"""pymunk and the exact solver must agree on the contact point within this many inches."""

_PROBE = pymunk.Circle(BASE_BODY, 1.0)

STATS = {"moves": 0, "pymunk_disagreements": 0}
"""Counters for tests and the benchmark: how often the exact solver overruled pymunk."""


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
    The same answer as :func:`game.geometry.path.sweep_move`, with pymunk's broad phase
    and its cross-check.
    """
    STATS["moves"] += 1
    world = static_world(() if fly else impassable, width, height)
    found: dict[int, pymunk.Shape] = {}

    def candidates(minx: float, miny: float, maxx: float, maxy: float) -> list:
        shapes = world.candidates(minx, miny, maxx, maxy)
        found.update((id(s.ends), s) for s in shapes)
        return [s.ends for s in shapes]

    res, decisive = solve_move(
        start,
        end,
        radius,
        bases=bases,
        candidates=candidates,
        impassable=impassable,
        width=width,
        height=height,
        fly=fly,
        passable=passable,
        impassable_names=impassable_names,
    )
    if decisive:
        sx, sy = float(start[0]), float(start[1])
        ex, ey = float(end[0]), float(end[1])
        dx, dy = ex - sx, ey - sy
        _cross_check(decisive, found, (sx, sy), (ex, ey), float(radius), dx, dy, math.hypot(dx, dy))
    return res


def _pymunk_alpha(info, dx: float, dy: float) -> float:
    if info is None or info.shape is None:
        return math.inf
    n = info.normal
    if n.x * dx + n.y * dy >= 0.0:
        return math.inf  # moving away from (or along) a contact
    return float(info.alpha)


def _cross_check(decisive, shapes: dict, a: Point2, b: Point2, r: float, dx: float, dy: float, L: float) -> None:
    """pymunk ``Shape.segment_query(a, b, r)`` on each decisive contact; count in
    :data:`STATS` every proposal more than AGREE inches away from the exact answer."""
    for t_ex, obj in decisive:
        if len(obj) == 4:  # a base: (index, x, y, r)
            _i, cx, cy, rb = obj
            shape = _PROBE  # one reusable probe circle: only its geometry is ever read
            shape.unsafe_set_radius(rb)
            shape.unsafe_set_offset((cx, cy))
            shape.cache_bb()
        else:
            shape = shapes[id(obj)]
        t_pm = _pymunk_alpha(shape.segment_query(a, b, r), dx, dy)
        if math.isinf(t_pm) or abs(t_pm - t_ex) * L > AGREE:
            STATS["pymunk_disagreements"] += 1


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
