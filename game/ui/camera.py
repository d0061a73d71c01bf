"""The camera: inches on the battlefield <-> pixels on the screen.

One inch is `scale` pixels. `ox, oy` is the screen position of the battlefield's (0, 0) corner.
The battlefield's y axis points up the table (player 1's edge is y = 0, drawn at the bottom).
`version` changes whenever the view changes, so cached layers know when to re-render.
Zooming out stops at "fit" (the whole battlefield in view): further out the board is only
smaller, and its labels have no room to be read.
"""

from __future__ import annotations

import pygame

MIN_SCALE = 4.0
MAX_SCALE = 120.0


class Camera:
    def __init__(self, viewport: pygame.Rect, world: tuple[float, float], margin: int = 28) -> None:
        self.viewport = pygame.Rect(viewport)
        self.world = world  # width, height in inches
        self.margin = margin  # pixels kept for the rulers
        self.scale = 10.0
        self.fit_scale = MIN_SCALE  # set by fit(): the smallest scale zooming may reach
        self.ox = float(self.viewport.x)
        self.oy = float(self.viewport.bottom)
        self.version = 0
        self.fit()

    # --- transforms ------------------------------------------------------------------------

    def to_screen(self, x: float, y: float) -> tuple[float, float]:
        return self.ox + x * self.scale, self.oy - y * self.scale

    def to_screen_i(self, x: float, y: float) -> tuple[int, int]:
        return round(self.ox + x * self.scale), round(self.oy - y * self.scale)

    def to_world(self, px: float, py: float) -> tuple[float, float]:
        return (px - self.ox) / self.scale, (self.oy - py) / self.scale

    def px(self, inches: float) -> float:
        return inches * self.scale

    # --- changes -----------------------------------------------------------------------------

    def _changed(self) -> None:
        self.version += 1

    def set_viewport(self, viewport: pygame.Rect) -> None:
        self.viewport = pygame.Rect(viewport)
        self.fit()

    def fit(self) -> None:
        """Fit the whole battlefield (and its rulers) in the viewport, centred."""
        w, h = self.world
        m = self.margin
        vw, vh = self.viewport.w - 2 * m, self.viewport.h - 2 * m
        self.scale = max(MIN_SCALE, min(vw / w, vh / h))
        self.fit_scale = self.scale
        self.ox = self.viewport.centerx - w * self.scale / 2
        self.oy = self.viewport.centery + h * self.scale / 2
        self._changed()

    def set_scale(self, scale: float, anchor: tuple[float, float] | None = None) -> None:
        """Zoom so that the world point under `anchor` (screen px) stays under it; never
        further out than fit."""
        scale = max(self.fit_scale, MIN_SCALE, min(MAX_SCALE, scale))
        if scale == self.fit_scale:  # at fit the board is whole and centred, wherever the pointer is
            self.fit()
            return
        ax, ay = anchor if anchor is not None else self.viewport.center
        wx, wy = self.to_world(ax, ay)
        self.scale = scale
        self.ox = ax - wx * scale
        self.oy = ay + wy * scale
        self._changed()

    def zoom_at(self, factor: float, anchor: tuple[float, float]) -> None:
        self.set_scale(self.scale * factor, anchor)

    def pan(self, dx: float, dy: float) -> None:
        self.ox += dx
        self.oy += dy
        self._changed()

    def centre_on(self, x: float, y: float) -> None:
        sx, sy = self.to_screen(x, y)
        self.pan(self.viewport.centerx - sx, self.viewport.centery - sy)

    def key(self) -> tuple:
        return (round(self.scale, 6), round(self.ox, 3), round(self.oy, 3), tuple(self.viewport))
