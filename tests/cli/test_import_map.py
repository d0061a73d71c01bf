"""`spellfield import-map FILE.tmx` (issue 23): the map file it writes passes `spellfield check`,
lands in the player's maps folder, and is offered in the set-up forms as theirs."""

from __future__ import annotations

import os
from pathlib import Path

from game.cli import main
from game.data import library
from game.rules import data_dir

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "maps" / "thornwall_pass.tmx"


def test_import_map_writes_into_the_maps_folder_and_the_map_is_offered(capsys) -> None:
    assert main(["import-map", str(EXAMPLE)]) == 0
    out = data_dir() / "maps" / "thornwall_pass.toml"
    said = capsys.readouterr().out
    assert str(out) in said and "Thornwall Pass" in said and "play it" in said
    assert main(["check", str(out)]) == 0 and f"OK {out}" in capsys.readouterr().out
    library.set_active(None, data_dir())
    try:
        lib = library.reload()
        assert "thornwall_pass" in lib.maps and lib.map_sources["thornwall_pass"] == "maps/thornwall_pass.toml"
        from game.ui import choices

        offered = {c.id: c for c in choices.maps()}
        mine = offered["thornwall_pass"]
        assert mine.own and choices.label(mine) == "Thornwall Pass (yours)"
        assert not offered["ashfall_crossing"].own and choices.label(offered["ashfall_crossing"]) == "Ashfall Crossing"
    finally:
        library.set_active(None)


def test_import_map_never_writes_over_a_file_without_force(tmp_path: Path, capsys) -> None:
    target = tmp_path / "mine.toml"
    target.write_text("# my notes\n")
    assert main(["import-map", str(EXAMPLE), "--out", str(target)]) == 2
    assert "already exists; use --force" in capsys.readouterr().err
    assert target.read_text() == "# my notes\n"
    assert main(["import-map", str(EXAMPLE), "--out", str(target), "--force"]) == 0
    assert main(["check", str(target)]) == 0
    assert not [p for p in os.listdir(tmp_path) if p.endswith(".tmp")]


def test_a_bad_tmx_is_one_clear_message_and_writes_nothing(tmp_path: Path, capsys) -> None:
    bad = tmp_path / "broken.tmx"
    bad.write_text(EXAMPLE.read_text().replace('name="cover"', 'name="thorny"', 1))
    out = tmp_path / "broken.toml"
    assert main(["import-map", str(bad), "--out", str(out)]) == 2
    err = capsys.readouterr().err
    assert f"{bad}: layer \"terrain\", object 1 'Thornwood': property 'thorny': unknown trait" in err
    assert "Traceback" not in err and not out.exists()


def test_a_built_in_map_id_is_refused(tmp_path: Path, capsys) -> None:
    clash = tmp_path / "clash.tmx"
    clash.write_text(EXAMPLE.read_text().replace('value="thornwall_pass"', 'value="ashfall_crossing"'))
    assert main(["import-map", str(clash), "--out", str(tmp_path / "c.toml")]) == 2
    assert "is a built-in map's" in capsys.readouterr().err
