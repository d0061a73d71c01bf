"""The Demo scene: a rule demonstration played step by step, with its geometry drawn to scale.

`paint_frame()` draws one frame (battlefield, overlays, caption, measurements, the engine's own
event lines and the rule text) onto any surface; the scene and the headless exporter
(game.ui.export) both use it. Keys: . / PgDn / Right next, , / PgUp / Left previous,
Space autoplay, Esc back.
"""

from __future__ import annotations

import pygame

from game.demos.geometry import Geometry
from game.demos.runner import DemoRun, Frame
from game.rules import query
from game.ui import theme
from game.ui.camera import Camera
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
                "unit", u.name, [("midtop", (cx, bottom)), ("midbottom", (cx, top))], theme.TEXT, PRI_NAME
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
            minx, _, maxx, maxy = ol.shape.bounds
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


def _wrap_lines(text: str, size: int, width: int) -> list[str]:
    return theme.wrap(text, size, width)


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


def _panel(surf, rect: pygame.Rect, run: DemoRun, frame: Frame, footer: str, reserve: int = 0) -> None:
    surf.fill(theme.PANEL, rect)
    pygame.draw.line(surf, theme.PANEL_EDGE, rect.topleft, rect.bottomleft, 2)
    bottom = rect.bottom - reserve  # the text stays above this line
    x, w = rect.x + 14, rect.w - 28
    y = rect.y + 12
    meta = run.demo.demo
    for line in _wrap_lines(meta.title, 20, w):
        surf.blit(theme.text(line, 20, theme.ACCENT, bold=True), (x, y))
        y += 24
    n = len(run.frames) - 1
    step = "Set-up" if frame.index == 0 else f"Step {frame.index} of {n}"
    sub = f"{step}   |   rules {', '.join(meta.rules)}   |   {meta.profile}"
    surf.blit(theme.text(sub, 14, theme.TEXT_DIM), (x, y))
    y += 24
    cap_col = theme.TEXT_BAD if frame.refused else theme.TEXT
    for para in frame.caption.split("\n"):
        colour = theme.TEXT_BAD if para.startswith("Refused:") else cap_col if not frame.refused else theme.TEXT
        for line in _wrap_lines(para, 17, w):
            surf.blit(theme.text(line, 17, colour), (x, y))
            y += 21
        y += 4
    if frame.geometry.notes:
        y += 4
        surf.blit(theme.text("Measured", 14, theme.RING_SPELL, bold=True), (x, y))
        y += 18
        for note in frame.geometry.notes[:6]:
            for line in _wrap_lines(note, 14, w - 8):
                surf.blit(theme.text(line, 14, theme.TEXT), (x + 8, y))
                y += 17
    if frame.events:
        y += 6
        surf.blit(theme.text("The engine", 14, theme.RING_SPELL, bold=True), (x, y))
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
        for line in _wrap_lines("MISMATCH: " + p, 13, w):
            surf.blit(theme.text(line, 13, theme.TEXT_BAD), (x, y))
            y += 16
    # the rule text panel: the first rule this step turns on
    rules = frame.rules or meta.rules
    title, text = rule_text(rules[0])
    if len(rules) > 1:
        title += f"   (also {', '.join(rules[1:4])})"
    lines = _wrap_lines(text, 13, w - 16)
    h = 34 + 16 * len(lines) + (20 if footer else 8)
    box = pygame.Rect(x - 4, bottom - h - 6, w + 8, h)
    if box.y > y:
        pygame.draw.rect(surf, (28, 30, 36), box, border_radius=6)
        pygame.draw.rect(surf, theme.ACCENT, box, 1, border_radius=6)
        surf.blit(theme.text(title, 14, theme.ACCENT, bold=True), (box.x + 8, box.y + 8))
        yy = box.y + 28
        for line in lines:
            surf.blit(theme.text(line, 13, theme.TEXT), (box.x + 8, yy))
            yy += 16
    if footer:
        t = theme.text(footer, 12, theme.TEXT_DIM)
        surf.blit(t, (x, bottom - t.get_height() - 6))


BUTTONS_STRIP = 66  # pixels at the foot of the panel: the key hint, then the buttons


class DemoScene(Scene):
    """Step through one demonstration: next, previous, autoplay."""

    def __init__(self, app, run: DemoRun, name: str = "") -> None:
        super().__init__(app)
        from game.ui import widgets

        self.run = run
        self.name = name or run.demo.demo.id
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
                ("< Prev", intent("step", delta=-1)),
                ("Next >", intent("step", delta=1)),
                ("Pause" if self.playing else "Autoplay", intent("toggle_play")),
                ("Back", intent("back")),
            )
        ):
            widgets.button((x + i * (bw + 6), y, bw, 36), label, self.manager, it)

    def on_resize(self, size) -> None:
        super().on_resize(size)
        self.renderer = None
        self.build()

    def go(self, delta: int) -> None:
        self.index = max(0, min(len(self.run.frames) - 1, self.index + delta))

    def handle(self, it: Intent) -> None:
        if it.kind == "quit":
            self.app.quit()
        elif it.kind == "back":
            self.app.pop()
        elif it.kind == "step":
            self.go(it.get("delta", 1))
        elif it.kind in ("toggle_play", "continue"):
            self.playing = not self.playing
            if self.playing and self.index >= len(self.run.frames) - 1:
                self.index = 0
            self.timer = 0.0
            self.build()
        elif it.kind == "screenshot":
            self.app.screenshot()

    def update(self, dt: float) -> None:
        if self.playing:
            self.timer += dt
            if self.timer >= AUTOPLAY_SECONDS:
                self.timer = 0.0
                if self.index < len(self.run.frames) - 1:
                    self.index += 1
                else:
                    self.playing = False
                    self.build()
        super().update(dt)

    def draw(self, surface) -> None:
        w, h = surface.get_size()
        pw = min(PANEL_W, max(300, w // 3))
        # the rule box ends above the key hint and the buttons
        self.renderer = paint_frame(surface, self.run, self.index, self.renderer, reserve=BUTTONS_STRIP)
        hint = theme.text(", / . step   Space autoplay   Esc back", 12, theme.TEXT_DIM)
        surface.blit(hint, (w - pw + 14, h - BUTTONS_STRIP + 2))
        self.manager.draw_ui(surface)


class DemoListScene(Scene):
    """The demonstrations grouped by rule: pick one to play it."""

    def __init__(self, app) -> None:
        super().__init__(app)
        from game.ui import widgets

        self.manager = widgets.new_manager(app.size)
        self.message = ""
        self.items: list[tuple[str, str]] = []  # (label, demo name)
        self.picked: str | None = None
        self._load()
        self.build()

    def _load(self) -> None:
        from game.demos.loader import demo_sources, load_demo
        from game.demos.schema import RULE_IDS

        by_rule: dict[str, list[tuple[str, str]]] = {r: [] for r in RULE_IDS}
        problems = []
        for name in demo_sources():
            try:
                d = load_demo(name)
            except Exception as exc:  # a broken file is reported, the rest still listed
                problems.append(str(exc).splitlines()[0])
                continue
            for r in d.demo.rules:
                by_rule[r].append((d.demo.title, name))
        for r in RULE_IDS:
            for title, name in by_rule[r]:
                self.items.append((f"{r}: {title}", name))
        if problems:
            self.message = problems[0]

    def build(self) -> None:
        from pygame_gui.elements import UISelectionList

        from game.ui import widgets

        m = self.manager
        m.clear_and_reset()
        w, h = self.app.size
        rect = pygame.Rect(w // 2 - 360, 120, 720, max(200, h - 260))
        widgets.named(UISelectionList(rect, [label for label, _ in self.items], manager=m), "demo")
        widgets.button((rect.x, rect.bottom + 14, 200, 42), "Back", m, intent("back"), object_id="#menu_button")
        widgets.button(
            (rect.right - 200, rect.bottom + 14, 200, 42), "Play", m, intent("open"), object_id="#menu_button"
        )

    def on_resize(self, size) -> None:
        super().on_resize(size)
        self.build()

    def handle(self, it: Intent) -> None:
        if it.kind == "quit":
            self.app.quit()
        elif it.kind == "back":
            self.app.pop()
        elif it.kind == "ui" and it.get("name") == "demo":
            self.picked = dict(self.items).get(it.get("value"))
            if it.get("double"):
                self.open()
        elif it.kind in ("open", "continue"):
            self.open()

    def open(self, name: str | None = None) -> None:
        name = name or self.picked
        if not name:
            self.message = "Pick a demonstration first."
            return
        from game.demos import load_demo, run_demo

        try:
            run = run_demo(load_demo(name))
        except Exception as exc:
            self.message = f"cannot open {name}: {exc}"
            return
        self.app.push(DemoScene(self.app, run, name))

    def draw(self, surface) -> None:
        surface.fill(theme.BG)
        w, h = surface.get_size()
        t = theme.text("Rule demonstrations", 32, theme.ACCENT, bold=True)
        surface.blit(t, (w / 2 - t.get_width() / 2, 50))
        s = theme.text("Each one plays through the engine, step by step, drawn to scale.", 15, theme.TEXT_DIM)
        surface.blit(s, (w / 2 - s.get_width() / 2, 90))
        if self.message:
            m = theme.text(self.message, 15, theme.TEXT_BAD)
            surface.blit(m, (w / 2 - m.get_width() / 2, h - 40))
        self.manager.draw_ui(surface)
