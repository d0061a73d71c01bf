"""Drag a whole unit: deployment (G4), the movement phase (normal move, run, retreat; R4) and
charge moves (R4).

Press on one of your units and drag: every model is translated with the pointer. In the
movement phase and in a charge the drag is clamped to the furthest legal point along the drag
direction: each model's path is swept by the physics layer (`move_base`, the same call the
engine's `move_problems` makes), then the end is checked with `move_problems` and backed off
until it is legal. The ghost shows where the unit would stand (green: `State.explain` accepts
the action; red: its first reason), with the inches left ("3.4" of 5" left").

Deployment drops the unit where it is released (DeployUnit). A movement or charge move waits
for a commit: Enter, the Commit button, or a click on the ghost.
"""

from __future__ import annotations

import math
from typing import Any

from game.rules.actions import Charge, DeployUnit, FailCharge, MoveUnit, Retreat, Run
from game.ui import theme
from game.ui.controls import FieldTool, kind_is, phase_is, tool
from game.ui.decisions import ButtonSpec, PanelContext, PanelView, control, option_button
from game.ui.intents import intent
from game.ui.render.field import Ring
from game.ui.render.overlays import Band, Bases, Label, Line, Shape

EPS = 1e-3
CLICK = 0.15  # inches of pointer travel under which a press-release is a click


def live_circles(state, uid: str, dx: float = 0.0, dy: float = 0.0) -> list[tuple[float, float, float]]:
    r = state.game.warscroll(state.units[uid].warscroll).base.radius_in or 0.5
    return [(m.x + dx, m.y + dy, r) for _, m in state.units[uid].live_models()]


def path_limit(state, uid: str, ux: float, uy: float, length: float) -> float:
    """How far the whole unit can slide along (ux, uy) before any model's path is blocked
    (the physics layer, with the same obstacles as `formation.move_problems`)."""
    import numpy as np

    from game.geometry.nearby import BaseIndex
    from game.physics.move import move_base
    from game.rules.formation import can_fly, radius_of
    from game.rules.space import positions

    if length <= 0:
        return 0.0
    u = state.units[uid]
    pos = positions(state)
    mine = pos.owner == pos.units.index(uid)
    others = BaseIndex.from_arrays(pos.x[~mine], pos.y[~mine], pos.r[~mine])
    friendly = np.flatnonzero(pos.player[~mine] == u.player).tolist()
    r = radius_of(state, uid)
    fly = can_fly(state, uid)
    bf = state.game.battlefield
    best = length
    for _, m in u.live_models():
        res = move_base((m.x, m.y), (m.x + ux * length, m.y + uy * length), r, bases=others,
                        impassable=[] if fly else bf.impassable, width=bf.width, height=bf.height, fly=fly,
                        passable=friendly)
        best = min(best, res.travelled)
    return best


def chance_2d6_at_least(n: float) -> float:
    need = math.ceil(n - 1e-9)
    if need <= 2:
        return 1.0
    if need > 12:
        return 0.0
    return sum(1 for a in range(1, 7) for b in range(1, 7) if a + b >= need) / 36


class UnitDragTool(FieldTool):
    mode = "move"  # deploy | move | charge

    def __init__(self, scene: Any) -> None:
        super().__init__(scene)
        self.unit: str | None = None
        self.grab: tuple[float, float] | None = None
        self.start = (0.0, 0.0)
        self.want: tuple[float, float] | None = None  # desired offset (inches)
        self.offset: tuple[float, float] | None = None  # clamped, pending offset
        self.dragging = False
        self.dirty = False
        self.reasons: list[str] = []  # the pending action's problems (empty: legal)
        self.raw_reasons: list[str] = []  # why the wanted point was clamped
        self.click_commit = False
        self._cache: dict = {}
        if self.mode == "charge":
            self.unit = self.decision.data.get("unit")
        else:
            sel = scene.selection.get("unit")
            if sel in self.state.units and self.can_drag(sel) is None:
                self.unit = sel

    # --- rules of the drag -----------------------------------------------------------------

    def can_drag(self, uid: str) -> str | None:
        """None if `uid` can be dragged now, else why not."""
        st = self.state
        u = st.units.get(uid)
        if u is None or not u.alive:
            return "that unit is not on the battlefield"
        if u.player != self.player:
            return f"{u.name} belongs to player {u.player}"
        if self.mode == "deploy":
            return None
        if self.mode == "charge":
            return None if uid == self.decision.data.get("unit") else f"{st.units[self.decision.data['unit']].name} is charging"
        from game.rules.formation import in_combat
        from game.rules.movement import declared, moved_this_phase

        if moved_this_phase(st, uid):
            return f"{u.name} has already moved this phase (R1)"
        if in_combat(st, uid) and not (declared(st, uid) or {}).get("kind") == "retreat":
            return f"{u.name} is in combat: declare a Retreat first (R4)"
        return None

    def reach(self) -> float:
        if self.mode == "charge":
            return float(self.decision.data.get("roll", 0))
        if self.mode == "deploy" or self.unit is None:
            return math.inf
        from game.rules.movement import allowance

        return allowance(self.state, self.unit)[1]

    def move_kind(self) -> str:
        if self.mode != "move" or self.unit is None:
            return self.mode
        from game.rules.movement import allowance

        return allowance(self.state, self.unit)[0]

    def to(self, off: tuple[float, float]) -> tuple[tuple[float, float], ...]:
        from game.rules.formation import translated

        return tuple(translated(self.state, self.unit, off[0], off[1]))

    def action(self, off: tuple[float, float]):
        cls = DeployUnit if self.mode == "deploy" else MoveUnit
        return cls(player=self.player, unit=self.unit, to=self.to(off))

    def legal_at(self, length: float, ux: float, uy: float) -> bool:
        from game.rules.formation import move_problems

        to = self.to((ux * length, uy * length))
        if self.mode == "charge":
            return not move_problems(self.state, self.unit, to, self.reach(), may_end_in_combat=True, rule="R4", first_only=True)
        return not move_problems(self.state, self.unit, to, self.reach(), may_end_in_combat=False, rule="G4", first_only=True)

    def clamp(self, want: tuple[float, float], final: bool = True) -> tuple[tuple[float, float] | None, list[str], list[str]]:
        """(offset, reasons for the offset, reasons the wanted offset was cut).

        While dragging (`final=False`) the engine's full `explain` is skipped for speed: the
        clamped offset already passed `move_problems`; the release asks the engine."""
        st = self.state
        key = (round(want[0], 2), round(want[1], 2), final)
        hit = self._cache.get(key)
        if hit is not None:
            return hit
        L = math.hypot(*want)
        if L < EPS:
            out = (None, [], [])
        elif self.mode == "deploy":
            out = (want, st.explain(self.action(want)), [])
        else:
            with st.query():
                ux, uy = want[0] / L, want[1] / L
                reach = self.reach()
                lw = min(L, max(0.0, reach - EPS))
                lc = min(lw, max(0.0, path_limit(st, self.unit, ux, uy, lw) - 2 * EPS))
                best = 0.0
                if lc > EPS and self.legal_at(lc, ux, uy):
                    best = lc
                elif lc > EPS:
                    hi = lc
                    for f in (0.85, 0.7, 0.55, 0.4, 0.3, 0.2, 0.1, 0.05):
                        if self.legal_at(lc * f, ux, uy):
                            best = lc * f
                            break
                        hi = lc * f
                    if best > 0:
                        for _ in range(7):
                            mid = (best + hi) / 2
                            if self.legal_at(mid, ux, uy):
                                best = mid
                            else:
                                hi = mid
                off = (round(ux * best, 4), round(uy * best, 4)) if best > EPS else None
                reasons = st.explain(self.action(off)) if off is not None and (final or self.mode == "charge") else []
                raw = []
                if off is None or math.hypot(want[0] - off[0], want[1] - off[1]) > 0.05:
                    if final or off is None:
                        raw = st.explain(self.action(want))
                    elif L > reach:
                        raw = [f'the unit may move {reach:g}" ({"R4" if self.mode == "charge" else "G4"})']
                    else:
                        raw = ["the move stops being legal here (release for the engine's reason)"]
                out = (off, reasons, raw)
        if len(self._cache) > 400:
            self._cache.clear()
        self._cache[key] = out
        return out

    # --- the mouse -------------------------------------------------------------------------

    def _on_ghost(self, wx: float, wy: float) -> bool:
        if self.offset is None or self.unit is None:
            return False
        return any(math.hypot(x - wx, y - wy) <= r + 0.2 for x, y, r in live_circles(self.state, self.unit, *self.offset))

    def press(self, wx: float, wy: float, button: int) -> bool:
        if button != 1:
            return False
        if self._on_ghost(wx, wy):
            self._begin(wx, wy, self.offset)
            self.click_commit = self.mode != "deploy"
            return True
        thing, model = self.scene.thing_at(wx, wy)
        if thing not in self.state.units:
            return False
        why = self.can_drag(thing)
        if why is not None:
            if self.state.units[thing].player == self.player:
                self.say(why, theme.TEXT_BAD)
            return False
        if thing != self.unit:
            self.cancel()
            self.unit = thing
        if self.mode != "charge":
            self.scene.handle(intent("select", unit=thing, model=model))
        self._begin(wx, wy, self.offset or (0.0, 0.0))
        self.click_commit = False
        return True

    def _begin(self, wx: float, wy: float, start) -> None:
        self.grab = (wx, wy)
        self.start = tuple(start)
        self.want = tuple(start)
        self.dragging = True

    def drag(self, wx: float, wy: float) -> bool:
        if not self.dragging or self.grab is None:
            return False
        self.want = (self.start[0] + wx - self.grab[0], self.start[1] + wy - self.grab[1])
        self.dirty = True
        return True

    def release(self, wx: float, wy: float) -> bool:
        if not self.dragging or self.grab is None:
            return False
        self.dragging = False
        moved = math.hypot(wx - self.grab[0], wy - self.grab[1])
        if moved < CLICK and self.click_commit:
            self.command("commit")
            return True
        self.drag(wx, wy)
        self.update()  # not dragging any more: the engine's explain decides
        if self.mode == "deploy" and self.offset is not None:
            if self.reasons:
                self.say(self.reasons[0], theme.TEXT_BAD)
                self.offset = None
            else:
                self.choose(self.action(self.offset))
        return True

    def update(self) -> None:
        if self.dirty and self.want is not None and self.unit is not None:
            self.dirty = False
            self.offset, self.reasons, self.raw_reasons = self.clamp(self.want, final=not self.dragging)

    # --- commands --------------------------------------------------------------------------

    def pending(self) -> bool:
        return self.unit is not None and self.offset is not None

    def cancel(self) -> None:
        self.offset = self.want = self.grab = None
        self.dragging = False
        self.reasons, self.raw_reasons = [], []

    def command(self, name: str, it=None) -> bool:
        if name == "commit":
            if not self.pending():
                return False
            if self.reasons:
                self.say(self.reasons[0], theme.TEXT_BAD)
                return True
            self.choose(self.action(self.offset))
            return True
        if name in ("cancel", "undo"):
            if self.pending() or self.dragging:
                self.cancel()
                self.say("drag cancelled")
                return True
        return False

    def panel_key(self) -> Any:
        settled = None if self.dragging or self.offset is None else (round(self.offset[0], 1), round(self.offset[1], 1))
        return (self.unit, self.pending(), bool(self.reasons), self.dragging, settled)

    # --- drawing ---------------------------------------------------------------------------

    def left_text(self) -> str:
        """E.g. '3.4" of 5" left' (the inches a move or charge may still go)."""
        reach = self.reach()
        if math.isinf(reach):
            return ""
        used = math.hypot(*self.offset) if self.offset else 0.0
        return f'{max(0.0, reach - used):.1f}" of {reach:g}" left'

    def overlay(self, ov):
        st = self.state
        if self.unit is None or self.unit not in st.units or not st.units[self.unit].alive:
            return None
        uid = self.unit
        u = st.units[uid]
        reach = self.reach()
        home = live_circles(st, uid)
        if not math.isinf(reach):
            col = theme.RING_REACH if self.mode == "charge" else theme.RING_MOVE
            label = f'{reach:g}" charge' if self.mode == "charge" else f'{self.move_kind()} {reach:g}"'
            if len(home) <= 2:
                for k, (x, y, r) in enumerate(home):
                    ov.rings.append(Ring(x, y, r + reach, col, label if k == 0 else "", 1))
            else:  # many models: the outline of every model's reach, one shape
                env = self._envelope(home, reach)
                ov.marks.append(Shape(env, (0, 0, 0, 0), col, 1))
                b = env.bounds
                ov.marks.append(Label((b[0] + b[2]) / 2, b[3], label, col, 12, dy=-18))
        if self.mode == "charge":
            self._engagement_bands(ov)
        elif self.mode == "move":
            self._combat_zones(ov, reach)
        hint = None
        if self.offset is not None:
            ok = not self.reasons
            ghost = live_circles(st, uid, *self.offset)
            if self.raw_reasons and self.want is not None and self.dragging:
                ov.marks.append(Bases(live_circles(st, uid, *self.want), ok=False, alpha=35))
            ov.marks.append(Bases(ghost, ok=ok))
            for (x0, y0, _), (x1, y1, _) in zip(home, ghost):
                ov.marks.append(Line((x0, y0), (x1, y1), theme.RULER, 1))
            cx = sum(c[0] for c in ghost) / len(ghost)
            bottom = min(c[1] - c[2] for c in ghost)
            text = self.left_text()
            if text:
                ov.marks.append(Label(cx, bottom, text, theme.ACCENT, 14, dy=6))
            if not ok:
                hint = (self.reasons[0], theme.TEXT_BAD)
            else:
                verb = {"deploy": "Release to set up here", "charge": "Charge ends here"}.get(self.mode, "Legal")
                extra = f", {text}" if text else ""
                cut = f" | stopped: {_short(self.raw_reasons[0])}" if self.raw_reasons else ""
                tail = "" if self.mode == "deploy" else ": Enter commits, Esc cancels"
                hint = (f"{verb}{extra}{tail}{cut}", theme.TEXT_GOOD)
        elif self.dragging and self.raw_reasons:
            ov.marks.append(Bases(live_circles(st, uid, *(self.want or (0, 0))), ok=False, alpha=35))
            hint = ("Cannot move that way: " + self.raw_reasons[0], theme.TEXT_BAD)
        elif self.mode == "move":
            hint = (f"{u.name}: drag it to move ({self.left_text()})", theme.TEXT)
        elif self.mode == "charge":
            hint = (f"{u.name}: drag it to end within ½\" of an enemy ({self.left_text()}), or give up", theme.TEXT)
        return hint

    def _envelope(self, home, reach: float):
        key = ("envelope", reach)
        env = self._cache.get(key)
        if env is None:
            import shapely

            env = shapely.union_all([shapely.Point(x, y).buffer(r + reach, quad_segs=24) for x, y, r in home])
            if env.geom_type != "Polygon":
                env = env.convex_hull
            self._cache[key] = env
        return env

    def _combat_zones(self, ov, reach: float) -> None:
        """The 3" combat range around enemy models the unit could reach (a thin red ring: no
        normal move or run ends inside it, R4)."""
        st = self.state
        me = live_circles(st, self.unit)
        if not me:
            return
        for k, e in st.units.items():
            if e.player == self.player or not e.alive:
                continue
            for x, y, r in live_circles(st, k):
                gap = min(math.hypot(x - a, y - b) - r - ra for a, b, ra in me)
                if gap <= reach + 3.5:
                    ov.marks.append(Band(x, y, r + 3.0 - 0.04, 0.08, theme.SIGHT_BLOCKED))

    def _engagement_bands(self, ov) -> None:
        """The ½" band around every model of enemies within the roll + ½" (R4)."""
        st = self.state
        from game.rules.charge import ENGAGE, enemies_within
        from game.rules.space import manifestation_shape, unit_circles

        key = ("targets", self.version)
        targets = self._cache.get(key)
        if targets is None:
            with st.query():
                targets = enemies_within(st, self.unit, unit_circles(st, self.unit), self.reach() + ENGAGE)
            self._cache[key] = targets
        for t in targets:
            if t in st.units:
                for x, y, r in live_circles(st, t):
                    ov.marks.append(Band(x, y, r, ENGAGE, theme.ACCENT))
                ov.highlight_units[t] = theme.LEGAL_TARGET
            elif t in st.manifestations:
                shape = manifestation_shape(st, t)
                ov.marks.append(Shape(shape.buffer(ENGAGE) if hasattr(shape, "buffer") and not hasattr(shape, "r")
                                      else _grow(shape, ENGAGE), (0, 0, 0, 0), theme.ACCENT, 2))


def _short(reason: str) -> str:
    """The engine's reason without the leading "<unit> cannot <move> there: "."""
    head, sep, tail = reason.partition(" there: ")
    return (tail if sep else reason).split("; ")[0]


def _grow(shape, by: float):
    from game.geometry.shapes import Circle

    if isinstance(shape, Circle):
        return Circle(shape.x, shape.y, shape.r + by)
    return shape.buffer(by)


@tool(kind_is("deploy"))
class DeployTool(UnitDragTool):
    mode = "deploy"

    def overlay(self, ov):
        hint = super().overlay(ov)
        if hint is None and not self.dragging:
            hint = ("Drag one of your units to redeploy it wholly within your zone (G4)", theme.TEXT)
        return hint


@tool(phase_is("movement"))
class MoveTool(UnitDragTool):
    mode = "move"

    def overlay(self, ov):
        st = self.state
        for k, u in st.units.items():
            if u.player == self.player and u.alive and k != self.unit and self.can_drag(k) is None:
                ov.highlight_units.setdefault(k, theme.LEGAL_TARGET)
        hint = super().overlay(ov)
        if hint is None:
            hint = ("Press on one of your units (highlighted) and drag it; release, then Enter to commit", theme.TEXT)
        return hint


@tool(kind_is("charge_move"))
class ChargeTool(UnitDragTool):
    mode = "charge"


# --- panels ---------------------------------------------------------------------------------


def _commit_buttons(ctx: PanelContext, view: PanelView, verb: str) -> None:
    t = ctx.tool
    if isinstance(t, UnitDragTool) and t.unit is not None:
        if t.pending():
            view.buttons.append(ButtonSpec(f"{verb} (Enter)", intent("tool", name="commit"),
                                           "" if t.dragging else t.left_text(),
                                           t.reasons[0] if t.reasons else "", enabled=not t.reasons))
            view.buttons.append(ButtonSpec("Cancel the drag (Esc)", intent("tool", name="cancel"), role="nav"))


@control("deploy")
def deploy_control(ctx: PanelContext) -> PanelView:
    d = ctx.decision
    view = PanelView(title=f"Player {d.player}: deployment")
    view.lines = ["Drag a unit on the battlefield to redeploy it (the whole unit moves): the ghost is green where "
                  "it is wholly within your zone, red with the reason where not (G4).",
                  "Check ranges and sight by hovering, then end deployment."]
    view.buttons += [option_button(ctx, o) for o in d.options]
    return view


@control("phase:movement")
def movement_control(ctx: PanelContext) -> PanelView:
    from game.rules.formation import in_combat
    from game.rules.movement import allowance, declared, moved_this_phase

    d = ctx.decision
    st = ctx.state
    view = PanelView(title=f"Player {d.player}: movement phase")
    t = ctx.tool
    uid = t.unit if isinstance(t, UnitDragTool) else None
    if uid is None and ctx.selection.get("unit") in st.units and st.units[ctx.selection["unit"]].player == d.player:
        uid = ctx.selection["unit"]
    if uid is None:
        view.lines.append("Press on a unit and drag it; release, then Enter (or click the ghost) to commit. "
                          "Run and Retreat: pick the unit first.")
        for k, u in st.units.items():
            if u.player != d.player or not u.alive or moved_this_phase(st, k):
                continue
            kind, reach = allowance(st, k)
            fighting = in_combat(st, k)
            note = "in combat: retreat only" if fighting and kind != "retreat" else f'{kind} {reach:g}"'
            view.buttons.append(ButtonSpec(f"{u.name}", intent("select", unit=k), odds=note, role="nav"))
        view.buttons.append(option_button(ctx, _end(d)))
        return view
    u = st.units[uid]
    view.title = f"Player {d.player}: move {u.name}"
    view.buttons.append(ButtonSpec("< Other units", intent("select", unit=None), role="nav"))
    if moved_this_phase(st, uid):
        view.lines.append(f"{u.name} has already moved this phase (R1).")
    else:
        kind, reach = allowance(st, uid)
        dec = declared(st, uid)
        view.lines.append({"normal": f'Normal move: up to {reach:g}" (it may not end within 3" of the enemy, R4).',
                           "run": f'Running: up to {reach:g}" (Move + {dec["extra"] if dec else 0}); no shooting or charging this turn.',
                           "retreat": f'Retreating: up to {reach:g}", ending out of combat; no shooting or charging this turn.'}[kind])
        view.lines.append("Drag the unit on the battlefield; the drag stops where the move stops being legal.")
        _commit_buttons(ctx, view, "Commit the move")
        for a, label, odds in ((Run(player=d.player, unit=uid), "Run: roll a D6, add it to Move", "+1 to +6\", average +3.5\"; no shooting or charging after"),
                               (Retreat(player=d.player, unit=uid), "Retreat: suffer D3 mortal damage, then move", "no shooting or charging after (R4)")):
            if not st.explain(a):
                view.buttons.append(ButtonSpec(label, intent("choose", action=a), odds))
    view.buttons.append(option_button(ctx, _end(d)))
    return view


def _end(d):
    from game.rules.actions import EndPhase

    return EndPhase(player=d.player)


@control("phase:charge")
def charge_phase_control(ctx: PanelContext) -> PanelView:
    from game.rules.charge import CHARGE_REACH, ENGAGE, charge_targets
    from game.rules.space import distance_to, unit_circles

    d = ctx.decision
    st = ctx.state
    view = PanelView(title=f"Player {d.player}: charge phase",
                     lines=[f"Declare a charge with a unit that has a visible enemy within {CHARGE_REACH:g}\": roll 2D6, "
                            "then drag it to end within ½\" of an enemy, or give up (R4)."])
    any_ = False
    with st.query():
        for k, u in st.units.items():
            if u.player != d.player or not u.alive:
                continue
            a = Charge(player=d.player, unit=k)
            if st.explain(a):
                continue
            targets = charge_targets(st, k, CHARGE_REACH)
            gaps = sorted((min(distance_to(st, c, t) for c in unit_circles(st, k)), t) for t in targets)
            odds = ""
            if gaps:
                g, t = gaps[0]
                need = max(0.0, g - ENGAGE)
                from game.ui.labels import name_of, pct

                odds = f'{name_of(st, t)[:18]} {g:.1f}": needs {math.ceil(need - 1e-9)}+ on 2D6 ({pct(chance_2d6_at_least(need))})'
            view.buttons.append(ButtonSpec(f"Charge with {u.name}", intent("choose", action=a), odds,
                                           "Roll 2D6 for the charge (R4)"))
            view.field_picks[k] = intent("select", unit=k)
            any_ = True
    if not any_:
        view.lines.append("No unit can charge now.")
    view.buttons.append(option_button(ctx, _end(d)))
    return view


@control("charge_move")
def charge_move_control(ctx: PanelContext) -> PanelView:
    d = ctx.decision
    st = ctx.state
    uid, roll = d.data["unit"], d.data["roll"]
    view = PanelView(title=f"Player {d.player}: charge with {st.units[uid].name}",
                     lines=[f"Charge roll {roll}: drag the unit up to {roll}\" so that it ends within ½\" of a visible "
                            "enemy (the gold bands), then Enter. Or give up: it does not move (R4)."])
    _commit_buttons(ctx, view, "Commit the charge")
    moves = [o for o in d.options if isinstance(o, MoveUnit)]
    if moves:
        view.buttons.append(ButtonSpec("Use a suggested charge move", intent("choose", action=moves[0]),
                                       "straight at the nearest enemy", role="nav"))
    view.buttons.append(ButtonSpec("Give up the charge", intent("choose", action=FailCharge(player=d.player)), role="end"))
    return view
