"""The one recorder of a game being played: its state, how it began, every action with the
checksum of the state after it, and (if asked) an autosave after every action.

Replays, saves and autosaves are all written from it, so the three can never disagree about a
game: `to_dict()` is the replay (Wesnoth's way: every command recorded and checked), `save()` the
save, and `resume(path)` continues a save with the checksums of its history rebuilt, so that a
continued game's replay covers the whole game.

    rec = Recorder.new(game, seed=7)
    rec.apply(action); ...
    replay = rec.to_dict(); rec.save("game.json")
    rec = Recorder.resume("game.json")
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from game.rules.actions import Action
from game.rules.events import Event
from game.rules.game import Game
from game.rules.replay import REPLAY_FORMAT, REPLAY_VERSION, file_header
from game.rules.saves import autosave, load_game, replay_from_save, save_game
from game.rules.state import State


@dataclass
class Recorder:
    game: Game
    seed: int | None  # None: continued from an old save without one (its history is unverified)
    state: State
    autosaving: bool = False
    steps: list[dict[str, Any]] = field(default_factory=list)  # {"action": ..., "checksum": ...}
    unverified: list[dict[str, Any]] = field(default_factory=list)  # a seedless save's history

    @classmethod
    def new(cls, game: Game, seed: int, autosaving: bool = False) -> "Recorder":
        return cls(game, seed, game.new_state(seed=seed), autosaving)

    @classmethod
    def resume(cls, path: str | Path, autosaving: bool = False) -> "Recorder":
        """Continue a save (checked whole by `load_game`; SaveError otherwise). The checksums of
        its history are rebuilt; a save without a seed keeps its history unverified, and
        `to_dict()` then refuses."""
        game, state, meta = load_game(path)
        return cls.continuing(game, state, meta, autosaving)

    @classmethod
    def continuing(cls, game: Game, state: State, meta: dict[str, Any], autosaving: bool = False) -> "Recorder":
        """A recorder for a game loaded by `load_game` (its `meta`)."""
        rebuilt = replay_from_save(meta, game)
        if rebuilt is None:
            return cls(game, None, state, autosaving, unverified=list(meta["history"]))
        return cls(game, meta["seed"], state, autosaving, list(rebuilt["steps"]))

    def apply(self, action: Action) -> list[Event]:
        """Apply through the engine (IllegalActionError changes nothing), record it, and autosave
        if asked (at most the action in flight is lost if the process dies)."""
        events = self.state.apply(action)
        self.steps.append({"action": action.to_dict(), "checksum": self.state.checksum()})
        if self.autosaving:
            autosave(self.state, self.seed, self.actions())
        return events

    def actions(self) -> list[dict[str, Any]]:
        """Every action of the game so far, as dicts (what a save keeps)."""
        return self.unverified + [s["action"] for s in self.steps]

    def save(self, path: str | Path, **kw: Any) -> Path:
        return save_game(path, self.state, self.seed, self.actions(), **kw)

    def to_dict(self) -> dict[str, Any]:
        """This game as a replay file's contents. Raises ValueError for a game continued from a
        save without a seed, rather than write a replay that does not match its game."""
        if self.seed is None:
            raise ValueError(
                "this game has no replay: it was continued from a save without a seed, "
                "so its history could not be checked"
            )
        return {
            "format": REPLAY_FORMAT,
            "version": REPLAY_VERSION,
            "header": file_header(self.game, self.seed),
            "steps": list(self.steps),
        }
