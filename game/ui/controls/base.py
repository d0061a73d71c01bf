"""The field tool: the mouse side of a decision, and the registry that finds one for it.

One job: what a tool is (`FieldTool`, whose methods the battle scene calls) and how a tool
module registers one for the decisions it serves (`@tool(pred)`, with `kind_is` and `phase_is`).
The tool modules (units.py, targets.py, predatory.py) import this; the package imports them, so
that `game.ui.controls.tool_for` sees every tool.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from game.ui import theme
from game.ui.intents import intent


class FieldTool:
    """The base tool: does nothing, so the scene's own behaviour applies."""

    def __init__(self, scene: Any) -> None:
        self.scene = scene
        self.version = scene.session.version

    # --- shortcuts -------------------------------------------------------------------------

    @property
    def state(self):
        return self.scene.session.state

    @property
    def decision(self):
        return self.scene.session.decision

    @property
    def player(self) -> int:
        return self.decision.player

    def choose(self, action) -> None:
        self.scene.handle(intent("choose", action=action))

    def say(self, text: str, colour=theme.TEXT) -> None:
        self.scene.say(text, colour)

    # --- what the scene calls --------------------------------------------------------------

    def panel_key(self) -> Any:
        """Changes when the panel's buttons must be rebuilt (not every frame)."""
        return None

    def decorate(self, view) -> None:
        """Add this tool's buttons and lines to the panel view."""

    def press(self, wx: float, wy: float, button: int) -> bool:
        """A press on the battlefield; True if the tool took it."""
        return False

    def drag(self, wx: float, wy: float) -> bool:
        return False

    def release(self, wx: float, wy: float) -> bool:
        return False

    def pointer(self, wx: float | None, wy: float | None) -> None:
        """The pointer moved (None: it left the battlefield)."""

    def update(self) -> None:
        """Once per frame before the overlays: do throttled work (e.g. clamping a drag)."""

    def command(self, name: str, it=None) -> bool:
        """commit | undo | cancel; True if the tool handled it."""
        return False

    def overlay(self, ov) -> tuple[str, tuple[int, int, int]] | None:
        """Add marks to `ov`; return a status hint (text, colour) or None."""
        return None


TOOLS: list[tuple[Callable[[Any], bool], type]] = []


def tool(pred: Callable[[Any], bool]):
    """Register a tool class for decisions matching `pred(decision)`."""

    def reg(cls):
        TOOLS.append((pred, cls))
        return cls

    return reg


def phase_is(*phases: str) -> Callable[[Any], bool]:
    return lambda d: d.kind == "phase" and d.data.get("phase") in phases


def kind_is(*kinds: str) -> Callable[[Any], bool]:
    return lambda d: d.kind in kinds
