"""The geometry a demonstration frame shows: rings, measured lines, paths, ghosts and highlights.

Pure data, derived from the engine's state, the action and its events (no pygame here), plus
whatever the step's `show` table adds. The renderer (game.ui.scenes.demo) draws it to scale.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

import shapely
from shapely.ops import nearest_points

from game.content_words import content_name
from game.geometry.shapes import Circle
from game.i18n import N_, _
from game.rules import SummonSetupFrame, UnbindFrame
from game.rules.query import manifestation_shape, model_circle

Pt = tuple[float, float]


@dataclass
class GRing:
    x: float
    y: float
    radius: float  # from the centre, inches
    colour: str
    label: str = ""


@dataclass
class GLine:
    a: Pt
    b: Pt
    colour: str
    label: str = ""


@dataclass
class GPath:
    points: list[Pt]
    colour: str = "move"
    label: str = ""


@dataclass
class GGhost:
    shape: Any  # Circle or Polygon, inches
    ok: bool


@dataclass
class GOutline:
    """A shape drawn as an outline, e.g. a predatory reach grown from an oval footprint (E9)."""

    shape: Any  # a shapely Polygon or MultiPolygon, inches
    colour: str
    label: str = ""
    fill: bool = False  # shade it (e.g. the legal set-up region, M9)


@dataclass
class Geometry:
    rings: list[GRing] = field(default_factory=list)
    outlines: list[GOutline] = field(default_factory=list)
    lines: list[GLine] = field(default_factory=list)
    paths: list[GPath] = field(default_factory=list)
    ghosts: list[GGhost] = field(default_factory=list)
    highlight: dict[str, str] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)  # measurements in words, for the caption panel


# --- measuring --------------------------------------------------------------------------------


def shape_of(state, thing: str, model: int = 0):
    if thing in state.units:
        u = state.units[thing]
        if not 0 <= model < len(u.models):
            model = 0
        return model_circle(state, thing, model)
    if thing in state.manifestations:
        return manifestation_shape(state, thing)
    raise KeyError(f"{thing!r} is not on the battlefield")


def _unit_vec(a: Pt, b: Pt) -> Pt:
    dx, dy = b[0] - a[0], b[1] - a[1]
    d = math.hypot(dx, dy)
    return (1.0, 0.0) if d == 0 else (dx / d, dy / d)


def closest(a, b) -> tuple[float, Pt, Pt]:
    """G1: the distance between the closest points of two shapes, and those points."""
    if isinstance(a, Circle) and isinstance(b, Circle):
        u = _unit_vec((a.x, a.y), (b.x, b.y))
        d = math.hypot(b.x - a.x, b.y - a.y) - a.r - b.r
        return max(0.0, d), (a.x + u[0] * a.r, a.y + u[1] * a.r), (b.x - u[0] * b.r, b.y - u[1] * b.r)
    if isinstance(a, Circle) or isinstance(b, Circle):
        circ, poly, flip = (a, b, False) if isinstance(a, Circle) else (b, a, True)
        p = nearest_points(poly, shapely.Point(circ.x, circ.y))[0]
        u = _unit_vec((circ.x, circ.y), (p.x, p.y))
        d = max(0.0, math.hypot(p.x - circ.x, p.y - circ.y) - circ.r)
        pc = (circ.x + u[0] * circ.r, circ.y + u[1] * circ.r)
        return (d, (p.x, p.y), pc) if flip else (d, pc, (p.x, p.y))
    pa, pb = nearest_points(a, b)
    return float(a.distance(b)), (pa.x, pa.y), (pb.x, pb.y)


def farthest(outer: Circle, inner) -> tuple[float, Pt, Pt]:
    """The "wholly within" measure: how far the farthest point of `inner` is from `outer`'s base."""
    c = (outer.x, outer.y)
    if isinstance(inner, Circle):
        u = _unit_vec(c, (inner.x, inner.y))
        d = math.hypot(inner.x - c[0], inner.y - c[1])
        far = (inner.x + u[0] * inner.r, inner.y + u[1] * inner.r)
        return d + inner.r - outer.r, (c[0] + u[0] * outer.r, c[1] + u[1] * outer.r), far
    best, far = -1.0, c
    for x, y in list(inner.exterior.coords)[:-1]:
        d = math.hypot(x - c[0], y - c[1])
        if d > best:
            best, far = d, (x, y)
    u = _unit_vec(c, far)
    return best - outer.r, (c[0] + u[0] * outer.r, c[1] + u[1] * outer.r), far


def measure(state, a: str, b: str, kind: str = "distance", a_model: int = 0, b_model: int = 0) -> tuple[float, Pt, Pt]:
    sa, sb = shape_of(state, a, a_model), shape_of(state, b, b_model)
    if kind == "farthest":
        if not isinstance(sa, Circle):
            raise ValueError(f"'farthest' is measured from a model's base; {a!r} is not a model")
        return farthest(sa, sb)
    return closest(sa, sb)


def inches(v: float) -> str:
    return f'{v:.2f}"'


# --- derived from the action and its events ---------------------------------------------------


def _radius(state, uid: str) -> float:
    return state.game.warscroll(state.units[uid].warscroll).base.radius_in or 0.5


def _centre(state, uid: str, model: int) -> Pt:
    m = state.units[uid].models[model if model < len(state.units[uid].models) else 0]
    return (m.x, m.y)


def _name(state, thing: str) -> str:
    """A unit's or manifestation's display name, in the language in use (issue 22)."""
    if thing in state.units:
        return content_name(state.units[thing].name)
    if thing in state.manifestations:
        return content_name(state.game.content.manifestations[state.manifestations[thing].scroll].name)
    return thing


#: Why a manifestation is wild (E7, the event's reason), in words.
WILD_REASONS = {
    "out_of_range": N_("out of range"),
    "chose_another": N_("its wizard chose another"),
    "summoner_slain": N_("summoner slain"),
    "no_summoner": N_("no summoner"),
}


def _model_ring(g: Geometry, state, uid: str, model: int, reach: float, colour: str, label: str) -> None:
    if uid not in state.units:
        return
    x, y = _centre(state, uid, model)
    g.rings.append(GRing(x, y, reach + _radius(state, uid), colour, label))


def _line_to(g: Geometry, state, a: str, b: str, colour: str, a_model: int = 0, what: str = "") -> None:
    try:
        d, pa, pb = measure(state, a, b, "distance", a_model)
    except (KeyError, ValueError):
        return
    g.lines.append(GLine(pa, pb, colour, inches(d)))
    g.notes.append(
        _("{what} {a} to {b}: {distance}").format(
            what=_(what or N_("distance")), a=_name(state, a), b=_name(state, b), distance=inches(d)
        )
    )


def _control_zone(g: Geometry, state, mid: str, uid: str, model: int, ok: bool) -> None:
    if uid not in state.units or mid not in state.manifestations:
        return
    _model_ring(g, state, uid, model, 24, "control", _('24" control'))
    d, pa, pb = measure(state, uid, mid, "farthest", model)
    word = _('wholly within 24", controlled') if ok else _('not wholly within 24", wild')
    g.lines.append(GLine(pa, pb, "good" if ok else "bad", inches(d)))
    g.notes.append(
        _("{manifestation}: farthest point {distance} from {unit}: {verdict}").format(
            manifestation=_name(state, mid), distance=inches(d), unit=_name(state, uid), verdict=word
        )
    )
    g.highlight[mid] = "good" if ok else "bad"


def derive(before, after, action, events: list, refused: bool) -> Geometry:
    """The geometry implied by `action` (taken in `before`) and its `events` (ending in `after`)."""
    g = Geometry()
    if action is None:
        return g
    t = action.type
    content = before.game.content
    if t in ("CastSpell", "ChantPrayer"):
        ab_id = action.spell if t == "CastSpell" else action.prayer
        ab = content.abilities.get(ab_id)
        if ab is not None and action.unit in before.units:
            _model_ring(
                g, before, action.unit, action.model, ab.range, "spell", f'{content_name(ab.name)} {ab.range:g}"'
            )
            if action.target:
                _line_to(g, before, action.unit, action.target, "spell", action.model, N_("range"))
        if t == "CastSpell":
            pending = None
            try:
                pending = after.pending()
            except Exception:
                pass
            if pending is not None and pending.kind == "unbind" and action.unit in before.units:
                _model_ring(g, before, action.unit, action.model, 30, "unbind", _('30" unbind'))
    elif t == "Unbind":
        for e in events:
            if e.type == "UnbindAttempted":
                _model_ring(g, before, e.caster, 0, 30, "unbind", _('30" unbind'))
                _line_to(g, before, action.unit, e.caster, "unbind", action.model, N_("unbinder to caster"))
        window = before.decisions[-1] if before.decisions else None
        if refused and isinstance(window, UnbindFrame) and window.caster in before.units:
            _model_ring(g, before, window.caster, window.model, 30, "unbind", _('30" unbind'))
            _line_to(g, before, action.unit, window.caster, "bad", action.model, N_("unbinder to caster"))
    elif t in ("Banish", "Dispel"):
        _model_ring(
            g, before, action.unit, action.model, 30, "unbind", _('30" banish') if t == "Banish" else _('30" dispel')
        )
        _line_to(g, before, action.unit, action.manifestation, "unbind", action.model)
        g.highlight[action.manifestation] = "bad"
    elif t == "PlaceManifestation":
        d = before.decisions[-1] if before.decisions else None
        if isinstance(d, SummonSetupFrame):
            from game.rules.query import setup_region

            region = setup_region(before, d.player, d.unit, d.model, d.scroll)
            g.outlines.append(GOutline(region, "good", "", fill=True))  # where its centre may go (M9)
        for e in events:
            if e.type == "ManifestationSummoned":
                _model_ring(g, after, e.summoner, e.model, 12, "reach", _('12" wholly within'))
                g.highlight[e.manifestation] = "good"
        if refused and isinstance(d, SummonSetupFrame):
            if d.unit in before.units:
                _model_ring(g, before, d.unit, d.model, 12, "reach", _('12" wholly within'))
            from game.rules.query import footprint_at

            g.ghosts.append(GGhost(footprint_at(before, d.scroll, action.x, action.y), False))
    elif t in ("EndPhase", "ChooseControlled"):
        for e in events:
            if e.type == "ManifestationControlled":
                _control_zone(g, after, e.manifestation, e.unit, e.model, True)
            elif e.type == "ManifestationWild" and e.manifestation in after.manifestations:
                m = after.manifestations[e.manifestation]
                if e.reason == "out_of_range" and m.summoner in after.units:
                    _control_zone(g, after, e.manifestation, m.summoner, m.summoner_model, False)
                else:
                    g.highlight[e.manifestation] = "bad"
                    why = WILD_REASONS.get(e.reason)
                    g.notes.append(
                        _("{manifestation} is wild ({reason})").format(
                            manifestation=_name(after, e.manifestation),
                            reason=_(why) if why else e.reason.replace("_", " "),
                        )
                    )
    elif t == "MovePredatory":
        moved = [e for e in events if e.type == "ManifestationMoved"]
        m0 = before.manifestations.get(action.manifestation)
        if m0 is not None:
            from game.rules.query import footprint_at, move_reach, reach_area

            reach = move_reach(before, action.manifestation)
            area = reach_area(before, action.manifestation)  # E9: grown from the footprint
            words = _('reach {reach}" from its footprint').format(reach=f"{reach:g}")
            if isinstance(area, Circle):
                g.rings.append(GRing(area.x, area.y, area.r, "move", words))
            else:
                g.outlines.append(GOutline(area, "move", words))
            target = (action.x, action.y)
            g.paths.append(GPath([(m0.x, m0.y), target], "move" if not refused else "bad"))
            for e in moved:
                if e.reason:
                    g.ghosts.append(GGhost(footprint_at(before, m0.scroll, *e.target), False))
                    g.notes.append(_("cannot be placed: {reason}").format(reason=e.reason))
                else:
                    g.notes.append(
                        _('its centre moved {moved}, to a point {measured} from it (reach {reach}")').format(
                            moved=inches(e.distance), measured=inches(e.measured), reach=f"{e.reach:g}"
                        )
                    )
                for uid in e.passed_across:
                    g.highlight[uid] = "bad"
                if e.passed_across:
                    g.notes.append(
                        _("passed across: {units}").format(units=", ".join(_name(before, u) for u in e.passed_across))
                    )
            if refused:
                g.ghosts.append(GGhost(footprint_at(before, m0.scroll, action.x, action.y), False))
    elif t == "MoveUnit" and action.unit in before.units:
        u0 = before.units[action.unit]
        r = _radius(before, action.unit)
        for (_i, m), to in zip(u0.live_models(), action.to):
            g.paths.append(GPath([(m.x, m.y), tuple(to)], "bad" if refused else "move"))
            if refused:
                g.ghosts.append(GGhost(Circle(to[0], to[1], r), False))
        if not refused and action.unit in after.units:
            _nearest_enemy(g, after, action.unit)
    elif t == "MoveUnit" and action.unit in before.manifestations:  # M10: a walker's move
        from game.rules.query import footprint_at

        m0 = before.manifestations[action.unit]
        (to,) = action.to
        g.paths.append(GPath([(m0.x, m0.y), tuple(to)], "bad" if refused else "move"))
        if refused:
            g.ghosts.append(GGhost(footprint_at(before, m0.scroll, to[0], to[1]), False))
        elif action.unit in after.manifestations:
            _nearest_enemy(g, after, action.unit)
    elif t == "Charge" and action.unit in before.units:
        for e in events:
            if e.type == "ChargeRolled":
                for _i, m in before.units[action.unit].live_models():
                    g.rings.append(
                        GRing(
                            m.x,
                            m.y,
                            e.roll + _radius(before, action.unit),
                            "move",
                            _('charge {roll}"').format(roll=e.roll),
                        )
                    )
                    break
        _nearest_enemy(g, before, action.unit)
    elif t == "Charge" and action.unit in before.manifestations:
        m0 = before.manifestations[action.unit]
        shape = manifestation_shape(before, action.unit)
        for e in events:
            if e.type == "ChargeRolled" and isinstance(shape, Circle):
                g.rings.append(GRing(m0.x, m0.y, e.roll + shape.r, "move", _('charge {roll}"').format(roll=e.roll)))
        _nearest_enemy(g, before, action.unit)
    elif t == "Shoot" and action.unit in before.units:
        _line_to(g, before, action.unit, action.target, "spell")
    _gone(g, before, after, events)
    return g


def _gone(g: Geometry, before, after, events: list) -> None:
    """Outline what this step removed from the battlefield (slain models, removed manifestations)."""
    from game.rules.query import footprint_at

    for uid, u in before.units.items():
        now = after.units.get(uid)
        for i, m in u.live_models():
            if now is None or now.models[i].slain:
                g.ghosts.append(GGhost(Circle(m.x, m.y, _radius(before, uid)), False))
    ends = {e.manifestation: e.path[1] for e in events if e.type == "ManifestationMoved"}
    for mid, m in before.manifestations.items():
        if mid not in after.manifestations:
            x, y = ends.get(mid, (m.x, m.y))
            g.ghosts.append(GGhost(footprint_at(before, m.scroll, x, y), False))
            g.notes.append(_("removed: {name}").format(name=_name(before, mid)))


def _nearest_enemy(g: Geometry, state, uid: str) -> None:
    """The closest enemy unit or manifestation to any model of `uid`, measured (R4, M10)."""
    from game.rules.query import player_of

    player = player_of(state, uid)
    best = None
    others = [k for k, u in state.units.items() if u.player != player and u.alive]
    others += [k for k, m in state.manifestations.items() if m.player != player]
    mine = [i for i, _ in state.units[uid].live_models()] if uid in state.units else [0]
    for i in mine:
        for o in others:
            models = [j for j, _ in state.units[o].live_models()] if o in state.units else [0]
            for j in models:
                try:
                    d, pa, pb = closest(shape_of(state, uid, i), shape_of(state, o, j))
                except KeyError:
                    continue
                if best is None or d < best[0]:
                    best = (d, pa, pb, o)
    if best is not None:
        d, pa, pb, o = best
        g.lines.append(GLine(pa, pb, "good" if d <= 0.5 + 1e-9 else "ruler", inches(d)))
        g.notes.append(_("{a} to {b}: {distance}").format(a=_name(state, uid), b=_name(state, o), distance=inches(d)))


def authored(g: Geometry, state, show, problems: list[str], where: str) -> None:
    """Add the step's own rings and measures; check each measure's `value` against the engine."""
    for r in show.rings:
        if r.around in state.units:
            x, y = _centre(state, r.around, r.model)
            base = 0.0 if r.from_centre else _radius(state, r.around)
        elif r.around in state.manifestations:
            m = state.manifestations[r.around]
            x, y = m.x, m.y
            base = 0.0
            if not r.from_centre:
                shp = manifestation_shape(state, r.around)
                base = shp.r if isinstance(shp, Circle) else 0.0
        else:
            continue
        g.rings.append(GRing(x, y, r.radius + base, r.colour, content_name(r.label)))
    for i, ms in enumerate(show.measures):
        try:
            d, pa, pb = measure(state, ms.from_, ms.to, ms.kind, ms.from_model, ms.to_model)
        except (KeyError, ValueError) as exc:
            problems.append(f"{where}.show.measures[{i}]: {exc}")
            continue
        if ms.value is not None and abs(d - ms.value) > 0.01:
            problems.append(
                f"{where}.show.measures[{i}]: the engine measures {d:.3f}\" from {ms.from_} to {ms.to} "
                f"({ms.kind}), the demo says {ms.value:g}\""
            )
        label = content_name(ms.label) or inches(d)
        g.lines = [ln for ln in g.lines if not (_near(ln.a, pa) and _near(ln.b, pb))]
        g.lines.append(GLine(pa, pb, ms.colour, label))
        word = N_("farthest point") if ms.kind == "farthest" else N_("distance")
        if any(inches(d) in n and _name(state, ms.to) in n for n in g.notes):
            continue
        g.notes.append(
            _("{what} {a} to {b}: {distance}").format(
                what=_(word), a=_name(state, ms.from_), b=_name(state, ms.to), distance=inches(d)
            )
        )
    g.highlight.update(show.highlight)


def _near(a: Pt, b: Pt) -> bool:
    return abs(a[0] - b[0]) < 1e-6 and abs(a[1] - b[1]) < 1e-6
