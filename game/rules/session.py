"""A game being played: the state, how it began, every action, and autosaving.

Front ends and the simulator drive a Session rather than a bare State when they want history
(for replays and saves) and autosave after every action.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from game.rules.actions import Action
from game.rules.events import Event
from game.rules.game import Game
from game.rules.replay import REPLAY_FORMAT, REPLAY_VERSION, file_header
from game.rules.saves import autosave, load_game, replay_from_save, save_game
from game.rules.state import State


@dataclass
class Session:
    game: Game
    state: State
    seed: int | None = None
    history: list[dict] = field(default_factory=list)
    checksums: list[str] = field(default_factory=list)
    autosaving: bool = False

    @classmethod
    def new(cls, game: Game, seed: int, autosaving: bool = False) -> "Session":
        return cls(game, game.new_state(seed=seed), seed, autosaving=autosaving)

    @classmethod
    def load(cls, path: str | Path, autosaving: bool = False) -> "Session":
        """Continue a save (checked whole by `load_game`; SaveError otherwise). The checksums of
        its history are rebuilt, so `replay()` covers the whole game; a save without a seed has
        none, and `replay()` refuses."""
        game, state, meta = load_game(path)
        rebuilt = replay_from_save(meta, game)
        sums = [s["checksum"] for s in rebuilt["steps"]] if rebuilt is not None else []
        return cls(game, state, meta["seed"], list(meta["history"]), sums, autosaving=autosaving)

    def apply(self, action: Action) -> list[Event]:
        """Apply through the engine, record it, and autosave if asked (at most the action in
        flight is lost if the process dies)."""
        events = self.state.apply(action)
        self.history.append(action.to_dict())
        self.checksums.append(self.state.checksum())
        if self.autosaving:
            autosave(self.state, self.seed, self.history)
        return events

    def save(self, path: str | Path) -> None:
        save_game(path, self.state, self.seed, self.history)

    def replay(self) -> dict:
        """This game as a replay file's contents (needs a seed and the checksums of this run).
        Raises ValueError when they are missing (a game continued from a save without a seed)
        rather than write a replay that does not match its game."""
        if self.seed is None or len(self.checksums) != len(self.history):
            raise ValueError("this game has no replay: it was continued from a save without a seed, "
                             "so its history could not be checked")
        steps = [{"action": a, "checksum": c} for a, c in zip(self.history, self.checksums)]
        return {
            "format": REPLAY_FORMAT,
            "version": REPLAY_VERSION,
            "header": file_header(self.game, self.seed),
            "steps": steps,
        }
