"""Save files and autosaves: JSON, written atomically, checked on load.

A save holds the game's header (content hash, profile, map, armies, rounds), the seed, every
action so far and the state, with a checksum of the state. Loading checks all of it and gives
one clear message naming the file and the field; it never half-loads. Writing goes to a
temporary file beside the target, fsynced and renamed over it (`game.data.safe_io`), so a killed
process leaves the previous save whole. Autosaves rotate without a gap: see `autosave`.
An optional `info` object carries what the front end shows about the save (its game's id, a
title): display data outside the checksum, trimmed to plain values on load (`clean_info`).

    save_game(path, state, seed=7, history=[...])
    game, state, meta = load_game(path)

A save is checked whole before it is used (`load_game`), because players send each other
files: the header (a shipped map or one carried in `map_data`, see game.rules.replay), every
history entry decoded by type, the state against the game (`game.rules.state_check`), and then
the history re-played from the header's seed, inside error handling, to exactly the saved state
(`state_checksum`). Any failure is one `SaveError` naming the file, the field and the reason.

**A save without a seed** (older files) cannot be re-played. It is loaded, with its state fully
checked, and its history type-checked but left unverified: `meta["verified"]` is False, and
`replay_from_save` returns None for it, so no replay is ever written from an unverified history.
Its dice must be seeded dice all the same (scripted dice are for tests and demos).
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
from game.rules.errors import IllegalActionError
from game.rules.game import Game
from game.rules.jsonfile import read_json_file
from game.rules.replay import REPLAY_FORMAT, REPLAY_VERSION, ReplayError, file_header, game_for, write_json_atomic
from game.rules.state import State
from game.rules.state_check import state_problems

SAVE_FORMAT = "spellfield-save"
SAVE_VERSION = 1
MAX_SAVE_BYTES = 64 * 1024 * 1024
DATA_DIR_ENV = "SPELLFIELD_DATA_DIR"


class SaveError(Exception):
    """A save that cannot be loaded; the message names the file, the field and the reason."""


def state_checksum(state_dict: dict[str, Any]) -> str:
    blob = json.dumps(state_dict, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(blob.encode()).hexdigest()


def _save_doc(
    state: State, seed: int | None, history: list[dict] | None, info: dict[str, Any] | None = None
) -> dict[str, Any]:
    d = state.to_dict()
    doc: dict[str, Any] = {
        "format": SAVE_FORMAT,
        "version": SAVE_VERSION,
        "header": file_header(state.game, seed),  # carries the map when it is not a shipped one
        "history": list(history or []),
        "state": d,
        "checksum": state_checksum(d),
    }
    if info:  # only when given: a save without it keeps the bytes of version 1 as it always was
        doc["info"] = clean_info(info)
    return doc


MAX_INFO_ITEMS = 40
MAX_INFO_TEXT = 200


def clean_info(info: Any) -> dict[str, str | int | float | bool | None]:
    """A save's optional `info`: what the front end shows about it (its game's id, a title, the
    mode, when it was saved). Display data only, outside the checksum and never needed to load
    the game, so a damaged one is trimmed to its plain entries (string keys, short strings,
    numbers, booleans) rather than refusing the save."""
    if not isinstance(info, dict):
        return {}
    out: dict[str, str | int | float | bool | None] = {}
    for k, v in list(info.items())[:MAX_INFO_ITEMS]:
        if not isinstance(k, str) or len(k) > 40:
            continue
        if isinstance(v, str):
            out[k] = v[:MAX_INFO_TEXT]
        elif v is None or isinstance(v, (bool, int)) or (isinstance(v, float) and v == v and abs(v) != float("inf")):
            out[k] = v
    return out


def save_bytes(
    state: State, seed: int | None = None, history: list[dict] | None = None, info: dict[str, Any] | None = None
) -> bytes:
    """A save file's contents (JSON, UTF-8) for `state` and how it came about (and `info`, what
    the front end shows about it: see `clean_info`)."""
    return json.dumps(_save_doc(state, seed, history, info), separators=(",", ":")).encode("utf-8")


def save_game(
    path: str | Path,
    state: State,
    seed: int | None = None,
    history: list[dict] | None = None,
    *,
    force: bool = False,
    is_ours=None,
    info: dict[str, Any] | None = None,
) -> Path:
    """Write `state` (and how it came about, and the optional display `info`) to `path`
    atomically. Raises `OutputError` (an OSError and a ValueError) naming the path if it cannot
    or must not be written."""
    doc = _save_doc(state, seed, history, info)
    return write_json_atomic(path, doc, force=force, is_ours=is_ours, what="save")


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


SHOWN_PROBLEMS = 3  # state problems named in one SaveError


def load_game(path: str | Path) -> tuple[Game, State, dict[str, Any]]:
    """Read a save and check all of it (see the module docstring).

    Returns (game, state, meta) with meta = {"seed": int | None, "history": [action dicts],
    "verified": bool (the history re-played to this state), "checksum": the state's, "info": the
    display info (`clean_info`; {} when there is none)}; raises
    SaveError naming the file, the field and the reason. Never any other exception."""
    p = Path(path)
    data = read_json_file(p, "save", MAX_SAVE_BYTES, SaveError)
    try:
        return _load(p, data)
    except SaveError:
        raise
    except RecursionError:
        raise SaveError(f"{p}: nesting too deep to be a save") from None
    except Exception as exc:  # a check this module missed: still a clear refusal, never a traceback
        raise SaveError(f"{p}: cannot be loaded ({type(exc).__name__}: {exc})") from None


def _load(p: Path, data: Any) -> tuple[Game, State, dict[str, Any]]:
    if not isinstance(data, dict):
        raise SaveError(f"{p}: top level must be an object")
    if data.get("format") != SAVE_FORMAT:
        raise SaveError(f"{p}: format: must be {SAVE_FORMAT!r}, got {data.get('format')!r}")
    if type(data.get("version")) is not int or data["version"] != SAVE_VERSION:  # true == 1 in Python
        raise SaveError(f"{p}: version: this Spellfield reads version {SAVE_VERSION}, got {data.get('version')!r}")
    header, state_dict = data.get("header"), data.get("state")
    if not isinstance(header, dict) or not isinstance(state_dict, dict):
        raise SaveError(f"{p}: header and state must be objects")
    if data.get("checksum") != state_checksum(state_dict):
        raise SaveError(f"{p}: checksum: the state does not match its checksum; the file was edited by hand or damaged")
    history = data.get("history")
    if not isinstance(history, list):
        raise SaveError(f"{p}: history: must be a list of actions")
    actions = []
    for i, h in enumerate(history):
        try:
            actions.append(Action.from_dict(h))
        except ValueError as exc:
            raise SaveError(f"{p}: history[{i}]: {exc}") from None
    try:
        game = game_for(header)
    except ReplayError as exc:
        raise SaveError(f"{p}: {exc}") from None
    seed = header.get("seed")
    problems = state_problems(state_dict, game)
    if problems:
        more = len(problems) - SHOWN_PROBLEMS
        shown = "; ".join(f"state.{x}" for x in problems[:SHOWN_PROBLEMS]) + (f"; and {more} more" if more > 0 else "")
        raise SaveError(f"{p}: {shown}")
    if state_dict["dice"]["kind"] != "seeded":
        raise SaveError(
            f"{p}: state.dice.kind: a saved game rolls seeded dice, got {state_dict['dice']['kind']!r} "
            "(scripted dice are for tests and demos)"
        )
    try:
        state = State.from_dict(state_dict, game)
    except ValueError as exc:
        raise SaveError(f"{p}: state: {exc}") from None
    if seed is not None:
        _replay_history(p, game, seed, actions, data["checksum"], state_dict, sums=False)
    meta = {
        "seed": seed,
        "history": history,
        "verified": seed is not None,
        "checksum": data["checksum"],
        "info": clean_info(data.get("info")),
    }
    return game, state, meta


def _replay_history(
    p: Path | str,
    game: Game,
    seed: int,
    actions: list[Action],
    checksum: str | None,
    saved: dict | None = None,
    sums: bool = True,
) -> list[str]:
    """Re-apply `actions` from `seed`; the state checksum after each (`State.checksum`; none
    without `sums`). Raises
    SaveError naming the history entry that is illegal (or that the engine fails on), or saying
    that the history does not lead to the state whose `state_checksum` is `checksum` (and, given
    the `saved` state, where the two first differ)."""
    state = game.new_state(seed=seed)
    out: list[str] = []
    for i, action in enumerate(actions):
        try:
            state.apply(action)
        except IllegalActionError as exc:
            raise SaveError(
                f"{p}: history[{i}]: {action.type} is illegal at that point of the game ({exc.message}); "
                "the history was edited or damaged"
            ) from None
        except Exception as exc:  # an engine fault on a well-typed action: refuse, never a traceback
            raise SaveError(
                f"{p}: history[{i}]: the engine could not apply {action.type} ({type(exc).__name__}: {exc})"
            ) from None
        if sums:
            out.append(state.checksum())
    if checksum is not None:
        got = state.to_dict()
        if state_checksum(got) != checksum:
            where = f"; first difference: state.{_first_difference(saved, got)}" if saved is not None else ""
            raise SaveError(
                f"{p}: history: its {len(actions)} actions from seed {seed} do not lead to the saved state{where}; "
                "the history or the state was edited, cut or damaged"
            )
    return out


def _first_difference(saved: Any, got: Any, path: str = "") -> str:
    """The path of the first place where the saved state and the re-played one differ, with
    both values, e.g. `round: saved 3, re-played 1`."""
    if isinstance(saved, dict) and isinstance(got, dict):
        keys = list(saved) + [k for k in got if k not in saved]
        keys.sort(key=lambda k: k == "dice")  # the dice differ whenever anything does: name them last
        for k in keys:
            if saved.get(k, _MISSING) != got.get(k, _MISSING):
                return _first_difference(
                    saved.get(k, _MISSING), got.get(k, _MISSING), f"{path}.{k}" if path else str(k)
                )
    elif isinstance(saved, list) and isinstance(got, list) and len(saved) == len(got):
        for i, (a, b) in enumerate(zip(saved, got)):
            if a != b:
                return _first_difference(a, b, f"{path}[{i}]")
    return f"{path or 'state'}: saved {_brief(saved)}, re-played {_brief(got)}"


_MISSING = object()


def _brief(v: Any) -> str:
    if v is _MISSING:
        return "nothing"
    text = json.dumps(v, default=str)
    return text if len(text) <= 40 else text[:37] + "..."


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


def autosave(state: State, seed: int | None, history: list[dict], info: dict[str, Any] | None = None) -> Path:
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
        raise OutputError(
            latest, f"cannot create the autosave folder {str(folder)!r}: {describe_os_error(exc)}", exc.errno
        ) from None
    clean_autosave_temps()

    def rotate() -> None:
        if is_loadable_save(latest):
            try:
                _keep_as_previous(latest, prev)
            except OSError as exc:
                raise OutputError(
                    prev, f"cannot keep the previous autosave: {describe_os_error(exc)}", exc.errno
                ) from None

    write_file_atomic(latest, save_bytes(state, seed, history, info), what="autosave", before_replace=rotate)
    return latest


def replay_from_save(meta: dict[str, Any], game: Game) -> dict[str, Any] | None:
    """Rebuild a replay (header and actions with checksums) from a save's history (the `meta` of
    `load_game`), or None without a seed (an unverified history never becomes a replay).

    The history is decoded and re-applied inside error handling, and must lead to the saved state
    when `meta` has its "checksum"; otherwise SaveError names the history entry or says so."""
    seed = meta.get("seed")
    if seed is None:
        return None
    if type(seed) is not int:
        raise SaveError(f"header.seed: must be a whole number, got {seed!r}")
    history = meta.get("history")
    if not isinstance(history, list):
        raise SaveError("history: must be a list of actions")
    actions = []
    for i, h in enumerate(history):
        try:
            actions.append(Action.from_dict(h))
        except ValueError as exc:
            raise SaveError(f"history[{i}]: {exc}") from None
    sums = _replay_history("save", game, seed, actions, meta.get("checksum"))
    steps = [{"action": a.to_dict(), "checksum": c} for a, c in zip(actions, sums)]
    return {"format": REPLAY_FORMAT, "version": REPLAY_VERSION, "header": file_header(game, seed), "steps": steps}
