"""Replays: a header plus every action, with a checksum of the state after each one.

Verifying a replay re-applies the actions to a fresh game and reports the first step whose
state checksum differs (the Wesnoth way: every command synced, a replay that checks itself).

File format (JSON)::

    {"format": "spellfield-replay", "version": 1,
     "header": {"content_hash": ..., "profile": ..., "map": ..., "armies": [..], "rounds": 5, "seed": 7},
     "steps": [{"action": {"type": "EndPhase", "player": 1}, "checksum": "3fa4..."}, ...]}
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from game.rules.actions import Action
from game.rules.errors import IllegalActionError
from game.rules.jsonfile import read_json_file
from game.rules.game import Game
from game.rules.state import State

REPLAY_FORMAT = "spellfield-replay"
REPLAY_VERSION = 1
MAX_FILE_BYTES = 32 * 1024 * 1024


class ReplayError(Exception):
    """A replay file that cannot be read; the message names the file and the field."""


@dataclass
class Recorder:
    """Records a game as it is played: call `record(action)` after each successful `apply`."""

    game: Game
    seed: int
    state: State

    def __post_init__(self) -> None:
        self.steps: list[dict[str, Any]] = []

    def apply(self, action: Action) -> list:
        events = self.state.apply(action)
        self.steps.append({"action": action.to_dict(), "checksum": self.state.checksum()})
        return events

    def to_dict(self) -> dict[str, Any]:
        return {
            "format": REPLAY_FORMAT,
            "version": REPLAY_VERSION,
            "header": {**self.game.header(), "seed": self.seed},
            "steps": list(self.steps),
        }


@dataclass(frozen=True)
class VerifyReport:
    ok: bool
    steps: int  # steps that matched
    message: str
    first_bad_step: int | None = None


def read_replay(path: str | Path) -> dict[str, Any]:
    """Read and structurally check a replay file. Raises ReplayError with a clear message."""
    p = Path(path)
    data = read_json_file(p, "replay", MAX_FILE_BYTES, ReplayError)
    _check_shape(p, data)
    return data


def _check_shape(p: Path, data: Any) -> None:
    if not isinstance(data, dict):
        raise ReplayError(f"{p}: top level must be an object, got {type(data).__name__}")
    if data.get("format") != REPLAY_FORMAT:
        raise ReplayError(f"{p}: format: must be {REPLAY_FORMAT!r}, got {data.get('format')!r}")
    if data.get("version") != REPLAY_VERSION:
        raise ReplayError(f"{p}: version: must be {REPLAY_VERSION}, got {data.get('version')!r}")
    header = data.get("header")
    if not isinstance(header, dict):
        raise ReplayError(f"{p}: header: must be an object")
    for key, kind in (("profile", str), ("map", str), ("seed", int), ("rounds", int), ("content_hash", str)):
        if not isinstance(header.get(key), kind):
            raise ReplayError(f"{p}: header.{key}: must be {kind.__name__}, got {header.get(key)!r}")
    armies = header.get("armies")
    if not (isinstance(armies, list) and len(armies) == 2 and all(isinstance(a, str) for a in armies)):
        raise ReplayError(f"{p}: header.armies: must be a list of two army ids, got {armies!r}")
    steps = data.get("steps")
    if not isinstance(steps, list):
        raise ReplayError(f"{p}: steps: must be a list")
    for i, st in enumerate(steps):
        if not (isinstance(st, dict) and isinstance(st.get("action"), dict) and isinstance(st.get("checksum"), str)):
            raise ReplayError(f"{p}: steps[{i}]: must be an object with 'action' (object) and 'checksum' (string)")


def game_for(header: dict[str, Any]) -> Game:
    game = Game.load(
        profile=header["profile"], armies=tuple(header["armies"]), battlefield=header["map"], rounds=header["rounds"]
    )
    if game.content.content_hash != header["content_hash"]:
        raise ReplayError(
            f"header.content_hash: the replay was recorded with content {header['content_hash'][:12]}, "
            f"this install has {game.content.content_hash[:12]}"
        )
    return game


def verify(data: dict[str, Any]) -> VerifyReport:
    """Re-apply every action and compare checksums; report the first step that differs."""
    header = data["header"]
    try:
        game = game_for(header)
    except (ValueError, ReplayError) as exc:
        return VerifyReport(False, 0, str(exc), 0)
    state = game.new_state(seed=header["seed"])
    for i, st in enumerate(data["steps"]):
        try:
            action = Action.from_dict(st["action"])
            state.apply(action)
        except ValueError as exc:
            return VerifyReport(False, i, f"steps[{i}].action: {exc}", i)
        except IllegalActionError as exc:
            return VerifyReport(False, i, f"steps[{i}]: the action is illegal here: {exc.message}", i)
        got = state.checksum()
        if got != st["checksum"]:
            return VerifyReport(
                False, i, f"steps[{i}]: state checksum {got} differs from the recorded {st['checksum']}", i
            )
    n = len(data["steps"])
    return VerifyReport(True, n, f"all {n} steps verified")


def write_json_atomic(path: str | Path, data: Any, *, force: bool = False, is_ours=None, what: str = "file") -> Path:
    """Write JSON to a temporary file beside `path`, fsync it, then rename it over `path`.

    The guards of `game.data.safe_io.write_file_atomic` apply: never over a directory, device or
    FIFO, never through a symbolic link (with `force`, the link itself is replaced), an existing
    file's mode is kept, and with `is_ours` a file that is not ours is refused unless `force`.
    Raises `game.data.safe_io.OutputError` (a ValueError) naming the path."""
    from game.data.safe_io import write_file_atomic

    blob = json.dumps(data, separators=(",", ":")).encode("utf-8")
    return write_file_atomic(path, blob, force=force, is_ours=is_ours, what=what)
