"""Issue 24: `simulate --log FILE --resume` goes on with a stopped run (game.sim_log).

A long balance run (400 `hard` games are hours of a machine) must survive a stop: the games its
log holds are taken, only the others are played, and the JSON, the log and the report are those
of a run that never stopped. A log of another run, or a line that is not a game record, is
refused with the file, the line and the reason, and the file is left as it was."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time

import pytest

from game import sim_log
from game.cli import main

GAMES = ["simulate", "--games", "6", "--p1", "random", "--p2", "random", "--seed", "5", "--json"]


def _run(capsys, *extra: str) -> tuple[int, str, str]:
    code = main([*GAMES, *extra])
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture(scope="module")
def whole(tmp_path_factory) -> tuple[str, bytes, bytes]:
    """(stdout, the --log file, report.json) of the six games played without a stop."""
    import contextlib
    import io

    folder = tmp_path_factory.mktemp("whole")
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        assert main([*GAMES, "--log", str(folder / "log.jsonl"), "--report", str(folder / "report")]) == 0
    return out.getvalue(), (folder / "log.jsonl").read_bytes(), (folder / "report" / "report.json").read_bytes()


def _lines(log: bytes) -> list[bytes]:
    return log.splitlines(keepends=True)


def test_a_log_line_carries_the_run_the_counts_and_the_content(whole):
    first = json.loads(_lines(whole[1])[0])
    assert first["run"] == {"p1": "random", "p2": "random", "profile": "aos4", "seed": 5}
    assert first["counts"]["cast_attempts"] > 0
    assert len(first["content"]) == 64 and sim_log.LOG_KEYS <= first.keys()


def test_a_run_stopped_mid_line_resumed_gives_the_json_log_and_report_of_one_never_stopped(whole, tmp_path, capsys):
    log = tmp_path / "log.jsonl"
    kept = _lines(whole[1])
    log.write_bytes(b"".join(kept[:3]) + kept[3][:57])  # the stop cut game 3's line short
    code, out, err = _run(capsys, "--log", str(log), "--resume", "--report", str(tmp_path / "report"))
    assert code == 0, err
    assert "last line was cut short" in err and "3 of 6 games" in err
    assert out == whole[0]  # the summary JSON, byte for byte
    assert log.read_bytes() == whole[1]  # the torn line cut off, games 3-5 appended
    assert (tmp_path / "report" / "report.json").read_bytes() == whole[2]


def test_a_whole_last_line_without_its_newline_is_kept_and_ended(whole, tmp_path, capsys):
    log = tmp_path / "log.jsonl"
    kept = _lines(whole[1])
    log.write_bytes(b"".join(kept[:3]) + kept[3].rstrip(b"\n"))
    code, out, err = _run(capsys, "--log", str(log), "--resume")
    assert code == 0 and "4 of 6 games" in err and "cut short" not in err
    assert out == whole[0] and log.read_bytes() == whole[1]


def test_a_complete_log_plays_nothing_and_a_missing_one_plays_everything(whole, tmp_path, capsys):
    log = tmp_path / "log.jsonl"
    log.write_bytes(whole[1])
    code, out, err = _run(capsys, "--log", str(log), "--resume")
    assert code == 0 and "all 6 games" in err and out == whole[0] and log.read_bytes() == whole[1]
    fresh = tmp_path / "fresh.jsonl"
    code, out, err = _run(capsys, "--log", str(fresh), "--resume")
    assert code == 0 and "0 of 6 games" in err and out == whole[0] and fresh.read_bytes() == whole[1]


def test_a_shorter_run_takes_its_games_and_leaves_the_later_ones_in_the_file(whole, tmp_path, capsys):
    log = tmp_path / "log.jsonl"
    log.write_bytes(whole[1])
    code, out, err = main([*GAMES[:2], "4", *GAMES[3:], "--log", str(log), "--resume"]), *capsys.readouterr()
    assert code == 0 and "2 later games" in err
    assert json.loads(out)["games"] == 4 and json.loads(out)["results"] == json.loads(whole[0])["results"][:4]
    assert log.read_bytes() == whole[1]


def _edited(whole, n: int, **change) -> bytes:
    lines = _lines(whole[1])
    rec = json.loads(lines[n])
    rec.update(change)
    lines[n] = (json.dumps(rec, sort_keys=True) + "\n").encode()
    return b"".join(lines[:4])


@pytest.mark.parametrize(
    ("extra", "words"),
    [
        (["--p1", "normal"], "line 1: a game of another run (p1 is 'random' there, 'normal' here)"),
        (["--seed", "6"], "line 1: a game of another run (seed is 5 there, 6 here)"),
        (["--profile", "aos3"], "line 1: a game of another run (profile is 'aos4' there, 'aos3' here)"),
    ],
)
def test_a_log_of_another_run_is_refused_and_left_as_it_was(whole, tmp_path, capsys, extra, words):
    log = tmp_path / "log.jsonl"
    log.write_bytes(b"".join(_lines(whole[1])[:4]))
    before = log.read_bytes()
    code, out, err = _run(capsys, "--log", str(log), "--resume", *extra)
    assert code != 0 and words in err and "Traceback" not in err and out == ""
    assert log.read_bytes() == before


@pytest.mark.parametrize(
    ("change", "words"),
    [
        ({"seed": 1}, "line 2: game 1 is not this run's game 1"),
        ({"content": "0" * 64}, "line 2: game 1 was played with other content"),
        ({"winner": 3}, "line 2: not a game record: winner:"),
        ({"counts": {"spells_cast": "many"}}, "line 2: not a game record: counts.spells_cast:"),
        ({"extra": 1}, "line 2: not a game record: extra:"),
    ],
)
def test_a_line_that_is_not_this_runs_game_is_refused(whole, tmp_path, capsys, change, words):
    log = tmp_path / "log.jsonl"
    log.write_bytes(_edited(whole, 1, **change))
    before = log.read_bytes()
    code, _out, err = _run(capsys, "--log", str(log), "--resume")
    assert code != 0 and words in err and "Traceback" not in err, err
    assert log.read_bytes() == before


def test_a_broken_line_before_the_last_is_refused_not_skipped(whole, tmp_path, capsys):
    lines = _lines(whole[1])
    log = tmp_path / "log.jsonl"
    log.write_bytes(lines[0] + lines[1][:40] + b"\n" + lines[2])
    code, _out, err = _run(capsys, "--log", str(log), "--resume")
    assert code != 0 and "line 2: not a JSON line" in err


def test_two_different_records_of_one_game_are_refused(whole, tmp_path, capsys):
    lines = _lines(whole[1])
    other = json.loads(lines[0]) | {"actions": 1}
    log = tmp_path / "log.jsonl"
    log.write_bytes(lines[0] + (json.dumps(other, sort_keys=True) + "\n").encode())
    code, _out, err = _run(capsys, "--log", str(log), "--resume")
    assert code != 0 and "line 2: game 0 is already in the log with another result" in err
    log.write_bytes(lines[0] + lines[0] + lines[1])  # the same record twice: one game, counted once
    code, out, err = _run(capsys, "--log", str(log), "--resume")
    assert code == 0 and "2 of 6 games" in err and out == whole[0]


def test_a_log_from_before_resume_is_refused_with_the_way_on(tmp_path, capsys):
    old = {"game": 0, "seed": 5000015, "p1_side": 1, "armies": ["emberward", "mirecourt"], "winner": 2}
    old |= {"rounds": 5, "reason": "all 5 battle rounds played", "score": [6, 19], "actions": 306}
    log = tmp_path / "log.jsonl"
    log.write_text(json.dumps(old) + "\n")
    code, _out, err = _run(capsys, "--log", str(log), "--resume")
    assert code != 0 and "line 1: a game written before --resume existed" in err and "new --log file" in err


def test_resume_needs_a_log(capsys):
    code, _out, err = _run(capsys, "--resume")
    assert code != 0 and "--resume goes on with the games of a --log FILE" in err


def test_resume_on_a_local_dask_cluster_gives_the_same_json(whole, tmp_path, capsys):
    log = tmp_path / "log.jsonl"
    log.write_bytes(b"".join(_lines(whole[1])[:2]))
    code, out, err = _run(capsys, "--log", str(log), "--resume", "--scheduler", "local", "--jobs", "2")
    assert code == 0, err
    assert out == whole[0] and log.read_bytes() == whole[1]


def test_a_killed_run_goes_on_where_it_stopped(whole, tmp_path):
    """The stop for real: SIGKILL a run once it has logged two games, then resume it."""
    log = tmp_path / "log.jsonl"
    cmd = [sys.executable, "-m", "game", *GAMES, "--log", str(log)]
    env = os.environ | {"SDL_VIDEODRIVER": "dummy"}
    proc = subprocess.Popen(cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 120
    while (not log.exists() or log.read_bytes().count(b"\n") < 2) and time.monotonic() < deadline:
        if proc.poll() is not None:
            break
        time.sleep(0.01)
    proc.send_signal(signal.SIGKILL)
    proc.wait(timeout=60)
    had = log.read_bytes().count(b"\n")
    assert had >= 2
    done = subprocess.run([*cmd, "--resume"], env=env, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert done.stdout == whole[0] and log.read_bytes() == whole[1]
    assert f"{min(had, 6)} of 6 games" in done.stderr or "all 6 games" in done.stderr
