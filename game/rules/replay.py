"""Replays: a header plus every action, with a checksum of the state after each one.

Verifying a replay re-applies the actions to a fresh game and reports the first step whose
state checksum differs (the Wesnoth way: every command synced, a replay that checks itself).

File format (JSON)::

    {"format": "spellfield-replay", "version": 1,
     "header": {"content_hash": ..., "profile": ..., "map": ..., "armies": [..], "rounds": 5, "seed": 7},
     "steps": [{"action": {"type": "EndPhase", "player": 1}, "checksum": "3fa4..."}, ...]}

A replay (or a save) comes from another player, so nothing in it is trusted:

- `header.map` names a map shipped with the game (`game.data.content.list_maps()`), never a
  path; a game on any other map carries the map itself in `header.map_data` (the `[map]` table
  of a map file, as JSON, checked like `spellfield check` checks a map file). `file_header`
  writes it when the game's map is not the shipped one of that id.
- a game of the player's own content (a content pack, a saved army list) carries that content
  in `header.content_data` (a content file's arrays as JSON: only what the two armies use, see
  `game.data.subset`), checked like `spellfield check` checks a pack; its hash must be the
  header's `content_hash`, or the file was edited after it was recorded and is refused. A game
  of the built-in content carries none (its files are byte for byte those of earlier versions).
- every action is decoded by type (`Record.from_dict`): an ill-typed one is a mismatch at its
  step naming the field (``steps[12].action: MoveUnit.to[0][1]: must be a finite number, got
  NaN``), as is an illegal one, or one the engine fails on; `verify` never raises.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from game.data.content import Content
from game.data.errors import DataError
from game.data.models import BattleMap
from game.rules.actions import Action
from game.rules.errors import IllegalActionError
from game.rules.game import Game
from game.rules.jsonfile import read_json_file

REPLAY_FORMAT = "spellfield-replay"
REPLAY_VERSION = 1
MAX_FILE_BYTES = 32 * 1024 * 1024
MAX_ROUNDS = 100  # a header's `rounds` (the profiles play 5)
MAX_MAP_POINTS = 20_000  # polygon corners in a carried map (`header.map_data`), all pieces together
MAX_CONTENT_DEFINITIONS = 400  # definitions in a carried content (`header.content_data`), all kinds together


class ReplayError(Exception):
    """A replay file that cannot be read; the message names the file and the field."""


def file_header(game: Game, seed: int | None) -> dict[str, Any]:
    """The header of a replay or save of `game`: `game.header()` and the seed, and the map itself
    (`map_data`) when it is not the shipped map of its id, so that the file can be replayed on
    another machine."""
    header: dict[str, Any] = {**game.header(), "seed": seed}
    bmap = game.battlefield.map
    if not _is_shipped(bmap):
        header["map_data"] = bmap.model_dump(mode="json")
    if not _is_builtin(game.content):
        from game.data.subset import carried_file

        header["content_data"] = carried_file(game.content)
    return header


def _is_builtin(content: Any) -> bool:
    from game.data.content import default_content

    return content.content_hash == default_content().content_hash


def _is_shipped(bmap: BattleMap) -> bool:
    from game.data.content import list_maps, load_map

    try:
        return bmap.id in list_maps() and load_map(bmap.id) == bmap
    except DataError:
        return False


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


def _check_shape(p: Path | str, data: Any) -> None:
    if not isinstance(data, dict):
        raise ReplayError(f"{p}: top level must be an object, got {type(data).__name__}")
    if data.get("format") != REPLAY_FORMAT:
        raise ReplayError(f"{p}: format: must be {REPLAY_FORMAT!r}, got {_short(data.get('format'))}")
    if type(data.get("version")) is not int or data["version"] != REPLAY_VERSION:  # true == 1 in Python
        raise ReplayError(f"{p}: version: must be {REPLAY_VERSION}, got {_short(data.get('version'))}")
    header = data.get("header")
    if not isinstance(header, dict):
        raise ReplayError(f"{p}: header: must be an object")
    try:
        check_header(header, need_seed=True)
    except ReplayError as exc:
        raise ReplayError(f"{p}: {exc}") from None
    steps = data.get("steps")
    if not isinstance(steps, list):
        raise ReplayError(f"{p}: steps: must be a list")
    for i, st in enumerate(steps):
        if not (isinstance(st, dict) and isinstance(st.get("action"), dict) and isinstance(st.get("checksum"), str)):
            raise ReplayError(f"{p}: steps[{i}]: must be an object with 'action' (object) and 'checksum' (string)")


def _short(value: Any, limit: int = 60) -> str:
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def check_header(header: Any, need_seed: bool = True) -> str | BattleMap:
    """The fields of a replay's or save's header, by type, and its map (a shipped id, or a map
    carried in `map_data`), which it returns. Raises ReplayError naming the field; `game_for`
    builds the game; `header_content` checks a carried content."""
    if not isinstance(header, dict):
        raise ReplayError(f"header: must be an object, got {type(header).__name__}")
    for key in ("profile", "map", "seed", "rounds", "content_hash"):
        value = header.get(key)
        if key == "seed" and value is None and not need_seed:
            continue
        if key in ("seed", "rounds"):
            if type(value) is not int:
                raise ReplayError(f"header.{key}: must be a whole number, got {_short(value)}")
        elif not isinstance(value, str):
            raise ReplayError(f"header.{key}: must be a string, got {_short(value)}")
    if not 1 <= header["rounds"] <= MAX_ROUNDS:
        raise ReplayError(f"header.rounds: must be 1 to {MAX_ROUNDS}, got {header['rounds']}")
    armies = header.get("armies")
    if not (isinstance(armies, list) and len(armies) == 2 and all(isinstance(a, str) for a in armies)):
        raise ReplayError(f"header.armies: must be a list of two army ids, got {_short(armies)}")
    return header_map(header)


def header_map(header: dict[str, Any]) -> str | BattleMap:
    """The map a header names: a shipped map's id, or the map carried in `map_data`. A header
    never names a file: a path (or any other name) is refused with the list of shipped maps."""
    from game.data.content import list_maps

    name, carried = header.get("map"), header.get("map_data")
    if carried is not None:
        return _carried_map(name, carried)
    shipped = list_maps()
    if not isinstance(name, str) or name not in shipped:
        raise ReplayError(
            f"header.map: {_short(name)} is not a map that ships with Spellfield (known: {', '.join(shipped)}); "
            "a replay or save names a shipped map by its id, or carries its own map in header.map_data"
        )
    return name


def _carried_map(name: Any, carried: Any) -> BattleMap:
    from game.data.check import map_problems
    from game.data.loader import validate

    if not isinstance(carried, dict):
        raise ReplayError(
            f"header.map_data: must be an object (a map file's [map] table), got {type(carried).__name__}"
        )
    try:
        bmap = validate(BattleMap, carried, "header.map_data")
    except DataError as exc:
        raise ReplayError("; ".join(exc.problems[:3])) from None
    points = sum(len(t.points) for t in bmap.terrain) + sum(len(z.points) + len(z.anchors) for z in bmap.deployment)
    if points > MAX_MAP_POINTS:
        raise ReplayError(f"header.map_data: {points} polygon points is over the limit of {MAX_MAP_POINTS}")
    if bmap.id != name:
        raise ReplayError(f"header.map_data.id: the carried map is {bmap.id!r}, but header.map names {_short(name)}")
    try:
        problems = map_problems(bmap, "header.map_data")
    except Exception as exc:  # shapely on a degenerate polygon: still a bad map, never a traceback
        problems = [f"header.map_data: the map's geometry cannot be built ({type(exc).__name__}: {exc})"]
    if problems:
        raise ReplayError("; ".join(problems[:3]))
    return bmap


def header_content(header: dict[str, Any]) -> Content | None:
    """The content a header's game is played with: the one carried in `content_data` (checked
    whole: schema, cross references, size, and its hash against `content_hash`), else None (the
    built-in content, or content with that hash that this install's library holds). Raises
    ReplayError naming the field."""
    carried = header.get("content_data")
    if carried is None:
        return None
    from game.data.content import build_content
    from game.data.loader import validate
    from game.data.models import ContentFile

    if not isinstance(carried, dict):
        raise ReplayError(f"header.content_data: must be an object (a content file's arrays), got {_short(carried)}")
    count = 0
    for key, value in carried.items():
        if not isinstance(value, list):
            raise ReplayError(f"header.content_data.{_short(key, 30)}: must be a list, got {_short(value)}")
        count += len(value)
    if count > MAX_CONTENT_DEFINITIONS:
        raise ReplayError(f"header.content_data: {count} definitions is over the limit of {MAX_CONTENT_DEFINITIONS}")
    try:
        cf = validate(ContentFile, carried, "header.content_data")
        content = build_content({"header.content_data": cf})
    except DataError as exc:
        more = len(exc.problems) - 3
        raise ReplayError("; ".join(exc.problems[:3]) + (f"; and {more} more" if more > 0 else "")) from None
    except RecursionError:
        raise ReplayError("header.content_data: nested too deeply to read") from None
    if content.content_hash != header["content_hash"]:
        raise ReplayError(
            "header.content_data: the content carried in this file was changed after the game was recorded "
            f"(it hashes to {content.content_hash[:12]}, the game was played with {header['content_hash'][:12]}); "
            "it is not replayed"
        )
    return content


def _library_content(header: dict[str, Any]) -> Content | None:
    """The content this install's library (the player's packs) builds for the header's two
    armies, if its hash is the header's: for a file that names its content by hash only."""
    from game.data import library

    lib = library.active()
    armies = tuple(header["armies"])
    if not all(a in lib.content.armies for a in armies):
        return None
    try:
        got = lib.content_for(armies)
    except DataError:
        return None
    return got if got.content_hash == header["content_hash"] else None


def game_for(header: dict[str, Any]) -> Game:
    """The game a replay's or save's header describes. Raises ReplayError naming the field: a
    wrong type, an unknown profile or army, a map that is not shipped (and not carried in
    `map_data`), a carried content that is bad or was edited (`content_data`), or content that
    this install does not have."""
    bmap = check_header(header, need_seed=False)
    content = header_content(header)
    if content is None and not _is_builtin_hash(header["content_hash"]):
        content = _library_content(header)
        if content is None:
            raise ReplayError(
                f"header.content_hash: the game was played with content {header['content_hash'][:12]}, "
                "which this file does not carry and this install does not have (neither the built-in "
                "content nor one of your content packs)"
            )
    try:
        game = Game.load(
            profile=header["profile"],
            armies=tuple(header["armies"]),
            battlefield=bmap,
            rounds=header["rounds"],
            content=content,
        )
    except (ValueError, KeyError, DataError) as exc:
        raise ReplayError(f"header: {exc}") from None
    if game.content.content_hash != header["content_hash"]:
        raise ReplayError(
            f"header.content_hash: the replay was recorded with content {header['content_hash'][:12]}, "
            f"this install has {game.content.content_hash[:12]}"
        )
    return game


def _is_builtin_hash(content_hash: str) -> bool:
    from game.data.content import default_content

    return content_hash == default_content().content_hash


def verify(data: dict[str, Any]) -> VerifyReport:
    """Re-apply every action and compare checksums; report the first step that differs.

    Never raises: a bad file, header or action is a report with `ok=False` whose message names
    the step and the field (`first_bad_step` is 0 for a problem in the header)."""
    try:
        _check_shape("replay", data)
        header = data["header"]
        game = game_for(header)
        state = game.new_state(seed=header["seed"])
    except (ReplayError, ValueError) as exc:
        return VerifyReport(False, 0, str(exc), 0)
    for i, st in enumerate(data["steps"]):
        try:
            action = Action.from_dict(st["action"])
        except ValueError as exc:
            return VerifyReport(False, i, f"steps[{i}].action: {exc}", i)
        try:
            state.apply(action)
        except IllegalActionError as exc:
            return VerifyReport(False, i, f"steps[{i}]: the action is illegal here: {exc.message}", i)
        except Exception as exc:  # an engine fault on a well-typed action: report it, never a traceback
            return VerifyReport(
                False, i, f"steps[{i}]: the engine could not apply {action.type} ({type(exc).__name__}: {exc})", i
            )
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
