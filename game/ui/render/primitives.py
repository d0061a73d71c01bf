"""Drawing primitives that measure true: the pixels they draw straddle the size in inches.

One job: the low-level strokes shared by the battlefield renderer (field.py) and the
decision marks (overlays.py). Both import them from here, so neither imports the other to
draw a circle.
"""

from __future__ import annotations

import pygame


def circle(surf: pygame.Surface, colour, centre, radius_px: float, width: int = 0) -> pygame.Rect:
    """A circle whose drawn pixels straddle the true radius (pygame draws a radius-n circle's
    outline at n-1 .. n-width), so rings measure true on screen."""
    c = (round(centre[0]), round(centre[1]))
    if width:
        return pygame.draw.circle(surf, colour, c, max(1, round(radius_px + width / 2)), width)
    return pygame.draw.circle(surf, colour, c, max(1, round(radius_px + 0.5)))
