"""Battlefield controls for the open decision: drags, previews and clicks on the field.

The panel (game.ui.decisions) shows buttons; a `FieldTool` is the mouse side of the same
decision: it reads presses, drags and releases in inches, keeps an uncommitted choice (a unit
dragged to a ghost position, a point under the pointer), adds marks to the battlefield
(`Overlays.marks`, drawn by render/overlays.py) and a status hint, and commits by submitting an
engine action through the scene (`scene.handle(intent("choose", action=...))`).

The modules (after the base, one tool family each):
    base.py       `FieldTool` and the tool registry (`@tool(pred)`, `kind_is`, `phase_is`)
    units.py      deployment, movement (normal, run, retreat) and charge moves: drag a unit
    targets.py    shooting and combat: pick a unit, then a target
    predatory.py  predatory control (E7) and the predatory move preview (E9, E10, E4b)
    casters.py    the E5 model choice of a caster of several models: badges, hover ranges
    move_words.py the engine's move-problem texts with their tokens named (a drag's hint)
    undo.py       undo of actions that rolled no dice (the engine has no undo; the UI keeps clones)

Tool commands (intent "tool" name=..., and the keys): commit (Enter), undo (U), cancel (Esc).
A tool never changes the state itself.
"""

from __future__ import annotations

from typing import Any

# The tool modules register their tools (and their panel controls) when imported: importing
# this package loads them all, so `tool_for` sees every tool.
from game.ui.controls import casters, predatory, targets, units  # noqa: F401
from game.ui.controls.base import TOOLS, FieldTool


def tool_for(scene: Any) -> FieldTool | None:
    """The tool for the scene's open decision (None when nothing special applies)."""
    st = scene.session.state
    if st.is_over():
        return None
    d = scene.session.decision
    for pred, cls in TOOLS:
        if pred(d):
            return cls(scene)
    return None
