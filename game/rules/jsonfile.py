"""Reading a JSON file the player gave us (a save or a replay) without ever showing a traceback.

The bytes come from `game.data.safe_io.read_regular_bytes`: regular files only (a FIFO, socket or
device is refused without blocking), at most `max_bytes + 1` bytes read whatever `st_size`
says, and every OS error (missing, dangling link, directory, permission, I/O error) a message.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from game.data.safe_io import read_regular_bytes


def read_json_file(path: str | Path, what: str, max_bytes: int, error: type[Exception]) -> Any:
    """Parse `path`, raising `error` with a message naming the file and the reason: unreadable
    (with the OS's reason), not a regular file, too big, not UTF-8, invalid JSON (with line and
    column) or nested too deep."""
    p = Path(path)
    raw = read_regular_bytes(p, max_bytes, str(p), error, what=what)
    try:
        return json.loads(raw.decode("utf-8"))
    except UnicodeDecodeError:
        raise error(f"{p}: not UTF-8 text; the file is damaged") from None
    except json.JSONDecodeError as exc:
        raise error(
            f"{p}: line {exc.lineno}, column {exc.colno}: invalid JSON ({exc.msg}); "
            "the file is damaged or was cut short"
        ) from None
    except RecursionError:
        raise error(f"{p}: nesting too deep to be a {what}") from None
    except ValueError as exc:  # e.g. an integer of more than 4300 digits
        raise error(f"{p}: cannot be read as JSON ({exc}); the file is damaged") from None
