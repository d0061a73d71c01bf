"""Save files and autosaves: JSON, written atomically, checked on load.

A save holds the game's header (content hash, profile, map, armies, rounds), the seed, every
action so far and the state, with a checksum of the state. Loading checks all of it and gives
one clear message naming the file and the field; it never half-loads. Writing goes to a
temporary file beside the target, fsynced and renamed over it (`game.data.safe_io`), so a killed
process leaves the previous save whole. Autosaves rotate without a gap: see `autosave`.

    save_game(path, state, seed=7, history=[...])
    game, state, meta = load_game(path)
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path
from typing import Any

from game.data.safe_io import (
    OutputError,
    clean_stale_temps,
    describe_os_error,
    read_regular_bytes,
    temp_name,
    write_file_atomic,
)
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


def _save_doc(state: State, seed: int | None, history: list[dict] | None) -> dict[str, Any]:
    d = state.to_dict()
    return {
        "format": SAVE_FORMAT,
        "version": SAVE_VERSION,
        "header": {**state.game.header(), "seed": seed},
        "history": list(history or []),
        "state": d,
        "checksum": state_checksum(d),
    }


def save_bytes(state: State, seed: int | None = None, history: list[dict] | None = None) -> bytes:
    """A save file's contents (JSON, UTF-8) for `state` and how it came about."""
    return json.dumps(_save_doc(state, seed, history), separators=(",", ":")).encode("utf-8")


def save_game(path: str | Path, state: State, seed: int | None = None, history: list[dict] | None = None,
              *, force: bool = False, is_ours=None) -> Path:
    """Write `state` (and how it came about) to `path` atomically. Raises `OutputError` (an
    OSError and a ValueError) naming the path if it cannot or must not be written."""
    return write_json_atomic(path, _save_doc(state, seed, history), force=force, is_ours=is_ours, what="save")


def is_loadable_save(path: str | Path) -> bool:
    """The cheap check the autosave rotation makes before keeping a file as the previous
    autosave: a regular file that parses as JSON, carries our format tag, and whose state
    matches its checksum. (It does not rebuild the game: `load_game` does the full check.)"""
    try:
        raw = read_regular_bytes(path, MAX_SAVE_BYTES, str(path), SaveError)
        data = json.loads(raw.decode("utf-8"))
    except (SaveError, ValueError, RecursionError):
        return False
    return (
        isinstance(data, dict)
        and data.get("format") == SAVE_FORMAT
        and isinstance(data.get("state"), dict)
        and isinstance(data.get("checksum"), str)
        and data["checksum"] == state_checksum(data["state"])
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


def _keep_as_previous(latest: Path, prev: Path) -> None:
    """Make `prev` the file `latest` is now, while `latest` stays in place: a hard link under a
    temporary name renamed over `prev` (a rename of `latest` where links are not supported)."""
    folder = latest.parent
    tmp = folder / temp_name(prev.name, folder)
    try:
        os.link(latest, tmp, follow_symlinks=False)
    except (OSError, NotImplementedError):
        os.replace(latest, prev)  # FAT and friends: no latest until the new one is renamed in
        return
    try:
        os.replace(tmp, prev)
    finally:
        # gone after a successful rename; still there if it failed, or if `prev` already was
        # this very file (a rename between two links of one file does nothing)
        try:
            os.unlink(tmp)
        except OSError:
            pass


def clean_autosave_temps() -> list[Path]:
    """Remove temporary autosave files that killed writers left behind (only our own pattern:
    `autosave.json.<pid>-<token>.tmp`, `autosave.prev.json....tmp`, and the
    `autosave.json.XXXXXXXX.tmp` of earlier versions). Returns what was removed."""
    latest, prev = autosave_path(), previous_autosave_path()
    return clean_stale_temps(latest.parent, [latest.name, prev.name])


def autosave(state: State, seed: int | None, history: list[dict]) -> Path:
    """Write the latest autosave, `autosave.json`, and keep the one before it as
    `autosave.prev.json`. Raises `OutputError` if it cannot be written; then both files are as
    they were.

    The order matters (a reliability run lost all 79 actions of a game to the old order, which
    renamed the latest away before writing the new one, and rotated a damaged latest over a good
    previous):

    1. temporary files of killed writers (`autosave.json.<pid>-<token>.tmp`) are removed;
    2. the new save is written to a temporary file in the same folder and fsynced;
    3. the old latest becomes the previous one ONLY if it is itself a loadable save
       (`is_loadable_save`: JSON with our format tag and a state matching its checksum), so a
       damaged latest never replaces a good previous; it is hard-linked to the previous name
       (renamed where links are not supported), so a latest exists at every moment;
    4. the temporary file is renamed to `autosave.json`, and the folder fsynced.

    A kill at any point leaves a loadable latest (and the previous one)."""
    latest, prev = autosave_path(), previous_autosave_path()
    folder = latest.parent
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except FileExistsError:
        raise OutputError(latest, f"cannot create the autosave folder {str(folder)!r}: a file is in the way") from None
    except OSError as exc:
        raise OutputError(latest, f"cannot create the autosave folder {str(folder)!r}: {describe_os_error(exc)}",
                          exc.errno) from None
    clean_autosave_temps()

    def rotate() -> None:
        if is_loadable_save(latest):
            try:
                _keep_as_previous(latest, prev)
            except OSError as exc:
                raise OutputError(prev, f"cannot keep the previous autosave: {describe_os_error(exc)}",
                                  exc.errno) from None

    write_file_atomic(latest, save_bytes(state, seed, history), what="autosave", before_replace=rotate)
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
