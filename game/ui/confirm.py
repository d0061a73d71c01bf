"""A small yes/no question over a scene: Enter or Y says yes, Esc or N says no, and its two
buttons take clicks. A scene keeps one in `confirm` and hands it every intent first; while it is
open nothing else reacts (it is modal)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import pygame

from game.i18n import N_, _
from game.ui import theme
from game.ui.intents import Intent

YES_KINDS = ("continue", "confirm_yes")
NO_KINDS = ("back", "confirm_no")


@dataclass
class Confirm:
    """`question` asked; `on_yes` runs on a yes; `detail` says what yes does (each English, marked
    with N_ by the asker, or already translated: drawn through `_`, so a switch of language
    while it is open shows the new language). `also_yes` names
    more intents that mean yes (the key that asked again, e.g. a second E)."""

    question: str
    on_yes: Callable[[], None]
    detail: str = ""
    yes: str = N_("Yes (Enter)")
    no: str = N_("No (Esc)")
    also_yes: tuple[str, ...] = ()
    rects: dict[str, pygame.Rect] = field(default_factory=dict)  # where the buttons were drawn

    def handle(self, it: Intent) -> bool | None:
        """True: yes, False: no, None: still open (every other intent is swallowed)."""
        k = it.kind
        if k in YES_KINDS or k in self.also_yes:
            return True
        if k in NO_KINDS:
            return False
        if k == "press" and it.get("button", 1) == 1:
            pos = it.get("pos")
            for name, r in self.rects.items():
                if pos is not None and r.collidepoint(pos):
                    return name == "yes"
        return None

    def draw(self, surf: pygame.Surface, area: pygame.Rect) -> pygame.Rect:
        """The question in a box centred in `area`, the rest shaded; returns the box."""
        shade = pygame.Surface(area.size, pygame.SRCALPHA)
        shade.fill((8, 9, 12, 170))
        surf.blit(shade, area.topleft)
        w = min(520, area.w - 40)
        lines = theme.wrap(_(self.detail), 15, w - 40) if self.detail else []  # game.ui.text_wrap
        box = pygame.Rect(0, 0, w, 120 + 20 * len(lines))
        box.center = area.center
        pygame.draw.rect(surf, theme.PANEL, box, border_radius=10)
        pygame.draw.rect(surf, theme.ACCENT, box, 3, border_radius=10)
        t = theme.text(_(self.question), 20, theme.TEXT, bold=True)
        surf.blit(t, (box.centerx - t.get_width() / 2, box.y + 18))
        y = box.y + 26 + t.get_height()
        for line in lines:
            s = theme.text(line, 15, theme.TEXT_DIM)
            surf.blit(s, (box.centerx - s.get_width() / 2, y))
            y += 20
        bw = (box.w - 60) // 2
        self.rects = {
            "yes": pygame.Rect(box.x + 20, box.bottom - 54, bw, 36),
            "no": pygame.Rect(box.right - 20 - bw, box.bottom - 54, bw, 36),
        }
        for name, label, col in (("yes", self.yes, theme.ACCENT), ("no", self.no, theme.PANEL_EDGE)):
            r = self.rects[name]
            pygame.draw.rect(surf, col, r, border_radius=6)
            s = theme.text(_(label), 15, (15, 15, 15) if name == "yes" else theme.TEXT, bold=True)
            surf.blit(s, (r.centerx - s.get_width() / 2, r.centery - s.get_height() / 2))
        return box
