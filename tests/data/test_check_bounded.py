"""One validation for every way in, bounded work, strict values and the nesting guard.

* `spellfield check F`, `play --map F` and `record OUT --map F` give the same error for a
  broken map (they run the same checks: `load_map_data` runs `map_problems`).
* A demonstration that cannot run is refused by `check` and by `spellfield demo`.
* `check` on thousands of anchors is near-linear, its messages capped per kind.
* NaN, infinities, absurd sizes, strings for numbers and booleans for numbers are refused
  with the field path.
* The TOML nesting guard measures real nesting: prose and long polygons pass, deep nesting
  and deep dotted keys do not.
"""

from __future__ import annotations

import math
import re
import tracemalloc
from pathlib import Path

import pytest

from game.cli import main as cli_main
from game.data.check import check_files
from game.data.check import main as check_main
from game.data.errors import DataError
from game.data.geocheck import MAX_PER_KIND, MIN_ANCHOR_SPACING, map_problems
from game.data.loader import MAX_KEY_PARTS, MAX_NESTING, load_content_file, load_map_file, read_toml
from game.data.models import MAX_ANCHORS, BattleMap, DeploymentZone, Objective, Terrain
from tests.data.conftest import MINIMAL_MAP

REPO = Path(__file__).resolve().parents[2]
ROCK = "[[28, 20], [32, 20], [32, 24], [28, 24]]"

# --- one validation: check, play --map and record --map agree ---------------------------------

BROKEN_MAPS = {
    "coincident": (MINIMAL_MAP.replace(ROCK, "[[28, 20], [28, 20], [28, 20]]"),
                   "map.terrain[0].points: 'Rock' is not a simple polygon: its 3 points coincide in 1 distinct point"),
    "coincident_four": (MINIMAL_MAP.replace(ROCK, "[[28, 20], [28, 20], [30, 22], [28, 20]]"),
                        "map.terrain[0].points: 'Rock' is not a simple polygon: its 4 points coincide in 2 distinct points"),
    "bowtie": (MINIMAL_MAP.replace(ROCK, "[[28, 20], [32, 24], [32, 20], [28, 24]]"),
               "map.terrain[0].points: 'Rock' is not a simple polygon: Self-intersection"),
    "objective_in_rock": (MINIMAL_MAP.replace("x = 20", "x = 30"),
                          "map.objectives[0]: (30, 22) lies inside impassable terrain map.terrain[0] ('Rock')"),
    "anchor_outside": (MINIMAL_MAP.replace("anchors = [[10, 38]]", "anchors = [[10, 38], [20, 20]]"),
                       "map.deployment[1].anchors[1]: (20, 20) is outside player 2's deployment zone"),
    "no_zone_2": (MINIMAL_MAP[: MINIMAL_MAP.index("[[map.deployment]]\nplayer = 2")],
                  "map.deployment: no deployment zone for player 2"),
    "nan_objective": (MINIMAL_MAP.replace("x = 20", "x = nan"), "map.objectives[0].x: should be a finite number (got nan)"),
}


@pytest.mark.parametrize("name", sorted(BROKEN_MAPS))
def test_check_play_and_record_refuse_a_broken_map_with_the_same_message(name, tmp_path, capsys):
    text, reason = BROKEN_MAPS[name]
    path = tmp_path / f"{name}.toml"
    path.write_text(text)
    expected = f"{path}: {reason}"

    assert cli_main(["check", str(path)]) == 1
    out = capsys.readouterr()
    [checked] = [line for line in out.out.splitlines() if not line.startswith("warning:")]
    assert checked.startswith(expected)

    out_file = tmp_path / "out.json"
    for argv in (["play", "--text", "--map", str(path)], ["play", "--headless", "--frames", "1", "--map", str(path)],
                 ["record", str(out_file), "--map", str(path)]):
        assert cli_main(argv) == 2, argv
        err = capsys.readouterr().err
        assert err.startswith("spellfield: error: ") and "Traceback" not in err
        assert err[len("spellfield: error: "):].splitlines() == [checked], argv
    assert not out_file.exists()


def test_game_load_refuses_a_battlemap_built_in_code_with_coincident_points():
    from game.rules.game import Game

    bm = BattleMap(id="built", name="Built", terrain=[Terrain(name="Dot", traits=["impassable"], points=[(5, 5), (5, 5), (5, 5)])])
    with pytest.raises(DataError) as info:
        Game.load(battlefield=bm)
    assert info.value.problems == ["map 'built': map.terrain[0].points: 'Dot' is not a simple polygon: its 3 points "
                                   "coincide in 1 distinct point; a polygon needs 3 or more"]


def test_the_map_warnings_stay_warnings_and_loading_computes_none(tmp_path):
    path = tmp_path / "tiny.toml"
    path.write_text(MINIMAL_MAP)
    load_map_file(path)  # loads: advice does not fail it
    warnings: list[str] = []
    assert check_files([path], warnings) == []
    assert f"{path}: map.objectives: 1 objectives; 4-6 are recommended" in warnings


# --- demonstrations that cannot run --------------------------------------------------------

M3 = (REPO / "maps" / "demos" / "m3_miscast.toml").read_text()
BEAST = "models = [[15.5591, 12]]"

BROKEN_DEMOS = {
    "off_the_field": (M3.replace(BEAST, "models = [[40, 12]]"),
                      "unit[1].models[0] ('beast', (40, 12)): the base (1.77\" radius) lies off the 36x24 battlefield (G3)"),
    "overlapping": (M3.replace(BEAST, "models = [[8.5, 12]]"),
                    "unit[1].models[0] ('beast'): overlaps unit[0].models[0] ('magister') by 2.06\" (G4)"),
    "too_many_models": (M3.replace(BEAST, "models = [[15.5591, 12], [15.5591, 18]]"),
                        "unit[1].models: 2 models, but a unit of Bog Behemoth has 1 (warscroll 'bog_behemoth')"),
    "slain_by_its_damage": (M3.replace(BEAST, BEAST + "\ndamage = 12"),
                            "unit[1].damage: 12 damage on a model with 12 health; it must be 0 to 11"),
    "in_impassable_terrain": (M3.replace("height = 24\n", 'height = 24\nterrain = [{ name = "Pit", traits = ["impassable"], '
                                          'points = [[14, 10], [18, 10], [18, 14], [14, 14]] }]\n'),
                              "unit[1].models[0] ('beast', (15.5591, 12)): overlaps impassable terrain 'Pit' (G4)"),
    "broken_terrain": (M3.replace("height = 24\n", 'height = 24\nterrain = [{ name = "Dot", points = [[1, 1], [1, 1], [1, 1]] }]\n'),
                       "battlefield.terrain[0].points: 'Dot' is not a simple polygon: its 3 points coincide"),
}


@pytest.mark.parametrize("name", sorted(BROKEN_DEMOS))
def test_a_demo_that_cannot_run_is_refused_by_check_and_by_demo(name, tmp_path, capsys):
    text, reason = BROKEN_DEMOS[name]
    path = tmp_path / f"{name}.toml"
    path.write_text(text)
    assert cli_main(["check", str(path)]) == 1
    out = capsys.readouterr().out
    assert f"{path}: {reason}" in out, out
    assert cli_main(["demo", str(path)]) == 2
    err = capsys.readouterr().err
    assert f"spellfield: error: {path}: {reason}" in err and "Traceback" not in err


def test_the_shipped_demo_with_touching_bases_still_loads():
    from game.demos import load_demo

    load_demo("e7_e5_one_per_wizard_unit")  # its coven stands 0.00005" closer than touching


# --- bounded work --------------------------------------------------------------------------


def _dense_anchors(n: int) -> list[tuple[float, float]]:
    """n distinct anchors in a 2.5" square: every pair closer than the advised 4"."""
    side = math.ceil(math.sqrt(n))
    return [(20 + 2.5 * (k % side) / side, 4 + 2.5 * (k // side) / side) for k in range(n)]


def _map_with_anchors(anchors) -> BattleMap:
    zones = [DeploymentZone.model_construct(player=1, points=[(0, 0), (60, 0), (60, 12), (0, 12)], anchors=anchors),
             DeploymentZone.model_construct(player=2, points=[(0, 32), (60, 32), (60, 44), (0, 44)], anchors=[(10, 38)])]
    return BattleMap.model_construct(id="many", name="Many", width=60.0, height=44.0,
                                     terrain=[Terrain(name="Rock", traits=["impassable"], points=[(28, 20), (32, 20), (32, 24), (28, 24)])],
                                     objectives=[Objective(x=20, y=22)], deployment=zones)


@pytest.mark.parametrize("n", [2000, 8000])
def test_anchor_checks_are_bounded_in_lines_and_memory(n):
    # the schema caps anchors at MAX_ANCHORS; model_construct goes around it to test the checks
    warn: list[str] = []
    tracemalloc.start()
    try:
        problems = map_problems(_map_with_anchors(_dense_anchors(n)), "many.toml", warn)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert problems == []
    close = [w for w in warn if "apart; 4\" is recommended" in w]
    assert len(close) == MAX_PER_KIND
    [more] = [w for w in warn if "more like this (anchors too close)" in w]
    left = int(re.search(r"\.\.\. and (\d+) more", more).group(1))
    # each anchor is reported at most once (with its nearest), each close pair at least once
    assert n // 2 <= MAX_PER_KIND + left <= n
    assert len(warn) <= 3 * MAX_PER_KIND  # before: n(n-1)/2 lines (two million at 2,000 anchors)
    assert peak < 100 * 2**20  # bytes; before: 4.7 GB at 8,000 anchors


def test_anchor_spacing_advice_names_each_close_pair_once():
    warn: list[str] = []
    map_problems(_map_with_anchors([(10, 6), (12, 6), (30, 6), (30, 6), (50, 6)]), "m.toml", warn)
    close = sorted(w for w in warn if "apart" in w)
    assert close == [
        'm.toml: map.deployment[0].anchors[0] and [1]: only 2.00" apart; 4" is recommended',
        'm.toml: map.deployment[0].anchors[2] and [3]: only 0.00" apart; 4" is recommended',
    ]
    assert MIN_ANCHOR_SPACING == 4.0


def test_anchor_errors_are_capped_too():
    bm = _map_with_anchors([(20, 20 + k / 100) for k in range(500)])  # all in no man's land
    problems = map_problems(bm, "m.toml")
    assert len(problems) == 2 * MAX_PER_KIND + 1
    assert problems[-1] == "m.toml: map.deployment[0].anchors: ... and 480 more like this (outside the zone)"


@pytest.mark.parametrize("n", [2000, 8000])
def test_check_refuses_thousands_of_anchors_in_one_line(n, tmp_path, capsys):
    lines = "".join(f"    [{x:.4f}, {y:.4f}],\n" for x, y in _dense_anchors(n))
    path = tmp_path / "many.toml"
    path.write_text(MINIMAL_MAP.replace("anchors = [[10, 6]]", f"anchors = [\n{lines}]"))
    assert check_main([str(path)]) == 1
    out = capsys.readouterr().out.splitlines()
    [line] = out
    assert line.startswith(f"{path}: map.deployment[0].anchors: should have at most {MAX_ANCHORS} items after validation, "
                           f"not {n} (got [[20.0, 4.0], ")


def test_anchors_at_the_cap_pass_and_one_more_is_refused(tmp_path):
    def write(n: int) -> Path:
        pts = ", ".join(f"[{2 + (k % 50) * 1.1:.2f}, {3 + (k // 50) * 4}]" for k in range(n))
        p = tmp_path / f"cap{n}.toml"
        p.write_text(MINIMAL_MAP.replace("anchors = [[10, 6]]", f"anchors = [{pts}]"))
        return p

    assert len(load_map_file(write(MAX_ANCHORS)).deployment[0].anchors) == MAX_ANCHORS
    with pytest.raises(DataError) as info:
        load_map_file(write(MAX_ANCHORS + 1))
    assert "map.deployment[0].anchors: should have at most 100 items after validation, not 101" in info.value.problems[0]


# --- strict values: NaN, infinities, absurd sizes, strings and booleans for numbers ---------

MANIFESTATION = """\
[[manifestation]]
id = "orb"
name = "Orb"
kind = "endless_spell"
move = 6
health = 3
save = 5
banishment = 6
footprint = {footprint}
"""

WARSCROLL = """\
[[warscroll]]
id = "militia"
name = "Militia"
models = 10
base = {{ round_mm = {base} }}
move = 5
health = 1
save = 5
"""

BAD_CONTENT = {
    "nan_radius": (MANIFESTATION.format(footprint="{ round_mm = nan }"),
                   "manifestation[0].footprint.round_mm: should be a finite number (got nan)"),
    "inf_radius": (MANIFESTATION.format(footprint="{ round_mm = inf }"),
                   "manifestation[0].footprint.round_mm: should be a finite number (got inf)"),
    "absurd_radius": (MANIFESTATION.format(footprint="{ round_mm = 1e9 }"),
                      "manifestation[0].footprint.round_mm: should be less than or equal to 300 (got 1000000000.0)"),
    "nan_polygon": (MANIFESTATION.format(footprint="{ polygon = [[0, 1], [1, nan], [-1, 0]] }"),
                    "manifestation[0].footprint.polygon[1][1]: should be a finite number (got nan)"),
    "inf_polygon": (MANIFESTATION.format(footprint="{ polygon = [[0, 1], [1, -inf], [-1, 0]] }"),
                    "manifestation[0].footprint.polygon[1][1]: should be a finite number (got -inf)"),
    "absurd_polygon": (MANIFESTATION.format(footprint="{ polygon = [[0, 1], [1000, 0], [-1, 0]] }"),
                       "manifestation[0].footprint.polygon: point [1] (1000, 0) is more than 12\" from the centre (0, 0)"),
    "string_for_radius": (MANIFESTATION.format(footprint='{ round_mm = "40" }'),
                          "manifestation[0].footprint.round_mm: should be a valid number (got \"40\")"),
    "nan_base": (WARSCROLL.format(base="nan"), "warscroll[0].base.round_mm: should be a finite number (got nan)"),
    "zero_base": (WARSCROLL.format(base="0"), "warscroll[0].base.round_mm: should be greater than or equal to 1 (got 0)"),
    "bool_for_int": (WARSCROLL.format(base="25").replace("health = 1", "health = true"),
                     "warscroll[0].health: should be a valid integer (got true)"),
    "string_for_int": (WARSCROLL.format(base="25").replace("models = 10", 'models = "10"'),
                       "warscroll[0].models: should be a valid integer (got \"10\")"),
    "bool_for_float": (WARSCROLL.format(base="25").replace("move = 5", "move = false"),
                       "warscroll[0].move: should be a valid number (got false)"),
}


@pytest.mark.parametrize("name", sorted(BAD_CONTENT))
def test_bad_content_values_are_refused_with_the_field_path(name, tmp_path):
    text, reason = BAD_CONTENT[name]
    path = tmp_path / "bad.toml"
    path.write_text(text)
    with pytest.raises(DataError) as info:
        load_content_file(path)
    [problem] = info.value.problems
    assert problem.startswith(f"{path}: {reason}")
    assert check_files([path]) == [problem]


def test_ints_are_still_accepted_for_floats(tmp_path):
    path = tmp_path / "ok.toml"
    path.write_text(WARSCROLL.format(base="25"))  # move = 5, round_mm = 25: ints for floats
    assert load_content_file(path).warscroll[0].move == 5.0


BAD_MAP_VALUES = {
    "string_x": (MINIMAL_MAP.replace("x = 20", 'x = "1"'), 'map.objectives[0].x: should be a valid number (got "1")'),
    "bool_player": (MINIMAL_MAP.replace("player = 2", "player = true"),
                    "map.deployment[1].player: should be a number, not true (got true)"),
    "bool_width": (MINIMAL_MAP.replace("width = 60", "width = true"), "map.width: should be a valid number (got true)"),
    "string_point": (MINIMAL_MAP.replace("[[10, 6]]", '[[10, "6"]]'),
                     'map.deployment[0].anchors[0][1]: should be a valid number (got "6")'),
    "inf_point": (MINIMAL_MAP.replace("[[10, 6]]", "[[inf, 6]]"),
                  "map.deployment[0].anchors[0][0]: should be a finite number (got inf)"),
}


@pytest.mark.parametrize("name", sorted(BAD_MAP_VALUES))
def test_bad_map_values_are_refused_with_the_field_path(name, tmp_path):
    text, reason = BAD_MAP_VALUES[name]
    path = tmp_path / "bad.toml"
    path.write_text(text)
    with pytest.raises(DataError) as info:
        load_map_file(path)
    assert info.value.problems == [f"{path}: {reason}"]


@pytest.mark.parametrize("old, new, reason", [
    ("[demo]\n", "[start]\nround = true\n\n[demo]\n", "start.round: should be a valid integer (got true)"),
    ("[demo]\n", "[start]\nactive = true\n\n[demo]\n", "start.active: should be a number, not true (got true)"),
    ("player = 2\n", 'player = "2"\n', "unit[1].player: should be 1 or 2 (got \"2\")"),
    ("models = [[8, 12]]", 'models = [["8", 12]]', 'unit[0].models[0][0]: should be a valid number (got "8")'),
    ("dice = [1, 1, 3, 1, 1, 1]", "dice = [1, true, 3, 1, 1, 1]", "dice[1]: should be a valid integer or should be a valid dictionary"),
    ("dice = [1, 1, 3, 1, 1, 1]", "dice = [1, 7, 3, 1, 1, 1]", "dice: dice[1] is 7; a scripted die shows 1 to 6"),
])
def test_bad_demo_values_are_refused_with_the_field_path(old, new, reason, tmp_path):
    from game.demos import load_demo

    path = tmp_path / "bad.toml"
    assert old in M3
    path.write_text(M3.replace(old, new, 1))
    with pytest.raises(DataError) as info:
        load_demo(path)
    assert any(p.startswith(f"{path}: {reason}") for p in info.value.problems), info.value.problems


# --- the nesting guard ----------------------------------------------------------------------


def test_long_prose_full_of_dots_passes_the_nesting_guard(tmp_path):
    prose = ("Go. Burn... Stop... See p. 12. " * 80)[:2000]
    assert len(prose) == 2000 and prose.count(".") > 500
    path = tmp_path / "prose.toml"
    path.write_text('[[ability]]\nid = "glow"\nname = "Glow"\nkind = "spell"\nvalue = 5\n'
                    f'effects = [{{ handler = "save_buff", value = 1 }}]\ntext = "{prose}"\n'
                    f"# a comment with dots too: {'a.' * 600}\n")
    assert load_content_file(path).ability[0].text == prose


def test_a_600_point_polygon_passes_the_nesting_guard(tmp_path):
    pts = ", ".join(f"[{45 + 3 * math.cos(2 * math.pi * k / 600):.4f}, {22 + 3 * math.sin(2 * math.pi * k / 600):.4f}]"
                    for k in range(600))
    path = tmp_path / "round.toml"
    path.write_text(MINIMAL_MAP.replace(ROCK, f"[{pts}]"))
    assert len(load_map_file(path).terrain[0].points) == 600


def test_ten_thousand_nested_arrays_are_refused_clearly(tmp_path):
    path = tmp_path / "deep.toml"
    path.write_text("a = " + "[" * 10_000 + "]" * 10_000 + "\n")
    with pytest.raises(DataError) as info:
        read_toml(path)
    assert info.value.problems == [f"{path}: nesting too deep: arrays or inline tables nested more than {MAX_NESTING} deep (line 1)"]


def test_nesting_at_the_limit_passes_and_one_more_is_refused(tmp_path):
    ok, deep = tmp_path / "ok.toml", tmp_path / "deep.toml"
    ok.write_text("a = " + "[" * MAX_NESTING + "]" * MAX_NESTING + "\n")
    deep.write_text("a = " + "[" * (MAX_NESTING + 1) + "]" * (MAX_NESTING + 1) + "\n")
    assert "a" in read_toml(ok)
    with pytest.raises(DataError, match="nesting too deep"):
        read_toml(deep)


def test_brackets_and_dots_inside_strings_do_not_count(tmp_path):
    path = tmp_path / "s.toml"
    path.write_text('a = "' + "[" * 5000 + '"\nb = \'' + "{" * 5000 + "'\n"
                    'c = """\n' + "x.y." * 3000 + '\n"""\n' + "d = '''" + "[." * 3000 + "'''\n")
    data = read_toml(path)
    assert data["a"] == "[" * 5000 and len(data["d"]) == 6000


def test_dotted_keys_at_the_limit_pass_and_one_more_part_is_refused(tmp_path):
    ok, deep = tmp_path / "ok.toml", tmp_path / "deep.toml"
    ok.write_text(".".join(["a"] * MAX_KEY_PARTS) + " = 1\n")
    deep.write_text("x = 1\n" + " . ".join(['"a"'] * (MAX_KEY_PARTS + 1)) + " = 1\n")
    assert read_toml(ok)
    with pytest.raises(DataError) as info:
        read_toml(deep)
    assert info.value.problems == [f"{deep}: line 2: nesting too deep (a dotted key of {MAX_KEY_PARTS + 1} parts; "
                                   f"at most {MAX_KEY_PARTS} parts such as a.b.c are read)"]
