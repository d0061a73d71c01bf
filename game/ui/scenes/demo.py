"""The Demo scene: a rule demonstration played step by step, with its geometry drawn to scale.

`paint_frame()` draws one frame (battlefield, overlays, caption, measurements, the engine's own
event lines and the rule text) onto any surface; the scene and the headless exporter
(game.ui.export) both use it. Keys: . / PgDn / Right next, , / PgUp / Left previous,
Space autoplay, Esc back.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import pygame

from game.content_words import content_name as cn
from game.demos.geometry import Geometry
from game.demos.runner import DemoRun, Frame
from game.i18n import N_, _
from game.rules import query
from game.ui import theme
from game.ui.camera import Camera
from game.ui.engine_words import engine_text
from game.ui.intents import Intent, intent
from game.ui.labels import event_line
from game.ui.render.field import PRI_MARK, PRI_NAME, FieldRenderer, Overlays, Ring, circle
from game.ui.render.overlays import Region, draw_marks
from game.ui.rule_texts import rule_text
from game.ui.scenes.base import Scene

COLOURS = {  # theme names, looked up when drawn: the palette setting may swap them
    "spell": "RING_SPELL",
    "unbind": "RING_UNBIND",
    "control": "RING_CONTROL",
    "move": "RING_MOVE",
    "reach": "RING_REACH",
    "good": "SIGHT_CLEAR",
    "bad": "SIGHT_BLOCKED",
    "ruler": "RULER",
}
PANEL_W = 430
AUTOPLAY_SECONDS = 2.5


def _col(name: str):
    return getattr(theme, COLOURS.get(name, "RULER"))


def _label(renderer: FieldRenderer, text: str, at, colour, size: int = 14) -> None:
    """A caption chip centred on `at`, placed by the renderer's label layout (no overlaps)."""
    at = (round(at[0]), round(at[1]))
    renderer.add_label(renderer.text_label("demo", text, [("center", at)], colour, PRI_MARK, size, True, anchor=at))


def draw_geometry(surf, state, renderer: FieldRenderer, geo: Geometry) -> None:
    """Lines, paths and ghosts on top of the battlefield (rings go through the renderer)."""
    cam = renderer.camera
    for _uid, u in state.units.items():  # names under the bases, so captions can refer to them
        live = u.live_models()
        if not live:
            continue
        r = query.radius_of(state, u.id) * cam.scale
        xs = [cam.to_screen(m.x, m.y) for _, m in live]
        cx = sum(p[0] for p in xs) / len(xs)
        bottom = max(p[1] for p in xs) + r + 8
        top = min(p[1] for p in xs) - r - 8
        renderer.add_label(
            renderer.text_label(
                "unit", cn(u.name), [("midtop", (cx, bottom)), ("midbottom", (cx, top))], theme.TEXT, PRI_NAME
            )
        )
    for mid, colour in geo.highlight.items():
        if mid in state.manifestations:
            from game.rules.query import manifestation_shape

            renderer._draw_shape(surf, manifestation_shape(state, mid), (0, 0, 0, 0), _col(colour), 4)
    for gh in geo.ghosts:
        col = theme.GHOST_OK if gh.ok else theme.GHOST_BAD
        renderer._draw_shape(surf, gh.shape, (*col, 70), col, 2)
    for ol in geo.outlines:
        draw_marks(renderer, surf, [Region(ol.shape, _col(ol.colour), alpha=60 if ol.fill else 0)])
        if ol.label:
            minx, _miny, maxx, maxy = ol.shape.bounds
            _label(renderer, ol.label, cam.to_screen((minx + maxx) / 2, maxy), _col(ol.colour))
    for p in geo.paths:
        pts = [cam.to_screen(*q) for q in p.points]
        pygame.draw.lines(surf, (0, 0, 0), False, pts, 5)
        pygame.draw.lines(surf, _col(p.colour), False, pts, 2)
        circle(surf, _col(p.colour), pts[-1], 4)
        if p.label:
            _label(renderer, p.label, pts[-1], _col(p.colour))
    for ln in geo.lines:
        a, b = cam.to_screen(*ln.a), cam.to_screen(*ln.b)
        pygame.draw.line(surf, (0, 0, 0), a, b, 5)
        pygame.draw.line(surf, _col(ln.colour), a, b, 2)
        for q in (a, b):
            circle(surf, _col(ln.colour), q, 3)
        if ln.label:
            mx, my = (a[0] + b[0]) / 2, (a[1] + b[1]) / 2
            _label(renderer, ln.label, (mx, my - 12), _col(ln.colour), 15)


def _wrap_lines(text: str, size: int, width: int, bold: bool = False) -> list[str]:
    """`text` in lines that fit `width` pixels in the face it is drawn in (a bold title is
    wider than its regular measure: measured regular, it ran off the panel)."""
    return theme.wrap(text, size, width, bold)


def paint_frame(
    surface: pygame.Surface,
    run: DemoRun,
    index: int,
    renderer: FieldRenderer | None = None,
    footer: str = "",
    reserve: int = 0,
) -> FieldRenderer:
    """Draw frame `index` of `run` onto `surface`; returns the renderer (reuse it between frames).

    `reserve`: pixels at the foot of the panel to leave empty (the scene's buttons go there)."""
    frame: Frame = run.frames[index]
    state = frame.state
    W, H = surface.get_size()
    pw = min(PANEL_W, max(300, W // 3))
    field_rect = pygame.Rect(0, 0, W - pw, H)
    bmap = state.game.battlefield.map
    if (
        renderer is None
        or renderer.camera.viewport.size != field_rect.size
        or renderer.camera.world != (bmap.width, bmap.height)
    ):
        renderer = FieldRenderer(Camera(pygame.Rect(0, 0, field_rect.w, field_rect.h), (bmap.width, bmap.height)))
    sub = surface.subsurface(field_rect)
    geo = frame.geometry
    ov = Overlays()
    ov.rings = [Ring(r.x, r.y, r.radius, _col(r.colour), r.label, 2) for r in geo.rings]
    ov.highlight_units = {k: _col(v) for k, v in geo.highlight.items() if k in state.units}
    renderer.draw(sub, state, ov, version=None, flush=False)
    draw_geometry(sub, state, renderer, geo)
    renderer.flush_labels(sub)  # the demonstration's captions share the battlefield's one label layout
    _panel(surface, pygame.Rect(W - pw, 0, pw, H), run, frame, footer, reserve)
    return renderer


def _caption(frame: Frame) -> str:
    """The frame's caption with the engine's refusal (English in the frame, as the engine said it)
    worded in the language in use (issue 22): the screen and the GIF never show it in English."""
    caption = frame.caption
    if frame.refused:
        said = _("Refused: {reason}").format(reason=frame.refused)
        if caption.endswith(said):
            worded = _("Refused: {reason}").format(reason=engine_text(frame.refused, frame.state))
            caption = caption[: -len(said)] + worded
    return caption


def _panel(surf, rect: pygame.Rect, run: DemoRun, frame: Frame, footer: str, reserve: int = 0) -> None:
    surf.fill(theme.PANEL, rect)
    pygame.draw.line(surf, theme.PANEL_EDGE, rect.topleft, rect.bottomleft, 2)
    bottom = rect.bottom - reserve  # the text stays above this line
    x, w = rect.x + 14, rect.w - 28
    y = rect.y + 12
    meta = run.demo.demo
    for line in _wrap_lines(meta.title, 20, w, bold=True):
        surf.blit(theme.text(line, 20, theme.ACCENT, bold=True), (x, y))
        y += 24
    n = len(run.frames) - 1
    step = _("Set-up") if frame.index == 0 else _("Step {index} of {n}").format(index=frame.index, n=n)
    profile = {name: title for name, title, _d in query.profile_choices()}.get(meta.profile, meta.profile)
    sub = _("{step}   |   rules {rules}   |   {profile}").format(
        step=step, rules=", ".join(meta.rules), profile=_(profile)
    )
    for line in _wrap_lines(sub, 14, w):  # wraps, never clips (a narrow GIF too)
        surf.blit(theme.text(line, 14, theme.TEXT_DIM), (x, y))
        y += 18
    y += 6
    cap_col = theme.TEXT_BAD if frame.refused else theme.TEXT
    for para in _caption(frame).split("\n"):
        refused = para.startswith("Refused:") or para.startswith(_("Refused:"))
        colour = theme.TEXT_BAD if refused else cap_col if not frame.refused else theme.TEXT
        for line in _wrap_lines(para, 17, w):
            surf.blit(theme.text(line, 17, colour), (x, y))
            y += 21
        y += 4
    if frame.geometry.notes:
        y += 4
        surf.blit(theme.text(_("Measured"), 14, theme.RING_SPELL, bold=True), (x, y))
        y += 18
        for note in frame.geometry.notes[:6]:
            for line in _wrap_lines(note, 14, w - 8):
                surf.blit(theme.text(line, 14, theme.TEXT), (x + 8, y))
                y += 17
    if frame.events:
        y += 6
        surf.blit(theme.text(_("The engine"), 14, theme.RING_SPELL, bold=True), (x, y))
        y += 18
        shown = 0
        for ev in frame.events:
            if ev.type in ("PhaseStarted", "PhaseEnded") and len(frame.events) > 8:
                continue
            try:
                text = f"{event_line(frame.state, ev)} ({ev.rule})"
            except Exception:
                text = f"{ev.type} ({getattr(ev, 'rule', '')})"
            for line in _wrap_lines(text, 13, w - 8):
                if y > bottom - 170:
                    break
                surf.blit(theme.text(line, 13, theme.TEXT_DIM), (x + 8, y))
                y += 16
            shown += 1
    for p in frame.problems[:3]:
        for line in _wrap_lines(_("MISMATCH: {problem}").format(problem=p), 13, w):
            surf.blit(theme.text(line, 13, theme.TEXT_BAD), (x, y))
            y += 16
    # the rule text panel: the first rule this step turns on
    rules = frame.rules or meta.rules
    title, text = rule_text(rules[0])
    if len(rules) > 1:
        title += _("   (also {rules})").format(rules=", ".join(rules[1:4]))
    lines = _wrap_lines(text, 13, w - 16)
    heads = _wrap_lines(title, 14, w - 16, bold=True)
    feet = _wrap_lines(footer, 12, w) if footer else []
    h = 14 + 20 * len(heads) + 16 * len(lines) + (16 * len(feet) + 4 if feet else 8)
    box = pygame.Rect(x - 4, bottom - h - 6, w + 8, h)
    if box.y > y:
        pygame.draw.rect(surf, (28, 30, 36), box, border_radius=6)
        pygame.draw.rect(surf, theme.ACCENT, box, 1, border_radius=6)
        yy = box.y + 8
        for line in heads:
            surf.blit(theme.text(line, 14, theme.ACCENT, bold=True), (box.x + 8, yy))
            yy += 20
        for line in lines:
            surf.blit(theme.text(line, 13, theme.TEXT), (box.x + 8, yy))
            yy += 16
    for i, line in enumerate(feet):
        t = theme.text(line, 12, theme.TEXT_DIM)
        surf.blit(t, (x, bottom - 6 - 16 * (len(feet) - i)))


BUTTONS_STRIP = 66  # pixels at the foot of the panel: the key hint, then the buttons


class DemoScene(Scene):
    """Step through one demonstration: next, previous, autoplay."""

    def __init__(self, app, run: DemoRun, name: str = "", sequence: list[str] | None = None) -> None:
        super().__init__(app)
        from game.ui import widgets

        self.run = run
        self.name = name or run.demo.demo.id
        self.sequence = list(sequence or [self.name])  # the list it was opened from: "next demonstration"
        self.message = ""
        self.index = 0
        self.playing = False
        self.timer = 0.0
        self.renderer: FieldRenderer | None = None
        self.manager = widgets.new_manager(app.size)
        self.build()

    def build(self) -> None:
        from game.ui import widgets

        self.manager.clear_and_reset()
        w, h = self.app.size
        pw = min(PANEL_W, max(300, w // 3))
        x = w - pw + 14
        bw = (pw - 28 - 3 * 6) // 4
        y = h - 44
        for i, (label, it) in enumerate(
            (
                (_("< Prev"), intent("step", delta=-1)),
                (_("Next >"), intent("step", delta=1)),
                (_("Pause") if self.playing else _("Autoplay"), intent("toggle_play")),
                (_("Back"), intent("back")),
            )
        ):
            widgets.button((x + i * (bw + 6), y, bw, 36), label, self.manager, it)
        self.last_shown = self.at_end()
        if self.last_shown:  # the last step offers the demonstration again, or the next one
            half = (pw - 28 - 6) // 2
            y -= 44
            widgets.button((x, y, half, 36), _("Again"), self.manager, intent("again"))
            nxt = self.next_name()
            tip = _("next: {title}").format(title=self.title_of(nxt)) if nxt else None
            widgets.button(
                (x + half + 6, y, half, 36), _("Next demonstration"), self.manager, intent("next_demo"), tooltip=tip
            )

    def at_end(self) -> bool:
        return self.index >= len(self.run.frames) - 1

    def strip(self) -> int:
        """Pixels at the panel's foot for the key hint and the buttons (a row more at the end)."""
        return BUTTONS_STRIP + (44 if self.at_end() else 0)

    def next_name(self) -> str | None:
        """The demonstration after this one in the list it came from (round to the first)."""
        if len(self.sequence) < 2:
            return None
        i = self.sequence.index(self.name) if self.name in self.sequence else -1
        return self.sequence[(i + 1) % len(self.sequence)]

    @staticmethod
    def title_of(name: str | None) -> str:
        from game.demos import load_demo

        try:
            return _(load_demo(name).demo.title) if name else ""
        except Exception:
            return _("another demonstration")

    def next_demo(self) -> None:
        nxt = self.next_name()
        if nxt is None:
            self.app.pop()  # the only one shown: back to the list
            return
        from game.demos import load_demo, run_demo

        try:
            run = run_demo(load_demo(nxt))
        except Exception as exc:
            self.message = _("Cannot open the next demonstration: {problem}").format(problem=exc)
            return
        self.app.replace(DemoScene(self.app, run, nxt, self.sequence))

    def on_resize(self, size) -> None:
        super().on_resize(size)
        self.renderer = None
        self.build()

    def on_language(self) -> None:
        """A new language (L, the menu's button): the title, captions, step texts and measured
        lines are made as the demonstration is played, so play it again in the new language (its
        dice are scripted: the same frames) and stay on the step shown, playing or paused."""
        from game.demos import load_demo, run_demo

        try:
            run = run_demo(load_demo(self.name))
        except Exception:  # a file that changed on disk since: keep the frames as they are
            run = None
        if run is not None and len(run.frames) == len(self.run.frames):
            self.run = run
        self.message = ""
        self.on_resize(self.app.size)

    def go(self, delta: int) -> None:
        self.index = max(0, min(len(self.run.frames) - 1, self.index + delta))
        if self.at_end() != self.last_shown:
            self.build()

    def handle(self, it: Intent) -> None:
        if getattr(self, "keys_open", False) and it.kind in ("help", "back", "continue", "press"):
            self.keys_open = False  # H, Esc, Enter or a click closes the key table
            return
        if it.kind == "quit":
            self.app.quit()
        elif it.kind == "help":
            self.keys_open = True
        elif it.kind == "back":
            self.app.pop()
        elif it.kind == "step":
            self.go(it.get("delta", 1))
        elif it.kind == "again":
            self.playing = False
            self.go(-len(self.run.frames))
        elif it.kind == "next_demo":
            self.next_demo()
        elif it.kind in ("toggle_play", "continue"):
            self.playing = not self.playing
            if self.playing and self.at_end():
                self.index = 0
            self.timer = 0.0
            self.build()
        elif it.kind == "screenshot":
            from game.data.safe_io import OutputError

            try:
                self.message = _("screenshot saved: {path}").format(path=self.app.screenshot())
            except OutputError as exc:
                self.message = _("no screenshot: {problem}").format(problem=exc)

    def update(self, dt: float) -> None:
        if self.playing:
            self.timer += dt
            if self.timer >= AUTOPLAY_SECONDS:
                self.timer = 0.0
                if self.index < len(self.run.frames) - 1:
                    self.go(1)
                if self.at_end():
                    self.playing = False
                    self.build()
        super().update(dt)

    def draw(self, surface) -> None:
        w, h = surface.get_size()
        pw = min(PANEL_W, max(300, w // 3))
        # the rule box ends above the key hint and the buttons
        strip = self.strip()
        self.renderer = paint_frame(surface, self.run, self.index, self.renderer, reserve=strip)
        hint = theme.text(_(", / . step   Space autoplay   H keys   Esc back"), 12, theme.TEXT_DIM)
        surface.blit(hint, (w - pw + 14, h - strip + 2))
        if self.message:
            m = theme.text(self.message, 13, theme.TEXT_BAD)
            surface.blit(m, (w - pw + 14, h - strip - m.get_height() - 2))
        self.manager.draw_ui(surface)
        if getattr(self, "keys_open", False):
            from game.ui import keys_help
            from game.ui.input import RULE_DEMO

            keys_help.draw(surface, surface.get_rect(), RULE_DEMO)


#: Rule families by the rule ID's letter, in the list's order (RULES.md's sections).
FAMILIES = [("M", N_("Magic")), ("E", N_("Endless spells")), ("G", N_("Geometry")), ("R", N_("Core"))]
CHIP_COLOURS = {"M": "WIZARD", "E": "RING_CONTROL", "G": "RING_REACH", "R": "TEXT_DIM"}  # theme names
TITLE_SIZE, CHIP_SIZE, HEAD_SIZE = 16, 13, 18


def family_of(rule: str) -> str:
    """The family name of a rule ID: M Magic, E Endless spells, G Geometry, R Core."""
    return dict(FAMILIES).get(rule[:1].upper(), "Core")


@dataclass(frozen=True)
class DemoEntry:
    """One row of the list: a demonstration and the rule IDs it shows (its first rule's family
    places it)."""

    name: str
    title: str
    rules: tuple[str, ...]

    @property
    def family(self) -> str:
        return family_of(self.rules[0]) if self.rules else "Core"

    def matches(self, query: str) -> bool:
        """Every word of `query` names one of its rules (E7: exactly, so E1 is not E10) or is in
        its title or file name (summon)."""
        for word in query.lower().split():
            if re.fullmatch(r"[a-z]\d+", word):
                if word not in (r.lower() for r in self.rules):
                    return False
            elif word not in self.title.lower() and word not in _(self.title).lower() and word not in self.name.lower():
                return False
        return True


def load_entries() -> tuple[list[DemoEntry], list[str]]:
    """Every demonstration, grouped by family then in file order; and the problems of those
    that would not load (reported, the rest still listed)."""
    from game.demos.loader import demo_sources, load_demo

    found, problems = [], []
    for name in demo_sources():
        try:
            d = load_demo(name)
        except Exception as exc:
            problems.append(str(exc).splitlines()[0])
            continue
        found.append(DemoEntry(name, d.demo.title, tuple(d.demo.rules)))
    order = [f for _, f in FAMILIES]

    def place(e: DemoEntry) -> tuple[int, int, str]:  # by family, then by its first rule's number
        num = re.sub(r"\D", "", e.rules[0]) if e.rules else ""
        return (order.index(e.family) if e.family in order else len(order), int(num or 0), e.name)

    found.sort(key=place)
    return found, problems


@dataclass
class ListRow:
    """A laid-out row in list coordinates: a family heading (entry None) or a demonstration."""

    y: int
    h: int
    text: list[str]
    entry: DemoEntry | None = None


class DemoListScene(Scene):
    """The demonstrations, one row each with its rule chips, grouped Magic / Endless spells /
    Geometry / Core; a filter box keeps the rows whose rules or words match. Click a row to play
    it; Enter plays the first row shown."""

    def __init__(self, app) -> None:
        super().__init__(app)
        from game.ui import widgets

        self.manager = widgets.new_manager(app.size)
        self.entries, problems = load_entries()
        self.message = problems[0] if problems else ""
        self.query = ""
        self.scroll = 0
        self.hover: DemoEntry | None = None
        self.rows: list[ListRow] = []
        self.build()

    # --- layout ---------------------------------------------------------------------------

    def build(self) -> None:
        from pygame_gui.elements import UILabel, UITextEntryLine

        from game.ui import widgets

        m = self.manager
        m.clear_and_reset()
        w, h = self.app.size
        lw = min(820, w - 40)
        x = w // 2 - lw // 2
        UILabel(pygame.Rect(x, 112, 70, 34), _("Filter"), manager=m, object_id="#form_label")
        entry = UITextEntryLine(pygame.Rect(x + 80, 112, min(360, lw - 280), 34), manager=m, initial_text=self.query)
        entry.set_text(self.query)
        widgets.named(entry, "filter")
        self.list_rect = pygame.Rect(x, 158, lw, max(120, h - 158 - 70))
        widgets.button((x, self.list_rect.bottom + 14, 200, 42), _("Back"), m, intent("back"), object_id="#menu_button")
        self.layout()

    def shown(self) -> list[DemoEntry]:
        """The demonstrations the filter keeps, in the list's order."""
        return [e for e in self.entries if e.matches(self.query)]

    def chips_width(self, entry: DemoEntry) -> int:
        return sum(_chip_text(r).get_width() + 14 + 6 for r in entry.rules)

    def layout(self) -> None:
        """Rows in list coordinates: a heading per family present, then its demonstrations."""
        self.rows = []
        y = 0
        family = None
        for e in self.shown():
            if e.family != family:
                family = e.family
                y += 6 if self.rows else 0
                self.rows.append(ListRow(y, 30, [_(family)]))
                y += 30
            lines = theme.wrap(_(e.title), TITLE_SIZE, self.list_rect.w - self.chips_width(e) - 40)
            hgt = max(22, 21 * len(lines)) + 12
            self.rows.append(ListRow(y, hgt, lines, e))
            y += hgt
        self.content_h = y
        self.scroll = max(0, min(self.scroll, self.content_h - self.list_rect.h))

    def row_at(self, pos) -> DemoEntry | None:
        if not self.list_rect.collidepoint(pos):
            return None
        ly = pos[1] - self.list_rect.y + self.scroll
        return next((r.entry for r in self.rows if r.entry and r.y <= ly < r.y + r.h), None)

    def on_resize(self, size) -> None:
        super().on_resize(size)
        self.build()

    # --- input ----------------------------------------------------------------------------

    def handle(self, it: Intent) -> None:
        if it.kind == "quit":
            self.app.quit()
        elif it.kind == "back":
            self.app.pop()
        elif it.kind == "ui" and it.get("name") == "filter":
            self.query = it.get("value") or ""
            self.scroll = 0
            self.layout()
        elif it.kind == "pointer":
            self.hover = self.row_at(it.get("pos"))
        elif it.kind == "press" and it.get("button") == 1:
            picked = self.row_at(it.get("pos"))
            if picked is not None:
                self.open(picked.name)
        elif it.kind == "scroll" and self.list_rect.collidepoint(it.get("pos")):
            top = max(0, self.content_h - self.list_rect.h)
            self.scroll = int(max(0, min(top, self.scroll - it.get("dy") * 40)))
        elif it.kind in ("open", "continue"):
            shown = self.shown()
            if shown:
                self.open((self.hover or shown[0]).name)
            else:
                self.message = _("No demonstration matches the filter.")

    def open(self, name: str) -> None:
        from game.demos import load_demo, run_demo

        try:
            run = run_demo(load_demo(name))
        except Exception as exc:
            self.message = _("Cannot open that demonstration: {problem}").format(problem=exc)
            return
        self.app.push(DemoScene(self.app, run, name, [e.name for e in self.shown()]))

    # --- drawing --------------------------------------------------------------------------

    def draw(self, surface) -> None:
        surface.fill(theme.BG)
        w, h = surface.get_size()
        t = theme.text(_("Rule demonstrations"), 32, theme.ACCENT, bold=True)
        surface.blit(t, (w / 2 - t.get_width() / 2, 30))
        s = theme.text(
            _("Each one plays through the engine, step by step, drawn to scale. Click one to play it."),
            15,
            theme.TEXT_DIM,
        )
        surface.blit(s, (w / 2 - s.get_width() / 2, 72))
        n, total = len(self.shown()), len(self.entries)
        count = (
            _("{total} demonstrations").format(total=total)
            if not self.query.strip()
            else _("{n} of {total} match").format(n=n, total=total)
        )
        c = theme.text(count, 15, theme.TEXT_DIM)
        lr = self.list_rect
        surface.blit(c, (lr.right - c.get_width(), 120))
        self.draw_rows(surface)
        if self.message:
            m = theme.text(self.message, 15, theme.TEXT_BAD)
            surface.blit(m, (w / 2 - m.get_width() / 2, h - 40))
        self.manager.draw_ui(surface)

    def draw_rows(self, surface) -> None:
        lr = self.list_rect
        pygame.draw.rect(surface, theme.PANEL, lr, border_radius=6)
        old_clip = surface.get_clip()
        surface.set_clip(lr)
        if not self.rows:
            t = theme.text(_("No demonstration matches the filter."), 16, theme.TEXT_DIM)
            surface.blit(t, (lr.x + 16, lr.y + 14))
        for row in self.rows:
            y = lr.y + row.y - self.scroll
            if y + row.h < lr.y or y > lr.bottom:
                continue
            if row.entry is None:
                surface.blit(theme.text(row.text[0], HEAD_SIZE, theme.ACCENT, bold=True), (lr.x + 12, y + 5))
                continue
            if row.entry is self.hover:
                pygame.draw.rect(surface, (52, 57, 68), (lr.x + 4, y + 1, lr.w - 8, row.h - 2), border_radius=4)
            for i, line in enumerate(row.text):
                surface.blit(theme.text(line, TITLE_SIZE, theme.TEXT), (lr.x + 24, y + 6 + 21 * i))
            self.draw_chips(surface, row.entry, lr.right - 12, y + 7)
        surface.set_clip(old_clip)
        if self.content_h > lr.h:  # a scroll bar says there is more
            bar_h = max(30, lr.h * lr.h // self.content_h)
            bar_y = lr.y + (lr.h - bar_h) * self.scroll // max(1, self.content_h - lr.h)
            pygame.draw.rect(surface, theme.PANEL_EDGE, (lr.right - 6, bar_y, 4, bar_h), border_radius=2)

    def draw_chips(self, surface, entry: DemoEntry, right: int, y: int) -> None:
        """The rule IDs as small coloured chips, right-aligned, in the demonstration's order."""
        x = right - self.chips_width(entry) + 6
        for r in entry.rules:
            t = _chip_text(r)
            box = pygame.Rect(x, y, t.get_width() + 14, t.get_height() + 4)
            pygame.draw.rect(surface, getattr(theme, CHIP_COLOURS.get(r[:1].upper(), "TEXT_DIM")), box, border_radius=9)
            surface.blit(t, (x + 7, y + 2))
            x += box.w + 6


def _chip_text(rule: str) -> pygame.Surface:
    return theme.text(rule, CHIP_SIZE, theme.BG, bold=True)  # cached by theme.text
