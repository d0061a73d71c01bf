"""The player's settings, kept between sessions in `settings.json` in the user data folder.

One small JSON object (`{"format": "spellfield-settings", ...}`), read leniently and written
atomically: a missing, damaged, oversized or odd file gives the defaults (the reason is kept in
`problem()` for the menu to show) and is never overwritten until the player changes a setting.
Unknown keys are kept, so an older game does not drop a newer game's settings.

Settings (key: default):
- `palette`: "default" or "okabe_ito" (theme.use_palette), the colour-blind-safe palette;
- `confirm_rolls`: True: a declared spell, prayer, banish, charge or shot waits for a confirm;
- `language`: "en", "ko" or "ja", or "" for the system's language (issue 22; --lang and
  SPELLFIELD_LANG come first).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from game.i18n import _

FORMAT = "spellfield-settings"
MAX_BYTES = 64 * 1024
DEFAULTS: dict[str, Any] = {"palette": "default", "confirm_rolls": True, "language": ""}

# Keyed by the file's path: tests and a changed SPELLFIELD_DATA_DIR read their own file.
_cache: dict[Path, dict[str, Any]] = {}
_problems: dict[Path, str | None] = {}


def path() -> Path:
    from game.ui.storage import home

    return home() / "settings.json"


def _valid(key: str, value: Any) -> bool:
    default = DEFAULTS.get(key)
    if default is None:
        return True  # a newer game's key: kept as it is
    return type(value) is type(default)


def load() -> dict[str, Any]:
    """Every setting: the file's valid values over the defaults. Never raises."""
    p = path()
    if p in _cache:
        return dict(_cache[p])
    from game.data.safe_io import DataError, read_regular_bytes

    values = dict(DEFAULTS)
    _problem: str | None = None
    try:
        raw = read_regular_bytes(p, MAX_BYTES, what="settings file")
        data = json.loads(raw.decode("utf-8"))
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            raise ValueError(_("{file}: not a Spellfield settings file").format(file=p))
        for key, value in data.items():
            if key == "format":
                continue
            if _valid(key, value):
                values[key] = value
            else:
                _problem = _("{file}: {key}: expected {type}, kept the default").format(
                    file=p, key=key, type=type(DEFAULTS[key]).__name__
                )
    except DataError as exc:
        if not str(exc).endswith(": no such file"):  # no file yet: the defaults, quietly
            _problem = str(exc)
    except (OSError, ValueError, UnicodeDecodeError) as exc:
        _problem = _("{file}: cannot read the settings: {problem}").format(file=p, problem=exc)
    _cache[p] = values
    _problems[p] = _problem
    return dict(values)


def get(key: str) -> Any:
    return load().get(key, DEFAULTS.get(key))


def problem() -> str | None:
    """Why the settings file could not be used (None when it was fine or absent)."""
    load()
    return _problems.get(path())


def put(key: str, value: Any) -> str | None:
    """Change one setting and write the file; returns why it could not be written (None if it was).
    The new value holds for this session either way."""
    values = load()
    values[key] = value
    _cache[path()] = values
    from game.rules import write_json_atomic

    try:
        write_json_atomic(path(), {"format": FORMAT, **values}, what="settings file")
    except (OSError, ValueError) as exc:
        return _("settings not saved: {problem}").format(problem=exc)
    return None


def forget_cache() -> None:
    """Read the file again on the next `load` (tests; a changed data folder)."""
    _cache.clear()
    _problems.clear()
