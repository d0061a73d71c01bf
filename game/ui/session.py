"""One battle as the front end sees it: the game, the state, the replay recorder, every event so
far, and the open decision (computed once per change, never per frame).

Only `Session.apply` changes the state, and only with actions a controller produced.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from game.rules import Action, Decision, Event, Game, Recorder, State


@dataclass
class Session:
    game: Game
    state: State
    seed: int | None = 0  # None: resumed from an old save without one (see game.rules.saves)
    history: list[Event] = field(default_factory=list)  # every event of the battle, in order
    batches: list[list[Event]] = field(default_factory=list)  # events per applied action
    version: int = 0  # changes after every applied action
    autosaving: bool = False  # write the engine's autosave after every action

    def __post_init__(self) -> None:
        self.recorder = Recorder(self.game, self.seed, self.state)
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
        game = Game.load(profile=profile, armies=armies, battlefield=battlefield)
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

    def replay_dict(self) -> dict[str, Any]:
        return self.recorder.to_dict()
