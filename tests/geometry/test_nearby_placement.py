"""G1 "who is within X" and G4 placement legality."""

import math

import shapely
from hypothesis import given, settings
from hypothesis import strategies as st

from game.geometry import BaseIndex, Circle, TerrainIndex, TerrainPiece, distance, placement_problems

SPIRE = TerrainPiece("Basalt Spire", shapely.box(20, 20, 24, 24), frozenset({"impassable", "obscuring"}))
WOOD = TerrainPiece("Wood", shapely.box(30, 20, 34, 24), frozenset({"obscuring", "cover"}))
TERRAIN = TerrainIndex([SPIRE, WOOD])
R = 0.63


@settings(deadline=None, max_examples=60)
@given(
    st.lists(st.tuples(st.floats(0, 60), st.floats(0, 44), st.floats(0.3, 2)), min_size=0, max_size=40),
    st.floats(0, 60),
    st.floats(0, 44),
    st.floats(0, 20),
)
def test_g1_within_index_matches_bruteforce(bases, x, y, dist):
    idx = BaseIndex(Circle(*b) for b in bases)
    q = Circle(x, y, R)
    got = idx.within(q, dist).tolist()
    want = [i for i, b in enumerate(bases) if distance(q, Circle(*b)) <= dist + 1e-9]
    assert got == want


def test_g1_within_index_polygon_and_exact_boundary():
    idx = BaseIndex([Circle(0, 0, 1), Circle(30, 0, 1), Circle(30.01, 0, 1)])
    assert idx.within(Circle(4, 0, 1), 24).tolist() == [0, 1]  # 30-4-2 = 24 exactly
    poly = shapely.box(-1, -1, 5, 1)
    assert idx.within(poly, 24).tolist() == [0, 1]
    assert len(idx) == 3 and idx[1] == Circle(30, 0, 1) and list(idx)[2].x == 30.01


def check(shape, bases=(), manif=()):
    return placement_problems(
        shape, width=60, height=44, terrain=TERRAIN, bases=BaseIndex(bases), manifestations=list(manif)
    )


def test_g4_placement_legal_and_touching_allowed():
    assert check(Circle(10, 10, R)) == []
    assert check(Circle(10, 10, R), [Circle(10 + 2 * R, 10, R)]) == []  # touching a base
    assert check(Circle(20 - R, 22, R)) == []  # touching the spire
    assert check(Circle(32, 22, R)) == []  # in a wood (not impassable)


def test_g4_placement_rejects_overlap():
    probs = check(Circle(10, 10, R), [Circle(5, 5, R), Circle(10.84, 10, R)])
    assert probs == ['overlaps base 1 (0.42" overlap)']


def test_g4_placement_rejects_impassable_and_edge_and_manifestation():
    assert check(Circle(20.5, 22, R)) == ["overlaps impassable terrain 'Basalt Spire'"]
    assert check(Circle(0.3, 10, R)) == ['touches the battlefield edge (x=0.30" from the left edge, radius 0.63")']
    assert check(Circle(R, 10, R))  # exactly touching the edge is edge contact (G3)
    assert check(Circle(10, 43.5, R))[0].startswith("touches the battlefield edge (y=0.50\" from the top edge")
    manif = [Circle(40, 40, 1), shapely.box(9, 9, 11, 11)]
    assert check(Circle(10, 10, R), manif=manif) == ["ends on manifestation 1"]
    assert check(Circle(11 + R, 10, R), manif=manif) == []  # touching a manifestation


def test_g4_placement_polygon_footprint():
    fp = shapely.box(19, 10, 21, 21)  # overlaps the spire at y 20..21
    assert check(fp, [Circle(20, 12, R)]) == [
        'overlaps base 0 (0.63" overlap)',
        "overlaps impassable terrain 'Basalt Spire'",
    ]
    assert check(shapely.box(19, 10, 21, 20)) == []  # touches the spire edge only


def test_g4_placement_ignore_lists():
    bases = [Circle(10, 10, R)]
    assert placement_problems(
        Circle(10, 10, R), width=60, height=44, terrain=TERRAIN, bases=bases, ignore={0}
    ) == []
    assert placement_problems(
        Circle(10, 10, R), width=60, height=44, terrain=TERRAIN, bases=[], manifestations=[Circle(10, 10, 1)],
        ignore_manifestations={0},
    ) == []


@settings(deadline=None, max_examples=80)
@given(
    st.floats(-1, 61),
    st.floats(-1, 45),
    st.lists(st.tuples(st.floats(0, 60), st.floats(0, 44)), max_size=20),
)
def test_g4_placement_matches_bruteforce(x, y, centres):
    me = Circle(x, y, R)
    bases = [Circle(cx, cy, R) for cx, cy in centres]
    probs = check(me, bases)
    overl = [i for i, b in enumerate(bases) if math.hypot(b.x - x, b.y - y) < 2 * R - 1e-9]
    edge = x - R <= 1e-9 or y - R <= 1e-9 or x + R >= 60 - 1e-9 or y + R >= 44 - 1e-9
    spire = SPIRE.polygon.distance(shapely.Point(x, y)) < R - 1e-9
    assert (probs == []) is (not overl and not edge and not spire)
    assert [p for p in probs if p.startswith("overlaps base")] == [
        p for p in probs if p.startswith("overlaps base")
    ]
    assert len([p for p in probs if p.startswith("overlaps base")]) == len(overl)
