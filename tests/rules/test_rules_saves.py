"""Saves: exact round trips, clear errors for damaged or edited files, atomic writes."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from game.ai.random_bot import RandomBot
from game.rules import Game
from game.rules.saves import SaveError, autosave_path, load_game, previous_autosave_path, save_game
from game.rules.session import Recorder
from tests.helpers import assert_save_replays

ROOT = Path(__file__).resolve().parents[2]


def _play(session: Recorder, steps: int, seed: int) -> None:
    bots = {1: RandomBot(1, seed), 2: RandomBot(2, seed)}
    for _ in range(steps):
        if session.state.is_over():
            return
        session.apply(bots[session.state.pending().player].choose(session.state))


@pytest.mark.parametrize("cut", [0, 7, 60, 140])
def test_save_and_load_at_any_point_continues_identically(tmp_path, cut):
    game = Game.load()
    a = Recorder.new(game, seed=21)
    _play(a, cut, 21)
    path = tmp_path / "game.json"
    a.save(path)
    b = Recorder.resume(path)
    assert json.dumps(b.state.to_dict(), sort_keys=True) == json.dumps(a.state.to_dict(), sort_keys=True)
    assert b.actions() == a.actions() and b.seed == 21
    bots_a = {1: RandomBot(1, 5), 2: RandomBot(2, 5)}
    for _ in range(60):
        if a.state.is_over():
            break
        act = bots_a[a.state.pending().player].choose(a.state)
        assert [e.to_dict() for e in a.apply(act)] == [e.to_dict() for e in b.apply(act)]


def _saved(tmp_path) -> Path:
    s = Recorder.new(Game.load(), seed=3)
    _play(s, 20, 3)
    p = tmp_path / "save.json"
    s.save(p)
    return p


@pytest.mark.parametrize(
    "damage, message",
    [
        (lambda t: t[: len(t) // 2], "invalid JSON"),
        (lambda t: t.replace('"ritual_points":0', '"ritual_points":9', 1), "edited by hand or damaged"),
        (lambda t: "[" * 50_000 + "]" * 50_000, "nesting too deep"),
        (lambda t: t.replace('"spellfield-save"', '"something-else"'), "format"),
        (lambda t: json.dumps({**json.loads(t), "version": 99}), "version"),
        (lambda t: "\xff\xfe garbage", "damaged"),
    ],
)
def test_a_corrupt_or_hand_edited_save_gets_a_clear_error(tmp_path, damage, message):
    p = _saved(tmp_path)
    p.write_text(damage(p.read_text()), encoding="utf-8" if "garbage" not in message else "latin-1")
    with pytest.raises(SaveError) as err:
        load_game(p)
    assert message in str(err.value) and str(p) in str(err.value)


def test_a_save_on_a_map_that_is_not_shipped_carries_the_map_and_loads(tmp_path):
    # a save names only a shipped map, or carries its own (map_data): a custom battlefield loads
    from game.data.content import load_map

    mine = load_map("ashfall_crossing").model_copy(update={"id": "test_field", "name": "A player's own field"})
    game = Game.load(battlefield=mine)
    s = Recorder.new(game, seed=4)
    b = {1: RandomBot(1, 4), 2: RandomBot(2, 4)}
    for _ in range(12):
        s.apply(b[s.state.pending().player].choose(s.state))
    path = tmp_path / "custom.json"
    save_game(path, s.state, 4, s.actions())
    assert json.loads(path.read_text())["header"]["map_data"]["id"] == "test_field"
    game2, state, meta = load_game(path)
    assert game2.battlefield.map.id == "test_field" and state.checksum() == s.state.checksum() and meta["verified"]


def test_autosave_keeps_the_previous_one_intact(tmp_path, monkeypatch):
    monkeypatch.setenv("SPELLFIELD_DATA_DIR", str(tmp_path))
    s = Recorder.new(Game.load(), seed=4, autosaving=True)
    _play(s, 5, 4)
    prev = previous_autosave_path().read_text()
    autosave_path().write_text("{broken")
    with pytest.raises(SaveError):
        load_game(autosave_path())
    assert previous_autosave_path().read_text() == prev
    load_game(previous_autosave_path())


def test_a_failed_write_leaves_the_old_save_whole(tmp_path, monkeypatch):
    p = _saved(tmp_path)
    before = p.read_bytes()
    s = Recorder.resume(p)

    def boom(*a, **k):
        raise OSError("disk full")

    monkeypatch.setattr(os, "replace", boom)
    with pytest.raises(OSError):
        s.save(p)
    assert p.read_bytes() == before and not list(tmp_path.glob("*.tmp"))


def test_killing_the_process_during_autosaves_never_leaves_a_corrupt_save(tmp_path):
    # A child autosaves after every action; we kill it at arbitrary moments and load what is left.
    env = {**os.environ, "SPELLFIELD_DATA_DIR": str(tmp_path)}
    code = (
        "from game.rules import Game\nfrom game.rules.session import Recorder\nfrom game.ai.random_bot import RandomBot\n"
        "s = Recorder.new(Game.load(), seed=9, autosaving=True)\nb = {1: RandomBot(1, 9), 2: RandomBot(2, 9)}\n"
        "while not s.state.is_over():\n    s.apply(b[s.state.pending().player].choose(s.state))\n"
    )
    latest, prev = tmp_path / "autosave.json", tmp_path / "autosave.prev.json"
    killed = 0
    for delay in (1.6, 2.1, 2.7):
        proc = subprocess.Popen([sys.executable, "-c", code], cwd=ROOT, env=env)
        deadline = time.monotonic() + 30
        while not latest.exists() and time.monotonic() < deadline and proc.poll() is None:
            time.sleep(0.05)  # the kill must land after the first autosave, or there is nothing to test
        if not latest.exists():
            proc.kill()
            pytest.fail(f"the child wrote no autosave in 30 s (exit status {proc.wait()})")
        time.sleep(delay / 4)
        proc.send_signal(signal.SIGKILL)
        status = proc.wait()
        assert status in (-signal.SIGKILL, 0), f"the child failed (exit status {status})"
        killed += status == -signal.SIGKILL  # 0: the game ended first (a fast machine)
        assert latest.exists(), "an autosave must always exist once one has been written"
        # the engine's loader takes it, and its history re-applied from its seed gives exactly
        # the saved state (checked here, apart from the loader's own check)
        game, state, meta = assert_save_replays(latest)
        assert len(meta["history"]) > 0
        if prev.exists():
            _, _, older = assert_save_replays(prev)
            assert len(older["history"]) <= len(meta["history"])
            assert older["history"] == meta["history"][: len(older["history"])]  # the same game, earlier
        for p in (latest, prev):
            p.unlink(missing_ok=True)
    assert killed, "every game ended before its kill: nothing was killed mid-game"
