"""Drag a whole unit: deployment (G4), the movement phase (normal move, run, retreat; R4) and
charge moves (R4).

Press on one of your units and drag: every model is translated with the pointer. In the
movement phase and in a charge the drag is clamped to the furthest legal point along the drag
direction: each model's path is swept by the physics layer (pymunk proposes: `move_base`, which
returns what the engine's own geometry sweep, `game.geometry.path.sweep_move`, returns for the
same path), then the end is checked with the engine's `move_problems` and backed off until it is
legal; the engine alone decides. The ghost shows where the unit would stand (green: `State.explain` accepts
the action; red: its first reason), with the inches left ("3.4" of 5" left").

M10: a manifestation that moves like a unit (a "walker": Move above 0", not PREDATORY;
`game.rules.movers.walkers`) is dragged the same way, its footprint as the ghost (a Circle or
a polygon, drawn as an overlay `Shape`); `MoveUnit.to` is its one new centre. Its clamp asks
the engine alone: the back-off search runs on `formation.thing_move_problems`, which decides
its path in geometry, so the UI keeps no copy of the path rule for it.

Deployment drops the unit where it is released (DeployUnit). A movement or charge move waits
for a commit: Enter, the Commit button, or a click on the ghost.
"""

from __future__ import annotations

import math
from typing import Any

from game.geometry.shapes import Circle
from game.i18n import N_, _
from game.rules import Charge, DeployUnit, FailCharge, MoveUnit, Retreat, Run
from game.ui import phase_words as words
from game.ui import theme
from game.ui.controls.base import FieldTool, kind_is, phase_is, tool
from game.ui.engine_words import engine_text
from game.ui.intents import intent
from game.ui.panel import ButtonSpec, PanelContext, PanelView, control, option_button, spent_button
from game.ui.render.field import Ring
from game.ui.render.overlays import Band, Bases, Label, Line, Shape

EPS = 1e-3
CLICK = 0.15  # inches of pointer travel under which a press-release is a click


def live_circles(state, uid: str, dx: float = 0.0, dy: float = 0.0) -> list[tuple[float, float, float]]:
    """The live models' bases of `uid` (the engine's model_circle), moved by (dx, dy)."""
    from game.rules.query import model_circle

    return [(c.x + dx, c.y + dy, c.r) for c in (model_circle(state, uid, i) for i, _ in state.units[uid].live_models())]


def on_field(state, thing: str | None) -> bool:
    """A live unit or a manifestation on the battlefield."""
    if thing in state.units:
        return state.units[thing].alive
    return thing in state.manifestations


def footprints(state, thing: str, dx: float = 0.0, dy: float = 0.0) -> list:
    """The shapes a mover stands on, shifted by (dx, dy): a unit's live bases (Circles), or a
    manifestation's footprint (a Circle or a polygon) from the engine's `footprint_at`."""
    from game.rules.query import footprint_at

    if thing in state.manifestations:
        m = state.manifestations[thing]
        return [footprint_at(state, m.scroll, m.x + dx, m.y + dy)]
    return [Circle(x, y, r) for x, y, r in live_circles(state, thing, dx, dy)]


def bounds_of(shape) -> tuple[float, float, float, float]:
    """(minx, miny, maxx, maxy) of a Circle or a shapely shape."""
    if isinstance(shape, Circle):
        return (shape.x - shape.r, shape.y - shape.r, shape.x + shape.r, shape.y + shape.r)
    return tuple(shape.bounds)


def centre(shape) -> tuple[float, float]:
    if isinstance(shape, Circle):
        return (shape.x, shape.y)
    c = shape.centroid
    return (c.x, c.y)


def grown(shape, by: float):
    """A Circle or polygon grown by `by` inches (a reach outline, a ½" band)."""
    if isinstance(shape, Circle):
        return Circle(shape.x, shape.y, shape.r + by)
    return shape.buffer(by)


def near_shape(shape, x: float, y: float, slack: float) -> bool:
    """Is (x, y) on the shape, or within `slack` inches of it?"""
    if isinstance(shape, Circle):
        return math.hypot(shape.x - x, shape.y - y) <= shape.r + slack
    import shapely

    return shape.distance(shapely.Point(x, y)) <= slack


def path_limit(state, uid: str, ux: float, uy: float, length: float) -> float:
    """How far the whole unit can slide along (ux, uy) before any model's path is blocked
    (the physics layer proposes, with the same obstacles as `formation.move_problems`; the
    engine checks the end)."""
    import numpy as np

    from game.geometry.nearby import BaseIndex
    from game.physics.move import move_base
    from game.rules.query import can_fly, positions, radius_of

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
    for _k, m in u.live_models():
        res = move_base(
            (m.x, m.y),
            (m.x + ux * length, m.y + uy * length),
            r,
            bases=others,
            impassable=[] if fly else bf.impassable,
            width=bf.width,
            height=bf.height,
            fly=fly,
            passable=friendly,
        )
        best = min(best, res.travelled)
    return best


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
        self._dirs: dict = {}  # drag direction -> (ux, uy, reach, swept length, {length: best})
        self._why: dict = {}  # (direction, length) -> the engine's first move problem there
        if self.mode == "charge":
            self.unit = self.decision.data.get("unit")
        else:
            sel = scene.selection.get("unit")
            if on_field(self.state, sel) and self.can_drag(sel) is None:
                self.unit = sel

    # --- rules of the drag -----------------------------------------------------------------

    def can_drag(self, uid: str) -> str | None:
        """None if `uid` (a unit, or a walker: M10) can be dragged now, else why not."""
        from game.rules import IllegalActionError
        from game.rules.query import check_own_mover, player_of
        from game.ui.labels import name_of, plain

        st = self.state
        if not on_field(st, uid):
            return _("that unit is not on the battlefield")
        name = name_of(st, uid)
        owner = player_of(st, uid)
        if owner != self.player:
            return _("{unit} belongs to player {n}").format(unit=name, n=owner)
        if uid in st.manifestations:
            if self.mode == "deploy":
                return _("{name} is a manifestation: it is set up when summoned, not deployed").format(name=name)
            try:
                check_own_mover(st, self.player, uid)  # the engine says why a manifestation cannot move
            except IllegalActionError as exc:
                return plain(st, engine_text(exc.message, st))
        if self.mode == "deploy":
            return None
        if self.mode == "charge":
            return (
                None
                if uid == self.decision.data.get("unit")
                else _("{unit} is charging").format(unit=name_of(st, self.decision.data["unit"]))
            )
        from game.rules.query import declared, in_combat, moved_this_phase

        if moved_this_phase(st, uid):
            return _("{unit} has already moved this phase (R1)").format(unit=name)
        if in_combat(st, uid) and not (declared(st, uid) or {}).get("kind") == "retreat":
            return _("{unit} is in combat: declare a Retreat first (R4)").format(unit=name)
        return None

    def reach(self) -> float:
        if self.mode == "charge":
            return float(self.decision.data.get("roll", 0))
        if self.mode == "deploy" or self.unit is None:
            return math.inf
        return self._allowance()[1]

    def move_kind(self) -> str:
        if self.mode != "move" or self.unit is None:
            return self.mode
        return self._allowance()[0]

    def _allowance(self) -> tuple[str, float]:
        """The engine's (kind, reach) of the unit's move, asked once per unit: a tool lives for
        one state version (issue 24: the overlay asked it three times a frame)."""
        key = ("allowance", self.unit)
        got = self._cache.get(key)
        if got is None:
            from game.rules.query import allowance

            got = self._cache[key] = tuple(allowance(self.state, self.unit))
        return got

    def shapes(self, off: tuple[float, float] = (0.0, 0.0)) -> list:
        """`footprints` of the tool's unit shifted by `off`: a unit's live bases are read from
        the engine once per tool (it lives for one state version) and shifted (issue 24)."""
        uid = self.unit
        if uid in self.state.manifestations:
            return footprints(self.state, uid, *off)
        key = ("home", uid)
        home = self._cache.get(key)
        if home is None:
            home = self._cache[key] = live_circles(self.state, uid)
        dx, dy = off
        return [Circle(x + dx, y + dy, r) for x, y, r in home]

    def to(self, off: tuple[float, float]) -> tuple[tuple[float, float], ...]:
        from game.rules.query import translated

        return tuple(translated(self.state, self.unit, off[0], off[1]))

    def action(self, off: tuple[float, float]):
        cls = DeployUnit if self.mode == "deploy" else MoveUnit
        return cls(player=self.player, unit=self.unit, to=self.to(off))

    def problems_at(self, length: float, ux: float, uy: float) -> list[str]:
        """The engine's first move problem `length` inches along (ux, uy) (empty: legal)."""
        from game.rules.query import thing_move_problems

        to = self.to((ux * length, uy * length))
        charge = self.mode == "charge"
        return thing_move_problems(
            self.state,
            self.unit,
            to,
            self.reach(),
            may_end_in_combat=charge,
            rule="R4" if charge else "G4",
            first_only=True,
        )

    def legal_at(self, length: float, ux: float, uy: float) -> bool:
        return not self.problems_at(length, ux, uy)

    def stop_words(self, text: str, off: tuple[float, float]) -> str:
        """The engine's reason a move stops, in display words (controls.move_words): the
        mover's shapes at `off` name the enemy of a combat-range stop."""
        from game.ui.controls.move_words import why_stopped

        return why_stopped(self.state, self.unit, text, self.move_kind(), self.shapes(off))

    def path_length(self, ux: float, uy: float, length: float) -> float:
        """Where the search for the furthest legal point starts: a unit's models are swept by
        the physics layer (`path_limit`); a walker starts at the full length and the back-off
        search on the engine's `thing_move_problems` (its path decided in geometry) finds
        where it stops (M10)."""
        if self.unit in self.state.manifestations:
            return length
        return path_limit(self.state, self.unit, ux, uy, length)

    def clamp(
        self, want: tuple[float, float], final: bool = True
    ) -> tuple[tuple[float, float] | None, list[str], list[str]]:
        """(offset, reasons for the offset, reasons the wanted offset was cut).

        While dragging (`final=False`) the engine's full `explain` is skipped for speed: the
        clamped offset already passed `move_problems`; the release asks the engine."""
        st = self.state
        key = (self.unit, round(want[0], 2), round(want[1], 2), final)
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
                ux, uy, best = self._furthest(want[0] / L, want[1] / L, L)
                off = (round(ux * best, 4), round(uy * best, 4)) if best > EPS else None
                reasons = st.explain(self.action(off)) if off is not None and (final or self.mode == "charge") else []
                raw = []
                if off is None or math.hypot(want[0] - off[0], want[1] - off[1]) > 0.05:
                    # why it stops here: the engine's reason just past the clamped point (the
                    # wanted point's first reason may be only "too far"), in display words made
                    # from the engine's first move problem (its facts); once released, a reason
                    # that is not about the path (e.g. the phase's) from its full explain
                    step = min(L, best + 0.1)
                    past = (ux * step, uy * step)
                    texts = self._problems_cached(step, ux, uy) or self._problems_cached(L, ux, uy)
                    if not texts and (final or off is None):
                        texts = st.explain(self.action(past)) or st.explain(self.action(want))
                    raw = [self.stop_words(texts[0], past)] if texts else []
                out = (off, reasons, raw)
        if len(self._cache) > 400:
            self._cache.clear()
        self._cache[key] = out
        return out

    def _furthest(self, ux: float, uy: float, L: float) -> tuple[float, float, float]:
        """(ux, uy, best): the furthest point along a drag direction that the engine's
        `thing_move_problems` accepts, at most `L` inches.

        Issue 24 (smooth drags): the answer is cached per direction (to 1/300 of a radian, so
        the shown point may lie up to that off the pointer's ray, 0.01" at 6"; the direction returned is the
        one the engine was asked about) and per searched length, so a pointer past the move
        limit or against a wall costs nothing more; the physics sweep (where the search starts)
        is asked once per direction, over the whole reach. The engine alone decides: `best` is
        a length it accepted (or 0)."""
        ang = (self.unit, round(math.atan2(uy, ux) * 300))
        dk = self._dirs.get(ang)
        if dk is None:
            if len(self._dirs) > 400:
                self._dirs.clear()
            reach = self.reach()
            cap = max(0.0, reach - EPS)
            dk = self._dirs[ang] = (ux, uy, cap, self.path_length(ux, uy, cap) if cap > 0 else 0.0, {})
        ux, uy, cap, plen, found = dk
        lw = min(L, cap)
        lc = min(lw, max(0.0, plen - 2 * EPS))
        key = round(lc, 2)
        best = found.get(key)
        if best is None:
            best = found[key] = self._search(lc, ux, uy)
        return ux, uy, best

    def _search(self, lc: float, ux: float, uy: float) -> float:
        """Back off from `lc` along (ux, uy) to a length the engine accepts: `lc` itself, else
        the first of a few fractions, then bisection between it and the last refused one."""
        if lc <= EPS:
            return 0.0
        if self.legal_at(lc, ux, uy):
            return lc
        best, hi = 0.0, lc
        for f in (0.85, 0.7, 0.55, 0.4, 0.3, 0.2, 0.1, 0.05):
            if self.legal_at(lc * f, ux, uy):
                best = lc * f
                break
            hi = lc * f
        if best > 0:
            for _n in range(7):
                mid = (best + hi) / 2
                if self.legal_at(mid, ux, uy):
                    best = mid
                else:
                    hi = mid
        return best

    def _problems_cached(self, length: float, ux: float, uy: float) -> list[str]:
        """`problems_at`, remembered per direction and length (to 0.01")."""
        key = (self.unit, round(ux, 6), round(uy, 6), round(length, 2))
        got = self._why.get(key)
        if got is None:
            if len(self._why) > 400:
                self._why.clear()
            got = self._why[key] = self.problems_at(round(length, 2), ux, uy)
        return got

    # --- the mouse -------------------------------------------------------------------------

    def _on_ghost(self, wx: float, wy: float) -> bool:
        if self.offset is None or self.unit is None:
            return False
        return any(near_shape(s, wx, wy, 0.2) for s in self.shapes(self.offset))

    def press(self, wx: float, wy: float, button: int) -> bool:
        if button != 1:
            return False
        if self._on_ghost(wx, wy):
            self._begin(wx, wy, self.offset)
            self.click_commit = self.mode != "deploy"
            return True
        thing, model = self.scene.thing_at(wx, wy)
        if not on_field(self.state, thing) or (self.mode == "deploy" and thing not in self.state.units):
            return False
        why = self.can_drag(thing)
        if why is not None:
            from game.rules.query import player_of

            if player_of(self.state, thing) == self.player:
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
        self.want = (self.start[0] + wx - self.grab[0], self.start[1] + wy - self.grab[1])
        self.dirty = True
        self.update()  # not dragging any more: the engine's explain decides
        if self.mode == "deploy" and self.offset is not None:
            if self.reasons:
                self.say(self.reasons[0], theme.TEXT_BAD)
                self.offset = None
            else:
                self.choose(self.action(self.offset))
        return True

    def update(self) -> None:
        self._follow_selection()
        if self.dirty and self.want is not None and self.unit is not None:
            self.dirty = False
            self.offset, self.reasons, self.raw_reasons = self.clamp(self.want, final=not self.dragging)

    def _follow_selection(self) -> None:
        """With no drag held, the tool's unit is the scene's selected unit: Back (Esc) or the
        unit list after a cancelled drag put the panel back on the list (the tool kept the
        cancelled unit, and the panel with it, until another unit was dragged)."""
        if self.mode == "charge" or self.dragging or self.pending():
            return
        sel = self.scene.selection.get("unit")
        if sel == self.unit:
            return
        self.unit = sel if on_field(self.state, sel) and self.can_drag(sel) is None else None

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
                self.say(_("drag cancelled"))
                return True
        return False

    def panel_key(self) -> Any:
        settled = None if self.dragging or self.offset is None else (round(self.offset[0], 1), round(self.offset[1], 1))
        # while a drag is held the commit button stays (issue 24: the panel is not rebuilt
        # mid-drag when the ghost first appears; a click cannot reach it before the release)
        # nor when the reason first appears or goes (a charge's explain runs mid-drag): the
        # reason is in the hint line, drawn every frame; the release rebuilds the panel with it
        reasons = None if self.dragging else bool(self.reasons)
        return (self.unit, self.pending() or self.dragging, reasons, self.dragging, settled)

    # --- drawing ---------------------------------------------------------------------------

    def left_text(self) -> str:
        """E.g. '3.4" of 5" left' (the inches a move or charge may still go)."""
        reach = self.reach()
        if math.isinf(reach):
            return ""
        used = math.hypot(*self.offset) if self.offset else 0.0
        return _('{left}" of {reach}" left').format(left=f"{max(0.0, reach - used):.1f}", reach=f"{reach:g}")

    def overlay(self, ov):
        st = self.state
        if self.unit is None or not on_field(st, self.unit):
            return None
        uid = self.unit
        from game.ui.labels import name_of

        name = name_of(st, uid)
        walker = uid in st.manifestations
        reach = self.reach()
        home = self.shapes()
        if not math.isinf(reach):
            col = theme.RING_REACH if self.mode == "charge" else theme.RING_MOVE
            label = (
                _('{reach}" charge').format(reach=f"{reach:g}")
                if self.mode == "charge"
                else kind_reach(self.move_kind(), reach)
            )
            if walker and not isinstance(home[0], Circle):  # a polygon footprint: its grown outline
                env = grown(home[0], reach)
                ov.marks.append(Shape(env, (0, 0, 0, 0), col, 1))
                b = bounds_of(env)
                ov.marks.append(Label((b[0] + b[2]) / 2, b[3], label, col, 12, dy=-18))
            elif len(home) <= 2:
                for k, c in enumerate(home):
                    ov.rings.append(Ring(c.x, c.y, c.r + reach, col, label if k == 0 else "", 1))
            else:  # many models: the outline of every model's reach, one shape
                env = self._envelope([(c.x, c.y, c.r) for c in home], reach)
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
            ghost = self.shapes(self.offset)
            if self.raw_reasons and self.want is not None and self.dragging:
                ov.marks.append(self._ghost(self.shapes(self.want), False, 35))
            ov.marks.append(self._ghost(ghost, ok))
            for h, g in zip(home, ghost):
                ov.marks.append(Line(centre(h), centre(g), theme.RULER, 1))
            cx = sum(centre(g)[0] for g in ghost) / len(ghost)
            bottom = min(bounds_of(g)[1] for g in ghost)
            text = self.left_text()
            if text:
                ov.marks.append(Label(cx, bottom, text, theme.ACCENT, 14, dy=6))
            if not ok:
                hint = (engine_text(self.reasons[0], self.state), theme.TEXT_BAD)
            else:
                verb = {"deploy": _("Release to set up here"), "charge": _("Charge ends here")}.get(
                    self.mode, _("Legal")
                )
                extra = f", {text}" if text else ""
                cut = " | " + _("stopped: {why}").format(why=self.raw_reasons[0]) if self.raw_reasons else ""
                tail = "" if self.mode == "deploy" else ": " + _("Enter commits, Esc cancels")
                hint = (f"{verb}{extra}{tail}{cut}", theme.TEXT_GOOD)
        elif self.dragging and self.raw_reasons:
            ov.marks.append(self._ghost(self.shapes(self.want or (0, 0)), False, 35))
            hint = (_("Cannot move that way: {why}").format(why=self.raw_reasons[0]), theme.TEXT_BAD)
        elif self.mode == "move":
            hint = (_("{unit}: drag it to move ({left})").format(unit=name, left=self.left_text()), theme.TEXT)
        elif self.mode == "charge":
            hint = (
                _('{unit}: drag it to end within ½" of an enemy ({left}), or give up').format(
                    unit=name, left=self.left_text()
                ),
                theme.TEXT,
            )
        return hint

    def _ghost(self, shapes: list, ok: bool, alpha: int = 90):
        """A unit's ghost bases, or a walker's footprint as a `Shape` (M10)."""
        if self.unit in self.state.manifestations:
            col = theme.GHOST_OK if ok else theme.GHOST_BAD
            return Shape(shapes[0], (*col, alpha), col, 2, dashed=not ok, cross=not ok)  # not colour alone
        return Bases([(c.x, c.y, c.r) for c in shapes], ok=ok, alpha=alpha)

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
        """The 3" combat range around enemy models, and enemy manifestations that count as units
        now (M10), that the mover could reach (a thin red ring: no normal move or run ends
        inside it, R4)."""
        st = self.state
        key = ("zones", self.version, self.unit, reach)
        marks = self._cache.get(key)
        if marks is None:
            from game.geometry.measure import distance
            from game.rules.query import COMBAT_RANGE, manifestation_shape, manifestations_as_units, player_of

            marks = []
            me = footprints(st, self.unit)
            mine = player_of(st, self.unit)
            for k, e in st.units.items():
                if e.player == mine or not e.alive:
                    continue
                for x, y, r in live_circles(st, k):
                    gap = min(distance(Circle(x, y, r), c) for c in me) if me else math.inf
                    if gap <= reach + COMBAT_RANGE + 0.5:
                        marks.append(Band(x, y, r + COMBAT_RANGE - 0.04, 0.08, theme.SIGHT_BLOCKED))
            with st.query():
                for mid in manifestations_as_units(st, mine, st.phase):
                    shape = manifestation_shape(st, mid)
                    gap = min(distance(shape, c) for c in me) if me else math.inf
                    if gap > reach + COMBAT_RANGE + 0.5:
                        continue
                    if isinstance(shape, Circle):
                        marks.append(Band(shape.x, shape.y, shape.r + COMBAT_RANGE - 0.04, 0.08, theme.SIGHT_BLOCKED))
                    else:
                        marks.append(Shape(shape.buffer(COMBAT_RANGE), (0, 0, 0, 0), theme.SIGHT_BLOCKED, 1))
            self._cache[key] = marks
        ov.marks += marks

    def _engagement_bands(self, ov) -> None:
        """The ½" band around every model of enemies within the roll + ½" (R4)."""
        st = self.state
        from game.rules.query import ENGAGE, enemies_within, manifestation_shape, thing_shapes

        key = ("targets", self.version)
        targets = self._cache.get(key)
        if targets is None:
            with st.query():
                targets = enemies_within(st, self.unit, thing_shapes(st, self.unit), self.reach() + ENGAGE)
            self._cache[key] = targets
        for t in targets:
            if t in st.units:
                for x, y, r in live_circles(st, t):
                    ov.marks.append(Band(x, y, r, ENGAGE, theme.ACCENT))
                ov.highlight_units[t] = theme.LEGAL_TARGET
            elif t in st.manifestations:
                ov.marks.append(Shape(grown(manifestation_shape(st, t), ENGAGE), (0, 0, 0, 0), theme.ACCENT, 2))
                ov.highlight_units[t] = theme.LEGAL_TARGET


@tool(kind_is("deploy"))
class DeployTool(UnitDragTool):
    mode = "deploy"

    def overlay(self, ov):
        hint = super().overlay(ov)
        if hint is None and not self.dragging:
            hint = (_("Drag one of your units to redeploy it wholly within your zone (G4)"), theme.TEXT)
        return hint


@tool(phase_is("movement"))
class MoveTool(UnitDragTool):
    mode = "move"

    def overlay(self, ov):
        from game.rules.query import movers

        st = self.state
        free = self._cache.get("draggable")
        if free is None:  # asked once per tool (one state version), not every frame (issue 24)
            free = self._cache["draggable"] = [k for k in movers(st, self.player) if self.can_drag(k) is None]
        for k in free:  # units, then walkers (M10)
            if k != self.unit:
                ov.highlight_units.setdefault(k, theme.LEGAL_TARGET)
        hint = super().overlay(ov)
        if hint is None:
            hint = (
                _(
                    "Press on one of your units or walking manifestations (highlighted) and drag it; release, "
                    "then Enter to commit"
                ),
                theme.TEXT,
            )
        return hint


@tool(kind_is("charge_move"))
class ChargeTool(UnitDragTool):
    mode = "charge"


# --- panels ---------------------------------------------------------------------------------


def _commit_buttons(ctx: PanelContext, view: PanelView, verb: str) -> None:
    t = ctx.tool
    if isinstance(t, UnitDragTool) and t.unit is not None:
        if t.pending() or t.dragging:
            view.buttons.append(
                ButtonSpec(
                    _("{verb} (Enter)").format(verb=verb),
                    intent("tool", name="commit"),
                    "" if t.dragging else t.left_text(),
                    # while held the button keeps its slot, greyed (the pointer is on the field,
                    # so no tool tip shows): the panel is built once per drag (issue 24); the
                    # ghost and the hint line say where and why it stops
                    engine_text(t.reasons[0], t.state) if t.reasons and not t.dragging else "",
                    enabled=not t.dragging and not t.reasons,
                )
            )
            view.buttons.append(ButtonSpec(_("Cancel the drag (Esc)"), intent("tool", name="cancel"), role="nav"))


@control("deploy")
def deploy_control(ctx: PanelContext) -> PanelView:
    d = ctx.decision
    view = PanelView(title=_("Player {p}: deployment").format(p=d.player))
    view.lines = [
        _(
            "Drag a unit on the battlefield to redeploy it (the whole unit moves): the ghost is green where "
            "it is wholly within your zone, red with the reason where not (G4)."
        ),
        _("Check ranges and sight by hovering, then end deployment."),
    ]
    view.buttons += [option_button(ctx, o) for o in d.options]
    return view


@control("phase:movement")
def movement_control(ctx: PanelContext) -> PanelView:
    from game.rules.query import allowance, declared, in_combat, moved_this_phase, movers
    from game.ui.labels import name_of

    d = ctx.decision
    st = ctx.state
    view = PanelView(
        title=_("{player}: {phase}").format(player=words.player(d.player), phase=words.phase_noun("movement"))
    )
    t = ctx.tool
    uid = t.unit if isinstance(t, UnitDragTool) else None
    sel = ctx.selection.get("unit")
    if uid is None and sel in movers(st, d.player):
        uid = sel
    if uid is None:
        view.lines.append(
            _(
                "Press on a unit and drag it; release, then Enter (or click the ghost) to commit. "
                "Run and Retreat: pick the unit first."
            )
        )
        if any(k in st.manifestations for k in movers(st, d.player)):
            view.lines.append(_("Your manifestations with a Move move like units (M10)."))
        for k in movers(st, d.player):  # units, then walkers (M10)
            if moved_this_phase(st, k):  # it keeps its slot, greyed (stable numbers)
                view.buttons.append(spent_button(name_of(st, k), _("moved this phase (R1)")))
                continue
            kind, reach = allowance(st, k)
            fighting = in_combat(st, k)
            note = _("in combat: retreat only") if fighting and kind != "retreat" else kind_reach(kind, reach)
            view.buttons.append(ButtonSpec(name_of(st, k), intent("select", unit=k), odds=note, role="nav"))
        view.buttons.append(option_button(ctx, _end(d)))
        return view
    name = name_of(st, uid)
    view.title = _("Player {p}: move {unit}").format(p=d.player, unit=name)
    view.back = ButtonSpec(_("Back to the units"), intent("select", unit=None), role="nav")
    if moved_this_phase(st, uid):
        view.lines.append(_("{unit} has already moved this phase (R1).").format(unit=name))
    else:
        kind, reach = allowance(st, uid)
        dec = declared(st, uid)
        r = f"{reach:g}"
        view.lines.append(
            {
                "normal": lambda: _('Normal move: up to {reach}" (it may not end within 3" of the enemy, R4).').format(
                    reach=r
                ),
                "run": lambda: _('Running: up to {reach}" (Move + {extra}); no shooting or charging this turn.').format(
                    reach=r, extra=dec["extra"] if dec else 0
                ),
                "retreat": lambda: _(
                    'Retreating: up to {reach}", ending out of combat; no shooting or charging this turn.'
                ).format(reach=r),
            }[kind]()
        )
        if uid in st.manifestations:
            view.lines.append(
                _(
                    "{name} moves like a unit (M10): its path may cross friendly models and manifestations, "
                    "not enemy models or impassable terrain."
                ).format(name=name)
            )
        view.lines.append(
            _("Drag the manifestation on the battlefield; the drag stops where the move stops being legal.")
            if uid in st.manifestations
            else _("Drag the unit on the battlefield; the drag stops where the move stops being legal.")
        )
        _commit_buttons(ctx, view, _("Commit the move"))
        for a, label, odds in (
            (
                Run(player=d.player, unit=uid),
                _("Run: roll a D6, add it to Move"),
                _('+1 to +6", average +3.5"; no shooting or charging after'),
            ),
            (
                Retreat(player=d.player, unit=uid),
                _("Retreat: suffer D3 mortal damage, then move"),
                _("no shooting or charging after (R4)"),
            ),
        ):
            if not st.explain(a):
                view.buttons.append(ButtonSpec(label, intent("choose", action=a), odds))
    view.buttons.append(option_button(ctx, _end(d)))
    return view


def _end(d):
    from game.rules import EndPhase

    return EndPhase(player=d.player)


def charge_odds(state, thing: str) -> str:
    """The odds line of a charge by a unit or a walker (M10): the nearest visible enemy within
    12", its distance, and the chance of the 2D6 roll reaching ½" of it (R4, game.rules.odds). The
    one place the UI words the charge odds."""
    from game.rules.query import CHARGE_REACH, ENGAGE, charge_targets, distance_to, odds, thing_shapes
    from game.ui.labels import name_of, pct

    targets = charge_targets(state, thing, CHARGE_REACH)
    gaps = sorted((min(distance_to(state, c, t) for c in thing_shapes(state, thing)), t) for t in targets)
    if not gaps:
        return ""
    g, t = gaps[0]
    need = max(0.0, g - ENGAGE)
    return _('{target} {gap}": needs {roll}+ on 2D6 ({chance})').format(
        target=name_of(state, t)[:18],
        gap=f"{g:.1f}",
        roll=odds.charge_roll_needed(need),
        chance=pct(odds.charge_chance(need)),
    )


@control("phase:charge")
def charge_phase_control(ctx: PanelContext) -> PanelView:
    from game.rules.query import CHARGE_REACH, movers
    from game.ui.labels import name_of

    d = ctx.decision
    st = ctx.state
    view = PanelView(
        title=_("{player}: {phase}").format(player=words.player(d.player), phase=words.phase_noun("charge")),
        lines=[
            _(
                'Declare a charge with a unit that has a visible enemy within {reach}": roll 2D6, '
                'then drag it to end within ½" of an enemy, or give up (R4).'
            ).format(reach=f"{CHARGE_REACH:g}")
        ],
    )
    any_ = False
    with st.query():
        for k in movers(st, d.player):  # units, then walkers (M10)
            a = Charge(player=d.player, unit=k)
            if st.explain(a):
                continue
            view.buttons.append(
                ButtonSpec(
                    _("Charge with {unit}").format(unit=name_of(st, k)),
                    intent("choose", action=a),
                    charge_odds(st, k),
                    _("Roll 2D6 for the charge (R4)"),
                )
            )
            view.field_picks[k] = intent("select", unit=k)
            any_ = True
    if not any_:
        view.lines.append(_("No unit can charge now."))
    view.buttons.append(option_button(ctx, _end(d)))
    return view


@control("charge_move")
def charge_move_control(ctx: PanelContext) -> PanelView:
    from game.ui.labels import name_of

    d = ctx.decision
    st = ctx.state
    uid, roll = d.data["unit"], d.data["roll"]
    line = (
        _(
            'Charge roll {roll}: drag the manifestation up to {roll}" so that it ends within ½" of a visible '
            "enemy (the gold bands), then Enter. Or give up: it does not move (R4)."
        )
        if uid in st.manifestations
        else _(
            'Charge roll {roll}: drag the unit up to {roll}" so that it ends within ½" of a visible '
            "enemy (the gold bands), then Enter. Or give up: it does not move (R4)."
        )
    )
    view = PanelView(
        title=_("Player {p}: charge with {unit}").format(p=d.player, unit=name_of(st, uid)),
        lines=[line.format(roll=roll)],
    )
    _commit_buttons(ctx, view, _("Commit the charge"))
    moves = [o for o in d.options if isinstance(o, MoveUnit)]
    if moves:
        view.buttons.append(
            ButtonSpec(
                _("Use a suggested charge move"),
                intent("choose", action=moves[0]),
                _("straight at the nearest enemy"),
                role="nav",
            )
        )
    view.buttons.append(
        ButtonSpec(_("Give up the charge"), intent("choose", action=FailCharge(player=d.player)), role="end")
    )
    return view


#: A move's kind as a word on a ring or a sub-line ('normal 6"'); the engine's kinds are keys.
MOVE_KINDS = {
    "normal": N_("normal"),
    "run": N_("run"),
    "retreat": N_("retreat"),
    "charge": N_("charge"),
    "deploy": N_("deploy"),
}


def kind_reach(kind: str, reach: float) -> str:
    """E.g. 'normal 6"', 'run 9"' (R1, R4)."""
    return _('{kind} {reach}"').format(kind=_(MOVE_KINDS[kind]) if kind in MOVE_KINDS else kind, reach=f"{reach:g}")
