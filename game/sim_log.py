"""The `simulate --log` file: one finished game per JSON line, and `--resume` reading it back.

Each line holds the game's result, its event counts (what the summary and the report are made
of), the run's settings (the two bots, the profile, the base seed) and the hash of the content
the game was played with. So a run that was stopped (a closed laptop, a session that ended, a
killed cluster) can go on where it stopped: `--resume` takes the games the log already has,
plays only the others, and the summary, the report and the JSON are those of a run that never
stopped, because a game's result depends on its index, the settings and the content alone.

A line of another run (other bots, profile, seed or content) is refused, naming the line and
the field: mixing runs would report games nobody played together. A last line cut short by the
stop is dropped and its game played again; any other line that is not a game record is refused.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from game.i18n import _
from game.sim_game import GameResult, game_plan

#: Keys of a `--log` line; a file whose first line has them is ours to append to.
LOG_KEYS = frozenset({"game", "seed", "p1_side", "armies", "winner", "rounds", "reason", "score", "actions"})
#: The largest log `--resume` reads: about 800 bytes a game, for the most games a run plays.
MAX_LOG_BYTES = 256 << 20


@dataclass(frozen=True)
class RunSettings:
    """What makes two runs' game N the same game (with the content, checked per game)."""

    p1: str
    p2: str
    profile: str
    seed: int

    def as_dict(self) -> dict[str, Any]:
        return {"p1": self.p1, "p2": self.p2, "profile": self.profile, "seed": self.seed}


class _Run(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    p1: str
    p2: str
    profile: str
    seed: int


class _Line(BaseModel):
    """A game record as `line` writes it (strict: a line is ours or it is refused)."""

    model_config = ConfigDict(extra="forbid", strict=True)
    game: int = Field(ge=0)
    seed: int
    p1_side: Literal[1, 2]
    armies: tuple[str, str]
    winner: Literal[1, 2] | None
    rounds: int = Field(ge=0)
    reason: str
    score: tuple[int, int]
    actions: int = Field(ge=0)
    counts: dict[str, int]
    run: _Run
    content: str


def line(r: GameResult, run: RunSettings) -> str:
    """One finished game as a JSON line (the --log file)."""
    return json.dumps(
        {
            "game": r.index,
            "seed": r.seed,
            "p1_side": r.p1_side,
            "armies": list(r.armies),
            "winner": r.winner_bot,
            "rounds": r.rounds,
            "reason": r.reason,
            "score": list(r.score),
            "actions": r.actions,
            "counts": dict(sorted(r.counts.items())),
            "run": run.as_dict(),
            "content": r.content,
        },
        sort_keys=True,
    )


def _is_our_log(path) -> bool:
    from game.data.safe_io import jsonl_first_line

    return jsonl_first_line(lambda d: isinstance(d, dict) and LOG_KEYS <= d.keys())(path)


def open_log(path: str, force: bool = False):
    """The `--log` file opened for appending: a regular file (created if missing) whose first
    line is one of our game records (or empty), or any regular file with `force`; never a
    device, FIFO, directory or symbolic link. Raises ValueError with a clear message."""
    from game.data.safe_io import OutputError, open_append

    try:
        return open_append(path, force=force, is_ours=_is_our_log, what="game log")
    except OutputError as exc:
        raise ValueError(
            _("--log {file}: cannot open it for writing: {reason}").format(file=path or repr(path), reason=exc.reason)
        ) from None


@dataclass(frozen=True)
class Resumed:
    """What `--resume` found in the log: the games it has (by index, below `--games`), how many
    bytes of the file are whole lines, and whether its last line was cut short."""

    done: dict[int, GameResult]
    keep_bytes: int
    torn: bool  # the last line was cut short: it is cut off, its game played again
    unended: bool  # the last line is whole but has no newline: one is added
    beyond: int  # records of games at or past --games, kept in the file but not reported


def read_for_resume(path: str, run: RunSettings, games: int, content_of: Mapping[tuple[str, str], str]) -> Resumed:
    """The games of this run that the log at `path` already holds. A missing or empty file holds
    none. Raises ValueError naming the file, the line and the reason for a line of another run,
    a line that is not a game record, or two records of one game that differ. `content_of` maps
    a game's armies to the hash of the content this run plays them with."""
    import os

    from game.data.safe_io import read_regular_bytes

    if not os.path.lexists(path):
        return Resumed({}, 0, False, False, 0)
    raw = read_regular_bytes(path, MAX_LOG_BYTES, label=f"--log {path}", error=ValueError)
    lines = raw.split(b"\n")
    torn = unended = False
    keep = len(raw)
    if lines[-1] == b"":
        lines.pop()  # the file ends with a newline (or is empty): no line after it
    elif _parses(lines[-1]):
        unended = True  # whole, only its newline is missing: `resume_file` adds it
    else:
        torn = True  # the stop cut this record short: its game is played again
        keep -= len(lines.pop())
    done: dict[int, GameResult] = {}
    beyond = 0
    for number, text in enumerate(lines, start=1):
        where = _("--log {file} line {n}").format(file=path, n=number)
        r = _record(text, where, run, content_of)
        if r.index >= games:
            beyond += 1
            continue
        if r.index in done and done[r.index] != r:
            raise ValueError(
                _("{where}: game {game} is already in the log with another result; this log mixes two runs").format(
                    where=where, game=r.index
                )
            )
        done[r.index] = r
    return Resumed(done, keep, torn, unended, beyond)


def _parses(text: bytes) -> bool:
    try:
        json.loads(text.decode("utf-8"))
    except (ValueError, RecursionError):
        return False
    return True


def _record(text: bytes, where: str, run: RunSettings, content_of: Mapping[tuple[str, str], str]) -> GameResult:
    """One line as the game it records, or a ValueError saying why it is not one of this run's."""
    try:
        data = json.loads(text.decode("utf-8"))
    except (ValueError, RecursionError) as exc:
        raise ValueError(_("{where}: not a JSON line ({reason})").format(where=where, reason=_short(exc))) from None
    if isinstance(data, dict) and LOG_KEYS <= data.keys() and "run" not in data:
        raise ValueError(
            _(
                "{where}: a game written before --resume existed (it has no run settings or counts); "
                "give this run a new --log file"
            ).format(where=where)
        )
    try:
        rec = _Line.model_validate_json(text)  # JSON mode: a list is a tuple's, strictly
    except ValidationError as exc:
        err = exc.errors()[0]
        field = ".".join(str(p) for p in err["loc"]) or _("the line")
        raise ValueError(
            _("{where}: not a game record: {field}: {reason}").format(where=where, field=field, reason=err["msg"])
        ) from None
    theirs = rec.run.model_dump()
    for key, mine in run.as_dict().items():
        if theirs[key] != mine:
            raise ValueError(
                _(
                    "{where}: a game of another run ({key} is {theirs} there, {mine} here); "
                    "resume with the same settings, or give this run a new --log file"
                ).format(where=where, key=key, theirs=repr(theirs[key]), mine=repr(mine))
            )
    seed, p1_side, armies = game_plan(rec.game, run.seed)
    if (rec.seed, rec.p1_side, rec.armies) != (seed, p1_side, armies):
        raise ValueError(
            _("{where}: game {game} is not this run's game {game} (its seed, side or armies differ)").format(
                where=where, game=rec.game
            )
        )
    if content_of.get(armies) != rec.content:
        raise ValueError(
            _(
                "{where}: game {game} was played with other content (other --content packs, or changed armies); "
                "resume with the same content, or give this run a new --log file"
            ).format(where=where, game=rec.game)
        )
    return GameResult(
        rec.game,
        rec.seed,
        rec.p1_side,
        rec.armies,
        rec.winner,
        rec.rounds,
        rec.reason,
        rec.score,
        rec.actions,
        dict(rec.counts),
        rec.content,
    )


def _short(exc: BaseException) -> str:
    return str(exc).splitlines()[0][:120]


def resume_file(log, found: Resumed) -> None:
    """Make the opened `--log` file end in a whole line before new games are appended: cut off a
    last line the stop left half-written, or end a whole last line that lacks its newline."""
    import os

    log.flush()
    if found.torn:
        os.ftruncate(log.fileno(), found.keep_bytes)
    elif found.unended:
        log.write("\n")
        log.flush()
