"""Step through a replay file (game.rules.replay): forward and back, or play it."""

from __future__ import annotations

from game.rules.actions import Action
from game.rules.replay import game_for
from game.ui import theme
from game.ui.controllers import ReplayController
from game.ui.decisions import ButtonSpec, PanelView
from game.ui.intents import Intent, intent
from game.ui.scenes.battle import BattleScene
from game.ui.session import Session


class ReplayScene(BattleScene):
    def __init__(self, app, data: dict, name: str = "replay") -> None:
        self.data = data
        self.name = name
        header = data["header"]
        game = game_for(header)
        self.actions = [Action.from_dict(s["action"]) for s in data["steps"]]
        self.checksums = [s["checksum"] for s in data["steps"]]
        session = Session(game, game.new_state(seed=header["seed"]), header["seed"])
        ctl = ReplayController(self.actions)
        super().__init__(app, session, {1: ctl, 2: ctl}, mode="replay")
        self.ctl = ctl
        self.playing = False
        self.timer = 0.0
        self.mismatch: int | None = None

    def handle(self, it: Intent) -> None:
        if it.kind == "step":
            self.step(it.get("delta", 1))
        elif it.kind in ("continue", "toggle_play"):
            self.playing = not self.playing
        elif it.kind == "end_phase":
            return
        else:
            super().handle(it)

    def step(self, delta: int) -> None:
        if delta > 0:
            for _ in range(delta):
                if self.ctl.index >= len(self.actions):
                    break
                self.ctl.step()
                self._advance_once()
        elif delta < 0:
            target = max(0, self.ctl.index + delta)
            header = self.data["header"]
            game = self.session.game
            self.session = Session(game, game.new_state(seed=header["seed"]), header["seed"])
            self.ctl.index = 0
            self._derived_version = -1
            for _ in range(target):
                self.ctl.step()
                self._advance_once()
        self._panel_key = None

    def _advance_once(self) -> None:
        act = self.ctl.poll()
        if act is None:
            return
        self._apply(act)
        i = self.ctl.index - 1
        if self.mismatch is None and self.session.state.checksum() != self.checksums[i]:
            self.mismatch = i
            self.say(f"step {i}: state checksum differs from the recording", theme.TEXT_BAD)

    def update(self, dt: float) -> None:
        if self.playing:
            self.timer += dt
            if self.timer >= 0.5:
                self.timer = 0.0
                if self.ctl.index < len(self.actions):
                    self.step(1)
                else:
                    self.playing = False
        super().update(dt)

    def needs_handover(self) -> bool:
        return False

    def extra_view(self, view: PanelView) -> PanelView:
        n = len(self.actions)
        v = PanelView(title=f"Replay {self.name}: step {self.ctl.index} of {n}")
        v.lines = [f"Next decision: player {self.decision.player}: {self.decision.prompt}",
                   "Keys: . / PgDn step, , / PgUp back, Space play/pause."]
        if self.mismatch is not None:
            v.lines.append(f"Checksum mismatch at step {self.mismatch}.")
        v.buttons = [
            ButtonSpec("Step forward", intent("step", delta=1), role="nav"),
            ButtonSpec("Step back", intent("step", delta=-1), role="nav"),
            ButtonSpec("Forward 10", intent("step", delta=10), role="nav"),
            ButtonSpec("Pause" if self.playing else "Play", intent("toggle_play"), role="nav"),
            ButtonSpec("To the start", intent("step", delta=-n), role="nav"),
        ]
        return v

    def _refresh_panel(self) -> None:
        key_extra = (self.ctl.index, self.playing)
        if getattr(self, "_replay_key", None) != key_extra:
            self._replay_key = key_extra
            self._panel_key = None
        super()._refresh_panel()
