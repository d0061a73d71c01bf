"""The command line, replays and the headless engine import."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from game.cli import main
from game.rules.replay import ReplayError, read_replay, verify

ROOT = Path(__file__).resolve().parents[2]


def test_play_prints_the_default_setup_and_first_decision(capsys):
    assert main(["play", "--text", "--seed", "3"]) == 0
    out = capsys.readouterr().out
    assert "Ashfall Crossing" in out and "WIZARD (2)" in out and "First decision: player 1" in out


def test_play_with_an_unknown_army_is_a_clear_error(capsys):
    assert main(["play", "--text", "--armies", "emberward", "nobody"]) == 2
    assert main(["play", "--headless", "--frames", "1", "--armies", "emberward", "nobody"]) == 2
    err = capsys.readouterr().err
    assert "unknown army 'nobody'" in err and "Traceback" not in err


def test_check_passes_the_shipped_maps(capsys):
    maps = sorted(str(p) for p in (ROOT / "maps").glob("*.toml"))
    assert maps and main(["check", *maps]) == 0


def test_check_fails_a_broken_map_with_file_and_field(tmp_path, capsys):
    src = (ROOT / "maps" / "ashfall_crossing.toml").read_text()
    broken = tmp_path / "broken.toml"
    broken.write_text(src.replace("[[map.terrain]]", "[[map.terrain]]\nheight_in = 3", 1))
    assert main(["check", str(broken)]) == 1
    out = capsys.readouterr()
    text = out.out + out.err
    assert "broken.toml" in text and "height_in" in text


@pytest.fixture(scope="module")
def recorded(tmp_path_factory):
    path = tmp_path_factory.mktemp("replays") / "game.json"
    assert main(["record", str(path), "--seed", "4"]) == 0
    return path


def test_replay_verifies(recorded, capsys):
    assert main(["replay", str(recorded), "--verify"]) == 0
    assert "OK: all" in capsys.readouterr().out


def test_replay_reports_the_first_step_whose_checksum_differs(recorded, tmp_path, capsys):
    data = json.loads(recorded.read_text())
    data["steps"][5]["checksum"] = "0" * 16
    bad = tmp_path / "tampered.json"
    bad.write_text(json.dumps(data))
    assert main(["replay", str(bad), "--verify"]) == 1
    assert "steps[5]" in capsys.readouterr().out


def test_replay_reports_an_illegal_recorded_action(recorded, tmp_path):
    data = json.loads(recorded.read_text())
    data["steps"][0]["action"] = {"type": "EndPhase", "player": 2}
    report = verify(data)
    assert not report.ok and report.first_bad_step == 0 and "illegal" in report.message


@pytest.mark.parametrize(
    "content, message",
    [
        ("{not json", "invalid JSON"),
        ("[" * 100_000 + "]" * 100_000, "nesting too deep"),
        ('{"format": "spellfield-replay", "version": 1, "header": {}, "steps": []}', "header.profile"),
        ('{"format": "other"}', "format"),
    ],
)
def test_bad_replay_files_get_a_clear_message(tmp_path, capsys, content, message):
    p = tmp_path / "r.json"
    p.write_text(content)
    with pytest.raises(ReplayError, match=message):
        read_replay(p)
    assert main(["replay", str(p), "--verify"]) == 2
    err = capsys.readouterr().err
    assert "r.json" in err and "Traceback" not in err


def test_rules_import_and_play_whole_games_without_pygame_or_pymunk():
    """DESIGN.md: a whole game runs with `sys.modules["pymunk"] = None` (and pygame) for
    `game.rules` and `game.ai`; importing is not enough, the moves must be checked too (G4)."""
    code = (
        "import sys; sys.modules['pygame'] = None; sys.modules['pymunk'] = None\n"
        "import game.rules, game.ai.random_bot\n"
        "from game.rules import Game\n"
        "from game.ai.random_bot import RandomBot\n"
        "for profile in ('aos4', 'aos3'):\n"
        "    state = Game.load(profile=profile).new_state(seed=4)\n"
        "    bots = {1: RandomBot(1, 4), 2: RandomBot(2, 5)}\n"
        "    moved = 0\n"
        "    while not state.is_over():\n"
        "        moved += sum(e.type == 'UnitMoved' for e in state.apply(bots[state.pending().player].choose(state)))\n"
        "    assert state.result() and moved > 10, (profile, state.result(), moved)\n"
        "print('played')\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, timeout=300)
    assert out.returncode == 0 and "played" in out.stdout, out.stderr


def test_python_dash_m_game_runs():
    out = subprocess.run([sys.executable, "-m", "game", "--text", "--seed", "2"], capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert out.returncode == 0 and "First decision" in out.stdout


def test_headless_screenshot_command(tmp_path):
    shot = tmp_path / "out.png"
    env = {**__import__("os").environ, "SDL_VIDEODRIVER": "dummy"}
    out = subprocess.run(
        [sys.executable, "-m", "game", "play", "--headless", "--frames", "3", "--screenshot", str(shot)],
        capture_output=True, text=True, cwd=ROOT, timeout=120, env=env,
    )
    assert out.returncode == 0, out.stderr
    assert shot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_simulate_logs_each_game_and_reports_by_side_and_army(tmp_path, capsys):
    log = tmp_path / "games.jsonl"
    assert main(["simulate", "--games", "2", "--p1", "normal", "--p2", "random", "--json", "--log", str(log)]) == 0
    summary = json.loads(capsys.readouterr().out)
    lines = [json.loads(line) for line in log.read_text().splitlines()]
    assert [g["game"] for g in lines] == [0, 1]
    assert [g["winner"] for g in lines] == [r["winner"] for r in summary["results"]]
    assert set(summary["p1_by_side"]) == {"player 1", "player 2"}
    assert sum(v["games"] for v in summary["p1_by_army"].values()) == 2


def test_simulate_with_an_unwritable_log_is_a_clear_error(tmp_path, capsys):
    assert main(["simulate", "--games", "1", "--log", str(tmp_path / "missing" / "x.jsonl")]) == 2
    err = capsys.readouterr().err
    assert "--log" in err and "cannot open it" in err and "Traceback" not in err
