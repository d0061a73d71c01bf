"""The one place that reads `pygame.event`: it turns events into `Intent`s.

pygame-gui widgets see every event first (through the active scene's manager); their presses
come back as the intents the widgets were built with (`game.ui.widgets.INTENTS`).
"""

from __future__ import annotations

from dataclasses import dataclass

import pygame
import pygame_gui

from game.i18n import N_
from game.ui import widgets
from game.ui.intents import Intent, intent

BATTLE, REPLAY, DEMO = "battle", "replay", "demo"  # a battle played, a replay, bots playing (watched)
RULE_DEMO = "rule_demo"  # a rule demonstration, stepped through (game.ui.scenes.demo)
ALL = frozenset({BATTLE, REPLAY, DEMO})
EVERYWHERE = ALL | {RULE_DEMO}


@dataclass(frozen=True)
class Binding:
    """One line of the key table: the keys' name as the player reads it, what they do, and the
    scenes that act on them. `KEYS` and `PAN_KEYS` below are made from this table, and the H key
    table (game.ui.keys_help) is drawn from it: one source, so the help never lists a dead key."""

    keys: str
    does: str
    scenes: frozenset[str] = ALL
    kind: str = ""  # the intent a single key sends ("" for keys read below, e.g. pans, 1-9)
    codes: tuple[int, ...] = ()
    more: tuple[tuple[int, str], ...] = ()  # more keys on this line that send another intent


BINDINGS: tuple[Binding, ...] = (
    Binding(N_("W A S D / arrows"), N_("pan the battlefield")),
    Binding(N_("right-drag"), N_("pan the battlefield")),
    Binding(N_("wheel, + / -"), N_("zoom (at the pointer)")),
    Binding(N_("F"), N_("fit the battlefield"), kind="fit", codes=(pygame.K_f,)),
    Binding(N_("R"), N_("ruler: drag base to base"), kind="ruler", codes=(pygame.K_r,)),
    Binding(N_("click"), N_("select a unit: sight lines")),
    Binding(N_("drag a unit"), N_("move it (deploy, move, charge)"), frozenset({BATTLE})),
    Binding(N_("1-9"), N_("press the panel's buttons"), frozenset({BATTLE, REPLAY})),
    Binding(N_("E"), N_("end the phase"), frozenset({BATTLE}), kind="end_phase", codes=(pygame.K_e,)),
    Binding(N_("Enter / Space"), N_("commit; I am ready"), frozenset({BATTLE}), kind="continue",
            codes=(pygame.K_RETURN, pygame.K_SPACE)),
    Binding(N_("Enter / Space"), N_("play or pause"), frozenset({REPLAY, RULE_DEMO})),
    Binding(N_(". / Page Down"), N_("step forward"), frozenset({REPLAY, RULE_DEMO})),
    Binding(N_(", / Page Up"), N_("step back"), frozenset({REPLAY, RULE_DEMO})),
    Binding(N_("U"), N_("undo a move (until a die is rolled)"), frozenset({BATTLE}), kind="undo", codes=(pygame.K_u,)),
    Binding(N_("F5 / Ctrl+S"), N_("save the game"), frozenset({BATTLE}), kind="save", codes=(pygame.K_F5,)),
    Binding(N_("F12"), N_("screenshot"), EVERYWHERE, kind="screenshot", codes=(pygame.K_F12,)),
    Binding(N_("T"), N_("hint: what the AI would do here"), frozenset({BATTLE}), kind="hint", codes=(pygame.K_t,)),
    Binding(N_("H"), N_("this key table"), EVERYWHERE, kind="help", codes=(pygame.K_h,)),
    Binding(N_("L"), N_("next language"), EVERYWHERE, kind="language", codes=(pygame.K_l,)),
    Binding(N_("Esc"), N_("cancel, back; leave the battle"), ALL, kind="back", codes=(pygame.K_ESCAPE,)),
    Binding(N_("Esc"), N_("back to the list"), frozenset({RULE_DEMO})),
    Binding(N_("Y / N"), N_("answer a question yes / no"), frozenset({BATTLE}), kind="confirm_yes", codes=(pygame.K_y,),
            more=((pygame.K_n, "confirm_no"),)),
)  # fmt: skip

KEYS = {code: b.kind for b in BINDINGS for code in b.codes} | {code: k for b in BINDINGS for code, k in b.more}
PAN_KEYS = {
    pygame.K_LEFT: (1, 0),
    pygame.K_a: (1, 0),
    pygame.K_RIGHT: (-1, 0),
    pygame.K_d: (-1, 0),
    pygame.K_UP: (0, 1),
    pygame.K_w: (0, 1),
    pygame.K_DOWN: (0, -1),
    pygame.K_s: (0, -1),
}


def bindings_for(scene: str) -> list[Binding]:
    """The bindings that work in `scene` ("battle" or "replay"), in the table's order."""
    return [b for b in BINDINGS if scene in b.scenes]


PAN_SPEED = 600.0  # pixels per second
ZOOM_STEP = 1.15


class InputMapper:
    def __init__(self) -> None:
        self.drag_origin: tuple[int, int] | None = None

    def poll(self, manager: pygame_gui.UIManager | None = None, dt: float = 0.0) -> list[Intent]:
        out: list[Intent] = []
        typing = False
        if manager is not None:
            focus = manager.get_focus_set()
            typing = any(isinstance(e, pygame_gui.elements.UITextEntryLine) for e in (focus or ()))
        for ev in pygame.event.get():
            consumed = bool(manager.process_events(ev)) if manager is not None else False
            out.extend(self._translate(ev, consumed, typing))
        if not typing and not pygame.key.get_mods() & pygame.KMOD_CTRL:  # Ctrl+S saves, it does not pan
            held = pygame.key.get_pressed()
            dx = dy = 0.0
            for k, (sx, sy) in PAN_KEYS.items():
                if held[k]:
                    dx += sx
                    dy += sy
            if (dx or dy) and dt > 0:
                out.append(intent("pan", dx=dx * PAN_SPEED * dt, dy=dy * PAN_SPEED * dt))
        return out

    def _translate(self, ev: pygame.event.Event, consumed: bool, typing: bool) -> list[Intent]:
        t = ev.type
        if t == pygame.QUIT:
            return [intent("quit")]
        if t == pygame.VIDEORESIZE:
            return [intent("resize", size=(ev.w, ev.h))]
        if t == pygame_gui.UI_BUTTON_PRESSED:
            it = widgets.INTENTS.get(ev.ui_element)
            return [it] if it is not None else []
        if t in (
            pygame_gui.UI_DROP_DOWN_MENU_CHANGED,
            pygame_gui.UI_SELECTION_LIST_NEW_SELECTION,
            pygame_gui.UI_TEXT_ENTRY_CHANGED,
            pygame_gui.UI_SELECTION_LIST_DOUBLE_CLICKED_SELECTION,
        ):
            name = widgets.NAMES.get(ev.ui_element)
            if name is None:
                return []
            double = t == pygame_gui.UI_SELECTION_LIST_DOUBLE_CLICKED_SELECTION
            return [intent("ui", name=name, value=ev.text, double=double)]
        if t == pygame.KEYDOWN and typing:  # in a text box only Enter and Esc mean something to the scene
            if ev.key in (pygame.K_RETURN, pygame.K_KP_ENTER):
                return [intent("continue")]
            if ev.key == pygame.K_ESCAPE:
                return [intent("back")]
            return []
        if t == pygame.KEYDOWN and not typing:
            if ev.key == pygame.K_s and ev.mod & pygame.KMOD_CTRL:
                return [intent("save")]
            if ev.key in (pygame.K_PLUS, pygame.K_EQUALS, pygame.K_KP_PLUS):
                return [intent("zoom", factor=ZOOM_STEP, pos=None)]
            if ev.key in (pygame.K_MINUS, pygame.K_KP_MINUS):
                return [intent("zoom", factor=1 / ZOOM_STEP, pos=None)]
            if ev.key == pygame.K_PAGEDOWN or ev.key == pygame.K_PERIOD:
                return [intent("step", delta=1)]
            if ev.key == pygame.K_PAGEUP or ev.key == pygame.K_COMMA:
                return [intent("step", delta=-1)]
            if pygame.K_1 <= ev.key <= pygame.K_9:
                return [intent("hotkey", index=ev.key - pygame.K_1)]
            name = KEYS.get(ev.key)
            return [intent(name)] if name else []
        if consumed:
            return []
        if t == pygame.MOUSEMOTION:
            out = [intent("pointer", pos=ev.pos)]
            if ev.buttons[2] or ev.buttons[1]:  # right or middle drag pans
                out.append(intent("pan", dx=ev.rel[0], dy=ev.rel[1]))
            elif ev.buttons[0]:
                out.append(intent("drag", pos=ev.pos, rel=ev.rel))
            return out
        if t == pygame.MOUSEBUTTONDOWN and ev.button in (1, 2, 3):
            return [intent("press", pos=ev.pos, button=ev.button)]
        if t == pygame.MOUSEBUTTONUP and ev.button in (1, 2, 3):
            return [intent("release", pos=ev.pos, button=ev.button)]
        if t == pygame.MOUSEWHEEL:
            pos = pygame.mouse.get_pos()
            return [intent("scroll", pos=pos, dy=ev.precise_y if hasattr(ev, "precise_y") else ev.y)]
        return []
