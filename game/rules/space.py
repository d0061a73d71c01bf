"""Where things are, in geometry's terms: bases, footprints, distances and sight (G1, G2).

Rule modules ask questions here ("how far is this model from that unit?", "can it see it?");
the answers come from game.geometry's exact maths.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

import numpy as np

from game.geometry.measure import distance
from game.geometry.nearby import BaseIndex
from game.geometry.shapes import Circle, Shape, polygon_at
from game.geometry.sight_any import any_visible
from game.geometry.sight_many import SharedBlockers, visible_many
from game.geometry.visibility import Sight, visible

if TYPE_CHECKING:
    from game.data.models import ManifestationScroll
    from game.rules.state import State


def model_circle(state: "State", unit_id: str, model: int) -> Circle:
    """The base of one model (G1)."""
    u = state.units[unit_id]
    m = u.models[model]
    return Circle(m.x, m.y, state.game.warscroll(u.warscroll).base.radius_in or 0.5)


@dataclass(frozen=True)
class Positions:
    """Every model base on the battlefield, as arrays, with the unit each belongs to.

    Cached on the state until something moves, is set up or is slain (the movement epoch in
    `units.py`, or an explicit `invalidate()`). `circles` fills in per unit on demand.
    """

    circles: dict[str, list[Circle]]
    x: np.ndarray
    y: np.ndarray
    r: np.ndarray
    owner: np.ndarray  # index into `units`
    units: list[str]
    player: np.ndarray  # the player each model belongs to

    def twin(self) -> "Positions":
        """The same positions for a cloned state, with its own `circles` to fill."""
        return replace(self, circles=dict(self.circles))


def positions(state: "State") -> Positions:
    cached = state._cache.get("positions")
    if cached is not None:
        return cached
    pts: list[tuple[float, float]] = []
    rs: list[float] = []
    owner: list[int] = []
    units: list[str] = []
    players: list[int] = []
    for k, (uid, u) in enumerate(state.units.items()):
        live = [(m.x, m.y) for m in u.models if not m.slain]
        n = len(live)
        pts += live
        rs += [state.game.warscroll(u.warscroll).base.radius_in or 0.5] * n
        owner += [k] * n
        players += [u.player] * n
        units.append(uid)
    xy = np.array(pts, float).reshape(-1, 2)
    pos = Positions(
        {}, xy[:, 0].copy(), xy[:, 1].copy(), np.array(rs, float), np.array(owner, int), units, np.array(players, int)
    )
    state._cache["positions"] = pos
    return pos


def invalidate(state: "State") -> None:
    """Forget cached geometry (positions, bases, sight) after a model or manifestation moved,
    was set up or was slain. `State.pending()` and `State.apply()` also start afresh."""
    state._cache.clear()
    state._cache_fp = None


def unit_circles(state: "State", unit_id: str) -> list[Circle]:
    """The bases of a unit's models still on the battlefield."""
    pos = positions(state)
    found = pos.circles.get(unit_id)
    if found is None:
        u = state.units.get(unit_id)
        if u is None:
            return []
        r = state.game.warscroll(u.warscroll).base.radius_in or 0.5
        found = pos.circles[unit_id] = [Circle(m.x, m.y, r) for m in u.models if not m.slain]
    return found


def all_bases(state: "State", exclude_units: Iterable[str] = ()) -> BaseIndex:
    """Every model base except those of `exclude_units`, as a BaseIndex."""
    pos = positions(state)
    skip = tuple(sorted(pos.units.index(u) for u in set(exclude_units) if u in state.units))
    key = ("bases", skip)
    cached = state._cache.get(key)
    if cached is None:
        keep = np.ones(len(pos.x), dtype=bool)
        for k in skip:
            keep &= pos.owner != k
        cached = BaseIndex.from_arrays(pos.x[keep], pos.y[keep], pos.r[keep])
        state._cache[key] = cached
    return cached


def footprint_at(state: "State", scroll_id: str, x: float, y: float) -> Shape:
    """A manifestation's footprint with its centre at (x, y)."""
    return scroll_footprint(state.game.content.manifestations[scroll_id], x, y)


def scroll_footprint(scroll: "ManifestationScroll", x: float, y: float) -> Shape:
    """The footprint of a manifestation warscroll with its centre at (x, y)."""
    fp = scroll.footprint
    if fp.radius_in is not None:
        return Circle(x, y, fp.radius_in)
    return polygon_at(fp.polygon or [], x, y)


def manifestation_shape(state: "State", mid: str) -> Shape:
    """A manifestation's footprint where it stands; cached with the positions."""
    key = ("footprint", mid)
    shape = state._cache.get(key)
    if shape is None:
        m = state.manifestations[mid]
        shape = state._cache[key] = footprint_at(state, m.scroll, m.x, m.y)
    return shape


def thing_shapes(state: "State", thing: str) -> list[Shape]:
    """The bases of a unit, or the footprint of a manifestation, by id."""
    if thing in state.manifestations:
        return [manifestation_shape(state, thing)]
    return list(unit_circles(state, thing))


def distance_to(state: "State", shape: Shape, thing: str) -> float:
    """Closest distance from `shape` to a unit's nearest model or a manifestation (G1)."""
    shapes = thing_shapes(state, thing)
    return min((distance(shape, s) for s in shapes), default=float("inf"))


#: Inches of slack for the vectorised prune in `units_maybe_within`: far more than numpy's and
#: math's hypot can differ by, far less than anything a rule measures.
PRUNE_SLACK = 1e-6


def units_maybe_within(state: "State", shapes: list[Shape], reach: float) -> set[str] | None:
    """Units with a live model that may be within `reach` of one of the round `shapes` (G1): a
    superset, found by one numpy pass over every base, of the units whose exact `distance` is
    within reach. Only a prune: callers still decide with the exact maths. None (prune nothing)
    when `shapes` is empty or holds a polygon footprint."""
    if not shapes or any(not isinstance(c, Circle) for c in shapes):
        return None
    pos = positions(state)
    if not len(pos.x):
        return set()
    cx = np.fromiter((c.x for c in shapes), float, len(shapes))
    cy = np.fromiter((c.y for c in shapes), float, len(shapes))
    cr = np.fromiter((c.r for c in shapes), float, len(shapes))
    # Why squares, not hypot (several times dearer): within reach is centre distance <= reach
    # plus both radii, and squaring both sides changes the answer by rounding alone, far inside
    # `PRUNE_SLACK`: still a superset
    dx = pos.x[None, :] - cx[:, None]
    dy = pos.y[None, :] - cy[:, None]
    lim = (reach + PRUNE_SLACK) + pos.r[None, :] + cr[:, None]
    near = (dx * dx + dy * dy <= lim * lim).any(axis=0)
    return {pos.units[k] for k in set(pos.owner[near].tolist())}


def gap_between(state: "State", a: str, b: str) -> float:
    """Closest distance between two things by id, units or manifestations (G1): the least
    `distance` over every pair of their bases or footprints; inf when either has none left.
    Cached with the positions: the AI and the combat and charge rules ask it again and again."""
    key = ("gap", a, b)
    found = state._cache.get(key)
    if found is None:
        mine, theirs = thing_shapes(state, a), thing_shapes(state, b)
        pairs = _nearest_pairs(state, a, b) if len(mine) * len(theirs) > VECTOR_PAIRS else None
        if pairs is None:
            found = min((distance(c, s) for c in mine for s in theirs), default=math.inf)
        else:
            found = min(distance(mine[i], theirs[j]) for i, j in pairs)
        state._cache[key] = found
    return found


#: Pairs of bases above which `gap_between` finds the nearest pairs in one numpy pass first.
VECTOR_PAIRS = 12
#: Inches within the least numpy gap that a pair is asked exactly: far more than numpy's and
#: math's hypot can differ by, so the exact nearest pair is always among those asked.
NEAR_SLACK = 1e-9


def _nearest_pairs(state: "State", a: str, b: str) -> list[tuple[int, int]] | None:
    """For two units with models on the battlefield, the (model of a, model of b) pairs, as
    indices of their live bases, whose numpy gap is within `NEAR_SLACK` of the least: the pair
    `distance` finds nearest is among them, so `gap_between` takes the same minimum from a few
    exact distances instead of every pair's (issue 24). None for a manifestation."""
    if a not in state.units or b not in state.units or a in state.manifestations or b in state.manifestations:
        return None
    pos = positions(state)
    ra, rb = _rows(state, pos, a), _rows(state, pos, b)
    if not len(ra) or not len(rb):
        return None
    gaps = np.hypot(pos.x[ra, None] - pos.x[None, rb], pos.y[ra, None] - pos.y[None, rb]) - (
        pos.r[ra, None] + pos.r[None, rb]
    )
    i, j = np.nonzero(gaps <= gaps.min() + NEAR_SLACK)
    return list(zip(i.tolist(), j.tolist()))


def _rows(state: "State", pos: Positions, uid: str) -> np.ndarray:
    """The rows of `positions` that hold unit `uid`'s live models, in model order (as
    `unit_circles` lists them), kept with the positions."""
    key = ("rows", uid)
    found = state._cache.get(key)
    if found is None:
        found = state._cache[key] = np.flatnonzero(pos.owner == pos.units.index(uid))
    return found


def unit_spans(state: "State") -> dict[str, tuple[int, int]]:
    """Per unit with a live model, the stretch [start, end) of its models in `positions` (a
    unit's models are contiguous, in unit order; `_rows` lists the same rows), kept with the
    positions."""
    found = state._cache.get(("unit_spans",))
    if found is None:
        pos = positions(state)
        counts = np.bincount(pos.owner, minlength=len(pos.units)) if len(pos.owner) else np.zeros(len(pos.units), int)
        ends = np.cumsum(counts).tolist()
        found = {uid: (e - c, e) for uid, c, e in zip(pos.units, counts.tolist(), ends) if c}
        state._cache[("unit_spans",)] = found
    return found


def blockers(state: "State", exclude_units: Iterable[str]) -> BaseIndex:
    """Bases that block sight: every model outside the observer's and target's units (G2).

    Manifestations never block sight (G2).
    """
    return all_bases(state, exclude_units)


def sight(state: "State", observer_unit: str, observer_model: int, thing: str) -> Sight:
    """Can the given model see the unit or manifestation `thing`? (G2)

    A unit is visible when any of its models is; the first clear line found is returned.
    Answers are cached with the positions they were computed from.
    """
    key = ("sight", observer_unit, observer_model, thing)
    cached = state._cache.get(key)
    if cached is not None:
        return cached
    eye = model_circle(state, observer_unit, observer_model)
    exclude = [observer_unit] + ([thing] if thing in state.units else [])
    walls = blockers(state, exclude)
    result: Sight | None = None
    for target in thing_shapes(state, thing):
        result = visible(eye, target, state.game.battlefield.terrain, walls)
        if result.visible:
            break
    if result is None:
        result = Sight(False, None, ())
    state._cache[key] = result
    return result


def sees(state: "State", observer_unit: str, observer_model: int, thing: str) -> bool:
    """`sight(state, observer_unit, observer_model, thing).visible`, without the line: asked
    batched over the thing's bases (`any_visible`, the same answer per base as `visible`: the
    same terrain, the same blocking bases), cached with the positions as `sight` is, so that
    the hero phase's options and checks keep their answers from one decision to the next while
    nothing moves, is set up or is slain (G2)."""
    found = state._cache.get(("sees", observer_unit, observer_model, thing))
    if found is None:
        known_sight = state._cache.get(("sight", observer_unit, observer_model, thing))
        if known_sight is not None:
            found = known_sight.visible
        else:
            walls = blockers(state, [observer_unit] + ([thing] if thing in state.units else []))
            eye = model_circle(state, observer_unit, observer_model)
            found = any_visible(eye, thing_shapes(state, thing), state.game.battlefield.terrain, walls)
        state._cache[("sees", observer_unit, observer_model, thing)] = found
    return found


def sees_many(state: "State", keys: Iterable[tuple[str, int, str]]) -> dict[tuple[str, int, str], bool]:
    """`sees` for many ``(observer_unit, observer_model, thing)`` at once (G2): the ones not
    known yet are asked in one `visible_many` (the same answer as `any_visible` per key, so
    the same as `sees`) and cached under `sees`' keys, for later checks to reuse."""
    cache = state._cache
    out: dict[tuple[str, int, str], bool] = {}
    todo: list[tuple[str, int, str]] = []
    for key in keys:
        if key in out:
            continue
        found = cache.get(("sees", *key))
        if found is None:
            known_sight = cache.get(("sight", *key))
            if known_sight is None:
                todo.append(key)
                out[key] = False  # filled in below
                continue
            found = cache[("sees", *key)] = known_sight.visible
        out[key] = found
    if todo:
        pos = positions(state)
        at = {uid: k for k, uid in enumerate(pos.units)}
        # per key, the blocking bases: every model outside the observer's and the target's unit
        obs = np.array([at[u] for u, _m, _t in todo], dtype=int)
        tgt = np.array([at[t] if t in state.units else -1 for _u, _m, t in todo], dtype=int)
        keep = (pos.owner[None, :] != obs[:, None]) & (pos.owner[None, :] != tgt[:, None])
        eyes = [model_circle(state, u, m) for u, m, _t in todo]
        shapes = [thing_shapes(state, t) for _u, _m, t in todo]
        seen = visible_many(eyes, shapes, state.game.battlefield.terrain, SharedBlockers(pos.x, pos.y, pos.r, keep))
        for key, v in zip(todo, seen.tolist()):
            out[key] = cache[("sees", *key)] = v
    return out


def unit_sees(state: "State", unit: str, thing: str) -> bool:
    """Can any model of `unit` see `thing` (a unit or a manifestation)? (G2) Cached per query.
    `unit` may be a manifestation (M10: one that charges or shoots like a unit)."""
    key = ("unit_sees", unit, thing)
    cached = state._cache.get(key)
    if cached is None:
        if unit in state.manifestations:
            cached = shape_sees(state, manifestation_shape(state, unit), thing)
        else:
            # `sees` is `sight(...).visible` asked batched over the thing's bases: the same yes or no
            cached = any(sees(state, unit, i, thing) for i, _ in state.units[unit].live_models())
        state._cache[key] = cached
    return cached


def shape_sees(state: "State", eye: Shape, thing: str, exclude_units: Iterable[str] = ()) -> bool:
    """G2 from a footprint: can some point of `eye` see `thing`? A round footprint looks as a
    base does; a polygon from its vertices and its centre (each line found is checked exactly,
    so a True is always a real clear line). Models of `exclude_units` and of the target unit do
    not block; manifestations never do."""
    walls = blockers(state, [*exclude_units, *([thing] if thing in state.units else [])])
    terrain = state.game.battlefield.terrain
    if isinstance(eye, Circle):
        eyes = [eye]
    else:
        c = eye.centroid
        eyes = [Circle(c.x, c.y, 0.0)] + [Circle(x, y, 0.0) for x, y in list(eye.exterior.coords)[:-1]]
    return any(visible(e, target, terrain, walls).visible for target in thing_shapes(state, thing) for e in eyes)


def sight_to_shape(state: "State", observer_unit: str, observer_model: int, target: Shape) -> Sight:
    """G2 to a shape that is not on the battlefield yet, e.g. a summoning set-up point (M9), with
    what blocks it (`blocker_names`)."""
    eye = model_circle(state, observer_unit, observer_model)
    return visible(eye, target, state.game.battlefield.terrain, blockers(state, [observer_unit]))


def blocker_names(state: "State", seen: Sight, exclude_units: Iterable[str]) -> list[str]:
    """G2: what stands in a blocked line of sight, by name: terrain pieces, and the units whose
    models block it (`seen` computed with `blockers(state, exclude_units)`), each once."""
    pos = positions(state)
    skip = {pos.units.index(u) for u in set(exclude_units) if u in state.units}
    owners: np.ndarray | None = None  # the owner of each blocker, made only when a model blocks
    names: list[str] = []
    for b in seen.blocked_by:
        if b.startswith("model:"):
            if owners is None:
                owners = pos.owner[~np.isin(pos.owner, list(skip))] if skip else pos.owner
            names.append(state.units[pos.units[int(owners[int(b.split(":")[1])])]].name)
        else:
            names.append(b)
    return list(dict.fromkeys(names))
