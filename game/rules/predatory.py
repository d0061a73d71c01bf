"""The predatory procedure (E6-E10): control, then the moves, at the end of every hero phase.

Timing (E6). This module provides three automatic steps; the turn table (game.rules.turn) runs
them in both players' hero phases:

    predatory.reset   (start of the hero phase) commanders and control marks are reset
    predatory.control (end of the hero phase)   E7: who controls what; may ask players to choose
    predatory.moves   (end of the hero phase)   E8: the move decisions, until none is left
    ...               end-of-hero-phase abilities added with `turn.at_end_of_hero_phase(step)`

The table lists the end-of-hero-phase abilities' slot after predatory.control and
predatory.moves, and a step that opens decisions holds back the next step until they close
(flow.settle), so every such ability resolves after every predatory move.

Control (E7). A predatory manifestation wholly within `profile.control_range` (24") of its
summoning model (the model picked at summoning, E5) is controlled by that model. **[ruling,
E5]** If that model has been slain while its unit lives, no model stands in for it: the
manifestation is wild. A WIZARD or PRIEST controls at most one per hero phase, and a unit of
several models counts as one (E5): the whole unit controls at most one, whichever of its models
summoned them. When several qualify, its player chooses (decision `predatory_control`, action
`ChooseControlled`). The rest are wild. Control is shown in
`ManifestationState.flags["controlled_by"] = [unit, model]`, wildness in `flags["wild"] = True`,
until the start of the next hero phase.

Order (E8). One decision kind, `predatory_move`, answered by `MovePredatory`:
stage "controlled": the active player moves each one its models control, in the order it likes,
then the opponent does the same; stage "wild": the players alternate, the active player first,
each picking any wild manifestation (either army's) that can move and has not moved this phase.
A player with none eligible passes automatically (`PredatoryPassed`). Picking a wild one makes
the picker its commanding player (`ManifestationState.commander`) until the start of the next
hero phase; otherwise the summoner's player commands.

The move (E9, E10). The point must lie on the battlefield and within Move + 3" of the
manifestation, measured like every distance from the closest point of its footprint (G1), not
from its centre: a round footprint of radius r reaches a centre Move + 3" + r away, an oval one
more along its long axis; anything else is an IllegalActionError. The footprint is placed with its centre on the point,
unless it would overlap a model's base, another manifestation or impassable terrain there
**[ruling in RULES.md E9]**: then it does not move, counts as having moved 0" (and as a move for
E4c) and the event says why. The path may cross models and terrain. Units passed across are those
whose bases the swept footprint touches or overlaps, grazes included; manifestations are never
"passed across" **[ruling: M10, abilities that do not pick targets ignore them]**, and a 0" move
passes across nothing. The warscroll's `pass_across` effects then resolve on each unit in the
order in which the moving footprint first touches each of its bases along the path (E9; ties by
the units' order); if the manifestation is
removed meanwhile (M11: it slew its own summoner) nothing more resolves. Then E4b and E4c
(removal.after_move).

**[ruling]** A warscroll Move of 0" ("-") never moves, E10's +3" notwithstanding (M10): such a
manifestation takes no part in the procedure.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

import numpy as np

from game.geometry.measure import (
    TOL,
    first_touch,
    overlaps,
    point_distance,
    reach_along_ray,
    swept_hits,
    wholly_within,
)
from game.geometry.problem import Named, Problem
from game.geometry.shapes import Circle, Shape, to_shapely
from game.rules import removal
from game.rules.actions import Action
from game.rules.decisions import Decision, handles
from game.rules.effects import EffectContext, resolve
from game.rules.errors import IllegalActionError
from game.rules.flow import step
from game.rules.frames import PredatoryControlFrame, PredatoryMoveFrame, pop, top
from game.rules.manifestations import scroll_of
from game.rules.predatory_records import (
    ChooseControlled,
    CommandTaken,
    ManifestationControlled,
    ManifestationMoved,
    ManifestationWild,
    MovePredatory,
    PredatoryMovesBegan,
    PredatoryMovesEnded,
    PredatoryPassed,
)
from game.rules.space import all_bases, footprint_at, invalidate, manifestation_shape, model_circle, positions

if TYPE_CHECKING:
    from game.rules.state import State

CONTROLLED_BY = "controlled_by"  # ManifestationState.flags key: [unit, model]
WILD = "wild"  # ManifestationState.flags key: True while wild this hero phase
DIRECTIONS = 8  # full-reach representative points offered per manifestation
NEAREST_ENEMIES = 2  # enemy units offered as "toward / across" representative points


# --- E6: timing ------------------------------------------------------------------------------


# --- queries -------------------------------------------------------------------------------


def is_mover(state: "State", mid: str) -> bool:
    """A predatory manifestation that can move (E6; Move 0" never moves, M10)."""
    s = scroll_of(state, mid)
    return s.predatory and s.move > 0


def predatory_ids(state: "State") -> list[str]:
    return [mid for mid in state.manifestations if is_mover(state, mid)]


def move_reach(state: "State", mid: str) -> float:
    """E10: the warscroll's Move + the profile's predatory bonus (3")."""
    return scroll_of(state, mid).move + state.game.profile.predatory_move_bonus


def controller(state: "State", mid: str) -> tuple[str, int] | None:
    """The (unit, model) controlling the manifestation this hero phase, or None when wild."""
    c = state.manifestations[mid].flags.get(CONTROLLED_BY)
    return (c[0], int(c[1])) if c else None


def summoning_model(state: "State", mid: str) -> int | None:
    """E5, E7: the model control is measured from, the one picked at summoning; None when that
    model has been slain (its unit may live on: the manifestation is then wild [ruling, E5]) or
    its unit is gone."""
    m = state.manifestations[mid]
    u = state.units.get(m.summoner)
    if u is None or not u.alive:
        return None
    if 0 <= m.summoner_model < len(u.models) and not u.models[m.summoner_model].slain:
        return m.summoner_model
    return None


def wild_reason(state: "State", mid: str) -> str | None:
    """E7: why `mid` cannot be controlled this hero phase, or None when its summoning model
    qualifies: "no_summoner" (the unit is gone), "summoner_slain" (the summoning model is slain,
    its unit lives: E5) or "out_of_range" (not wholly within control range)."""
    m = state.manifestations[mid]
    u = state.units.get(m.summoner)
    if u is None or not u.alive:
        return "no_summoner"
    model = summoning_model(state, mid)
    if model is None:
        return "summoner_slain"
    zone = model_circle(state, m.summoner, model)
    if not wholly_within(manifestation_shape(state, mid), zone, state.game.profile.control_range):
        return "out_of_range"
    return None


def qualifies(state: "State", mid: str) -> tuple[str, int] | None:
    """E7: the (unit, model) that may control `mid`: wholly within control range of its
    summoning model. None when it is wild. A unit controls at most one of those that qualify."""
    if wild_reason(state, mid) is not None:
        return None
    m = state.manifestations[mid]
    return m.summoner, m.summoner_model


# --- E7: control ---------------------------------------------------------------------------


@step("predatory.reset", rule="E8")
def reset(state: "State") -> None:
    """Start of each hero phase: control lapses and every manifestation is commanded by its
    summoner's player again (E7, E8)."""
    for m in state.manifestations.values():
        m.commander = m.player
        m.flags.pop(CONTROLLED_BY, None)
        m.flags.pop(WILD, None)


@step("predatory.control", rule="E7")
def control(state: "State") -> None:
    """E7: before the moves, mark what each summoning model controls; ask when several qualify."""
    movers = predatory_ids(state)
    for m in state.manifestations.values():
        m.flags.pop(CONTROLLED_BY, None)
        m.flags.pop(WILD, None)
    if not movers:
        return
    state.emit(PredatoryMovesBegan(active=state.active, manifestations=tuple(movers)))
    by_unit: dict[str, list[str]] = {}  # E5: a unit of several models is one wizard
    for mid in movers:
        why = wild_reason(state, mid)
        if why is None:
            by_unit.setdefault(state.manifestations[mid].summoner, []).append(mid)
        else:
            _wild(state, mid, why)
    asks: list[PredatoryControlFrame] = []
    for uid, mids in by_unit.items():
        if len(mids) == 1:
            _mark(state, mids[0])
        else:
            asks.append(PredatoryControlFrame(player=state.units[uid].player, unit=uid, candidates=mids))
    # The active player answers first; within a player, in the order the units were listed.
    asks.sort(key=lambda d: (d.player != state.active, list(state.units).index(d.unit)))
    state.decisions.extend(reversed(asks))


def _wild(state: "State", mid: str, reason: str) -> None:
    state.manifestations[mid].flags[WILD] = True
    state.emit(ManifestationWild(manifestation=mid, reason=reason))


def _mark(state: "State", mid: str) -> None:
    """E7: `mid` is controlled by the model that summoned it."""
    m = state.manifestations[mid]
    m.flags[CONTROLLED_BY] = [m.summoner, m.summoner_model]
    m.commander = m.player
    state.emit(ManifestationControlled(manifestation=mid, unit=m.summoner, model=m.summoner_model, player=m.player))


def control_view(state: "State", d: PredatoryControlFrame) -> Decision:
    u = state.units[d.unit]
    names = ", ".join(f"{scroll_of(state, mid).name} ({mid})" for mid in d.candidates)
    return Decision(
        player=d.player,
        kind="predatory_control",
        prompt=f"{u.name} ({d.unit}) can control only one of {names}; pick it, the others go wild (E7, E5)",
        options=tuple(ChooseControlled(player=d.player, manifestation=mid) for mid in d.candidates),
        data={
            "unit": d.unit,
            # the summoning model of each candidate (E5): control is measured from it
            "models": {
                mid: state.manifestations[mid].summoner_model for mid in d.candidates if mid in state.manifestations
            },
            "candidates": list(d.candidates),
            "rule": "E7",
        },
    )


def _check_choose(state: "State", a: ChooseControlled) -> None:
    d = top(state, PredatoryControlFrame)
    if a.manifestation not in d.candidates or a.manifestation not in state.manifestations:
        raise IllegalActionError(
            "not_a_candidate",
            f"{d.unit} cannot control {a.manifestation!r}; choose one of {', '.join(d.candidates)} (E7)",
            "E7",
            unit=Named(d.unit, d.unit),
            thing=Named(repr(a.manifestation), a.manifestation),
            choices=", ".join(d.candidates),
        )


@handles(ChooseControlled, kinds=("predatory_control",), check=_check_choose)
def _choose(state: "State", a: ChooseControlled) -> None:
    d = pop(state, PredatoryControlFrame)
    _mark(state, a.manifestation)
    for mid in d.candidates:
        if mid != a.manifestation and mid in state.manifestations:
            _wild(state, mid, "chose_another")


# --- E8: order of moves ---------------------------------------------------------------------


@step("predatory.moves", rule="E8")
def moves(state: "State") -> None:
    """E8: the move decisions, controlled ones first, then the wild ones in turns."""
    if not predatory_ids(state):
        return
    rec = PredatoryMoveFrame(player=state.active, stage="controlled", moved=[], next_wild=state.active)
    state.decisions.append(rec)
    _advance(state, rec)


def eligible(state: "State", rec: PredatoryMoveFrame, player: int | None = None) -> list[str]:
    """The manifestations `player` (default: the deciding player) may move now (E8)."""
    player = rec.player if player is None else player
    moved = rec.moved
    out = []
    for mid, m in state.manifestations.items():
        if mid in moved or not is_mover(state, mid):
            continue
        controlled = CONTROLLED_BY in m.flags
        if rec.stage == "controlled":
            if controlled and m.player == player:
                out.append(mid)
        elif not controlled:
            out.append(mid)  # every wild one is open to either player
    return out


def _advance(state: "State", rec: PredatoryMoveFrame) -> None:
    """Move the procedure on to whoever must move next, passing players with nothing to move;
    close it when nothing is left (E8)."""
    active = state.active
    if rec.stage == "controlled":
        order = (active, state.opponent(active))
        for side in order[order.index(rec.player) :]:
            if eligible(state, rec, side):
                rec.player = side
                return
        rec.stage = "wild"
    passes = 0
    while passes < 2:
        p = rec.next_wild
        if eligible(state, rec, p):
            rec.player = p
            return
        if not eligible(state, rec, state.opponent(p)):
            break
        state.emit(PredatoryPassed(player=p))
        rec.next_wild = state.opponent(p)
        passes += 1
    _close(state, rec)


def _close(state: "State", rec: PredatoryMoveFrame) -> None:
    for i in range(len(state.decisions) - 1, -1, -1):
        if state.decisions[i] is rec:
            del state.decisions[i]
            break
    state.emit(PredatoryMovesEnded(moved=tuple(rec.moved)))


# --- E9, E10: the move -----------------------------------------------------------------------


def _name(state: "State", mid: str) -> str:
    return f"{scroll_of(state, mid).name} ({mid})"


def point_problem(state: "State", mid: str, x: float, y: float) -> tuple[str, str, str] | None:
    """(code, message, rule) if (x, y) is not a point the manifestation may pick (E9, E10).
    The message is a `Problem` carrying the fields it was made from (issue 22: worded by the UI)."""
    bf = state.game.battlefield
    if not (isinstance(x, (int, float)) and isinstance(y, (int, float)) and math.isfinite(x) and math.isfinite(y)):
        text = f"the point ({x!r}, {y!r}) is not a pair of finite numbers"
        return "bad_point", Problem(text, "bad_point", "E9", x=repr(x), y=repr(y)), "E9"
    thing = Named(_name(state, mid), mid)
    if not (-TOL <= x <= bf.width + TOL and -TOL <= y <= bf.height + TOL):
        text = (
            f"({x:.2f}, {y:.2f}) is not on the {bf.width:g}\" x {bf.height:g}\" battlefield; "
            f"{_name(state, mid)} must stay on it (E9)"
        )
        facts = {"x": f"{x:.2f}", "y": f"{y:.2f}", "width": f"{bf.width:g}", "height": f"{bf.height:g}"}
        return "off_battlefield", Problem(text, "off_battlefield", "E9", thing=thing, **facts), "E9"
    d = reach_used(state, mid, x, y)
    reach = move_reach(state, mid)
    if d > reach + TOL:
        s = scroll_of(state, mid)
        bonus = state.game.profile.predatory_move_bonus
        text = (
            f"({x:.2f}, {y:.2f}) is {d:.2f}\" from {_name(state, mid)} (measured from its footprint); it moves up to "
            f"{s.move:g}\" + {bonus:g}\" = {reach:g}\" (E9, E10)"
        )
        facts = {
            "x": f"{x:.2f}",
            "y": f"{y:.2f}",
            "distance": f"{d:.2f}",
            "move": f"{s.move:g}",
            "bonus": f"{bonus:g}",
            "reach": f"{reach:g}",
        }
        return "out_of_reach", Problem(text, "out_of_reach", "E10", thing=thing, **facts), "E10"
    return None


def reach_used(state: "State", mid: str, x: float, y: float) -> float:
    """E9: how far the point (x, y) is from the manifestation where it stands, measured from the
    closest point of its footprint (G1); 0 for a point under the footprint."""
    return point_distance(manifestation_shape(state, mid), x, y)


def reach_area(state: "State", mid: str) -> Shape:
    """E9, E10: the points the manifestation may pick, before the battlefield's edges: its
    footprint grown by its reach. A Circle for a round footprint; otherwise a shapely polygon
    (buffered, for drawing: the rule is decided by `point_problem`)."""
    shape = manifestation_shape(state, mid)
    reach = move_reach(state, mid)
    if isinstance(shape, Circle):
        return Circle(shape.x, shape.y, shape.r + reach)
    return to_shapely(shape).buffer(reach, quad_segs=32)


def blocked_reason(state: "State", mid: str, x: float, y: float) -> str | None:
    """Why the footprint cannot be placed with its centre at (x, y), or None (E9 [ruling])."""
    m = state.manifestations[mid]
    shape = footprint_at(state, m.scroll, x, y)
    pos = positions(state)
    idx, _ = all_bases(state).overlapping(shape)
    if len(idx):
        uid = pos.units[int(pos.owner[int(idx[0])])]
        text = f"would overlap a base of {state.units[uid].name} ({uid}) (E9)"
        return Problem(text, "pred_blocked", "E9", unit=Named(f"{state.units[uid].name} ({uid})", uid))
    for piece in state.game.battlefield.terrain.impassable_overlapping(shape):
        text = f"would overlap impassable terrain {piece.name!r} (E9)"
        return Problem(text, "pred_blocked", "E9", terrain=piece.name)
    reach = _outer_radius(state, m.scroll)
    for oid, o in state.manifestations.items():
        if oid == mid or math.hypot(o.x - x, o.y - y) >= reach + _outer_radius(state, o.scroll):
            continue  # bounding circles apart: no overlap possible
        if overlaps(shape, manifestation_shape(state, oid)):
            return Problem(
                f"would overlap {_name(state, oid)} (E9)", "pred_blocked", "E9", thing=Named(_name(state, oid), oid)
            )
    return None


def _outer_radius(state: "State", scroll_id: str) -> float:
    fp = state.game.content.manifestations[scroll_id].footprint
    if fp.radius_in is not None:
        return fp.radius_in
    return max(math.hypot(px, py) for px, py in fp.polygon or [(0.0, 0.0)])


def passed_across(state: "State", mid: str, start: tuple[float, float], end: tuple[float, float]) -> list[str]:
    """E9: units whose bases the footprint touches or overlaps while its centre moves from
    `start` to `end` (grazing counts), in the order the footprint reaches them."""
    if start == end:
        return []
    m = state.manifestations[mid]
    bases = all_bases(state)
    if not len(bases):
        return []
    cand = bases.near_segment(start, end, _outer_radius(state, m.scroll) + TOL)
    if not len(cand):
        return []
    shape = footprint_at(state, m.scroll, *start)
    hits = cand[swept_hits(shape, start, end, [bases[int(i)] for i in cand])]
    if not len(hits):
        return []
    pos = positions(state)
    t = first_touch(shape, start, end, [bases[int(k)] for k in hits])
    first: dict[str, float] = {}
    for k, tk in zip(hits.tolist(), t):
        uid = pos.units[int(pos.owner[k])]
        first[uid] = min(first.get(uid, math.inf), tk)
    order = {uid: i for i, uid in enumerate(pos.units)}
    return sorted(first, key=lambda u: (first[u], order[u]))


def _check_move(state: "State", a: MovePredatory) -> None:
    rec = top(state, PredatoryMoveFrame)
    if a.manifestation not in state.manifestations:
        raise IllegalActionError(
            "unknown_manifestation",
            f"there is no manifestation {a.manifestation!r} on the battlefield",
            "E8",
            target=a.manifestation,
        )
    if a.manifestation not in eligible(state, rec):
        why = (
            "it is not one of yours that your models control, or it has already moved"
            if rec.stage == "controlled"
            else "it is controlled or has already moved this phase"
        )
        raise IllegalActionError(
            "not_eligible",
            f"player {a.player} cannot move {_name(state, a.manifestation)} now: {why} (E8)",
            "E8",
            player=a.player,
            thing=Named(_name(state, a.manifestation), a.manifestation),
            why=why,
        )
    p = point_problem(state, a.manifestation, a.x, a.y)
    if p:
        raise IllegalActionError(*p, **getattr(p[1], "facts", {}))


@handles(MovePredatory, kinds=("predatory_move",), check=_check_move)
def _move(state: "State", a: MovePredatory) -> None:
    rec = top(state, PredatoryMoveFrame)
    mid = a.manifestation
    m = state.manifestations[mid]
    wild = rec.stage == "wild"
    rec.moved.append(mid)
    if wild:
        m.commander = a.player
        rec.next_wild = state.opponent(a.player)
        state.emit(CommandTaken(manifestation=mid, player=a.player))
    else:
        m.commander = m.player
    start = (m.x, m.y)
    x, y = float(a.x), float(a.y)
    reason = blocked_reason(state, mid, x, y)
    end = start if reason else (x, y)
    crossed = passed_across(state, mid, start, end)
    m.x, m.y = end
    m.moves_made += 1
    invalidate(state)
    state.emit(
        ManifestationMoved(
            manifestation=mid,
            scroll=m.scroll,
            player=m.commander,
            path=(start, end),
            target=(x, y),
            distance=round(math.hypot(end[0] - start[0], end[1] - start[1]), 6),
            reach=move_reach(state, mid),
            measured=round(point_distance(footprint_at(state, m.scroll, *start), x, y), 6),
            passed_across=tuple(crossed),
            controlled=not wild,
            reason=reason,
        )
    )
    effects = list(scroll_of(state, mid).pass_across)
    if effects:
        for uid in crossed:
            if mid not in state.manifestations:
                break  # removed meanwhile, e.g. severed (M11): it affects nothing more
            u = state.units.get(uid)
            if u is None or not u.alive:
                continue
            ctx = EffectContext(m.commander, m.summoner, m.summoner_model, m.scroll, uid, "E9")
            resolve(state, ctx, effects)
    removal.after_move(state, mid)
    if state.stage != "over":
        _advance(state, rec)


# --- what pending() shows ------------------------------------------------------------------------


def _edge_limit(cx: float, cy: float, ux: float, uy: float, w: float, h: float) -> float:
    """How far from (cx, cy) along unit direction (ux, uy) the battlefield's edge lies."""
    t = math.inf
    if ux > 1e-12:
        t = min(t, (w - cx) / ux)
    elif ux < -1e-12:
        t = min(t, -cx / ux)
    if uy > 1e-12:
        t = min(t, (h - cy) / uy)
    elif uy < -1e-12:
        t = min(t, -cy / uy)
    return max(t, 0.0)


def _on_ray(cx: float, cy: float, ux: float, uy: float, length: float, w: float, h: float) -> tuple[float, float]:
    """The point `length` along (ux, uy) from (cx, cy), cut at the battlefield edge, rounded to
    0.001" towards the centre's side."""
    t = min(length, _edge_limit(cx, cy, ux, uy, w, h))
    return min(max(round(cx + t * ux, 3), 0.0), w), min(max(round(cy + t * uy, 3), 0.0), h)


def ray_reach(state: "State", mid: str, ux: float, uy: float) -> float:
    """E9, E10: how far from the centre along unit direction (ux, uy) the manifestation can
    pick a point: its reach measured from the footprint (Move + 3" + r for a round one)."""
    m = state.manifestations[mid]
    return reach_along_ray(manifestation_shape(state, mid), m.x, m.y, ux, uy, move_reach(state, mid))


def candidate_points(state: "State", mid: str, player: int, directions: int = DIRECTIONS) -> list[tuple[float, float]]:
    """Representative legal points for bots and UI hints (not the exact check): staying put,
    the full reach (measured from the footprint, E9) in `directions` directions cut at the
    battlefield edge, and points just short of and just across the nearest enemy units' closest
    models."""
    m = state.manifestations[mid]
    bf = state.game.battlefield
    w, h = bf.width, bf.height
    cx, cy = m.x, m.y
    pts: list[tuple[float, float]] = [(cx, cy)]
    for k in range(directions):
        ang = 2 * math.pi * k / directions
        ux, uy = math.cos(ang), math.sin(ang)
        pts.append(_on_ray(cx, cy, ux, uy, ray_reach(state, mid, ux, uy) - 0.002, w, h))  # room for rounding
    pos = positions(state)
    if len(pos.x):
        enemy = np.array([state.units[pos.units[o]].player != player for o in pos.owner.tolist()], bool)
        if enemy.any():
            gaps = np.hypot(pos.x - cx, pos.y - cy) - pos.r
            gaps[~enemy] = np.inf
            outer = _outer_radius(state, m.scroll)
            seen: set[int] = set()
            for k in np.argsort(gaps, kind="stable").tolist():
                if not np.isfinite(gaps[k]) or len(seen) >= NEAREST_ENEMIES:
                    break
                owner = int(pos.owner[k])
                if owner in seen:
                    continue
                seen.add(owner)
                d = math.hypot(pos.x[k] - cx, pos.y[k] - cy)
                if d < 1e-9:
                    continue
                ux, uy = (pos.x[k] - cx) / d, (pos.y[k] - cy) / d
                longest = ray_reach(state, mid, ux, uy) - 0.002
                clear = float(pos.r[k]) + outer + 0.05
                for length in (d - clear, d + clear):
                    if 0 < length:
                        pts.append(_on_ray(cx, cy, ux, uy, min(length, longest), w, h))
    out: list[tuple[float, float]] = []
    for p in pts:
        p = (float(p[0]), float(p[1]))
        if p not in out and point_problem(state, mid, *p) is None:
            out.append(p)
    return out


def move_view(state: "State", rec: PredatoryMoveFrame) -> Decision:
    """The move decision. `data["manifestations"]` describes every eligible one (centre, reach);
    the point-choice keys (`point_action`, `point_fields`, `centre`, `reach`, `scroll`) describe
    the first of them, for front ends that offer one point choice at a time."""
    p = rec.player
    mids = eligible(state, rec)
    info: dict[str, Any] = {}
    for mid in mids:
        m = state.manifestations[mid]
        info[mid] = {
            "scroll": m.scroll,
            "centre": [m.x, m.y],
            "reach": move_reach(state, mid),
            "controlled_by": m.flags.get(CONTROLLED_BY),
            "player": m.player,
        }

    def options() -> list[Action]:
        return [
            MovePredatory(player=p, manifestation=mid, x=x, y=y)
            for mid in mids
            for x, y in candidate_points(state, mid, p)
        ]

    if rec.stage == "controlled":
        prompt = "move each predatory manifestation your models control, in any order: pick one and a point (E8, E9)"
    else:
        prompt = (
            "pick a wild predatory manifestation to move and a point; you command it until the next hero phase (E8, E9)"
        )
    data: dict[str, Any] = {"stage": rec.stage, "moved": list(rec.moved), "manifestations": info, "rule": "E8"}
    if mids:
        first = info[mids[0]]
        data.update(
            point_action="MovePredatory",
            point_fields={"manifestation": mids[0]},
            centre=first["centre"],
            reach=first["reach"],
            scroll=first["scroll"],
        )
    return Decision(player=p, kind="predatory_move", prompt=prompt, options=state.lazily(options), data=data)
