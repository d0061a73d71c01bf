"""The shipped battlefields and the map API (list_maps, load_map, DEFAULT_MAP)."""

from __future__ import annotations

import itertools
import math
from pathlib import Path

import pytest
from shapely.geometry import Point, Polygon

from game.data.content import DEFAULT_ARMIES, DEFAULT_MAP, default_content, list_maps, load_map
from game.data.errors import DataError
from game.data.models import MM_PER_INCH, BattleMap

REPO = Path(__file__).resolve().parents[2]


def test_list_maps_has_the_default_and_another():
    maps = list_maps()
    assert DEFAULT_MAP in maps and len(maps) >= 2
    assert maps == sorted(p.stem for p in (REPO / "maps").glob("*.toml"))


def test_load_map_by_id_and_by_path():
    by_id = load_map(DEFAULT_MAP)
    by_path = load_map(REPO / "maps" / f"{DEFAULT_MAP}.toml")
    by_str = load_map(str(REPO / "maps" / f"{DEFAULT_MAP}.toml"))
    assert by_id == by_path == by_str and by_id.id == DEFAULT_MAP


def test_load_map_unknown_id_lists_the_maps():
    with pytest.raises(DataError) as info:
        load_map("atlantis")
    assert "unknown map 'atlantis'" in str(info.value) and DEFAULT_MAP in str(info.value)


@pytest.fixture(params=list_maps())
def bm(request) -> BattleMap:
    return load_map(request.param)


def test_map_size_and_pieces(bm: BattleMap):
    assert (bm.width, bm.height) == (60, 44)
    assert 6 <= len(bm.terrain) <= 10
    assert 4 <= len(bm.objectives) <= 6
    traits = [set(t.traits) for t in bm.terrain]
    for trait in ("obscuring", "impassable", "cover"):
        assert any(trait in t for t in traits), trait
    assert any(len(t) >= 2 for t in traits)
    assert all(Polygon(t.points).is_valid for t in bm.terrain)


def test_g3_g4_deployment_anchors_are_legal(bm: BattleMap):
    # RULES.md G4: nothing may be set up on impassable terrain or over the battlefield edge.
    assert sorted(z.player for z in bm.deployment) == [1, 2]
    impassable = [Polygon(t.points) for t in bm.terrain if "impassable" in t.traits]
    armies = [default_content().armies[a] for a in DEFAULT_ARMIES]
    for z in bm.deployment:
        zone = Polygon(z.points)
        assert zone.is_valid
        assert len(z.anchors) >= max(12, *(len(a.units) for a in armies))
        for x, y in z.anchors:
            p = Point(x, y)
            assert zone.covers(p) and zone.exterior.distance(p) >= 2.5
            assert 2.5 <= x <= bm.width - 2.5 and 2.5 <= y <= bm.height - 2.5
            assert not any(poly.covers(p) for poly in impassable)
        for a, b in itertools.combinations(z.anchors, 2):
            assert math.dist(a, b) >= 4


def test_g4_a_ten_model_block_fits_at_every_anchor_without_overlapping_its_neighbours(bm: BattleMap):
    r = 32 / MM_PER_INCH / 2
    impassable = [Polygon(t.points) for t in bm.terrain if "impassable" in t.traits]
    for z in bm.deployment:
        zone = Polygon(z.points)
        blocks = []
        for x, y in z.anchors:
            centres = [(x + (c - 2) * (2 * r + 0.1), y + (row - 0.5) * (2 * r + 0.1)) for row in (0, 1) for c in range(5)]
            for cx, cy in centres:
                p = Point(cx, cy)
                assert zone.covers(p) and zone.exterior.distance(p) >= r
                assert all(poly.distance(p) >= r for poly in impassable)
            blocks.append(centres)
        for b1, b2 in itertools.combinations(blocks, 2):
            assert all(math.dist(p, q) >= 2 * r for p in b1 for q in b2)
