"""Checking a whole unit's move, model by model (G4, R4, M10).

Every model of the unit moves along a straight path from where it stands to its new centre.
A move is legal when each path is clear (decided in geometry alone, `game.geometry.path`: enemy
models block unless the unit can FLY, friendly models may be crossed, impassable terrain blocks
unless it can FLY, the battlefield edge blocks; touching is allowed, grazing is clear, and
obstacles overlapped at the start are ignored; no pymunk, G4), each
model moves no further than the allowance, each end is a legal placement (G4: no overlapping
bases, impassable terrain, the edge, or a manifestation), the unit stays coherent (every model
within 1" of another of its models), and, for moves that may not end in combat, no model ends
within 3" of an enemy unit or of an enemy manifestation that counts as a unit (R4, M10).

A manifestation that moves like a unit (M10: Move above 0", not PREDATORY) moves the same way
with its footprint: `manifestation_move_problems` checks the straight path exactly in geometry
(enemy models block unless it can FLY; friendly models and manifestations may be crossed;
impassable terrain blocks), its end like a model's (G4), and combat range (R4); coherency does
not apply to it.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np

from game.geometry.measure import TOL, distance, path_obstacles
from game.geometry.nearby import BaseIndex
from game.geometry.path import sweep_move
from game.geometry.placement import placement_problems
from game.geometry.problem import Named, Problem
from game.geometry.shapes import Circle, Shape
from game.rules.manifest_units import enemy_manifestations
from game.rules.manifestations import scroll_of
from game.rules.space import PRUNE_SLACK, footprint_at, manifestation_shape, positions

if TYPE_CHECKING:
    from game.rules.state import State

COMBAT_RANGE = 3.0  # R4
COHERENCY = 1.0  # every model within 1" of another model of its unit
Point = tuple[float, float]


def radius_of(state: "State", uid: str) -> float:
    return state.game.warscroll(state.units[uid].warscroll).base.radius_in or 0.5


def can_fly(state: "State", uid: str) -> bool:
    return state.game.warscroll(state.units[uid].warscroll).has("FLY")


def enemy_shapes(state: "State", player: int, phase: str | None = None) -> list:
    """Bases of enemy models, plus enemy manifestations that count as units now (M10)."""
    pos = positions(state)
    out: list = [
        Circle(float(pos.x[k]), float(pos.y[k]), float(pos.r[k])) for k in np.flatnonzero(pos.player != player).tolist()
    ]
    out.extend(manifestation_shape(state, mid) for mid in manifestations_as_units(state, player, phase))
    return out


def manifestations_as_units(state: "State", player: int, phase: str | None = None) -> list[str]:
    """Enemy manifestations that count as units for movement, combat range and set-up (M10):
    those with Move above 0", and Move-0 ones only in the combat phase. None under E1 (aos3)."""
    return enemy_manifestations(state, player, phase)


def gap_to_enemies(state: "State", player: int, circles: Sequence[Shape], phase: str | None = None) -> float:
    """The closest distance from any of `circles` (bases, or a manifestation's footprint) to an
    enemy unit or an enemy manifestation that counts as a unit (M10)."""
    pos = positions(state)
    best = math.inf
    enemy = pos.player != player
    if any(not isinstance(c, Circle) for c in circles):  # a polygon footprint (M10)
        if enemy.any():
            enemies = BaseIndex.from_arrays(pos.x[enemy], pos.y[enemy], pos.r[enemy])
            best = min(float(enemies.distances(c).min()) for c in circles)
        for mid in manifestations_as_units(state, player, phase):
            shape = manifestation_shape(state, mid)
            best = min(best, min(distance(c, shape) for c in circles))
        return best
    if enemy.any() and circles:
        ex, ey, er = pos.x[enemy], pos.y[enemy], pos.r[enemy]
        cx = np.array([c.x for c in circles])
        cy = np.array([c.y for c in circles])
        cr = np.array([c.r for c in circles])
        g = np.hypot(ex[None, :] - cx[:, None], ey[None, :] - cy[:, None]) - er[None, :] - cr[:, None]
        best = max(0.0, float(g.min()))
    for mid in manifestations_as_units(state, player, phase):
        shape = manifestation_shape(state, mid)
        for c in circles:
            best = min(best, distance(c, shape))
    return best


def in_combat(state: "State", uid: str, phase: str | None = None) -> bool:
    """R4: within 3" of an enemy unit (or an enemy manifestation that counts as one, M10).
    `uid` may be a manifestation that moves like a unit (M10). Cached with the positions, per
    phase (M10 manifestations count in some phases only)."""
    phase = phase or state.phase
    every = state._cache.get(("units_in_combat", phase))
    if every is not None and uid in every:
        return every[uid]
    key = ("in_combat", uid, phase)
    found = state._cache.get(key)
    if found is None:
        if uid in state.manifestations:
            player, shapes = state.manifestations[uid].player, [manifestation_shape(state, uid)]
        else:
            u = state.units[uid]
            player, shapes = u.player, [Circle(m.x, m.y, radius_of(state, uid)) for _, m in u.live_models()]
        found = state._cache[key] = gap_to_enemies(state, player, shapes, phase) <= COMBAT_RANGE + TOL
    return found


def units_in_combat(state: "State", phase: str) -> dict[str, bool]:
    """`in_combat` of every unit at once (R4, M10), cached with the positions per phase; once
    made, `in_combat` answers units from it.

    Why (issue 24): a combat phase asks it of every unit after every fight (`combat.eligible`),
    and a unit at a time that is one numpy pass per unit. Here one matrix of the gaps between
    the two sides' models answers every unit: the same sums as `gap_to_enemies` per unit (the
    hypot of the two differences, then the enemy's radius, then the model's own taken off, in
    that order; the other side's rows reuse the same hypots, which do not depend on the sign of
    a difference), so the same answers to the last bit; the manifestations that count as units
    are then asked per unit as there. A question about one unit (a move's check) stays a
    question about one unit: the matrix costs about as much as thirty of them."""
    key = ("units_in_combat", phase)
    found = state._cache.get(key)
    if found is not None:
        return found
    pos = positions(state)
    least = np.full(len(pos.units), math.inf)  # per unit: its least gap to an enemy model
    one, two = np.flatnonzero(pos.player == 1), np.flatnonzero(pos.player == 2)
    if len(one) and len(two):
        x1, y1, r1, x2, y2, r2 = pos.x[one], pos.y[one], pos.r[one], pos.x[two], pos.y[two], pos.r[two]
        h = np.hypot(x2[None, :] - x1[:, None], y2[None, :] - y1[:, None])
        np.minimum.at(least, pos.owner[one], (h - r2[None, :] - r1[:, None]).min(axis=1))
        np.minimum.at(least, pos.owner[two], (h.T - r1[None, :] - r2[:, None]).min(axis=1))
    found = {}
    limit = COMBAT_RANGE + TOL
    mans_of = {
        p: [(s, _box(s)) for s in (manifestation_shape(state, mid) for mid in manifestations_as_units(state, p, phase))]
        for p in (1, 2)
    }
    for k, uid in enumerate(pos.units):
        u = state.units[uid]
        best = max(0.0, float(least[k])) if np.isfinite(least[k]) else math.inf
        # Why: only whether the unit is in combat is kept, so the manifestations are asked only
        # of a unit not already in combat, and only those whose bounding box is within reach
        # (a lower bound of the exact distance, with PRUNE_SLACK to spare)
        if best > limit and mans_of[u.player]:
            radius = radius_of(state, uid)
            circles = [Circle(m.x, m.y, radius) for m in u.models if not m.slain]
            for shape, box in mans_of[u.player]:
                for c in circles:
                    if _box_gap(c, box) > limit + PRUNE_SLACK:
                        continue
                    best = min(best, distance(c, shape))
                if best <= limit:
                    break
        found[uid] = best <= limit
    state._cache[key] = found
    return found


def _box(shape: Shape) -> tuple[float, float, float, float]:
    """The bounding box of a base or a footprint."""
    if isinstance(shape, Circle):
        return (shape.x - shape.r, shape.y - shape.r, shape.x + shape.r, shape.y + shape.r)
    return tuple(shape.bounds)


def _box_gap(c: Circle, box: tuple[float, float, float, float]) -> float:
    """A lower bound of the distance from base `c` to a shape inside `box`: its centre's
    distance to the box, less its radius."""
    x0, y0, x1, y1 = box
    dx = max(x0 - c.x, 0.0, c.x - x1)
    dy = max(y0 - c.y, 0.0, c.y - y1)
    return math.hypot(dx, dy) - c.r


def coherency_problem(circles: Sequence[Circle]) -> str | None:
    """Every model within 1" of another model of its unit (units of two or more models)."""
    if len(circles) < 2:
        return None
    for i, c in enumerate(circles):
        near = min(distance(c, o) for j, o in enumerate(circles) if j != i)
        if near > COHERENCY + TOL:
            return Problem(
                f"model {i} would be {near:.2f}\" from the rest of its unit; coherency needs 1\"",
                "coherency",
                "G4",
                model=i,
                near=near,
            )
    return None


def move_problems(
    state: "State",
    uid: str,
    to: Sequence[Point],
    allowance: float,
    *,
    may_end_in_combat: bool,
    rule: str,
    fly: bool | None = None,
    setup: bool = False,
    first_only: bool = False,
) -> list[str]:
    """Why moving unit `uid`'s live models to `to` is illegal; empty when it is legal.

    With `setup=True` the models are set up rather than moved: no paths, no allowance.
    With `first_only=True` it stops at the first problem (for candidate searches).
    """
    u = state.units[uid]
    live = u.live_models()
    if len(to) != len(live):
        return [f"give one position per model on the battlefield: {len(live)}, not {len(to)}"]
    r = radius_of(state, uid)
    fly = can_fly(state, uid) if fly is None else fly
    pos = positions(state)
    mine = pos.owner == pos.units.index(uid)
    others = BaseIndex.from_arrays(pos.x[~mine], pos.y[~mine], pos.r[~mine])
    friendly = np.flatnonzero(pos.player[~mine] == u.player).tolist()
    bf = state.game.battlefield
    problems: list[str] = []
    ends: list[Circle] = []
    for (i, m), (x, y) in zip(live, to):
        x, y = float(x), float(y)
        step = 0.0 if setup else math.hypot(x - m.x, y - m.y)
        if step > allowance + TOL:
            text = f"model {i} would move {step:.2f}\"; it may move {allowance:.2f}\" ({rule})"
            problems.append(Problem(text, "too_far", rule, reach=allowance, step=step, model=i))
            continue
        if step > 0:
            res = sweep_move(
                (m.x, m.y),
                (x, y),
                r,
                bases=others,
                impassable=[] if fly else bf.impassable,
                width=bf.width,
                height=bf.height,
                fly=fly,
                passable=friendly,
            )
            if math.hypot(res.end[0] - x, res.end[1] - y) > 1e-5:
                what = ", ".join(res.touched) or res.reason
                text = f"model {i}'s path is blocked after {res.travelled:.2f}\" by {what} (G4)"
                problems.append(
                    Problem(text, "blocked", "G4", by=tuple(res.touched), model=i, travelled=res.travelled, what=what)
                )
                if first_only:
                    return problems
                continue
        ends.append(Circle(x, y, r))
    if problems:
        return problems
    manifest = [manifestation_shape(state, mid) for mid in state.manifestations]
    for k, c in enumerate(ends):
        for p in placement_problems(
            c, width=bf.width, height=bf.height, terrain=bf.terrain, bases=others, manifestations=manifest
        ):
            problems.append(_worded(p, f"model {live[k][0]} {p} (G4)", model=live[k][0]))
        for j in range(k):  # the unit's own models at their new places
            o = ends[j]
            depth = c.r + o.r - math.hypot(c.x - o.x, c.y - o.y)
            if depth > TOL:
                text = f"model {live[k][0]} overlaps model {live[j][0]} of its unit ({depth:.2f}\" overlap) (G4)"
                problems.append(Problem(text, "overlap_own", "G4", model=live[k][0], other=live[j][0], depth=depth))
        if problems and first_only:
            return problems
    if problems:
        return problems
    coh = coherency_problem(ends)
    if coh:
        return [coh]
    if not may_end_in_combat:
        gap = gap_to_enemies(state, u.player, ends)
        if gap <= COMBAT_RANGE + TOL:
            return [
                Problem(
                    f"the unit would end {gap:.2f}\" from the enemy, inside combat range (R4)", "combat", "R4", gap=gap
                )
            ]
    return []


def _worded(p: str, text: str, **more) -> str:
    """A placement problem in a move's words, keeping what it is made of (G4)."""
    return p.worded(text, "G4", **more) if isinstance(p, Problem) else text


def manifestation_move_problems(
    state: "State",
    mid: str,
    to: Sequence[Point],
    allowance: float,
    *,
    may_end_in_combat: bool,
    rule: str,
) -> list[str]:
    """Why moving manifestation `mid` (M10: one that moves like a unit) with its centre to the
    single point `to[0]` is illegal; empty when it is legal. The same legality as a unit's move
    (G4, R4), decided in geometry: the straight path may cross friendly models and every
    manifestation but not enemy models (unless it can FLY) or impassable terrain; it ends on
    the battlefield, on no base, terrain piece or manifestation; a move that may not end in
    combat ends more than 3" from every enemy unit and enemy manifestation that counts as one."""
    m = state.manifestations[mid]
    if len(to) != 1:
        return [f"give one position, the centre of its footprint, not {len(to)}"]
    x, y = float(to[0][0]), float(to[0][1])
    if not (math.isfinite(x) and math.isfinite(y)):
        return [f"({x!r}, {y!r}) is not a pair of finite numbers"]
    step = math.hypot(x - m.x, y - m.y)
    if step > allowance + TOL:
        text = f"it would move {step:.2f}\"; it may move {allowance:.2f}\" ({rule})"
        return [Problem(text, "too_far", rule, reach=allowance, step=step)]
    pos = positions(state)
    start_shape = manifestation_shape(state, mid)
    end_shape = footprint_at(state, m.scroll, x, y)
    bf = state.game.battlefield
    problems: list[str] = []
    if step > 0:
        fly = "FLY" in scroll_of(state, mid).keywords
        enemy = np.flatnonzero(pos.player != m.player).tolist()
        blockers = [] if fly else [Circle(float(pos.x[k]), float(pos.y[k]), float(pos.r[k])) for k in enemy]
        hit_bases, hit_terrain = path_obstacles(start_shape, (m.x, m.y), (x, y), blockers, [] if fly else bf.impassable)
        for i in hit_bases[:1]:
            uid = pos.units[int(pos.owner[enemy[i]])]
            problems.append(
                Problem(
                    f"its path is blocked by {state.units[uid].name} ({uid}) (G4)",
                    "blocked",
                    "G4",
                    unit=uid,
                    who=Named(f"{state.units[uid].name} ({uid})", uid),
                )
            )
        for j in hit_terrain[:1]:
            name = [t.name for t in bf.map.terrain if "impassable" in t.traits][j]
            text = f"its path is blocked by impassable terrain {name!r} (G4)"
            problems.append(Problem(text, "blocked", "G4", terrain=name))
        if problems:
            return problems
    everyone = BaseIndex.from_arrays(pos.x, pos.y, pos.r)
    others = [manifestation_shape(state, k) for k in state.manifestations if k != mid]
    for p in placement_problems(
        end_shape, width=bf.width, height=bf.height, terrain=bf.terrain, bases=everyone, manifestations=others
    ):
        problems.append(_worded(p, f"it {p} (G4)"))
    if problems:
        return problems
    if not may_end_in_combat:
        gap = gap_to_enemies(state, m.player, [end_shape])
        if gap <= COMBAT_RANGE + TOL:
            return [
                Problem(f"it would end {gap:.2f}\" from the enemy, inside combat range (R4)", "combat", "R4", gap=gap)
            ]
    return []


def thing_move_problems(
    state: "State",
    thing: str,
    to: Sequence[Point],
    allowance: float,
    *,
    may_end_in_combat: bool,
    rule: str,
    first_only: bool = False,
) -> list[str]:
    """`move_problems` for a unit, `manifestation_move_problems` for a manifestation (M10)."""
    if thing in state.manifestations:
        return manifestation_move_problems(state, thing, to, allowance, may_end_in_combat=may_end_in_combat, rule=rule)
    return move_problems(
        state, thing, to, allowance, may_end_in_combat=may_end_in_combat, rule=rule, first_only=first_only
    )


def translated(state: "State", uid: str, dx: float, dy: float) -> list[Point]:
    """The unit's live models shifted by (dx, dy), rounded to 1e-4" (a manifestation: its centre)."""
    if uid in state.manifestations:
        m = state.manifestations[uid]
        return [(round(m.x + dx, 4), round(m.y + dy, 4))]
    return [(round(m.x + dx, 4), round(m.y + dy, 4)) for _, m in state.units[uid].live_models()]


def furthest_translation(
    state: "State",
    uid: str,
    direction: Point,
    length: float,
    *,
    may_end_in_combat: bool,
    rule: str,
    fractions: Sequence[float] = (1.0, 0.5),
) -> list[Point] | None:
    """The longest legal whole-unit shift along `direction`, tried at a few fractions of
    `length`; None if none is legal. A candidate generator for options, not a rule."""
    n = math.hypot(*direction)
    if n == 0 or length <= 0:
        return None
    ux, uy = direction[0] / n, direction[1] / n
    step = max(0.0, length - 1e-3)  # positions are rounded to 1e-4": keep clear of the limit
    for f in fractions:
        to = translated(state, uid, ux * step * f, uy * step * f)
        if not thing_move_problems(
            state, uid, to, length, may_end_in_combat=may_end_in_combat, rule=rule, first_only=True
        ):
            return to
    return None


def centre_of(state: "State", uid: str) -> Point:
    """The mean position of a unit's live models, or a manifestation's centre."""
    if uid in state.manifestations:
        m = state.manifestations[uid]
        return (m.x, m.y)
    live = [m for m in state.units[uid].models if not m.slain]
    return (sum(m.x for m in live) / len(live), sum(m.y for m in live) / len(live))
