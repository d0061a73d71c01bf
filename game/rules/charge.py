"""The charge phase (R4, M10).

A unit that is not in combat, and did not run or retreat this turn, may charge if a visible
enemy unit (or enemy manifestation that counts as a unit, M10) is within 12" [core]. It rolls
2D6; then it moves up to that many inches and must end within ½" of a visible enemy unit or
enemy manifestation. If it cannot or will not, the charge fails and it does not move.

M10: a manifestation with Move above 0" that is not PREDATORY charges the same way
(`game.rules.movers`), measured and seen from its footprint.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from game.geometry.measure import TOL
from game.geometry.shapes import Circle
from game.rules.actions import Action, Charge, FailCharge, MoveUnit
from game.rules.allowances import label, named
from game.rules.decisions import Decision, handles
from game.rules.errors import IllegalActionError
from game.rules.events import ChargeFailed, ChargeRolled, UnitMoved
from game.rules.formation import (
    centre_of,
    in_combat,
    manifestations_as_units,
    thing_move_problems,
    translated,
)
from game.rules.frames import ChargeMoveFrame, pop, top
from game.rules.movement import apply_positions
from game.rules.movers import check_own_mover, flags_of, movers, player_of
from game.rules.space import (
    distance_to,
    footprint_at,
    gap_between,
    sees_many,
    thing_shapes,
    unit_sees,
    units_maybe_within,
)

if TYPE_CHECKING:
    from game.rules.state import State

CHARGE_REACH = 12.0  # [core] declare only with an enemy within 12"
ENGAGE = 0.5  # R4: end within ½" of an enemy


def charge_targets(state: "State", uid: str, reach: float) -> list[str]:
    """Enemy units and manifestations (M10) within `reach` of the unit and visible to it."""
    return [t for t in enemies_within(state, uid, thing_shapes(state, uid), reach) if unit_sees(state, uid, t)]


def has_charge_target(state: "State", uid: str, reach: float) -> bool:
    """Whether `charge_targets` would name any (R4). The nearest-listed enemy is asked first
    (often seen); the rest, only if it is not, in one batched pass (`sees_many`: the same
    answers as `unit_sees`, kept for later checks)."""
    near = enemies_within(state, uid, thing_shapes(state, uid), reach)
    if not near:
        return False
    if unit_sees(state, uid, near[0]):
        return True
    rest = near[1:]
    if uid in state.manifestations:
        return any(unit_sees(state, uid, t) for t in rest)
    models = [i for i, _ in state.units[uid].live_models()]
    seen = sees_many(state, [(uid, i, t) for t in rest for i in models])
    found = False
    for t in rest:
        sees_it = any(seen[(uid, i, t)] for i in models)
        state._cache[("unit_sees", uid, t)] = sees_it  # `unit_sees`' own key and answer
        found = found or sees_it
    return found


def enemies_within(state: "State", uid: str, circles, reach: float) -> list[str]:
    """Enemy units and manifestations (M10) within `reach` of any of `circles` (the bases, or
    the footprint, of `uid` somewhere)."""
    player = player_of(state, uid)
    things = [k for k, t in state.units.items() if t.alive and t.player != player]
    things += manifestations_as_units(state, player, "charge")
    # Why: measuring every enemy unit model by model is units x models; a numpy prune drops the
    # units clearly out of reach, and the exact test below still decides for the rest.
    near = units_maybe_within(state, circles, reach)
    return [
        t
        for t in things
        if (near is None or t not in state.units or t in near)
        and min(distance_to(state, c, t) for c in circles) <= reach + TOL
    ]


def shapes_at(state: "State", uid: str, to) -> list:
    """The bases of unit `uid` (or the footprint of manifestation `uid`) standing at `to`."""
    if uid in state.manifestations:
        ((x, y),) = to
        return [footprint_at(state, state.manifestations[uid].scroll, float(x), float(y))]
    r = state.game.warscroll(state.units[uid].warscroll).base.radius_in or 0.5
    return [Circle(float(x), float(y), r) for x, y in to]


def _check_charge(state: "State", a: Charge) -> None:
    if state.phase != "charge":
        raise IllegalActionError(
            "wrong_phase", f"units charge in the charge phase, not the {state.phase} phase", "R4", phase=state.phase
        )
    check_own_mover(state, a.player, a.unit)
    spent = _spent(state, a.unit)
    if spent == "charged":
        raise IllegalActionError(
            "charged", f"{label(state, a.unit)} has already charged this phase (R1)", "R1", unit=named(state, a.unit)
        )
    if spent is not None:
        raise IllegalActionError(
            spent, f"{label(state, a.unit)} {spent} this turn and cannot charge", unit=named(state, a.unit)
        )
    if in_combat(state, a.unit):
        raise IllegalActionError(
            "in_combat", f"{label(state, a.unit)} is already in combat (R4)", "R4", unit=named(state, a.unit)
        )
    if not has_charge_target(state, a.unit, CHARGE_REACH):
        raise IllegalActionError(
            "no_target",
            f"no visible enemy within {CHARGE_REACH:g}\" of {label(state, a.unit)} (R4)",
            "R4",
            reach=CHARGE_REACH,
            unit=named(state, a.unit),
        )


@handles(Charge, kinds=("phase",), check=_check_charge)
def _charge(state: "State", a: Charge) -> None:
    roll = sum(state.roll(2, 6, "charge roll (2D6)", "R4", a.player))
    flags_of(state, a.unit)["charge_tried_turn"] = state.turn
    state.emit(ChargeRolled(unit=a.unit, roll=roll))
    state.decisions.append(ChargeMoveFrame(player=a.player, unit=a.unit, roll=roll))


def engaged_with(state: "State", uid: str, to) -> list[str]:
    """Visible enemies within ½" of the unit standing at `to` (R4, M10)."""
    return [t for t in enemies_within(state, uid, shapes_at(state, uid, to), ENGAGE) if unit_sees(state, uid, t)]


def charge_move_problems(state: "State", d: ChargeMoveFrame, to) -> list[str]:
    problems = thing_move_problems(state, d.unit, to, d.roll, may_end_in_combat=True, rule="R4")
    if problems:
        return problems
    ends = shapes_at(state, d.unit, to)
    if any(unit_sees(state, d.unit, t) for t in enemies_within(state, d.unit, ends, ENGAGE)):
        return []
    return ["the unit would not end within ½\" of a visible enemy unit or manifestation (R4)"]


def _check_charge_move(state: "State", a: MoveUnit) -> None:
    d = top(state, ChargeMoveFrame)
    if a.unit != d.unit:
        raise IllegalActionError(
            "wrong_unit",
            f"{label(state, d.unit)} is charging, not {a.unit}",
            "R4",
            unit=named(state, d.unit),
            other=a.unit,
        )
    problems = charge_move_problems(state, d, a.to)
    if problems:
        raise IllegalActionError(
            "bad_charge",
            f"{label(state, a.unit)} cannot end its charge there: " + "; ".join(problems),
            "R4",
            unit=named(state, a.unit),
            problems=tuple(problems),
        )


@handles(MoveUnit, kinds=("charge_move",), check=_check_charge_move)
def _do_charge_move(state: "State", a: MoveUnit) -> None:
    pop(state, ChargeMoveFrame)
    moved = apply_positions(state, a.unit, a.to)
    flags_of(state, a.unit)["charged_turn"] = state.turn
    state.emit(UnitMoved(unit=a.unit, kind="charge", to=tuple((x, y) for x, y in a.to), distance=moved, rule="R4"))


@handles(FailCharge, kinds=("charge_move",), check=lambda state, a: None)
def _fail(state: "State", a: FailCharge) -> None:
    d = pop(state, ChargeMoveFrame)
    state.emit(ChargeFailed(unit=d.unit, reason="no charge move made"))


def charge_move_candidates(state: "State", d: ChargeMoveFrame) -> list[MoveUnit]:
    """Unchecked charge moves: the whole unit shifted straight at each enemy within reach,
    stopping with its nearest model just inside ½"."""
    uid, roll, p = d.unit, d.roll, d.player
    out: list[MoveUnit] = []
    me = centre_of(state, uid)
    things = [k for k, t in state.units.items() if t.alive and t.player != p]
    things += manifestations_as_units(state, p, "charge")
    for t in things:
        gap = gap_between(state, uid, t)
        tx, ty = centre_of(state, t) if t in state.units else (state.manifestations[t].x, state.manifestations[t].y)
        step = max(0.0, gap - ENGAGE * 0.8)
        if step > roll:
            continue
        dx, dy = tx - me[0], ty - me[1]
        n = math.hypot(dx, dy) or 1.0
        out.append(MoveUnit(player=p, unit=uid, to=tuple(translated(state, uid, dx / n * step, dy / n * step))))
    return out


def charge_move_options(state: "State", d: ChargeMoveFrame) -> list[Action]:
    """The legal candidate charge moves, then giving up."""
    moves: list[Action] = [a for a in charge_move_candidates(state, d) if not charge_move_problems(state, d, a.to)]
    return moves + [FailCharge(player=d.player)]


def charge_move_view(state: "State", d: ChargeMoveFrame) -> Decision:
    def candidates() -> list[Action]:
        return [*charge_move_candidates(state, d), FailCharge(player=d.player)]

    return Decision(
        player=d.player,
        kind="charge_move",
        prompt=(
            f"move {label(state, d.unit)} up to {d.roll}\" to end within ½\" of an enemy, or give up the charge (R4)"
        ),
        options=state.lazily(lambda: charge_move_options(state, d)),
        candidates=state.lazily(candidates),
        data={"unit": d.unit, "roll": d.roll},
    )


def charge_options(state: "State") -> list[Action]:
    p = state.active
    return [Charge(player=p, unit=uid) for uid in movers(state, p) if state.legal(Charge(player=p, unit=uid))]


def charge_candidates(state: "State") -> list[Action]:
    """Cheap, unchecked candidates: a charge declared by every unit that moves like one, but
    not by one that has charged, ran or retreated this turn (`_spent`; issue 24)."""
    return [Charge(player=state.active, unit=k) for k in movers(state, state.active) if _spent(state, k) is None]


def _spent(state: "State", unit: str) -> str | None:
    """Why `unit` may not declare a charge this turn whatever its position: "charged" (it has
    charged or tried to this phase, R1), "ran" or "retreated"; None when it may."""
    flags = flags_of(state, unit)
    if flags.get("charged_turn") == state.turn or flags.get("charge_tried_turn") == state.turn:
        return "charged"
    for flag, what in (("ran_turn", "ran"), ("retreated_turn", "retreated")):
        if flags.get(flag) == state.turn:
            return what
    return None
