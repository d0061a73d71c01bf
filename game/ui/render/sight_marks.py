"""The sight line mark (G2): solid when the target is seen; dashed, with a cross where the line
is first blocked, when it is not, so a player who cannot tell the two colours apart still reads it."""

from __future__ import annotations

import shapely

from game.ui import theme
from game.ui.render.overlays import Line

Seg = tuple[tuple[float, float], tuple[float, float]]


def block_point(line: Seg, bases: list[tuple[float, float, float]], terrain: list) -> tuple[float, float]:
    """Where `line` first meets a blocker: a base (x, y, r) or a terrain piece (points), inches.
    The middle of the line when none is met (the engine said it is blocked; we only place the mark)."""
    a, b = line
    seg = shapely.LineString([a, b])
    start = shapely.Point(a)
    shapes = [shapely.Point(x, y).buffer(r, quad_segs=16) for x, y, r in bases]
    shapes += [shapely.Polygon(t.points) for t in terrain]
    best: tuple[float, tuple[float, float]] | None = None
    for sh in shapes:
        hit = seg.intersection(sh)
        if hit.is_empty:
            continue
        d = start.distance(hit)
        if best is None or d < best[0]:
            p = seg.interpolate(seg.project(start) + d) if d > 0 else start
            best = (d, (p.x, p.y))
    if best is None:
        return ((a[0] + b[0]) / 2, (a[1] + b[1]) / 2)
    return best[1]


def sight_mark(line: Seg, visible: bool, bases=(), terrain=()) -> Line:
    """The G2 sight line as an overlay mark: solid if `visible`, else dashed and crossed."""
    if visible:
        return Line(line[0], line[1], theme.SIGHT_CLEAR, 3)
    at = block_point(line, list(bases), list(terrain))
    return Line(line[0], line[1], theme.SIGHT_BLOCKED, 3, dashed=True, cross=at)
