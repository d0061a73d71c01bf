"""The predatory procedure on the battlefield (E6-E10, E4b).

Control (E7, "predatory_control"): the unit's control zone around each candidate's summoning
model is drawn (a unit of several models is one wizard, E5); click the manifestation it controls
(or its button); the others go wild.

Move (E8-E10, "predatory_move"): pick the manifestation (click it, or its button), then move the
pointer: the reach outline shows Move + 3" measured from its footprint (the engine's
`reach_area`: a circle of Move + 3" + r for a round one, the grown oval for an oval one), the
straight path and the swept footprint follow the pointer, the units it would pass across are
highlighted, and warnings say when the
point is out of reach, when the footprint cannot be placed there (it stays put: a 0" move, the
engine's `blocked_reason`) or when it would touch the edge (it is removed, E4b). Click to move.
"""

from __future__ import annotations

import math
from typing import Any

from game.content_words import content_name as cn
from game.i18n import _
from game.rules import ChooseControlled, MovePredatory
from game.ui import theme
from game.ui.controls.base import FieldTool, kind_is, tool
from game.ui.engine_words import engine_text, prompt_text
from game.ui.intents import intent
from game.ui.labels import name_of
from game.ui.panel import ButtonSpec, PanelContext, PanelView, control
from game.ui.render.field import Ring
from game.ui.render.overlays import Label, Line, Shape

WARN = (255, 170, 60)


def _swept(shape, start, end):
    """The area a footprint covers moving in a straight line from `start` to `end`."""
    import shapely
    from shapely.geometry import LineString

    from game.geometry.shapes import Circle

    if isinstance(shape, Circle):
        if start == end:
            return Circle(start[0], start[1], shape.r)
        return LineString([start, end]).buffer(shape.r, quad_segs=16)
    from game.geometry.measure import _swept_polygon

    g = _swept_polygon(shape, end[0] - start[0], end[1] - start[1])
    if g.geom_type != "Polygon":
        g = shapely.convex_hull(g)
    return g


@tool(kind_is("predatory_control"))
class ControlTool(FieldTool):
    def overlay(self, ov):
        from game.geometry.measure import wholly_within
        from game.rules.query import manifestation_shape, model_circle

        st = self.state
        d = self.decision.data
        rng = st.game.profile.control_range
        ov.highlight_units[d["unit"]] = theme.RING_CONTROL
        drawn: set[int] = set()
        for mid in d["candidates"]:
            if mid not in st.manifestations:
                continue
            model = d["models"][mid]
            c = model_circle(st, d["unit"], model)
            if model not in drawn:
                drawn.add(model)
                ov.rings.append(
                    Ring(c.x, c.y, c.r + rng, theme.RING_CONTROL, _('{r}" control (E7)').format(r=f"{rng:g}"))
                )
            shape = manifestation_shape(st, mid)
            inside = wholly_within(shape, c, rng)
            ov.marks.append(
                Shape(shape, (*theme.LEGAL_TARGET, 50), theme.LEGAL_TARGET if inside else theme.GHOST_BAD, 3)
            )
        return (
            _("{unit} controls one of them this hero phase: click it (the others go wild, E7)").format(
                unit=cn(st.units[d["unit"]].name)
            ),
            theme.TEXT,
        )


@control("predatory_control")
def control_choice_control(ctx: PanelContext) -> PanelView:
    d = ctx.decision
    st = ctx.state
    data = d.data
    view = PanelView(
        title=_("Player {p}: which manifestation does {unit} control?").format(
            p=d.player, unit=cn(st.units[data["unit"]].name)
        ),
        lines=[
            _(
                "{unit} has several predatory manifestations wholly within "
                '{range}" of the models that summoned them (the rings). A unit is one '
                "wizard, however many models it has: it controls one this hero phase; the others are wild and "
                "either player may move them (E5, E7, E8)."
            ).format(unit=cn(st.units[data["unit"]].name), range=f"{st.game.profile.control_range:g}")
        ],
    )
    for o in d.options:
        if isinstance(o, ChooseControlled):
            view.buttons.append(
                ButtonSpec(_("Control {name}").format(name=name_of(st, o.manifestation)), intent("choose", action=o))
            )
            view.field_picks[o.manifestation] = intent("choose", action=o)
    return view


@tool(kind_is("predatory_move"))
class PredatoryMoveTool(FieldTool):
    def __init__(self, scene: Any) -> None:
        super().__init__(scene)
        info = self.decision.data.get("manifestations") or {}
        self.mid: str | None = next(iter(info), None)
        self.point: tuple[float, float] | None = None
        self._cache: dict = {}

    def info(self) -> dict:
        return self.decision.data.get("manifestations") or {}

    def pointer(self, wx, wy) -> None:
        self.point = None if wx is None else (wx, wy)

    def command(self, name: str, it=None) -> bool:
        if name == "pick" and it is not None and it.get("thing") in self.info():
            self.mid = it.get("thing")
            self.scene._panel_key = None
            return True
        return False

    def panel_key(self) -> Any:
        return self.mid

    def action_at(self, x: float, y: float) -> MovePredatory:
        return MovePredatory(player=self.player, manifestation=self.mid, x=round(x, 3), y=round(y, 3))

    def press(self, wx: float, wy: float, button: int) -> bool:
        if button != 1 or self.mid is None:
            return False
        thing, _model = self.scene.thing_at(wx, wy)
        if thing in self.info() and thing != self.mid:
            self.mid = thing
            self.scene._panel_key = None
            return True
        act = self.action_at(wx, wy)
        reasons = self.state.explain(act)
        if reasons:
            self.say(reasons[0], theme.TEXT_BAD)
            return True
        self.choose(act)
        return True

    def preview(self, x: float, y: float) -> dict:
        """What moving to (x, y) would do: problem, blocked, edge, passed-across, the shapes."""
        from game.rules import query as P
        from game.rules.query import footprint_at

        key = (self.mid, round(x, 2), round(y, 2))
        hit = self._cache.get(key)
        if hit is not None:
            return hit
        st = self.state
        m = st.manifestations[self.mid]
        start = (m.x, m.y)
        out: dict[str, Any] = {"start": start, "end": (x, y)}
        with st.query():
            prob = P.point_problem(st, self.mid, x, y)
            out["problem"] = prob[1] if prob else None
            blocked = P.blocked_reason(st, self.mid, x, y) if not prob else None
            out["blocked"] = blocked
            end = start if (blocked or prob) else (x, y)
            out["crossed"] = P.passed_across(st, self.mid, start, end) if not prob else []
            out["edge"] = not prob and P.removed_at_edge(st, self.mid, *end)  # E4b, the engine's test
            out["footprint"] = footprint_at(st, m.scroll, x, y)
            out["swept"] = _swept(footprint_at(st, m.scroll, *start), start, (x, y)) if not prob else None
            out["distance"] = math.hypot(end[0] - start[0], end[1] - start[1])
            out["measured"] = P.reach_used(st, self.mid, x, y)  # E9: from the footprint
        if len(self._cache) > 300:
            self._cache.clear()
        self._cache[key] = out
        return out

    def overlay(self, ov):
        st = self.state
        info = self.info()
        if self.mid not in info or self.mid not in st.manifestations:
            return None
        from game.rules.query import manifestation_shape

        for mid in info:  # the ones that may move now
            if mid in st.manifestations:
                ov.marks.append(
                    Shape(
                        manifestation_shape(st, mid),
                        (0, 0, 0, 0),
                        theme.SELECT if mid == self.mid else theme.LEGAL_TARGET,
                        3 if mid == self.mid else 2,
                    )
                )
        from game.geometry.shapes import Circle
        from game.rules.query import reach_area

        i = info[self.mid]
        reach = float(i["reach"])
        scroll = st.game.content.manifestations[i["scroll"]]
        ring_label = _('Move {move}" + {extra}" = {reach}" from it').format(
            move=f"{scroll.move:g}", extra=f"{reach - scroll.move:g}", reach=f"{reach:g}"
        )
        area = reach_area(st, self.mid)  # E9: measured from the footprint, not the centre
        if isinstance(area, Circle):
            ov.rings.append(Ring(area.x, area.y, area.r, theme.PREDATORY, ring_label))
        else:
            ov.marks.append(Shape(area, (0, 0, 0, 0), theme.PREDATORY, 2))
            ov.marks.append(Label(area.centroid.x, area.bounds[3], ring_label, theme.PREDATORY, 13, dy=-10))
        if self.point is None:
            return (
                _("{name}: move the pointer to preview the move, click to move it (E9)").format(name=cn(scroll.name)),
                theme.TEXT,
            )
        pv = self.preview(*self.point)
        x, y = pv["end"]
        if pv["problem"]:
            ov.marks.append(Line(pv["start"], (x, y), theme.GHOST_BAD, 2, dashed=True))
            ov.marks.append(Shape(pv["footprint"], (*theme.GHOST_BAD, 50), theme.GHOST_BAD, 2))
            return (engine_text(pv["problem"], st), theme.TEXT_BAD)
        ov.marks.append(Shape(pv["swept"], (*theme.PREDATORY, 40), theme.PREDATORY, 1))
        ov.marks.append(Line(pv["start"], (x, y), theme.RULER, 2))
        bad = bool(pv["blocked"])
        col = WARN if (bad or pv["edge"]) else theme.GHOST_OK
        ov.marks.append(Shape(pv["footprint"], (*col, 70), col, 2))
        for uid in pv["crossed"]:
            ov.highlight_units[uid] = theme.PREDATORY
        words = []
        if bad:
            why = engine_text(pv["blocked"], st)
            words.append(_('CANNOT BE PLACED: {why}; it stays put (0" move)').format(why=why))
        if pv["edge"]:
            words.append(_("touches the battlefield edge: it will be removed (E4)"))
        if pv["crossed"]:
            words.append(
                _("passes across {units}").format(units=", ".join(cn(st.units[u].name) for u in pv["crossed"]))
            )
        d = pv["measured"]
        ov.marks.append(
            Label(
                x,
                y,
                _('{d}" of {reach}"').format(d=f"{d:.1f}", reach=f"{reach:g}")
                + (" - " + _('0" move!') if bad else "")
                + (" - " + _("EDGE: removed") if pv["edge"] else ""),
                WARN if (bad or pv["edge"]) else theme.ACCENT,
                13,
                dy=12,
            )
        )
        text = (
            _('{name} to ({x}, {y}), {d}" from it').format(
                name=cn(scroll.name), x=f"{x:.1f}", y=f"{y:.1f}", d=f"{d:.1f}"
            )
            + (": " + "; ".join(words) if words else "")
            + " - "
            + _("click to move")
        )
        return (text, WARN if (bad or pv["edge"]) else theme.TEXT_GOOD)


@control("predatory_move")
def predatory_move_control(ctx: PanelContext) -> PanelView:
    d = ctx.decision
    st = ctx.state
    info = d.data.get("manifestations") or {}
    t = ctx.tool
    mid = t.mid if isinstance(t, PredatoryMoveTool) else next(iter(info), None)
    stage = d.data.get("stage")
    view = PanelView(
        title=(
            _("Player {p}: predatory move (controlled)")
            if stage == "controlled"
            else _("Player {p}: predatory move (wild)")
        ).format(p=d.player),
        lines=[
            prompt_text(d.prompt, st, sentence=True),
            _(
                "Point at the destination: the path, the swept footprint and the units it passes across "
                "are previewed; click to move."
            ),
        ],
    )
    view.custom_point = True
    for k, i in info.items():
        if k not in st.manifestations:
            continue
        scroll = st.game.content.manifestations[i["scroll"]]
        label = ("> " if k == mid else "") + _("{name} (player {n}'s)").format(name=cn(scroll.name), n=i["player"])
        view.buttons.append(
            ButtonSpec(
                label,
                intent("tool", name="pick", thing=k),
                _('reach {reach}" from its footprint (E9)').format(reach=f'{i["reach"]:g}'),
                role="nav",
            )
        )
    if mid in info and mid in st.manifestations:
        m = st.manifestations[mid]
        view.buttons.append(
            ButtonSpec(
                _('Leave it where it is (0" move)'),
                intent("choose", action=MovePredatory(player=d.player, manifestation=mid, x=m.x, y=m.y)),
                role="end",
            )
        )
    return view
