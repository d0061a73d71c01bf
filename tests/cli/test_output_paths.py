"""Every file the CLI writes, given a hostile or odd path: a clear error and a non-zero exit, no
traceback, nothing written through a symlink or over a device, a FIFO or someone else's file.

The outputs: `record OUT`, `demo NAME --export X.gif`, `demo NAME --export-frames DIR`,
`play --headless --frames 3 --screenshot P` and `simulate --log FILE` (which appends).
Refusals are decided before the long work (a bot game, a render), so they run in-process and
fast; the screenshot cases that must open a window run in a subprocess.
"""

from __future__ import annotations

import errno
import json
import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from game.cli import main
from game.data.safe_io import GIF_MAGICS, PNG_MAGIC

ROOT = Path(__file__).resolve().parents[2]

FOREIGN = b"my holiday notes, not a Spellfield file\n"

#: output kind -> (argv for an output path, is the written file one of ours)
FILE_OUTPUTS = {
    "record": lambda out: ["record", out, "--seed", "2"],
    "gif": lambda out: ["demo", "m3_miscast", "--export", out, "--size", "320x240"],
    "screenshot": lambda out: ["play", "--headless", "--frames", "3", "--screenshot", out, "--size", "320x240"],
    "log": lambda out: ["simulate", "--games", "1", "--log", out],
}


def _ours(kind: str, data: bytes) -> bool:
    if kind == "record":
        return json.loads(data)["format"] == "spellfield-replay"
    if kind == "gif":
        return data[:6] in GIF_MAGICS
    if kind in ("screenshot", "frames"):
        return data.startswith(PNG_MAGIC)
    if kind == "log":
        return json.loads(data.splitlines()[-1])["game"] == 0
    raise AssertionError(kind)


def _run(argv: list[str], capsys) -> tuple[int, str]:
    rc = main(argv)
    out = capsys.readouterr()
    return rc, out.out + out.err


def _refused(argv: list[str], capsys, *needles: str) -> str:
    rc, text = _run(argv, capsys)
    assert rc != 0, (argv, text)
    assert "Traceback" not in text, text
    for n in needles:
        assert n in text, (argv, text)
    return text


def _devices_intact() -> None:
    for dev in ("/dev/null", "/dev/full"):
        assert stat.S_ISCHR(os.lstat(dev).st_mode), f"{dev} is no longer a character device"


@pytest.fixture
def place(tmp_path):
    """Odd things to write to, in a fresh folder."""
    d = tmp_path / "adir"
    d.mkdir()
    plain = tmp_path / "plain"
    plain.write_text("a file, not a folder")
    target = tmp_path / "target.txt"
    target.write_bytes(FOREIGN)
    link = tmp_path / "link.out"
    link.symlink_to(target)
    fifo = tmp_path / "pipe.out"
    os.mkfifo(fifo)
    return {"dir": d, "plain": plain, "target": target, "link": link, "fifo": fifo, "root": tmp_path}


BAD_FILE_PATHS = {
    "a directory": (lambda p: str(p["dir"]), "is a directory"),
    "/dev/full": (lambda p: "/dev/full", "is a character device"),
    "/dev/null": (lambda p: "/dev/null", "is a character device"),
    "a file as parent": (lambda p: str(p["plain"] / "out.bin"), "plain' is a regular file, not a folder"),
    "an empty name": (lambda p: "", "name is empty"),
    "a 300-character name": (lambda p: str(p["root"] / ("n" * 300)), "the file name is too long (300 bytes"),
    "a FIFO": (lambda p: str(p["fifo"]), "is a FIFO (named pipe)"),
    "a symlink to a file": (lambda p: str(p["link"]), "is a symbolic link"),
    "a foreign file": (lambda p: str(p["target"]), "is not a Spellfield"),
}


@pytest.mark.parametrize("case", list(BAD_FILE_PATHS))
@pytest.mark.parametrize("kind", list(FILE_OUTPUTS))
def test_a_bad_output_path_is_a_clear_error(kind, case, place, capsys):
    make, reason = BAD_FILE_PATHS[case]
    out = make(place)
    before = {p: (os.lstat(p).st_mode, p.read_bytes() if p.is_file() and not p.is_symlink() else None)
              for p in (place["target"], place["plain"])}
    text = _refused(FILE_OUTPUTS[kind](out), capsys, reason)
    if out:
        assert out in text  # the message names the path
    _devices_intact()
    assert place["link"].is_symlink() and os.readlink(place["link"]) == str(place["target"])
    assert stat.S_ISFIFO(os.lstat(place["fifo"]).st_mode) and place["dir"].is_dir()
    for p, (mode, data) in before.items():
        assert os.lstat(p).st_mode == mode and p.read_bytes() == data
    assert list(place["root"].glob("*.tmp")) == [] and list(place["dir"].iterdir()) == []


def _in_subprocess(argv: list[str], prelude: str = "") -> tuple[int, str]:
    code = f"import sys\n{prelude}\nfrom game.cli import main\nsys.exit(main({argv!r}))\n"
    env = {**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy"}
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, env=env, timeout=120)
    return r.returncode, r.stdout + r.stderr


def _write(kind: str, argv: list[str], capsys, prelude: str = "") -> tuple[int, str]:
    if kind == "screenshot":  # opens a window and quits pygame: keep that out of this process
        return _in_subprocess(argv, prelude)
    assert not prelude
    return _run(argv, capsys)


@pytest.mark.parametrize("kind", list(FILE_OUTPUTS))
def test_force_replaces_a_symlink_itself_and_a_foreign_file_keeping_its_mode(kind, place, capsys):
    link, target = place["link"], place["target"]
    rc, text = _write(kind, FILE_OUTPUTS[kind](str(link)) + ["--force"], capsys)
    assert rc == 0, text
    assert not link.is_symlink() and link.is_file() and _ours(kind, link.read_bytes())
    assert target.read_bytes() == FOREIGN  # the link's target is untouched

    os.chmod(target, 0o640)
    rc, text = _write(kind, FILE_OUTPUTS[kind](str(target)) + ["--force"], capsys)
    assert rc == 0, text
    data = target.read_bytes()
    assert _ours(kind, data)
    if kind == "log":  # --log appends: the foreign lines stay in front
        assert data.startswith(FOREIGN)
    assert stat.S_IMODE(os.stat(target).st_mode) == 0o640
    assert list(place["root"].glob("*.tmp")) == []


@pytest.mark.parametrize("kind", list(FILE_OUTPUTS))
def test_our_own_file_is_replaced_without_force(kind, place, capsys):
    out = place["root"] / "again.out"
    for _ in range(2):
        rc, text = _write(kind, FILE_OUTPUTS[kind](str(out)), capsys)
        assert rc == 0, text
    data = out.read_bytes()
    assert _ours(kind, data)
    if kind == "log":
        assert len(data.splitlines()) == 2  # appended twice


READ_ONLY = """
import errno, os
FOLDER = {folder!r}
real_open, real_replace = os.open, os.replace
def no_write(path, flags, *a, **k):
    if os.fspath(path).startswith(FOLDER + os.sep) and flags & (os.O_WRONLY | os.O_RDWR | os.O_CREAT):
        raise PermissionError(errno.EACCES, "Permission denied", os.fspath(path))
    return real_open(path, flags, *a, **k)
def no_replace(src, dst, *a, **k):
    if os.fspath(dst).startswith(FOLDER + os.sep):
        raise PermissionError(errno.EACCES, "Permission denied", os.fspath(dst))
    return real_replace(src, dst, *a, **k)
os.open, os.replace = no_write, no_replace
"""


@pytest.mark.parametrize("kind", list(FILE_OUTPUTS))
def test_a_read_only_folder_is_a_clear_error(kind, place, capsys, monkeypatch):
    folder = place["dir"]
    out = str(folder / "out.bin")
    prelude = READ_ONLY.format(folder=str(folder))
    if kind == "screenshot":
        rc, text = _in_subprocess(FILE_OUTPUTS[kind](out), prelude)
    else:
        scope: dict = {}
        exec(prelude, scope)  # the same patch, in this process
        monkeypatch.setattr(os, "open", scope["no_write"])
        monkeypatch.setattr(os, "replace", scope["no_replace"])
        rc, text = _run(FILE_OUTPUTS[kind](out), capsys)
    assert rc != 0 and "Traceback" not in text, text
    assert out in text and "permission denied" in text, text
    assert list(folder.iterdir()) == []  # no temporary file left behind


def test_a_failed_write_after_the_temp_file_leaves_nothing(place, capsys, monkeypatch):
    # The bytes reach the temporary file, then the rename is refused: the temp file goes.
    folder = place["dir"]
    existing = folder / "game.json"
    assert main(["record", str(existing), "--seed", "2"]) == 0
    before = existing.read_bytes()
    capsys.readouterr()
    real_replace = os.replace

    def refuse(src, dst, *a, **k):
        if os.fspath(dst) == str(existing):
            raise OSError(errno.EIO, "Input/output error")
        return real_replace(src, dst, *a, **k)

    monkeypatch.setattr(os, "replace", refuse)
    text = _refused(["record", str(existing), "--seed", "3"], capsys, str(existing), "I/O error")
    assert "Traceback" not in text
    assert existing.read_bytes() == before and sorted(folder.iterdir()) == [existing]


def test_a_full_disk_is_a_clear_error(place, capsys, monkeypatch):
    import game.data.safe_io as safe_io

    def full(fd, data):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(safe_io, "_write_all", full)
    out = place["dir"] / "g.gif"
    _refused(FILE_OUTPUTS["gif"](str(out)), capsys, str(out), "no space left on device")
    assert list(place["dir"].iterdir()) == []


# --- demo --export-frames DIR -----------------------------------------------------------------


def _frames(out: str, force: bool = False) -> list[str]:
    return ["demo", "m3_miscast", "--export-frames", out, "--size", "320x240", *(["--force"] if force else [])]


BAD_FOLDERS = {
    "a regular file": (lambda p: str(p["plain"]), "is a regular file, not a folder"),
    "/dev/full": (lambda p: "/dev/full", "is a character device, not a folder"),
    "/dev/null": (lambda p: "/dev/null", "is a character device, not a folder"),
    "a file as parent": (lambda p: str(p["plain"] / "frames"), "a part of the path is a file"),
    "an empty name": (lambda p: "", "name for the frames is empty"),
    "a 300-character name": (lambda p: str(p["root"] / ("f" * 300)), "name too long"),
    "a FIFO": (lambda p: str(p["fifo"]), "is a FIFO (named pipe), not a folder"),
    "a symlink to a file": (lambda p: str(p["link"]), "is a regular file, not a folder"),
}


@pytest.mark.parametrize("case", list(BAD_FOLDERS))
def test_a_bad_frames_folder_is_a_clear_error(case, place, capsys):
    make, reason = BAD_FOLDERS[case]
    out = make(place)
    text = _refused(_frames(out), capsys, reason)
    if out:
        assert out in text
    _devices_intact()
    assert place["target"].read_bytes() == FOREIGN and place["plain"].read_text() == "a file, not a folder"
    assert place["link"].is_symlink()


def test_frames_never_replace_a_foreign_file_or_write_through_a_link_without_force(place, capsys):
    folder = place["dir"]
    foreign = folder / "m3_miscast_01.png"
    foreign.write_bytes(FOREIGN)
    os.chmod(foreign, 0o600)
    link = folder / "m3_miscast_02.png"
    link.symlink_to(place["target"])
    _refused(_frames(str(folder)), capsys, str(foreign), "is not a Spellfield PNG frame")
    assert foreign.read_bytes() == FOREIGN and sorted(p.name for p in folder.iterdir()) == [foreign.name, link.name]
    foreign.write_bytes(PNG_MAGIC + b"an older frame")  # a PNG is ours: replaced; the link still is not
    _refused(_frames(str(folder)), capsys, str(link), "is a symbolic link")
    assert sorted(p.name for p in folder.iterdir()) == [foreign.name, link.name]  # nothing rendered yet
    foreign.write_bytes(FOREIGN)
    rc, text = _run(_frames(str(folder), force=True), capsys)
    assert rc == 0, text
    pngs = sorted(folder.iterdir())
    assert len(pngs) == 3 and all(p.read_bytes().startswith(PNG_MAGIC) and not p.is_symlink() for p in pngs)
    assert stat.S_IMODE(os.stat(foreign).st_mode) == 0o600
    assert place["target"].read_bytes() == FOREIGN


def test_frames_into_a_read_only_folder_is_a_clear_error(place, capsys, monkeypatch):
    folder = place["dir"]
    scope: dict = {}
    exec(READ_ONLY.format(folder=str(folder)), scope)
    monkeypatch.setattr(os, "open", scope["no_write"])
    text = _refused(_frames(str(folder)), capsys, "permission denied", str(folder))
    assert list(folder.iterdir()) == []
    assert "Traceback" not in text


def test_record_dev_null_as_root_keeps_dev_null(capsys):
    # The reliability run's worst case: `spellfield record /dev/null` replaced /dev/null with JSON.
    before = os.stat("/dev/null")
    _refused(["record", "/dev/null"], capsys, "/dev/null: is a character device")
    after = os.stat("/dev/null")
    assert stat.S_ISCHR(after.st_mode) and (after.st_ino, after.st_rdev) == (before.st_ino, before.st_rdev)
