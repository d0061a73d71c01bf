"""The player's own content laid over the built-in content (game.data.library, issue 23)."""

from __future__ import annotations

from pathlib import Path

import pytest

from game.data import library
from game.data.content import default_content
from game.data.errors import DataError

REPO = Path(__file__).resolve().parents[2]

ARMY = """
[[army]]
id = "{id}"
name = "{name}"
colour = [200, 40, 40]
[[army.units]]
warscroll = "{warscroll}"
"""


def _write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def _a_warscroll() -> str:
    return next(iter(default_content().warscrolls))


def test_with_no_folders_the_library_is_the_built_in_content() -> None:
    lib = library.load_library()
    assert lib.content is default_content()
    assert set(lib.maps) == {"ashfall_crossing", "drowned_fen"}
    assert lib.problems == ()


def test_a_saved_list_and_a_users_map_are_taken_in(tmp_path: Path) -> None:
    _write(tmp_path / "armies" / "my_list.toml", ARMY.format(id="my_list", name="My List", warscroll=_a_warscroll()))
    fen = (REPO / "maps" / "drowned_fen.toml").read_text(encoding="utf-8")
    fen = fen.replace('id = "drowned_fen"', 'id = "my_fen"')
    _write(tmp_path / "maps" / "my_fen.toml", fen)
    lib = library.load_library(tmp_path)
    assert lib.problems == ()
    assert "my_list" in lib.content.armies and "emberward" in lib.content.armies
    assert lib.map_sources["my_fen"] == "maps/my_fen.toml"
    # A game between built-in armies keeps the built-in content (its saves stay those of any install).
    assert lib.content_for(("emberward", "mirecourt")) is default_content()
    mine = lib.content_for(("emberward", "my_list"))  # only what the two armies use
    assert set(mine.armies) == {"emberward", "my_list"} and mine.content_hash != lib.content.content_hash


def test_a_clash_and_a_bad_reference_leave_the_group_out_whole(tmp_path: Path) -> None:
    _write(tmp_path / "packs" / "bad" / "a.toml", ARMY.format(id="emberward", name="Clash", warscroll="nope"))
    _write(tmp_path / "packs" / "good" / "a.toml", ARMY.format(id="good", name="Good", warscroll=_a_warscroll()))
    lib = library.load_library(tmp_path)
    assert lib.groups == ("packs/good",)
    assert lib.content.armies["emberward"].name != "Clash"  # never half-loaded, never replaced
    assert any("packs/bad/a.toml: army id 'emberward' is already defined in game/content/" in p for p in lib.problems)
    assert any("packs/bad/a.toml: army 'emberward': units[0]: unknown warscroll 'nope'" in p for p in lib.problems)


def test_a_named_pack_with_problems_raises_them_all_at_once(tmp_path: Path) -> None:
    pack = tmp_path / "pack"
    _write(pack / "a.toml", ARMY.format(id="a1", name="A", warscroll="nope"))
    _write(pack / "b.toml", "not = [toml")
    _write(pack / "c.toml", "[something]\nx = 1\n")
    with pytest.raises(DataError) as err:
        library.load_library(None, [pack], strict=True)
    text = str(err.value)
    assert "unknown warscroll 'nope'" in text
    assert "b.toml" in text and "c.toml: not a content file" in text
    # A broken file in the player's own folders never stops a named pack that is whole.
    _write(tmp_path / "data" / "armies" / "broken.toml", "[[army]]\nid = 3\n")
    good = tmp_path / "good"
    _write(good / "a.toml", ARMY.format(id="a2", name="A", warscroll=_a_warscroll()))
    lib = library.load_library(tmp_path / "data", [good], strict=True)
    assert "a2" in lib.content.armies and any("armies/broken.toml" in p for p in lib.problems)
