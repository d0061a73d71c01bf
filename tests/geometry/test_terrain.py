"""G2/G4 terrain index: grazing decisions, bulk line tests, overlap, containment, cover."""

import numpy as np
import pytest
import shapely
from hypothesis import given, settings
from hypothesis import strategies as st

from game.geometry import Circle, TerrainIndex, TerrainPiece

from ._boards import board

SQ = shapely.box(10, 10, 14, 14)
L = shapely.Polygon([(0, 0), (6, 0), (6, 2), (2, 2), (2, 6), (0, 6)])  # non-convex


def idx():
    return TerrainIndex(
        [
            TerrainPiece("Square", SQ, frozenset({"obscuring", "impassable"})),
            TerrainPiece("Ell", L, frozenset({"obscuring", "cover"})),
        ]
    )


@pytest.mark.parametrize(
    "seg, blocked",
    [
        (((8, 12), (16, 12)), True),  # crosses
        (((11, 11), (13, 13)), True),  # wholly inside
        (((8, 12), (12, 12)), True),  # ends inside
        (((8, 10), (16, 10)), False),  # runs along an edge: grazing does not block
        (((8, 8), (16, 16)), True),  # diagonal through both corners crosses interior
        (((8, 12), (12, 8)), False),  # touches the corner (10,10) only
        (((8, 12), (10, 12)), False),  # ends on the boundary
        (((0, 8), (8, 8)), False),  # misses
    ],
)
def test_g2_grazing_does_not_block_crossing_does(seg, blocked):
    t = idx()
    got = t.obscured(np.array([seg], dtype=float))[0]
    assert got is np.bool_(blocked)


@pytest.mark.parametrize(
    "seg, blocked",
    [
        (((1, 4), (1, 5)), True),  # inside the Ell's arm
        (((3, 3), (5, 5)), False),  # in the notch, touching nothing
        (((2, 3), (2, 5)), False),  # along the inner edge
        (((1, 1), (5, 1)), True),
    ],
)
def test_g2_nonconvex_terrain_uses_shapely_interior_test(seg, blocked):
    t = idx()
    assert bool(t.obscured(np.array([seg], dtype=float))[0]) is blocked


def test_g2_exclude_ignores_piece():
    t = idx()
    seg = np.array([((8, 12), (16, 12))], dtype=float)
    assert not t.obscured(seg, exclude=[0])[0]
    pairs = t.obscuring_hits(seg)
    assert pairs.tolist() == [[0], [0]]


@settings(deadline=None, max_examples=40)
@given(st.integers(0, 10_000))
def test_g2_bulk_clip_agrees_with_shapely(seed):
    t, _ = board(seed, n_terrain=6)
    rng = np.random.default_rng(seed)
    segs = rng.uniform(0, 30, size=(200, 2, 2))
    segs[:, :, 1] *= 20 / 30
    got = t.obscuring_hits(segs)
    got_set = set(zip(got[0].tolist(), got[1].tolist()))
    lines = shapely.linestrings(segs)
    for j, p in enumerate(t.pieces):
        inter = shapely.intersection(lines, p.polygon)
        length = shapely.length(inter)
        for i in range(len(segs)):
            if length[i] > 1e-6:
                assert (i, j) in got_set
            elif not shapely.intersects(lines[i], p.polygon):
                assert (i, j) not in got_set


def test_g4_impassable_overlapping_touching_allowed():
    t = idx()
    assert [p.name for p in t.impassable_overlapping(Circle(9, 12, 1))] == []  # touches x=10
    assert [p.name for p in t.impassable_overlapping(Circle(9.01, 12, 1))] == ["Square"]
    assert [p.name for p in t.impassable_overlapping(Circle(12, 12, 0.1))] == ["Square"]
    assert t.impassable_overlapping(shapely.box(14, 10, 15, 11)) == []
    assert [p.name for p in t.impassable_overlapping(shapely.box(13.9, 10, 15, 11))] == ["Square"]
    # the Ell is obscuring but not impassable
    assert t.impassable_overlapping(Circle(1, 1, 0.5)) == []


def test_g2_containing_and_cover():
    t = idx()
    assert [p.name for p in t.containing((12, 12))] == ["Square"]
    assert [p.name for p in t.containing((10, 12))] == ["Square"]  # boundary counts
    assert t.containing((3, 3)) == []
    assert t.in_cover(Circle(1, 1, 0.5))
    assert t.in_cover(Circle(3, 3, 1.2))  # overlaps the Ell
    assert not t.in_cover(Circle(3, 3, 0.9))  # in the notch, touching nothing
    assert not t.in_cover(Circle(12, 12, 1))  # square gives no cover


def test_terrain_rejects_unknown_traits():
    with pytest.raises(ValueError, match="unknown traits"):
        TerrainPiece("X", SQ, frozenset({"lava"}))
