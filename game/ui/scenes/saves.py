"""The Load and Replays screens: one row per game, in words (title; mode, map and rules; where it
stopped, score and time), newest first, with Open, Rename and Delete.

Delete asks first; Rename edits the title kept in the file's `info`. A damaged file is a row that
says why it cannot be opened and can still be deleted. The entries come from
`game.ui.saves_list`; nothing on screen is a file path or an internal id.
"""

from __future__ import annotations

import pygame
from pygame_gui.elements import UITextEntryLine

from game.i18n import N_, _
from game.ui import saves_list, theme, widgets
from game.ui.intents import Intent, intent
from game.ui.scenes.base import Scene

ROW_H = 76  # a title and two lines of details
TOP = 120
BUTTON_H = 42
DOUBLE_CLICK = 0.45  # seconds (scene clock) between two presses on one row that open it

TITLES = {"save": N_("Load a saved game"), "replay": N_("Replays")}
EMPTY = {"save": N_("No saved game yet."), "replay": N_("No replay yet: a game's replay is kept when you leave it.")}


def fit(text: str, width: int, size: int, bold: bool = False) -> str:
    """`text`, shortened with an ellipsis if it does not fit `width` pixels."""
    if theme.text(text, size, bold=bold).get_width() <= width:
        return text
    lo, hi = 0, len(text)
    while lo < hi:  # the longest prefix that fits with its ellipsis
        mid = (lo + hi + 1) // 2
        if theme.text(text[:mid].rstrip() + "...", size, bold=bold).get_width() <= width:
            lo = mid
        else:
            hi = mid - 1
    return text[:lo].rstrip() + "..."


class SavesScene(Scene):
    """`kind` "save" (the Load button) or "replay" (the Replays button)."""

    def __init__(self, app, kind: str) -> None:
        super().__init__(app)
        self.kind = kind
        self.manager = widgets.new_manager(app.size)
        self.entries: list[saves_list.Entry] = []
        self.picked: int | None = None
        self.scroll = 0
        self.mode = "list"  # "list" | "confirm" (delete?) | "rename"
        self.new_title = ""
        self.message = ""
        self.message_bad = False
        self.clock = 0.0
        self.last_press: tuple[int, float] | None = None
        self.reload()

    # --- data ----------------------------------------------------------------------------------

    def reload(self) -> None:
        if self.kind == "save":
            self.entries = saves_list.save_entries()
        else:
            self.entries = saves_list.replay_entries(getattr(self.app, "replay_dirs", []))
        if self.picked is not None and self.picked >= len(self.entries):
            self.picked = len(self.entries) - 1 if self.entries else None
        self.scroll = max(0, min(self.scroll, len(self.entries) - 1))
        self.build()

    @property
    def entry(self) -> saves_list.Entry | None:
        return self.entries[self.picked] if self.picked is not None and self.picked < len(self.entries) else None

    # --- layout --------------------------------------------------------------------------------

    def list_rect(self) -> pygame.Rect:
        w, h = self.app.size
        lw = min(800, w - 60)
        return pygame.Rect(w // 2 - lw // 2, TOP, lw, max(ROW_H * 2, h - TOP - 130))

    def visible_rows(self) -> int:
        return max(1, self.list_rect().h // ROW_H)

    def build(self) -> None:
        m = self.manager
        m.clear_and_reset()
        r = self.list_rect()
        y = self.app.size[1] - BUTTON_H - 24
        has = self.entry is not None
        if self.mode == "rename":
            widgets.named(
                UITextEntryLine(pygame.Rect(r.x, y, r.w - 340, BUTTON_H), manager=m, initial_text=self.new_title),
                "title",
            )
            widgets.button(
                (r.right - 330, y, 160, BUTTON_H), _("Keep name"), m, intent("rename_ok"), object_id="#menu_button"
            )
            widgets.button(
                (r.right - 160, y, 160, BUTTON_H), _("Cancel"), m, intent("cancel"), object_id="#menu_button"
            )
            return
        if self.mode == "confirm":
            widgets.button((r.x, y, 200, BUTTON_H), _("Cancel"), m, intent("cancel"), object_id="#menu_button")
            widgets.button(
                (r.right - 260, y, 260, BUTTON_H), _("Yes, delete it"), m, intent("delete_ok"), object_id="#menu_button"
            )
            return
        ok = has and self.entry.problem is None  # type: ignore[union-attr]
        actions = [(_("Rename"), intent("rename"), ok), (_("Delete"), intent("delete"), has)]
        if self.kind == "replay":  # a file to send: the replay carries a player's own map and army
            actions.append((_("Export"), intent("export"), ok))
        actions.append((_("Open"), intent("open"), ok))
        n = len(actions) + 1
        bw = min(180, (r.w - 10 * n) // n)
        widgets.button((r.x, y, bw, BUTTON_H), _("Back"), m, intent("back"), object_id="#menu_button")
        x = r.right - len(actions) * bw - 10 * (len(actions) - 1)
        for label, it, on in actions:
            widgets.button((x, y, bw, BUTTON_H), label, m, it, object_id="#menu_button", enabled=bool(on))
            x += bw + 10

    def on_resize(self, size) -> None:
        super().on_resize(size)
        self.build()

    def on_language(self) -> None:
        """A new language: the rows' words are made when the files are read, so read again."""
        self.say("")
        self.reload()

    # --- input ---------------------------------------------------------------------------------

    def update(self, dt: float) -> None:
        super().update(dt)
        self.clock += dt

    def say(self, text: str, bad: bool = False) -> None:
        self.message, self.message_bad = text, bad

    def row_at(self, pos) -> int | None:
        r = self.list_rect()
        if not r.collidepoint(pos):
            return None
        i = self.scroll + (pos[1] - r.y) // ROW_H
        return i if 0 <= i < len(self.entries) and (pos[1] - r.y) // ROW_H < self.visible_rows() else None

    def pick(self, i: int | None) -> None:
        if i != self.picked:
            self.picked = i
            self.build()  # Open/Rename/Delete follow the pick

    def handle(self, it: Intent) -> None:
        k = it.kind
        if k == "quit":
            self.app.quit()
        elif k in ("back", "cancel"):
            if self.mode != "list":
                self.mode = "list"
                self.say("")
                self.build()
            else:
                self.app.pop()
        elif k == "press" and self.mode == "list" and it.get("button", 1) == 1:
            i = self.row_at(it.get("pos"))
            if i is None:
                return
            double = (
                self.last_press is not None
                and self.last_press[0] == i
                and self.clock - self.last_press[1] < DOUBLE_CLICK
            )
            self.last_press = (i, self.clock)
            self.pick(i)
            if double:
                self.open()
        elif k == "scroll":
            top = max(0, len(self.entries) - self.visible_rows())
            self.scroll = max(0, min(top, self.scroll - int(it.get("dy", 0))))
        elif k in ("open", "continue") and self.mode == "list":
            self.open()
        elif k == "continue" and self.mode == "rename":  # Enter in the name box keeps the name
            self.handle(intent("rename_ok"))
        elif k == "delete" and self.entry is not None:
            self.mode = "confirm"
            self.say(_('Delete "{title}"? This cannot be undone.').format(title=self.entry.title), True)
            self.build()
        elif k == "delete_ok" and self.entry is not None:
            problem = saves_list.delete(self.entry)
            self.mode = "list"
            self.say(problem or _('Deleted "{title}".').format(title=self.entry.title), bool(problem))
            self.reload()
        elif k == "export" and self.kind == "replay" and self.entry is not None:
            out, problem = saves_list.export(self.entry)
            if problem:
                self.say(problem, True)
            else:  # the path: the player needs to find the file to send it
                self.say(_("Exported to {file}: send this file; anyone can watch or check it.").format(file=out))
        elif k == "rename" and self.entry is not None and self.entry.problem is None:
            self.mode = "rename"
            self.new_title = self.entry.title
            self.say(_("Type a new name, then Enter (or Keep name); Esc cancels."))
            self.build()
        elif k == "ui" and it.get("name") == "title":
            self.new_title = str(it.get("value") or "")
        elif k == "rename_ok" and self.entry is not None:
            problem = saves_list.rename(self.entry, self.new_title)
            self.mode = "list"
            self.say(problem or _("Renamed."), bool(problem))
            self.reload()

    def open(self) -> None:
        e = self.entry
        if e is None:
            self.say(_("Pick a game first.") if self.kind == "save" else _("Pick a replay first."), True)
            return
        if e.problem is not None:
            self.say(_("This file cannot be opened: {problem}").format(problem=e.problem), True)
            return
        if self.kind == "save":
            problem = self.app.open_save(e.path, replace=True)
        else:
            problem = self.app.open_replay(e.path, replace=True, name=e.title)
        if problem:
            self.say(problem, True)

    # --- draw ----------------------------------------------------------------------------------

    def draw(self, surface) -> None:
        surface.fill(theme.BG)
        w, h = surface.get_size()
        t = theme.text(_(TITLES[self.kind]), 32, theme.ACCENT, bold=True)
        surface.blit(t, (w / 2 - t.get_width() / 2, 50))
        r = self.list_rect()
        pygame.draw.rect(surface, theme.PANEL, r, border_radius=6)
        if not self.entries:
            e = theme.text(_(EMPTY[self.kind]), 17, theme.TEXT_DIM)
            surface.blit(e, (r.centerx - e.get_width() / 2, r.y + 30))
        rows = self.visible_rows()
        for n, entry in enumerate(self.entries[self.scroll : self.scroll + rows]):
            i = self.scroll + n
            row = pygame.Rect(r.x + 4, r.y + n * ROW_H + 3, r.w - 8, ROW_H - 6)
            if i == self.picked:
                pygame.draw.rect(surface, theme.lighter(theme.PANEL, 0.25), row, border_radius=5)
                pygame.draw.rect(surface, theme.ACCENT, row, width=2, border_radius=5)
            colour = theme.TEXT_BAD if entry.problem else theme.TEXT
            title = theme.text(fit(entry.title, row.w - 24, 17, True), 17, colour, bold=True)
            surface.blit(title, (row.x + 12, row.y + 5))
            y = row.y + 6 + title.get_height()
            for line in entry.details[:2]:
                s = theme.text(fit(line, row.w - 24, 14), 14, theme.TEXT_DIM)
                surface.blit(s, (row.x + 12, y))
                y += s.get_height()
        if len(self.entries) > rows:  # where the view is in a longer list
            last = min(len(self.entries), self.scroll + rows)
            more = _("{first}-{last} of {total}; scroll for more").format(
                first=self.scroll + 1, last=last, total=len(self.entries)
            )
            more = theme.text(more, 13, theme.TEXT_DIM)
            surface.blit(more, (r.right - more.get_width(), r.bottom + 4))
        if self.message:  # two lines at most (an exported file's path is long), the last above the buttons
            lines = theme.wrap(self.message, 15, w - 40)
            lines = lines[:1] + [fit(" ".join(lines[1:]), w - 40, 15)] if len(lines) > 2 else lines
            y = h - BUTTON_H - 24 - 8
            for line in reversed(lines):
                m = theme.text(line, 15, theme.TEXT_BAD if self.message_bad else theme.TEXT_GOOD)
                y -= m.get_height()
                surface.blit(m, (w / 2 - m.get_width() / 2, y))
        self.manager.draw_ui(surface)
