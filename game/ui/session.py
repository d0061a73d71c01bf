"""One battle as the front end sees it: the game, the state, the replay recorder, every event so
far, and the open decision (computed once per change, never per frame).

Only `Session.apply` changes the state, and only with actions a controller produced.

Each game has an id (`info["game_id"]`, made once when the game is created or first loaded
without one) that names its one save slot and its one replay (`game.ui.storage`), however often
it is left and resumed. The id is a uuid, not game randomness: it never touches the dice.
"""

from __future__ import annotations

import re
import time
import uuid
from dataclasses import dataclass, field
from typing import Any

from game.data.content import DEFAULT_ARMIES
from game.rules import Action, Decision, Event, Game, Recorder, State

_ID = re.compile(r"[A-Za-z0-9_-]{1,64}")


def new_game_id() -> str:
    return uuid.uuid4().hex[:12]


def safe_game_id(value: object) -> str | None:
    """`value` if it can name a file (letters, digits, '-' and '_'), else None: a save comes
    from anyone, and its id becomes a file name."""
    return value if isinstance(value, str) and _ID.fullmatch(value) else None


@dataclass
class Session:
    game: Game
    state: State
    seed: int | None = 0  # None: resumed from an old save without one (see game.rules.saves)
    history: list[Event] = field(default_factory=list)  # every event of the battle, in order
    batches: list[list[Event]] = field(default_factory=list)  # events per applied action
    version: int = 0  # changes after every applied action
    autosaving: bool = False  # write the engine's autosave after every action
    # what the save and replay lists show: game_id, title, mode ("hotseat" | "ai"), ai_level, human
    info: dict[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.recorder = Recorder(self.game, self.seed, self.state)
        if safe_game_id(self.info.get("game_id")) is None:
            self.info["game_id"] = new_game_id()
        self.info.setdefault("mode", "hotseat")
        self.info.setdefault("created", time.time())
        self._decision: Decision | None = None
        self._decision_version = -1

    @classmethod
    def new(
        cls,
        profile: str = "aos4",
        armies: tuple[str, str] | None = None,
        battlefield: str | None = None,
        seed: int = 1,
        dice=None,
    ) -> "Session":
        from game.data import library

        lib = library.active()  # the built-in content and the player's own (packs, lists, maps)
        ids = armies or DEFAULT_ARMIES
        bmap = lib.maps.get(battlefield) if battlefield else None
        game = Game.load(profile=profile, armies=ids, battlefield=bmap or battlefield, content=lib.content_for(ids))
        return cls(game, game.new_state(seed=seed, dice=dice), seed)

    @property
    def decision(self) -> Decision:
        if self._decision_version != self.version:
            self._decision = self.state.pending()
            self._decision_version = self.version
        return self._decision  # type: ignore[return-value]

    def explain(self, action: Action) -> list[str]:
        return self.state.explain(action)

    def apply(self, action: Action) -> list[Event]:
        """Apply through the recorder (raises IllegalActionError and changes nothing if illegal)."""
        events = self.recorder.apply(action)
        self.history.extend(events)
        self.batches.append(list(events))
        self.version += 1
        if self.autosaving:
            from game.ui.storage import autosave

            autosave(self)
        return events

    def actions(self) -> list[dict]:
        """Every action of the game so far, as dicts (for saves)."""
        return self.recorder.actions()

    @property
    def game_id(self) -> str:
        return str(self.info["game_id"])

    def replay_dict(self) -> dict[str, Any]:
        """The replay file's contents, with this game's `info` (the replay reader ignores it)."""
        return {**self.recorder.to_dict(), "info": dict(self.info)}

    def restore_events(self) -> None:
        """After loading a save: rebuild `history` and `batches` by re-playing its actions from the
        seed (the engine is deterministic, so these are the events the game had), so that the log
        and the dice tray show what happened before the game was left. A save without a seed
        keeps an empty log: its history cannot be re-played."""
        if self.seed is None:
            return
        state = self.game.new_state(seed=self.seed)
        history: list[Event] = []
        batches: list[list[Event]] = []
        try:
            for step in self.recorder.steps:
                events = state.apply(Action.from_dict(step["action"]))
                history.extend(events)
                batches.append(list(events))
        except Exception:  # load_game re-played this history already; an empty log, never a crash
            return
        self.history, self.batches = history, batches
        self.version += 1
