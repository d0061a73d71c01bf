"""Label chips: text on a dark rounded background, readable over any cloth, terrain or ring.

One job: turn label text into cached surfaces (labels repeat every frame). The layout
(label_layout.py) decides where they go; the renderer (field.py) blits them.
"""

from __future__ import annotations

from collections.abc import Sequence

import pygame

from game.ui import theme

CHIP_BG = (14, 14, 18, 215)
PAD_X, PAD_Y = 4, 1

_CACHE: dict[tuple, pygame.Surface] = {}


def chip(
    lines: Sequence[tuple[str, int, tuple[int, int, int], bool]],
    border: tuple[int, int, int] | None = None,
) -> pygame.Surface:
    """A chip holding `lines` (text, size, colour, bold), centred one under another."""
    key = (tuple(lines), border)
    surf = _CACHE.get(key)
    if surf is not None:
        return surf
    texts = [theme.text(s, size, col, bold) for s, size, col, bold in lines]
    w = max(t.get_width() for t in texts) + 2 * PAD_X
    h = sum(t.get_height() for t in texts) + 2 * PAD_Y
    surf = pygame.Surface((w, h), pygame.SRCALPHA)
    pygame.draw.rect(surf, CHIP_BG, surf.get_rect(), border_radius=3)
    if border is not None:
        pygame.draw.rect(surf, border, surf.get_rect(), 1, border_radius=3)
    y = PAD_Y
    for t in texts:
        surf.blit(t, ((w - t.get_width()) // 2, y))
        y += t.get_height()
    if len(_CACHE) > 2000:
        _CACHE.clear()
    _CACHE[key] = surf
    return surf


def text_chip(text: str, size: int, colour, bold: bool = False, border=None) -> pygame.Surface:
    return chip([(text, size, colour, bold)], border)


def badge_chip(tags: Sequence[tuple[str, tuple[int, int, int]]], pips: int, left: int, extra: str) -> pygame.Surface:
    """A WIZARD / PRIEST badge: coloured tags (W2, P1), one pip per use (filled: still
    available this phase) and the counts after them (U1 RP3); `pips=0` and `extra=""` give
    the compact badge."""
    key = ("badge", tuple(tags), pips, left, extra)
    surf = _CACHE.get(key)
    if surf is not None:
        return surf
    from game.ui.render.primitives import circle

    texts = [(theme.text(label, 12, (20, 20, 20), bold=True), col) for label, col in tags]
    et = theme.text(extra, 11, theme.TEXT) if extra else None
    w = sum(t.get_width() + 8 for t, _ in texts) + (4 + pips * 9 if pips else 0) + (et.get_width() + 6 if et else 0)
    surf = pygame.Surface((w, 14), pygame.SRCALPHA)
    pygame.draw.rect(surf, CHIP_BG, surf.get_rect(), border_radius=4)
    x = 0
    for t, col in texts:
        box = pygame.Rect(x, 0, t.get_width() + 6, 14)
        pygame.draw.rect(surf, col, box, border_radius=4)
        surf.blit(t, (box.x + 3, (14 - t.get_height()) // 2))
        x = box.right + 2
    for k in range(pips):
        circle(surf, theme.TEXT, (x + 5 + k * 9, 7), 3.5, 0 if k < left else 1)
    if pips:
        x += 4 + pips * 9
    if et is not None:
        surf.blit(et, (x + 2, (14 - et.get_height()) // 2))
    _CACHE[key] = surf
    return surf


def icon_chip(role: str, colour: tuple[int, int, int], size: int = 12) -> pygame.Surface:
    """A label collapsed to its icon (render/icons.py) on a chip: at low zoom, or with no room
    for its words; the words show as a tool tip when the pointer is over it."""
    key = ("icon", role, colour, size)
    surf = _CACHE.get(key)
    if surf is not None:
        return surf
    from game.ui.render.icons import icon

    surf = pygame.Surface((size + 2 * PAD_X, size + 2 * PAD_Y + 2), pygame.SRCALPHA)
    pygame.draw.rect(surf, CHIP_BG, surf.get_rect(), border_radius=3)
    pygame.draw.rect(surf, colour, surf.get_rect(), 1, border_radius=3)
    surf.blit(icon(role, size, colour), (PAD_X, PAD_Y + 1))
    _CACHE[key] = surf
    return surf


def status_chip(up: bool, text: str, colour: tuple[int, int, int]) -> pygame.Surface:
    """A buff or debuff token: an up-triangle (buff) or a down-triangle (debuff) in `colour`,
    then `text` (e.g. "+1 sv"); `text=""` gives the bare token. The shape says it as well as
    the colour, for players who cannot tell the two colours apart."""
    key = ("status", up, text, colour)
    surf = _CACHE.get(key)
    if surf is not None:
        return surf
    t = theme.text(text, 11, colour) if text else None
    s = 9  # the triangle's side box
    w = s + 2 * PAD_X + (t.get_width() + 3 if t is not None else 0)
    h = max(13, (t.get_height() if t is not None else 0) + 2 * PAD_Y)
    surf = pygame.Surface((w, h), pygame.SRCALPHA)
    pygame.draw.rect(surf, CHIP_BG, surf.get_rect(), border_radius=3)
    pygame.draw.rect(surf, colour, surf.get_rect(), 1, border_radius=3)
    x0, y0 = PAD_X, (h - s) // 2
    if up:
        pts = [(x0, y0 + s), (x0 + s, y0 + s), (x0 + s / 2, y0)]
    else:
        pts = [(x0, y0), (x0 + s, y0), (x0 + s / 2, y0 + s)]
    pygame.draw.polygon(surf, colour, pts)
    if t is not None:
        surf.blit(t, (x0 + s + 3, (h - t.get_height()) // 2))
    _CACHE[key] = surf
    return surf
