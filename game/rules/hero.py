"""The hero phase's automatic steps and its enumerable options (M1-M12).

- At the start of each hero phase, modifiers that last "until your next hero phase" expire.
- The active player's options: every legal cast, chant and banish, per picked model (E5).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from game.rules.actions import Action, Banish, CastSpell, ChantPrayer
from game.rules.allowances import power_left
from game.rules.casting import check_may_cast
from game.rules.errors import IllegalActionError
from game.rules.events import BuffExpired
from game.rules.flow import step
from game.rules.prayers import check_may_chant
from game.rules.space import model_circle, positions
from game.rules.targeting import EPS, check_target, known, target_candidates

if TYPE_CHECKING:
    from game.rules.state import State


@step("magic.expire_buffs", rule="M3")
def expire_buffs(state: "State") -> None:
    """Modifiers that last "until your next hero phase" expire at its start."""
    for uid, u in state.units.items():
        keep = []
        for b in u.buffs:
            if b.until_hero_of == state.active and b.set_turn < state.turn:
                state.emit(BuffExpired(unit=uid, kind=b.kind, source=b.source))
            else:
                keep.append(b)
        u.buffs = keep


def hero_options(state: "State") -> list[Action]:
    """Every legal cast, chant and banish for the active player, one per picked model (E5).

    The same checks as `state.legal`, arranged so that work independent of the target is done
    once, and targets out of range are dropped by one vectorised distance pass.
    """
    p = state.active
    out: list[Action] = []
    pos = positions(state)
    for uid, u in state.units.items():
        if u.player != p or not u.alive or power_left(state, uid) <= 0:
            continue
        ws = state.game.warscroll(u.warscroll)
        models = [i for i, _ in u.live_models()]
        for kind, may in (("spell", check_may_cast), ("prayer", check_may_chant)):
            for ab_id in known(state, uid, kind):
                try:
                    may(state, p, uid, models[0], ab_id)
                except IllegalActionError:
                    continue
                ability = state.game.content.abilities[ab_id]
                for i in models:
                    near = _in_reach(state, pos, model_circle(state, uid, i), ability.range)
                    for target in target_candidates(state, p, ability):
                        if target is not None and target in state.units and target not in near:
                            continue
                        try:
                            check_target(state, p, uid, i, ability, target)
                        except IllegalActionError:
                            continue
                        if kind == "spell":
                            out.append(CastSpell(player=p, unit=uid, spell=ab_id, model=i, target=target))
                        else:
                            out.append(ChantPrayer(player=p, unit=uid, prayer=ab_id, model=i, target=target))
        if (ws.wizard_level or ws.priest_level) and state.game.profile.banishes:
            for mid in state.manifestations:
                for i in models:
                    act = Banish(player=p, unit=uid, manifestation=mid, model=i)
                    if state.legal(act):
                        out.append(act)
    return out


def _in_reach(state: "State", pos, eye, reach: float) -> set[str]:
    """Units with a model within `reach` of the base `eye` (a cheap prefilter, exact maths)."""
    if not len(pos.x):
        return set()
    gaps = np.hypot(pos.x - eye.x, pos.y - eye.y) - pos.r - eye.r
    return {pos.units[k] for k in set(pos.owner[gaps <= reach + EPS].tolist())}


def hero_candidates(state: "State") -> list[Action]:
    """Cheap, unchecked candidates: every known ability at every target from every model of
    a caster with an allowance left, and every banish."""
    p = state.active
    out: list[Action] = []
    for uid, u in state.units.items():
        if u.player != p or not u.alive or power_left(state, uid) <= 0:
            continue
        models = [i for i, _ in u.live_models()]
        for kind in ("spell", "prayer"):
            for ab_id in known(state, uid, kind):
                ability = state.game.content.abilities[ab_id]
                for target in target_candidates(state, p, ability):
                    for i in models:
                        if kind == "spell":
                            out.append(CastSpell(player=p, unit=uid, spell=ab_id, model=i, target=target))
                        else:
                            out.append(ChantPrayer(player=p, unit=uid, prayer=ab_id, model=i, target=target))
        for mid in state.manifestations:
            out.extend(Banish(player=p, unit=uid, manifestation=mid, model=i) for i in models)
    return out
