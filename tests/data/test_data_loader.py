"""Safe TOML loading: every bad input is a DataError naming the file, the field and the value.

See DESIGN.md "Data files": bad input gives a clear error, never a traceback.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from game.data.errors import DataError
from game.data.loader import (
    MAX_FILE_BYTES,
    MAX_PROBLEMS,
    detect_kind,
    load_content_file,
    load_map_file,
    read_toml,
    short_value,
)
from game.data.models import BattleMap, ContentFile

WARSCROLL = """\
[[warscroll]]
id = "militia"
name = "Militia"
models = 10
base = {{ round_mm = 25 }}
move = {move}
health = 1
save = 5
weapons = [{{ name = "Spear", range = 0, attacks = 1, hit = 4, wound = 4, damage = 1 }}]
"""


def problems_of(fn, path) -> list[str]:
    with pytest.raises(DataError) as info:
        fn(path)
    assert info.value.problems
    assert str(info.value) == "\n".join(info.value.problems)
    return info.value.problems


def test_valid_files_load(write, minimal_map):
    cf = load_content_file(write("units.toml", WARSCROLL.format(move=5)))
    assert isinstance(cf, ContentFile) and cf.warscroll[0].id == "militia"
    bm = load_map_file(write("tiny.toml", minimal_map))
    assert isinstance(bm, BattleMap) and bm.width == 60 and len(bm.deployment) == 2


def test_check_rejects_malformed_toml(write):
    path = write("broken.toml", 'a = 1\nb = = 2\n')
    [msg] = problems_of(read_toml, path)
    assert msg == f"{path}: line 2, column 5: invalid value"


def test_check_rejects_malformed_toml_at_end_of_document(write):
    path = write("broken.toml", "a = [1,\n")
    [msg] = problems_of(read_toml, path)
    assert msg.startswith(f"{path}: line ") and "column" in msg


def test_check_rejects_invalid_utf8(write):
    path = write("latin1.toml", b'name = "caf\xe9"\n')
    [msg] = problems_of(read_toml, path)
    assert msg.startswith(f"{path}: line 1, column 12: not UTF-8")


def test_check_rejects_wrong_type(write):
    path = write("units.toml", WARSCROLL.format(move='"fast"'))
    [msg] = problems_of(load_content_file, path)
    assert msg.startswith(f"{path}: warscroll[0].move: should be a valid number")
    assert msg.endswith('(got "fast")')


def test_check_rejects_unknown_key(write):
    path = write("units.toml", WARSCROLL.format(move=5) + "speed = 7\n")
    [msg] = problems_of(load_content_file, path)
    assert msg.startswith(f"{path}: warscroll[0].speed: unknown key; known keys: id, name, models")
    assert msg.endswith("(got 7)")


def test_check_rejects_missing_field(write):
    path = write("units.toml", WARSCROLL.format(move=5).replace("health = 1\n", ""))
    [msg] = problems_of(load_content_file, path)
    assert msg == f"{path}: warscroll[0].health: missing required field"


def test_check_rejects_deep_nesting(write):
    # DESIGN.md: tomllib raises RecursionError on deeply nested input; it must not escape.
    path = write("deep.toml", "a = " + "[" * 100000 + "]" * 100000 + "\n")
    [msg] = problems_of(read_toml, path)
    assert msg.startswith(f"{path}: nesting too deep")


def test_check_rejects_deeply_dotted_keys_quickly(write):
    # tomllib is quadratic in the depth of a dotted key: refuse before it stalls.
    path = write("dotted.toml", "[" + ".".join(["a"] * 100000) + "]\nx = 1\n")
    [msg] = problems_of(read_toml, path)
    assert msg.startswith(f"{path}: line 1: nesting too deep")


def test_problems_are_capped_per_file(write):
    path = write("many.toml", "[[warscroll]]\nx = 1\n" * 500)
    problems = problems_of(load_content_file, path)
    assert len(problems) == MAX_PROBLEMS + 1
    assert problems[-1].startswith(f"{path}: ... and ") and problems[-1].endswith(" more problems")


def test_check_rejects_deep_inline_tables(write):
    path = write("deep.toml", "a = " + "{b = " * 50000 + "1" + "}" * 50000 + "\n")
    [msg] = problems_of(read_toml, path)
    assert str(path) in msg


def test_deep_but_readable_nesting_is_a_clear_schema_error(write):
    # Deep enough to be awkward, shallow enough for tomllib: pydantic must report it cleanly.
    path = write("deep.toml", "army = " + "[" * 150 + "]" * 150 + "\n")
    problems = problems_of(load_content_file, path)
    assert all(p.startswith(f"{path}: army") for p in problems)
    assert all(len(p) < 300 for p in problems)


def test_check_rejects_oversized_file(write):
    path = write("huge.toml", "# padding\n" * (MAX_FILE_BYTES // 10 + 1))
    [msg] = problems_of(read_toml, path)
    size = path.stat().st_size
    assert msg == f"{path}: file is too large ({size:,} bytes); the limit is {MAX_FILE_BYTES:,} bytes (1.0 MiB)"


def test_check_rejects_missing_file(tmp_path: Path):
    path = tmp_path / "nope.toml"
    [msg] = problems_of(read_toml, path)
    assert msg == f"{path}: no such file"


def test_check_rejects_bad_polygon_with_two_points(write, minimal_map):
    text = minimal_map.replace("points = [[28, 20], [32, 20], [32, 24], [28, 24]]", "points = [[1, 2], [3, 4]]")
    path = write("ruins.toml", text)
    [msg] = problems_of(load_map_file, path)
    assert msg == f"{path}: map.terrain[0].points: needs at least 3 points, got 2 (got [[1, 2], [3, 4]])"


def test_check_rejects_objective_off_the_map(write, minimal_map):
    path = write("tiny.toml", minimal_map.replace("x = 20", "x = 75"))
    [msg] = problems_of(load_map_file, path)
    assert msg.startswith(f"{path}: map: ")
    assert "objectives[0] at (75, 22) lies off the 60x44 battlefield" in msg


def test_check_rejects_terrain_off_the_map(write, minimal_map):
    path = write("tiny.toml", minimal_map.replace("[32, 24], [28, 24]]", "[32, 24], [28, 64]]"))
    [msg] = problems_of(load_map_file, path)
    assert "terrain[0].points[3] (28, 64) lies off the 60x44 battlefield" in msg


def test_error_messages_name_file_field_path_and_value(write):
    text = """\
[[ability]]
id = "zap"
name = "Zap"
kind = "spell"
value = 6
effects = [{ handler = "mortal_damage", amount = "D3" }, { handler = "heal", amount = "lots" }]
"""
    path = write("spells.toml", text)
    [msg] = problems_of(load_content_file, path)
    assert msg.startswith(f"{path}: ability[0].effects[1].amount: not a dice expression")
    assert msg.endswith('(got "lots")')


def test_every_problem_is_reported_at_once(write):
    text = WARSCROLL.format(move='"fast"').replace("save = 5", "save = 9").replace('id = "militia"', 'id = "Militia"')
    path = write("units.toml", text)
    problems = problems_of(load_content_file, path)
    fields = sorted(p.split(": ")[1] for p in problems)
    assert fields == ["warscroll[0].id", "warscroll[0].move", "warscroll[0].save"]


def test_dice_expression_union_gives_one_message(write):
    path = write("units.toml", WARSCROLL.format(move=5).replace("attacks = 1,", "attacks = 1.5,"))
    [msg] = problems_of(load_content_file, path)
    assert msg == (
        f"{path}: warscroll[0].weapons[0].attacks: should be a whole number or a dice expression "
        "such as 3, D3, 2D6 or D6+1 (got 1.5)"
    )


def test_long_values_are_truncated(write):
    path = write("units.toml", WARSCROLL.format(move=5) + f'notes = "{"x" * 5000}"\n')
    [msg] = problems_of(load_content_file, path)
    # the message's own length, not the temporary folder's (pytest numbers its folders)
    own = msg.removeprefix(str(path))
    assert msg.startswith(str(path)) and len(own) < 250 and msg.endswith('...)')
    assert "x" * 200 not in msg


def test_short_value_renders_toml_like_values():
    assert short_value([[1, 2], [3, 4]]) == "[[1, 2], [3, 4]]"
    assert short_value({"a": True, "b": "x"}) == '{a = true, b = "x"}'
    assert len(short_value(list(range(1000)), limit=40)) == 40


def test_detect_kind():
    assert detect_kind({"map": {}}) == "map"
    assert detect_kind({"warscroll": []}) == "content"
    assert detect_kind({"lore": [], "ability": []}) == "content"
    assert detect_kind({"header": {}, "actions": []}) == "replay"
    assert detect_kind({"title": "x"}) == "unknown"


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(raw=st.one_of(st.binary(max_size=400), st.text(max_size=400).map(lambda s: s.encode("utf-8", "surrogatepass"))))
def test_loader_never_raises_anything_but_data_error(write, raw):
    path = write("fuzz.toml", raw)
    for fn in (load_content_file, load_map_file):
        try:
            fn(path)
        except DataError as e:
            assert all(p.startswith(str(path)) for p in e.problems)


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    move=st.one_of(st.integers(-5, 50), st.floats(allow_nan=True), st.text(max_size=10).map(repr)),
    extra=st.dictionaries(st.from_regex(r"[a-z]{1,8}", fullmatch=True), st.integers(), max_size=2),
)
def test_mutated_warscrolls_give_data_errors_only(write, move, extra):
    text = WARSCROLL.format(move=move)  # floats render as TOML too: 1.5, nan, inf, -inf
    text += "".join(f"{k} = {v}\n" for k, v in extra.items())
    path = write("units.toml", text)
    try:
        load_content_file(path)
    except DataError as e:
        assert all(p.startswith(str(path)) for p in e.problems)
