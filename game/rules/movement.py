"""Deployment and the movement phase: normal moves, runs and retreats (G4, R4).

- Normal move: up to Move. It may not start or end in combat (R4).
- Run: roll a D6 and add it to Move; the unit cannot shoot or charge later this turn.
- Retreat: a unit in combat suffers D3 mortal damage, then moves up to Move and may not end in
  combat; it cannot shoot or charge later this turn.
- Each unit moves once per movement phase (R1). FLY ignores models and terrain on the way.
- Deployment: before the battle, each player may reposition its units wholly within its zone.
- M10: a manifestation with Move above 0" that is not PREDATORY makes the same moves, runs and
  retreats, commanded by its summoner's player (`game.rules.movers`); `MoveUnit.to` is then the
  single new centre of its footprint.
"""

from __future__ import annotations

import functools
import math
from functools import partial
from typing import TYPE_CHECKING

import numpy as np

from game.geometry.measure import TOL, wholly_within
from game.geometry.shapes import Circle
from game.rules.actions import Action, DeployUnit, MoveUnit, Retreat, Run
from game.rules.allowances import label, named
from game.rules.damage import deal_damage
from game.rules.decisions import handles
from game.rules.errors import IllegalActionError
from game.rules.events import RetreatDeclared, RunDeclared, UnitDeployed, UnitMoved
from game.rules.formation import (
    centre_of,
    furthest_translation,
    in_combat,
    move_problems,
    radius_of,
    thing_move_problems,
)
from game.rules.manifestations import scroll_of
from game.rules.movers import check_own_mover, flags_of, movers
from game.rules.space import PRUNE_SLACK, invalidate, positions, unit_spans

if TYPE_CHECKING:
    from game.rules.state import State


def move_of(state: "State", uid: str) -> float:
    """The unit's Move characteristic after modifiers (move_debuff), never below 0; a
    manifestation's warscroll Move (M10)."""
    if uid in state.manifestations:
        return scroll_of(state, uid).move
    u = state.units[uid]
    base = state.game.warscroll(u.warscroll).move
    if not u.buffs:  # most units, most of the time: nothing to sum
        return max(0.0, base)
    return max(0.0, base - sum(b.value for b in u.buffs if b.kind == "move_debuff"))


def _own_live_unit(state: "State", player: int, uid: str) -> None:
    u = state.units.get(uid)
    if u is None or not u.alive:
        raise IllegalActionError("unknown_unit", f"there is no unit {uid!r} on the battlefield")
    if u.player != player:
        raise IllegalActionError("not_your_unit", f"{label(state, uid)} belongs to player {u.player}")


def moved_this_phase(state: "State", uid: str) -> bool:
    return flags_of(state, uid).get("moved_turn") == state.turn


def apply_positions(state: "State", uid: str, to) -> float:
    """Move the unit's live models (or a manifestation's centre, M10); return the longest
    distance any model moved."""
    if uid in state.manifestations:
        mf = state.manifestations[uid]
        ((x, y),) = to
        longest = math.hypot(x - mf.x, y - mf.y)
        mf.x, mf.y = float(x), float(y)
        invalidate(state)
        return round(longest, 4)
    longest = 0.0
    for (_, m), (x, y) in zip(state.units[uid].live_models(), to):
        longest = max(longest, math.hypot(x - m.x, y - m.y))
        m.x, m.y = float(x), float(y)
    invalidate(state)
    return round(longest, 4)


# --- deployment ----------------------------------------------------------------------------


def _check_deploy(state: "State", a: DeployUnit) -> None:
    _own_live_unit(state, a.player, a.unit)
    zone = state.game.battlefield.zones.get(a.player)
    r = radius_of(state, a.unit)
    if zone is not None:
        for k, (x, y) in enumerate(a.to):
            if not wholly_within(Circle(float(x), float(y), r), zone, 0.0):
                raise IllegalActionError(
                    "outside_zone",
                    f"{label(state, a.unit)} model {k} would not be wholly within player {a.player}'s deployment zone",
                    "G4",
                )
    problems = move_problems(state, a.unit, a.to, 0.0, may_end_in_combat=True, rule="G4", setup=True)
    if problems:
        raise IllegalActionError(
            "bad_setup",
            f"{label(state, a.unit)} cannot be set up there: " + "; ".join(problems),
            "G4",
            unit=named(state, a.unit),
            problems=tuple(problems),
        )


@handles(DeployUnit, kinds=("deploy",), check=_check_deploy)
def _deploy(state: "State", a: DeployUnit) -> None:
    apply_positions(state, a.unit, a.to)
    state.emit(UnitDeployed(unit=a.unit, to=tuple((x, y) for x, y in a.to)))


# --- the movement phase ----------------------------------------------------------------------


def _movement_unit(state: "State", player: int, uid: str) -> None:
    if state.phase != "movement":
        raise IllegalActionError(
            "wrong_phase", f"units move in the movement phase, not the {state.phase} phase", phase=state.phase
        )
    check_own_mover(state, player, uid)
    if moved_this_phase(state, uid):
        raise IllegalActionError(
            "moved", f"{label(state, uid)} has already moved this phase (R1)", "R1", unit=named(state, uid)
        )


def _check_run(state: "State", a: Run) -> None:
    _movement_unit(state, a.player, a.unit)
    if declared(state, a.unit):
        raise IllegalActionError("declared", f"{label(state, a.unit)} has already declared its move")
    if in_combat(state, a.unit):
        raise IllegalActionError(
            "in_combat",
            f"{label(state, a.unit)} is in combat: it can only retreat (R4)",
            "R4",
            unit=named(state, a.unit),
        )


@handles(Run, kinds=("phase",), check=_check_run)
def _run(state: "State", a: Run) -> None:
    (d,) = state.roll(1, 6, "run (D6)", "G4", a.player)
    flags = flags_of(state, a.unit)
    flags["declared"] = {"kind": "run", "extra": d, "turn": state.turn}
    flags["ran_turn"] = state.turn
    state.emit(RunDeclared(unit=a.unit, extra=d))


def _check_retreat(state: "State", a: Retreat) -> None:
    _movement_unit(state, a.player, a.unit)
    if declared(state, a.unit):
        raise IllegalActionError("declared", f"{label(state, a.unit)} has already declared its move")
    if not in_combat(state, a.unit):
        raise IllegalActionError(
            "not_in_combat",
            f"{label(state, a.unit)} is not in combat, so it cannot retreat (R4)",
            "R4",
            unit=named(state, a.unit),
        )


@handles(Retreat, kinds=("phase",), check=_check_retreat)
def _retreat(state: "State", a: Retreat) -> None:
    (d,) = state.roll(1, 3, "retreat damage (D3)", "R4", a.player)
    flags = flags_of(state, a.unit)
    flags["declared"] = {"kind": "retreat", "extra": 0, "turn": state.turn}
    flags["retreated_turn"] = state.turn
    state.emit(RetreatDeclared(unit=a.unit, damage=d))
    deal_damage(state, a.unit, d, mortal=True, source="retreat")


def declared(state: "State", uid: str) -> dict | None:
    return _declared_in(state, flags_of(state, uid))


def _declared_in(state: "State", flags: dict) -> dict | None:
    """The run or retreat a unit's marks (`flags_of`) declare this turn, if any."""
    d = flags.get("declared")
    return d if d and d.get("turn") == state.turn else None


def allowance(state: "State", uid: str) -> tuple[str, float]:
    return _allowance_of(state, uid, declared(state, uid))


def _allowance_of(state: "State", uid: str, d: dict | None) -> tuple[str, float]:
    """The kind of move and how far it reaches, given the run or retreat declared (`declared`)."""
    kind = d["kind"] if d else "normal"
    return kind, move_of(state, uid) + (d["extra"] if d else 0)


def _check_move(state: "State", a: MoveUnit) -> None:
    _movement_unit(state, a.player, a.unit)
    kind, reach = allowance(state, a.unit)
    if kind == "normal" and in_combat(state, a.unit):
        raise IllegalActionError(
            "in_combat",
            f"{label(state, a.unit)} is in combat: it can only retreat, not make a normal move (R4)",
            "R4",
            unit=named(state, a.unit),
        )
    problems = thing_move_problems(state, a.unit, a.to, reach, may_end_in_combat=False, rule="G4")
    if problems:
        verb = {"normal": "make a normal move", "run": "run", "retreat": "retreat"}[kind]
        raise IllegalActionError(
            "bad_move",
            f"{label(state, a.unit)} cannot {verb} there: " + "; ".join(problems),
            "G4",
            unit=named(state, a.unit),
            verb=verb,
            problems=tuple(problems),
        )


def _ends_on_a_base(state: "State", a: MoveUnit) -> bool:
    """A cheap refutation of a normal move, run, or retreat (G4): some model of the unit would
    end clearly overlapping a model of another unit, which no move may, whatever else is wrong
    with it. One numpy pass over every other unit's base (selected once while nothing moves,
    `_other_bases`); `_check_move` still words the reasons."""
    if a.unit not in state.units or a.unit in state.manifestations or not a.to:
        return False
    key: tuple | None = (a.unit, a.to)
    witness: tuple | None
    try:
        witness = state._witnesses.get((a.unit, a.to))
    except TypeError:  # ends given as lists (a hand-built action): nothing kept for it
        key = witness = None
    if witness is not None and _still_on(state, a, witness):
        return True
    bases = _other_bases(state, a.unit)
    if bases is None:
        return False
    x, y, lim2, live = bases
    if len(a.to) != live:
        return False
    ends = np.asarray(a.to, float).reshape(-1, 2)
    # Why squares, not hypot (several times dearer): the two differ by rounding alone, far
    # inside `PRUNE_SLACK`, so a refuted move still ends clearly on a base
    dx = x[None, :] - ends[:, :1]
    dy = y[None, :] - ends[:, 1:]
    hits = dx * dx + dy * dy < lim2
    if not hits.any():
        return False
    if key is not None:
        _keep_witness(state, key, a.unit, hits, x, y, lim2)
    return True


#: refutations kept per state (`State._witnesses`) before they are forgotten all at once
MOST_WITNESSES = 20_000


def _keep_witness(
    state: "State", key: tuple, uid: str, hits: np.ndarray, x: np.ndarray, y: np.ndarray, lim2: np.ndarray
) -> None:
    """Keep the first (end, base) pair that refuted this move: the end's index, the other unit
    and its model, where that model stood and the square of the overlap gap (`_other_bases`)."""
    i, j = divmod(int(np.argmax(hits)), hits.shape[1])
    a, b = unit_spans(state)[uid]
    row = j if j < a else j + (b - a)  # `_other_bases` leaves out the unit's own stretch
    pos = positions(state)
    other = pos.units[int(pos.owner[row])]
    bx, by = float(x[j]), float(y[j])
    for k, m in enumerate(state.units[other].models):
        if not m.slain and m.x == bx and m.y == by:
            if len(state._witnesses) >= MOST_WITNESSES:
                state._witnesses.clear()
            state._witnesses[key] = (i, other, k, bx, by, float(lim2[j]))
            return


def _still_on(state: "State", a: MoveUnit, witness: tuple) -> bool:
    """Whether the pair that refuted this move before still refutes it (G4): the moving unit
    has as many live models as the move has ends, and the other unit's model is still there,
    not slain. Then the full test would find that pair again (its sums are these, element for
    element), so the answer is the same; otherwise the full test decides (issue 24: a movement
    phase's decisions ask again for the moves of the units that have not moved, most of them
    refuted by the same base as before)."""
    i, other, k, bx, by, lim2 = witness
    u = state.units.get(other)
    if u is None or k >= len(u.models):
        return False
    m = u.models[k]
    if m.slain or m.x != bx or m.y != by:
        return False
    live = 0
    for own in state.units[a.unit].models:
        if not own.slain:
            live += 1
    if live != len(a.to):
        return False
    ex, ey = a.to[i]
    dx = bx - float(ex)
    dy = by - float(ey)
    return dx * dx + dy * dy < lim2


def _other_bases(state: "State", uid: str) -> tuple[np.ndarray, np.ndarray, np.ndarray, int] | None:
    """The bases of every other unit, as (x, y, the square of the gap under which a model of
    `uid` ending there overlaps it: both radii less `TOL` and `PRUNE_SLACK`), with the count of
    `uid`'s live models; None when `uid` has no live model or no other unit has: kept with the
    positions (`state._cache`, which goes when anything moves, is set up or is slain), so that
    the many moves of one unit a
    sampling bot refutes in a row share them (issue 24). The unit's own models are one
    stretch of the positions (they are in unit order), so the others are the two stretches
    around it: a few array slices, not a mask per unit over every base."""
    key = ("other_bases", uid)
    if key in state._cache:
        return state._cache[key]
    pos = positions(state)
    found = None
    span = unit_spans(state).get(uid)
    if span is not None and 0 < span[1] - span[0] < len(pos.x):
        a, b = span
        found = (
            np.concatenate((pos.x[:a], pos.x[b:])),
            np.concatenate((pos.y[:a], pos.y[b:])),
            np.square(np.concatenate((pos.r[:a], pos.r[b:])) - (TOL + PRUNE_SLACK) + radius_of(state, uid)),
            b - a,
        )
    state._cache[key] = found
    return found


@handles(MoveUnit, kinds=("phase",), check=_check_move, refute=_ends_on_a_base)
def _move(state: "State", a: MoveUnit) -> None:
    kind, _ = allowance(state, a.unit)
    moved = apply_positions(state, a.unit, a.to)
    flags = flags_of(state, a.unit)
    flags["moved_turn"] = state.turn
    flags.pop("declared", None)
    state.emit(UnitMoved(unit=a.unit, kind=kind, to=tuple((x, y) for x, y in a.to), distance=moved))


# --- options for bots and UI hints -----------------------------------------------------------


def _centres(state: "State") -> dict[str, tuple[float, float]]:
    key = ("centres",)
    if key not in state._cache:
        state._cache[key] = {k: centre_of(state, k) for k, u in state.units.items() if u.alive}
    return state._cache[key]


def _targets_for_moves(state: "State", uid: str) -> list[tuple[float, float]]:
    """Points worth moving towards: the nearest objective and the nearest enemy unit."""
    centres = _centres(state)
    me = centres[uid] if uid in centres else centre_of(state, uid)
    player = state.manifestations[uid].player if uid in state.manifestations else state.units[uid].player
    goals = []
    objectives = [(o.x, o.y) for o in state.game.battlefield.map.objectives]
    if objectives:
        goals.append(min(objectives, key=lambda p: math.hypot(p[0] - me[0], p[1] - me[1])))
    # Why: every mover asks for the same enemy list; it is built once per player per position,
    # and a numpy pass keeps only the enemies (nearly) as near as the nearest, among which the
    # exact `min` below picks the same one it would pick from the whole list (the first nearest).
    key = ("enemy_centres", player)
    found = state._cache.get(key)
    if found is None:
        pts = [c for k, c in centres.items() if state.units[k].player != player]
        xy = np.array(pts, float).reshape(-1, 2)
        found = state._cache[key] = (pts, xy[:, 0].copy(), xy[:, 1].copy())
    enemies, ex, ey = found
    if enemies:
        d = np.hypot(ex - me[0], ey - me[1])
        near = np.flatnonzero(d <= d.min() + PRUNE_SLACK).tolist()
        nearest = [enemies[k] for k in near]
        goals.append(min(nearest, key=lambda p: math.hypot(p[0] - me[0], p[1] - me[1])))
    return goals


def movement_options(state: "State") -> list[Action]:
    p = state.active
    out: list[Action] = []
    for uid in movers(state, p):
        if moved_this_phase(state, uid):
            continue
        kind, reach = allowance(state, uid)
        fighting = in_combat(state, uid)
        if not declared(state, uid):
            if fighting:
                out.append(Retreat(player=p, unit=uid))
            else:
                out.append(Run(player=p, unit=uid))
        if fighting and kind != "retreat":
            continue
        me = centre_of(state, uid)
        dirs = [(gx - me[0], gy - me[1]) for gx, gy in _targets_for_moves(state, uid)]
        if kind == "retreat":
            dirs = [(-dx, -dy) for dx, dy in dirs]
        # one candidate per unit (towards an objective or the enemy, by turns): a hint, not a
        # limit; any legal MoveUnit may be applied
        if dirs:
            d = dirs[(state.turn + len(uid)) % len(dirs)]
            to = furthest_translation(state, uid, d, reach, may_end_in_combat=False, rule="G4")
            if to is not None:
                out.append(MoveUnit(player=p, unit=uid, to=tuple(to)))
    return out


def _here(state: "State", uid: str) -> tuple[tuple[float, float], ...]:
    """Where `translated` starts from: the unit's live models, or a manifestation's centre."""
    if uid in state.manifestations:
        m = state.manifestations[uid]
        return ((m.x, m.y),)
    return tuple((m.x, m.y) for m in state.units[uid].models if not m.slain)


@functools.lru_cache(maxsize=4096)
def _shifted(here: tuple[tuple[float, float], ...], sx: float, sy: float) -> tuple[tuple[float, float], ...]:
    """`translated`'s rounding of the points `here` shifted by (sx, sy).

    Memoised: a pure function of its arguments, and each decision of a movement phase asks again
    for the units that have not moved yet, with the same shifts. (Equal floats give equal
    answers: 0.0 and -0.0, the only equal floats that differ, shift a point on the board alike.)"""
    return tuple((round(x + sx, 4), round(y + sy, 4)) for x, y in here)


def movement_candidates(state: "State") -> list[Action]:
    """Cheap, unchecked candidates: declare a run or retreat, or shift the unit straight
    towards an objective or the nearest enemy (or away from it when retreating), at full and
    at half reach.

    Each unit's part is kept from one decision to the next (`State.recall`) beside what it is
    made from: where its models stand, its allowance, whether it declared, and where the enemy
    units' centres are (the nearest enemy is among them; a manifestation's enemies are its
    player's). The other units' moves in the same phase change none of these, so each decision
    rebuilds only what moved (issue 24)."""
    p = state.active
    centres = _centres(state)
    enemies_of = {side: _enemy_centres(state, centres, side) for side in (1, 2)}
    out: list[Action] = []
    turn = state.turn
    for uid in movers(state, p):
        flags = flags_of(state, uid)  # read once: `moved_this_phase`, `declared` and `allowance` ask it
        if flags.get("moved_turn") == turn:
            continue
        d = _declared_in(state, flags)
        kind, reach = _allowance_of(state, uid, d)
        undeclared = not d
        here = _here(state, uid)
        side = state.manifestations[uid].player if uid in state.manifestations else state.units[uid].player
        inputs = (p, here, kind, reach, undeclared, enemies_of[side])
        make = partial(_unit_moves, state, uid, here, kind, reach, undeclared)
        out += state.recall(("movement_candidates", uid), inputs, make)
    return out


def _enemy_centres(
    state: "State", centres: dict[str, tuple[float, float]], side: int
) -> tuple[tuple[str, tuple[float, float]], ...]:
    """The centres of `side`'s enemy units, as `movement_candidates` keys each unit's part by:
    the very tuple of the decision before when it is equal (`State.recall`), so that each of the
    units' keys then matches it at once, not enemy by enemy (one compare a decision instead of
    one per unit: issue 24)."""
    built = tuple((k, c) for k, c in centres.items() if state.units[k].player != side)
    return state.recall(("movement_enemy_centres", side), built, lambda: built)


def _unit_moves(
    state: "State", uid: str, here: tuple[tuple[float, float], ...], kind: str, reach: float, undeclared: bool
) -> tuple[Action, ...]:
    """One unit's part of `movement_candidates`, in its order."""
    p = state.active
    out: list[Action] = []
    if undeclared:
        out += [Run(player=p, unit=uid), Retreat(player=p, unit=uid)]
    me = _centres(state).get(uid) or centre_of(state, uid)  # the same centre, computed once a position
    for gx, gy in _targets_for_moves(state, uid):
        dx, dy = gx - me[0], gy - me[1]
        n = math.hypot(dx, dy)
        if n == 0:
            continue
        sign = -1.0 if kind == "retreat" else 1.0
        for f in (1.0, 0.5):
            step = max(0.0, reach - 1e-3) * f
            sx, sy = sign * dx / n * step, sign * dy / n * step
            # `translated(state, uid, sx, sy)`, with the live models looked up once per unit
            out.append(MoveUnit(player=p, unit=uid, to=_shifted(here, sx, sy)))
    return tuple(out)
