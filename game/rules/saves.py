"""Save files and autosaves: JSON, written atomically, checked on load.

A save holds the game's header (content hash, profile, map, armies, rounds), the seed, every
action so far and the state, with a checksum of the state. Loading checks all of it and gives
one clear message naming the file and the field; it never half-loads. Writing goes to a
temporary file that is renamed over the old one, so a killed process leaves the previous save
whole. Autosaves rotate: `autosave.json` is the latest and `autosave.prev.json` the one before.

    save_game(path, state, seed=7, history=[...])
    game, state, meta = load_game(path)
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path
from typing import Any

from game.rules.actions import Action
from game.rules.game import Game
from game.rules.jsonfile import read_json_file
from game.rules.replay import REPLAY_FORMAT, REPLAY_VERSION, game_for, write_json_atomic
from game.rules.state import State

SAVE_FORMAT = "spellfield-save"
SAVE_VERSION = 1
MAX_SAVE_BYTES = 64 * 1024 * 1024
DATA_DIR_ENV = "SPELLFIELD_DATA_DIR"


class SaveError(Exception):
    """A save that cannot be loaded; the message names the file, the field and the reason."""


def state_checksum(state_dict: dict[str, Any]) -> str:
    blob = json.dumps(state_dict, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(blob.encode()).hexdigest()


def save_game(path: str | Path, state: State, seed: int | None = None, history: list[dict] | None = None) -> None:
    """Write `state` (and how it came about) to `path` atomically."""
    d = state.to_dict()
    write_json_atomic(
        path,
        {
            "format": SAVE_FORMAT,
            "version": SAVE_VERSION,
            "header": {**state.game.header(), "seed": seed},
            "history": list(history or []),
            "state": d,
            "checksum": state_checksum(d),
        },
    )


def load_game(path: str | Path) -> tuple[Game, State, dict[str, Any]]:
    """Read a save. Returns (game, state, {"seed": ..., "history": [...]}); raises SaveError."""
    p = Path(path)
    data = read_json_file(p, "save", MAX_SAVE_BYTES, SaveError)
    if not isinstance(data, dict):
        raise SaveError(f"{p}: top level must be an object")
    if data.get("format") != SAVE_FORMAT:
        raise SaveError(f"{p}: format: must be {SAVE_FORMAT!r}, got {data.get('format')!r}")
    if data.get("version") != SAVE_VERSION:
        raise SaveError(f"{p}: version: this Spellfield reads version {SAVE_VERSION}, got {data.get('version')!r}")
    header, state_dict = data.get("header"), data.get("state")
    if not isinstance(header, dict) or not isinstance(state_dict, dict):
        raise SaveError(f"{p}: header and state must be objects")
    if data.get("checksum") != state_checksum(state_dict):
        raise SaveError(f"{p}: checksum: the state does not match its checksum; the file was edited by hand or damaged")
    history = data.get("history")
    if not isinstance(history, list) or not all(isinstance(h, dict) for h in history):
        raise SaveError(f"{p}: history: must be a list of actions")
    try:
        for i, h in enumerate(history):
            Action.from_dict(h)
    except ValueError as exc:
        raise SaveError(f"{p}: history[{i}]: {exc}") from None
    try:
        game = game_for({**header, "seed": header.get("seed") or 0})
    except (KeyError, TypeError) as exc:
        raise SaveError(f"{p}: header: missing or wrong field {exc}") from None
    except Exception as exc:  # ValueError, ReplayError, DataError: all carry a message
        raise SaveError(f"{p}: header: {exc}") from None
    try:
        state = State.from_dict(state_dict, game)
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        raise SaveError(f"{p}: state: cannot be read ({type(exc).__name__}: {exc})") from None
    return game, state, {"seed": header.get("seed"), "history": history}


def data_dir() -> Path:
    """Where autosaves live: $SPELLFIELD_DATA_DIR (or $SPELLFIELD_HOME), else the platform's
    user data directory."""
    override = os.environ.get(DATA_DIR_ENV) or os.environ.get("SPELLFIELD_HOME")
    if override:
        return Path(override)
    from platformdirs import user_data_dir

    return Path(user_data_dir("spellfield", appauthor=False))


def autosave_path() -> Path:
    return data_dir() / "autosave.json"


def previous_autosave_path() -> Path:
    return data_dir() / "autosave.prev.json"


def autosave(state: State, seed: int | None, history: list[dict]) -> Path:
    """Keep the last autosave as the previous one, then write the new one atomically."""
    latest, prev = autosave_path(), previous_autosave_path()
    if latest.exists():
        os.replace(latest, prev)
    save_game(latest, state, seed, history)
    return latest


def replay_from_save(meta: dict[str, Any], game: Game) -> dict[str, Any] | None:
    """Rebuild a replay (header and actions with checksums) from a save's history, or None
    without a seed."""
    if meta.get("seed") is None:
        return None
    state = game.new_state(seed=meta["seed"])
    steps = []
    for h in meta["history"]:
        state.apply(Action.from_dict(h))
        steps.append({"action": h, "checksum": state.checksum()})
    return {"format": REPLAY_FORMAT, "version": REPLAY_VERSION, "header": {**game.header(), "seed": meta["seed"]}, "steps": steps}
