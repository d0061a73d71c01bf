"""Menus on pygame-gui: main menu, new hotseat game, load a save, pick a replay."""

from __future__ import annotations

import random
from pathlib import Path

import pygame
from pygame_gui.elements import UIDropDownMenu, UILabel, UISelectionList, UITextEntryLine

from game.data.content import DEFAULT_MAP, default_content, list_maps
from game.ui import theme, widgets
from game.ui.intents import Intent, intent
from game.ui.scenes.base import Scene

BW, BH = 320, 44


# The menu's palette button says which colours are on (theme.use_palette; --palette at start-up).
PALETTE_LABELS = {"default": "Colours: standard", "okabe_ito": "Colours: colour-blind safe"}


class MenuScene(Scene):
    def __init__(self, app) -> None:
        super().__init__(app)
        self.manager = widgets.new_manager(app.size)
        self.message = ""
        self.build()

    def build(self) -> None:
        self.manager.clear_and_reset()
        w, h = self.app.size
        x = w // 2 - BW // 2
        y = max(200, h // 2 - 150)
        items = [
            ("New hotseat game", intent("menu", go="new")),
            ("Play vs AI", intent("menu", go="vs_ai")),
            ("Resume", intent("menu", go="resume")),
            ("Load", intent("menu", go="load")),
            ("Replays", intent("menu", go="replays")),
            ("Watch the AI (demo)", intent("menu", go="demo")),
            ("Rule demonstrations", intent("menu", go="demos")),
            (PALETTE_LABELS[theme.PALETTE], intent("menu", go="palette")),
            ("Quit", intent("quit")),
        ]
        gap = 10 if h >= 720 else 4  # nine buttons fit a 650px window too
        self.buttons_top = y
        for label, it in items:
            widgets.button((x, y, BW, BH), label, self.manager, it, object_id="#menu_button")
            y += BH + gap
        self.buttons_bottom = y - gap

    def on_resize(self, size) -> None:
        super().on_resize(size)
        self.build()

    def handle(self, it: Intent) -> None:
        if it.kind in ("quit",):
            self.app.quit()
        elif it.kind == "back":
            self.app.quit()
        elif it.kind == "screenshot":
            from game.data.safe_io import OutputError

            try:
                self.message = f"screenshot saved: {self.app.screenshot()}"
            except OutputError as exc:  # e.g. a read-only folder: say so, never crash
                self.message = f"no screenshot: {exc}"
        elif it.kind == "menu":
            go = it.get("go")
            if go == "new":
                self.app.push(NewGameScene(self.app))
            elif go == "vs_ai":
                self.app.push(VsAIScene(self.app))
            elif go == "resume":
                problem, note = self.app.resume(include_saves=True)  # the previous autosave if the latest is damaged
                said = problem or note or ""
                self.message = said[:1].upper() + said[1:]
            elif go in ("load", "replays"):  # one row per game, in words (game.ui.scenes.saves)
                from game.ui.scenes.saves import SavesScene

                self.app.push(SavesScene(self.app, "save" if go == "load" else "replay"))
            elif go == "demo":
                self.app.start_battle(self.app.default_options(), demo=True)
            elif go == "palette":  # colour is never the only signal; this makes the colours safe too
                from game.ui import settings

                key = theme.use_palette("default" if theme.PALETTE == "okabe_ito" else "okabe_ito")
                problem = settings.put("palette", key)  # remembered for the next session
                self.build()
                if problem:
                    self.message = problem
            elif go == "demos":
                from game.ui.scenes.demo import DemoListScene

                self.app.push(DemoListScene(self.app))

    def draw(self, surface) -> None:
        surface.fill(theme.BG)
        w, h = surface.get_size()
        t = theme.text("Spellfield", 56, theme.ACCENT, bold=True)
        surface.blit(t, (w / 2 - t.get_width() / 2, max(40, h // 2 - 290)))
        s = theme.text("wargame magic on a measured battlefield", 18, theme.TEXT_DIM)
        surface.blit(s, (w / 2 - s.get_width() / 2, max(40, h // 2 - 290) + t.get_height() + 4))
        if self.message:  # below the buttons, or above them when the window is too short
            m = theme.text(self.message, 16, theme.TEXT_BAD)
            below = self.buttons_bottom + 10
            my = below if below + m.get_height() <= h - 4 else self.buttons_top - m.get_height() - 8
            surface.blit(m, (w / 2 - m.get_width() / 2, my))
        self.manager.draw_ui(surface)


class NewGameScene(Scene):
    """Choose map, armies, profile and seed, then start a hotseat battle."""

    def __init__(self, app) -> None:
        super().__init__(app)
        self.manager = widgets.new_manager(app.size)
        opts = app.default_options()
        self.choice = {
            "map": opts["map"] or DEFAULT_MAP,
            "army1": opts["armies"][0],
            "army2": opts["armies"][1],
            "profile": opts["profile"],
            "seed": str(opts["seed"]),
        }
        self.message = ""
        self.build()

    def build(self) -> None:
        m = self.manager
        m.clear_and_reset()
        w, h = self.app.size
        x0 = w // 2 - 260
        y = max(140, h // 2 - 220)
        armies = sorted(default_content().armies)
        maps = list_maps()
        if self.choice["map"] not in maps:
            maps.append(self.choice["map"])
        rows = [
            ("Map", "map", maps),
            ("Player 1 army", "army1", armies),
            ("Player 2 army", "army2", armies),
            ("Rules profile", "profile", ["aos4", "aos3"]),
        ]
        for label, key, values in rows:
            UILabel(pygame.Rect(x0, y, 180, 36), label, manager=m, object_id="#form_label")
            widgets.named(UIDropDownMenu(values, self.choice[key], pygame.Rect(x0 + 190, y, 330, 36), manager=m), key)
            y += 50
        UILabel(pygame.Rect(x0, y, 180, 36), "Seed", manager=m, object_id="#form_label")
        entry = UITextEntryLine(pygame.Rect(x0 + 190, y, 220, 36), manager=m, initial_text=self.choice["seed"])
        widgets.named(entry, "seed")
        widgets.button((x0 + 420, y, 100, 36), "Random", m, intent("reseed"))
        y += 70
        widgets.button((x0 + 190, y, 330, 46), "Start hotseat battle", m, intent("start"), object_id="#menu_button")
        widgets.button((x0, y, 170, 46), "Back", m, intent("back"), object_id="#menu_button")

    def on_resize(self, size) -> None:
        super().on_resize(size)
        self.build()

    def handle(self, it: Intent) -> None:
        if it.kind == "quit":
            self.app.quit()
        elif it.kind == "back":
            self.app.pop()
        elif it.kind == "ui":
            self.choice[it.get("name")] = it.get("value")
        elif it.kind == "reseed":
            self.choice["seed"] = str(random.randint(1, 99999))
            self.build()
        elif it.kind in ("start", "continue"):
            try:
                seed = int(self.choice["seed"])
            except ValueError:
                self.message = f"the seed must be a whole number, got {self.choice['seed']!r}"
                return
            opts = {
                "map": self.choice["map"],
                "armies": (self.choice["army1"], self.choice["army2"]),
                "profile": self.choice["profile"],
                "seed": seed,
            }
            err = self.app.start_battle(opts, replace=True)
            if err:
                self.message = err

    def draw(self, surface) -> None:
        draw_form(surface, "New hotseat game", 300, self.message, self.manager)


def draw_form(surface, title: str, above_centre: int, message: str, manager) -> None:
    """A form screen: its title, its widgets and, at the bottom, what went wrong."""
    surface.fill(theme.BG)
    w, h = surface.get_size()
    t = theme.text(title, 34, theme.ACCENT, bold=True)
    surface.blit(t, (w / 2 - t.get_width() / 2, max(60, h // 2 - above_centre)))
    if message:
        m = theme.text(message, 15, theme.TEXT_BAD)
        surface.blit(m, (w / 2 - m.get_width() / 2, h - 60))
    manager.draw_ui(surface)


class VsAIScene(Scene):
    """Solo play: choose the AI's level and your side, then start against the AI."""

    LEVELS = ["normal", "hard", "random"]
    SIDES = ["Player 1 (first army)", "Player 2 (second army)"]

    def __init__(self, app) -> None:
        super().__init__(app)
        self.manager = widgets.new_manager(app.size)
        self.choice = {"level": "normal", "side": self.SIDES[0]}
        self.message = ""
        self.build()

    def build(self) -> None:
        m = self.manager
        m.clear_and_reset()
        w, h = self.app.size
        x0 = w // 2 - 260
        y = max(160, h // 2 - 120)
        for label, key, values in (("AI level", "level", self.LEVELS), ("You play", "side", self.SIDES)):
            UILabel(pygame.Rect(x0, y, 180, 36), label, manager=m, object_id="#form_label")
            widgets.named(UIDropDownMenu(values, self.choice[key], pygame.Rect(x0 + 190, y, 330, 36), manager=m), key)
            y += 50
        y += 20
        widgets.button((x0 + 190, y, 330, 46), "Start battle vs AI", m, intent("start"), object_id="#menu_button")
        widgets.button((x0, y, 170, 46), "Back", m, intent("back"), object_id="#menu_button")

    def on_resize(self, size) -> None:
        super().on_resize(size)
        self.build()

    def handle(self, it: Intent) -> None:
        if it.kind == "quit":
            self.app.quit()
        elif it.kind == "back":
            self.app.pop()
        elif it.kind == "ui":
            self.choice[it.get("name")] = it.get("value")
        elif it.kind in ("start", "continue"):
            opts = dict(self.app.default_options())
            human = 2 if self.choice["side"] == self.SIDES[1] else 1
            opts["ai"] = {"level": self.choice["level"], "human": human}
            err = self.app.start_battle(opts, replace=True)
            if err:
                self.message = err

    def draw(self, surface) -> None:
        draw_form(surface, "Play vs AI", 240, self.message, self.manager)


class FileListScene(Scene):
    """A list of save or replay files; double-click or Open."""

    def __init__(self, app, title: str, files: list[Path], kind: str) -> None:
        super().__init__(app)
        self.manager = widgets.new_manager(app.size)
        self.title = title
        self.files = files
        self.kind = kind
        self.picked: str | None = None
        self.message = "" if files else ("No saved game." if kind == "save" else "No replay files found.")
        self.build()

    def build(self) -> None:
        m = self.manager
        m.clear_and_reset()
        w, h = self.app.size
        rect = pygame.Rect(w // 2 - 320, 130, 640, max(200, h - 300))
        items = [str(p) for p in self.files]
        widgets.named(UISelectionList(rect, items, manager=m), "file")
        widgets.button((rect.x, rect.bottom + 14, 200, 42), "Back", m, intent("back"), object_id="#menu_button")
        widgets.button(
            (rect.right - 200, rect.bottom + 14, 200, 42), "Open", m, intent("open"), object_id="#menu_button"
        )

    def on_resize(self, size) -> None:
        super().on_resize(size)
        self.build()

    def handle(self, it: Intent) -> None:
        if it.kind == "quit":
            self.app.quit()
        elif it.kind == "back":
            self.app.pop()
        elif it.kind == "ui" and it.get("name") == "file":
            self.picked = it.get("value")
            if it.get("double"):
                self.open()
        elif it.kind in ("open", "continue"):
            self.open()

    def open(self) -> None:
        if not self.picked:
            self.message = "Pick a file first."
            return
        if self.kind == "save":
            self.message = self.app.open_save(Path(self.picked), replace=True) or ""
        else:
            self.message = self.app.open_replay(Path(self.picked), replace=True) or ""

    def draw(self, surface) -> None:
        surface.fill(theme.BG)
        w, h = surface.get_size()
        t = theme.text(self.title, 32, theme.ACCENT, bold=True)
        surface.blit(t, (w / 2 - t.get_width() / 2, 70))
        if self.message:
            m = theme.text(self.message, 15, theme.TEXT_BAD)
            surface.blit(m, (w / 2 - m.get_width() / 2, h - 50))
        self.manager.draw_ui(surface)
