"""G2 visibility: soundness against exact checks and completeness against a dense oracle."""

import math

import numpy as np
import shapely
from hypothesis import given, settings
from hypothesis import strategies as st

from game.geometry import BaseIndex, Circle, TerrainIndex, TerrainPiece, visible
from game.geometry.visibility import segments_enter_bases

from ._boards import board, seg_circle_distance, seg_enters_poly

WALL = TerrainPiece("Wall", shapely.box(9, 0, 11, 20), frozenset({"obscuring"}))
HUT = TerrainPiece("Hut", shapely.box(2, 8, 6, 12), frozenset({"obscuring"}))


def test_g2_clear_line_centre_to_centre():
    s = visible(Circle(2, 2, 0.63), Circle(20, 2, 0.63), TerrainIndex(), [])
    assert s.visible and s.line == ((2, 2), (20, 2)) and s.blocked_by == ()


def test_g2_wall_blocks_and_names_it():
    s = visible(Circle(2, 10, 0.63), Circle(20, 10, 0.63), TerrainIndex([WALL]), [])
    assert not s.visible
    assert s.blocked_by == ("Wall",)


def test_g2_peek_past_edge_of_wall():
    wall = TerrainPiece("Wall", shapely.box(9, 0, 11, 10), frozenset({"obscuring"}))
    # centre line blocked, but the top of both bases clears the wall's top edge (y=10)
    s = visible(Circle(2, 9.6, 0.63), Circle(20, 9.6, 0.63), TerrainIndex([wall]), [])
    assert s.visible
    (ax, ay), (bx, by) = s.line
    assert min(ay, by) >= 10 - 1e-9 or not seg_enters_poly(s.line[0], s.line[1], wall.polygon)


def test_g2_line_grazing_terrain_edge_is_clear():
    wall = TerrainPiece("Wall", shapely.box(9, 0, 11, 10), frozenset({"obscuring"}))
    # top of both bases exactly at y=10: only the tangent line along the edge is free
    s = visible(Circle(2, 9.37, 0.63), Circle(20, 9.37, 0.63), TerrainIndex([wall]), [])
    assert s.visible


def test_g2_models_block_and_gaps_are_found():
    o, t = Circle(0, 10, 0.63), Circle(20, 10, 0.63)
    blockers = [Circle(10, 10, 0.63)]
    s = visible(o, t, TerrainIndex(), blockers)
    assert s.visible  # lines around the single model
    wall_of_models = [Circle(10, y * 1.26, 0.63) for y in range(17)]
    s = visible(o, t, TerrainIndex(), wall_of_models)
    assert not s.visible
    assert any(b.startswith("model:") for b in s.blocked_by)
    # a gap of 1" in the middle of the line of models
    gap = [c for c in wall_of_models if abs(c.y - 10) > 1.0]
    s = visible(o, t, TerrainIndex(), gap)
    assert s.visible


def test_g2_observer_inside_terrain_sees_out_and_is_seen():
    t = TerrainIndex([HUT])
    inside, outside = Circle(4, 10, 0.63), Circle(20, 10, 0.63)
    assert visible(inside, outside, t, []).visible
    assert visible(outside, inside, t, []).visible
    # but the hut still blocks two models on either side of it
    assert not visible(Circle(0.7, 10, 0.63), Circle(8, 10, 0.63), TerrainIndex([HUT]), []).visible


def test_g2_touching_bases_see_each_other():
    s = visible(Circle(0, 0, 1), Circle(2, 0, 1), TerrainIndex([WALL]), [])
    assert s.visible


def test_g2_polygon_target():
    tgt = shapely.box(18, 9, 22, 11)
    assert visible(Circle(2, 10, 0.63), tgt, TerrainIndex(), []).visible
    assert not visible(Circle(2, 10, 0.63), tgt, TerrainIndex([WALL]), []).visible


def _line_is_clear(line, observer, target, terrain, blockers):
    a, b = line
    assert math.hypot(a[0] - observer.x, a[1] - observer.y) <= observer.r + 1e-9
    if isinstance(target, Circle):
        assert math.hypot(b[0] - target.x, b[1] - target.y) <= target.r + 1e-9
    ex = {i for i, p in enumerate(terrain.pieces) if p.polygon.covers(shapely.Point(observer.centre))}
    tc = target.centre if isinstance(target, Circle) else (target.centroid.x, target.centroid.y)
    ex |= {i for i, p in enumerate(terrain.pieces) if p.polygon.covers(shapely.Point(tc))}
    for i, p in enumerate(terrain.pieces):
        if i not in ex and "obscuring" in p.traits:
            assert not seg_enters_poly(a, b, p.polygon), p.name
    for c in blockers:
        assert seg_circle_distance(a, b, c) >= c.r - 1e-7


@settings(deadline=None, max_examples=60)
@given(st.integers(0, 100_000))
def test_g2_visible_line_is_really_clear(seed):
    terrain, models = board(seed, n_terrain=8, n_models=14)
    o, t, blockers = models[0], models[1], models[2:]
    s = visible(o, t, terrain, blockers)
    if s.visible:
        _line_is_clear(s.line, o, t, terrain, blockers)
    else:
        assert s.blocked_by


def _oracle(o, t, terrain, blockers, k=64):
    """Dense oracle: k x k points on the two full perimeters (plus centres)."""
    ang = np.linspace(0, 2 * math.pi, k, endpoint=False)
    pa = np.vstack([np.column_stack([o.x + o.r * np.cos(ang), o.y + o.r * np.sin(ang)]), [o.centre]])
    pb = np.vstack([np.column_stack([t.x + t.r * np.cos(ang), t.y + t.r * np.sin(ang)]), [t.centre]])
    segs = np.empty((len(pa) * len(pb), 2, 2))
    segs[:, 0] = np.repeat(pa, len(pb), axis=0)
    segs[:, 1] = np.tile(pb, (len(pa), 1))
    ex = set(terrain.containing_ids(o.centre, "obscuring")) | set(terrain.containing_ids(t.centre, "obscuring"))
    blocked = terrain.obscured(segs, exclude=ex)
    if blockers:
        bi = BaseIndex(blockers)
        blocked |= segments_enter_bases(segs, bi.x, bi.y, bi.r).any(axis=1)
    return not blocked.all()


def test_g2_agreement_with_dense_oracle():
    agree = total = false_visible = 0
    for seed in range(150):
        terrain, models = board(seed, n_terrain=10, n_models=25)
        o, t, blockers = models[0], models[1], models[2:]
        got = visible(o, t, terrain, blockers).visible
        want = _oracle(o, t, terrain, blockers)
        total += 1
        agree += got == want
        false_visible += got and not want
    # Measured: see the report in game/geometry/visibility.py (>= 97% asserted).
    assert agree / total >= 0.97, (agree, total)
    # visible() may only find lines the oracle misses (between its samples), never the reverse
    # in a way that is wrong - soundness is checked exactly above.
    print(f"G2 agreement with 64x64 oracle: {agree}/{total}, visible-but-oracle-blocked: {false_visible}")
