"""Where things are, in geometry's terms: bases, footprints, distances and sight (G1, G2).

Rule modules ask questions here ("how far is this model from that unit?", "can it see it?");
the answers come from game.geometry's exact maths.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Iterable

from shapely.geometry import Polygon

from game.geometry.measure import distance, wholly_within
from game.geometry.shapes import Circle, Shape, polygon_at
from game.geometry.visibility import Sight, visible

if TYPE_CHECKING:
    from game.rules.state import State


def model_circle(state: "State", unit_id: str, model: int) -> Circle:
    """The base of one model (G1)."""
    u = state.units[unit_id]
    m = u.models[model]
    return Circle(m.x, m.y, state.game.warscroll(u.warscroll).base.radius_in or 0.5)


def unit_circles(state: "State", unit_id: str) -> list[Circle]:
    """The bases of a unit's models still on the battlefield."""
    u = state.units[unit_id]
    r = state.game.warscroll(u.warscroll).base.radius_in or 0.5
    return [Circle(m.x, m.y, r) for m in u.models if not m.slain]


def footprint_at(state: "State", scroll_id: str, x: float, y: float) -> Shape:
    """A manifestation's footprint with its centre at (x, y)."""
    fp = state.game.content.manifestations[scroll_id].footprint
    if fp.radius_in is not None:
        return Circle(x, y, fp.radius_in)
    return polygon_at(fp.polygon or [], x, y)


def manifestation_shape(state: "State", mid: str) -> Shape:
    m = state.manifestations[mid]
    return footprint_at(state, m.scroll, m.x, m.y)


def thing_shapes(state: "State", thing: str) -> list[Shape]:
    """The bases of a unit, or the footprint of a manifestation, by id."""
    if thing in state.manifestations:
        return [manifestation_shape(state, thing)]
    return list(unit_circles(state, thing))


def distance_to(state: "State", shape: Shape, thing: str) -> float:
    """Closest distance from `shape` to a unit's nearest model or a manifestation (G1)."""
    shapes = thing_shapes(state, thing)
    return min((distance(shape, s) for s in shapes), default=float("inf"))


def blockers(state: "State", exclude_units: Iterable[str]) -> list[Circle]:
    """Bases that block sight: every model outside the observer's and target's units (G2).

    Manifestations never block sight (G2).
    """
    skip = set(exclude_units)
    out: list[Circle] = []
    for uid, u in state.units.items():
        if uid not in skip and u.alive:
            out.extend(unit_circles(state, uid))
    return out


def sight(state: "State", observer_unit: str, observer_model: int, thing: str) -> Sight:
    """Can the given model see the unit or manifestation `thing`? (G2)

    A unit is visible when any of its models is; the first clear line found is returned.
    """
    eye = model_circle(state, observer_unit, observer_model)
    exclude = [observer_unit] + ([thing] if thing in state.units else [])
    walls = blockers(state, exclude)
    last: Sight | None = None
    for target in thing_shapes(state, thing):
        s = visible(eye, target, state.game.battlefield.terrain, walls)
        if s.visible:
            return s
        last = s
    return last if last is not None else Sight(False, None, ())


def can_see_shape(state: "State", observer_unit: str, observer_model: int, target: Shape) -> bool:
    """Sight to a shape that is not yet on the battlefield, e.g. a summoning set-up point (G2, M9)."""
    eye = model_circle(state, observer_unit, observer_model)
    return visible(eye, target, state.game.battlefield.terrain, blockers(state, [observer_unit])).visible


def wholly_within_of(shape: Shape, source: Circle, reach: float) -> bool:
    """Every point of `shape` within `reach` of the source base (the RULES.md definition)."""
    return wholly_within(shape, source, reach)


