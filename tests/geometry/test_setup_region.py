"""The region of legal set-up centres (M9, E2, G1-G4): which way its approximations err, the
Minkowski sums for round and polygon footprints, the ray trace, the pick and the sight region."""

from __future__ import annotations

import math

import numpy as np
import pytest
import shapely

from game.geometry import Circle, TerrainIndex, TerrainPiece, polygon_at
from game.geometry.measure import distance, wholly_within
from game.geometry.placement import placement_problems
from game.geometry.setup_region import (
    ERR,
    SAMPLE_STEP,
    SetupSpace,
    _samples,
    centre_region,
    pick,
    pick_on_rays,
    segments_for,
    sight_region,
)
from game.geometry.visibility import visible

OVAL = [(3 * math.cos(a), math.sin(a)) for a in np.arange(20) * (2 * math.pi / 20)]  # 6" x 2", 20 points
EEL = [(2.5 * math.cos(a), 1.25 * math.sin(a)) for a in np.arange(16) * (2 * math.pi / 16)]


def _shape(footprint, x, y):
    return Circle(x, y, footprint) if isinstance(footprint, float) else polygon_at(footprint, x, y)


class Board:
    """A random board and its exact set-up check (the geometry G1-G4 and M9 use)."""

    def __init__(self, seed: int, footprint, *, enemies: bool = True, width=30.0, height=24.0):
        rng = np.random.default_rng(seed)
        self.footprint, self.width, self.height = footprint, width, height
        self.source = Circle(float(rng.uniform(8, width - 8)), float(rng.uniform(7, height - 7)), 0.787)
        pieces = []
        for k in range(int(rng.integers(2, 7))):
            x, y = rng.uniform(0, width - 2), rng.uniform(0, height - 2)
            w, h = rng.uniform(0.5, 5), rng.uniform(0.5, 5)
            if k == 0:  # an L-shaped (non-convex) piece
                poly = shapely.Polygon([(x, y), (x + 4, y), (x + 4, y + 1), (x + 1, y + 1), (x + 1, y + 4), (x, y + 4)])
            else:
                poly = shapely.box(x, y, x + w, y + h)
            if poly.distance(shapely.Point(self.source.centre)) > 1.0:
                pieces.append(TerrainPiece(f"T{k}", poly, frozenset({"impassable"})))
        self.terrain = TerrainIndex(pieces)
        self.bases = [self.source] + [
            Circle(float(rng.uniform(1, width - 1)), float(rng.uniform(1, height - 1)), 0.5) for _ in range(int(rng.integers(2, 9)))
        ]
        self.manifestations = [Circle(float(rng.uniform(2, width - 2)), float(rng.uniform(2, height - 2)), 1.0)]
        self.manifestations.append(polygon_at(EEL, float(rng.uniform(3, width - 3)), float(rng.uniform(2, height - 2))))
        self.enemy_bases = [Circle(float(rng.uniform(0, width)), float(rng.uniform(0, height)), 0.63)] if enemies else []
        self.enemy_shapes = [self.manifestations[1]] if enemies else []
        self.min_enemy = 3.0 if enemies else 0.0

    def space(self) -> SetupSpace:
        return SetupSpace(
            self.source, 12.0, self.footprint, width=self.width, height=self.height, bases=self.bases,
            impassable=self.terrain.polygons("impassable"), manifestations=self.manifestations,
            enemy_bases=self.enemy_bases, enemy_shapes=self.enemy_shapes, min_enemy_distance=self.min_enemy,
        )

    def legal(self, x: float, y: float) -> bool:
        shape = _shape(self.footprint, x, y)
        if not wholly_within(shape, self.source, 12.0):
            return False
        if placement_problems(shape, width=self.width, height=self.height, terrain=self.terrain, bases=self.bases,
                              manifestations=self.manifestations):
            return False
        near = min((distance(shape, e) for e in self.enemy_bases + self.enemy_shapes), default=math.inf)
        return near > self.min_enemy


# --- G1: how far a buffer strays ---------------------------------------------------------------


@pytest.mark.parametrize("radius", [0.3, 0.79, 2.4, 11.0, 15.0])
def test_g1_buffers_with_segments_for_stay_within_err_of_their_circle(radius):
    poly = shapely.Point(0, 0).buffer(radius, quad_segs=segments_for(radius))
    apothem = poly.exterior.distance(shapely.Point(0, 0))
    assert 0 < radius - apothem <= ERR


# --- M9: the region is a superset of the legal centres, and deep points are legal ----------------


@pytest.mark.parametrize("seed", range(8))
@pytest.mark.parametrize("footprint", [1.575, OVAL], ids=["round", "oval"])
def test_m9_region_holds_every_legal_centre_and_its_deep_points_are_legal(seed, footprint):
    # M9: the region decides existence, so it may never lose a legal centre; and the pick relies
    # on points more than 2 * ERR inside it being legal.
    b = Board(seed, footprint)
    region = b.space().region()
    rng = np.random.default_rng(100 + seed)
    xs = b.source.x + rng.uniform(-13, 13, 1500)
    ys = b.source.y + rng.uniform(-13, 13, 1500)
    legal = np.array([b.legal(x, y) for x, y in zip(xs, ys)])
    covered = shapely.intersects_xy(region, xs, ys)
    assert legal.sum() > 20  # the boards leave room, so the test means something
    assert not (legal & ~covered).any()
    depth = shapely.distance(region.boundary, shapely.points(np.column_stack([xs, ys])))
    deep = covered & (depth > 2 * ERR)
    assert deep.sum() > 20 and legal[deep].all()


@pytest.mark.parametrize("footprint", [1.575, OVAL], ids=["round", "oval"])
def test_g4_footprints_touching_a_base_terrain_or_manifestation_stay_in_the_region(footprint):
    # G4: touching is not overlapping, so a centre where the footprint just touches an obstacle
    # is legal, and the region (whose removed disks are inscribed) must hold it.
    b = Board(5, footprint, enemies=False)
    region = b.space().region()
    obstacles = b.bases[1:] + b.manifestations + [p.polygon for p in b.terrain.pieces]
    touching = 0
    for ob in obstacles:
        c = (ob.x, ob.y) if isinstance(ob, Circle) else (ob.centroid.x, ob.centroid.y)
        for ang in np.linspace(0, 2 * math.pi, 24, endpoint=False):
            ux, uy = math.cos(ang), math.sin(ang)
            lo, hi = 0.0, 9.0  # bisect the touching distance along this direction
            for _ in range(60):
                mid = (lo + hi) / 2
                if distance(_shape(footprint, c[0] + mid * ux, c[1] + mid * uy), ob) > 0:
                    hi = mid
                else:
                    lo = mid
            x, y = c[0] + hi * ux, c[1] + hi * uy
            if b.legal(x, y):
                touching += 1
                assert region.covers(shapely.Point(x, y)) or region.distance(shapely.Point(x, y)) < 1e-9
    assert touching > 40


def test_m9_centre_region_matches_the_space_region():
    b = Board(3, 1.575)
    a = centre_region(b.source, 12.0, 1.575, width=b.width, height=b.height, bases=b.bases,
                      impassable=b.terrain.polygons("impassable"), manifestations=b.manifestations,
                      enemy_bases=b.enemy_bases, enemy_shapes=b.enemy_shapes, min_enemy_distance=b.min_enemy)
    assert a.symmetric_difference(b.space().region()).area < 1e-9


def test_g1_an_oval_wholly_within_12_region_is_exact_to_err():
    # G1: a polygon is wholly within X" of a base when its farthest vertex is: the region is
    # the intersection of one disk per vertex; points just inside and just outside the limit.
    src = Circle(20, 20, 0.787)
    region = SetupSpace(src, 12.0, OVAL, width=60, height=44).region()
    for ang in np.linspace(0, 2 * math.pi, 37):
        ux, uy = math.cos(ang), math.sin(ang)
        lo, hi = 0.0, 14.0  # bisect the exact limit along this direction
        for _ in range(60):
            mid = (lo + hi) / 2
            lo, hi = (mid, hi) if wholly_within(polygon_at(OVAL, 20 + mid * ux, 20 + mid * uy), src, 12.0) else (lo, mid)
        assert region.covers(shapely.Point(20 + lo * ux, 20 + lo * uy))
        assert not region.covers(shapely.Point(20 + (lo + 2 * ERR) * ux, 20 + (lo + 2 * ERR) * uy))


def test_g4_a_polygon_footprint_fits_the_notch_of_an_l_shaped_piece():
    # G4: non-convex terrain is summed piece by piece (triangles); the notch of an L stays legal.
    ell = shapely.Polygon([(10, 10), (20, 10), (20, 11), (11, 11), (11, 20), (10, 20)])
    src = Circle(18, 18, 0.787)
    region = SetupSpace(src, 12.0, EEL, width=60, height=44, bases=[src], impassable=[ell]).region()
    inside_notch = (11 + 2.5 + 0.05, 11 + 1.25 + 0.05)  # the eel touching neither arm
    assert region.covers(shapely.Point(inside_notch))
    assert not region.covers(shapely.Point(11 + 2.5 - 0.05, 15))  # overlapping the upright arm
    assert not region.covers(shapely.Point(15, 11 + 1.25 - 0.05))  # overlapping the foot


def test_g3_the_region_keeps_the_footprint_off_the_edge():
    # G3: touching the edge is not allowed: the centres keep the footprint's extent inside.
    region = SetupSpace(Circle(4, 22, 0.787), 12.0, OVAL, width=60, height=44).region()
    assert region.bounds[0] >= 3.0 - 1e-9
    assert region.covers(shapely.Point(3.01, 22)) and not region.covers(shapely.Point(2.99, 22))


def test_e2_an_empty_region_when_enemies_surround_the_caster():
    # E2: nowhere more than 9" from the enemies: the region is empty, so no set-up exists.
    src = Circle(15, 15, 0.787)
    ring = [Circle(15 + 8 * math.cos(a), 15 + 8 * math.sin(a), 0.63) for a in np.arange(8) * math.pi / 4]
    space = SetupSpace(src, 12.0, 1.575, width=60, height=44, bases=[src] + ring, enemy_bases=ring, min_enemy_distance=9)
    assert space.region().is_empty
    assert pick(space.region(), lambda x, y: pytest.fail("no point to check"), source=src.centre) == []


# --- M9: the ray trace and the pick ----------------------------------------------------------------


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("footprint", [1.575, EEL], ids=["round", "eel"])
def test_m9_ray_points_lie_in_the_region_and_most_are_legal(seed, footprint):
    b = Board(seed, footprint)
    space = b.space()
    pts = [p for ray in space.ray_points() for p in ray]
    assert pts
    region = space.region()
    assert all(region.buffer(1e-6).covers(shapely.Point(p)) for p in pts)
    assert sum(b.legal(*p) for p in pts) >= 0.9 * len(pts)
    found = pick_on_rays(space, b.legal, limit=4)
    assert found and all(b.legal(*p) for p in found)


def test_m9_pick_finds_a_lone_legal_spot_by_sampling_and_prefers_the_zone_given():
    # M9: when only a small disk of the region passes the check (as sight may do), the pick
    # still finds it: at once when `prefer` marks it, else by sampling the region.
    src = Circle(20, 20, 0.787)
    space = SetupSpace(src, 12.0, 1.0, width=60, height=44, bases=[src])
    spot = (27.0, 14.0)
    calls = []

    def check(x, y):
        calls.append((x, y))
        return math.hypot(x - spot[0], y - spot[1]) < 0.4

    found = pick(space.region(), check, source=src.centre, prefer=lambda: shapely.Point(spot).buffer(0.4))
    assert found and math.hypot(found[0][0] - spot[0], found[0][1] - spot[1]) < 0.4
    assert len(calls) < 120
    calls.clear()
    found = pick(space.region(), check, source=src.centre)
    assert found and check(*found[0]) and len(calls) <= 2000


def _nearest_gap(points):
    xy = np.array(points)
    d = np.hypot(xy[:, None, 0] - xy[None, :, 0], xy[:, None, 1] - xy[None, :, 1])
    np.fill_diagonal(d, np.inf)
    return float(d.min())


def test_m9_sampling_is_no_finer_than_sample_step_in_a_small_part():
    # M9 / G2: sampling decides only sight, which G2 itself samples about half an inch apart,
    # so a part of a square inch gets a 0.1" grid (about 100 points), not 300 points 0.06" apart
    square = shapely.box(10.0, 10.0, 11.0, 11.0)
    pts = list(_samples(square, 300))
    assert 64 <= len(pts) <= 100
    assert _nearest_gap(pts) >= SAMPLE_STEP - 1e-9
    assert all(square.contains(shapely.Point(p)) for p in pts)
    # a big part still gets its whole budget, on a finer grid than its area alone would give
    big = shapely.box(0.0, 0.0, 10.0, 10.0)
    assert 280 <= len(list(_samples(big, 300))) <= 300  # "about" the budget: a grid


def test_m9_sampling_follows_a_part_thinner_than_sample_step():
    # a strip 0.06" wide (deeper than 2 * ERR, shallower than SAMPLE_STEP) is still sampled,
    # with a grid as fine as its depth: a grid 0.1" apart could miss it altogether
    strip = shapely.box(0.0, 0.0, 2.0, 0.06)
    pts = list(_samples(strip, 300))
    assert len(pts) >= 8 and all(strip.contains(shapely.Point(p)) for p in pts)


def test_m9_pick_returns_spread_points_each_checked():
    src = Circle(20, 20, 0.787)
    region = SetupSpace(src, 12.0, 1.0, width=60, height=44, bases=[src]).region()
    checked = set()

    def check(x, y):
        checked.add((x, y))
        return True

    pts = pick(region, check, source=src.centre, limit=4)
    assert len(pts) == 4 and set(pts) <= checked
    assert min(math.hypot(a[0] - b[0], a[1] - b[1]) for i, a in enumerate(pts) for b in pts[i + 1:]) >= 3.0


# --- G2: the sight region --------------------------------------------------------------------------


def test_g2_sight_region_leaves_out_what_a_wall_hides_and_keeps_what_it_does_not():
    # G2: a wall across the east hides footprints wholly behind it; north stays in sight; a
    # footprint whose centre is inside the wall is seen through it.
    src = Circle(20, 20, 0.787)
    wall = shapely.box(24, 12, 25, 28)
    terrain = TerrainIndex([TerrainPiece("Wall", wall, frozenset({"obscuring"}))])
    clip = SetupSpace(src, 12.0, 1.0, width=60, height=44, bases=[src]).region()
    seen = sight_region(src, 1.0, terrain, clip=clip)
    for p in ((30.0, 20.0), (29.0, 17.0)):  # behind the wall
        assert not seen.covers(shapely.Point(p))
        assert not visible(src, Circle(*p, 1.0), terrain).visible
    for p in ((20.0, 29.0), (14.0, 20.0)):  # in the open
        assert seen.covers(shapely.Point(p)) and visible(src, Circle(*p, 1.0), terrain).visible
    assert seen.covers(shapely.Point(24.5, 20.0))  # centred in the wall: seen through it


def test_g2_an_observer_inside_a_piece_sees_out_of_it():
    src = Circle(20, 20, 0.787)
    wood = shapely.box(17, 17, 23, 23)
    terrain = TerrainIndex([TerrainPiece("Wood", wood, frozenset({"obscuring"}))])
    clip = SetupSpace(src, 12.0, 1.0, width=60, height=44, bases=[src]).region()
    seen = sight_region(src, 1.0, terrain, clip=clip)
    assert seen.area > 0.95 * clip.area


def test_g2_blocking_bases_cast_shadows_in_the_sight_region():
    src = Circle(20, 20, 0.787)
    blockers = [Circle(23, 20 + dy, 0.63) for dy in (-1.2, 0.0, 1.2)]  # a tight line of bases
    clip = SetupSpace(src, 12.0, 0.5, width=60, height=44, bases=[src] + blockers).region()
    seen = sight_region(src, 0.5, TerrainIndex([]), blockers, clip=clip)
    assert not seen.covers(shapely.Point(30, 20)) and seen.covers(shapely.Point(20, 30))
