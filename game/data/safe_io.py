"""Reading and writing the files players hand each other, without hangs, tracebacks or lost games.

Players send each other saves, replays, demonstrations and maps, and name the files the game
writes (`--export`, `--screenshot`, `record OUT`, `--log`). Anything can sit at such a path: a
FIFO, a socket, `/dev/zero`, a directory, a dangling symbolic link, an unreadable or failing
file. This module is the one place where the game touches such paths. Pure Python, no pygame.

Reading, `read_regular_bytes(path, limit, label, error)`:

- Only regular files are read. The name is `stat`ed first and a FIFO, socket or device is
  refused before it is opened; the file is then opened with `O_NONBLOCK` (so a FIFO swapped in
  meanwhile cannot block the open) and `fstat` of the open descriptor must say "regular file"
  too: the check is on what was opened, not on what the name pointed to a moment earlier.
- Reads are bounded: at most `limit + 1` bytes, in chunks, whatever `st_size` claims (a file
  that grows while being read, or a file system that lies about sizes, cannot make us read more).
- Every `OSError` becomes `error("<label>: <reason>")`: no such file, dangling symbolic link
  (with its target), is a directory, not a regular file (FIFO, socket, character or block
  device), permission denied, I/O error, name too long, symbolic link loop, a part of the path
  that is not a folder. Never a traceback.

Writing, `write_file_atomic(path, data, force=..., is_ours=..., what=...)`:

- Atomic: the bytes go to a temporary file in the same folder (`<name>.<pid>-<token>.tmp`, see
  `temp_pattern`), which is flushed and `fsync`ed and then renamed over the target with
  `os.replace`; the folder is `fsync`ed afterwards where the OS allows it. A reader sees the old
  file or the new one, never half of one. On any failure the temporary file is removed and the
  old file is left as it was.
- Guarded, before anything is written (`check_output_path`): an empty name, a name ending in a
  path separator, a name longer than the file system allows, a directory, a device node, a FIFO
  or a socket, and a parent that is not a folder are refused with a message naming the path.
  A symbolic link is never written through: it is refused, or with `force` the link itself is
  replaced by a regular file and its target is untouched.
- Other people's files are not overwritten by accident: an existing non-empty regular file is
  replaced only if `is_ours(path)` says it is a Spellfield file of the kind being written (a
  replay with our format tag, a PNG or GIF by its magic bytes, ...), or with `force`. Callers
  that own the path (autosaves, files in our own folders) pass `is_ours=None`, which allows it.
- A replaced file keeps its permission mode (and, when we run as root, its owner); a new file
  gets the mode `open()` would give it (0o666 less the umask).
- Failures raise `OutputError` (a `ValueError`, so the CLI's error handler prints it) with a
  message naming the path and the reason, e.g. ``out.gif: cannot write: no space left on device``.

Appending, `open_append(path, force=..., is_ours=...)`: the same guards, then a regular file
opened (or created) for appending with `O_NOFOLLOW`; a device, FIFO or directory is refused.

Stale temporary files: a process killed between writing its temporary file and renaming it
leaves the temporary behind. `clean_stale_temps(folder, names)` removes those of the given
target names whose writer is gone (its pid is no longer running, or the file is over ten
minutes old), and nothing that does not match our own pattern.
"""

from __future__ import annotations

import errno
import json
import os
import re
import secrets
import stat
import time
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import IO, Any

from game.data.errors import DataError

#: Bytes read per `os.read` call.
CHUNK = 1 << 16

#: A temporary file this much older than now is stale whatever its pid says.
STALE_TEMP_SECONDS = 600

#: Longest file name assumed where the file system cannot be asked.
DEFAULT_NAME_MAX = 255

_O_BINARY = getattr(os, "O_BINARY", 0)
_O_CLOEXEC = getattr(os, "O_CLOEXEC", 0)
_O_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
_O_NONBLOCK = getattr(os, "O_NONBLOCK", 0)
_O_NOCTTY = getattr(os, "O_NOCTTY", 0)

_TOKEN_CHARS = "abcdefghijklmnopqrstuvwxyz0123456789"

PathLike = str | os.PathLike[str]


class OutputError(ValueError, OSError):
    """A file we were asked to write (or append to) and cannot or must not.

    `path` is the path as given, `reason` the part after ``<path>: ``, `errno` the OS's error
    number when the OS refused (ENOSPC, EACCES, ...), else None. It is a ValueError (the CLI
    prints those as errors) and an OSError (callers that caught a failed write still do)."""

    def __init__(self, path: Any, reason: str, code: int | None = None):
        shown = os.fspath(path) if isinstance(path, (str, os.PathLike)) else str(path)
        super().__init__(f"{shown or repr(shown)}: {reason}")
        self.path = shown
        self.reason = reason
        self.errno = code


# --- describing what is at a path and what went wrong -----------------------------------------


def kind_of(mode: int) -> str:
    """What a stat mode is, in words: "a FIFO (named pipe)", "a character device", ..."""
    if stat.S_ISREG(mode):
        return "a regular file"
    if stat.S_ISDIR(mode):
        return "a directory"
    if stat.S_ISLNK(mode):
        return "a symbolic link"
    if stat.S_ISFIFO(mode):
        return "a FIFO (named pipe)"
    if stat.S_ISSOCK(mode):
        return "a socket"
    if stat.S_ISCHR(mode):
        return "a character device"
    if stat.S_ISBLK(mode):
        return "a block device"
    return "not a regular file"


def _link_target(path: PathLike) -> str | None:
    try:
        return os.readlink(os.fspath(path))
    except (OSError, ValueError):
        return None


def describe_os_error(exc: OSError, path: PathLike | None = None) -> str:
    """A short reason for an OSError, in words a player understands (no errno numbers)."""
    code = exc.errno
    if isinstance(exc, FileNotFoundError) or code == errno.ENOENT:
        if path is not None and os.path.islink(path):
            target = _link_target(path)
            return f"dangling symbolic link (it points to {target!r}, which does not exist)"
        return "no such file"
    if isinstance(exc, IsADirectoryError) or code == errno.EISDIR:
        return "is a directory, not a file"
    if isinstance(exc, NotADirectoryError) or code == errno.ENOTDIR:
        return "a part of the path is not a folder"
    if isinstance(exc, PermissionError) or code in (errno.EACCES, errno.EPERM):
        return "permission denied"
    reasons = {
        errno.EIO: "I/O error (the disk or the file system failed)",
        errno.ENAMETOOLONG: "name too long",
        errno.ELOOP: "too many levels of symbolic links (a link loop?)",
        errno.ENOSPC: "no space left on device",
        errno.EROFS: "read-only file system",
        errno.EFBIG: "file too large for the file system",
        errno.ENXIO: "not a regular file (no device or reader behind it)",
        errno.EEXIST: "already exists",
        errno.EBUSY: "device or resource busy",
        errno.ETXTBSY: "text file busy",
        errno.EINVAL: "invalid name or argument",
    }
    for name, text in (
        ("EDQUOT", "disk quota exceeded"),
        ("EMFILE", "too many open files"),
        ("ENOTSUP", "not supported by the file system"),
        ("EXDEV", "on another file system"),
    ):
        if hasattr(errno, name):
            reasons.setdefault(getattr(errno, name), text)
    if code in reasons:
        return reasons[code]
    return (exc.strerror or str(exc) or type(exc).__name__).rstrip(".").lower()


def _size_text(n: int) -> str:
    if n >= 1 << 20:
        return f"{n / (1 << 20):.1f} MiB"
    if n >= 1 << 10:
        return f"{n / (1 << 10):.1f} KiB"
    return f"{n} bytes"


# --- reading --------------------------------------------------------------------------------


def _open_regular(path: PathLike, label: str, error: Callable[[str], Exception]) -> tuple[int, os.stat_result]:
    """Open a regular file for reading without blocking on a FIFO; (fd, fstat)."""
    try:
        st = os.stat(path)
    except OSError as exc:
        raise error(f"{label}: {describe_os_error(exc, path)}") from None
    except ValueError:  # an embedded NUL character
        raise error(f"{label}: invalid file name") from None
    if stat.S_ISDIR(st.st_mode):
        raise error(f"{label}: is a directory, not a file")
    if not stat.S_ISREG(st.st_mode):
        raise error(f"{label}: is {kind_of(st.st_mode)}, not a regular file; only regular files are read")
    try:
        fd = os.open(path, os.O_RDONLY | _O_NONBLOCK | _O_NOCTTY | _O_CLOEXEC | _O_BINARY)
    except OSError as exc:
        raise error(f"{label}: {describe_os_error(exc, path)}") from None
    try:
        st = os.fstat(fd)
    except OSError as exc:
        os.close(fd)
        raise error(f"{label}: {describe_os_error(exc, path)}") from None
    if not stat.S_ISREG(st.st_mode):  # it changed between the stat and the open
        os.close(fd)
        raise error(f"{label}: is {kind_of(st.st_mode)}, not a regular file; only regular files are read")
    return fd, st


def _read_upto(fd: int, n: int) -> bytes:
    parts: list[bytes] = []
    got = 0
    while got < n:
        chunk = os.read(fd, min(CHUNK, n - got))
        if not chunk:
            break
        parts.append(chunk)
        got += len(chunk)
    return b"".join(parts)


def read_regular_bytes(
    path: PathLike,
    limit: int,
    label: str | None = None,
    error: Callable[[str], Exception] = DataError,
    what: str | None = None,
) -> bytes:
    """The bytes of the regular file at `path`, at most `limit` of them.

    Raises `error(message)` naming `label` (default: the path) and the reason for anything else:
    a missing file, a dangling symbolic link, a directory, a FIFO, socket or device, a file over
    `limit` bytes (at most `limit + 1` bytes are ever read), an unreadable or failing file.
    `what` ("save", "replay") is added to the size message: "... the limit for a save is ...".
    """
    label = label if label is not None else os.fspath(path)
    fd, st = _open_regular(path, label, error)
    limit_text = f"the limit{f' for a {what}' if what else ''} is {limit:,} bytes ({_size_text(limit)})"
    try:
        if st.st_size > limit:
            raise error(f"{label}: file is too large ({st.st_size:,} bytes); {limit_text}")
        try:
            raw = _read_upto(fd, limit + 1)
        except OSError as exc:
            raise error(f"{label}: cannot read: {describe_os_error(exc, path)}") from None
    finally:
        os.close(fd)
    if len(raw) > limit:
        raise error(f"{label}: file is too large (more than {limit:,} bytes); {limit_text}")
    return raw


def read_head(path: PathLike, n: int) -> bytes | None:
    """The first `n` bytes of a regular file, or None if it is not one or cannot be read."""
    try:
        fd, _ = _open_regular(path, os.fspath(path), DataError)
    except DataError:
        return None
    try:
        return _read_upto(fd, n)
    except OSError:
        return None
    finally:
        os.close(fd)


# --- recognising our own files ---------------------------------------------------------------

PNG_MAGIC = b"\x89PNG\r\n\x1a\n"
GIF_MAGICS = (b"GIF87a", b"GIF89a")
IMAGE_MAGICS = (PNG_MAGIC, *GIF_MAGICS, b"\xff\xd8\xff", b"BM")


def has_magic(*magics: bytes) -> Callable[[Path], bool]:
    """`is_ours` for binary files recognised by their first bytes (PNG, GIF, ...)."""
    longest = max(len(m) for m in magics)

    def check(path: Path) -> bool:
        head = read_head(path, longest)
        return head is not None and any(head.startswith(m) for m in magics)

    return check


def json_with_format(tag: str, limit: int = 64 << 20) -> Callable[[Path], bool]:
    """`is_ours` for JSON files whose top-level "format" is `tag` (replays, saves)."""
    quick = re.compile(rb'^\s*\{\s*"format"\s*:\s*"' + re.escape(tag.encode()) + rb'"')

    def check(path: Path) -> bool:
        head = read_head(path, 4096)
        if head is None:
            return False
        if quick.match(head):
            return True
        try:
            data = json.loads(read_regular_bytes(path, limit).decode("utf-8"))
        except (DataError, ValueError, RecursionError):
            return False
        return isinstance(data, dict) and data.get("format") == tag

    return check


def jsonl_first_line(pred: Callable[[Any], bool], limit: int = 1 << 16) -> Callable[[Path], bool]:
    """`is_ours` for JSON-lines files whose first line satisfies `pred` (the `--log` file)."""

    def check(path: Path) -> bool:
        head = read_head(path, limit)
        if not head:
            return False
        line = head.split(b"\n", 1)[0]
        try:
            return bool(pred(json.loads(line.decode("utf-8"))))
        except (ValueError, RecursionError, TypeError, AttributeError):
            return False

    return check


# --- output paths ----------------------------------------------------------------------------


class Target:
    """What `check_output_path` found at an output path."""

    __slots__ = ("path", "stat", "is_link")

    def __init__(self, path: Path, st: os.stat_result | None, is_link: bool):
        self.path = path
        self.stat = st  # of the regular file to replace, or None (new file, or a link to replace)
        self.is_link = is_link


def _name_max(folder: Path) -> int:
    try:
        return int(os.pathconf(folder, "PC_NAME_MAX"))
    except (OSError, ValueError, AttributeError):
        return DEFAULT_NAME_MAX


def _existing_folder(p: Path) -> Path:
    """The nearest ancestor of `p` that exists (for asking the file system its name limit)."""
    for q in p.parents:
        if os.path.isdir(q):
            return q
    return Path(".")


def check_output_path(
    path: PathLike,
    *,
    force: bool = False,
    is_ours: Callable[[Path], bool] | None = None,
    what: str = "file",
    create_parent: bool = True,
    append: bool = False,
) -> Target:
    """Decide whether `path` may be written (see the module docstring); raises `OutputError`.

    Creates the parent folders if `create_parent`. Nothing is written here: call it before a long
    computation (a GIF export, a bot game) so a bad path fails at once. With `append` the
    messages speak of appending (`open_append`)."""
    if not isinstance(path, (str, os.PathLike)):
        raise OutputError(repr(path), "not a file name")
    raw = os.fspath(path)
    if isinstance(raw, bytes):
        raw = os.fsdecode(raw)
    if raw == "":
        raise OutputError(raw, f"the {what} name is empty")
    if "\x00" in raw:
        raise OutputError(raw, "invalid file name (it contains a NUL character)")
    if raw.endswith(os.sep) or (os.altsep and raw.endswith(os.altsep)):
        raise OutputError(raw, f"names a folder (it ends with {raw[-1]!r}); give a file name for the {what}")
    p = Path(raw)
    if p.name in ("", ".", ".."):
        raise OutputError(raw, f"names a folder; give a file name for the {what}")
    limit = _name_max(_existing_folder(p))
    n = len(os.fsencode(p.name))
    if n > limit:
        raise OutputError(raw, f"the file name is too long ({n} bytes; the file system allows {limit})")
    parent = p.parent
    try:
        pst = os.stat(parent)
    except FileNotFoundError:
        if os.path.islink(parent):
            raise OutputError(raw, f"the folder {str(parent)!r} is a dangling symbolic link") from None
        if not create_parent:
            raise OutputError(raw, f"the folder {str(parent)!r} does not exist") from None
        try:
            parent.mkdir(parents=True, exist_ok=True)
        except FileExistsError:
            raise OutputError(raw, f"cannot create the folder {str(parent)!r}: a part of it is a file") from None
        except OSError as exc:
            reason = describe_os_error(exc)
            if isinstance(exc, NotADirectoryError):
                reason = "a part of it is a file, not a folder"
            raise OutputError(raw, f"cannot create the folder {str(parent)!r}: {reason}") from None
    except NotADirectoryError:
        raise OutputError(raw, f"a part of the folder {str(parent)!r} is a file, not a folder") from None
    except OSError as exc:
        raise OutputError(raw, f"cannot use the folder {str(parent)!r}: {describe_os_error(exc)}") from None
    else:
        if not stat.S_ISDIR(pst.st_mode):
            raise OutputError(raw, f"{str(parent)!r} is {kind_of(pst.st_mode)}, not a folder")
    try:
        st = os.lstat(p)
    except FileNotFoundError:
        return Target(p, None, False)
    except OSError as exc:
        raise OutputError(raw, f"cannot use it: {describe_os_error(exc, p)}") from None
    mode = st.st_mode
    if stat.S_ISLNK(mode):
        target = _link_target(p)
        if not force:
            raise OutputError(
                raw,
                f"is a symbolic link (to {target!r}); refusing to write through it (use --force to replace "
                f"the link itself; its target is left alone)",
            )
        return Target(p, None, True)
    if stat.S_ISDIR(mode):
        raise OutputError(raw, f"is a directory; give a file name for the {what}")
    if not stat.S_ISREG(mode):
        raise OutputError(raw, f"is {kind_of(mode)}; refusing to write the {what} {'to' if append else 'over'} it")
    if force or is_ours is None or st.st_size == 0:
        return Target(p, st, False)
    try:
        ours = bool(is_ours(p))
    except (OSError, DataError, ValueError):
        ours = False
    if not ours and append:
        raise OutputError(
            raw,
            f"already exists and is not a Spellfield {what}; refusing to append to it (use --force to append anyway)",
        )
    if not ours:
        raise OutputError(
            raw, f"already exists and is not a Spellfield {what}; refusing to overwrite it (use --force to replace it)"
        )
    return Target(p, st, False)


# --- writing --------------------------------------------------------------------------------


def temp_name(name: str, folder: Path | None = None) -> str:
    """A fresh temporary name for `name`: `<name>.<pid>-<token>.tmp` (the name shortened if the
    whole would be longer than the file system allows)."""
    suffix = f".{os.getpid()}-{''.join(secrets.choice(_TOKEN_CHARS) for _ in range(6))}.tmp"
    limit = _name_max(folder) if folder is not None else DEFAULT_NAME_MAX
    base = name
    while len(os.fsencode(base + suffix)) > limit and base:
        base = base[:-1]
    return base + suffix


def temp_pattern(name: str) -> re.Pattern[str]:
    """What our temporary files for target `name` look like: `<name>.<pid>-<token>.tmp`, and the
    `<name>.<8 chars>.tmp` of `tempfile.mkstemp` that earlier versions used (pid unknown)."""
    return re.compile(rf"^{re.escape(name)}\.(?:(?P<pid>\d+)-[a-z0-9]{{6}}|[a-z0-9_]{{8}})\.tmp$")


def fsync_folder(folder: Path) -> None:
    """Make a rename in `folder` durable, where the OS lets a folder be opened and synced."""
    if not hasattr(os, "O_DIRECTORY"):
        return  # Windows: folders cannot be opened this way; NTFS journals the rename
    try:
        fd = os.open(folder, os.O_RDONLY | os.O_DIRECTORY | _O_CLOEXEC)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass  # some file systems refuse to sync a folder; the file itself is synced
    finally:
        os.close(fd)


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        n = os.write(fd, view)
        view = view[n:]


def _keep_owner_and_mode(fd: int, tmp: Path, st: os.stat_result) -> None:
    if hasattr(os, "geteuid") and os.geteuid() == 0 and (st.st_uid, st.st_gid) != (0, 0):
        try:
            os.fchown(fd, st.st_uid, st.st_gid)
        except OSError:
            pass
    mode = stat.S_IMODE(st.st_mode)
    if hasattr(os, "fchmod"):
        os.fchmod(fd, mode)
    else:  # pragma: no cover - Windows
        os.chmod(tmp, mode)


def write_file_atomic(
    path: PathLike,
    data: bytes,
    *,
    force: bool = False,
    is_ours: Callable[[Path], bool] | None = None,
    what: str = "file",
    before_replace: Callable[[], None] | None = None,
) -> Path:
    """Write `data` to `path` atomically, with the guards of `check_output_path`.

    `before_replace` runs after the new bytes are safely on disk in the temporary file and just
    before it is renamed over `path` (the autosave rotates its files there); if it raises, the
    temporary file is removed and nothing else changes. Raises `OutputError`."""
    target = check_output_path(path, force=force, is_ours=is_ours, what=what)
    p = target.path
    folder = p.parent
    tmp = folder / temp_name(p.name, folder)
    label = os.fspath(path)
    fd: int | None = None
    created = False
    try:
        try:
            fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | _O_NOFOLLOW | _O_CLOEXEC | _O_BINARY, 0o666)
            created = True
            if target.stat is not None:
                _keep_owner_and_mode(fd, tmp, target.stat)
            _write_all(fd, data)
            os.fsync(fd)
            os.close(fd)
            fd = None
        except OSError as exc:
            raise OutputError(
                label,
                f"cannot write the {what}: {describe_os_error(exc)}"
                f"{'' if created else f' (in the folder {str(folder)!r})'}",
                exc.errno,
            ) from None
        if before_replace is not None:
            before_replace()
        try:
            os.replace(tmp, p)
        except OSError as exc:
            raise OutputError(label, f"cannot write the {what}: {describe_os_error(exc)}", exc.errno) from None
        created = False
    except BaseException:
        if fd is not None:
            try:
                os.close(fd)
            except OSError:
                pass
        if created:
            try:
                os.unlink(tmp)
            except OSError:
                pass
        raise
    fsync_folder(folder)
    return p


def open_append(
    path: PathLike,
    *,
    force: bool = False,
    is_ours: Callable[[Path], bool] | None = None,
    what: str = "log",
    encoding: str = "utf-8",
) -> IO[str]:
    """Open `path` for appending text: an existing regular file (ours, empty, or with `force`) or
    a new one. Never a device, FIFO, socket or directory; never through a symbolic link (with
    `force` the link is replaced by a new file). The parent folder must exist. Raises
    `OutputError`."""
    target = check_output_path(path, force=force, is_ours=is_ours, what=what, create_parent=False, append=True)
    label = os.fspath(path)
    try:
        if target.is_link:
            os.unlink(target.path)
        fd = os.open(
            target.path,
            os.O_WRONLY | os.O_APPEND | os.O_CREAT | _O_NOFOLLOW | _O_NONBLOCK | _O_NOCTTY | _O_CLOEXEC | _O_BINARY,
            0o666,
        )
    except OSError as exc:
        raise OutputError(label, f"cannot open the {what}: {describe_os_error(exc, target.path)}", exc.errno) from None
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            raise OutputError(label, f"is {kind_of(st.st_mode)}; refusing to write the {what} to it")
        if _O_NONBLOCK:
            import fcntl

            fcntl.fcntl(fd, fcntl.F_SETFL, fcntl.fcntl(fd, fcntl.F_GETFL) & ~_O_NONBLOCK)
        return os.fdopen(fd, "a", encoding=encoding)
    except OSError as exc:
        os.close(fd)
        raise OutputError(label, f"cannot open the {what}: {describe_os_error(exc)}", exc.errno) from None
    except BaseException:
        os.close(fd)
        raise


# --- stale temporary files -------------------------------------------------------------------


def _pid_alive(pid: int) -> bool:
    if os.name == "nt":  # pragma: no cover - os.kill(pid, 0) would terminate it on Windows
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:
        return True  # it exists (EPERM: someone else's)
    return True


def clean_stale_temps(folder: PathLike, names: Iterable[str], now: float | None = None) -> list[Path]:
    """Remove our temporary files for the target `names` in `folder` that no writer will finish:
    written by a process that is gone (or by this one: callers do not write them concurrently),
    written by an earlier version (no pid in the name), or older than `STALE_TEMP_SECONDS`.
    Only regular files matching `temp_pattern` are touched. Returns what was removed; errors
    (an unreadable folder, a file that vanished) are skipped."""
    patterns = [temp_pattern(n) for n in names]
    now = time.time() if now is None else now
    removed: list[Path] = []
    try:
        entries = list(os.scandir(os.fspath(folder)))
    except OSError:
        return removed
    me = os.getpid()
    for entry in entries:
        m = next((m for m in (pat.match(entry.name) for pat in patterns) if m), None)
        if m is None:
            continue
        try:
            st = entry.stat(follow_symlinks=False)
            if not stat.S_ISREG(st.st_mode):
                continue
            pid = m.group("pid")
            stale = pid is None or int(pid) == me or not _pid_alive(int(pid)) or now - st.st_mtime > STALE_TEMP_SECONDS
            if stale:
                os.unlink(entry.path)
                removed.append(Path(entry.path))
        except OSError:
            continue
    return removed


def output_folder(folder: str | os.PathLike[str], purpose: str) -> Path:
    """The folder a command writes into (`--export-frames DIR`, `simulate --report DIR`), made if
    missing; `OutputError` naming it if it cannot be one: an empty name, a dangling link, a file
    on the way, something that is not a folder ("not a folder for the <purpose>"), no write access."""
    raw = os.fspath(folder)
    if raw == "":
        raise OutputError(raw, f"the folder name for the {purpose} is empty")
    out = Path(raw)
    try:
        st = os.stat(out)
    except FileNotFoundError:
        if os.path.islink(out):
            raise OutputError(raw, "is a dangling symbolic link, not a folder") from None
        try:
            out.mkdir(parents=True, exist_ok=True)
        except (FileExistsError, NotADirectoryError):
            raise OutputError(raw, "cannot create the folder: a part of it is a file, not a folder") from None
        except OSError as exc:
            raise OutputError(raw, f"cannot create the folder: {describe_os_error(exc)}", exc.errno) from None
    except NotADirectoryError:
        raise OutputError(raw, "a part of the path is a file, not a folder") from None
    except OSError as exc:
        raise OutputError(raw, f"cannot use the folder: {describe_os_error(exc, out)}", exc.errno) from None
    else:
        if not stat.S_ISDIR(st.st_mode):
            raise OutputError(raw, f"is {kind_of(st.st_mode)}, not a folder for the {purpose}")
    if not os.access(out, os.W_OK | os.X_OK):
        raise OutputError(raw, "cannot write in the folder: permission denied")
    return out
