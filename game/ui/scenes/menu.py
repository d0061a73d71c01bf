"""Menus on pygame-gui: main menu, the hotseat and vs-AI set-up forms, load a save, pick a replay."""

from __future__ import annotations

import random

import pygame
from pygame_gui.elements import UIDropDownMenu, UILabel, UITextEntryLine

from game.data.content import DEFAULT_MAP
from game.i18n import LANGUAGES, N_, _, language
from game.ui import choices, storage, theme, widgets
from game.ui.choices import Choice
from game.ui.intents import Intent, intent
from game.ui.scenes.base import Scene

BW, BH = 320, 44
#: How often (seconds) the menu looks again for saves, so Resume and Load wake up when one appears.
SAVES_RECHECK = 1.0


# The menu's palette button says which colours are on (theme.use_palette; --palette at start-up).
PALETTE_LABELS = {"default": N_("Colours: standard"), "okabe_ito": N_("Colours: colour-blind safe")}


def language_label() -> str:
    """The Language button: the language in use, in its own name ("Language: English", "언어: 한국어")."""
    return _("Language: {language}").format(language=LANGUAGES[language()])


class MenuScene(Scene):
    """The main menu. Esc never quits from here; Quit asks first (Quit again or Enter quits,
    Stay or Esc stays). Resume and Load are disabled while there is nothing to load."""

    def __init__(self, app) -> None:
        super().__init__(app)
        self.manager = widgets.new_manager(app.size)
        from game.ui.content_notice import content_notice

        self.message = content_notice()  # the player's own files that could not be read, if any
        self.confirming = False  # the "Quit Spellfield?" question is up
        self.since_check = 0.0
        self.build()

    def saved(self) -> tuple[bool, bool]:
        """(something to resume, a save to load): what Resume and Load would find now."""
        saves = bool(storage.list_saves())
        return saves or bool(storage.resume_candidates()), saves

    def build(self) -> None:
        self.manager.clear_and_reset()
        self.available = self.saved()
        if self.confirming:
            self.build_confirm()
            return
        w, h = self.app.size
        x = w // 2 - BW // 2
        y = max(130, h // 2 - 190)  # from 130px down the buttons fit a 640px window
        can_resume, can_load = self.available
        nothing = _("No saved game yet: a battle saves itself as you play.")
        items = [
            (_("New hotseat game"), intent("menu", go="new"), True, None),
            (_("Play vs AI"), intent("menu", go="vs_ai"), True, None),
            (_("Resume"), intent("menu", go="resume"), can_resume, None if can_resume else nothing),
            (_("Load"), intent("menu", go="load"), can_load, None if can_load else nothing),
            (_("Replays"), intent("menu", go="replays"), True, None),
            (_("Watch the AI (demo)"), intent("menu", go="demo"), True, None),
            (_("Rule demonstrations"), intent("menu", go="demos"), True, None),
            (_("Army builder"), intent("menu", go="builder"), True, _("Build, save and edit your own army lists")),
            (_(PALETTE_LABELS[theme.PALETTE]), intent("menu", go="palette"), True, None),
            (language_label(), intent("menu", go="language"), True, _("English, Korean, Japanese (also the L key)")),
            (_("Quit"), intent("menu", go="quit"), True, None),
        ]
        gap = 10 if h >= 720 else 4
        bh = min(BH, (h - y - 8) // len(items) - gap)  # every button fits a 640px window too
        self.buttons_top = y
        for label, it, enabled, tip in items:
            widgets.button(
                (x, y, BW, bh), label, self.manager, it, tooltip=tip, object_id="#menu_button", enabled=enabled
            )
            y += bh + gap
        self.buttons_bottom = y - gap

    def build_confirm(self) -> None:
        """The Quit question: two buttons in the middle of the screen."""
        w, h = self.app.size
        y = h // 2
        self.buttons_top, self.buttons_bottom = y - 70, y + BH
        widgets.button((w // 2 - 170, y, 160, BH), _("Quit"), self.manager, intent("quit"), object_id="#menu_button")
        widgets.button(
            (w // 2 + 10, y, 160, BH), _("Stay"), self.manager, intent("menu", go="stay"), object_id="#menu_button"
        )

    def on_resize(self, size) -> None:
        super().on_resize(size)
        self.build()

    def update(self, dt: float) -> None:
        self.since_check += dt
        if self.since_check >= SAVES_RECHECK:  # a battle may have saved since: wake Resume/Load up
            self.since_check = 0.0
            if self.saved() != self.available:
                self.build()
        super().update(dt)

    def ask_quit(self, on: bool) -> None:
        self.confirming = on
        self.message = ""
        self.build()

    def handle(self, it: Intent) -> None:
        if it.kind == "quit":  # the window's close button, or Quit in the question
            self.app.quit()
        elif it.kind == "back":  # Esc: closes the question; never quits
            if self.confirming:
                self.ask_quit(False)
        elif it.kind == "continue" and self.confirming:  # Enter (or Space) answers "Quit"
            self.app.quit()
        elif it.kind == "screenshot":
            from game.data.safe_io import OutputError

            try:
                self.message = _("screenshot saved: {path}").format(path=self.app.screenshot())
            except OutputError as exc:  # e.g. a read-only folder: say so, never crash
                self.message = _("no screenshot: {problem}").format(problem=exc)
        elif it.kind == "menu":
            go = it.get("go")
            if go == "quit":
                if self.confirming:  # Quit pressed again
                    self.app.quit()
                else:
                    self.ask_quit(True)
            elif go == "stay":
                self.ask_quit(False)
            elif self.confirming:
                return
            elif go == "new":
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
            elif go == "language":  # every scene rebuilds in the next language; remembered
                problem = self.app.cycle_language()
                if problem:
                    self.message = problem
            elif go == "builder":
                from game.ui.scenes.builder import BuilderScene

                self.app.push(BuilderScene(self.app))
            elif go == "demos":
                from game.ui.scenes.demo import DemoListScene

                self.app.push(DemoListScene(self.app))

    def draw(self, surface) -> None:
        surface.fill(theme.BG)
        w, h = surface.get_size()
        t = theme.text("Spellfield", 56, theme.ACCENT, bold=True)
        surface.blit(t, (w / 2 - t.get_width() / 2, max(12, h // 2 - 310)))
        s = theme.text(_("wargame magic on a measured battlefield"), 18, theme.TEXT_DIM)
        surface.blit(s, (w / 2 - s.get_width() / 2, max(12, h // 2 - 310) + t.get_height() + 4))
        if self.confirming:
            q = theme.text(_("Quit Spellfield?"), 30, theme.TEXT, bold=True)
            surface.blit(q, (w / 2 - q.get_width() / 2, h // 2 - 70))
            k = theme.text(_("Enter quits, Esc stays"), 15, theme.TEXT_DIM)
            surface.blit(k, (w / 2 - k.get_width() / 2, h // 2 - 28))
        if self.message:  # below the buttons, or above them when the window is too short
            m = theme.text(self.message, 16, theme.TEXT_BAD)
            below = self.buttons_bottom + 10
            my = below if below + m.get_height() <= h - 4 else self.buttons_top - m.get_height() - 8
            surface.blit(m, (w / 2 - m.get_width() / 2, my))
        self.manager.draw_ui(surface)


#: One row of a set-up form: its label, the choice key, and the options.
Row = tuple[str, str, list[Choice]]
FORM_W, LABEL_W = 760, 170  # the form's width (at most); the labels' column
ROW_H, DESC_LINE = 36, 18  # a dropdown; a line of the description under it
DESC_SIZE = 14


class SetupScene(Scene):
    """A set-up form: a dropdown per choice with the chosen option's one-line description under
    it, the seed (typed, or Random), then Back and Start. Subclasses give the rows and start."""

    title = N_("Set up")
    start_label = N_("Start")

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
        self.options: dict[str, list[Choice]] = {
            "map": choices.maps(self.choice["map"]),
            "army1": choices.armies(),
            "army2": choices.armies(),
            "profile": choices.profiles(),
        }
        self.message = ""
        self.descriptions: list[tuple[str, int, int, int]] = []  # (choice key, x, y, width) of each description
        self.build()

    def rows(self) -> list[Row]:
        return [
            (_("Map"), "map", self.options["map"]),
            (_("Player 1 army"), "army1", self.options["army1"]),
            (_("Player 2 army"), "army2", self.options["army2"]),
            (_("Rules"), "profile", self.options["profile"]),
        ]

    def description(self, key: str) -> str:
        """The line under a choice: the chosen option's description."""
        return choices.description(choices.by_id(self.options[key], self.choice[key]))

    def description_lines(self, key: str, width: int) -> list[str]:
        text = self.description(key)
        return theme.wrap(text[:1].upper() + text[1:], DESC_SIZE, width) if text else []  # text_wrap

    def build(self) -> None:
        m = self.manager
        m.clear_and_reset()
        w, h = self.app.size
        form_w = min(FORM_W, w - 40)
        x0 = w // 2 - form_w // 2
        dx, dw = x0 + LABEL_W, form_w - LABEL_W
        rows = self.rows()
        lines = {key: self.description_lines(key, dw - 8) for _, key, _ in rows}
        height = sum(ROW_H + 8 + DESC_LINE * len(lines[key]) for _, key, _ in rows) + ROW_H + 24 + 46
        y = max(84, min(h // 2 - height // 2, 160))
        self.top = y
        self.descriptions = []
        for label, key, values in rows:
            UILabel(pygame.Rect(x0, y, LABEL_W - 10, ROW_H), label, manager=m, object_id="#form_label")
            names = [choices.label(c) for c in values]
            chosen = choices.by_id(values, self.choice[key])
            self.choice[key] = chosen.id
            widgets.named(UIDropDownMenu(names, choices.label(chosen), pygame.Rect(dx, y, dw, ROW_H), manager=m), key)
            self.descriptions.append((key, dx + 4, y + ROW_H + 2, dw - 8))
            y += ROW_H + 8 + DESC_LINE * len(lines[key])
        UILabel(pygame.Rect(x0, y, LABEL_W - 10, ROW_H), _("Seed"), manager=m, object_id="#form_label")
        entry = UITextEntryLine(pygame.Rect(dx, y, dw - 130, ROW_H), manager=m, initial_text=self.choice["seed"])
        widgets.named(entry, "seed")
        widgets.button((dx + dw - 120, y, 120, ROW_H), _("Random"), m, intent("reseed"))
        y += ROW_H + 24
        widgets.button((dx, y, dw, 46), _(self.start_label), m, intent("start"), object_id="#menu_button")
        widgets.button((x0, y, LABEL_W - 10, 46), _("Back"), m, intent("back"), object_id="#menu_button")
        self.bottom = y + 46

    def on_resize(self, size) -> None:
        super().on_resize(size)
        self.build()

    def handle(self, it: Intent) -> None:
        if it.kind == "quit":
            self.app.quit()
        elif it.kind == "back":
            self.app.pop()
        elif it.kind == "ui":
            key, value = it.get("name"), it.get("value")
            # the dropdowns say the display name; a script (or a test) may give the id
            picked = choices.by_name(self.options.get(key, []), value)
            self.choice[key] = picked.id if picked is not None else value
            if key in self.options:
                self.build()  # the description under it changes (and "You command ..." names the armies)
        elif it.kind == "reseed":
            self.choice["seed"] = str(random.randint(1, 99999))
            self.build()
        elif it.kind in ("start", "continue"):
            for n, key in ((1, "army1"), (2, "army2")):  # a saved list that breaks a rule is offered, never played
                picked = choices.by_id(self.options[key], self.choice[key])
                if picked.problem:
                    self.message = _("Player {n}'s army cannot be played: {problem}").format(
                        n=n, problem=picked.problem
                    )
                    return
            try:
                seed = int(self.choice["seed"])
            except ValueError:
                self.message = _("The seed must be a whole number, not {seed!r}.").format(seed=self.choice["seed"])
                return
            opts = {
                "map": self.choice["map"],
                "armies": (self.choice["army1"], self.choice["army2"]),
                "profile": self.choice["profile"],
                "seed": seed,
            }
            err = self.start(opts)
            if err:
                self.message = err

    def start(self, opts: dict) -> str | None:  # pragma: no cover - overridden
        raise NotImplementedError

    def draw(self, surface) -> None:
        surface.fill(theme.BG)
        w, h = surface.get_size()
        t = theme.text(_(self.title), 34, theme.ACCENT, bold=True)
        surface.blit(t, (w / 2 - t.get_width() / 2, max(16, self.top - t.get_height() - 24)))
        for key, x, y, width in self.descriptions:  # wrapped, never cut (the data keeps them to one line)
            for i, line in enumerate(self.description_lines(key, width)):
                surface.blit(theme.text(line, DESC_SIZE, theme.TEXT_DIM), (x, y + i * DESC_LINE))
        if self.message:
            m = theme.text(self.message, 15, theme.TEXT_BAD)
            surface.blit(m, (w / 2 - m.get_width() / 2, min(h - 24, self.bottom + 12)))
        self.manager.draw_ui(surface)


class NewGameScene(SetupScene):
    """Choose map, armies, rules and seed, then start a hotseat battle."""

    title = N_("New hotseat game")
    start_label = N_("Start hotseat battle")

    def start(self, opts: dict) -> str | None:
        return self.app.start_battle(opts, replace=True)


class VsAIScene(SetupScene):
    """Solo play: map, armies, rules and seed as in hotseat, plus your side and the AI's level."""

    title = N_("Play vs AI")
    start_label = N_("Start battle vs AI")
    SIDES = [Choice("1", N_("Player 1")), Choice("2", N_("Player 2"))]

    def build(self) -> None:
        self.options["side"] = self.SIDES
        self.options["level"] = choices.LEVELS
        self.choice.setdefault("side", "1")
        self.choice.setdefault("level", "normal")
        super().build()

    def rows(self) -> list[Row]:
        return [*super().rows(), (_("You play"), "side", self.SIDES), (_("AI level"), "level", choices.LEVELS)]

    def description(self, key: str) -> str:
        if key == "side":  # who commands which army, in the armies' names
            you = "army1" if self.choice["side"] == "1" else "army2"
            ai = "army2" if you == "army1" else "army1"
            name = {k: choices.label(choices.by_id(self.options[k], self.choice[k])) for k in (you, ai)}
            return _("You command {you}; the AI commands {ai}").format(you=name[you], ai=name[ai])
        return super().description(key)

    def start(self, opts: dict) -> str | None:
        opts["ai"] = {"level": self.choice["level"], "human": int(self.choice["side"])}
        return self.app.start_battle(opts, replace=True)
