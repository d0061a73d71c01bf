"""Content packs a player can play (issue 23): the shipped example pack checks clean and plays a
whole bot game; a broken pack reports every problem at once, through `check DIR` and `--content`."""

from __future__ import annotations

from pathlib import Path

import pytest

from game.ai.random_bot import RandomBot
from game.cli import main
from game.data import library
from game.data.check import check_files
from game.rules import Game

REPO = Path(__file__).resolve().parents[2]
PACK = REPO / "examples" / "packs" / "frostmere"
ARMIES = ("frostmere_conclave", "mirecourt")


@pytest.fixture(autouse=True)
def _built_in_library():
    library.set_active(None)
    yield
    library.set_active(None)


def write_broken_pack(folder: Path) -> Path:
    """A pack with five broken files: bad TOML, an unknown reference, a clash with a built-in id,
    a bad map and a file that is neither content nor a map."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "bad.toml").write_text("x = [\n", encoding="utf-8")
    (folder / "unknown.toml").write_text(
        '[[army]]\nid = "lost_army"\nname = "Lost"\ncolour = [1, 2, 3]\nunits = [{ warscroll = "no_such_scroll" }]\n',
        encoding="utf-8",
    )
    (folder / "clash.toml").write_text(
        '[[lore]]\nid = "lore_of_cinders"\nname = "Mine"\nkind = "spell"\nabilities = ["spark_lash"]\n',
        encoding="utf-8",
    )
    (folder / "map.toml").write_text(
        '[map]\nid = "bad_map"\nname = "Bad"\nwidth = 10\nheight = 10\n[[map.objectives]]\nx = 50\ny = 5\n',
        encoding="utf-8",
    )
    (folder / "neither.toml").write_text("hello = 1\n", encoding="utf-8")
    return folder


BROKEN = ("bad.toml", "unknown.toml", "clash.toml", "map.toml", "neither.toml")


def test_the_example_pack_checks_clean() -> None:
    warnings: list[str] = []
    assert check_files([PACK], warnings) == []
    assert main(["check", str(PACK)]) == 0


def test_the_example_pack_adds_a_wizard_a_lore_an_endless_spell_an_army_and_a_map() -> None:
    lib = library.load_library(None, [PACK], strict=True)
    content = lib.content_for(ARMIES)
    assert set(content.armies) == set(ARMIES)
    assert content.warscrolls["rime_seer"].wizard_level == 2
    assert "lore_of_the_long_winter" in content.lores and "heralds_of_winter" in content.lores
    assert content.manifestations["wandering_blizzard"].kind == "endless_spell"
    assert "frostmere_tarn" in lib.maps
    assert "emberward" not in content.armies  # only what the two armies use


def test_the_example_pack_plays_a_whole_random_bot_game() -> None:
    lib = library.load_library(None, [PACK], strict=True)
    game = Game.load(armies=ARMIES, battlefield=lib.maps["frostmere_tarn"], content=lib.content_for(ARMIES))
    state = game.new_state(seed=11)
    bots = {1: RandomBot(1, 11), 2: RandomBot(2, 11)}
    for _ in range(5000):
        if state.is_over():
            break
        state.apply(bots[state.pending().player].choose(state))
    assert state.is_over()


def test_a_broken_pack_reports_every_problem_at_once_through_check_dir(tmp_path: Path, capsys) -> None:
    pack = write_broken_pack(tmp_path / "broken")
    problems = check_files([pack])
    for name in BROKEN:
        assert any(p.startswith(f"{pack / name}:") for p in problems), name
    assert any("lore_of_cinders" in p and "already defined" in p for p in problems)
    assert any("no_such_scroll" in p for p in problems)
    # files and folders mixed in one call: the folder's problems, the good file OK
    good = REPO / "game" / "maps" / "drowned_fen.toml"
    assert main(["check", str(pack), str(good)]) == 1
    out = capsys.readouterr().out
    assert f"OK {good}" in out and all(name in out for name in BROKEN)


def test_an_empty_folder_is_not_a_pack(tmp_path: Path) -> None:
    (tmp_path / "empty").mkdir()
    assert any("no .toml files" in p for p in check_files([tmp_path / "empty"]))


@pytest.mark.parametrize(
    "command", [["play", "--headless", "--frames", "1"], ["record", "OUT"], ["simulate", "--games", "1"]]
)
def test_a_broken_pack_named_with_content_is_every_problem_and_exit_2(tmp_path: Path, capsys, command) -> None:
    pack = write_broken_pack(tmp_path / "broken")
    argv = [str(tmp_path / "r.json") if w == "OUT" else w for w in command]
    assert main([*argv, "--content", str(pack)]) == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err and "5 problems" in err
    assert all(name in err for name in BROKEN)
    assert not (tmp_path / "r.json").exists()


def test_record_with_content_writes_a_replay_of_the_pack_game(tmp_path: Path) -> None:
    out = tmp_path / "r.json"
    argv = ["record", str(out), "--content", str(PACK), "--armies", *ARMIES, "--map", "frostmere_tarn", "--seed", "2"]
    assert main(argv) == 0
    library.set_active(None)  # another machine: no pack
    assert main(["replay", str(out), "--verify"]) == 0
