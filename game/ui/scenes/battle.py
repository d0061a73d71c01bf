"""The battle scene: the measured battlefield, the decision panel, the dice tray and the log.

Hotseat: two HumanControllers; a hand-over screen hides the battlefield whenever the player who
must decide changes (turns, unbind reactions, the priority roll-off). Demo: two BotControllers,
thinking off the render loop. Replay: see `scenes.replay`.

The scene keeps only view state (camera, hover, selection, ruler). The game state changes only
through `Session.apply` with an action a controller produced.
"""

from __future__ import annotations

import math
from typing import Any

import pygame
from pygame_gui.elements import UILabel, UIScrollingContainer, UITextBox

from game import i18n
from game.content_words import content_name as cn
from game.geometry.measure import distance
from game.geometry.shapes import Circle
from game.i18n import N_, _, language, ngettext
from game.rules import IllegalActionError, query
from game.rules.query import blockers, footprint_at, manifestation_shape, model_circle, sight, unit_sees
from game.ui import cards, keys_help, theme, widgets
from game.ui import controls as field_controls
from game.ui import phase_words as words
from game.ui.camera import Camera
from game.ui.confirm import Confirm
from game.ui.controllers import HumanController
from game.ui.controls import declare
from game.ui.controls.undo import UndoBook
from game.ui.decisions import PanelContext, PanelView, build_view
from game.ui.engine_words import engine_text, prompt_text
from game.ui.intents import Intent, intent
from game.ui.labels import bot_note, event_line, name_of, note_words, plain, reason_words, tray_entries
from game.ui.recap import recap
from game.ui.render import card_view, hud, toast
from game.ui.render.field import FieldRenderer, Overlays, Ring
from game.ui.render.log_view import LogView
from game.ui.render.overlays import Cross, Region
from game.ui.render.sight_marks import sight_mark
from game.ui.rule_texts import rule_text
from game.ui.scenes.base import Scene

TOP, STATUS = theme.HEADER_H, theme.STATUS_H
MESSAGE_FRESH = 2.5  # seconds a message said (a refusal, the last event) shows over the status hint

HANDOVER_TITLES = {
    "unbind": N_("Player {p}: unbind?"),
    "phase": N_("Player {p}'s turn"),
    "turn_order": N_("Player {p}: choose the turn order"),
    "deploy": N_("Player {p}: deployment"),
    "ritual_choice": N_("Player {p}: bank or spend?"),
    "summon_setup": N_("Player {p}: set up the manifestation"),
    "dispel": N_("Player {p}: dispel?"),
    "fight": N_("Player {p}: fight"),
    "charge_move": N_("Player {p}: charge move"),
    "predatory_move": N_("Player {p}: predatory move"),
    "predatory_control": N_("Player {p}: choose what to control"),
}
HANDOVER_OTHER = N_("Player {p}: your decision")


class BattleScene(Scene):
    def __init__(self, app, session, controllers: dict[int, Any], mode: str = "hotseat") -> None:
        super().__init__(app)
        self.session = session
        self.controllers = controllers
        self.mode = mode
        bmap = session.game.battlefield.map
        self.world = (bmap.width, bmap.height)
        self.manager = widgets.new_manager(app.size)
        self.camera = Camera(pygame.Rect(0, 0, 100, 100), self.world)
        self.renderer = FieldRenderer(self.camera)
        self.selection: dict[str, Any] = {}
        self.selected: tuple[str, int] | None = None  # observer for sight lines
        self.hover: str | None = None
        self.hover_model: int = 0
        self.pointer: tuple[int, int] | None = None  # screen px
        self.pointer_world: tuple[float, float] | None = None
        self.ruler_mode = False
        self.ruler: list[Any] | None = None  # [shape_a, shape_b]
        self.dragging = False
        self.seen_player: int | None = None
        self.begun_version = -1
        self.message = ""
        self.message_colour = theme.TEXT
        self.clock = 0.0  # seconds of scene time (update's dt)
        self.message_at = -1e9  # when the message was said: a fresh one shows over the hint
        self.rule_popup: tuple[str, str] | None = None
        self.rule_box_rect: pygame.Rect | None = None
        self.handover_button: pygame.Rect | None = None
        self.log_view = LogView()  # wrapped lines, scrolling, "new events" (render/log_view)
        self.log_selected: int | None = None
        self.log_boxes: list = []
        self.log_chip: pygame.Rect | None = None  # the "new events" chip, when shown
        self.recap_from = len(session.history)  # hotseat: history when the device last changed hands
        self.recap_box: tuple[str, list[str]] | None = None  # vs AI: what its turn did, until a click
        self.recap_rect: pygame.Rect | None = None
        self._recapped_turn = -1  # history index of the AI turn last recapped
        self._recap_version = -1
        self.view: PanelView | None = None
        self._panel_key: Any = None
        self._panel_container = None
        self._panel_footer = None  # Back, the declared roll's confirm, the confirm setting
        self._button_specs: list = []
        self._explain_cache: dict = {}
        self._log_lines: list[tuple[str, str]] = []
        self.bot_notes: list[tuple[int, str]] = []  # (history length when applied, the AI's explanation)
        self._tray: list = []
        self._derived_version = -1
        self.overlays = Overlays()
        self.sight_segment: tuple | None = None  # the G2 line shown, kept clear of the hover card
        self.card: cards.Card | None = None  # the hovered thing's warscroll card (issue 19)
        # a card pinned by a click on a unit or manifestation: shown where it was clicked until
        # Esc or a click on open ground (a hovered thing's card shows over it meanwhile)
        self.pinned: str | None = None
        self.pinned_at: tuple[int, int] | None = None
        self._card_key: Any = None
        self._card: cards.Card | None = None
        self.card_rect: pygame.Rect | None = None  # where the card was last drawn
        self.tool = None  # the battlefield tool of the open decision (game.ui.controls)
        self._tool_key: Any = None
        self.undo = UndoBook(session)
        self.confirm: Confirm | None = None  # an open yes/no question: it takes every key first
        self.keys_open = False  # the H key table is shown
        self.keys_rect: pygame.Rect | None = None
        self.header_rects: dict[str, pygame.Rect] = {}  # where the header's texts were drawn
        self.declared: Any = None  # a chosen roll waiting for its confirm (controls.declare)
        self._declared_version = -1
        self._slots: list = []  # the numbered buttons, in order: keys 1-9 press them
        from game.ui.hint import HintAsker

        self.hint_asker = HintAsker()  # the T key: a bot's choice, asked on a clone (game.ui.hint)
        self.bot_hint = None  # the Hint shown, until Esc or any action
        self.layout(app.size)

    # --- layout --------------------------------------------------------------------------

    def layout(self, size: tuple[int, int]) -> None:
        w, h = size
        side = theme.side_width(w)
        self.top_rect = pygame.Rect(0, 0, w, TOP)
        self.field_rect = pygame.Rect(0, TOP, w - side, h - TOP - STATUS)
        self.status_rect = pygame.Rect(0, h - STATUS, w - side, STATUS)
        sx = w - side
        rest = h - TOP
        panel_h = max(220, int(rest * 0.5))
        tray_h = 150
        self.panel_rect = pygame.Rect(sx, TOP, side, panel_h)
        self.tray_rect = pygame.Rect(sx, TOP + panel_h, side, tray_h)
        self.log_rect = pygame.Rect(sx, TOP + panel_h + tray_h, side, max(60, h - TOP - panel_h - tray_h))
        self.camera.set_viewport(pygame.Rect(0, 0, self.field_rect.w, self.field_rect.h))
        self._panel_key = None

    def on_resize(self, size: tuple[int, int]) -> None:
        super().on_resize(size)
        self.layout(size)

    # --- helpers ---------------------------------------------------------------------------

    @property
    def state(self):
        return self.session.state

    @property
    def decision(self):
        return self.session.decision

    def hotseat(self) -> bool:
        return all(isinstance(c, HumanController) for c in self.controllers.values())

    def needs_handover(self) -> bool:
        d = self.decision
        return self.mode == "hotseat" and self.hotseat() and d.player in (1, 2) and d.player != self.seen_player

    def handover_title(self) -> str:
        d = self.decision
        return _(HANDOVER_TITLES.get(d.kind, HANDOVER_OTHER)).format(p=d.player)

    def handover_recap(self) -> list[str]:
        """What the other side did since this player last had the device (game.ui.recap)."""
        return recap(self.state, self.session.history[self.recap_from :])

    def _ai_recap(self) -> None:
        """vs AI: once the AI's turn has ended and the player is to act, a box says what it did
        (from its TurnStarted to the player's), until the player clicks or acts."""
        if self._recap_version == self.session.version:
            return
        self._recap_version = self.session.version
        bots = [p for p, c in self.controllers.items() if not isinstance(c, HumanController)]
        if len(bots) != 1 or self.mode != "hotseat" or self.human_to_act() is None:
            return
        hist = self.session.history
        starts = [i for i, e in enumerate(hist) if e.type == "TurnStarted"]
        ai = [i for i in starts if hist[i].player == bots[0] and i > self._recapped_turn]
        if not ai:
            return
        begin = ai[-1]
        after = [i for i in starts if i > begin]
        if not after and not self.state.is_over():
            return  # the AI's turn goes on (the player answers an unbind in it)
        self._recapped_turn = begin
        lines = recap(self.state, hist[begin : after[0] if after else len(hist)])
        if lines:
            self.recap_box = (_("Player {p} (AI) in its turn:").format(p=bots[0]), lines)

    def human_to_act(self) -> HumanController | None:
        d = self.decision
        c = self.controllers.get(d.player)
        if isinstance(c, HumanController) and not self.needs_handover():
            return c
        return None

    def say(self, text: str, colour=theme.TEXT) -> None:
        self.message, self.message_colour = plain(self.state, engine_text(text, self.state)), colour
        self.message_at = self.clock

    def local(self, pos) -> tuple[int, int]:
        return pos[0] - self.field_rect.x, pos[1] - self.field_rect.y

    def world_at(self, pos) -> tuple[float, float]:
        return self.camera.to_world(*self.local(pos))

    def thing_at(self, wx: float, wy: float) -> tuple[str | None, int]:
        """The unit model or manifestation under a world point: a base the point is on, then a
        footprint it is on (a manifestation that moves like a unit is picked like one, M10),
        then whatever is within a few pixels, nearest first (bases before footprints)."""
        st = self.state
        best = (None, 0, 1e9)
        slack = 3 / max(self.camera.scale, 1e-6)  # a few pixels of grace
        for uid, u in st.units.items():
            r = query.radius_of(st, uid)
            for i, m in u.live_models():
                d = math.hypot(m.x - wx, m.y - wy) - r
                if d <= slack and d < best[2]:
                    best = (uid, i, d)
        if best[0] is not None and best[2] <= 0:
            return best[0], best[1]
        import shapely

        near = None
        for mid in st.manifestations:
            shape = manifestation_shape(st, mid)
            if isinstance(shape, Circle):
                d = math.hypot(shape.x - wx, shape.y - wy) - shape.r
            else:
                d = shape.distance(shapely.Point(wx, wy))
            if d <= 0:
                return mid, 0
            if d <= slack and (near is None or d < near[1]):
                near = (mid, d)
        if best[0] is not None:
            return best[0], best[1]
        if near is not None:
            return near[0], 0
        return None, 0

    def shape_at(self, wx: float, wy: float):
        thing, model = self.thing_at(wx, wy)
        if thing in self.state.units:
            return model_circle(self.state, thing, model)
        if thing in self.state.manifestations:
            return manifestation_shape(self.state, thing)
        return Circle(wx, wy, 0.0)

    # --- intents -----------------------------------------------------------------------------

    def handle(self, it: Intent) -> None:
        k = it.kind
        if self.recap_box is not None and k in ("choose", "end_phase", "hotkey", "select", "continue", "back"):
            self.recap_box = None  # the player acts: the AI turn's recap has been read
            if k == "back":
                return
        if k == "quit":  # the window's close button: a battle being played asks first
            if self.confirm is not None or self.mode != "hotseat" or self.state.is_over():
                self.app.quit()  # asked already (a second close), or nothing to lose
            else:
                self.confirm = Confirm(
                    _("Quit Spellfield?"),
                    self._quit_game,
                    detail=_("The battle is autosaved: Resume in the main menu continues it."),
                    yes=_("Quit (Enter)"),
                    no=_("Stay (Esc)"),
                )
            return
        if self.confirm is not None:  # modal: the question takes every key and click
            if k in ("pointer", "pan", "zoom", "scroll", "drag", "release"):
                return
            answer = self.confirm.handle(it)
            if answer is not None:
                asked, self.confirm = self.confirm, None
                if answer:
                    asked.on_yes()
                else:
                    self.say("")
            return
        if k == "hint":
            self._ask_hint()
            return
        if self.bot_hint is not None and k in ("back", "choose", "end_phase", "hotkey", "continue"):
            self._clear_hint()  # Esc or any action clears the hint
            if k == "back":
                return
        if self.keys_open and k in ("help", "back", "continue", "press"):
            self.keys_open = False  # H, Esc, Enter or a click closes the key table
            return
        if self._panel_intent(it):  # a declared roll's confirm or cancel, the panel's toggles
            return
        if k in ("tool", "undo", "continue", "back") and self._tool_command(it):
            return
        if k == "back":
            if self.rule_popup:
                self.rule_popup = None
            elif self.ruler_mode or self.ruler:
                self.ruler_mode, self.ruler = False, None
            elif self.pinned:  # a pinned card closes first, like any pop-up
                self.pinned = None
            elif self.selection:
                self._step_back()
            elif self.selected:
                self.selected = None
            else:
                self.ask_leave()
        elif k == "screenshot":
            from game.data.safe_io import OutputError
            from game.ui.render.toast import Toast

            try:
                path = self.app.screenshot()
                self.say(_("screenshot saved: {path}").format(path=path), theme.TEXT_GOOD)
                # the path stays up long enough to be read (the status line's hint comes back soon)
                self.toast = Toast(
                    _("Screenshot saved: {path}").format(path=_home_short(path)), self.clock, seconds=8.0, size=14
                )
            except OutputError as exc:  # e.g. a read-only folder: say so, play goes on
                self.say(_("no screenshot: {error}").format(error=exc), theme.TEXT_BAD)
        elif k == "fit":
            self.camera.fit()
        elif k == "ruler":
            self.ruler_mode = not self.ruler_mode
            self.ruler = None
            self.say(
                _("Ruler: press on a base or point, drag to another (base to base, G1)") if self.ruler_mode else ""
            )
        elif k == "end_phase":
            self.end_phase()
        elif k == "continue":
            if self.needs_handover():
                self.seen_player = self.decision.player
                self.recap_from = len(self.session.history)  # the next recap starts here
                self._panel_key = None
        elif k == "save":
            self.save()
        elif k == "zoom":
            pos = it.get("pos")
            anchor = self.local(pos) if pos else self.camera.viewport.center
            self.camera.zoom_at(it.get("factor", 1.0), anchor)
        elif k == "scroll":
            pos = it.get("pos")
            if pos and self.log_rect.collidepoint(pos):
                self.log_view.scroll(it.get("dy", 0))
            elif pos and self.field_rect.collidepoint(pos):
                self.camera.zoom_at(1.15 ** it.get("dy", 0), self.local(pos))
        elif k == "pan":
            self.camera.pan(it.get("dx", 0), it.get("dy", 0))
        elif k == "pointer":
            self._pointer(it.get("pos"))
        elif k == "press":
            self._press(it.get("pos"), it.get("button", 1))
        elif k == "drag":
            self._pointer(it.get("pos"))
            if self.ruler is not None and self.ruler_mode:
                self.ruler[1] = self.shape_at(*self.world_at(it.get("pos")))
            elif self.tool is not None and self.pointer_world is not None and self.tool.drag(*self.pointer_world):
                pass
            elif self.dragging:
                rel = it.get("rel", (0, 0))
                self.camera.pan(rel[0], rel[1])
        elif k == "release":
            self.dragging = False
            pos = it.get("pos")
            if self.tool is not None and pos is not None:
                self.tool.release(*self.world_at(pos))
        elif k == "choose":
            self._choose(it.get("action"))
        elif k == "select":
            self._select(it.data)
        elif k == "hotkey":
            self._hotkey(it.get("index", 0))
        elif k == "help":
            self.rule_popup = None
            self.keys_open = True

    def hint_level(self) -> str:
        """The bot a hint asks: the AI opponent's level in a vs-AI game, else `normal`."""
        from game.ai.registry import BOTS

        level = self.session.info.get("ai_level")
        return level if self.session.info.get("mode") == "ai" and level in BOTS else "normal"

    def _ask_hint(self) -> None:
        """The T key: ask the bot, off the render loop, for its choice in the human's decision."""
        if self.state.is_over() or self.human_to_act() is None:
            self.say(_("A hint is for your own decision"), theme.TEXT_BAD)
            return
        self.bot_hint = None
        self.hint_asker.ask(self.session, self.decision.player, self.hint_level())
        self._panel_key = None

    def _clear_hint(self) -> None:
        self.hint_asker.cancel()
        self.bot_hint = None
        self._panel_key = None

    def end_phase(self) -> None:
        """The E key: end the phase, through the engine's own EndPhase option. Refused, with the
        reason, while a decision that is not the phase's is open (an unbind, a fight, a charge
        move: the decision offers no EndPhase) or the engine says no; asks first when the player
        could act and none of their units has acted in this phase (query.acted_this_phase)."""
        if self.state.is_over() or self.needs_handover():
            return
        d = self.decision
        c = self.human_to_act()
        if c is None:
            self.say(
                _("{player} is deciding: E waits for your turn").format(player=words.player(d.player)), theme.TEXT_BAD
            )
            return
        options = list(d.options)
        end = next((o for o in options if o.type == "EndPhase"), None)
        if end is None:
            self.say(
                _("E ends a phase, not this decision: {prompt}").format(prompt=prompt_text(d.prompt, self.state)),
                theme.TEXT_BAD,
            )
            return
        reasons = self.session.explain(end)
        if reasons:
            self.say(reasons[0], theme.TEXT_BAD)
            return
        could_act = any(o.type != "EndPhase" for o in options)
        if d.kind == "phase" and could_act and not query.acted_this_phase(self.state, d.player):
            self.confirm = Confirm(
                _("End the {phase}?").format(phase=words.phase_noun(self.state.phase)),
                lambda: c.submit(end),
                detail=_("None of your units has acted in it yet."),
                yes=_("End it (E / Enter)"),
                also_yes=("end_phase",),
            )
            return
        c.submit(end)

    def _tool_command(self, it: Intent) -> bool:
        """Enter commits, U undoes, Esc cancels what the battlefield tool holds (controls/)."""
        if self.needs_handover() or self.rule_popup or self.ruler_mode:
            return False
        name = {"continue": "commit", "back": "cancel"}.get(it.kind, it.get("name", it.kind))
        if self.tool is not None and self.human_to_act() is not None and self.tool.command(name, it):
            return True
        if name == "undo":
            top = self.undo.undo()
            if top is None:
                self.say(_("nothing to undo (a die was rolled, or it is not your action)"), theme.TEXT_BAD)
            else:
                self.selection = {}
                self._explain_cache.clear()
                self._panel_key = None
                self.say(_("undone: {action}").format(action=top.label), theme.TEXT_GOOD)
            return True
        return False

    def _step_back(self) -> None:
        """Back (Esc, or the panel's Back): where the panel's own Back goes, else one staged
        choice less."""
        back = self.view.back if self.view is not None else None
        if back is not None:
            self.handle(back.intent)
            return
        for key in ("ability", "model", "unit"):
            if key in self.selection:
                del self.selection[key]
                break
        self._panel_key = None

    def _panel_intent(self, it: Intent) -> bool:
        """Declare, then roll: Enter confirms the declared roll, Esc cancels it (a select
        elsewhere drops it); the footer's toggle turns the confirm on or off (settings)."""
        k = it.kind
        if k == "toggle" and it.get("name") == "confirm_rolls":
            from game.ui import settings

            on = not declare.enabled()
            problem = settings.put("confirm_rolls", on)
            self.declared = None
            self._panel_key = None
            self.say(problem or (_("Rolls wait for a confirm") if on else _("Rolls apply at once: no confirm")))
            return True
        if k == "why":  # a greyed slot's key or click: why it is not offered
            self.say(it.get("text", ""), theme.TEXT_BAD)
            return True
        if self.declared is None:
            return False
        if self._declared_version != self.session.version or self.needs_handover():
            self._drop_declared()
            return False
        if k == "continue":
            self._choose(self.declared)
            return True
        if k == "back":
            self._drop_declared()
            self.say(_("declaration cancelled: nothing was rolled"))
            return True
        if k == "select":
            self._drop_declared()
        return False

    def _drop_declared(self) -> None:
        self.declared = None
        self._panel_key = None

    def _hotkey(self, i: int) -> None:
        """Keys 1-9 press the numbered slot i (stable: a greyed slot says why, never shifts)."""
        if self.needs_handover() or not 0 <= i < len(self._slots):
            return
        b = self._slots[i]
        if not b.enabled:
            self.say(f"{b.label}: {b.tip or b.odds}", theme.TEXT_BAD)
            return
        self.handle(b.intent)

    def _select(self, data: dict) -> None:
        if data.get("unit") is None:
            self.selection = {}
        else:
            self.selection = {k: v for k, v in data.items() if v is not None}
            self.selected = (data["unit"], data.get("model", self._first_model(data["unit"])))
        self._panel_key = None

    def _first_model(self, uid: str) -> int:
        live = self.state.units[uid].live_models() if uid in self.state.units else []
        return live[0][0] if live else 0

    def _choose(self, action) -> None:
        if action is None:
            return
        c = self.controllers.get(action.player)
        if not isinstance(c, HumanController) or self.needs_handover():
            self.say(_("not your decision"), theme.TEXT_BAD)
            return
        reasons = self.session.explain(action)
        if reasons:
            self.say(reasons[0], theme.TEXT_BAD)
            return
        if declare.needs_confirm(action) and not (
            self.declared == action and self._declared_version == self.session.version
        ):
            # declare, then roll: it applies on Enter or a second press of the same button
            self.declared, self._declared_version = action, self.session.version
            self._panel_key = None
            self.say(_("Declared: Enter (or the same button again) rolls, Esc cancels"), theme.ACCENT)
            return
        self.declared = None
        c.submit(action)

    def _pointer(self, pos) -> None:
        self.pointer = pos
        if pos is None or not self.field_rect.collidepoint(pos):
            self.pointer_world = None
            self.hover = None
            return
        wx, wy = self.world_at(pos)
        self.pointer_world = (wx, wy)
        self.hover, self.hover_model = self.thing_at(wx, wy)
        if self.tool is not None:
            self.tool.pointer(wx, wy)

    def _press(self, pos, button: int) -> None:
        if pos is None:
            return
        self._pointer(pos)
        if self.needs_handover():
            if button == 1 and (self.handover_button is None or self.handover_button.collidepoint(pos)):
                self.handle(intent("continue"))
            return
        if self.rule_popup and self.rule_box_rect and self.rule_box_rect.collidepoint(pos):
            self.rule_popup = None
            return
        if self.recap_box is not None:  # a click closes the AI turn's recap; on the box, only that
            self.recap_box = None
            if self.recap_rect is not None and self.recap_rect.collidepoint(pos):
                return
        if self._log_press(pos):
            return
        if button != 1 or not self.field_rect.collidepoint(pos):
            return
        wx, wy = self.world_at(pos)
        if self.ruler_mode:
            shape = self.shape_at(wx, wy)
            self.ruler = [shape, shape]
            return
        if self.tool is not None and self.human_to_act() is not None and self.tool.press(wx, wy, button):
            return
        view = self.view
        if view is not None and view.point is not None and self.human_to_act() is not None:
            act = view.point.action_at(wx, wy)
            reasons = self.session.explain(act)
            if reasons:
                self.say(reasons[0], theme.TEXT_BAD)
            else:
                self._choose(act)
            return
        thing, model = self.thing_at(wx, wy)
        if thing is not None:  # its card stays where it was clicked
            self.pinned, self.pinned_at = thing, pos
        if view is not None and thing in view.field_picks and self.human_to_act() is not None:
            it = view.field_picks[thing]
            if it.kind == "select" and thing in self.state.units:
                units_models = it.data.get("model")
                data = dict(it.data)
                if units_models is None and len(self.state.units[thing].models) > 1:
                    data["model"] = model
                self.handle(Intent("select", data))
            else:
                self.handle(it)
            return
        if thing is not None and (thing in self.state.units or _acts_like_unit(self.state, thing)):
            self.selected = (thing, model)  # the observer of sight lines (a footprint: M10)
            return
        if thing is None:
            self.pinned = None
            self.dragging = True

    def _log_press(self, pos) -> bool:
        """The "new events" chip jumps to the newest; an entry shows its rule and opens or folds."""
        if self.log_chip is not None and self.log_chip.collidepoint(pos):
            self.log_view.to_newest()
            return True
        for r, i in self.log_boxes:
            if r.collidepoint(pos):
                self.log_selected = i
                rule = self._log_lines[i][1]
                self.rule_popup = rule_text(rule) if rule else None
                self.log_view.toggle(i, [t for t, _ in self._log_lines], len(self.log_boxes))
                return True
        return False

    # --- saving and leaving ---------------------------------------------------------------

    def save(self, path=None) -> str | None:
        """F5: write the game's one save slot (or `path`) and say so in a toast, e.g. "Saved:
        round 2, player 2 movement" (never a file path; the status line keeps its hint)."""
        from game.ui import storage
        from game.ui.position_words import where_text
        from game.ui.render.toast import Toast

        try:
            out = storage.save(self.session, path)
        except Exception as exc:  # a save must never crash the game
            self.toast = Toast(_("Could not save: {error}").format(error=exc), self.clock, good=False)
            self.say(_("could not save: {error}").format(error=exc), theme.TEXT_BAD)
            return None
        st = self.state
        where = where_text(st.stage, st.round, st.active, st.phase)
        self.toast = Toast(_("Saved: {where}").format(where=f"{where[:1].lower()}{where[1:]}"), self.clock)
        return str(out)

    def ask_leave(self) -> None:
        """Esc with nothing else to cancel: a battle being played asks before it is left (it is
        autosaved, and saved once more on the way out); a finished game, a demo or a replay is
        left at once."""
        if self.mode != "hotseat" or self.state.is_over():
            self.leave()
            return
        self.confirm = Confirm(
            _("Leave the battle?"),
            self.leave,
            detail=_("It is autosaved: Resume in the main menu continues it."),
            yes=_("Leave (Enter)"),
            no=_("Stay (Esc)"),
        )

    def _quit_game(self) -> None:
        """Quit from a battle: its slot and replay written as on leaving, then the app closes."""
        self.leave()
        self.app.quit()

    def leave(self) -> None:
        from game.ui import storage

        if self.mode == "hotseat" and self.session.recorder.steps:
            # on the way out: the game's slot first, then its one replay, both rewritten in place
            # (a game continued from a seedless save has no replay); a failure must not keep the
            # player in the battle
            for write in (lambda: storage.save(self.session, None), lambda: storage.write_replay(self.session)):
                try:
                    write()
                except (OSError, ValueError):
                    pass
        self.app.pop()

    # --- update ------------------------------------------------------------------------------

    def update(self, dt: float) -> None:
        super().update(dt)
        self.clock += dt
        st = self.state
        if not st.is_over():
            d = self.decision
            c = self.controllers.get(d.player)
            if c is not None and self.begun_version != self.session.version:
                self.begun_version = self.session.version
                c.begin(self.session)
            if c is not None and not self.needs_handover():
                try:
                    action = c.poll()
                except Exception as exc:
                    self.say(_("player {n}'s controller failed: {error}").format(n=d.player, error=exc), theme.TEXT_BAD)
                    action = None
                if action is not None:
                    note = getattr(c, "explanation", "") if getattr(c, "kind", "") == "bot" else ""
                    if note:  # the AI explains itself in the log, as a line without a rule
                        self.bot_notes.append((len(self.session.history), bot_note(d.player, note)))
                    self._apply(action)
        try:
            got = self.hint_asker.poll()
        except Exception as exc:
            got = None
            self.say(_("no hint: {error}").format(error=exc), theme.TEXT_BAD)
        if got is not None and got.version == self.session.version:
            self.bot_hint, self._panel_key = got, None
        if self.bot_hint is not None and self.bot_hint.version != self.session.version:
            self._clear_hint()  # the decision it was for has closed
        self._refresh_derived()
        self._ai_recap()
        self._refresh_tool()
        self._refresh_panel()
        self._compute_overlays()

    def _refresh_tool(self) -> None:
        d = None if self.state.is_over() else self.decision
        key = (self.session.version, d.kind if d else None, d.data.get("phase") if d else None)
        if key != self._tool_key:
            self._tool_key = key
            self.tool = field_controls.tool_for(self)
            self._panel_key = None
        if self.tool is not None:
            self.tool.update()

    def _apply(self, action) -> None:
        human = isinstance(self.controllers.get(action.player), HumanController)
        if human:
            self.undo.before(action, _undo_label(self.state, action))
        try:
            events = self.session.apply(action)
        except IllegalActionError as exc:
            self.undo.after(None)
            self.say(exc.message, theme.TEXT_BAD)
            return
        if human:
            self.undo.after(events)
        else:
            self.undo.clear()
        self.selection = {}
        self._explain_cache.clear()
        for c in self.controllers.values():
            if isinstance(c, HumanController):
                c.cancel()  # drop clicks queued for the decision that just closed
        lines = [event_line(self.state, e) for e in events if e.type != "DiceRolled"]
        if lines:
            self.say(lines[-1])
        if self.mode == "hotseat" and self.state.is_over():
            self.leave_results_saved = True
            self.replay_kept = self._keep_replay()

    def _keep_replay(self) -> bool:
        """A game that has just ended: its one replay written at once (issue 23), so that the
        Replays list has it to watch or export even if the window is closed now; False if it
        could not be written (leaving tries again)."""
        from game.ui import storage

        try:
            storage.write_replay(self.session)
        except (OSError, ValueError):
            return False
        return True

    def _refresh_derived(self) -> None:
        if self._derived_version == self.session.version:
            return
        self._derived_version = self.session.version
        st = self.state
        lines: list[tuple[str, str]] = []
        notes, k = self.bot_notes, 0
        for i, e in enumerate(self.session.history):
            while k < len(notes) and notes[k][0] <= i:
                lines.append((note_words(notes[k][1]), ""))
                k += 1
            if e.type != "DiceRolled":
                lines.append((event_line(st, e), getattr(e, "rule", "")))
        lines += [(note_words(text), "") for _, text in notes[k:]]
        self._log_lines = lines  # the whole log: the view wraps and scrolls it (render/log_view)
        self._tray = tray_entries(st, self.session.history[-200:])

    # --- the decision panel ------------------------------------------------------------------

    def _refresh_panel(self) -> None:
        hand = self.needs_handover()
        key = (
            self.session.version,
            tuple(sorted(self.selection.items())),
            hand,
            self.state.is_over(),
            tuple(self.panel_rect),
            self.tool.panel_key() if self.tool is not None else None,
            self.declared if self._declared_version == self.session.version else None,
            declare.enabled(),
            i18n.language(),  # a language switch rebuilds the panel in the new words (issue 22)
            id(self.bot_hint),
            self.hint_asker.thinking(),
        )
        if key == self._panel_key:
            return
        self._panel_key = key
        if self._declared_version != self.session.version:
            self.declared = None  # the decision it was declared for has closed
        for old in (self._panel_container, self._panel_footer):
            if old is not None:
                old.kill()
        self._panel_container = self._panel_footer = None
        if self.state.is_over():
            res = self.state.result() or {}
            w = res.get("winner")
            self.view = PanelView(
                title=_("Game over"),
                lines=[
                    _("{result} ({reason}), score {score}").format(
                        result=_("{player} wins").format(player=words.player(w)) if w else _("A draw"),
                        reason=reason_words(self.state, res.get("reason", "")),
                        score="-".join(map(str, res["score"]))
                        if isinstance(res.get("score"), list)
                        else res.get("score"),
                    ),
                    *(
                        [_("Its replay is kept in Replays (main menu); Export there makes a file to send.")]
                        if getattr(self, "replay_kept", False)
                        else []
                    ),
                    _("Esc: back to the menu."),
                ],
            )
        elif hand:
            self.view = PanelView(title=self.handover_title(), lines=[_("Hand over the device, then press Enter.")])
        else:
            ctx = PanelContext(self.session, self.decision, self.selection, tool=self.tool, undo=self.undo)
            self.view = self.extra_view(build_view(ctx))
            if self.controllers.get(self.decision.player) is not None and not isinstance(
                self.controllers.get(self.decision.player), HumanController
            ):
                self.view = PanelView(
                    title=(
                        _("{player} ({kind}) is thinking...").format(
                            player=words.player(self.decision.player), kind=self.controllers[self.decision.player].kind
                        )
                    ),
                    lines=[prompt_text(self.decision.prompt, self.state)],
                    point=None,
                )
                self.view = self.extra_view(self.view)
            elif self.bot_hint is not None:
                from game.ui.hint import hint_lines

                self.view.lines = hint_lines(self.state, self.bot_hint, self.decision) + list(self.view.lines)
            elif self.hint_asker.thinking():
                self.view.lines = [_("Hint: thinking...")] + list(self.view.lines)
        self._build_panel_widgets(self.view)

    def extra_view(self, view: PanelView) -> PanelView:
        """Hook for subclasses (the replay scene adds its step buttons)."""
        return view

    def _build_panel_widgets(self, view: PanelView) -> None:
        """The panel: title, lines and the numbered buttons (stable slots: a greyed one keeps
        its place and number), scrolling; under them a fixed footer: a declared roll with its
        Confirm and Cancel, and always Back (Esc) and the confirm setting in the same place."""
        st = self.state
        view.title = plain(st, view.title)  # ids never reach the screen: engine text names things by name
        view.lines = [plain(st, s) for s in view.lines]
        for b in view.buttons + ([view.back] if view.back is not None else []):
            b.label, b.odds, b.tip = plain(st, b.label), plain(st, b.odds), plain(st, b.tip)
        r = self.panel_rect
        footer = self._build_panel_footer(view)
        body_h = r.h - footer.rect.h
        cont = UIScrollingContainer(pygame.Rect(r.x, r.y, r.w, body_h), manager=self.manager, allow_scroll_x=False)
        self._panel_container = cont
        y = 6
        inner_w = r.w - 24
        title = UITextBox(
            f"<b>{_box(view.title, self._gui_font('#panel_title'), inner_w)}</b>",
            pygame.Rect(6, y, inner_w, -1),
            manager=self.manager,
            container=cont,
            object_id="#panel_title",
        )
        y += title.rect.h + 2
        if view.lines:
            body = UITextBox(
                "<br>".join(_box(s, self._gui_font("#panel_text"), inner_w) for s in view.lines),
                pygame.Rect(6, y, inner_w, -1),
                manager=self.manager,
                container=cont,
                object_id="#panel_text",
            )
            y += body.rect.h + 4
        self._slots = []
        for b in view.buttons:
            label = b.label if len(b.label) <= 52 else b.label[:50] + "..."
            if b.numbered:
                self._slots.append(b)
                if len(self._slots) <= 9:
                    label = f"{len(self._slots)}. {label}"
            if self.declared is not None and b.intent.kind == "choose" and b.intent.get("action") == self.declared:
                label = f">> {label}"  # the declared one: press it again (or Enter) to roll
            oid = {"end": "#end_button", "nav": "#nav_button"}.get(b.role, "#option_button")
            tip = self._button_tip(b) or None
            if not b.enabled and b.tip:  # a greyed slot: why first, then what it is
                tip = (
                    "<b>"
                    + _("Not now: {why}").format(why=_esc(b.tip))
                    + "</b>"
                    + (f"<br>{tip}" if tip and tip != b.tip else "")
                )
            widgets.button(
                pygame.Rect(6, y, inner_w, 30),
                label,
                self.manager,
                b.intent,
                container=cont,
                tooltip=tip,
                object_id=oid,
                enabled=b.enabled,
            )
            y += 31
            if b.odds:
                # a line per row, as tall as the line (Korean and Japanese glyphs stand taller
                # than Latin), wrapped when wider than the slot: never cut off
                from game.ui.text_wrap import wrap

                font = self._gui_font("#odds")
                for line in wrap(b.odds, inner_w - 12, font):
                    odds_h = max(18, font.get_rect(line).height)
                    UILabel(
                        pygame.Rect(14, y - 1, inner_w - 8, odds_h),
                        line,
                        manager=self.manager,
                        container=cont,
                        object_id="#odds",
                    )
                    y += odds_h
            y += 3
        cont.set_scrollable_area_dimensions((r.w - 20, max(y + 6, body_h - 4)))

    def _gui_font(self, object_id: str):
        """The pygame-gui font a text box with `object_id` draws in (the theme's, per language)."""
        return self.manager.get_theme().get_font([object_id])

    def _build_panel_footer(self, view: PanelView):
        """The fixed footer at the panel's bottom: the declared roll (what is rolled, the
        odds, Confirm (Enter) / Cancel (Esc)), then Back (Esc) and the confirm setting."""
        from pygame_gui.core import UIContainer

        st = self.state
        r = self.panel_rect
        inner_w = r.w - 12
        half = (inner_w - 4) // 2
        row = 28
        hand = self.needs_handover() or st.is_over()
        declared = self.declared if self._declared_version == self.session.version and not hand else None
        text = plain(st, declare.declare_text(st, declared)) if declared is not None else ""
        # the declare text's height: measured by a box made off-screen, then placed
        box_h = 0
        if text:
            probe = UITextBox(
                _box(text, self._gui_font("#panel_text"), inner_w),
                pygame.Rect(0, 0, inner_w, -1),
                manager=self.manager,
                object_id="#panel_text",
            )
            box_h = probe.rect.h
            probe.kill()
        h = 6 + (box_h + 2 + row + 4 if text else 0) + row + 6
        foot = UIContainer(pygame.Rect(r.x, r.bottom - h, r.w, h), manager=self.manager)
        self._panel_footer = foot
        y = 4
        if text:
            UITextBox(
                _box(text, self._gui_font("#panel_text"), inner_w),
                pygame.Rect(6, y, inner_w, box_h),
                manager=self.manager,
                container=foot,
                object_id="#panel_text",
            )
            y += box_h + 2
            widgets.button(
                pygame.Rect(6, y, half, row),
                _("Confirm (Enter)"),
                self.manager,
                intent("choose", action=declared),
                container=foot,
                tooltip=_("Roll the dice now"),
            )
            widgets.button(
                pygame.Rect(10 + half, y, half, row),
                _("Cancel (Esc)"),
                self.manager,
                intent("back"),
                container=foot,
                tooltip=_("Nothing is rolled"),
                object_id="#nav_button",
            )
            y += row + 4
        back = view.back
        widgets.button(
            pygame.Rect(6, y, half, row),
            _("< Back (Esc)"),
            self.manager,
            intent("back"),
            container=foot,
            tooltip=(back.label if back is not None else None),
            object_id="#nav_button",
            enabled=back is not None and not hand,
        )
        on = declare.enabled()
        widgets.button(
            pygame.Rect(10 + half, y, half, row),
            _("Confirm rolls: on") if on else _("Confirm rolls: off"),
            self.manager,
            intent("toggle", name="confirm_rolls"),
            container=foot,
            tooltip=(
                _("On: a spell, prayer, banish, charge or shot shows its roll and odds and waits for Enter.")
                + " "
                + (_("Click to turn it off") if on else _("Click to turn it on"))
            ),
            object_id="#nav_button",
        )
        return foot

    # --- overlays ------------------------------------------------------------------------------

    def _explain(self, action) -> list[str]:
        key = (self.session.version, action)
        hit = self._explain_cache.get(key)
        if hit is None:
            if len(self._explain_cache) > 2000:
                self._explain_cache.clear()
            hit = self.session.explain(action)
            self._explain_cache[key] = hit
        return hit

    def _compute_overlays(self) -> None:
        st = self.state
        ov = Overlays()
        self.sight_segment = None
        view = self.view
        ov.hovered = self.hover
        if self.pointer is not None and self.field_rect.collidepoint(self.pointer):
            ov.pointer = self.local(self.pointer)
        ov.selected = self.selected if self.selected and _on_field(st, self.selected[0]) else None
        hint = ""
        hint_col = theme.TEXT
        hidden = self.needs_handover()
        if view is not None and not hidden:
            for thing in view.field_picks:
                if thing in st.units or thing in st.manifestations:
                    ov.highlight_units[thing] = theme.LEGAL_TARGET
        # staged caster: its selected model is the observer
        if self.selection.get("unit") in st.units:
            uid = self.selection["unit"]
            self.selected = (
                uid,
                self.selection.get(
                    "model", self.selected[1] if self.selected and self.selected[0] == uid else self._first_model(uid)
                ),
            )
            ov.selected = self.selected
        elif self.selection.get("unit") in st.manifestations:  # a walker or a manifestation that shoots (M10)
            self.selected = ov.selected = (self.selection["unit"], 0)
        # hover ranges
        if self.hover in st.units and not hidden:
            ov.rings += self.unit_rings(self.hover, self.hover_model)
            u = st.units[self.hover]
            ws = st.game.warscroll(u.warscroll)
            n_live = len(u.live_models())
            hint = _(
                '{unit} (player {n}): Move {move}", Health {health}, Save {save}+, {models}, base {base}mm'
            ).format(
                unit=cn(u.name),
                n=u.player,
                move=f"{ws.move:g}",
                health=ws.health,
                save=ws.save,
                models=ngettext("{n} model", "{n} models", n_live).format(n=n_live),
                base=f"{ws.base.round_mm:g}",
            )
        elif self.hover in st.manifestations and not hidden:
            ring, hint = self.control_zone(self.hover)
            if ring is not None:
                ov.rings.append(ring)
        # sight line from the selected model to the hovered target
        if (
            ov.selected
            and self.hover
            and self.hover != ov.selected[0]
            and not hidden
            and ov.selected[0] in st.manifestations
        ):
            # a footprint looks as the engine says (G2 from a footprint, M10); no single line to draw
            ou = ov.selected[0]
            try:
                with st.query():
                    seen = unit_sees(st, ou, self.hover)
                    d = distance(manifestation_shape(st, ou), self._shape_of(self.hover, self.hover_model))
            except Exception:
                seen = None
            if seen is not None:
                hint = (
                    _('{unit} sees the target, {d}" away (G2)')
                    if seen
                    else _('{unit} cannot see the target, {d}" away (G2)')
                ).format(unit=name_of(st, ou), d=f"{d:.2f}")
                hint_col = theme.TEXT_GOOD if seen else theme.TEXT_BAD
        elif ov.selected and self.hover and self.hover != ov.selected[0] and not hidden:
            ou, om = ov.selected
            try:
                s = sight(st, ou, om, self.hover)
            except Exception:
                s = None
            if s is not None and s.line is not None:
                self.sight_segment = s.line
                names = []
                if not s.visible:
                    exclude = [ou] + ([self.hover] if self.hover in st.units else [])
                    walls = blockers(st, exclude)
                    terr = []
                    for b in s.blocked_by:
                        if b.startswith("model:"):
                            k = int(b.split(":")[1])
                            ov.blocked_bases.append((float(walls.x[k]), float(walls.y[k]), float(walls.r[k])))
                        else:
                            terr.append(b)
                    names += query.blocker_names(st, s, exclude)  # G2: by name, models by their unit
                    ov.blocked_terrain = tuple(terr)
                pieces = [t for t in st.game.battlefield.map.terrain if t.name in ov.blocked_terrain]
                # drawn as a mark, not `ov.sight_line`: dashed and crossed when blocked (not colour alone)
                ov.marks.append(sight_mark(s.line, s.visible, ov.blocked_bases, pieces))
                d = distance(model_circle(st, ou, om), self._shape_of(self.hover, self.hover_model))
                who = cn(st.units[ou].name)
                sees = (
                    _('{unit} sees the target, {d}" away')
                    if s.visible
                    else _('{unit} cannot see the target, {d}" away')
                )
                hint = sees.format(unit=who, d=f"{d:.2f}") + (
                    ": " + _("blocked by {names} (G2)").format(names=", ".join(dict.fromkeys(names)))
                    if names
                    else " (G2)"
                )
                hint_col = theme.TEXT_GOOD if s.visible else theme.TEXT_BAD
        # why a hovered thing cannot be picked now
        if (
            view is not None
            and view.probe is not None
            and self.hover
            and self.hover not in view.field_picks
            and not hidden
        ):
            reasons = self._explain(view.probe(self.hover))
            if reasons:
                hint, hint_col = _("Not a legal target: {why}").format(why=engine_text(reasons[0], st)), theme.TEXT_BAD
        # a point choice: the ghost, green or red with the reason
        if view is not None and view.point is not None and not hidden:
            p = view.point
            if self.decision.kind == "summon_setup":  # M9: where its centre may go, from the engine
                dd = self.decision.data
                with st.query():
                    region = query.setup_region(st, self.decision.player, dd["unit"], dd["model"], dd["scroll"])
                ov.marks.append(Region(region, theme.GHOST_OK))
            if p.centre is not None and p.reach:
                r0 = 0.0
                if p.fields.get("unit") in st.units or self.decision.data.get("unit") in st.units:
                    uid = p.fields.get("unit") or self.decision.data.get("unit")
                    r0 = query.radius_of(st, uid)
                ov.rings.append(Ring(p.centre[0], p.centre[1], r0 + p.reach, theme.RING_REACH, f'{p.reach:g}"'))
            ov.candidates = list(p.candidates)
            if self.pointer_world is not None:
                x, y = self.pointer_world
                ov.ghost = footprint_at(st, p.scroll, x, y) if p.scroll else Circle(x, y, 0.4)
                reasons = self._explain(p.action_at(round(x, 2), round(y, 2)))
                ov.ghost_ok = not reasons
                if reasons:  # not colour alone: a cross on the illegal spot
                    ov.marks.append(Cross(x, y, theme.GHOST_BAD))
                hint = _("Legal: click to set up here") if not reasons else engine_text(reasons[0], st)
                hint_col = theme.TEXT_GOOD if not reasons else theme.TEXT_BAD
        if self.bot_hint is not None and not hidden:
            self._hint_overlay(ov)
        # the decision's battlefield tool: ghosts, previews and its hint (game.ui.controls)
        if self.tool is not None and not hidden and self.human_to_act() is not None:
            told = self.tool.overlay(ov)
            if told:
                hint, hint_col = told
        # ruler
        if self.ruler is not None:
            a, b = self.ruler
            d = distance(a, b) if a is not b else 0.0
            pa, pb = _closest_points(a, b)
            ov.ruler = (pa, pb, f'{d:.2f}"')
            hint = _('Ruler: {d}" base to base (G1)').format(d=f"{d:.2f}")
        elif self.ruler_mode and not hint:
            hint = _("Ruler: press on a base or a point and drag")
        self.overlays = ov
        self.hint = (plain(st, hint), hint_col)
        self.card = None if hidden or self.ruler is not None else self._hover_card(view)

    def _hint_overlay(self, ov: Overlays) -> None:
        """The hinted choice on the board: its unit highlighted, a line to its target, the
        ghost of a move (a predatory manifestation's too), the point of a set-up, and a tag
        naming the hint there."""
        from game.ui.choices import LEVELS, by_id, label
        from game.ui.render.overlays import Bases, Label, Line, Shape

        st, a = self.state, self.bot_hint.action
        unit = getattr(a, "unit", None)
        target = getattr(a, "target", None) or getattr(a, "manifestation", None)
        tag_at: tuple[float, float] | None = None  # where the board says "Hint": the hinted thing
        lift = 12  # pixels above that point; above a unit, clear of its caster badge too
        if unit in st.units or unit in st.manifestations:
            ov.highlight_units[unit] = theme.ACCENT
            with st.query():
                me = self._shape_of(unit, self._first_model(unit) if unit in st.units else 0)
            tag_at, lift = _top_of(me), 46
        if target in st.units or target in st.manifestations:
            ov.highlight_units[target] = theme.ACCENT
            if unit in st.units or unit in st.manifestations:
                with st.query():
                    pa, pb = _closest_points(
                        self._shape_of(unit, self._first_model(unit) if unit in st.units else 0),
                        self._shape_of(target, self._first_model(target) if target in st.units else 0),
                    )
                ov.marks.append(Line(pa, pb, theme.ACCENT, 3))
                tag_at, lift = ((pa[0] + pb[0]) / 2, (pa[1] + pb[1]) / 2), 12  # on the line to the target
        to = getattr(a, "to", None)
        if to and unit in st.units:
            r = query.radius_of(st, unit)
            ov.marks.append(Bases([(x, y, r) for x, y in to], True))
            tag_at, lift = (sum(x for x, _y in to) / len(to), max(y for _x, y in to) + r), 12  # above the ghost
        if a.type == "PlaceManifestation":
            ov.marks.append(Cross(a.x, a.y, theme.ACCENT))
            tag_at, lift = (a.x, a.y), 12
        if a.type == "MovePredatory" and a.manifestation in st.manifestations:
            # where the manifestation would end: its footprint there, and the straight line to it (E9)
            m = st.manifestations[a.manifestation]
            ghost = footprint_at(st, m.scroll, a.x, a.y)
            ov.marks.append(Line((m.x, m.y), (a.x, a.y), theme.ACCENT, 2, dashed=True))
            ov.marks.append(Shape(ghost, (*theme.ACCENT, 50), theme.ACCENT, 2))
            tag_at, lift = _top_of(ghost), 12
        if tag_at is not None:  # the panel says what and why; the board, which piece it means
            level = label(by_id(LEVELS, self.bot_hint.level))
            tag = _("Hint ({level} AI)").format(level=level)
            ov.marks.append(Label(tag_at[0], tag_at[1], tag, theme.ACCENT, 13, dy=-lift))

    def _hover_card(self, view: PanelView | None) -> cards.Card | None:
        """The card of what is under the pointer (cards.card_for), kept while nothing changes.
        While a point is being chosen only units and manifestations show one: terrain and
        objectives lie under most points and their card would hide the ghost's surroundings."""
        feature = None
        st = self.state
        if self.pinned is not None and self.pinned not in st.units and self.pinned not in st.manifestations:
            self.pinned = None  # e.g. a banished manifestation
        thing = self.hover or self.pinned
        choosing = view is not None and (view.point is not None or view.custom_point)  # a tool's own point too
        if thing is None and self.pointer_world is not None and not choosing:
            slack = 3 / max(self.camera.scale, 1e-6)
            feature = cards.feature_at(self.state, *self.pointer_world, slack)
        key = (self.session.version, thing, feature, self.hover is None)
        if key != self._card_key:
            self._card_key = key
            with self.state.query():
                self._card = cards.card_for(self.state, thing, feature)
            if self._card is not None and self.pinned is not None and self.hover is None and thing == self.pinned:
                self._card = cards.pinned(self._card)
        return self._card

    def _button_tip(self, b) -> str:
        """A spell or prayer button's tool tip is that ability's card (cards.ability_card)."""
        found = cards.button_ability(b.intent)
        if found is None or found[0] not in self.state.game.content.abilities:
            return b.tip
        c = cards.ability_card(self.state, found[0], found[1])
        body = "<br>".join(_esc(s) for s in ([c.subtitle] if c.subtitle else []) + [ln.text for ln in c.lines])
        return f"<b>{_esc(c.title)}</b><br>{body}"

    def _shape_of(self, thing: str, model: int):
        if thing in self.state.units:
            return model_circle(self.state, thing, model)
        return manifestation_shape(self.state, thing)

    def unit_rings(self, uid: str, model: int) -> list[Ring]:
        """Ranges of a unit, measured from the hovered model's base: spells and prayers it knows,
        30" unbind/banish, 24" control and its Move."""
        st = self.state
        u = st.units[uid]
        if model >= len(u.models) or u.models[model].slain:
            model = self._first_model(uid)
        ws = st.game.warscroll(u.warscroll)
        c = model_circle(st, uid, model)
        rings: list[Ring] = []
        if ws.move:
            rings.append(
                Ring(c.x, c.y, c.r + ws.move, theme.RING_MOVE, _('Move {move}"').format(move=f"{ws.move:g}"), 1)
            )
        if ws.wizard_level or ws.priest_level:
            by_range: dict[float, list[str]] = {}
            for kind in ("spell", "prayer"):
                try:
                    ids = query.known(st, uid, kind)
                except Exception:
                    ids = []
                for a in ids:
                    ab = st.game.content.abilities[a]
                    if ab.range > 0:
                        by_range.setdefault(ab.range, []).append(ab.name)
            from game.ui.controls.casters import spell_rings

            rings += spell_rings(c, by_range)
            rng = query.ranges(st.game)
            rings.append(
                Ring(c.x, c.y, c.r + rng.control, theme.RING_CONTROL, _('{r}" control').format(r=f"{rng.control:g}"))
            )
            reach = "/".join(w for w, on in ((_("banish"), rng.banishes), (_("dispel"), rng.dispels)) if on)
            label = _('{r}" unbind/').format(r=f"{rng.unbind:g}") + reach
            rings.append(Ring(c.x, c.y, c.r + rng.unbind, theme.RING_UNBIND, label))
        return rings

    def control_zone(self, mid: str):
        """E7: the control zone around a predatory manifestation's summoning model, and what the
        engine says of its control (query.control_zone); other manifestations show their
        characteristics only."""
        st = self.state
        m = st.manifestations[mid]
        scroll = st.game.content.manifestations[m.scroll]
        stats = _('{name} (player {n}): {predatory}Move {move}", banishment {banishment}').format(
            name=name_of(st, mid),
            n=m.player,
            predatory=_("PREDATORY, ") if scroll.predatory else "",
            move=f"{scroll.move:g}",
            banishment=scroll.banishment,
        )
        if not scroll.predatory:
            if query.moves_like_unit(st, mid):  # M10: the engine's test
                stats += _(", Health {left}/{health}, Save {save}+: moves like a unit (M10)").format(
                    left=max(0, scroll.health - m.damage), health=scroll.health, save=scroll.save
                )
            return None, stats
        cz = query.control_zone(st, mid)
        if cz.zone is None:
            who = _("its summoner is gone") if cz.reason == "no_summoner" else _("the model that summoned it is slain")
            return None, f"{stats}; " + _("{who}: it is wild (E5, E7)").format(who=who)
        r = f"{cz.range:g}"
        ring = Ring(cz.zone.x, cz.zone.y, cz.zone.r + cz.range, theme.RING_CONTROL, _('{r}" control').format(r=r))
        word = (
            _('NOT wholly within {r}" of {unit}, which summoned it (E7)')
            if cz.reason == "out_of_range"
            else _('wholly within {r}" of {unit}, which summoned it (E7)')
        )
        return ring, f"{stats}; " + word.format(r=r, unit=cn(st.units[m.summoner].name))

    # --- draw ----------------------------------------------------------------------------------

    def draw(self, surface: pygame.Surface) -> None:
        st = self.state
        note = ""
        c = self.controllers.get(self.decision.player) if not st.is_over() else None
        if c is not None and getattr(c, "kind", "") == "bot":
            note = _("AI thinking...") if getattr(c, "thinking", lambda: False)() else ""
        self.header_rects = hud.topbar(surface, self.top_rect, st, None if st.is_over() else self.decision, note)
        field = surface.subsurface(self.field_rect)
        hidden = self.needs_handover()
        # the palette is in the key: a swapped palette redraws the cached board in its colours
        self.renderer.draw(field, st, self.overlays, (id(self.session), self.session.version, theme.PALETTE))
        hint, col = getattr(self, "hint", ("", theme.TEXT))
        if self.message and self.clock - self.message_at < MESSAGE_FRESH:  # e.g. why a press was refused
            hint, col = self.message, self.message_colour
        hud.status_line(surface, self.status_rect, hint or self.message, col if hint else self.message_colour)
        pygame.draw.rect(surface, theme.PANEL, self.panel_rect)
        hud.dice_tray(surface, self.tray_rect, self._tray)
        self.log_boxes, self.log_chip = hud.event_log(
            surface, self.log_rect, self._log_lines, self.log_view, self.log_selected
        )
        self.manager.draw_ui(surface)
        toast.draw(surface, self.field_rect, getattr(self, "toast", None), self.clock)
        at = self.pointer if self.hover is not None or self.pinned is None else self.pinned_at
        if self.card is not None and at is not None and not hidden and not self.rule_popup:
            avoid = None
            if self.sight_segment is not None:  # keep the sight line in view
                fx, fy = self.field_rect.topleft
                a, b = (self.camera.to_screen(*p) for p in self.sight_segment)
                avoid = ((a[0] + fx, a[1] + fy), (b[0] + fx, b[1] + fy))
            self.card_rect = card_view.draw_card(surface, self.card, at, self.field_rect, avoid)
        if self.ruler_mode:
            t = theme.text(_("RULER"), 14, theme.ACCENT, bold=True)
            surface.blit(t, (self.field_rect.right - t.get_width() - 10, self.field_rect.y + 8))
        if hidden:
            area = pygame.Rect(0, TOP, surface.get_width(), surface.get_height() - TOP)
            p = self.decision.player
            self.handover_button = hud.handover(
                surface,
                area,
                self.handover_title(),
                _("Pass the device to player {n} ({army}).").format(n=p, army=cn(st.game.army(p).name))
                + " "
                + _handover_detail(self),
                theme.player_colour(st, p),
                self.handover_recap(),
            )
        else:
            self.handover_button = None
            if self.recap_box is not None:
                self.recap_rect = hud.recap_box(surface, self.field_rect, *self.recap_box)
        if self.rule_popup:
            r = pygame.Rect(
                self.field_rect.x + 20, self.field_rect.y + 20, min(560, self.field_rect.w - 40), self.field_rect.h - 40
            )
            self.rule_box_rect = hud.rule_box(surface, r, *self.rule_popup)
        self.keys_rect = keys_help.draw(surface, self.field_rect, self.mode_name()) if self.keys_open else None
        if self.confirm is not None:
            self.confirm.draw(surface, surface.get_rect())

    def mode_name(self) -> str:
        """The key table's name for this scene (game.ui.input.BINDINGS)."""
        return {"replay": "replay", "demo": "demo"}.get(self.mode, "battle")


def _home_short(path: str) -> str:
    """A path with the home folder as ~ (shorter on screen, still where to look)."""
    import os

    home = os.path.expanduser("~")
    return "~" + path[len(home) :] if home not in ("", "/") and path.startswith(home + os.sep) else path


def _undo_label(state, action) -> str:
    from game.ui.labels import describe, name_of

    unit = getattr(action, "unit", None)
    verbs = {
        "MoveUnit": N_("move {unit}"),
        "DeployUnit": N_("redeploy {unit}"),
        "Run": N_("run {unit}"),
        "Retreat": N_("retreat {unit}"),
    }
    # the describe() fallback's English words for these, said in the language in use
    plain_verbs = {"BankRitual": N_("Bank ritual"), "SpendRitual": N_("Spend ritual"), "FailCharge": N_("Fail charge")}
    if action.type in plain_verbs:
        return _(plain_verbs[action.type])
    if action.type == "MovePredatory" and language() != "en":  # English keeps describe's words
        return _("move {unit}").format(unit=name_of(state, action.manifestation))
    if action.type == "ChooseControlled" and language() != "en":  # the option button's words (E7)
        return _("Control {name}").format(name=name_of(state, action.manifestation))
    if action.type in verbs and unit:
        return _(verbs[action.type]).format(unit=name_of(state, unit))
    try:
        return describe(state, action).text
    except Exception:
        return action.type


def _acts_like_unit(state, thing: str) -> bool:
    """A manifestation that moves or shoots like a unit (M10): it can be picked as an observer."""
    return thing in state.manifestations and (query.moves_like_unit(state, thing) or bool(query.ranged(state, thing)))


def _on_field(state, thing: str) -> bool:
    if thing in state.units:
        return state.units[thing].alive
    return thing in state.manifestations


def _handover_detail(scene: BattleScene) -> str:
    d = scene.decision
    if d.kind == "unbind":
        st = scene.state
        sp = st.game.content.abilities[d.data["spell"]]
        return _("{caster} cast {spell} with {roll}. Unbind it?").format(
            caster=name_of(st, d.data["caster"]), spell=cn(sp.name), roll=d.data["roll"]
        )
    return plain(scene.state, prompt_text(d.prompt, scene.state, sentence=True))


def _esc(s: str) -> str:
    return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def _box(s: str, font, width: int) -> str:
    """`s` escaped for a pygame-gui text box of `width` pixels whose text is drawn in `font` (the
    box's own pygame-gui font). Japanese has no spaces, and pygame-gui would break its "words"
    with a hyphen: the text is broken beforehand, between characters by Japanese rules
    (text_wrap), measured in that font, a little narrower than the box for its padding and the
    panel's scroll bar, and the lines joined with <br>."""
    from game.i18n import language
    from game.ui.text_wrap import wrap

    if language() != "ja":
        return _esc(s)
    return "<br>".join(_esc(line) for line in wrap(s, width - 12, font))


def _top_of(shape) -> tuple[float, float]:
    """The middle of a base's or footprint's top edge (inches; y grows up the board)."""
    if isinstance(shape, Circle):
        return (shape.x, shape.y + shape.r)
    x0, _y0, x1, y1 = shape.bounds
    return ((x0 + x1) / 2, y1)


def _closest_points(a, b):
    """Endpoints for drawing a base-to-base measurement (circles exactly; else centres)."""

    def centre(s):
        if isinstance(s, Circle):
            return s.x, s.y, s.r
        c = s.centroid
        return c.x, c.y, 0.0

    ax, ay, ar = centre(a)
    bx, by, br = centre(b)
    dx, dy = bx - ax, by - ay
    n = math.hypot(dx, dy)
    if n < 1e-9:
        return (ax, ay), (bx, by)
    ux, uy = dx / n, dy / n
    return (ax + ux * ar, ay + uy * ar), (bx - ux * br, by - uy * br)
