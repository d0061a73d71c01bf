"""G1/G3/E9 measuring against analytic oracles."""

import math

import pytest
import shapely
from hypothesis import given, settings
from hypothesis import strategies as st

from game.geometry import Circle, distance, overlaps, swept_hits, touches_edge, wholly_within, within
from game.geometry.shapes import polygon_at, to_shapely

coord = st.floats(-50, 50, allow_nan=False)
rad = st.floats(0.1, 3.0, allow_nan=False)
circles = st.builds(Circle, coord, coord, rad)


@settings(deadline=None, max_examples=150)
@given(circles, circles)
def test_g1_distance_circles_matches_analytic(a, b):
    want = max(0.0, math.hypot(a.x - b.x, a.y - b.y) - a.r - b.r)
    assert distance(a, b) == pytest.approx(want, abs=1e-12)
    assert distance(a, b) == distance(b, a)


def test_g1_distance_touching_and_overlapping_is_zero():
    assert distance(Circle(0, 0, 1), Circle(2, 0, 1)) == 0.0
    assert distance(Circle(0, 0, 1), Circle(1, 0, 1)) == 0.0


def test_g1_distance_circle_polygon_and_inside_is_zero():
    sq = shapely.box(0, 0, 4, 4)
    assert distance(Circle(7, 2, 1), sq) == pytest.approx(2.0)
    assert distance(sq, Circle(7, 2, 1)) == pytest.approx(2.0)
    assert distance(Circle(2, 2, 0.5), sq) == 0.0  # centre inside
    assert distance(sq, shapely.box(6, 0, 8, 1)) == pytest.approx(2.0)


def test_g1_within_exact_boundary():
    a = Circle(0, 0, 1)
    assert within(a, Circle(26, 0, 1), 24)  # exactly 24
    assert not within(a, Circle(26.01, 0, 1), 24)


@pytest.mark.parametrize("dx, ok", [(24.0, True), (24.01, False), (23.99, True)])
def test_g1_wholly_within_circle_boundary(dx, ok):
    # inner r=1 at distance dx from the centre of outer r=1: d + r_in <= 24 + r_out
    assert wholly_within(Circle(dx, 0, 1), Circle(0, 0, 1), 24) is ok


@settings(deadline=None, max_examples=100)
@given(circles, circles, st.floats(0, 30))
def test_g1_wholly_within_circle_matches_formula(a, b, x):
    d = math.hypot(a.x - b.x, a.y - b.y)
    want = d + a.r <= x + b.r + 1e-9
    assert wholly_within(a, b, x) is want


def test_g1_wholly_within_polygon_inner_circle_outer():
    tri = shapely.Polygon([(0, 0), (23, 0), (0, 1)])
    assert wholly_within(tri, Circle(0, 0, 1), 22)  # furthest vertex 23 = 22 + 1
    assert not wholly_within(tri, Circle(0, 0, 1), 21.99)


def test_g1_wholly_within_zone_x0():
    zone = shapely.box(0, 0, 10, 10)
    assert wholly_within(Circle(5, 5, 1), zone, 0)
    assert wholly_within(Circle(1, 5, 1), zone, 0)  # touching the zone edge from inside
    assert not wholly_within(Circle(0.99, 5, 1), zone, 0)
    assert not wholly_within(Circle(12, 5, 1), zone, 0)


@pytest.mark.parametrize(
    "cx, x, ok",
    [
        (13.0, 4.0, True),  # outside: 3 + 1 <= 4
        (13.0, 3.99, False),
        (9.5, 0.5, True),  # inside, sticking out by 0.5
        (9.5, 0.49, False),
        (5.0, 0.0, True),
    ],
)
def test_g1_wholly_within_convex_polygon_x(cx, x, ok):
    zone = shapely.box(0, 0, 10, 10)
    assert wholly_within(Circle(cx, 5, 1), zone, x) is ok


def test_g1_wholly_within_nonconvex_is_conservative():
    # U shape: circle sits in the notch, within 2" of the arms everywhere.
    u = shapely.Polygon([(0, 0), (10, 0), (10, 10), (7, 10), (7, 3), (3, 3), (3, 10), (0, 10)])
    c = Circle(5, 7, 1)
    # true answer: max distance from the disc to U is ~ 2 (the top of the disc is 2 from the arms)
    assert wholly_within(c, u, 2.1)
    assert not wholly_within(c, u, 1.5)
    # never True when the exact (dense-sampled) answer is False
    for x in (1.0, 1.9, 1.99):
        pts = [(c.x + c.r * math.cos(a), c.y + c.r * math.sin(a)) for a in [i * 2 * math.pi / 720 for i in range(720)]]
        exact = max(u.distance(shapely.Point(p)) for p in pts) <= x
        if wholly_within(c, u, x):
            assert exact


def test_g1_wholly_within_polygon_in_polygon():
    zone = shapely.box(0, 0, 10, 10)
    assert wholly_within(shapely.box(1, 1, 2, 2), zone, 0)
    assert not wholly_within(shapely.box(9, 1, 11, 2), zone, 0)
    assert wholly_within(shapely.box(9, 1, 11, 2), zone, 1)


def test_g4_overlaps_touching_is_not_overlap():
    assert not overlaps(Circle(0, 0, 1), Circle(2, 0, 1))
    assert overlaps(Circle(0, 0, 1), Circle(1.99, 0, 1))
    sq = shapely.box(0, 0, 2, 2)
    assert not overlaps(Circle(3, 1, 1), sq)
    assert overlaps(Circle(2.9, 1, 1), sq)
    assert not overlaps(sq, shapely.box(2, 0, 4, 2))
    assert overlaps(sq, shapely.box(1.9, 0, 4, 2))


@settings(deadline=None, max_examples=100)
@given(circles, circles)
def test_g4_overlaps_circles_analytic(a, b):
    d = math.hypot(a.x - b.x, a.y - b.y)
    assert overlaps(a, b) is (d < a.r + b.r - 1e-9)


@pytest.mark.parametrize(
    "c, hit",
    [
        (Circle(1, 10, 1), True),  # exactly reaches x = 0
        (Circle(1.001, 10, 1), False),
        (Circle(59, 10, 1), True),
        (Circle(30, 43, 1), True),
        (Circle(30, 1, 1), True),
        (Circle(30, 22, 1), False),
        (Circle(-5, 10, 1), True),  # wholly off the table
    ],
)
def test_g3_edge_contact_exactly_at_boundary(c, hit):
    assert touches_edge(c, 60, 44) is hit


def test_g3_edge_contact_polygon():
    assert touches_edge(polygon_at([(-1, -1), (1, -1), (0, 1)], 1, 10), 60, 44)
    assert not touches_edge(polygon_at([(-1, -1), (1, -1), (0, 1)], 1.01, 10), 60, 44)


@settings(deadline=None, max_examples=100)
@given(st.floats(-5, 65), st.floats(-5, 49), rad)
def test_g3_edge_contact_matches_analytic(x, y, r):
    want = x - r <= 1e-9 or y - r <= 1e-9 or x + r >= 60 - 1e-9 or y + r >= 44 - 1e-9
    assert touches_edge(Circle(x, y, r), 60, 44) is want


def test_e9_swept_hits_grazing_counts():
    targets = [Circle(5, 2, 1), Circle(5, 2.001 + 1, 1), Circle(5, -2, 1), Circle(20, 0, 1)]
    # footprint r=1 from (0,0) to (10,0): target 0 exactly grazes (distance 2 = 1 + 1)
    assert swept_hits(Circle(0, 0, 1), (0, 0), (10, 0), targets) == [0, 2]


@settings(deadline=None, max_examples=80)
@given(st.lists(circles, min_size=1, max_size=8), coord, coord, coord, coord, rad)
def test_e9_swept_hits_circle_matches_dense_sampling(targets, sx, sy, ex, ey, rf):
    got = set(swept_hits(Circle(sx, sy, rf), (sx, sy), (ex, ey), targets))
    for i, t in enumerate(targets):
        # exact analytic segment-point distance
        dx, dy = ex - sx, ey - sy
        ll = dx * dx + dy * dy
        u = 0.0 if ll == 0 else max(0.0, min(1.0, ((t.x - sx) * dx + (t.y - sy) * dy) / ll))
        d = math.hypot(t.x - sx - u * dx, t.y - sy - u * dy)
        if d < rf + t.r - 1e-7:
            assert i in got
        if d > rf + t.r + 1e-7:
            assert i not in got


def test_e9_swept_hits_polygon_convex_and_concave():
    sq = polygon_at([(-1, -1), (1, -1), (1, 1), (-1, 1)], 0, 0)
    targets = [Circle(5, 1.5, 0.5), Circle(5, 1.6, 0.5), Circle(5, -3, 0.5), Circle(12, 0, 0.5)]
    assert swept_hits(sq, (0, 0), (10, 0), targets) == [0]
    # a U-shaped footprint moving sideways still sweeps its notch
    u = polygon_at([(-3, -1), (3, -1), (3, 3), (2, 3), (2, 0), (-2, 0), (-2, 3), (-3, 3)], 0, 0)
    tg = [Circle(10, 1.0, 0.2)]  # in the band swept by the notch floor and arms
    assert swept_hits(u, (0, 0), (20, 0), tg) == [0]
    # moving straight up, a target inside the notch above the floor is never touched
    tg2 = [Circle(0, 1.5, 0.2)]
    assert swept_hits(u, (0, 0), (0, -5), tg2) == []
    assert swept_hits(u, (0, 0), (0, 5), tg2) == [0]


def test_g1_to_shapely_only_approximates():
    g = to_shapely(Circle(0, 0, 1))
    assert g.area == pytest.approx(math.pi, rel=1e-2)
    assert to_shapely(shapely.box(0, 0, 1, 1)).area == 1.0
    assert Circle(1, 2, 3).centre == (1, 2)
    assert Circle(1, 2, 3).moved(4, 5) == Circle(4, 5, 3)
