"""Ordering and timing the hero phase's magic (issue 25): the bots' one place for it.

- Cast order (M3, M6): with several casts possible this phase, every order of the few best is
  valued explicitly against the opponent's unbinds left this phase (the engine's
  `unbinds_left`), the opponent modelled as unbinding the way the bot itself would
  (`keeps_unbind`). The most valuable spell goes first unless a lesser one would draw the unbind
  and the whole sequence is worth more that way (a bait). A miscast ends the caster's casting
  (M3), so a caster's bigger spell comes before its lesser one.
- Unbinding (M6): an unbind is kept when at least as many bigger spells as unbinds left can
  still come this phase (`keeps_unbind`).
- Ritual points (M5): a chant is valued over the chanting roll, banking or spending, and
  points banked are valued by the best prayer they make likelier next time (`points_value`).
- Predatory moves and control (E7-E9): the few best candidates are tried on clones with the
  bot's own rollout dice, the opponent's likely reply played, and valued by both (`lookahead`).

Every chance comes from the engine (`query.odds`); nothing here rolls the game's dice.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from game.ai import knowledge as K
from game.ai.rollout_dice import RolloutDice
from game.rules import query

if TYPE_CHECKING:
    from game.rules import Action, State

MAX_ORDERED = 4  # casts whose orders are enumerated (4! = 24 orders)
NEXT_TURN = 0.8  # what a prayer's value next turn is worth now (the position changes, the priest may fall)
LOOKAHEAD = 4  # candidate predatory choices tried two moves ahead
LOOKAHEAD_STEPS = 4  # decisions played on a clone after ours, to reach the opponent's reply


# --- unbinding (M6) ----------------------------------------------------------------------------


def unbind_share(value: int) -> float:
    """The chance that a cast of this casting value, once it met the value, is unbound by a
    WIZARD that tries (the engine's odds: lands with an unbinder / cast)."""
    c = query.odds.cast_chance(value)
    return 0.0 if c <= 0 else 1.0 - query.odds.lands_chance(value, True) / c


def keeps_unbind(gain_now: float, future: Sequence[float], left: int) -> bool:
    """Keep the unbind when at least `left` of the spells still to come promise more (each
    future gain already counts its chance to be cast and unbound)."""
    return left > 0 and sum(1 for g in future if g > gain_now) >= left


# --- cast order (M3, M6) ------------------------------------------------------------------------


@dataclass(frozen=True)
class Cast:
    """One cast the bot means to make this phase: its caster, what landing it is worth, its
    chances (the engine's), and whether an enemy unbinder reaches it."""

    key: object  # the bot's handle on the action
    caster: str
    value: float
    p_cast: float  # the roll meets the casting value
    p_miscast: float
    unbound: float  # the chance an attempted unbind succeeds, given the cast met its value
    exposed: bool


def make_cast(state: "State", key: object, caster: str, spell: str, value: float, exposed: bool) -> Cast:
    sp = state.game.content.abilities[spell]
    return Cast(
        key,
        caster,
        value,
        query.odds.cast_chance(sp.value),
        float(query.odds.miscast_fraction()),
        unbind_share(sp.value),
        exposed,
    )


def sequence_value(casts: Sequence[Cast], unbinds: int) -> float:
    """The expected value of casting `casts` in this order against `unbinds` enemy unbinds.
    The opponent unbinds a cast unless it keeps the unbind for bigger ones still to come
    (`keeps_unbind`); a miscast ends its caster's casting this phase (M3)."""
    memo: dict[tuple[int, int, frozenset[str]], float] = {}

    def go(i: int, left: int, blocked: frozenset[str]) -> float:
        if i >= len(casts):
            return 0.0
        k = (i, left, blocked)
        if k in memo:
            return memo[k]
        c = casts[i]
        if c.caster in blocked:
            memo[k] = v = go(i + 1, left, blocked)
            return v
        fail = max(0.0, 1.0 - c.p_cast - c.p_miscast)
        v = fail * go(i + 1, left, blocked) + c.p_miscast * go(i + 1, left, blocked | {c.caster})
        tries = c.exposed and left > 0
        if tries:
            future = [d.p_cast * d.unbound * d.value for d in casts[i + 1 :] if d.exposed and d.caster not in blocked]
            tries = not keeps_unbind(c.unbound * c.value, future, left)
        if tries:
            v += c.p_cast * ((1.0 - c.unbound) * c.value + go(i + 1, left - 1, blocked))
        else:
            v += c.p_cast * (c.value + go(i + 1, left, blocked))
        memo[k] = v
        return v

    return go(0, unbinds, frozenset())


def best_order(casts: Sequence[Cast], unbinds: int) -> tuple[list[Cast], float, float]:
    """The order worth most, its value, and the value of the plain order (most valuable first).
    Ties keep the plain order, so a bait is chosen only when it is worth more."""
    plain = sorted(casts, key=lambda c: -c.value)[:MAX_ORDERED]
    base = sequence_value(plain, unbinds)
    best, best_v = plain, base
    for perm in itertools.permutations(plain):
        v = sequence_value(perm, unbinds)
        if v > best_v + 1e-6:
            best, best_v = list(perm), v
    return best, best_v, base


def enemy_unbinds(state: "State", by: int, casters: Sequence[tuple[str, int]]) -> int:
    """Unbinds `by`'s WIZARDs have left this phase (the engine's count) among those within
    unbinding range of any of the casting models."""
    from game.rules.query import model_circle, radius_of, unbinds_left

    reach = state.game.profile.unbind_range
    circles = [model_circle(state, u, m) for u, m in casters]
    total = 0
    for uid in K.live_units(state, by):
        if not K.ws_of(state, uid).wizard_level:
            continue
        left = unbinds_left(state, uid)
        if left <= 0:
            continue
        r = radius_of(state, uid)
        if any(
            math.hypot(m.x - c.x, m.y - c.y) - r - c.r <= reach + 1e-9
            for _, m in state.units[uid].live_models()
            for c in circles
        ):
            total += left
    return total


# --- ritual points (M5) --------------------------------------------------------------------------


def points_value(state: "State", player: int, priest: str, points: int, values: dict[str, float]) -> float:
    """What `points` ritual points are worth for the priest's next hero phase: the best of its
    prayers (`values`: prayer -> value if answered) times the chance those points give it, less
    for the wait. Nothing after the last battle round."""
    if state.round >= state.game.rounds:
        return 0.0
    best = 0.0
    for pid, v in values.items():
        pr = state.game.content.abilities[pid]
        best = max(best, query.odds.prayer_chance(pr.value, points) * v)
    return NEXT_TURN * best


def spend_or_bank(value_now: float, points: int, roll: int, later: dict[int, float]) -> tuple[float, float]:
    """M5: the worth of spending a roll that reaches the value (the prayer now, its points gone)
    and of banking it (the points for next time); `later` maps points to `points_value`."""
    return value_now + later[0], later[points + roll]


def chant_value(state: "State", prayer: str, points: int, value_now: float, later) -> tuple[float, float]:
    """M5: the expected gain of chanting now over keeping the points untouched, and the chance
    the prayer is answered now. Each roll of the engine's D6: a 1 loses D3 points; a roll that
    reaches the value is spent or banked, whichever is worth more; any other is banked."""
    pr = state.game.content.abilities[prayer]
    loss = round(query.odds.expr_mean("D3"))
    total, answered = 0.0, 0.0
    for roll, p in query.odds.expr_distribution("D6"):
        if roll == 1:
            total += p * later(max(0, points - loss))
        elif roll + points >= pr.value:
            spend, bank = value_now + later(0), later(points + roll)
            total += p * max(spend, bank)
            answered += p if spend >= bank else 0.0
        else:
            total += p * later(points + roll)
    return total - later(points), answered


# --- predatory lookahead (E7-E9) -----------------------------------------------------------------


def lookahead(
    bot, state: "State", cands: list[tuple[float, "Action", str]], policy, own_score: bool = True
) -> list[tuple[float, "Action", str]]:
    """Rescore the best few of `cands` two moves ahead: each is applied on a clone (the bot's
    rollout dice, never the game's), the predatory decisions after it are played by the fast
    normal policy up to the opponent's first reply, and the reply's worth to the opponent is
    taken off (our own follow-up moves are added). `own_score`: start from the candidate's own
    one-move score (a move), or from 0 (a choice whose worth is all in the moves after it).
    `policy(player, seed)`: the bot that plays the decisions after ours (the fast normal bot).
    Others keep their one-move score, below the ones looked at."""
    cands = sorted(cands, key=lambda s: -s[0])
    # the best of each manifestation first (which one to move is the choice that matters most),
    # then the next best points
    firsts: dict[object, int] = {}
    for i, (_s, a, _t) in enumerate(cands):
        firsts.setdefault(getattr(a, "manifestation", i), i)
    order = sorted(firsts.values()) + [i for i in range(len(cands)) if i not in set(firsts.values())]
    picked = set(order[:LOOKAHEAD])
    head = [cands[i] for i in range(len(cands)) if i in picked]
    tail = [cands[i] for i in range(len(cands)) if i not in picked]
    if len(head) <= 1:
        return cands
    me = bot.player
    seed = state.round * 1009 + state.turn * 101 + me
    out = []
    for score, action, text in head:
        sim = state.clone()
        sim.dice = RolloutDice(seed)  # the bot's own dice: the game's are never touched
        try:
            sim.apply(action)
        except Exception:
            continue
        total = score if own_score else 0.0
        for _ in range(LOOKAHEAD_STEPS):
            if sim.is_over():
                break
            d = sim.pending()
            if d.kind not in ("predatory_move", "predatory_control"):
                break
            s, a, _t = policy(d.player, seed).ranked(sim, d)[0]
            total += s if d.player == me else -s
            try:
                sim.apply(a)
            except Exception:
                break
            if d.player != me:
                break  # the opponent's reply: two moves ahead
        out.append((total, action, text))
    low = min((s for s, _, _ in out), default=0.0)
    # the rest stay below the ones looked at (they ranked lower on one move)
    return out + [(min(low, s) - 1e-3, a, t) for s, a, t in tail]
