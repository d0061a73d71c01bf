"""Placement legality: may this base or footprint stand here? (G3, G4, M10, E1)

G4: nothing may be set up or end a move overlapping another base, impassable
terrain or the battlefield edge (touching the edge is edge contact, G3, and so
not allowed); models never end on a manifestation.  Touching another base or a
terrain piece exactly is allowed (overlap needs positive area, ``TOL`` slack).
"""

from __future__ import annotations

from collections.abc import Collection, Sequence

import shapely

from .measure import TOL, overlaps, touches_edge
from .nearby import BaseIndex
from .problem import Problem
from .shapes import Circle, Shape
from .terrain import TerrainIndex

_contains_xy = shapely.lib.contains_xy_scalar

__all__ = ["placement_problems", "edge_problem"]


def edge_problem(shape: Shape, width: float, height: float) -> str | None:
    """G3: a human-readable edge-contact reason, or None when clear of all four edges."""
    if not touches_edge(shape, width, height):
        return None
    if isinstance(shape, Circle):
        circle_gaps = [
            (shape.x, "left", "x"),
            (width - shape.x, "right", "x"),
            (shape.y, "bottom", "y"),
            (height - shape.y, "top", "y"),
        ]
        g, side, axis = min(circle_gaps, key=lambda t: t[0] - shape.r)
        return Problem(
            f'touches the battlefield edge ({axis}={g:.2f}" from the {side} edge, radius {shape.r:.2f}")',
            "edge",
            "G3",
            side=side,
            axis=axis,
            gap=g,
            radius=shape.r,
        )
    minx, miny, maxx, maxy = shape.bounds
    gaps = [(minx, "left"), (width - maxx, "right"), (miny, "bottom"), (height - maxy, "top")]
    g, side = min(gaps)
    return Problem(
        f'touches the battlefield edge (footprint reaches {g:.2f}" from the {side} edge)',
        "edge",
        "G3",
        side=side,
        gap=g,
    )


def placement_problems(
    shape: Shape,
    *,
    width: float,
    height: float,
    terrain: TerrainIndex,
    bases: Sequence[Circle] | BaseIndex,
    manifestations: Sequence[Shape] = (),
    ignore: Collection[int] = (),
    ignore_manifestations: Collection[int] = (),
) -> list[str]:
    """G4: every reason ``shape`` may not stand where it is; an empty list means legal.

    ``bases`` is already filtered by the caller (not the moving model itself);
    ``ignore`` and ``ignore_manifestations`` skip further indices (e.g. the
    manifestation being moved).  Pass a :class:`BaseIndex` for the fast path; a
    plain sequence is converted on each call.  Reasons look like
    ``overlaps base 3 (0.42" overlap)``, ``overlaps impassable terrain 'Basalt Spire'``,
    ``touches the battlefield edge (...)`` and ``ends on manifestation 1``.
    """
    problems: list[str] = []
    edge = edge_problem(shape, width, height)
    if edge:
        problems.append(edge)
    if len(bases):
        index = bases if isinstance(bases, BaseIndex) else BaseIndex(bases)
        idx, depth = index.overlapping(shape)
        for i, dep in zip(idx.tolist(), depth.tolist()):
            if i not in ignore:
                problems.append(
                    Problem(f'overlaps base {i} ({dep:.2f}" overlap)', "overlap_base", "G4", base=i, depth=dep)
                )
    if len(terrain):
        for piece in terrain.impassable_overlapping(shape):
            problems.append(
                Problem(f"overlaps impassable terrain {piece.name!r}", "on_terrain", "G4", terrain=piece.name)
            )
    pt = None
    for j, m in enumerate(manifestations):
        if j in ignore_manifestations:
            continue
        if isinstance(shape, Circle) and not isinstance(m, Circle):
            # exact circle-vs-polygon overlap with one shared point geometry
            if _contains_xy(m, shape.x, shape.y):
                hit = True
            else:
                if pt is None:
                    pt = shapely.points((shape.x, shape.y))
                hit = m.distance(pt) < shape.r - TOL
        else:
            hit = overlaps(shape, m)
        if hit:
            problems.append(Problem(f"ends on manifestation {j}", "on_manifestation", "G4", index=j))
    return problems
