"""Draws a warscroll card (game.ui.cards) near the pointer, inside the battlefield view.

One job: placement and drawing. The card never covers the side panel or the header: it is placed
beside the pointer and then moved (and if need be cut) to lie wholly inside `bounds`, the
battlefield viewport. Text goes through theme's cached text helpers.
"""

from __future__ import annotations

import pygame

from game.ui import theme
from game.ui.cards import BAD, DIM, GOOD, HEAD, Card

PAD = 8
GAP = 18  # pixels between the pointer and the card, so the card never hides what is hovered
MAX_W = 360
TITLE, SUB, BODY = 15, 12, 13
_STYLE = {
    HEAD: (theme.ACCENT, True),
    DIM: (theme.TEXT_DIM, False),
    GOOD: (theme.TEXT_GOOD, False),
    BAD: (theme.TEXT_BAD, False),
}
_CACHE: dict[tuple[Card, int], pygame.Surface] = {}


def render_card(card: Card, max_w: int = MAX_W) -> pygame.Surface:
    """The card as one surface (cached: a hovered card is drawn every frame)."""
    key = (card, max_w)
    hit = _CACHE.get(key)
    if hit is not None:
        return hit
    inner = max_w - 2 * PAD
    rows: list[pygame.Surface] = []
    for s in theme.wrap(card.title, TITLE, inner):
        rows.append(theme.text(s, TITLE, theme.TEXT, bold=True))
    if card.subtitle:
        rows += [theme.text(s, SUB, theme.TEXT_DIM) for s in theme.wrap(card.subtitle, SUB, inner)]
    gaps = {len(rows)}  # a little space after the heading block and before each section head
    for ln in card.lines:
        colour, bold = _STYLE.get(ln.style, (theme.TEXT, False))
        if ln.style == HEAD:
            gaps.add(len(rows))
        for k, s in enumerate(theme.wrap(ln.text, BODY, inner - 10)):
            surf = theme.text(s if k == 0 else "  " + s, BODY, colour, bold=bold)
            rows.append(surf)
    w = min(max_w, max((r.get_width() for r in rows), default=0) + 2 * PAD)
    h = sum(r.get_height() for r in rows) + 2 * PAD + 4 * len(gaps)
    out = pygame.Surface((w, h), pygame.SRCALPHA)
    out.fill((*theme.PANEL, 244))
    pygame.draw.rect(out, theme.PANEL_EDGE, out.get_rect(), 1)
    y = PAD
    for i, r in enumerate(rows):
        if i in gaps:
            y += 4
        out.blit(r, (PAD, y))
        y += r.get_height()
    if len(_CACHE) > 64:
        _CACHE.clear()
    _CACHE[key] = out
    return out


Segment = tuple[tuple[float, float], tuple[float, float]]


def card_rect(
    size: tuple[int, int], pointer: tuple[int, int], bounds: pygame.Rect, avoid: Segment | None = None
) -> pygame.Rect:
    """Where a card of `size` goes: beside the pointer, inside `bounds` (cut when larger).

    The four corners around the pointer are tried, right and below first (or the sides facing
    away from `avoid`'s first end, e.g. a sight line's observer); each is moved inside `bounds`.
    The first that keeps the pointer and the `avoid` segment uncovered and needed no moving wins,
    then the first that keeps both uncovered, else the first."""
    w, h = min(size[0], bounds.w), min(size[1], bounds.h)
    px, py = pointer
    right = avoid is None or avoid[0][0] <= px
    down = avoid is None or avoid[0][1] <= py
    best: tuple[tuple[bool, bool, bool, int], pygame.Rect] | None = None
    for n, (rt, dn) in enumerate(((right, down), (right, not down), (not right, down), (not right, not down))):
        raw = pygame.Rect(px + GAP if rt else px - GAP - w, py + GAP if dn else py - GAP - h, w, h)
        r = raw.clamp(bounds)
        hides = r.collidepoint(px, py) or (avoid is not None and bool(r.clipline(avoid[0], avoid[1])))
        score = (hides, r != raw, n)
        if best is None or score < best[0]:
            best = (score, r)
    assert best is not None
    return best[1]


def draw_card(
    surface: pygame.Surface,
    card: Card,
    pointer: tuple[int, int],
    bounds: pygame.Rect,
    avoid: Segment | None = None,
) -> pygame.Rect:
    """Draw `card` near `pointer` (screen pixels) inside `bounds`; return where it went."""
    surf = render_card(card, min(MAX_W, bounds.w))
    r = card_rect(surf.get_size(), pointer, bounds, avoid)
    surface.blit(surf, r.topleft, pygame.Rect(0, 0, r.w, r.h))
    return r
