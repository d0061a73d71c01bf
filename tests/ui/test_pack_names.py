"""Issue 23: the Load and Replays lists name a pack game's armies and map from the content the
file carries, with no pack installed (never an id on screen)."""

from __future__ import annotations

from pathlib import Path

from game.data import library
from game.rules import Game, Recorder
from game.ui import saves_list

PACK = Path(__file__).resolve().parents[2] / "examples" / "packs" / "frostmere"
ARMIES = ("frostmere_conclave", "mirecourt")


def test_a_pack_games_entry_names_its_armies_and_map_from_the_file() -> None:
    lib = library.load_library(None, [PACK], strict=True)
    game = Game.load(armies=ARMIES, battlefield=lib.maps["frostmere_tarn"], content=lib.content_for(ARMIES))
    header = Recorder.new(game, seed=1).to_dict()["header"]
    library.set_active(None)  # another machine: no pack
    try:
        title, details = saves_list._describe(header, {}, "", "")
    finally:
        library.set_active(None)
    assert "The Frostmere Conclave" in title and "frostmere_conclave" not in title
    assert "Frostmere Tarn" in details[0]


def test_the_main_menu_says_how_many_of_the_players_content_files_could_not_be_read(app, tmp_path: Path) -> None:
    from game.ui.scenes.menu import MenuScene

    data = tmp_path / "data"
    for name in ("a", "b"):
        (data / "packs" / "mine").mkdir(parents=True, exist_ok=True)
        (data / "packs" / "mine" / f"{name}.toml").write_text("x = [\n", encoding="utf-8")
    library.set_active(library.load_library(data))
    try:
        scene = MenuScene(app)
        assert scene.message.startswith("2 of your content files could not be read; see spellfield check ")
        assert scene.message.endswith("packs")
        library.set_active(None)
        assert MenuScene(app).message == ""
    finally:
        library.set_active(None)
