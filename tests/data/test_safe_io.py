"""Hostile or odd input paths: FIFOs, devices, directories, dangling links, unreadable and failing
files, files over the cap. Each one is a clear message naming the path and the reason, through
the data loader (maps, content, demos), the JSON reader (saves, replays) and the CLI, and none of
them hangs (a SIGALRM deadline turns a hang into a test failure) or reads past the cap.
"""

from __future__ import annotations

import errno
import json
import os
import signal
import socket
import stat
from contextlib import contextmanager
from pathlib import Path

import pytest

from game.cli import main
from game.data import safe_io
from game.data.errors import DataError
from game.data.loader import MAX_FILE_BYTES, read_bytes, read_toml
from game.data.safe_io import OutputError, read_regular_bytes
from game.rules.jsonfile import read_json_file
from game.rules.replay import ReplayError, read_replay
from game.rules.saves import SaveError, load_game

DEADLINE = 10  # seconds; every read here returns in milliseconds


class Hung(Exception):
    pass


@contextmanager
def deadline(seconds: int = DEADLINE):
    """Fail (instead of hanging the suite) if the body blocks, e.g. opening a FIFO."""

    def fire(signum, frame):
        raise Hung(f"still blocked after {seconds} s")

    old = signal.signal(signal.SIGALRM, fire)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)


@pytest.fixture
def fifo(tmp_path) -> Path:
    p = tmp_path / "pipe.toml"
    os.mkfifo(p)
    return p


@pytest.fixture
def fifo_json(tmp_path) -> Path:
    p = tmp_path / "pipe.json"
    os.mkfifo(p)
    return p


@pytest.fixture
def dangling(tmp_path) -> Path:
    p = tmp_path / "gone.json"
    p.symlink_to(tmp_path / "nowhere.json")
    return p


def _reason_of(fn, *args) -> str:
    with deadline():
        with pytest.raises((DataError, SaveError, ReplayError)) as err:
            fn(*args)
    return str(err.value)


# --- the data loader: maps, content, demonstrations ------------------------------------------


def test_a_fifo_is_refused_without_blocking(fifo):
    msg = _reason_of(read_bytes, fifo)
    assert msg == f"{fifo}: is a FIFO (named pipe), not a regular file; only regular files are read"


@pytest.mark.parametrize("device", ["/dev/zero", "/dev/urandom"])
def test_an_endless_device_is_refused_before_a_byte_is_read(device, monkeypatch):
    reads = []
    real_read = os.read
    monkeypatch.setattr(os, "read", lambda fd, n: reads.append(n) or real_read(fd, n))
    msg = _reason_of(read_bytes, device)
    assert msg == f"{device}: is a character device, not a regular file; only regular files are read"
    assert reads == []


def test_a_socket_is_refused(tmp_path):
    path = tmp_path / "s.toml"
    with socket.socket(socket.AF_UNIX) as s:
        s.bind(str(path))
        msg = _reason_of(read_bytes, path)
    assert msg == f"{path}: is a socket, not a regular file; only regular files are read"


def test_a_directory_is_refused(tmp_path):
    d = tmp_path / "maps.toml"
    d.mkdir()
    assert _reason_of(read_bytes, d) == f"{d}: is a directory, not a file"


def test_a_dangling_symlink_names_its_target(tmp_path, dangling):
    msg = _reason_of(read_bytes, dangling)
    assert msg == f"{dangling}: dangling symbolic link (it points to {str(tmp_path / 'nowhere.json')!r}, which does not exist)"


def test_a_symlink_loop_is_a_message(tmp_path):
    a, b = tmp_path / "a.toml", tmp_path / "b.toml"
    a.symlink_to(b)
    b.symlink_to(a)
    assert "too many levels of symbolic links" in _reason_of(read_bytes, a)


def test_a_name_too_long_is_a_message(tmp_path):
    p = tmp_path / ("m" * 300 + ".toml")
    assert _reason_of(read_bytes, p) == f"{p}: name too long"


def test_a_path_through_a_file_is_a_message(tmp_path):
    f = tmp_path / "plain"
    f.write_text("x")
    p = f / "map.toml"
    assert _reason_of(read_bytes, p) == f"{p}: a part of the path is not a folder"


def _patch_open(monkeypatch, target: Path, exc: OSError) -> None:
    real_open = os.open

    def fake(path, flags, *a, **k):
        if os.fspath(path) == os.fspath(target):
            raise exc
        return real_open(path, flags, *a, **k)

    monkeypatch.setattr(os, "open", fake)


def test_an_unreadable_file_is_permission_denied(tmp_path, monkeypatch):
    p = tmp_path / "secret.toml"
    p.write_text("[map]\n")
    _patch_open(monkeypatch, p, PermissionError(errno.EACCES, "Permission denied", str(p)))
    assert _reason_of(read_bytes, p) == f"{p}: permission denied"


def test_an_unreadable_data_folder_is_permission_denied(tmp_path, monkeypatch):
    # As root, chmod cannot make a folder unreadable: stat of anything inside it fails instead.
    folder = tmp_path / "data"
    folder.mkdir()
    p = folder / "ruins.toml"
    p.write_text("[map]\n")
    real_stat = os.stat

    def fake_stat(path, *a, **k):
        if os.fspath(path).startswith(str(folder) + os.sep):
            raise PermissionError(errno.EACCES, "Permission denied", os.fspath(path))
        return real_stat(path, *a, **k)

    monkeypatch.setattr(os, "stat", fake_stat)
    assert _reason_of(read_bytes, p) == f"{p}: permission denied"


def test_an_io_error_on_open_and_on_read_is_a_message(tmp_path, monkeypatch):
    p = tmp_path / "bad_sector.toml"
    p.write_text("[map]\n" * 10)
    with monkeypatch.context() as m:
        _patch_open(m, p, OSError(errno.EIO, "Input/output error", str(p)))
        assert _reason_of(read_bytes, p) == f"{p}: I/O error (the disk or the file system failed)"

    def failing_read(fd, n):
        raise OSError(errno.EIO, "Input/output error")

    monkeypatch.setattr(os, "read", failing_read)
    assert _reason_of(read_bytes, p) == f"{p}: cannot read: I/O error (the disk or the file system failed)"


def test_a_file_over_the_cap_is_refused_from_its_size(tmp_path, monkeypatch):
    p = tmp_path / "big.toml"
    p.write_bytes(b"#" * (MAX_FILE_BYTES + 1))
    reads = []
    real_read = os.read
    monkeypatch.setattr(os, "read", lambda fd, n: reads.append(n) or real_read(fd, n))
    msg = _reason_of(read_bytes, p)
    assert msg == f"{p}: file is too large ({MAX_FILE_BYTES + 1:,} bytes); the limit is {MAX_FILE_BYTES:,} bytes (1.0 MiB)"
    assert reads == []


def test_the_read_is_bounded_even_when_the_size_lies(tmp_path, monkeypatch):
    # A file system that reports 10 bytes for a file of 5 MiB (or a file growing as we read):
    # we read at most limit + 1 bytes and refuse it.
    p = tmp_path / "liar.toml"
    p.write_bytes(b"#" * (5 << 20))
    real_fstat, real_read = os.fstat, os.read

    def lying_fstat(fd):
        st = real_fstat(fd)
        return os.stat_result((st.st_mode, st.st_ino, st.st_dev, st.st_nlink, st.st_uid, st.st_gid, 10,
                               st.st_atime, st.st_mtime, st.st_ctime))

    got = []
    monkeypatch.setattr(os, "fstat", lying_fstat)
    monkeypatch.setattr(os, "read", lambda fd, n: got.append(len(b := real_read(fd, n))) or b)
    msg = _reason_of(read_bytes, p, None, 1000)
    assert msg.startswith(f"{p}: file is too large (more than 1,000 bytes)")
    assert sum(got) == 1001


def test_a_fifo_swapped_in_after_the_check_is_caught_by_fstat(tmp_path, fifo, monkeypatch):
    # The name is a regular file when stat looks, a FIFO when it is opened: the descriptor's fstat
    # decides, and the O_NONBLOCK open does not wait for a writer.
    real = tmp_path / "real.toml"
    real.write_text("[map]\n")
    real_stat = os.stat
    monkeypatch.setattr(os, "stat", lambda path, *a, **k: real_stat(real if os.fspath(path) == str(fifo) else path, *a, **k))
    msg = _reason_of(read_bytes, fifo)
    assert msg == f"{fifo}: is a FIFO (named pipe), not a regular file; only regular files are read"


def test_a_regular_file_still_reads(tmp_path):
    p = tmp_path / "ok.toml"
    p.write_bytes(b"a = 1\n")
    assert read_bytes(p) == b"a = 1\n"
    assert read_toml(p) == {"a": 1}
    assert read_regular_bytes(p, 6) == b"a = 1\n"
    with pytest.raises(DataError, match="more than|too large"):
        read_regular_bytes(p, 5)


# --- saves and replays (read_json_file) ------------------------------------------------------


@pytest.mark.parametrize("reader, error", [(read_replay, ReplayError), (load_game, SaveError)])
def test_saves_and_replays_from_odd_paths_are_clear_errors(reader, error, tmp_path, fifo_json, dangling, monkeypatch):
    d = tmp_path / "dir.json"
    d.mkdir()
    cases = {
        fifo_json: "is a FIFO (named pipe), not a regular file",
        Path("/dev/zero"): "is a character device, not a regular file",
        Path("/dev/urandom"): "is a character device, not a regular file",
        d: "is a directory, not a file",
        dangling: "dangling symbolic link",
        tmp_path / "missing.json": "no such file",
    }
    for path, reason in cases.items():
        with deadline():
            with pytest.raises(error) as err:
                reader(path)
        assert str(err.value).startswith(f"{path}: {reason}"), str(err.value)
    locked = tmp_path / "locked.json"
    locked.write_text("{}")
    failing = tmp_path / "failing.json"
    failing.write_text("{}")
    real_open = os.open

    def fake(path, flags, *a, **k):
        if os.fspath(path) == str(locked):
            raise PermissionError(errno.EACCES, "Permission denied")
        if os.fspath(path) == str(failing):
            raise OSError(errno.EIO, "Input/output error")
        return real_open(path, flags, *a, **k)

    monkeypatch.setattr(os, "open", fake)
    with pytest.raises(error, match=f"^{locked}: permission denied$"):
        reader(locked)
    with pytest.raises(error, match=f"^{failing}: I/O error"):
        reader(failing)


def test_a_json_file_over_its_cap_says_the_limit_for_its_kind(tmp_path):
    p = tmp_path / "big.json"
    p.write_bytes(b" " * 101)
    with pytest.raises(SaveError) as err:
        read_json_file(p, "save", 100, SaveError)
    assert str(err.value) == f"{p}: file is too large (101 bytes); the limit for a save is 100 bytes (100 bytes)"


def test_a_json_integer_too_long_to_convert_is_a_message(tmp_path):
    p = tmp_path / "digits.json"
    p.write_text("1" * 5000)
    with pytest.raises(ReplayError, match="cannot be read as JSON"):
        read_replay(p)


# --- through the CLI, in-process ------------------------------------------------------------


@pytest.mark.parametrize("command", ["check", "replay", "demo", "map"])
def test_the_cli_refuses_odd_inputs_without_hanging(command, tmp_path, fifo, capsys):
    d = tmp_path / "folder.toml"
    d.mkdir()
    link = tmp_path / "gone.toml"
    link.symlink_to(tmp_path / "nowhere.toml")
    for path, reason in [(fifo, "is a FIFO"), (Path("/dev/zero"), "is a character device"),
                         (Path("/dev/urandom"), "is a character device"), (d, "is a directory"),
                         (link, "dangling symbolic link")]:
        argv = {"check": ["check", str(path)], "replay": ["replay", str(path)], "demo": ["demo", str(path)],
                "map": ["play", "--text", "--map", str(path)]}[command]
        if command == "demo" and not str(path).endswith(".toml"):
            continue  # a demo is named by a .toml path (other names are shipped demo names)
        with deadline():
            rc = main(argv)
        out = capsys.readouterr()
        text = out.out + out.err
        assert rc != 0, (argv, text)
        assert f"{path}: {reason}" in text, (argv, text)
        assert "Traceback" not in text


def test_check_of_an_unreadable_file_names_it(tmp_path, monkeypatch, capsys):
    p = tmp_path / "locked.toml"
    p.write_text("[map]\n")
    _patch_open(monkeypatch, p, PermissionError(errno.EACCES, "Permission denied", str(p)))
    assert main(["check", str(p)]) == 1
    assert f"{p}: permission denied" in capsys.readouterr().out


# --- recognising our own files --------------------------------------------------------------


def test_is_ours_recognisers(tmp_path, fifo):
    replay = tmp_path / "r.json"
    replay.write_text(json.dumps({"format": "spellfield-replay", "steps": []}))
    reordered = tmp_path / "r2.json"
    reordered.write_text(json.dumps({"steps": [], "format": "spellfield-replay"}, indent=2))
    other = tmp_path / "o.json"
    other.write_text(json.dumps({"format": "something-else"}))
    png = tmp_path / "x.png"
    png.write_bytes(safe_io.PNG_MAGIC + b"rest")
    is_replay = safe_io.json_with_format("spellfield-replay")
    assert is_replay(replay) and is_replay(reordered)
    assert not is_replay(other) and not is_replay(png) and not is_replay(fifo)
    is_png = safe_io.has_magic(safe_io.PNG_MAGIC)
    assert is_png(png) and not is_png(replay) and not is_png(fifo) and not is_png(Path("/dev/zero"))
    log = tmp_path / "g.jsonl"
    log.write_text('{"game": 0, "seed": 1}\nnot json\n')
    first = safe_io.jsonl_first_line(lambda d: isinstance(d, dict) and "game" in d)
    assert first(log) and not first(other) and not first(fifo)


# --- the front end's file lists: odd files are skipped, never opened if not regular ----------


def test_storage_lists_skip_odd_files(tmp_path, monkeypatch):
    from game.ui import storage

    monkeypatch.setenv("SPELLFIELD_HOME", str(tmp_path / "home"))
    monkeypatch.chdir(tmp_path)
    saves, replays = storage.saves_dir(), storage.replays_dir()
    saves.mkdir(parents=True)
    replays.mkdir(parents=True)
    good_save = saves / "good.json"
    good_save.write_text("{}")
    good_replay = replays / "good.json"
    good_replay.write_text('{"format":"spellfield-replay"}')
    for folder in (saves, replays):
        (folder / "dir.json").mkdir()
        os.mkfifo(folder / "pipe.json")
        (folder / "gone.json").symlink_to(folder / "nowhere")
        (folder / "locked.json").write_text('{"format":"spellfield-replay"}')
    real_open = os.open

    def fake(path, flags, *a, **k):
        if os.fspath(path).endswith("locked.json"):
            raise PermissionError(errno.EACCES, "Permission denied")
        return real_open(path, flags, *a, **k)

    monkeypatch.setattr(os, "open", fake)
    with deadline():
        listed_saves = storage.list_saves()
        listed_replays = storage.list_replays()
    assert listed_saves == [good_save, saves / "locked.json"] or listed_saves == [saves / "locked.json", good_save]
    assert listed_replays == [good_replay]


def test_storage_lists_survive_an_unreadable_or_odd_folder(tmp_path, monkeypatch):
    from game.ui import storage

    monkeypatch.setenv("SPELLFIELD_HOME", str(tmp_path / "home"))
    storage.home().mkdir(parents=True)
    storage.saves_dir().write_text("a file where the folder should be")
    os.mkfifo(storage.replays_dir())
    assert storage.list_saves() == [] and storage.list_replays() == []
    storage.saves_dir().unlink()
    storage.saves_dir().mkdir()
    (storage.saves_dir() / "s.json").write_text("{}")
    real_scandir = os.scandir

    def locked(path="."):
        if os.fspath(path) == str(storage.saves_dir()):
            raise PermissionError(errno.EACCES, "Permission denied")
        return real_scandir(path)

    monkeypatch.setattr(os, "scandir", locked)
    assert storage.list_saves() == []


def test_resume_names_an_unreadable_autosave_folder(tmp_path, monkeypatch):
    from game.rules.saves import autosave_path
    from game.ui import storage

    assert storage.resume_problem() is None  # nothing saved yet: not a problem
    real_lstat = os.lstat

    def locked(path, *a, **k):
        if os.fspath(path) == str(autosave_path()):
            raise PermissionError(errno.EACCES, "Permission denied")
        return real_lstat(path, *a, **k)

    monkeypatch.setattr(os, "lstat", locked)
    assert storage.resume_problem() == (
        f"no saved game to resume: cannot read the autosave folder {autosave_path().parent}: permission denied")


def test_output_error_is_a_value_error_and_an_os_error():
    e = OutputError("x.gif", "cannot write the GIF: no space left on device", errno.ENOSPC)
    assert isinstance(e, ValueError) and isinstance(e, OSError)
    assert str(e) == "x.gif: cannot write the GIF: no space left on device" and e.errno == errno.ENOSPC


def test_kind_of_names_every_odd_file():
    assert safe_io.kind_of(stat.S_IFIFO) == "a FIFO (named pipe)"
    assert safe_io.kind_of(stat.S_IFCHR) == "a character device"
    assert safe_io.kind_of(stat.S_IFBLK) == "a block device"
    assert safe_io.kind_of(stat.S_IFSOCK) == "a socket"
