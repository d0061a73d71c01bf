"""Where the front end keeps saves and replays, and the bridge to the engine's save module.

Saves go through `game.rules.saves` (`save_game(path, game, state)`, `load_game(path)`); until
that module exists the menu says "no saved game" instead of failing. Replays are the engine's
replay JSON (`game.rules.replay`). The folder is `$SPELLFIELD_HOME` or the platform's user data
folder for "spellfield".
"""

from __future__ import annotations

import os
import time
from pathlib import Path
from typing import Any


class SavesUnavailable(Exception):
    pass


def home() -> Path:
    env = os.environ.get("SPELLFIELD_HOME")
    if env:
        return Path(env)
    import platformdirs

    return Path(platformdirs.user_data_dir("spellfield", appauthor=False))


def saves_dir() -> Path:
    return home() / "saves"


def replays_dir() -> Path:
    return home() / "replays"


def _saves_module():
    try:
        from game.rules import saves  # the lead's module (issue: saves)
    except ImportError:
        return None
    if not (hasattr(saves, "save_game") and hasattr(saves, "load_game")):
        return None
    return saves


def saves_available() -> bool:
    return _saves_module() is not None


def save(session, path=None) -> Path:
    mod = _saves_module()
    if mod is None:
        raise SavesUnavailable("saving is not available yet (game.rules.saves is missing)")
    p = Path(path) if path else saves_dir() / "autosave.json"
    p.parent.mkdir(parents=True, exist_ok=True)
    mod.save_game(p, session.game, session.state)
    return p


def list_saves() -> list[Path]:
    d = saves_dir()
    if not d.is_dir():
        return []
    return sorted(d.glob("*.json"), key=lambda p: p.stat().st_mtime, reverse=True)


def load(path) -> tuple[Any, Any]:
    """(game, state) from a save file. Raises SavesUnavailable or the module's own errors."""
    mod = _saves_module()
    if mod is None:
        raise SavesUnavailable("no saved game: saving is not available yet")
    got = mod.load_game(path)
    if isinstance(got, tuple):
        return got[0], got[1]
    return got.game, got.state


def write_replay(session) -> Path:
    from game.rules.replay import write_json_atomic

    p = replays_dir() / time.strftime("hotseat-%Y%m%d-%H%M%S.json")
    write_json_atomic(p, session.replay_dict())
    return p


def list_replays(extra: list[Path] | None = None) -> list[Path]:
    found: list[Path] = []
    for d in [replays_dir(), Path.cwd(), *(extra or [])]:
        if d.is_dir():
            for p in sorted(d.glob("*.json")):
                try:
                    if p.stat().st_size < 32 * 1024 * 1024 and b"spellfield-replay" in p.read_bytes()[:200]:
                        found.append(p)
                except OSError:
                    continue
    return found
