"""Issue 22, domain "cli": `spellfield check` words its problems in Korean and Japanese. The data
layer keeps its English (byte for byte, in every language); the CLI words each reason at display,
and the file and the field paths stay exactly as written (M8 lores, M9 summoning, G3/G4 shapes)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from i18n_rulewords import english_words

from game import cli, i18n
from game.check_words import check_line
from game.data.check import check_files

MAP = """\
[map]
id = "tiny"
name = "Tiny"
width = 60
height = 44

[[map.terrain]]
name = "Rock"
traits = ["impassable"]
points = [[28, 20], [32, 20], [32, 24], [28, 24]]

[[map.objectives]]
x = 20
y = 22

[[map.deployment]]
player = 1
points = [[0, 0], [60, 0], [60, 12], [0, 12]]
anchors = [[10, 6]]

[[map.deployment]]
player = 2
points = [[0, 32], [60, 32], [60, 44], [0, 44]]
anchors = [[10, 38]]
"""
LORE = '[[lore]]\nid = "{id}"\nname = "Mine"\nkind = "{kind}"\nabilities = [{abilities}]\n'
SPELL = (
    '[[ability]]\nid = "meteor"\nname = "Meteor"\nkind = "spell"\nvalue = {value}\nrange = 18\n'
    'effects = [{{ handler = "{handler}", amount = "D6" }}]\n'
)
#: (file name, text): one file per common kind of problem
FILES = {
    "bad_toml.toml": "x = = 1\n",
    "unknown_key.toml": MAP.replace('name = "Rock"', 'name = "Rock"\nheight_in = 3'),
    "wrong_type.toml": MAP.replace("width = 60", 'width = "sixty"'),
    "missing_field.toml": MAP.replace('name = "Tiny"\n', ""),
    "bowtie.toml": MAP.replace("[[28, 20], [32, 20], [32, 24], [28, 24]]", "[[28, 20], [32, 24], [32, 20], [28, 24]]"),
    "two_points.toml": MAP.replace("[[28, 20], [32, 20], [32, 24], [28, 24]]", "[[28, 20], [32, 24]]"),
    "in_rock.toml": MAP.replace("x = 20", "x = 30"),
    "off_zone.toml": MAP.replace("anchors = [[10, 38]]", "anchors = [[10, 38], [20, 20]]"),
    "one_zone.toml": MAP.split("[[map.deployment]]\nplayer = 2")[0],
    "notes.toml": 'title = "hello"\n',
    "bad_lore.toml": LORE.format(id="bad_lore", kind="spell", abilities='"spark_lash", "meteor_x"'),
    "wrong_kind_lore.toml": LORE.format(id="wrong_kind", kind="prayer", abilities='"spark_lash"'),
    "summon_lore.toml": LORE.format(id="summons", kind="manifestation", abilities='"spark_lash"'),
    "out_of_range.toml": SPELL.format(value=-3, handler="mortal_damage"),
    "bad_handler.toml": SPELL.format(value=7, handler="fireball"),
}


@pytest.fixture
def files(tmp_path: Path) -> list[str]:
    out = []
    for name, text in FILES.items():
        (tmp_path / name).write_text(text, encoding="utf-8")
        out.append(str(tmp_path / name))
    (tmp_path / "dup_a.toml").write_text(LORE.format(id="sky", kind="spell", abilities='"spark_lash"'))
    (tmp_path / "dup_b.toml").write_text(LORE.format(id="sky", kind="spell", abilities='"spark_lash"'))
    return [*out, str(tmp_path / "dup_a.toml"), str(tmp_path / "dup_b.toml")]


@pytest.fixture
def lang(monkeypatch):
    for var in ("SPELLFIELD_LANG", "LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        monkeypatch.delenv(var, raising=False)
    yield monkeypatch
    i18n.set_language("en")


def _left(line: str, tmp: str) -> list[str]:
    """English words left once the file, the field paths, quoted ids and [tables] are taken out."""
    line = line.replace(tmp, "")
    line = re.sub(r"\((?:값|値): .*\)\Z", " ", line)  # the value the file holds, as written
    line = re.sub(r"[a-z_]+(?:\.[a-z_]+|\[\d+\])+", " ", line)  # paths: map.terrain[0].points
    line = re.sub(r"'[^']*'|\"[^\"]*\"|\[\[?\w+\]?\]|\w+\.toml", " ", line)
    line = re.sub(r"[a-z_]+(?:, [a-z_]+)+", " ", line)  # a file's own keys: name, traits, points
    line = re.sub(r"(?<![A-Za-z])(got|nan|inf|true|false|MiB|abilities|spells)(?![A-Za-z])", " ", line)
    return english_words(line)


def test_the_problems_cover_every_common_kind(files):
    """The data layer's English problems: unknown key, bad TOML, wrong type, missing field, out
    of range, polygons, deployment, duplicate id and the M8/M9 lore problems."""
    problems = "\n".join(check_files(files))
    for words in (
        "unknown key",
        "invalid value",
        "should be a valid",
        "missing required field",
        "not a simple polygon",
        "needs at least 3 points",
        "lies inside impassable terrain",
        "outside player 2's deployment zone",
        "no deployment zone for player 2",
        "duplicate lore id",
        "no spell or prayer has id 'meteor_x' (M8)",
        "but this is a prayer lore (M8)",
        "has no summon effect",
        "should be greater than or equal to",
        "unknown effect handler",
    ):
        assert words in problems, words


@pytest.mark.parametrize("code", ["ko", "ja"])
def test_check_problems_in_korean_and_japanese_have_no_english_left(files, lang, code, capsys, tmp_path):
    lang.setenv("SPELLFIELD_LANG", code)
    assert cli.main(["check", *files]) == 1
    out = capsys.readouterr().out.splitlines()
    assert len(out) >= len(files)
    for line in out:
        assert not _left(line, str(tmp_path)), line
    english = check_files(files)
    # the file and its field path stay exactly as written
    for problem in english:
        head = problem.split(": ")[0]
        assert any(line.startswith(head) for line in out), problem


def test_check_problems_in_english_are_unchanged(files, lang, capsys):
    lang.setenv("SPELLFIELD_LANG", "en")
    english = check_files(files)
    assert cli.main(["check", *files]) == 1
    out = capsys.readouterr().out.splitlines()
    for problem in english:
        assert problem in out


def test_a_reason_no_template_makes_stays_as_written(lang):
    i18n.set_language("ko")
    assert check_line("f.toml: map.x: something new", ["f.toml"]) == "f.toml: map.x: something new"
