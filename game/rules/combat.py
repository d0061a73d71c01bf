"""The combat phase (R4, M10): pile in up to 3", then the players alternate picking units to
fight, the active player first.

A unit can fight once per combat phase if it is in combat (within 3" of an enemy unit, or of an
enemy manifestation, which counts as a unit in the combat phase, M10). It picks a target within
3" of it, piles in (the whole unit moves up to 3" straight towards the target, as far as it
legally can), and each model within 3" of the target attacks with its melee weapons. A player
with no unit left to fight is skipped; a player may pass, giving up the rest of its fights.

M10: a manifestation with melee weapons fights like a unit of one model, chosen by its
commanding player (E8); one that moves like a unit (Move above 0", not PREDATORY) piles in
first, with the same legality as a unit's move. A PREDATORY one fights where it stands: it
makes no move but the predatory one **[ruling]**.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from game.geometry.measure import TOL
from game.geometry.problem import Named
from game.rules.actions import Action, Fight, PassFight
from game.rules.allowances import label
from game.rules.attacks import Volley, attack_odds, resolve_attacks
from game.rules.decisions import Decision, handles
from game.rules.errors import IllegalActionError
from game.rules.events import FightPassed, UnitMoved
from game.rules.flow import step
from game.rules.formation import (
    COMBAT_RANGE,
    centre_of,
    in_combat,
    manifestations_as_units,
    thing_move_problems,
    translated,
    units_in_combat,
)
from game.rules.frames import FightFrame, pop
from game.rules.manifest_units import can_be_affected, moves_like_unit
from game.rules.movement import apply_positions
from game.rules.shooting import check_attack_target, commander_of, melee
from game.rules.space import distance_to, gap_between, model_circle, thing_shapes, units_maybe_within

if TYPE_CHECKING:
    from game.rules.state import State

PILE_IN = 3.0


def can_fight(state: "State", uid: str) -> bool:
    if uid in state.manifestations:
        return _manifestation_can_fight(state, uid)
    u = state.units[uid]
    return (
        u.alive
        and bool(melee(state, uid))
        and u.flags.get("fought_turn") != state.turn
        and in_combat(state, uid, "combat")
    )


def _manifestation_can_fight(state: "State", mid: str) -> bool:
    """M10: a manifestation with melee weapons fights like a unit when in combat (never an E1
    kind: `melee` gives it none)."""
    m = state.manifestations[mid]
    return bool(melee(state, mid)) and m.flags.get("fought_turn") != state.turn and bool(fight_targets(state, mid))


def fight_targets(state: "State", uid: str) -> list[str]:
    """Enemy units, and enemy manifestations that can be attacked (M10), within 3" (R4)."""
    p = state.manifestations[uid].player if uid in state.manifestations else state.units[uid].player
    things = [k for k, t in state.units.items() if t.alive and t.player != p]
    things += [mid for mid in manifestations_as_units(state, p, "combat") if can_be_affected(state, mid)]
    # Why: a numpy prune drops the units clearly out of range before the exact pairwise gap
    near = units_maybe_within(state, thing_shapes(state, uid), COMBAT_RANGE)
    return [
        t
        for t in things
        if (near is None or t not in state.units or t in near) and gap_between(state, uid, t) <= COMBAT_RANGE + TOL
    ]


def eligible(state: "State", player: int) -> list[str]:
    units_in_combat(state, "combat")  # every unit is asked: all at once (issue 24)
    units = [k for k, u in state.units.items() if u.player == player and can_fight(state, k)]
    return units + [k for k in state.manifestations if commander_of(state, k) == player and can_fight(state, k)]


@step("combat.open_fights", rule="R4")
def open_fights(state: "State") -> None:
    _next_fighter(state, state.active, passed=[])


def _next_fighter(state: "State", preferred: int, passed: list[int]) -> None:
    for p in (preferred, 3 - preferred):
        if p not in passed and eligible(state, p):
            state.decisions.append(FightFrame(player=p, passed=list(passed)))
            return


def _check_fight(state: "State", a: Fight) -> None:
    if a.unit not in state.units and a.unit not in state.manifestations or commander_of(state, a.unit) != a.player:
        raise IllegalActionError("not_your_unit", f"{a.unit!r} is not one of your units or manifestations", unit=a.unit)
    name = _name(state, a.unit)
    if not can_fight(state, a.unit):
        raise IllegalActionError(
            "cannot_fight",
            f"{name} cannot fight now: it is not in combat, has no melee weapons or has fought (R4)",
            "R4",
            unit=Named(name, a.unit),
        )
    side = state.manifestations[a.unit].player if a.unit in state.manifestations else a.player
    check_attack_target(state, side, a.target)
    if a.target not in fight_targets(state, a.unit):
        raise IllegalActionError(
            "out_of_reach",
            f"{a.target} is not within 3\" of {name} (R4)",
            "R4",
            target=Named(a.target, a.target),
            unit=Named(name, a.unit),
        )


def _name(state: "State", thing: str) -> str:
    if thing in state.manifestations:
        return f"{state.game.content.manifestations[state.manifestations[thing].scroll].name} ({thing})"
    return label(state, thing)


def _pile_in(state: "State", uid: str, target: str) -> None:
    """Shift the unit (or a manifestation that moves like one, M10) up to 3" straight at the
    target, as far as is legal."""
    gap = gap_between(state, uid, target)
    length = min(PILE_IN, max(0.0, gap - 0.05))
    if length <= 0.01:
        return
    me = centre_of(state, uid)
    if target in state.units:
        tx, ty = centre_of(state, target)
    else:
        tx, ty = state.manifestations[target].x, state.manifestations[target].y
    dx, dy = tx - me[0], ty - me[1]
    n = math.hypot(dx, dy) or 1.0
    for f in (1.0, 0.5, 0.25):
        to = translated(state, uid, dx / n * length * f, dy / n * length * f)
        if not thing_move_problems(state, uid, to, PILE_IN, may_end_in_combat=True, rule="R4"):
            moved = apply_positions(state, uid, to)
            state.emit(UnitMoved(unit=uid, kind="pile_in", to=tuple(to), distance=moved, rule="R4"))
            return


def fight_volleys(state: "State", uid: str, models: int) -> list[Volley]:
    """Every melee weapon of `uid` swung by `models` models (none if no model is in range)."""
    return [Volley(w, models) for w in melee(state, uid)] if models else []


def fight_odds(state: "State", uid: str, target: str) -> tuple[float, float, int]:
    """(expected hits, expected damage, models) if `uid` fights `target` with every live model
    (a manifestation: its one) and all its melee weapons: the most the fight can bring, since
    only the models within 3" after the pile-in attack (R4). The exact means of the engine's
    attack sequence, the attacker's charge bonus included (R3)."""
    n = len(state.units[uid].live_models()) if uid in state.units else 1
    hits, damage = attack_odds(state, uid, fight_volleys(state, uid, n), target)
    return hits, damage, n


@handles(Fight, kinds=("fight",), check=_check_fight)
def _fight(state: "State", a: Fight) -> None:
    d = pop(state, FightFrame)
    if a.unit in state.manifestations:  # M10: a manifestation fights like a unit of one model
        state.manifestations[a.unit].flags["fought_turn"] = state.turn
        if moves_like_unit(state, a.unit):  # PREDATORY ones fight where they stand [ruling]
            _pile_in(state, a.unit, a.target)
        near = gap_between(state, a.unit, a.target) <= COMBAT_RANGE + TOL
        volleys = fight_volleys(state, a.unit, 1 if near else 0)
    else:
        state.units[a.unit].flags["fought_turn"] = state.turn
        _pile_in(state, a.unit, a.target)
        live = state.units[a.unit].live_models()
        n = sum(
            1 for i, _ in live if distance_to(state, model_circle(state, a.unit, i), a.target) <= COMBAT_RANGE + TOL
        )
        volleys = fight_volleys(state, a.unit, n)
    resolve_attacks(state, a.unit, volleys, a.target, kind="combat")
    _next_fighter(state, 3 - a.player, d.passed)


@handles(PassFight, kinds=("fight",), check=lambda state, a: None)
def _pass(state: "State", a: PassFight) -> None:
    d = pop(state, FightFrame)
    state.emit(FightPassed(player=a.player))
    _next_fighter(state, 3 - a.player, d.passed + [a.player])


def fight_options(state: "State", player: int) -> list[Action]:
    return [
        Fight(player=player, unit=uid, target=t) for uid in eligible(state, player) for t in fight_targets(state, uid)
    ]


def fight_view(state: "State", d: FightFrame) -> Decision:
    p = d.player
    return Decision(
        player=p,
        kind="fight",
        prompt="pick a unit to pile in and fight, or pass (R4)",
        options=tuple(fight_options(state, p)) + (PassFight(player=p),),
    )
