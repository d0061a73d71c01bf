"""`spellfield check`: every problem of every file, "OK <file>" for good ones, exit status."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from game.data.check import check_files, main

REPO = Path(__file__).resolve().parents[2]
EMBEDDED = sorted((REPO / "maps").glob("*.toml")) + sorted((REPO / "game" / "content").glob("*.toml"))


def test_every_embedded_map_and_content_file_checks_clean():
    warnings: list[str] = []
    assert check_files(EMBEDDED, warnings) == []
    assert warnings == []


@pytest.mark.parametrize("path", EMBEDDED, ids=lambda p: p.name)
def test_each_embedded_file_checks_clean_on_its_own(path: Path):
    assert check_files([path]) == []


def test_check_main_prints_ok_for_good_files(capsys):
    assert main([str(p) for p in EMBEDDED]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out == [f"OK {p}" for p in EMBEDDED]


def test_check_main_returns_nonzero_for_a_broken_copy_of_a_map(tmp_path: Path, capsys):
    src = REPO / "maps" / "ashfall_crossing.toml"
    broken = tmp_path / "ashfall_crossing.toml"
    text = src.read_text()
    first = text.index("points = [[24, 22]")
    broken.write_text(text[:first] + "points = [[1, 2], [3, 4]]" + text[text.index("\n", first):])
    assert main([str(broken), str(src)]) == 1
    out = capsys.readouterr().out
    assert f"{broken}: map.terrain[0].points: needs at least 3 points, got 2 (got [[1, 2], [3, 4]])" in out
    assert f"OK {src}" in out


def test_m8_check_single_lore_file_against_embedded_content(write):
    # RULES.md M8: a lore lists known spells; checking one file resolves names in the game content.
    good = write("my_lore.toml", '[[lore]]\nid = "my_lore"\nname = "Mine"\nkind = "spell"\nabilities = ["spark_lash", "marsh_sting"]\n')
    assert check_files([good]) == []
    bad = write("bad_lore.toml", '[[lore]]\nid = "bad_lore"\nname = "Bad"\nkind = "spell"\nabilities = ["spark_lash", "meteor"]\n')
    assert check_files([bad]) == [f"{bad}: lore 'bad_lore': abilities[1]: no spell or prayer has id 'meteor' (M8)"]


def test_check_files_that_refer_to_each_other_together(write):
    spells = write("spells.toml", '[[ability]]\nid = "meteor"\nname = "Meteor"\nkind = "spell"\nvalue = 8\nrange = 18\neffects = [{ handler = "mortal_damage", amount = "D6" }]\n')
    lore = write("lore.toml", '[[lore]]\nid = "sky"\nname = "Sky"\nkind = "spell"\nabilities = ["meteor"]\n')
    assert check_files([spells, lore]) == []


def test_check_rejects_duplicate_id_across_checked_files(write):
    text = '[[lore]]\nid = "sky"\nname = "Sky"\nkind = "spell"\nabilities = ["spark_lash"]\n'
    a, b = write("a.toml", text), write("b.toml", text)
    assert check_files([a, b]) == [f"{b}: duplicate lore id 'sky' (defined first in {a})"]


def test_check_rejects_self_intersecting_terrain(write, minimal_map):
    path = write("tiny.toml", minimal_map.replace("[[28, 20], [32, 20], [32, 24], [28, 24]]", "[[28, 20], [32, 24], [32, 20], [28, 24]]"))
    [msg] = check_files([path])
    assert msg.startswith(f"{path}: map.terrain[0].points: 'Rock' is not a simple polygon: Self-intersection")


def test_check_rejects_objective_inside_impassable_terrain(write, minimal_map):
    path = write("tiny.toml", minimal_map.replace("x = 20", "x = 30"))
    assert check_files([path]) == [f"{path}: map.objectives[0]: (30, 22) lies inside impassable terrain map.terrain[0] ('Rock')"]


def test_check_rejects_anchor_outside_its_zone(write, minimal_map):
    path = write("tiny.toml", minimal_map.replace("anchors = [[10, 38]]", "anchors = [[10, 38], [20, 20]]"))
    assert check_files([path]) == [f"{path}: map.deployment[1].anchors[1]: (20, 20) is outside player 2's deployment zone"]


def test_check_rejects_missing_and_overlapping_zones(write, minimal_map):
    one_zone = minimal_map[: minimal_map.index("[[map.deployment]]\nplayer = 2")]
    path = write("tiny.toml", one_zone)
    assert check_files([path]) == [f"{path}: map.deployment: no deployment zone for player 2"]
    overlap = write("overlap.toml", minimal_map.replace("[[0, 32], [60, 32]", "[[0, 10], [60, 10]"))
    assert f"{overlap}: map.deployment[0] and map.deployment[1]: the two deployment zones overlap" in check_files([overlap])


def test_check_objective_count_is_advice_not_an_error(write, minimal_map):
    path = write("tiny.toml", minimal_map)
    warnings: list[str] = []
    assert check_files([path], warnings) == []
    assert any("1 objectives; 4-6 are recommended" in w for w in warnings)
    assert any("1 anchors; 12 are recommended" in w for w in warnings)


def test_check_rejects_files_that_are_neither_maps_nor_content(write):
    path = write("notes.toml", 'title = "hello"\n')
    [msg] = check_files([path])
    assert msg.startswith(f"{path}: not a map file")


def test_check_reports_every_file(write, tmp_path: Path, capsys):
    bad = write("bad.toml", "x = = 1\n")
    huge = write("huge.toml", "#" * (2 << 20))
    missing = tmp_path / "missing.toml"
    assert main([str(bad), str(huge), str(missing)]) == 1
    out = capsys.readouterr().out
    assert f"{bad}: line 1, column 5: invalid value" in out
    assert f"{huge}: file is too large (2,097,152 bytes); the limit is 1,048,576 bytes (1.0 MiB)" in out
    assert f"{missing}: no such file" in out


def test_check_main_copies_of_embedded_content_still_check_clean(tmp_path: Path):
    copies = []
    for p in (REPO / "game" / "content").glob("*.toml"):
        shutil.copy(p, tmp_path / p.name)
        copies.append(tmp_path / p.name)
    assert main([str(p) for p in copies]) == 0
