"""Issue 24: `simulate --scheduler` plays the games on a Dask cluster (here a local one) with
exactly the results of `--jobs`; a lost worker's game is played again and counted once; an
unreachable scheduler is one clear message; the progress bar is tqdm's, on stderr only."""

from __future__ import annotations

import io
import json
import re
from contextlib import redirect_stderr, redirect_stdout

import pytest

from game import sim, sim_dask
from game.cli import main

GAMES = ["simulate", "--games", "3", "--p1", "random", "--p2", "random", "--seed", "3", "--json"]
# tqdm's bar: "100%|██████████| 3/3 [00:03<00:00,  1.21game/s]" (done, elapsed<left, rate)
TQDM_DONE = re.compile(r"100%\|[^|]*\| 3/3 \[[0-9:]+<[0-9:]+, +[0-9.]+(?:game/s|s/game)\]")


def _play(capsys, tmp_path, name: str, *extra: str) -> tuple[str, str, str]:
    """(stdout, stderr, the --log file) of one `simulate` run."""
    log = tmp_path / f"{name}.jsonl"
    assert main([*GAMES, "--log", str(log), *extra]) == 0
    out, err = capsys.readouterr()
    return out, err, log.read_text()


@pytest.fixture(scope="module")
def one(tmp_path_factory) -> tuple[str, str, str]:
    """(stdout, stderr, the --log file) of the games in one process: what every mode must give."""
    log = tmp_path_factory.mktemp("one") / "one.jsonl"
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        assert main([*GAMES, "--log", str(log), "--jobs", "1"]) == 0
    return out.getvalue(), err.getvalue(), log.read_text()


def test_local_cluster_gives_the_json_and_log_lines_of_one_process(one, tmp_path, capsys):
    dask = _play(capsys, tmp_path, "dask", "--scheduler", "local", "--jobs", "2", "--progress")
    assert dask[0] == one[0]  # the summary JSON, byte for byte
    assert dask[2] == one[2]  # the --log lines, in game order
    assert [json.loads(line)["game"] for line in dask[2].splitlines()] == [0, 1, 2]
    assert json.loads(dask[0])["games"] == 3
    assert TQDM_DONE.search(dask[1]), dask[1]  # the bar went to stderr, stdout is the JSON alone
    assert "Traceback" not in dask[1]


def test_a_lost_workers_game_is_played_again_and_counted_once(one, tmp_path, capsys, monkeypatch):
    marker = tmp_path / "died"
    monkeypatch.setenv(sim.DIE_ENV, f"2:{marker}")  # the worker that first plays game 2 dies
    dask = _play(capsys, tmp_path, "dask", "--scheduler", "local", "--jobs", "2")
    assert marker.exists()  # a worker did die playing game 2 ...
    assert dask[0] == one[0] and dask[2] == one[2]  # ... and game 2 was played again, once


def test_the_die_hook_is_inert_unless_set(monkeypatch):
    monkeypatch.delenv(sim.DIE_ENV, raising=False)
    sim._die_for_a_test(2)  # returns: nothing set, nothing happens


@pytest.mark.parametrize(
    "address, words",
    [
        ("tcp://127.0.0.1:9", "cannot reach a Dask scheduler there within 1 seconds"),
        ("nowhere", "not a scheduler address"),
    ],
)
def test_an_unreachable_scheduler_is_a_clear_message(capsys, monkeypatch, address, words):
    monkeypatch.setattr(sim_dask, "CONNECT_TIMEOUT", 1.0)
    assert main(["simulate", "--games", "1", "--scheduler", address]) == 2
    out, err = capsys.readouterr()
    assert f"--scheduler {address}: {words}" in err, err
    assert "Traceback" not in err and not out


def test_a_game_that_fails_every_try_names_its_index_and_seed(capsys, monkeypatch, tmp_path):
    # the die hook's marker in a folder that does not exist: game 0 raises on every try
    monkeypatch.setenv(sim.DIE_ENV, f"0:{tmp_path / 'no-such-folder' / 'marker'}")
    args = ["simulate", "--games", "1", "--seed", "3", "--scheduler", "local", "--jobs", "1"]
    assert main(args) == 2
    err = capsys.readouterr().err
    seed = sim.game_plan(0, 3)[0]
    assert f"game 0 (seed {seed}) failed on every try: FileNotFoundError" in err, err
    assert "Traceback" not in err


def test_an_unknown_profile_is_refused_before_any_cluster_starts(capsys, monkeypatch):
    started = []
    monkeypatch.setattr(sim_dask, "client_for", lambda *a, **k: started.append(a))
    args = ["simulate", "--games", "1", "--scheduler", "local", "--profile", "x"]
    assert main(args) == 2
    err = capsys.readouterr().err
    assert "unknown rules profile 'x'; choose one of aos4, aos3" in err and "failed on every try" not in err, err
    assert not started


def test_the_progress_bar_is_tqdms_on_stderr_and_only_with_progress(one, tmp_path, capsys):
    assert one[1] == ""  # stderr is no terminal here: no bar without --progress
    shown = _play(capsys, tmp_path, "shown", "--progress")
    assert TQDM_DONE.search(shown[1]), shown[1]
    assert shown[0] == one[0]  # stdout is the JSON alone either way
