"""G2 for non-convex obscuring pieces (issue 24): `TerrainIndex.concave_enters` and its sure
answers (hull grown by TOL, triangles shrunk by TOL) say exactly what shapely's
intersects-and-not-touches says, for lines that cross, graze, run along an edge or along an
inner diagonal of the triangulation, or stop on the outline."""

import numpy as np
import shapely
from hypothesis import given, settings
from hypothesis import strategies as st

from game.geometry import TerrainIndex, TerrainPiece

# an L, a U (a deep notch) and a ring with a hole, the shapes a map's ruins take
SHAPES = {
    "L": shapely.Polygon([(0, 0), (4, 0), (4, 1), (1, 1), (1, 4), (0, 4)]),
    "U": shapely.Polygon([(0, 0), (5, 0), (5, 4), (4, 4), (4, 1), (1, 1), (1, 4), (0, 4)]),
    "ring": shapely.Polygon([(0, 0), (5, 0), (5, 5), (0, 5)], [[(1.5, 1.5), (3.5, 1.5), (3.5, 3.5), (1.5, 3.5)]]),
}


def _by_shapely(poly, segs: np.ndarray) -> np.ndarray:
    lines = shapely.linestrings(segs)
    return shapely.intersects(poly, lines) & ~shapely.touches(poly, lines)


def _points(poly) -> list[tuple[float, float]]:
    """Vertices and edge midpoints of every ring: lines between them run along edges and inner
    diagonals, where the boundary cases live."""
    rings = [poly.exterior, *poly.interiors]
    pts = [p for r in rings for p in r.coords[:-1]]
    pts += [((a[0] + b[0]) / 2, (a[1] + b[1]) / 2) for r in rings for a, b in zip(r.coords[:-1], r.coords[1:])]
    return pts


@settings(max_examples=120, deadline=None)
@given(
    shape=st.sampled_from(sorted(SHAPES)),
    seed=st.integers(0, 10**6),
    shift=st.sampled_from([0.0, 1e-10, -1e-10, 1e-6]),
)
def test_g2_concave_enters_is_shapelys_answer(shape, seed, shift):
    poly = SHAPES[shape]
    terrain = TerrainIndex([TerrainPiece("ruin", poly, frozenset({"obscuring"}))])
    rng = np.random.default_rng(seed)
    pts = np.array(_points(poly), dtype=float)
    n = 64
    # ends at outline points (edges, inner diagonals, touching lines) and at random points
    a = np.where(rng.random((n, 1)) < 0.6, pts[rng.integers(0, len(pts), n)], rng.uniform(-2, 7, (n, 2)))
    b = np.where(rng.random((n, 1)) < 0.6, pts[rng.integers(0, len(pts), n)], rng.uniform(-2, 7, (n, 2)))
    b = b + shift  # just off the outline, both ways
    segs = np.stack([a, b], axis=1)
    k = terrain._trees["obscuring"].local[0]
    got = terrain.concave_enters(k, segs)
    want = _by_shapely(poly, segs)
    assert (got == want).all(), segs[got != want]
    assert terrain.blocked_matrix(segs, [0])[:, 0].tolist() == want.tolist()
    for s, w in zip(segs[:8], want[:8]):
        assert terrain.segment_enters(((s[0, 0], s[0, 1]), (s[1, 0], s[1, 1])), 0) == bool(w)


def test_g2_lines_along_an_inner_diagonal_and_an_edge_are_decided_as_shapely_decides():
    poly = SHAPES["L"]
    terrain = TerrainIndex([TerrainPiece("ruin", poly, frozenset({"obscuring"}))])
    segs = np.array(
        [
            [(0.0, 0.0), (1.0, 1.0)],  # inside the L along the corner's diagonal: enters
            [(-1.0, 0.0), (5.0, 0.0)],  # along the bottom edge: touches only
            [(1.0, 1.0), (1.0, 4.0)],  # along the inner edge: touches only
            [(2.0, 2.0), (3.0, 3.0)],  # in the notch, clear: does not enter
            [(2.0, 0.5), (2.0, 3.0)],  # from inside out across the notch's edge: enters
        ]
    )
    k = terrain._trees["obscuring"].local[0]
    assert terrain.concave_enters(k, segs).tolist() == [True, False, False, False, True]
    assert _by_shapely(poly, segs).tolist() == [True, False, False, False, True]
