"""Importing a battlefield drawn in the Tiled editor (game.data.tiled, issue 23): the shipped example
with every terrain trait, a clear message naming the object for each bad input, and the
pixels-to-inches conversion keeping shapes."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from shapely.geometry import Polygon

from game.data.check import check_files
from game.data.errors import DataError
from game.data.models import Terrain
from game.data.tiled import MAX_TMX_BYTES, map_toml, read_tmx, tmx_map_data

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "maps" / "thornwall_pass.tmx"
TRAITS = Terrain.model_fields["traits"].annotation.__args__[0].__args__  # every trait the model allows


def tmx(terrain: str = "", objectives: str = "", deployment: str | None = None, head: str = "", extra: str = "") -> str:
    """A small 60x44-tile map (16px tiles: one tile an inch) with the three layers."""
    if deployment is None:
        deployment = (
            '<object id="90" name="South" x="0" y="512" width="960" height="192">'
            '<properties><property name="player" type="int" value="1"/></properties></object>'
            '<object id="91" name="North" x="0" y="0" width="960" height="192">'
            '<properties><property name="player" type="int" value="2"/></properties></object>'
        )
    return (
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        '<map version="1.10" orientation="orthogonal" renderorder="right-down" width="60" height="44" '
        f'tilewidth="16" tileheight="16" infinite="0">{head}'
        f'<objectgroup id="1" name="terrain">{terrain}</objectgroup>'
        f'<objectgroup id="2" name="objectives">{objectives}</objectgroup>'
        f'<objectgroup id="3" name="deployment">{deployment}</objectgroup>{extra}</map>'
    )


def problems_of(tmp_path: Path, text: str | bytes, name: str = "bad.tmx") -> list[str]:
    p = tmp_path / name
    p.write_bytes(text.encode() if isinstance(text, str) else text)
    with pytest.raises(DataError) as exc:
        read_tmx(p)
    assert "Traceback" not in str(exc.value)
    return exc.value.problems


# --- the shipped example ---------------------------------------------------------------------


def test_the_example_has_every_trait_objectives_and_both_zones_and_passes_the_check(tmp_path: Path) -> None:
    bm = read_tmx(EXAMPLE)
    assert (bm.id, bm.name, bm.width, bm.height) == ("thornwall_pass", "Thornwall Pass", 60, 44)
    assert {t for piece in bm.terrain for t in piece.traits} == set(TRAITS)
    assert len(bm.objectives) == 5 and sorted(z.player for z in bm.deployment) == [1, 2]
    assert all(len(z.anchors) == 12 for z in bm.deployment)
    out = tmp_path / "thornwall_pass.toml"
    out.write_bytes(map_toml(bm, str(EXAMPLE)))
    warnings: list[str] = []
    assert check_files([out], warnings) == []
    assert not [w for w in warnings if "differs from the file name" in w]


def test_y_is_flipped_so_the_map_looks_as_drawn() -> None:
    """Tiled's y points down: the zone drawn at the bottom of the canvas is at y 0-12 (player 1's
    edge, drawn at the bottom of the battlefield), the top one at y 32-44."""
    zones = {z.player: Polygon(z.points).bounds for z in read_tmx(EXAMPLE).deployment}
    assert zones[1] == (0, 0, 60, 12) and zones[2] == (0, 32, 60, 44)


def test_an_ellipse_becomes_a_polygon_and_a_rotated_rectangle_turns_about_its_corner(tmp_path: Path) -> None:
    text = tmx(
        '<object id="1" name="Pool" x="160" y="320" width="80" height="48">'
        '<properties><property name="impassable" type="bool" value="true"/></properties><ellipse/></object>'
        '<object id="2" name="Wall" x="480" y="352" width="64" height="16" rotation="90"/>'
    )
    data, _ = tmx_map_data(text.encode(), "t.tmx")
    pool, wall = data["map"]["terrain"]
    assert Polygon(pool["points"]).area == pytest.approx(3.14159 * 2.5 * 1.5, rel=0.02)
    xs, ys = zip(*wall["points"])
    assert (min(xs), max(xs), min(ys), max(ys)) == pytest.approx((29, 30, 18, 22))


# --- bad input: one clear line naming the file, layer, object, field and value ---------------


@pytest.mark.parametrize(
    ("terrain", "words"),
    [
        (
            '<object id="7" name="Bog" x="100" y="100" width="20" height="20">'
            '<properties><property name="swampy" type="bool" value="true"/></properties></object>',
            ['layer "terrain", object 7 \'Bog\'', "'swampy'", "unknown trait", "obscuring, impassable, cover"],
        ),
        (
            '<object id="8" name="Sliver" x="100" y="100"><polygon points="0,0 10,10"/></object>',
            ["object 8 'Sliver'", "at least 3 points, got 2"],
        ),
        (
            '<object id="9" name="Far Rock" x="900" y="100" width="200" height="20"/>',
            ["object 9 'Far Rock'", "off the 960x704-pixel map", "(1100, 120) pixels"],
        ),
        ('<object id="10" x="100" y="100" width="20" height="20"/>', ["object 10", "needs a name"]),
        (
            '<object id="11" name="Bow" x="100" y="100"><polygon points="0,0 40,40 40,0 0,40"/></object>',
            ["object 11 'Bow'", "not a simple polygon", "Self-intersection"],
        ),
        (
            '<object id="12" name="Trail" x="100" y="100"><polyline points="0,0 40,40 40,0"/></object>',
            ["object 12 'Trail'", "a polyline has no area"],
        ),
        (
            '<object id="13" name="Moss" x="100" y="100" width="20" height="20">'
            '<properties><property name="cover" value="maybe"/></properties></object>',
            ["object 13 'Moss'", "'cover'", '"maybe" is not true or false'],
        ),
    ],
)
def test_a_bad_terrain_object_is_named(tmp_path: Path, terrain: str, words: list[str]) -> None:
    (line,) = problems_of(tmp_path, tmx(terrain))
    assert line.startswith(f"{tmp_path / 'bad.tmx'}: ")
    for w in words:
        assert w in line, (w, line)


def test_bad_objectives_and_zones_are_named(tmp_path: Path) -> None:
    found = problems_of(
        tmp_path,
        tmx(
            objectives='<object id="3" name="Lost" x="-5" y="40"><point/></object>',
            deployment='<object id="4" name="Camp" x="0" y="512" width="960" height="192">'
            '<properties><property name="player" type="int" value="3"/></properties></object>'
            '<object id="5" name="Stray" x="480" y="300"><point/></object>',
        ),
    )
    text = "\n".join(found)
    assert 'layer "objectives", object 3 \'Lost\'' in text and "off the 960x704-pixel map" in text
    assert 'layer "deployment", object 4 \'Camp\'' in text and "player property of 1 or 2" in text
    assert "object 5 'Stray'" in text and "lies in no deployment zone" in text


def test_the_map_checks_name_the_tiled_objects_too(tmp_path: Path) -> None:
    """An objective inside impassable terrain is found by the checks every map goes through
    (geocheck); its message names the Tiled objects as well as the map fields."""
    (line,) = problems_of(
        tmp_path,
        tmx(
            '<object id="1" name="Crag" x="400" y="300" width="160" height="100">'
            '<properties><property name="impassable" type="bool" value="true"/></properties></object>',
            '<object id="2" name="Summit" x="480" y="352"><point/></object>',
        ),
    )
    assert "map.objectives[0] (layer \"objectives\", object 2 'Summit')" in line
    assert "impassable terrain map.terrain[0] (layer \"terrain\", object 1 'Crag')" in line


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("<map><objectgroup name='terrain'>", ["malformed XML at line 1", "no element found"]),
        ("not xml at all", ["malformed XML", "syntax error"]),
        ("<svg></svg>", ["not a Tiled map", "<svg>"]),
        (
            '<?xml version="1.0"?><!DOCTYPE map [<!ENTITY a "aaaa"><!ENTITY b "&a;&a;&a;">]><map>&b;</map>',
            ["<!DOCTYPE> or <!ENTITY>", "not expanded"],
        ),
        (tmx().replace('<objectgroup id="2" name="objectives"></objectgroup>', ""), ['layer "objectives": missing']),
        (tmx().replace('orientation="orthogonal"', 'orientation="isometric"'), ['"isometric" is not supported']),
        (tmx().replace('infinite="0"', 'infinite="1"'), ["infinite map has no size"]),
        (tmx(head='<properties><property name="scale" value="2"/></properties>'), ["map property 'scale': unknown"]),
        (
            tmx(head='<properties><property name="pixels_per_inch" value="none"/></properties>'),
            ['pixels_per_inch: "none" is not a number above 0'],
        ),
        (tmx(head='<properties><property name="pixels_per_inch" type="float" value="1"/></properties>'), ["120x120"]),
        (tmx(head='<properties><property name="id" value="Big Map"/></properties>'), ['the map property "id"']),
        (tmx(deployment=""), ["no deployment zone for player 1"]),
    ],
)
def test_a_bad_file_is_one_clear_message(tmp_path: Path, text: str, words: list[str]) -> None:
    found = "\n".join(problems_of(tmp_path, text))
    assert str(tmp_path / "bad.tmx") in found
    for w in words:
        assert w in found, (w, found)


def test_a_file_over_the_cap_is_refused_before_parsing(tmp_path: Path) -> None:
    (line,) = problems_of(tmp_path, b"<map>" + b" " * MAX_TMX_BYTES + b"</map>")
    assert "too large" in line


def test_tilesets_and_tile_layers_are_never_opened(tmp_path: Path) -> None:
    """A tileset file that does not exist and zlib tile data that is not zlib: both are dropped
    before pytmx reads the map, so the objects import all the same."""
    extra = (
        '<tileset firstgid="1" source="nowhere/tiles.tsx"/>'
        '<layer id="9" name="ground" width="60" height="44"><data encoding="base64" compression="zlib">'
        "bm90IHpsaWI=</data></layer>"
    )
    (tmp_path / "ok.tmx").write_text(tmx(extra=extra))
    bm = read_tmx(tmp_path / "ok.tmx")
    assert bm.id == "ok" and bm.name == "Ok" and len(bm.deployment) == 2


# --- pixels to inches keeps the shape ---------------------------------------------------------

coords = st.integers(min_value=0, max_value=640)


@settings(max_examples=60, deadline=None)
@given(
    ppi=st.sampled_from([8, 10, 16, 25, 32]),
    x=coords,
    y=coords,
    w=st.integers(min_value=8, max_value=300),
    h=st.integers(min_value=8, max_value=300),
    tri=st.tuples(st.integers(20, 200), st.integers(20, 200)),
)
def test_rectangles_and_polygons_keep_their_shape_scaled_by_1_over_ppi(ppi, x, y, w, h, tri) -> None:
    """Area in square inches is the area in pixels / ppi^2, and the shape is the same up to the
    flip of y (a mirror keeps areas)."""
    grid = 960  # pixels each way: at 8 ppi a 120" battlefield, the largest
    head = f'<properties><property name="pixels_per_inch" type="float" value="{ppi}"/></properties>'
    text = tmx(
        f'<object id="1" name="Box" x="{x}" y="{y}" width="{w}" height="{h}"/>'
        f'<object id="2" name="Tri" x="{x}" y="{y}"><polygon points="0,0 {tri[0]},0 0,{tri[1]}"/></object>',
        deployment="",
        head=head,
    ).replace(
        'width="60" height="44" tilewidth="16" tileheight="16"',
        f'width="{grid}" height="{grid}" tilewidth="1" tileheight="1"',
    )
    data, _ = tmx_map_data(text.encode(), "p.tmx")
    box, triangle = (Polygon(t["points"]) for t in data["map"]["terrain"])
    assert box.area == pytest.approx(w * h / ppi**2, rel=1e-3)
    assert triangle.area == pytest.approx(tri[0] * tri[1] / 2 / ppi**2, rel=1e-3)
    size = grid / ppi
    assert box.bounds == pytest.approx((x / ppi, size - (y + h) / ppi, (x + w) / ppi, size - y / ppi), abs=1e-3)
