"""Battlefield controls for the open decision: drags, previews and clicks on the field.

The panel (game.ui.decisions) shows buttons; a `FieldTool` is the mouse side of the same
decision: it reads presses, drags and releases in inches, keeps an uncommitted choice (a unit
dragged to a ghost position, a point under the pointer), adds marks to the battlefield
(`Overlays.marks`, drawn by render/overlays.py) and a status hint, and commits by submitting an
engine action through the scene (`scene.handle(intent("choose", action=...))`).

One tool family per module:
    units.py      deployment, movement (normal, run, retreat) and charge moves: drag a unit
    targets.py    shooting and combat: pick a unit, then a target
    predatory.py  predatory control (E7) and the predatory move preview (E9, E10, E4b)
    undo.py       undo of actions that rolled no dice (the engine has no undo; the UI keeps clones)

Tool commands (intent "tool" name=..., and the keys): commit (Enter), undo (U), cancel (Esc).
A tool never changes the state itself.
"""

from __future__ import annotations

from typing import Any, Callable

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


def tool_for(scene: Any) -> FieldTool | None:
    """The tool for the scene's open decision (None when nothing special applies)."""
    _load()
    st = scene.session.state
    if st.is_over():
        return None
    d = scene.session.decision
    for pred, cls in TOOLS:
        if pred(d):
            return cls(scene)
    return None


_loaded = False


def _load() -> None:
    global _loaded
    if not _loaded:
        _loaded = True
        from game.ui.controls import predatory, targets, units  # noqa: F401  (they register)
