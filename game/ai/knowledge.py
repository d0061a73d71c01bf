"""What the bots know about a position: values, expected damage, threats and an evaluation.

Everything here reads the state and never changes it. Probabilities and expected damage come
from the engine's one odds module (game.rules.odds: the attack sequence, wards, dice expressions,
the charge roll) and the engine's reading of an attack (game.rules.attacks.situation); what
this module adds is judgement: what damage, a kill or a position is worth. Nothing rolls dice.

Units of value: one wound point of an ordinary model is worth about 1. A victory point is worth
`VP_WEIGHT` of those.
"""

from __future__ import annotations

import functools
import math
import threading
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import replace
from typing import TYPE_CHECKING, Any, TypeVar

from game.rules.query import (
    CHARGE_REACH,
    COMBAT_RANGE,
    OBJECTIVE_RANGE,
    Weapon,
    fight_odds,
    general_of,
    modifier,
    odds,
    radius_of,
    shooting_odds,
    situation,
)

if TYPE_CHECKING:
    from game.rules import State

# --- one decision's shared answers -------------------------------------------------------------

_scopes = threading.local()  # per thread (a hint asks a bot beside the game's own): a stack
F = TypeVar("F", bound=Callable[..., Any])


@contextmanager
def decision_scope(state: "State") -> Iterator[None]:
    """While a bot weighs one decision of `state` (a read-only stretch: `State.query`), the
    values below that it asks again and again are worked out once per question and shared
    (issue 25: the hard bot's rollouts are almost all the normal bot's own scoring, and about
    half of these questions repeat within a decision). Answers are kept for this very state
    object only, and only until the scope ends; a clone, or a state changed after the scope,
    is never answered from it."""
    stack = getattr(_scopes, "stack", None)
    if stack is None:
        stack = _scopes.stack = []
    stack.append((state, {}))
    try:
        yield
    finally:
        stack.pop()


def _per_decision(fn: F) -> F:
    """`fn(state, ...)` answered once per question inside a `decision_scope` of that state (its
    arguments besides the state must be hashable; its answer must not be changed by callers)."""
    name = fn.__name__

    @functools.wraps(fn)
    def shared(state: "State", *args: Any, **kwargs: Any) -> Any:
        stack = getattr(_scopes, "stack", None)
        if stack:
            for scoped, memo in reversed(stack):
                if scoped is state:
                    key = (name, args, tuple(sorted(kwargs.items())) if kwargs else ())
                    found = memo.get(key, _MISSING)
                    if found is _MISSING:
                        found = memo[key] = fn(state, *args, **kwargs)
                    return found
        return fn(state, *args, **kwargs)

    return shared  # type: ignore[return-value]


_MISSING = object()


VP_WEIGHT = 3.0
PREDATORY_VALUE = 3.0  # a predatory manifestation on the battlefield, to its army
STATIC_VALUE = 0.8  # one that stays where it is set up (it blocks, and draws banishes)
WALKER_VALUE = 2.2  # one that moves and fights like a unit (M10)


# --- units ---------------------------------------------------------------------------------------


def ws_of(state: "State", uid: str):
    return state.game.warscroll(state.units[uid].warscroll)


def wounds_left(state: "State", uid: str) -> int:
    u = state.units[uid]
    h = ws_of(state, uid).health
    return sum(h - m.damage for _, m in u.live_models())


def ward_of(state: "State", uid: str) -> int:
    from game.rules.query import ward_of as engine_ward

    return engine_ward(state, uid)


def save_buff(state: "State", uid: str) -> int:
    return modifier(state, uid, "save_buff")


def hit_debuff(state: "State", uid: str) -> int:
    return modifier(state, uid, "hit_debuff")


def weapon_mean(w: "Weapon", models: int, save: int) -> float:
    """Expected damage points of `models` models attacking with `w` against `save`, nothing else
    in play (the exact mean, game.rules.odds)."""
    return odds.expected_damage([odds.Volley(w, models)], odds.Situation(save))


@_per_decision
def attack_output(
    state: "State", attacker: str, target: str, kind: str, models: int | None = None, charged: bool = False
) -> float:
    """Expected damage points `attacker` deals `target` with its melee ("combat") or ranged
    ("shooting") weapons, every live model (or `models` of them) taking part: the exact mean of
    the engine's attack sequence (`odds.expected_damage` in `attacks.situation`) for the bot's
    what-if: `charged` as asked, no Cover, every weapon of the kind as if in range and sight.
    For the attack a unit can make now, see `shot_mean` and `fight_mean`."""
    sit = replace(situation(state, attacker, target), charged=charged)
    if attacker in state.manifestations:  # M10: a manifestation with weapons
        weapons = state.game.content.manifestations[state.manifestations[attacker].scroll].weapons
        n = 1
    else:
        u = state.units[attacker]
        weapons = ws_of(state, attacker).weapons
        n = len(u.live_models()) if models is None else models
    return odds.expected_damage([odds.Volley(w, n) for w in weapons if (w.range > 0) == (kind == "shooting")], sit)


def shot_mean(state: "State", uid: str, target: str) -> float:
    """Expected damage points if `uid` shoots `target` now: the very attack `Shoot` makes (the
    weapons in range and sight, Cover, every modifier), the number the UI's target panel shows
    (`game.rules.shooting.shooting_odds`)."""
    return shooting_odds(state, uid, target)[1]


def fight_mean(state: "State", uid: str, target: str) -> float:
    """Expected damage points if `uid` fights `target` with every live model: the most its
    `Fight` can bring, the number the UI's fight panel shows (`game.rules.combat.fight_odds`)."""
    return fight_odds(state, uid, target)[1]


_OFFENCE: dict[int, float] = {}


def _base_offence(ws) -> float:
    """Expected damage per turn of a whole full-strength unit against a 4+ save (best of its
    melee and ranged output, plus half the other)."""
    key = id(ws)
    if key not in _OFFENCE:
        _OFFENCE[key] = _offence(ws)
    return _OFFENCE[key]


def _offence(ws) -> float:
    melee = sum(weapon_mean(w, ws.models, 4) for w in ws.weapons if w.range == 0)
    ranged = sum(weapon_mean(w, ws.models, 4) for w in ws.weapons if w.range > 0)
    return max(melee, ranged) + 0.5 * min(melee, ranged)


def wound_value(state: "State", uid: str) -> float:
    """What one wound point of this unit is worth."""
    ws = ws_of(state, uid)
    total_health = ws.health * ws.models
    v = 1.0 + 1.5 * _base_offence(ws) / max(1, total_health)
    if ws.has("HERO"):
        v *= 1.3
    v += 0.35 * (ws.wizard_level + ws.priest_level) / max(1, ws.models)
    return v


def is_general(state: "State", uid: str) -> bool:
    return uid in state.units and uid == general_of(state, state.units[uid].player)


def kill_bonus(state: "State", uid: str) -> float:
    """The value of destroying the unit beyond its wounds: the general's VPs, its casting."""
    bonus = 0.0
    if is_general(state, uid) and not state.flags.get(f"general{state.units[uid].player}_slain"):
        bonus += 3 * VP_WEIGHT
    ws = ws_of(state, uid)
    bonus += 0.5 * ws.control
    # M11: its manifestations go with it
    bonus += sum(manifestation_value(state, mid) for mid, m in state.manifestations.items() if m.summoner == uid)
    return bonus


def unit_value(state: "State", uid: str) -> float:
    u = state.units[uid]
    if not u.alive:
        return 0.0
    return wounds_left(state, uid) * wound_value(state, uid) + 0.5 * kill_bonus(state, uid)


def manifestation_value(state: "State", mid: str) -> float:
    m = state.manifestations[mid]
    s = state.game.content.manifestations[m.scroll]
    base = _kind_value(state, s)
    left = max(0, s.health - m.damage) / s.health
    moves_cap = [r.value for r in s.removal if r.kind == "after_moves"]
    if moves_cap:
        base *= max(0.2, (moves_cap[0] - m.moves_made) / moves_cap[0])
    return base * (0.5 + 0.5 * left)


def damage_value(state: "State", target: str, dist: Iterable[tuple[int, float]], mortal: bool = True) -> float:
    """The value of dealing damage with distribution `dist` (already after wards) to `target`."""
    if target in state.manifestations:
        m = state.manifestations[target]
        s = state.game.content.manifestations[m.scroll]
        left = s.health - m.damage
        v = manifestation_value(state, target)
        return sum(p * (v if d >= left else v * 0.5 * d / s.health) for d, p in dist)
    u = state.units.get(target)
    if u is None or not u.alive:
        return 0.0
    left = wounds_left(state, target)
    wv = wound_value(state, target)
    kb = kill_bonus(state, target)
    return sum(p * (min(d, left) * wv + (kb if d >= left else 0.0)) for d, p in dist)


def expected_damage_value(state: "State", target: str, mean_damage: float) -> float:
    """The value of an expected amount of (non-mortal) damage spread as a Poisson-ish guess."""
    if mean_damage <= 0:
        return 0.0
    lo = int(mean_damage)
    frac = mean_damage - lo
    dist = ((lo, 1 - frac), (lo + 1, frac))
    return damage_value(state, target, dist)


# --- positions ---------------------------------------------------------------------------------


def centre(state: "State", uid: str) -> tuple[float, float]:
    """The mean position of a unit's live models (a manifestation's centre); cached with the
    state's positions."""
    key = ("ai.centre", uid)
    found = state._cache.get(key)
    if found is None:
        if uid in state.manifestations:
            m = state.manifestations[uid]
            found = state._cache[key] = (m.x, m.y)
            return found
        live = state.units[uid].live_models()
        found = state._cache[key] = (sum(m.x for _, m in live) / len(live), sum(m.y for _, m in live) / len(live))
    return found


def gap(state: "State", a: str, b: str) -> float:
    """Closest base-to-base distance between two units (or a unit and a manifestation)."""
    from game.rules.query import gap_between

    return gap_between(state, a, b)


def live_units(state: "State", player: int) -> list[str]:
    key = ("ai.live", player)
    found = state._cache.get(key)
    if found is None:
        found = state._cache[key] = tuple(k for k, u in state.units.items() if u.alive and u.player == player)
    return list(found)


@_per_decision
def threat_to(state: "State", uid: str, by_player: int) -> float:
    """Expected damage points `by_player` could put on `uid` in its next turn (a rough reach test)."""
    total = 0.0
    cx, cy = centre(state, uid)
    for e in live_units(state, by_player):
        ws = ws_of(state, e)
        ex, ey = centre(state, e)
        d = math.hypot(cx - ex, cy - ey)
        if d <= ws.move + CHARGE_REACH + COMBAT_RANGE:  # a move, a charge of up to 12", then 3" (R4)
            total += 0.6 * attack_output(state, e, uid, "combat")
        rng = max((w.range for w in ws.weapons if w.range > 0), default=0)
        if rng and d <= ws.move + rng + 2:
            total += 0.7 * attack_output(state, e, uid, "shooting")
    return total


# --- spells and prayers ----------------------------------------------------------------------


@_per_decision
def ability_value(state: "State", player: int, caster: str, ability_id: str, target: str | None) -> float:
    """What resolving the ability is worth to `player` (whose caster resolves it), assuming it
    resolves. Negative values never arise; a worthless ability is worth about 0."""
    ab = state.game.content.abilities[ability_id]
    tgt = target or caster
    total = 0.0
    for spec in ab.effects:
        h = spec.handler
        if h in ("mortal_damage", "mortal_damage_on_roll"):
            dist = odds.mortal_damage_distribution(
                spec.amount or 0, (spec.on or 7) if h == "mortal_damage_on_roll" else None
            )
            ward = ward_of(state, tgt) if tgt in state.units else 0
            total += damage_value(state, tgt, odds.after_ward(dist, ward))
        elif h in ("save_buff", "ward_buff"):
            if tgt not in state.units:
                continue
            incoming = threat_to(state, tgt, 3 - player)
            wv = wound_value(state, tgt)
            if h == "save_buff":
                have = save_buff(state, tgt)
                total += incoming * (0.22 if have == 0 else 0.08) * wv
            else:
                cur = ward_of(state, tgt)
                new = spec.value or 0
                if cur and cur <= new:
                    continue
                before = odds.ward_pass(cur)
                total += incoming * (before - odds.ward_pass(new)) * wv
        elif h == "hit_debuff":
            if tgt not in state.units or hit_debuff(state, tgt) >= 1:
                continue
            out = 0.0
            for mine in live_units(state, player):
                out = max(out, _reach_output(state, tgt, mine))
            total += 0.22 * out * 1.3
        elif h == "move_debuff":
            if tgt not in state.units:
                continue
            if any(b.kind == "move_debuff" for b in state.units[tgt].buffs):
                continue
            total += 0.4 + 0.02 * _base_offence(ws_of(state, tgt))
        elif h == "heal":
            if tgt not in state.units:
                continue
            hurt = sum(m.damage for _, m in state.units[tgt].live_models())
            amount = odds.expr_mean(spec.amount or 0)
            total += min(hurt, amount) * wound_value(state, tgt) * (1.0 if hurt else 0.0)
        elif h == "summon":
            total += summon_value(state, player, spec.manifestation or "")
    return total


def _reach_output(state: "State", attacker: str, victim: str) -> float:
    """Expected damage `attacker` may deal `victim` next turn, if it can get there."""
    ws = ws_of(state, attacker)
    ax, ay = centre(state, attacker)
    vx, vy = centre(state, victim)
    d = math.hypot(ax - vx, ay - vy)
    out = 0.0
    if d <= ws.move + CHARGE_REACH + COMBAT_RANGE:  # a move, a charge of up to 12", then 3" (R4)
        out = max(out, attack_output(state, attacker, victim, "combat"))
    rng = max((w.range for w in ws.weapons if w.range > 0), default=0)
    if rng and d <= ws.move + rng + 2:
        out = max(out, attack_output(state, attacker, victim, "shooting"))
    return out


def summon_value(state: "State", player: int, scroll_id: str) -> float:
    s = state.game.content.manifestations.get(scroll_id)
    if s is None:
        return 0.0
    v = _kind_value(state, s)
    if v > STATIC_VALUE and state.round >= state.game.rounds:
        v *= 0.5
    return v


def _kind_value(state: "State", s) -> float:
    """What a manifestation of this warscroll is worth on the battlefield: a predator, a walker
    (M10: it moves and fights like a unit, unless the profile makes its kind untouchable, E1) or
    one that stays put."""
    if s.predatory and s.move > 0:
        return PREDATORY_VALUE
    if s.move > 0 and s.weapons and s.kind not in state.game.profile.untouchable_kinds:
        return WALKER_VALUE
    return STATIC_VALUE


def unbinder_near(state: "State", caster: str, model: int, by_player: int) -> bool:
    """Is an enemy WIZARD with an unbind left within unbinding range of the caster model?"""
    from game.rules.query import model_circle, unbinds_left

    me = model_circle(state, caster, model)
    reach = state.game.profile.unbind_range
    for uid in live_units(state, by_player):
        if not ws_of(state, uid).wizard_level or unbinds_left(state, uid) <= 0:
            continue
        for _i, m in state.units[uid].live_models():
            r = radius_of(state, uid)
            if math.hypot(m.x - me.x, m.y - me.y) - r - me.r <= reach + 1e-9:
                return True
    return False


# --- the position --------------------------------------------------------------------------------


def objective_outlook(state: "State", player: int) -> float:
    """How the objectives stand for `player`: held or winnable ones count, in VPs per turn."""
    from game.rules.query import control_scores

    total = 0.0
    for i in range(len(state.game.battlefield.map.objectives)):
        a, b = control_scores(state, i)
        mine, theirs = (a, b) if player == 1 else (b, a)
        holder = state.objectives[i]
        if mine > theirs or (mine == theirs and holder == player):
            total += 1.0
        elif theirs > mine or (mine == theirs and holder == 3 - player):
            total -= 1.0
    return total


def evaluate(state: "State", player: int) -> float:
    """A static evaluation of the position for `player` (higher is better)."""
    if state.is_over():
        res = state.result() or {}
        w = res.get("winner")
        return 0.0 if w is None else (1000.0 if w == player else -1000.0)
    opp = 3 - player
    vp = (state.score[player - 1] - state.score[opp - 1]) * VP_WEIGHT
    mat = sum(unit_value(state, u) for u in live_units(state, player)) - sum(
        unit_value(state, u) for u in live_units(state, opp)
    )
    man = 0.0
    for mid, m in state.manifestations.items():
        man += manifestation_value(state, mid) * (1 if m.player == player else -1)
    turns_left = max(0, 2 * state.game.rounds - state.turn) / 2 + 0.5
    obj = objective_outlook(state, player) * VP_WEIGHT * min(2.0, 0.6 * turns_left)
    return vp + mat + man + obj


def within_objective(state: "State", uid: str, index: int) -> bool:
    o = state.game.battlefield.map.objectives[index]
    r = radius_of(state, uid)
    return any(math.hypot(m.x - o.x, m.y - o.y) - r <= OBJECTIVE_RANGE for _, m in state.units[uid].live_models())


# --- buffs and debuffs (the hard bot's evaluation) -----------------------------------------------


def buff_outlook(state: "State", player: int) -> float:
    """What the buffs and debuffs on the battlefield are worth to `player` (net): a save or ward
    buff on a unit saves part of the damage its enemies threaten; a hit or move debuff blunts an
    enemy unit. Buffs last until their caster's next hero phase, so they count in full."""
    total = 0.0
    for uid, u in state.units.items():
        if not u.alive or not u.buffs:
            continue
        sign = 1.0 if u.player == player else -1.0
        kinds = {}
        for b in u.buffs:
            kinds[b.kind] = kinds.get(b.kind, 0) + b.value
        v = 0.0
        if "save_buff" in kinds or "ward_buff" in kinds:
            incoming = threat_to(state, uid, 3 - u.player)
            wv = wound_value(state, uid)
            if kinds.get("save_buff", 0) > 0:
                v += incoming * 0.2 * wv
            if "ward_buff" in kinds:
                base = ws_of(state, uid).ward
                before, after = odds.ward_pass(base), odds.ward_pass(ward_of(state, uid))
                if after < before:
                    # threat_to already counts the buffed ward; add back what it saves
                    v += incoming / max(0.05, after) * (before - after) * wv
        ws = ws_of(state, uid)
        alive = len(u.live_models()) / max(1, ws.models)
        if kinds.get("hit_debuff", 0) > 0:
            v -= 0.22 * _base_offence(ws) * alive * 1.3
        if kinds.get("move_debuff", 0) > 0:
            v -= 0.4 + 0.02 * _base_offence(ws)
        total += sign * v
    return total


def evaluate_full(state: "State", player: int) -> float:
    """`evaluate` plus the buffs and debuffs in play (for search, where they decide spells)."""
    base = evaluate(state, player)
    if state.is_over():
        return base
    return base + buff_outlook(state, player)


def seg_dist(a: tuple[float, float], b: tuple[float, float], p: tuple[float, float]) -> float:
    """The distance from point `p` to the segment from `a` to `b` (a charge lane, a path)."""
    ax, ay = a
    bx, by = b
    px, py = p
    dx, dy = bx - ax, by - ay
    n = dx * dx + dy * dy
    t = 0.0 if n == 0 else max(0.0, min(1.0, ((px - ax) * dx + (py - ay) * dy) / n))
    return math.hypot(ax + t * dx - px, ay + t * dy - py)
