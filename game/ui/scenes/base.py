"""The scene protocol: `handle(intent)`, `update(dt)`, `draw(surface)`; plus `manager`, the
scene's pygame-gui manager (or None), which the input layer feeds with raw events."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from game.ui.intents import Intent

if TYPE_CHECKING:
    from game.ui.app import App


class Scene:
    manager: Any = None

    def __init__(self, app: "App") -> None:
        self.app = app

    def handle(self, intent: Intent) -> None:  # pragma: no cover - overridden
        pass

    def update(self, dt: float) -> None:
        if self.manager is not None:
            self.manager.update(dt)

    def draw(self, surface) -> None:  # pragma: no cover - overridden
        pass

    def on_resize(self, size: tuple[int, int]) -> None:
        if self.manager is not None:
            self.manager.set_window_resolution(size)

    def close(self) -> None:
        if self.manager is not None:
            self.manager.clear_and_reset()
