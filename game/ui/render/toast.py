"""A toast: a short note ("Saved: round 2, player 2 movement") shown for a few seconds at the top
of the battlefield, over nothing the player needs (the status line keeps its hint).

The battle scene keeps one `Toast` and draws it with `draw`; time is the scene's own clock
(seconds of update dt), so a test steps frames instead of waiting.
"""

from __future__ import annotations

from dataclasses import dataclass

import pygame

from game.ui import theme

SHOWN = 3.0  # seconds on screen
FADE = 0.5  # of which the last fade out
SIZE = 17


@dataclass
class Toast:
    text: str
    at: float  # the scene clock when it was shown
    good: bool = True
    seconds: float = SHOWN  # e.g. longer for a file's path, to be read and noted
    size: int = SIZE

    def alive(self, clock: float) -> bool:
        return clock - self.at < self.seconds


def fit(text: str, width: int, size: int = SIZE) -> str:
    """`text`, shortened with an ellipsis if it does not fit `width` pixels."""
    if theme.text(text, size, bold=True).get_width() <= width:
        return text
    while len(text) > 1 and theme.text(text + "...", size, bold=True).get_width() > width:
        text = text[:-1]
    return text.rstrip() + "..."


def draw(surface: pygame.Surface, area: pygame.Rect, toast: Toast | None, clock: float) -> pygame.Rect | None:
    """Draw `toast` centred near the top of `area` (the battlefield); its rectangle, or None when
    there is none or its time is over."""
    if toast is None or not toast.alive(clock):
        return None
    colour = theme.TEXT_GOOD if toast.good else theme.TEXT_BAD
    t = theme.text(fit(toast.text, max(40, area.w - 60), toast.size), toast.size, colour, bold=True)
    r = pygame.Rect(0, 0, t.get_width() + 28, t.get_height() + 16)
    r.midtop = (area.centerx, area.y + 12)
    left = toast.seconds - (clock - toast.at)
    alpha = 255 if left > FADE else max(0, int(255 * left / FADE))
    box = pygame.Surface(r.size, pygame.SRCALPHA)
    pygame.draw.rect(box, (*theme.PANEL, 235), box.get_rect(), border_radius=8)
    pygame.draw.rect(box, (*colour, 255), box.get_rect(), width=2, border_radius=8)
    box.blit(t, (14, 8))
    box.set_alpha(alpha)
    surface.blit(box, r.topleft)
    return r
