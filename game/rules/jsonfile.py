"""Reading a JSON file the player gave us (a save or a replay) without ever showing a traceback."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any


def read_json_file(path: str | Path, what: str, max_bytes: int, error: type[Exception]) -> Any:
    """Parse `path`, raising `error` with a message naming the file and the reason: unreadable,
    too big, not UTF-8, invalid JSON (with line and column) or nested too deep."""
    p = Path(path)
    try:
        size = p.stat().st_size
    except OSError as exc:
        raise error(f"{p}: cannot read: {exc.strerror}") from None
    if size > max_bytes:
        raise error(f"{p}: {size} bytes is over the {max_bytes}-byte limit for {what}s")
    try:
        return json.loads(p.read_text(encoding="utf-8"))
    except UnicodeDecodeError:
        raise error(f"{p}: not UTF-8 text; the file is damaged") from None
    except json.JSONDecodeError as exc:
        raise error(
            f"{p}: line {exc.lineno}, column {exc.colno}: invalid JSON ({exc.msg}); the file is damaged or was cut short"
        ) from None
    except RecursionError:
        raise error(f"{p}: nesting too deep to be a {what}") from None
