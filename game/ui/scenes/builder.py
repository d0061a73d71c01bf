"""The army builder (issue 23): build a list from one faction's warscrolls, name its units, choose
its general and lores, see its points and every rule it breaks live, save it to the user data
folder, and open, edit or delete saved lists.

One job: the scene. The rules and the files are game.data.army_lists'; the cards are
game.ui.cards'. Everything is driven by intents (tests make them directly):

  builder(op="faction", keyword=K), or ui(name="faction", value=<shown name>)
  builder(op="show", warscroll=W)    the warscroll's card on the right
  builder(op="add", warscroll=W)     builder(op="remove", index=i)   builder(op="general", index=i)
  ui(name="unit:<i>", value=<name>)  ui(name="list_name", value=<name>)
  ui(name="spell_lore" | "prayer_lore" | "manifestation_lore", value=<shown name or id>)
  builder(op="save" | "new" | "lists")   builder(op="edit" | "delete", path=P)
  ui(name="points_limit", value=<shown choice or a number>)   the list's points limit, saved with it
  scroll(pos, dy) pages the warscrolls or the units; back (Esc) leaves the saved lists, then the builder.

Unsaved changes are never lost without a question: Back, New list, another faction or opening
another list first asks "Leave without saving?" (game.ui.confirm: Enter says yes, Esc no).
"""

from __future__ import annotations

from pathlib import Path

import pygame
from pygame_gui.elements import UIDropDownMenu, UITextEntryLine

from game.content_words import content_name as cn
from game.data import army_lists as al
from game.data import library
from game.data.errors import DataError
from game.data.models import DEFAULT_POINTS_LIMIT, Army, ArmyUnit
from game.data.safe_io import OutputError
from game.i18n import N_, _, ngettext
from game.rules import data_dir
from game.ui import cards, theme, widgets
from game.ui.confirm import Confirm
from game.ui.intents import Intent, intent
from game.ui.render import card_view
from game.ui.scenes.base import Scene

M, TOP, ROW, GAP = 16, 64, 30, 4  # margin, first row, a row's height, the gap between rows
LEFT_W = 320  # the warscrolls and lores column (in a wide window)
BAR_H = 40  # the buttons along the bottom
# "List name" before its box; a unit's cost, General and Remove after its name
NAME_LABEL_W, POINTS_W, GEN_W, REM_W, ADD_W = 90, 44, 86, 84, 50
PROBLEM_SIZE, PROBLEM_LINE, MAX_PROBLEM_LINES = 14, 17, 6
#: The points limits the builder offers (a list file may hold another: it is offered too).
POINTS_LIMITS = (500, 1000, 1500, 2000)
LIMIT_W = 190  # the points limit's dropdown, on the title row
LORE_LABELS = {
    "spell_lore": N_("Spell lore"),
    "prayer_lore": N_("Prayer lore"),
    "manifestation_lore": N_("Manifestation lore"),
}


def card_width(w: int) -> int:
    return 250 if w < 1200 else 340


def left_width(w: int) -> int:
    return 300 if w < 1200 else LEFT_W


class BuilderScene(Scene):
    """The army builder. `mode` is "edit" (the list) or "lists" (the saved lists)."""

    def __init__(self, app) -> None:
        super().__init__(app)
        self.manager = widgets.new_manager(app.size)
        self.mode = "edit"
        self.message = ""
        self.ws_offset = self.unit_offset = 0
        self.confirm_delete: str | None = None
        self.list_offset = 0  # the first saved list shown
        self.lists_more = (0, 0, 0)  # (first, last, of) saved lists shown
        self.confirm: Confirm | None = None  # "Leave without saving?" while it is open
        self.new_list()

    # --- the list being built ---------------------------------------------------------------

    @property
    def content(self):
        return library.active().content

    def new_list(self, faction: al.Faction | None = None) -> None:
        fs = al.factions(self.content)
        self.faction = faction or (fs[0] if fs else None)
        self.name = _("My list")
        self.units: list[list[str]] = []  # [warscroll id, name]
        self.general = -1
        self.limit = DEFAULT_POINTS_LIMIT
        self.editing: Path | None = None
        army = self.content.armies.get(self.faction.army) if self.faction and self.faction.army else None
        self.lores: dict[str, str | None] = {
            slot: getattr(army, slot) if army else None for slot, _kind in al.LORE_SLOTS
        }
        self.shown = self.faction.warscrolls[0] if self.faction and self.faction.warscrolls else None
        self.ws_offset = self.unit_offset = 0
        self.mark_saved()
        self.build()

    def snapshot(self) -> tuple:
        """What saving writes: the list as it stands (for "unsaved changes?")."""
        f = self.faction.keyword if self.faction else None
        units = tuple(tuple(u) for u in self.units)
        return (f, self.name, units, self.general, self.limit, tuple(sorted(self.lores.items(), key=str)))

    def mark_saved(self) -> None:
        self.saved_as = self.snapshot()

    def unsaved(self) -> bool:
        """The list has changes that Save list would keep (a new list with no units has none)."""
        if self.editing is None and not self.units:
            return False
        return self.snapshot() != self.saved_as

    def ask_first(self, then, question: str = N_("Leave without saving?")) -> None:
        """Run `then` now, or after a yes when the list has unsaved changes."""
        if not self.unsaved():
            then()
            return
        self.confirm = Confirm(
            question,
            then,
            detail=N_("Your changes to this list are lost unless you press Save list first."),
            yes=N_("Leave (Enter)"),
            no=N_("Stay (Esc)"),
        )
        self.build()

    def draft(self) -> Army:
        """The list as an army, unchecked (it may break rules: `list_problems` says which)."""
        return Army.model_construct(
            id="draft",
            name=self.name,
            description="",
            colour=self.faction.colour if self.faction else al.DEFAULT_COLOUR,
            general=self.general,
            points_limit=self.limit,
            units=[ArmyUnit(warscroll=w, name=n) for w, n in self.units],
            **self.lores,
        )

    def problems(self) -> list[str]:
        return al.list_problems(self.content, self.draft())

    def default_name(self, warscroll: str) -> str:
        """The warscroll's name, numbered when the list already has a unit of that name."""
        base = cn(self.content.warscrolls[warscroll].name)
        names = {n.casefold() for _w, n in self.units}
        if base.casefold() not in names:
            return base
        k = 2
        while f"{base} {k}".casefold() in names:
            k += 1
        return f"{base} {k}"

    def is_hero(self, i: int) -> bool:
        ws = self.content.warscrolls.get(self.units[i][0])
        return ws is not None and ws.has("HERO")

    def add(self, warscroll: str) -> None:
        if warscroll not in self.content.warscrolls:
            return
        self.units.append([warscroll, self.default_name(warscroll)])
        i = len(self.units) - 1
        if not (0 <= self.general < i and self.is_hero(self.general)) and self.is_hero(i):
            self.general = i  # the first hero is the general until the player picks another
        elif self.general < 0:
            self.general = i
        self.shown = warscroll
        self.unit_offset = max(0, len(self.units) - self.unit_rows())

    def remove(self, i: int) -> None:
        if not 0 <= i < len(self.units):
            return
        del self.units[i]
        if self.general == i:
            heroes = [k for k in range(len(self.units)) if self.is_hero(k)]
            self.general = heroes[0] if heroes else (0 if self.units else -1)
        elif self.general > i:
            self.general -= 1
        self.unit_offset = max(0, min(self.unit_offset, len(self.units) - self.unit_rows()))

    def open_list(self, path: Path) -> None:
        try:
            army = al.load_list(path)
        except DataError as exc:
            self.message = exc.problems[0]
            return
        self.faction = al.faction_of(self.content, army) or self.faction
        self.name = army.name
        self.units = [[u.warscroll, al.unit_name(self.content, u)] for u in army.units]
        self.general = army.general
        self.limit = army.points_limit
        self.lores = {slot: getattr(army, slot) for slot, _kind in al.LORE_SLOTS}
        self.editing = path
        self.mode = "edit"
        self.ws_offset = self.unit_offset = 0
        self.mark_saved()
        self.message = _("Editing {name}.").format(name=army.name)

    def save(self) -> None:
        try:
            path = al.save_list(data_dir(), self.draft(), replacing=self.editing, content=self.content)
        except (DataError, OutputError) as exc:
            self.message = _(str(exc).splitlines()[0])  # army_lists.NO_NAME / NO_UNITS, or a file's problem
            return
        self.editing = path
        self.mark_saved()
        lib = library.reload()  # the set-up forms offer it now
        problems = self.problems()
        listed = [p for p in lib.problems if p.startswith(f"{al.ARMIES_FOLDER}/{path.name}")]
        if listed:
            self.message = listed[0]
        elif problems:
            self.message = _("Saved {name}; it cannot be played until its problems are fixed.").format(name=self.name)
        else:
            self.message = _("Saved {name}: it is offered in New hotseat game and Play vs AI.").format(name=self.name)

    # --- layout -----------------------------------------------------------------------------

    def columns(self) -> tuple[pygame.Rect, pygame.Rect, pygame.Rect]:
        """(warscrolls and lores, the list, the card), between the title and the buttons."""
        w, h = self.app.size
        cw = card_width(w)
        bottom = h - M - BAR_H - 8
        left = pygame.Rect(M, TOP, left_width(w), bottom - TOP)
        card = pygame.Rect(w - M - cw, TOP, cw, bottom - TOP)
        mid = pygame.Rect(left.right + M, TOP, card.x - M - left.right - M, bottom - TOP)
        return left, mid, card

    def lore_top(self) -> int:
        left = self.columns()[0]
        return left.bottom - 3 * (16 + ROW + GAP)

    def ws_pitch(self) -> int:
        """A warscroll row's height and gap: tighter in a short window, so a faction's ten fit."""
        return ROW + GAP if self.app.size[1] >= 720 else 26 + GAP

    def ws_rows(self) -> int:
        """How many warscroll rows fit above the lores (room for the "scroll for more" line when
        they do not all fit)."""
        space = self.lore_top() - (TOP + ROW + 8 + 20) - 2
        n = len(self.faction.warscrolls) if self.faction else 0
        rows = space // self.ws_pitch()
        return max(1, rows if rows >= n else (space - 20) // self.ws_pitch())

    def problem_lines(self, width: int) -> list[str]:
        out: list[str] = []
        for p in self.problems():  # in the player's language
            p = p.say(_)
            out += theme.wrap(p, PROBLEM_SIZE, width)
        return out

    def units_top(self) -> int:
        return TOP + ROW + 8 + 20

    def units_bottom(self) -> int:
        mid = self.columns()[1]
        shown = min(len(self.problem_lines(mid.w)), MAX_PROBLEM_LINES)
        return mid.bottom - 22 - max(1, shown) * PROBLEM_LINE - 8

    def unit_rows(self) -> int:
        return max(1, (self.units_bottom() - self.units_top()) // (ROW + GAP))

    # --- widgets ----------------------------------------------------------------------------

    def build(self) -> None:
        m = self.manager
        m.clear_and_reset()
        if self.confirm is not None:  # modal: no widget under the question takes a click
            return
        self.confirm_delete = None if self.mode == "edit" else self.confirm_delete
        w, h = self.app.size
        left, mid, _card = self.columns()
        bar = h - M - BAR_H
        widgets.button((M, bar, 150, BAR_H), _("Back"), m, intent("back"), object_id="#menu_button")
        if self.mode == "lists":
            self.build_lists(mid)
            return
        widgets.button(
            (M + 160, bar, 150, BAR_H), _("New list"), m, intent("builder", op="new"), object_id="#menu_button"
        )
        widgets.button(
            (M + 320, bar, 170, BAR_H), _("Saved lists"), m, intent("builder", op="lists"), object_id="#menu_button"
        )
        widgets.button(
            (w - M - 190, bar, 190, BAR_H), _("Save list"), m, intent("builder", op="save"), object_id="#menu_button"
        )
        # the points limit, on the title row above the list (saved with the list)
        limits = [self.limit_label(n) for n in sorted({*POINTS_LIMITS, self.limit})]
        widgets.named(
            UIDropDownMenu(
                limits, self.limit_label(self.limit), pygame.Rect(mid.right - LIMIT_W, 16, LIMIT_W, ROW), manager=m
            ),
            "points_limit",
        )
        # the faction, then its warscrolls (a button shows the card, Add adds a unit)
        fs = al.factions(self.content)
        if fs and self.faction is not None:
            names = [cn(f.name) for f in fs]
            widgets.named(
                UIDropDownMenu(names, cn(self.faction.name), pygame.Rect(left.x, TOP, left.w, ROW), manager=m),
                "faction",
            )
            wids = self.faction.warscrolls
            self.ws_offset = max(0, min(self.ws_offset, len(wids) - self.ws_rows()))
            y = TOP + ROW + 8 + 20
            for wid in wids[self.ws_offset : self.ws_offset + self.ws_rows()]:
                ws = self.content.warscrolls[wid]
                label = _("{name} ({points})").format(name=cn(ws.name), points=ws.points)
                if theme.text(label, 15).get_width() > left.w - ADD_W - 4 - 24:  # a long name: its cost is on its card
                    label = cn(ws.name)
                bh = self.ws_pitch() - GAP
                shown = widgets.button(
                    (left.x, y, left.w - ADD_W - 4, bh),
                    label,
                    m,
                    intent("builder", op="show", warscroll=wid),
                    tooltip=_("Show its card ({points} points)").format(points=ws.points),
                )
                if wid == self.shown:
                    shown.select()  # the card on the right is this one's
                widgets.button(
                    (left.right - ADD_W, y, ADD_W, bh), _("Add"), m, intent("builder", op="add", warscroll=wid)
                )
                y += self.ws_pitch()
        # the lores, one of each kind at most (M8)
        y = self.lore_top()
        for slot, kind in al.LORE_SLOTS:
            ids = al.lores_of(self.content, kind)
            names = [_("No lore")] + [cn(self.content.lores[i].name) for i in ids]
            chosen = self.lores.get(slot)
            now = cn(self.content.lores[chosen].name) if chosen in self.content.lores else names[0]
            if now not in names:
                names.append(now)
            widgets.named(UIDropDownMenu(names, now, pygame.Rect(left.x, y + 16, left.w, ROW), manager=m), slot)
            y += 16 + ROW + GAP
        # the list: its name, then a row per unit (name, general, remove)
        name_x = mid.x + NAME_LABEL_W
        entry = UITextEntryLine(pygame.Rect(name_x, TOP, mid.right - name_x, ROW), manager=m, initial_text=self.name)
        entry.set_text_length_limit(60)
        widgets.named(entry, "list_name")
        self.unit_offset = max(0, min(self.unit_offset, len(self.units) - self.unit_rows()))
        y = self.units_top()
        gen_w, rem_w = GEN_W, REM_W
        for i in range(self.unit_offset, min(len(self.units), self.unit_offset + self.unit_rows())):
            wid, name = self.units[i]
            known = self.content.warscrolls.get(wid)
            # the name, then the unit's cost (drawn), its General and Remove buttons
            e = UITextEntryLine(
                pygame.Rect(mid.x, y, mid.w - gen_w - rem_w - POINTS_W - 8, ROW), manager=m, initial_text=name
            )
            e.set_text_length_limit(60)
            widgets.named(e, f"unit:{i}")
            if self.is_hero(i) or i == self.general:
                b = widgets.button(
                    (mid.right - gen_w - rem_w - 4, y, gen_w, ROW),
                    _("General"),
                    m,
                    intent("builder", op="general", index=i),
                    tooltip=_("The list's general") if i == self.general else _("Make this hero the general"),
                )
                if i == self.general:
                    b.select()
            what = cn(known.name) if known else wid
            widgets.button(
                (mid.right - rem_w, y, rem_w, ROW),
                _("Remove"),
                m,
                intent("builder", op="remove", index=i),
                tooltip=_("Remove {name} ({what})").format(name=name, what=what),
            )
            y += ROW + GAP

    @staticmethod
    def limit_label(n: int) -> str:
        return _("Limit: {points} points").format(points=n)

    def limit_value(self, value: str) -> int | None:
        """The limit a dropdown choice (or a script's number) names, or None."""
        for n in sorted({*POINTS_LIMITS, self.limit}):
            if value in (self.limit_label(n), str(n)):
                return n
        return None

    def build_lists(self, mid: pygame.Rect) -> None:
        m = self.manager
        w = self.app.size[0]
        area = pygame.Rect(M, TOP + 30, w - 2 * M, mid.bottom - TOP - 30)
        self.rows: list[tuple[int, str, str, bool]] = []  # (y, name, line under it, broken)
        y = area.y
        every = al.saved_lists(data_dir())
        fit = max(1, (area.h - 20) // (2 * ROW + 6))
        self.list_offset = max(0, min(self.list_offset, len(every) - fit))
        self.lists_more = (self.list_offset, min(len(every), self.list_offset + fit), len(every))
        for saved in every[self.list_offset : self.list_offset + fit]:
            key = str(saved.path)
            if saved.army is not None:
                pts = al.points_total(self.content, saved.army)
                problems = al.list_problems(self.content, saved.army)
                note = _("{points} of {limit} points").format(points=pts, limit=saved.army.points_limit)
                note += ("; " + problems[0].say(_)) if problems else ("; " + _("ready to play"))
                self.rows.append((y, saved.army.name, note, bool(problems)))
                widgets.button((area.right - 260, y, 120, ROW), _("Edit"), m, intent("builder", op="edit", path=key))
            else:
                self.rows.append((y, saved.path.stem.replace("_", " "), saved.problems[0], True))
            asking = self.confirm_delete == key
            widgets.button(
                (area.right - 130, y, 130, ROW),
                _("Delete?") if asking else _("Delete"),
                m,
                intent("builder", op="delete", path=key),
                tooltip=_("Press again to delete the list") if asking else None,
            )
            y += 2 * ROW + 6
        if not self.rows:
            self.rows.append((area.y, _("No saved lists yet."), _("Build one and press Save list."), False))

    # --- intents ----------------------------------------------------------------------------

    def on_resize(self, size) -> None:
        super().on_resize(size)
        self.build()

    def handle(self, it: Intent) -> None:
        if self.confirm is not None and it.kind != "quit":  # the question takes every key and click
            if it.kind in ("pointer", "scroll", "ui"):
                return
            answer = self.confirm.handle(it)
            if answer is not None:
                asked, self.confirm = self.confirm, None
                self.build()
                if answer:
                    asked.on_yes()
            return
        if it.kind == "quit":
            self.app.quit()
        elif it.kind == "back":
            if self.mode == "lists":
                self.mode = "edit"
                self.build()
            else:
                self.ask_first(self.app.pop)
        elif it.kind == "screenshot":
            try:
                self.message = _("screenshot saved: {path}").format(path=self.app.screenshot())
            except OutputError as exc:
                self.message = _("no screenshot: {problem}").format(problem=exc)
        elif it.kind == "scroll":
            self.scroll(it.get("pos"), it.get("dy", 0))
        elif it.kind == "ui":
            self.on_widget(str(it.get("name")), str(it.get("value")))
        elif it.kind == "builder":
            self.on_builder(it)

    def scroll(self, pos, dy: int) -> None:
        step = -1 if dy > 0 else 1
        left = self.columns()[0]
        if self.mode == "lists":
            self.list_offset = max(0, self.list_offset + step)
        elif pos is not None and left.collidepoint(pos):
            self.ws_offset = max(0, self.ws_offset + step)
        else:
            self.unit_offset = max(0, self.unit_offset + step)
        self.build()

    def on_widget(self, name: str, value: str) -> None:
        if name == "list_name":
            self.name = value  # no rebuild: the text box keeps the caret
        elif name.startswith("unit:"):
            i = int(name.split(":", 1)[1])
            if 0 <= i < len(self.units):
                self.units[i][1] = value
        elif name == "faction":
            f = next((f for f in al.factions(self.content) if value in (cn(f.name), f.name, f.keyword)), None)
            self.build()  # the dropdown shows the list's faction until the change is made
            if f is not None and f != self.faction:
                self.ask_first(lambda: self.change_faction(f))
        elif name == "points_limit":
            n = self.limit_value(value)
            if n is not None:
                self.limit = n
            self.build()
        elif name in self.lores:
            self.lores[name] = self.lore_id(name, value)
            self.build()

    def change_faction(self, f: al.Faction) -> None:
        """A list is of one faction: a new faction starts a new list (its name and file kept)."""
        name, editing = self.name, self.editing
        self.new_list(f)
        self.name, self.editing = name, editing
        self.mark_saved()

    def lore_id(self, slot: str, value: str) -> str | None:
        kind = dict(al.LORE_SLOTS)[slot]
        for i in al.lores_of(self.content, kind):
            if value in (i, cn(self.content.lores[i].name), self.content.lores[i].name):
                return i
        return value if value in self.content.lores else None

    def on_builder(self, it: Intent) -> None:
        op = it.get("op")
        self.message = ""
        if op == "faction":
            f = next((f for f in al.factions(self.content) if f.keyword == it.get("keyword")), None)
            if f is not None and f != self.faction:
                self.ask_first(lambda: self.change_faction(f))
                return
        elif op == "show":
            self.shown = it.get("warscroll")
        elif op == "add":
            self.add(it.get("warscroll"))
        elif op == "remove":
            self.remove(int(it.get("index", -1)))
        elif op == "general":
            if 0 <= int(it.get("index", -1)) < len(self.units):
                self.general = int(it.get("index"))
        elif op == "save":
            self.save()
        elif op == "new":
            self.ask_first(lambda: self.new_list(self.faction))
            return
        elif op == "lists":
            self.mode = "lists"
        elif op == "edit":
            path = Path(it.get("path"))

            def edit() -> None:
                self.open_list(path)
                self.build()

            self.ask_first(edit)
            return
        elif op == "delete":
            key = str(it.get("path"))
            if self.confirm_delete != key:
                self.confirm_delete = key  # pressed once: the button asks again
            else:
                al.delete_list(Path(key))
                if self.editing == Path(key):
                    self.editing = None
                self.confirm_delete = None
                library.reload()
                self.message = _("List deleted.")
        self.build()

    # --- drawing ----------------------------------------------------------------------------

    def draw(self, surface) -> None:
        surface.fill(theme.BG)
        w, h = surface.get_size()
        t = theme.text(_("Army builder"), 30, theme.ACCENT, bold=True)
        surface.blit(t, (M, 16))
        if self.mode == "lists":
            surface.blit(theme.text(_("Saved lists"), 18, theme.TEXT, bold=True), (M, TOP))
            for y, name, note, bad in self.rows:
                surface.blit(theme.text(name, 16, theme.TEXT, bold=True), (M, y))
                lines = theme.wrap(note, 14, w - 2 * M - 280)
                for k, line in enumerate(lines[:2]):
                    surface.blit(theme.text(line, 14, theme.TEXT_BAD if bad else theme.TEXT_DIM), (M, y + 22 + k * 16))
            first, last, of = self.lists_more
            if last - first < of:
                more = _("{first}-{last} of {n}, scroll for more").format(first=first + 1, last=last, n=of)
                surface.blit(theme.text(more, 13, theme.TEXT_DIM), (M, h - M - BAR_H - 22))
        else:
            self.draw_edit(surface)
        if self.confirm is not None:
            self.confirm.draw(surface, pygame.Rect(0, 0, w, h))
            return
        if self.message:  # between the buttons along the bottom
            x0 = M + 500 if self.mode == "edit" else M + 160
            msg = theme.wrap(self.message, 14, w - M - 200 - x0)[:2]
            for k, line in enumerate(msg):
                surface.blit(theme.text(line, 14, theme.TEXT_GOOD), (x0, h - M - BAR_H + k * 18 + 2))
        self.manager.draw_ui(surface)

    def draw_edit(self, surface) -> None:
        left, mid, card_col = self.columns()
        total = al.points_total(self.content, self.draft())
        over = total > self.limit
        pts = theme.text(
            _("{total} of {limit} points").format(total=total, limit=self.limit),
            18,
            theme.TEXT_BAD if over else theme.ACCENT,
            bold=True,
        )
        surface.blit(pts, (card_col.right - pts.get_width(), 22))
        surface.blit(theme.text(_("Warscrolls (points)"), 14, theme.TEXT_DIM), (left.x, TOP + ROW + 8))
        n = len(self.faction.warscrolls) if self.faction else 0
        if n > self.ws_rows():
            more = _("{first}-{last} of {n}, scroll for more").format(
                first=self.ws_offset + 1, last=min(n, self.ws_offset + self.ws_rows()), n=n
            )
            surface.blit(theme.text(more, 13, theme.TEXT_DIM), (left.x, self.lore_top() - 18))
        y = self.lore_top()
        for slot, _kind in al.LORE_SLOTS:
            surface.blit(theme.text(_(LORE_LABELS[slot]), 14, theme.TEXT_DIM), (left.x, y))
            y += 16 + ROW + GAP
        surface.blit(theme.text(_("List name"), 15, theme.TEXT_DIM), (mid.x, TOP + 6))
        y = self.units_top()
        for i in range(self.unit_offset, min(len(self.units), self.unit_offset + self.unit_rows())):
            ws = self.content.warscrolls.get(self.units[i][0])
            if ws is not None:
                cost = theme.text(str(ws.points), 14, theme.TEXT_DIM)
                x = mid.right - GEN_W - REM_W - 12 - cost.get_width()
                surface.blit(cost, (x, y + ROW // 2 - cost.get_height() // 2))
            y += ROW + GAP
        head = ngettext("{n} unit", "{n} units", len(self.units)).format(n=len(self.units))
        if len(self.units) > self.unit_rows():
            head += ", " + _("{first}-{last} shown, scroll for more").format(
                first=self.unit_offset + 1, last=min(len(self.units), self.unit_offset + self.unit_rows())
            )
        surface.blit(theme.text(head, 14, theme.TEXT_DIM), (mid.x, TOP + ROW + 8))
        if not self.units:
            hint = _("Press Add beside a warscroll to add a unit.")
            surface.blit(theme.text(hint, 15, theme.TEXT_DIM), (mid.x, self.units_top() + 4))
        lines = self.problem_lines(mid.w)
        y = self.units_bottom() + 8
        if lines:
            surface.blit(theme.text(_("Problems"), 15, theme.TEXT_BAD, bold=True), (mid.x, y))
            if len(lines) > MAX_PROBLEM_LINES:  # the rest are a scroll of the list away: say how many
                lines = lines[: MAX_PROBLEM_LINES - 1] + [_("... and more: fix these first")]
            for k, line in enumerate(lines):
                surface.blit(theme.text(line, PROBLEM_SIZE, theme.TEXT_BAD), (mid.x, y + 20 + k * PROBLEM_LINE))
        else:
            surface.blit(theme.text(_("The list is ready to play."), 15, theme.TEXT_GOOD, bold=True), (mid.x, y))
        if self.shown in self.content.warscrolls:
            img = card_view.render_card(cards.warscroll_card(self.content, self.shown), card_col.w)
            surface.blit(img, card_col.topleft, pygame.Rect(0, 0, card_col.w, card_col.h))
