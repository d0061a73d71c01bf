"""The shooting phase: visible targets within weapon range, then the attack sequence (R3, G1, G2).

Each model shoots each ranged weapon if the target is within that weapon's range of the model
and visible to it (G2; Obscuring terrain blocks). Cover gives -1 to hit when any model of the
target unit stands in or on a Cover terrain piece [ruling]. A unit that ran or retreated this
turn cannot shoot. Each unit shoots once per phase (R1). Enemy manifestations can be shot
(M10), except the kinds the profile makes untouchable (E1: endless spells under `aos3`).
M10: a manifestation with ranged weapons shoots like a unit of one model, measured and seen
from its footprint, commanded by its commanding player (E8).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from game.geometry.measure import TOL
from game.geometry.problem import Named
from game.rules.actions import Action, Shoot
from game.rules.allowances import label, named
from game.rules.attacks import Volley, attack_odds, resolve_attacks
from game.rules.decisions import handles
from game.rules.errors import IllegalActionError
from game.rules.manifest_units import can_be_affected
from game.rules.movers import flags_of, player_of, walker_weapons
from game.rules.space import (
    distance_to,
    manifestation_shape,
    model_circle,
    sees_many,
    thing_shapes,
    unit_circles,
    unit_sees,
    units_maybe_within,
)

if TYPE_CHECKING:
    from game.rules.state import State


def ranged(state: "State", uid: str):
    """The ranged weapons of a unit, or of a manifestation (M10)."""
    if uid in state.manifestations:
        return walker_weapons(state, uid, ranged=True)
    return [w for w in state.game.warscroll(state.units[uid].warscroll).weapons if w.range > 0]


def melee(state: "State", uid: str):
    """The melee weapons of a unit, or of a manifestation (M10)."""
    if uid in state.manifestations:
        return walker_weapons(state, uid, ranged=False)
    return [w for w in state.game.warscroll(state.units[uid].warscroll).weapons if w.range == 0]


def commander_of(state: "State", thing: str) -> int:
    """Who makes a unit's or a manifestation's choices: its player, or for a manifestation its
    commanding player (E8)."""
    if thing in state.manifestations:
        m = state.manifestations[thing]
        return m.commander or m.player
    return state.units[thing].player


def check_attack_target(state: "State", player: int, target: str, rule_for_manifestation: str = "M10") -> None:
    """The target is an enemy unit on the battlefield, or an enemy manifestation when they can
    be attacked (M10 under aos4, never under aos3: E1)."""
    if target in state.manifestations:
        if not can_be_affected(state, target):
            raise IllegalActionError(
                "manifestation_immune", "endless spells cannot be attacked in this profile (E1)", "E1"
            )
        if state.manifestations[target].player == player:
            raise IllegalActionError("friendly", f"{target} is a friendly manifestation", rule_for_manifestation)
        return
    t = state.units.get(target)
    if t is None or not t.alive:
        raise IllegalActionError("unknown_target", f"there is no target {target!r} on the battlefield")
    if t.player == player:
        raise IllegalActionError("friendly", f"{label(state, target)} is a friendly unit", target=named(state, target))


def shooting_volleys(state: "State", uid: str, target: str) -> list[Volley]:
    """Per ranged weapon, how many models have the target in range and in sight."""
    out = []
    if uid in state.manifestations:  # M10: one shooter, its footprint
        eye = manifestation_shape(state, uid)
        for w in ranged(state, uid):
            if distance_to(state, eye, target) <= w.range + TOL and unit_sees(state, uid, target):
                out.append(Volley(w, 1))
        return out
    guns = ranged(state, uid)
    if not guns:
        return out
    live = state.units[uid].live_models()
    gap = {i: distance_to(state, model_circle(state, uid, i), target) for i, _ in live}
    # the sight of every model in range of some weapon, asked at once (`sees_many`: the same
    # answer as `sees` per model, sight(...).visible batched over the target's bases)
    longest = max(w.range for w in guns)
    seen = sees_many(state, [(uid, i, target) for i, _ in live if gap[i] <= longest + TOL])
    for w in guns:
        n = sum(1 for i, _ in live if gap[i] <= w.range + TOL and seen[(uid, i, target)])
        if n:
            out.append(Volley(w, n))
    return out


def check_may_shoot(state: "State", player: int, unit: str) -> None:
    """Everything about `unit` shooting now except its target (R1, R3, E8, M10)."""
    if state.phase != "shooting":
        raise IllegalActionError(
            "wrong_phase", f"units shoot in the shooting phase, not the {state.phase} phase", phase=state.phase
        )
    u = state.units.get(unit)
    if unit in state.manifestations:
        if commander_of(state, unit) != player:
            raise IllegalActionError(
                "not_your_unit", f"{label(state, unit)} is not commanded by player {player} (E8)", "E8"
            )
    elif u is None or not u.alive or u.player != player:
        raise IllegalActionError("not_your_unit", f"{unit!r} is not one of your units on the battlefield")
    if not ranged(state, unit):
        raise IllegalActionError("no_ranged", f"{label(state, unit)} has no ranged weapons", unit=named(state, unit))
    flags = flags_of(state, unit)
    if flags.get("shot_turn") == state.turn:
        raise IllegalActionError(
            "shot", f"{label(state, unit)} has already shot this phase (R1)", "R1", unit=named(state, unit)
        )
    for flag, what in (("ran_turn", "ran"), ("retreated_turn", "retreated")):
        if flags.get(flag) == state.turn:
            raise IllegalActionError(
                what, f"{label(state, unit)} {what} this turn and cannot shoot", unit=named(state, unit)
            )


def _check_shoot(state: "State", a: Shoot) -> None:
    check_may_shoot(state, a.player, a.unit)
    check_attack_target(state, player_of(state, a.unit), a.target)
    reach = max(w.range for w in ranged(state, a.unit))
    d = min(distance_to(state, c, a.target) for c in thing_shapes(state, a.unit))
    if d > reach + TOL:
        raise IllegalActionError(
            "out_of_range",
            f"{a.target} is {d:.2f}\" from {label(state, a.unit)}; its longest range is {reach:g}\" (G1)",
            "G1",
            target=Named(a.target, a.target),
            distance=d,
            unit=named(state, a.unit),
            reach=reach,
        )
    if not shooting_volleys(state, a.unit, a.target):
        raise IllegalActionError(
            "no_shot",
            f"no model of {label(state, a.unit)} has {a.target} both within range "
            f"({reach:g}\"; closest {d:.2f}\") and visible (G1, G2)",
            "G2",
            unit=named(state, a.unit),
            target=Named(a.target, a.target),
            reach=reach,
            distance=d,
        )


def in_cover(state: "State", target: str) -> bool:
    if target not in state.units:
        return False
    terrain = state.game.battlefield.terrain
    return any(terrain.in_cover(c) for c in unit_circles(state, target))


def shooting_odds(state: "State", uid: str, target: str) -> tuple[float, float]:
    """(expected hits, expected damage) if `uid` shoots `target` now: the exact means of the
    very attack `Shoot` makes (its volleys, Cover, the shooter's and the target's modifiers)."""
    return attack_odds(state, uid, shooting_volleys(state, uid, target), target, cover=in_cover(state, target))


@handles(Shoot, kinds=("phase",), check=_check_shoot)
def _shoot(state: "State", a: Shoot) -> None:
    flags_of(state, a.unit)["shot_turn"] = state.turn
    resolve_attacks(
        state,
        a.unit,
        shooting_volleys(state, a.unit, a.target),
        a.target,
        kind="shooting",
        cover=in_cover(state, a.target),
    )


def shooting_options(state: "State") -> list[Action]:
    """Every shooter at every enemy it could shoot, less what two cheap checks prove illegal
    (issue 24): a shooter that may not shoot now (`check_may_shoot`: it ran, retreated or has
    shot), and a unit target that no model of the shooter may be within its longest range of
    (the vectorised `units_maybe_within`). Visibility and the exact range are left to
    `State.legal`; `shooting_legal_options` keeps the legal ones, in this order."""
    p = state.active
    out: list[Action] = []
    enemies = [k for k, u in state.units.items() if u.alive and u.player != p]
    enemies += [k for k, m in state.manifestations.items() if m.player != p and can_be_affected(state, k)]
    for uid, u in state.units.items():
        if u.player != p or not u.alive or not _may_shoot(state, p, uid):
            continue
        near = units_maybe_within(state, thing_shapes(state, uid), max(w.range for w in ranged(state, uid)) + TOL)
        out.extend(
            Shoot(player=p, unit=uid, target=t) for t in enemies if near is None or t not in state.units or t in near
        )
    for mid in state.manifestations:  # M10: manifestations with ranged weapons
        if commander_of(state, mid) == p and _may_shoot(state, p, mid):
            side = player_of(state, mid)
            out.extend(Shoot(player=p, unit=mid, target=t) for t in enemies if player_of(state, t) != side)
    return out


def _may_shoot(state: "State", player: int, unit: str) -> bool:
    try:
        check_may_shoot(state, player, unit)
    except IllegalActionError:
        return False
    return True


def shooting_legal_options(state: "State") -> list[Action]:
    return [a for a in shooting_options(state) if state.legal(a)]
