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


def _turned(points, bm: BattleMap) -> Polygon:
    """The shape turned half a turn about the battlefield's centre: player 1's view as player 2 sees it."""
    return Polygon([(bm.width - x, bm.height - y) for x, y in points])


def test_shipped_maps_are_point_symmetric_so_neither_seat_has_the_better_ground(bm: BattleMap):
    # Fairness of the shipped battles: every terrain piece has a twin with the same traits at its
    # mirror through the centre, and so do objectives, zones and each army's default anchors.
    # (The old Ashfall Crossing failed this, and player 1 won 82% of normal-vs-normal games.)
    for piece in bm.terrain:
        turned = _turned(piece.points, bm)
        twins = [t.name for t in bm.terrain
                 if set(t.traits) == set(piece.traits) and Polygon(t.points).symmetric_difference(turned).area < 1e-6]
        assert twins, f"{bm.id}: {piece.name} has no twin with traits {piece.traits} through the centre"
    spots = {(o.x, o.y) for o in bm.objectives}
    assert spots == {(bm.width - x, bm.height - y) for x, y in spots}
    zones = {z.player: z for z in bm.deployment}
    assert Polygon(zones[1].points).symmetric_difference(_turned(zones[2].points, bm)).area < 1e-6
    assert [(bm.width - x, bm.height - y) for x, y in zones[1].anchors] == [tuple(p) for p in zones[2].anchors]


def test_a_lopsided_map_fails_the_symmetry_check():
    # The check above can fail: moving one piece of the default map breaks its twin.
    bm = load_map(DEFAULT_MAP)
    moved = bm.model_copy(update={"terrain": [bm.terrain[0].model_copy(update={"points": [(x, y - 4) for x, y in bm.terrain[0].points]}), *bm.terrain[1:]]})
    with pytest.raises(AssertionError, match="has no twin"):
        test_shipped_maps_are_point_symmetric_so_neither_seat_has_the_better_ground(moved)


def _mirror_gaps(state, bm: BattleMap) -> list[str]:
    """Models of player 2 not at the mirror of player 1's model of the same index."""
    off = []
    p1 = [u for u in state.units.values() if u.player == 1]
    p2 = [u for u in state.units.values() if u.player == 2]
    for a, b in zip(p1, p2):
        for i, (ma, mb) in enumerate(zip(a.models, b.models)):
            if math.dist((ma.x, ma.y), (bm.width - mb.x, bm.height - mb.y)) > 1e-3:
                off.append(f"{b.name} model {i}")
    return off


@pytest.mark.parametrize("army", DEFAULT_ARMIES)
def test_g4_the_default_deployment_of_one_army_is_the_same_from_either_seat(bm: BattleMap, army: str):
    # Fairness again: with the same army on both sides, player 2's default deployment is player
    # 1's turned through the centre, model by model, so neither seat starts nearer the fight.
    from game.rules import Game

    state = Game.load(armies=(army, army), battlefield=bm).new_state(seed=1)
    assert _mirror_gaps(state, bm) == []


def test_g4_slots_equally_near_the_anchor_are_taken_in_the_players_own_order():
    # Why place_unit takes `facing`: with one order for both sides, a 3-model unit at mirrored
    # anchors takes its ties toward the same corner of the table, and the two sides differ.
    from game.rules.deployment import place_unit

    bm = load_map(DEFAULT_MAP)
    from game.rules.battlefield import Battlefield

    bf = Battlefield.from_map(bm)
    r = 25 / MM_PER_INCH / 2
    one = place_unit(bf, None, (30.0, 10.0), 3, r, [], facing=1)
    same = place_unit(bf, None, (30.0, 34.0), 3, r, [], facing=1)
    turned = place_unit(bf, None, (30.0, 34.0), 3, r, [], facing=-1)
    mirror = sorted((round(60 - x, 3), round(44 - y, 3)) for x, y in one)
    assert sorted((round(x, 3), round(y, 3)) for x, y in turned) == mirror
    assert sorted((round(x, 3), round(y, 3)) for x, y in same) != mirror
