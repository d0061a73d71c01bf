"""Step through a replay file (game.rules.replay): forward and back, or play it.

A replay comes from another player. Its actions are decoded by type when the scene opens; the
replay plays up to the first step that is ill-typed, illegal where it stands, or that the engine
cannot apply, and stops there with the reason on screen (`stopped`), never a traceback. A
checksum that differs from the recording is noted (`mismatch`) and play goes on.
"""

from __future__ import annotations

from game.content_words import content_name as cn
from game.i18n import _
from game.rules import Action, game_for
from game.ui import theme
from game.ui.controllers import ReplayController
from game.ui.decisions import ButtonSpec, PanelView
from game.ui.engine_words import engine_text, prompt_text
from game.ui.intents import Intent, intent
from game.ui.scenes.battle import BattleScene
from game.ui.session import Session


class ReplayScene(BattleScene):
    def __init__(self, app, data: dict, name: str = "replay") -> None:
        self.data = data
        self.name = name
        header = data["header"]
        game = game_for(header)
        self.actions: list[Action] = []
        self.broken: tuple[int, str] | None = None  # the first step whose action cannot be decoded
        for i, st in enumerate(data["steps"]):
            try:
                self.actions.append(Action.from_dict(st["action"]))
            except ValueError as exc:
                self.broken = (i, _("step {i}: the recorded action cannot be read: {error}").format(i=i, error=exc))
                break
        self.checksums = [s["checksum"] for s in data["steps"]]
        self.total = len(data["steps"])
        session = Session(game, game.new_state(seed=header["seed"]), header["seed"])
        ctl = ReplayController(self.actions)
        super().__init__(app, session, {1: ctl, 2: ctl}, mode="replay")
        self.ctl = ctl
        self.playing = False
        self.timer = 0.0
        self.mismatch: int | None = None
        self.stopped: tuple[int, str] | None = None  # (step, why): play cannot go past this step

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
            for _n in range(delta):
                if not self._can_advance():
                    break
                self.ctl.step()
                self._advance_once()
        elif delta < 0:
            target = max(0, self.ctl.index + delta)
            header = self.data["header"]
            game = self.session.game
            self.session = Session(game, game.new_state(seed=header["seed"]), header["seed"])
            self.ctl.index = 0
            self.stopped = None
            self._derived_version = -1
            for _n in range(target):
                if not self._can_advance():
                    break
                self.ctl.step()
                self._advance_once()
        self._panel_key = None

    def _can_advance(self) -> bool:
        """True if the next step can be played; otherwise say why and stop playing."""
        if self.stopped is None and self.ctl.index >= len(self.actions) and self.broken is not None:
            self.stopped = self.broken
        if self.stopped is not None:
            self.playing = False
            self.say(self.stopped[1], theme.TEXT_BAD)
            return False
        return self.ctl.index < len(self.actions)

    def _advance_once(self) -> None:
        act = self.ctl.poll()
        if act is None:
            return
        i = self.ctl.index - 1
        reasons = self.session.explain(act)
        if reasons:
            self._stop(
                i,
                _("step {i}: the recorded {action} is illegal here: {why}").format(
                    i=i, action=act.type, why=engine_text(reasons[0])
                ),
            )
            return
        version = self.session.version
        try:
            self._apply(act)
        except Exception as exc:  # an engine fault on a recorded action: a message, never a traceback
            self._stop(
                i,
                _("step {i}: the engine could not apply the recorded {action} ({error})").format(
                    i=i, action=act.type, error=f"{type(exc).__name__}: {exc}"
                ),
            )
            return
        if self.session.version == version:  # refused after all (BattleScene._apply said why)
            self._stop(
                i,
                _("step {i}: the recorded {action} is illegal here: {why}").format(
                    i=i, action=act.type, why=self.message
                ),
            )
            return
        if self.mismatch is None and self.session.state.checksum() != self.checksums[i]:
            self.mismatch = i
            self.say(_("step {i}: state checksum differs from the recording").format(i=i), theme.TEXT_BAD)

    def _stop(self, i: int, why: str) -> None:
        self.ctl.index = i  # the bad step was not played
        self.stopped = (i, why)
        self.playing = False
        self.say(why, theme.TEXT_BAD)

    def update(self, dt: float) -> None:
        if self.playing:
            self.timer += dt
            if self.timer >= 0.5:
                self.timer = 0.0
                if self.ctl.index < self.total and self.stopped is None:
                    self.step(1)
                else:
                    self.playing = False
        super().update(dt)

    def needs_handover(self) -> bool:
        return False

    def extra_view(self, view: PanelView) -> PanelView:
        n = self.total
        v = PanelView(title=_("Replay {name}: step {i} of {n}").format(name=self.name, i=self.ctl.index, n=n))
        game = self.session.game
        a1, a2 = cn(game.army(1).name), cn(game.army(2).name)
        # the names from the content and map the file carries: a pack or a list not installed here too
        both = _("{army1} vs {army2}, on {map}").format(army1=a1, army2=a2, map=cn(game.battlefield.map.name))
        v.lines = [
            *([] if self.name.startswith(f"{a1} vs {a2}") else [both]),  # the Replays list's title names them
            _("Next decision: player {n}: {prompt}").format(
                n=self.decision.player, prompt=prompt_text(self.decision.prompt, self.state)
            ),
            _("Keys: . / PgDn step, , / PgUp back, Space play/pause."),
        ]
        if self.mismatch is not None:
            v.lines.append(_("Checksum mismatch at step {i}.").format(i=self.mismatch))
        if self.stopped is not None:
            v.lines.append(_("Stopped at step {i}: {why}").format(i=self.stopped[0], why=self.stopped[1]))
        v.buttons = [
            ButtonSpec(_("Step forward"), intent("step", delta=1), role="nav"),
            ButtonSpec(_("Step back"), intent("step", delta=-1), role="nav"),
            ButtonSpec(_("Forward 10"), intent("step", delta=10), role="nav"),
            ButtonSpec(_("Pause") if self.playing else _("Play"), intent("toggle_play"), role="nav"),
            ButtonSpec(_("To the start"), intent("step", delta=-n), role="nav"),
        ]
        return v

    def _refresh_panel(self) -> None:
        key_extra = (self.ctl.index, self.playing, self.stopped)
        if getattr(self, "_replay_key", None) != key_extra:
            self._replay_key = key_extra
            self._panel_key = None
        super()._refresh_panel()
