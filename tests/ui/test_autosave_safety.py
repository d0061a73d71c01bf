"""Autosaves never leave the game unloadable.

(a) A real headless game autosaves after every action through the battle scene and
    `game.ui.storage.autosave`; its process is SIGKILLed at random moments, many times, and after
    every kill `play --resume`'s loader must find a loadable latest autosave (a kill in play
    requires one the killed child wrote itself), never shorter than before the kill, whose
    history, re-applied from its seed here, gives exactly the saved state (the checksum in the
    file; `tests.helpers.assert_save_replays`).
(b) A damaged latest autosave, then an autosave killed just before its final rename: the good
    previous autosave survives byte for byte and `play --resume` falls back to it.
(c) A full disk: the battle goes on, says so on its message line, and the files stay as they were.
(d) Temporary files left by killed writers are removed at the next autosave, and only ours.

The kills run in children forked from one warmed-up process (imports, content and pygame loaded
once), so 30 kills take seconds, not minutes; `-m soak` runs 300.
"""

from __future__ import annotations

import errno
import os
import queue
import random
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from game.ai.random_bot import RandomBot
from game.data import safe_io
from game.rules.saves import SaveError, autosave_path, is_loadable_save, previous_autosave_path
from game.ui import storage, theme
from game.ui.session import Session
from tests.helpers import assert_save_replays
from tests.ui.conftest import frames
from tests.ui.uihelpers import hotseat

ROOT = Path(__file__).resolve().parents[2]

# A warmed-up parent that forks one child per "go" line. A child resumes the autosave the way
# `play --resume` does (app.open_save over storage.resume_candidates), or starts a battle, and then
# plays random actions through the battle scene, autosaving after each one, until it is killed.
ZYGOTE = r"""
import os, sys, traceback
os.environ["SDL_VIDEODRIVER"] = "dummy"; os.environ["SDL_AUDIODRIVER"] = "dummy"
from game.ai.random_bot import RandomBot
from game.rules import Game
from game.ui import storage
from game.ui.app import App, init_pygame

init_pygame(True)
Game.load()

def child(limit, seed):
    app = App((640, 480), headless=True)
    resumed = False
    for candidate in storage.resume_candidates():
        if app.open_save(candidate) is None:
            resumed = True
            break
    if not resumed:
        assert app.start_battle(app.default_options()) is None
        app.scene.session.autosaving = True
    scene = app.scene
    bots = {1: RandomBot(1, seed), 2: RandomBot(2, seed)}
    n = 0
    while not scene.state.is_over() and (limit is None or n < limit):
        scene._apply(bots[scene.decision.player].choose(scene.state))
        if scene.session.autosave_problem:
            print(scene.session.autosave_problem, file=sys.stderr)
            os._exit(4)
        n += 1
        if n % 20 == 0:
            app.frame(1 / 60)
    os._exit(3 if scene.state.is_over() else 0)

for line in sys.stdin:
    words = line.split()
    if words[0] == "quit":
        break
    limit = None if words[1] == "-" else int(words[1])
    pid = os.fork()
    if pid == 0:
        try:
            child(limit, int(words[2]))
        except BaseException:
            traceback.print_exc()
            os._exit(5)
        os._exit(6)
    print("pid", pid, flush=True)
    print("done", os.waitpid(pid, 0)[1], flush=True)
"""


class Zygote:
    """The warmed-up parent, driven line by line. Its answers are read on a thread into a queue,
    so that every wait has a deadline: a child that neither ends nor is killed within
    `DEADLINE` seconds is killed here and the test fails naming it, instead of waiting forever."""

    DEADLINE = 120.0

    def __init__(self) -> None:
        env = {**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy"}
        self.proc = subprocess.Popen([sys.executable, "-c", ZYGOTE], cwd=ROOT, env=env, text=True,
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE)
        self.lines: queue.Queue[str] = queue.Queue()
        self.child = 0
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        for line in self.proc.stdout:
            self.lines.put(line)
        self.lines.put("")  # the zygote ended

    def _answer(self, word: str) -> int:
        try:
            line = self.lines.get(timeout=self.DEADLINE)
        except queue.Empty:
            if word == "done" and self.child:
                try:
                    os.kill(self.child, signal.SIGKILL)  # the zygote reaps it; then fail, naming it
                except ProcessLookupError:
                    pass
            raise AssertionError(
                f"the zygote gave no {word!r} line in {self.DEADLINE:g} s (child {self.child})"
            ) from None
        parts = line.split()
        assert len(parts) == 2 and parts[0] == word, f"the zygote said {line!r}, not {word!r}"
        return int(parts[1])

    def start(self, limit: int | None, seed: int) -> int:
        self.proc.stdin.write(f"go {'-' if limit is None else limit} {seed}\n")
        self.proc.stdin.flush()
        self.child = self._answer("pid")
        return self.child

    def wait(self) -> int:
        return self._answer("done")

    def close(self) -> None:
        try:
            self.proc.stdin.write("quit\n")
            self.proc.stdin.close()
        except (BrokenPipeError, ValueError):
            pass
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()


def _resume() -> tuple[Path, object, object, dict]:
    """What `play --resume` would load: the first resume candidate that loads; its history is
    re-applied from its seed and must give exactly the saved state (`assert_save_replays`)."""
    problems = []
    for candidate in storage.resume_candidates():
        try:
            loaded = storage.load(candidate)
        except SaveError as exc:
            problems.append(str(exc))
            continue
        return (candidate, *assert_save_replays(candidate, loaded))
    raise AssertionError(f"nothing to resume: {problems or 'no autosave at all'}")


def _temps(folder: Path) -> list[Path]:
    return sorted(p for p in folder.iterdir() if p.name.endswith(".tmp"))


def _kill_run(kills: int, seed: int) -> dict:
    folder = autosave_path().parent
    rng = random.Random(seed)
    z = Zygote()
    stats = {"kills": 0, "mid_write": 0, "temps_seen": 0, "max_temps": 0, "games_finished": 0, "actions": 0}
    try:
        z.start(5, seed)
        status = z.wait()
        assert os.WIFEXITED(status) and os.WEXITSTATUS(status) == 0
        path, _, _, meta = _resume()  # the run REQUIRES an autosave: here it is, and it re-applies
        assert path == autosave_path() and len(meta["history"]) == 5
        seen = 5
        while stats["kills"] < kills:
            # Three kills in four wait for the child's first autosave (so they land in play, and
            # the game must move on); the fourth may land anywhere, start-up included.
            in_play = stats["kills"] % 4 != 3
            before = os.stat(autosave_path()).st_ino
            pid = z.start(None, rng.randrange(1 << 30))
            if in_play:
                until = time.monotonic() + 30
                while os.stat(autosave_path()).st_ino == before and time.monotonic() < until:
                    time.sleep(0.005)
                wrote = os.stat(autosave_path()).st_ino != before  # required below, once the child's fate is known
            time.sleep(rng.uniform(0.0, 0.3) if in_play else rng.uniform(0.05, 0.6))
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass  # it ended (and was reaped) before the kill: its status says how
            status = z.wait()
            if os.WIFEXITED(status):
                assert os.WEXITSTATUS(status) == 3, f"the child failed (exit {os.WEXITSTATUS(status)})"
                stats["games_finished"] += 1  # the game ended before the kill: start a new one
                for p in (autosave_path(), previous_autosave_path()):
                    p.unlink()
                z.start(5, seed)
                assert os.WEXITSTATUS(z.wait()) == 0
                seen = 5
                continue
            assert os.WTERMSIG(status) == signal.SIGKILL
            stats["kills"] += 1
            assert not in_play or wrote, f"kill {stats['kills']}: the child wrote no autosave in 30 s"
            temps = _temps(folder)
            stats["temps_seen"] += len(temps)
            stats["max_temps"] = max(stats["max_temps"], len(temps))
            stats["mid_write"] += bool(temps)
            # the latest autosave exists and loads after every kill: it is never renamed away;
            # and its history, re-applied from its seed, gives exactly its state (in _resume)
            assert autosave_path().exists(), f"kill {stats['kills']}: no autosave after the kill"
            assert is_loadable_save(autosave_path()), f"kill {stats['kills']}: no loadable latest autosave"
            path, game, state, meta = _resume()
            assert path == autosave_path()
            n = len(meta["history"])
            assert n >= seen + in_play, f"kill {stats['kills']}: the resumed game went from {seen} to {n} actions"
            stats["actions"] += n - seen
            seen = n
        # one more uninterrupted run: its first autosave removes what the killed writers left
        z.start(3, seed)
        assert os.WEXITSTATUS(z.wait()) in (0, 3)
        stats["temps_left_at_end"] = len(_temps(folder))
    finally:
        z.close()
    return stats


def test_a_killed_autosaving_game_always_resumes(capsys):
    t0 = time.perf_counter()
    stats = _kill_run(30, seed=11)
    stats["seconds"] = round(time.perf_counter() - t0, 1)
    with capsys.disabled():
        print(f"\nautosave kill run: {stats}")
    assert stats["kills"] == 30 and stats["temps_left_at_end"] == 0
    assert stats["actions"] >= 22  # every in-play kill came after at least one more autosave


@pytest.mark.soak
def test_soak_three_hundred_kills():
    stats = _kill_run(300, seed=12)
    print(f"autosave soak: {stats}")
    assert stats["kills"] == 300 and stats["temps_left_at_end"] == 0 and stats["mid_write"] > 0


# --- (b) a damaged latest, then a kill mid-way ----------------------------------------------


def _play_autosaving(n: int, seed: int = 4) -> Session:
    s = Session.new(seed=seed)
    s.autosaving = True
    bots = {1: RandomBot(1, seed), 2: RandomBot(2, seed)}
    for _ in range(n):
        s.apply(bots[s.decision.player].choose(s.state))
        assert s.autosave_problem is None
    return s


KILL_AT_FINAL_RENAME = r"""
import os, signal
from game.ai.random_bot import RandomBot
from game.ui import storage
from game.ui.session import Session
s = Session.new(seed=4)
bots = {1: RandomBot(1, 4), 2: RandomBot(2, 4)}
for _ in range(12):
    s.apply(bots[s.decision.player].choose(s.state))
real_replace, real_link = os.replace, os.link
def replace(src, dst, *a, **k):
    if os.path.basename(os.fspath(dst)) == "autosave.json":
        os.kill(os.getpid(), signal.SIGKILL)  # the new file is on disk, not yet renamed in
    if os.path.basename(os.fspath(dst)) == "autosave.prev.json":
        raise SystemExit("the damaged latest was about to be kept as the previous autosave")
    return real_replace(src, dst, *a, **k)
os.replace = replace
os.link = lambda *a, **k: (_ for _ in ()).throw(SystemExit("the damaged latest was linked as previous"))
storage.autosave(s)
raise SystemExit("the autosave finished: it was never killed")
"""


def test_a_damaged_latest_then_a_kill_keeps_the_good_previous(tmp_path):
    _play_autosaving(6)
    latest, prev = autosave_path(), previous_autosave_path()
    good_prev = prev.read_bytes()
    assert is_loadable_save(prev)
    latest.write_bytes(b'{"format": "spellfield-save", "state": {"broken')  # damaged
    env = {**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy"}
    r = subprocess.run([sys.executable, "-c", KILL_AT_FINAL_RENAME], cwd=ROOT, env=env, capture_output=True,
                       text=True, timeout=60)
    assert r.returncode == -signal.SIGKILL, r.stderr
    assert prev.read_bytes() == good_prev  # the good previous survived
    [temp] = _temps(latest.parent)  # the killed writer's full-size new save
    assert safe_io.temp_pattern("autosave.json").match(temp.name) and is_loadable_save(temp)

    path, game, state, meta = _resume()  # the latest fails, the previous loads and re-applies
    assert path == prev and len(meta["history"]) == 5
    out = subprocess.run([sys.executable, "-m", "game", "play", "--resume", "--headless", "--frames", "1"],
                         cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert f"resumed the previous autosave ({prev})" in out.stdout and "invalid JSON" in out.stdout

    # (d) the next autosave removes the dead writer's temporary file; the damaged latest is
    # replaced, and it never became the previous one
    s = _play_autosaving(2, seed=8)
    assert _temps(latest.parent) == []
    assert prev.read_bytes() == good_prev or is_loadable_save(prev)
    assert len(storage.load(latest)[2]["history"]) == len(s.actions())


def test_a_damaged_latest_is_not_rotated_over_the_previous(monkeypatch):
    _play_autosaving(4)
    latest, prev = autosave_path(), previous_autosave_path()
    good_prev = prev.read_bytes()
    latest.write_text("garbage")
    s = Session.new(seed=4)
    assert storage.autosave(s) is None
    assert prev.read_bytes() == good_prev and is_loadable_save(latest)


def test_a_good_latest_becomes_the_previous_and_a_latest_exists_throughout(monkeypatch):
    s = _play_autosaving(3)
    latest, prev = autosave_path(), previous_autosave_path()
    old_latest = latest.read_bytes()
    real_replace = os.replace
    seen = []

    def watch(src, dst, *a, **k):
        if os.fspath(dst) == str(latest):  # the final rename: the old latest is already the previous
            seen.append((latest.read_bytes() == old_latest, prev.read_bytes() == old_latest))
        return real_replace(src, dst, *a, **k)

    monkeypatch.setattr(os, "replace", watch)
    s.apply(RandomBot(1, 4).choose(s.state) if s.decision.player == 1 else RandomBot(2, 4).choose(s.state))
    assert seen == [(True, True)]
    assert prev.read_bytes() == old_latest and len(storage.load(latest)[2]["history"]) == 4


def test_a_failed_final_rename_changes_nothing_and_is_reported(monkeypatch):
    s = _play_autosaving(3)
    latest, prev = autosave_path(), previous_autosave_path()
    latest.write_text("garbage")
    before = (latest.read_bytes(), prev.read_bytes())
    real_replace = os.replace

    def refuse(src, dst, *a, **k):
        if os.fspath(dst) == str(latest):
            raise OSError(errno.EIO, "Input/output error")
        return real_replace(src, dst, *a, **k)

    monkeypatch.setattr(os, "replace", refuse)
    problem = storage.autosave(s)
    assert problem and "I/O error" in problem and str(latest) in problem
    assert (latest.read_bytes(), prev.read_bytes()) == before and _temps(latest.parent) == []


# --- (c) a full disk during play ------------------------------------------------------------


def test_a_full_disk_autosave_is_shown_and_the_battle_goes_on(app, monkeypatch):
    session = Session.new(seed=3)
    session.autosaving = True
    scene = hotseat(app, session)
    bots = {1: RandomBot(1, 3), 2: RandomBot(2, 3)}

    def act() -> None:
        scene._apply(bots[scene.decision.player].choose(scene.state))
        frames(app, 1)

    for _ in range(3):
        act()
    latest, prev = autosave_path(), previous_autosave_path()
    before = (latest.read_bytes(), prev.read_bytes())

    def full(fd, data):
        raise OSError(errno.ENOSPC, "No space left on device")

    with monkeypatch.context() as m:  # (not monkeypatch.undo(): that would undo the private data folder too)
        m.setattr(safe_io, "_write_all", full)
        for i in range(2):
            version = session.version
            act()
            assert session.version == version + 1  # the action was applied; the game goes on
            assert app.running and app.scene is scene
            assert scene.message.startswith(
                f"autosave failed: {latest}: cannot write the autosave: no space left on device")
            assert scene.message_colour == theme.TEXT_BAD
            assert (latest.read_bytes(), prev.read_bytes()) == before and _temps(latest.parent) == []
    assert session.autosave_failures == 2
    act()
    assert session.autosave_problem is None and not scene.message.startswith("autosave failed")
    assert len(storage.load(latest)[2]["history"]) == 6


# --- (d) temporary files of killed writers ---------------------------------------------------


def _dead_pid() -> int:
    p = subprocess.Popen([sys.executable, "-c", "pass"])
    p.wait()
    return p.pid


def test_stale_temp_files_are_cleaned_and_nothing_else(monkeypatch):
    _play_autosaving(1)
    folder = autosave_path().parent
    dead, alive = _dead_pid(), os.getppid()
    stale = [f"autosave.json.{dead}-abc123.tmp", f"autosave.prev.json.{dead}-zzz999.tmp",
             "autosave.json.k2j4h5g6.tmp",  # tempfile.mkstemp's name, from earlier versions
             f"autosave.json.{os.getpid()}-aaaaaa.tmp"]
    old = f"autosave.json.{alive}-oldold.tmp"  # a live pid, but written an hour ago
    kept = [f"autosave.json.{alive}-fresh1.tmp",  # a live writer, just now: not ours to remove
            "autosave.json.bak", "notes.tmp", "autosave.json.abc.tmp", "other.json.k2j4h5g6.tmp"]
    for name in stale + [old] + kept:
        (folder / name).write_bytes(b"x" * 1000)
    hour_ago = time.time() - 3600
    os.utime(folder / old, (hour_ago, hour_ago))
    (folder / "autosave.json.dirdirdi.tmp").mkdir()  # matches the pattern but is a folder: kept
    kept.append("autosave.json.dirdirdi.tmp")
    s = Session.new(seed=2)
    assert storage.autosave(s) is None
    left = sorted(p.name for p in folder.iterdir())
    assert left == sorted(["autosave.json", "autosave.prev.json", *kept])


def test_the_menus_resume_falls_back_to_the_previous_autosave(app, monkeypatch):
    # the menu's Resume does what `play --resume` does: a damaged latest autosave does not stop
    # the player from continuing the previous one
    from game.ui.intents import intent
    from game.ui.scenes.battle import BattleScene
    from game.ui.scenes.menu import MenuScene

    _play_autosaving(6)
    latest, prev = autosave_path(), previous_autosave_path()
    latest.write_text("{ damaged")
    menu = MenuScene(app)
    app.push(menu)
    menu.handle(intent("menu", go="resume"))
    frames(app)
    assert isinstance(app.scenes[-1], BattleScene)
    assert f"Resumed the previous autosave ({prev})" in menu.message
    assert len(app.scenes[-1].session.actions()) == 5


def test_a_screenshot_that_cannot_be_written_is_a_message_not_a_crash(app, monkeypatch, tmp_path):
    # the S key in a folder that refuses the file: the battle says so and goes on
    from game.data.safe_io import OutputError
    from game.ui.intents import intent

    scene = hotseat(app, Session.new(seed=3))
    frames(app)

    def refuse(*a, **k):
        raise OutputError(tmp_path / "shot.png", "cannot write it here: read-only folder")

    monkeypatch.setattr(type(app), "screenshot", refuse)
    scene.handle(intent("screenshot"))
    frames(app)
    assert "no screenshot" in scene.message and "read-only" in scene.message
