"""Where the front end keeps saves and replays, and the bridge to the engine's save module.

Saves go through `game.rules.saves` (`save_game`, `load_game`, `autosave`); the engine writes
them atomically (`game.data.safe_io`) and checks them on load. Replays are the engine's replay
JSON (`game.rules.replay`). The folder is `game.rules.saves.data_dir()`: `$SPELLFIELD_DATA_DIR`
(or `$SPELLFIELD_HOME`) or the platform's user data folder for "spellfield".

Nothing here crashes the game over an odd file or folder:

- `autosave(session)` after every action: a failure (disk full, read-only folder, any OS error)
  is kept in `session.autosave_problem` for the battle screen to show (the app puts it on the
  scene's message line) and play goes on; the autosave files on disk are left as they were.
- `list_saves`, `list_replays` and `resume_candidates` skip what they cannot use: a folder
  named `x.json`, a FIFO or device (never opened for reading: a replay is recognised from the
  first bytes of a regular file only), an unreadable file or folder, a vanished file.

One game, one save slot and one replay: `save` writes `saves/<game id>.json` and `write_replay`
`replays/<game id>.json` (the id is the session's, kept in the save's `info`), each rewritten
atomically however often the game is left and resumed. The lists the player picks from are in
`game.ui.saves_list` (display entries, delete, rename).
"""

from __future__ import annotations

import os
import stat
import time
from pathlib import Path
from typing import Any

from game.i18n import _
from game.rules import load_game, save_game

#: Largest replay the replay list looks into (the replay reader's own limit).
MAX_LISTED_REPLAY_BYTES = 32 * 1024 * 1024


def home() -> Path:
    env = os.environ.get("SPELLFIELD_HOME")
    if env:
        return Path(env)
    from game.rules import data_dir

    return data_dir()


def saves_dir() -> Path:
    return home() / "saves"


def replays_dir() -> Path:
    return home() / "replays"


def exports_dir() -> Path:
    """Where the Replays list's Export puts a replay to send (issue 23): a file named after the
    game, in a folder the player is told the path of."""
    return home() / "exports"


def slot_path(session) -> Path:
    """The game's one save slot."""
    return saves_dir() / f"{session.game_id}.json"


def info_for(session) -> dict[str, Any]:
    """The save's `info`: the session's (game id, title, mode) and when it was saved."""
    return {**session.info, "saved_at": time.time()}


def save(session, path=None) -> Path:
    """Save the game to `path` (default: its slot, `saves/<game id>.json`, rewritten atomically).
    Raises `game.data.safe_io.OutputError` naming the path."""
    p = Path(path) if path else slot_path(session)
    save_game(p, session.state, session.seed, session.actions(), info=info_for(session))
    return p


def autosave(session) -> str | None:
    """After every action: the engine keeps the latest and the previous autosave.

    Never raises for a failed write: the reason goes to `session.autosave_problem` (and is
    returned) for the battle screen to show, and the game goes on; on success the problem is
    cleared and None returned. `session.autosave_failures` counts the failures."""
    from game.rules import autosave as engine_autosave

    try:
        engine_autosave(session.state, session.seed, session.actions(), info_for(session))
    except OSError as exc:  # OutputError is an OSError too
        text = str(exc)
        problem = _("autosave failed: {error}; play goes on, the earlier autosaves are kept").format(error=text)
        session.autosave_problem = problem
        session.autosave_failures = getattr(session, "autosave_failures", 0) + 1
        return problem
    session.autosave_problem = None
    return None


def _is_regular(p: Path) -> bool:
    try:
        return stat.S_ISREG(os.stat(p).st_mode)
    except (OSError, ValueError):
        return False


def resume_candidates() -> list[Path]:
    """The latest autosave, then the previous one (used if the latest is damaged).

    Anything at those names is offered (a directory or an unreadable file too), so that
    `play --resume` can say why the latest cannot be loaded before falling back."""
    from game.rules import autosave_path, previous_autosave_path

    return [p for p in (autosave_path(), previous_autosave_path()) if os.path.lexists(p)]


def resume_problem() -> str | None:
    """Why there is nothing to resume when it is not simply "no autosave yet": the autosave
    folder cannot be read, or is not a folder (None otherwise)."""
    from game.data.safe_io import describe_os_error
    from game.rules import autosave_path

    latest = autosave_path()
    try:
        os.lstat(latest)
    except FileNotFoundError:
        return None
    except NotADirectoryError:
        return _("no saved game to resume: the autosave folder {folder} is not a folder").format(folder=latest.parent)
    except (OSError, ValueError) as exc:
        reason = describe_os_error(exc) if isinstance(exc, OSError) else _("invalid name")
        return _("no saved game to resume: cannot read the autosave folder {folder}: {reason}").format(
            folder=latest.parent, reason=reason
        )
    return None


def _json_files(folder: Path) -> list[tuple[float, Path]]:
    """(mtime, path) of the regular `*.json` files directly in `folder`; never raises."""
    out: list[tuple[float, Path]] = []
    try:
        with os.scandir(folder) as it:
            entries = list(it)
    except (OSError, ValueError):
        return out
    for e in entries:
        if not e.name.endswith(".json"):
            continue
        try:
            st = os.stat(e.path)  # follows a symlink to a save; a dangling one fails here
        except (OSError, ValueError):
            continue
        if stat.S_ISREG(st.st_mode):
            out.append((st.st_mtime, Path(e.path)))
    return out


def list_saves() -> list[Path]:
    """The autosaves (latest first), then the saves in `saves_dir()`, newest first. Only
    regular files; an unreadable folder lists nothing."""
    found = [p for p in resume_candidates() if _is_regular(p)]
    found += [p for _, p in sorted(_json_files(saves_dir()), key=lambda t: t[0], reverse=True)]
    return found


def load(path) -> tuple[Any, Any, dict]:
    """(game, state, meta) from a save file. Raises SaveError naming the file and the reason."""
    return load_game(path)


def replay_path(session) -> Path:
    """The game's one replay."""
    return replays_dir() / f"{session.game_id}.json"


def write_replay(session) -> Path:
    """Write the session's whole replay to `replays/<game id>.json` (atomically, over the one an
    earlier leave of this game wrote). Raises `OutputError`, or ValueError for a game continued
    from a save without a seed (it has no replay)."""
    from game.rules import write_json_atomic
    from game.ui.position_words import position_info

    data = session.replay_dict()
    data["info"] = {**info_for(session), **position_info(session.state)}  # what the list shows
    return write_json_atomic(replay_path(session), data, what="replay")


def _looks_like_replay(p: Path) -> bool:
    from game.data.safe_io import read_head

    try:
        if os.stat(p).st_size >= MAX_LISTED_REPLAY_BYTES:
            return False
    except (OSError, ValueError):
        return False
    head = read_head(p, 200)  # regular files only, opened without blocking, 200 bytes at most
    return head is not None and b"spellfield-replay" in head


def list_replays(extra: list[Path] | None = None) -> list[Path]:
    """Replay files in `replays_dir()`, the current folder and `extra` folders."""
    try:
        cwd = Path.cwd()
    except OSError:  # the current folder was removed
        cwd = None
    found: list[Path] = []
    for d in [replays_dir(), *([cwd] if cwd else []), *(extra or [])]:
        for _k, p in sorted(_json_files(Path(d)), key=lambda t: t[1]):
            if _looks_like_replay(p) and p not in found:
                found.append(p)
    return found
