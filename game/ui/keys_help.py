"""The H key table: two columns (keys, what they do) for the current scene, drawn from the one
binding table in `game.ui.input`, so it lists only the keys that scene acts on."""

from __future__ import annotations

import pygame

from game.i18n import N_, _
from game.ui import theme
from game.ui.input import bindings_for

TITLE = N_("Keys (H or Esc closes)")
SIZE, ROW, PAD = 14, 20, 12


def rows(scene: str) -> list[tuple[str, str]]:
    """(keys, what they do) for `scene`, in the table's order."""
    return [(_(b.keys), _(b.does)) for b in bindings_for(scene)]


def draw(surf: pygame.Surface, area: pygame.Rect, scene: str) -> pygame.Rect:
    """The table as a box centred in `area`; returns the box (a click in it closes it)."""
    table = rows(scene)
    f = theme.font(SIZE, bold=True)
    key_w = max(f.size(k)[0] for k, _ in table) + 24
    does_w = max(theme.font(SIZE).size(d)[0] for _, d in table)
    w = min(area.w - 20, key_w + does_w + 2 * PAD)
    h = min(area.h - 20, 40 + ROW * len(table) + PAD)
    box = pygame.Rect(0, 0, w, h)
    box.center = area.center
    pygame.draw.rect(surf, (28, 30, 36), box, border_radius=8)
    pygame.draw.rect(surf, theme.ACCENT, box, 2, border_radius=8)
    surf.blit(theme.text(_(TITLE), 16, theme.ACCENT, bold=True), (box.x + PAD, box.y + 8))
    y = box.y + 36
    for keys, does in table:
        if y + ROW > box.bottom:
            break
        surf.blit(theme.text(keys, SIZE, theme.ACCENT, bold=True), (box.x + PAD, y))
        surf.blit(theme.text(does, SIZE, theme.TEXT), (box.x + PAD + key_w, y))
        y += ROW
    return box
