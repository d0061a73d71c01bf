"""Shared random-board helpers for the geometry tests (not a test module)."""

import math

import numpy as np
import shapely

from game.geometry import Circle, TerrainIndex, TerrainPiece


def convex_piece(rng, cx, cy, size, name, traits=("obscuring",)):
    k = int(rng.integers(4, 8))
    ang = np.sort(rng.uniform(0, 2 * math.pi, k))
    rad = rng.uniform(0.6, 1.0, k) * size / 2
    poly = shapely.Polygon(np.column_stack([cx + rad * np.cos(ang), cy + rad * np.sin(ang)])).convex_hull
    return TerrainPiece(name, poly, frozenset(traits))


def board(seed, n_terrain=8, n_models=10, w=30.0, h=20.0, traits=("obscuring",)):
    rng = np.random.default_rng(seed)
    pieces = [
        convex_piece(rng, rng.uniform(2, w - 2), rng.uniform(2, h - 2), rng.uniform(1.5, 5), f"T{i}", traits)
        for i in range(n_terrain)
    ]
    models = [Circle(float(rng.uniform(1, w - 1)), float(rng.uniform(1, h - 1)), 0.63) for _ in range(n_models)]
    return TerrainIndex(pieces), models


def seg_enters_poly(a, b, poly, slack=1e-6):
    """Independent exact check with shapely: the segment's part inside the polygon is longer than slack."""
    line = shapely.LineString([a, b])
    if not poly.intersects(line):
        return False
    return poly.intersection(line).length > slack


def seg_circle_distance(a, b, c):
    (ax, ay), (bx, by) = a, b
    dx, dy = bx - ax, by - ay
    ll = dx * dx + dy * dy
    t = 0.0 if ll == 0 else max(0.0, min(1.0, ((c.x - ax) * dx + (c.y - ay) * dy) / ll))
    return math.hypot(c.x - ax - t * dx, c.y - ay - t * dy)
