"""Intents: what the player means, independent of the key, button or mouse that said it.

Only `game.ui.input` makes intents from pygame events; tests make them directly.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Intent:
    """`kind` names the meaning; `data` carries its arguments.

    Kinds used by the scenes:
      quit, back, resize(size), screenshot, fit, ruler, end_phase, continue, save, load,
      pan(dx, dy) in pixels, zoom(factor, pos), pointer(pos), press(pos, button), release(pos, button),
      drag(pos, rel, buttons), scroll(pos, dy),
      choose(action) an engine action, select(key) a panel selection, ui(name, value) a menu widget,
      step(delta) in replays, toggle(name).
    """

    kind: str
    data: dict[str, Any] = field(default_factory=dict)

    def get(self, key: str, default: Any = None) -> Any:
        return self.data.get(key, default)


def intent(kind: str, **data: Any) -> Intent:
    return Intent(kind, data)
