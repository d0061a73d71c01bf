"""The Load and Replays lists: one entry per game, in words, newest first; delete and rename.

An entry is read cheaply (the JSON, its header, its `info` and the state's checksum), never by
re-playing the game: that happens when it is opened (`App.open_save`, `App.open_replay`). A file
that cannot be used is listed all the same, with its reason, so that the player can delete it;
nothing here raises over a file.

Saves: the autosaves and the slots in `saves/` are grouped by their game's id (`info.game_id`):
the entry is the file with the most actions (a slot before an autosave of the same length), and
deleting it deletes the whole group, so that a game left and resumed many times is one entry.
"""

from __future__ import annotations

import json
import os
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from game.i18n import _
from game.ui import storage
from game.ui.position_words import where_words, where_words_from_text

MAX_READ = 64 * 1024 * 1024


def _profile_names() -> dict[str, str]:
    """The rules profiles' display names (the engine's, as the set-up screens show them)."""
    from game.rules import query

    return {name: title for name, title, _ in query.profile_choices()}


MAX_TITLE = 60


@dataclass
class Entry:
    kind: str  # "save" | "replay"
    path: Path  # the file opened
    title: str
    details: list[str] = field(default_factory=list)  # lines under the title
    when: float = 0.0  # saved at (seconds since the epoch), for newest first
    problem: str | None = None  # why it cannot be opened (listed so it can be deleted)
    paths: list[Path] = field(default_factory=list)  # every file deleted with it
    autosave: bool = False
    actions: int = 0
    game_id: str | None = None

    @property
    def label(self) -> str:
        """One line for the list: the title, then the details."""
        return "  -  ".join([self.title, *self.details])


# --- words -----------------------------------------------------------------------------------


def mode_text(info: dict[str, Any]) -> str:
    if info.get("mode") == "ai":
        from game.ui import choices

        level = str(info.get("ai_level") or "normal")
        shown = next((choices.label(c) for c in choices.LEVELS if c.id == level), level)
        return _("vs AI ({level})").format(level=shown.lower() if shown.isascii() else shown)
    return _("Hotseat")


def when_text(when: float) -> str:
    return time.strftime("%Y-%m-%d %H:%M", time.localtime(when)) if when else ""


def _army_name(army_id: Any, header: dict[str, Any] | None = None) -> str:
    """An army's name: from the content the file carries (a pack game), else the built-in
    content or the player's own (the active library); never its id."""
    if not isinstance(army_id, str):
        return _("an unknown army")
    carried = (header or {}).get("content_data")
    armies = carried.get("army") if isinstance(carried, dict) else None
    if isinstance(armies, list):
        for a in armies[:10]:
            if isinstance(a, dict) and a.get("id") == army_id and isinstance(a.get("name"), str) and a["name"]:
                return _(a["name"][:40])
    from game.data import library

    army = library.active().content.armies.get(army_id)
    return _(army.name) if army is not None else _("an unknown army")


def _map_name(header: dict[str, Any]) -> str:
    carried = header.get("map_data")
    if isinstance(carried, dict) and isinstance(carried.get("name"), str):
        return _(carried["name"][:40])
    from game.data.content import list_maps, load_map

    name = header.get("map")
    if isinstance(name, str) and name in list_maps():  # never a path from someone's file
        try:
            return _(load_map(name).name)
        except Exception:
            pass
    return _("an unknown map")


def _describe(header: dict[str, Any], info: dict[str, Any], where: str, score: str) -> tuple[str, list[str]]:
    armies = header.get("armies") if isinstance(header.get("armies"), list) else []
    a1, a2 = (_army_name(a, header) for a in (list(armies) + [None, None])[:2])
    title = (
        info.get("title")
        if isinstance(info.get("title"), str) and info.get("title")
        else _("{army1} vs {army2}").format(army1=a1, army2=a2)
    )
    profile = header.get("profile")
    unknown = _("unknown rules")
    rules = _(_profile_names()[profile]) if isinstance(profile, str) and profile in _profile_names() else unknown
    details = [
        _("{mode}, {map}, {rules}").format(mode=mode_text(info), map=_map_name(header), rules=rules),
        _(", ").join(x for x in (where, score) if x),
    ]
    return str(title)[:MAX_TITLE], [d for d in details if d]


# --- reading ---------------------------------------------------------------------------------


def _read(p: Path) -> tuple[Any, str | None]:
    from game.data.safe_io import read_regular_bytes

    class _Err(Exception):
        pass

    try:
        raw = read_regular_bytes(p, MAX_READ, p.name, _Err)
        return json.loads(raw.decode("utf-8")), None
    except _Err as exc:
        return None, _("cannot be read: {problem}").format(problem=str(exc).split(": ", 1)[-1])
    except (UnicodeDecodeError, ValueError, RecursionError):
        return None, _("damaged: not a readable save file")


def _mtime(p: Path) -> float:
    try:
        return os.stat(p).st_mtime
    except (OSError, ValueError):
        return 0.0


def _save_entry(p: Path, autosaved: bool) -> tuple[str | None, Entry]:
    """(the game's id or None, the entry) for one save file."""
    from game.rules import clean_info, is_loadable_save

    data, problem = _read(p)
    when = _mtime(p)
    name = _("Autosave") if autosaved else _("Saved game")
    if problem is None and not (isinstance(data, dict) and data.get("format") == "spellfield-save"):
        problem = _("not a Spellfield save")
    if problem is None and not is_loadable_save(p):
        problem = _("damaged: its game state does not match its checksum")
    if problem is not None:
        return None, Entry(
            "save",
            p,
            _("{name} ({file})").format(name=name, file=p.name),
            [_("Cannot be opened: {problem}").format(problem=problem)],
            when,
            problem,
            [p],
            autosaved,
        )
    info = clean_info(data.get("info"))
    header = data.get("header") if isinstance(data.get("header"), dict) else {}
    st = data["state"]
    score = st.get("score")
    score_text = (
        _("score {score1} - {score2}").format(score1=score[0], score2=score[1])
        if isinstance(score, list) and len(score) == 2
        else ""
    )
    where = where_words(st.get("stage"), st.get("round"), st.get("active"), st.get("phase"))
    title, details = _describe(header, info, where, score_text)
    saved_at = info.get("saved_at")
    when = float(saved_at) if isinstance(saved_at, (int, float)) and saved_at > 0 else when
    stamp = _("{details}, {when} (autosave)") if autosaved else _("{details}, {when}")
    details[-1:] = [stamp.format(details=details[-1], when=when_text(when))]
    history = data.get("history")
    n = len(history) if isinstance(history, list) else 0
    gid = info.get("game_id") if isinstance(info.get("game_id"), str) else None
    return gid, Entry("save", p, title, details, when, None, [p], autosaved, n, gid)


def save_entries() -> list[Entry]:
    """One entry per game (see the module docstring), newest first."""
    autos = [p for p in storage.resume_candidates() if storage._is_regular(p)]
    slots = [p for _, p in storage._json_files(storage.saves_dir())]
    groups: dict[str, list[Entry]] = {}
    alone: list[Entry] = []
    for p in autos + slots:
        gid, entry = _save_entry(p, p in autos)
        (groups.setdefault(gid, []) if gid else alone).append(entry)
    out = list(alone)
    for group in groups.values():
        best = max(group, key=lambda e: (e.actions, not e.autosave, e.when))
        best.paths = [e.path for e in group]
        best.when = max(e.when for e in group)
        out.append(best)
    return sorted(out, key=lambda e: e.when, reverse=True)


def replay_entries(extra: list[Path] | None = None) -> list[Entry]:
    """The replays (`storage.list_replays`), newest first."""
    from game.rules import clean_info

    out: list[Entry] = []
    for p in storage.list_replays(extra):
        data, problem = _read(p)
        when = _mtime(p)
        if problem is None and not (isinstance(data, dict) and isinstance(data.get("header"), dict)):
            problem = _("damaged: not a replay file")
        if problem is not None:
            title = _("Replay ({file})").format(file=p.name)
            out.append(
                Entry(
                    "replay", p, title, [_("Cannot be opened: {problem}").format(problem=problem)], when, problem, [p]
                )
            )
            continue
        info = clean_info(data.get("info"))
        steps = data.get("steps") if isinstance(data.get("steps"), list) else []
        stored = info.get("where")
        where = where_words_from_text(str(stored)) if stored else _("{n} actions").format(n=len(steps))
        score = _("score {score}").format(score=info["score"]) if isinstance(info.get("score"), str) else ""
        title, details = _describe(data["header"], info, where, score)
        saved_at = info.get("saved_at")
        when = float(saved_at) if isinstance(saved_at, (int, float)) and saved_at > 0 else when
        details[-1:] = [_("{details}, {when}").format(details=details[-1], when=when_text(when))]
        out.append(Entry("replay", p, title, details, when, None, [p], actions=len(steps)))
    return sorted(out, key=lambda e: e.when, reverse=True)


# --- changing ----------------------------------------------------------------------------------


def delete(entry: Entry) -> str | None:
    """Delete the entry's files; the problem in words, or None."""
    from game.data.safe_io import describe_os_error

    for p in entry.paths:
        try:
            os.unlink(p)
        except FileNotFoundError:
            pass
        except OSError as exc:
            return _("Could not delete {file}: {problem}").format(file=p.name, problem=describe_os_error(exc, p))
    return None


def rename(entry: Entry, title: str) -> str | None:
    """Give the entry's game a title (kept in the files' `info`); the problem in words, or None."""
    from game.data.safe_io import OutputError
    from game.rules import clean_info, write_json_atomic

    title = " ".join(title.split())[:MAX_TITLE]
    if entry.problem is not None:
        return _("A damaged file cannot be renamed: {problem}").format(problem=entry.problem)
    paths = list(entry.paths)
    replay = storage.replays_dir() / f"{entry.game_id}.json"
    if entry.kind == "save" and entry.game_id and storage._is_regular(replay):
        paths.append(replay)  # the game's replay is called the same
    for p in paths:
        data, problem = _read(p)
        if problem is not None or not isinstance(data, dict):
            continue
        info = clean_info(data.get("info"))
        info["title"] = title
        data["info"] = info  # outside the state's checksum: the save stays loadable
        try:
            write_json_atomic(p, data, what=entry.kind)
        except (OutputError, OSError, ValueError) as exc:
            return _("Could not rename: {problem}").format(problem=exc)
    entry.title = title or entry.title
    return None


def _file_stem(title: str) -> str:
    """A file name made from a game's title: letters and digits kept (any script), the rest '_'."""
    stem = "".join(c if c.isalnum() else "_" for c in title.strip())
    stem = "_".join(part for part in stem.split("_") if part)[:MAX_TITLE]
    return stem or "replay"


def export(entry: Entry) -> tuple[Path | None, str | None]:
    """Copy a replay to `storage.exports_dir()` under its game's title (never over another file),
    for the player to send (issue 23): (the new file, None), or (None, the problem in words).
    The replay carries the map and the content of a player's own game, so the file alone is
    enough: `spellfield replay FILE --verify` checks it on any install."""
    from game.data.safe_io import OutputError, write_file_atomic

    if entry.problem is not None:
        return None, _("A damaged file cannot be exported: {problem}").format(problem=entry.problem)
    try:
        data = entry.path.read_bytes()
    except OSError as exc:
        return None, _("Could not export: {problem}").format(problem=exc)
    folder = storage.exports_dir()
    stem = _file_stem(entry.title)
    out, n = folder / f"{stem}.json", 1
    while os.path.lexists(out):
        n += 1
        out = folder / f"{stem}_{n}.json"
    try:
        write_file_atomic(out, data, what="replay")
    except (OutputError, OSError, ValueError) as exc:
        return None, _("Could not export: {problem}").format(problem=exc)
    return out, None
