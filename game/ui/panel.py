"""What a decision control is, shared by the panel (decisions.py) and the field tools (controls/).

One job: the panel's vocabulary. A control is `fn(ctx: PanelContext) -> PanelView`, registered
for a decision kind with `@control(kind)` (or "phase:<phase>" for a phase's decision); a view
holds buttons (`ButtonSpec`), lines, a point choice (`PointSpec`) and battlefield picks.
`option_button` is the standard button for an engine option; `spent_button` a greyed slot
that keeps its place and says why it is not offered (the engine's reason, with its rule ID).
decisions.py builds the panel from the registry; the field-tool modules register their own
controls here, so that neither imports the other for these records.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from game.rules import Action
from game.ui.intents import Intent, intent
from game.ui.labels import describe


@dataclass
class ButtonSpec:
    label: str
    intent: Intent
    odds: str = ""
    tip: str = ""
    enabled: bool = True
    role: str = "option"  # option | nav | end
    # a numbered slot (keys 1-9 press it); a button with a key of its own (Undo: U) is not
    numbered: bool = True


@dataclass
class PointSpec:
    """A continuous choice: click the battlefield (Decision.data["point_action"])."""

    action: str
    player: int
    fields: dict[str, Any]
    centre: tuple[float, float] | None = None
    reach: float | None = None
    scroll: str | None = None  # a manifestation set-up: draw its footprint as the ghost
    candidates: list[tuple[float, float]] = field(default_factory=list)

    def action_at(self, x: float, y: float) -> Action:
        return Action.from_dict(
            {"type": self.action, "player": self.player, "x": round(x, 3), "y": round(y, 3), **self.fields}
        )


@dataclass
class PanelView:
    title: str
    lines: list[str] = field(default_factory=list)
    buttons: list[ButtonSpec] = field(default_factory=list)
    point: PointSpec | None = None
    # battlefield clicks: a unit or manifestation id -> the intent clicking it means
    field_picks: dict[str, Intent] = field(default_factory=dict)
    # a template for "why can't I pick that?": thing id -> the action that clicking it would try
    probe: Callable[[str], Action | None] | None = None
    # a field tool (game.ui.controls) takes the point choice: no generic point spec
    custom_point: bool = False
    # where Back (Esc) goes: drawn in the panel's fixed footer, never among the numbered buttons
    back: ButtonSpec | None = None


@dataclass
class PanelContext:
    session: Any
    decision: Any
    selection: dict[str, Any]  # the scene's staged choice (unit, model, ability)
    tool: Any = None  # the battlefield tool for this decision (game.ui.controls), if any
    undo: Any = None  # the scene's UndoBook (game.ui.controls.undo), if any

    @property
    def state(self):
        return self.session.state


CONTROLS: dict[str, Callable[[PanelContext], PanelView]] = {}


def control(kind: str):
    def reg(fn):
        # One control per kind: which of two would win would depend on the import order.
        if kind in CONTROLS:
            raise ValueError(f"two panel controls for {kind!r}: {CONTROLS[kind].__qualname__} and {fn.__qualname__}")
        CONTROLS[kind] = fn
        return fn

    return reg


def option_button(ctx: PanelContext, action: Action, label: str | None = None) -> ButtonSpec:
    lab = describe(ctx.state, action, ctx.decision)
    role = "end" if action.type in ("EndPhase", "PassDispel", "DeclineUnbind") else "option"
    return ButtonSpec(label or lab.text, intent("choose", action=action), lab.odds, lab.tip, role=role)


def spent_button(label: str, why: str, detail: str = "") -> ButtonSpec:
    """A slot that keeps its place but is not offered now: greyed, `why` (short, with the rule
    ID) under it and on hover, `detail` (the engine's full reason) in its tool tip. Its key
    says why instead of acting."""
    return ButtonSpec(label, intent("why", text=detail or why), why, detail or why, enabled=False)
