"""Where the front end keeps saves and replays, and the bridge to the engine's save module.

Saves go through `game.rules.saves` (`save_game`, `load_game`, `autosave`); the engine writes
them atomically and checks them on load. Replays are the engine's replay JSON
(`game.rules.replay`). The folder is `game.rules.saves.data_dir()`: `$SPELLFIELD_DATA_DIR`
(or `$SPELLFIELD_HOME`) or the platform's user data folder for "spellfield".
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
    from game.rules.saves import data_dir

    return data_dir()


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
    p = Path(path) if path else saves_dir() / time.strftime("save-%Y%m%d-%H%M%S.json")
    p.parent.mkdir(parents=True, exist_ok=True)
    mod.save_game(p, session.state, session.seed, session.actions())
    return p


def autosave(session) -> None:
    """After every action: the engine keeps the latest and the previous autosave."""
    from game.rules.saves import autosave as engine_autosave

    engine_autosave(session.state, session.seed, session.actions())


def resume_candidates() -> list[Path]:
    """The latest autosave, then the previous one (used if the latest is damaged)."""
    from game.rules.saves import autosave_path, previous_autosave_path

    return [p for p in (autosave_path(), previous_autosave_path()) if p.exists()]


def list_saves() -> list[Path]:
    found = resume_candidates()
    d = saves_dir()
    if d.is_dir():
        found += sorted(d.glob("*.json"), key=lambda p: p.stat().st_mtime, reverse=True)
    return found


def load(path) -> tuple[Any, Any, dict]:
    """(game, state, meta) from a save file. Raises SavesUnavailable or SaveError."""
    mod = _saves_module()
    if mod is None:
        raise SavesUnavailable("no saved game: saving is not available yet")
    return mod.load_game(path)


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
