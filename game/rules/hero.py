"""The hero phase's automatic steps and its enumerable options (M1-M12).

- At the start of each hero phase, modifiers that last "until your next hero phase" expire.
- The active player's options: every legal cast, chant and banish, per picked model (E5).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from game.rules.actions import Action, Banish, CastSpell, ChantPrayer
from game.rules.allowances import BANISH, power_left, uses
from game.rules.events import BuffExpired
from game.rules.flow import PHASE_OPTIONS, on_begin, step
from game.rules.targeting import known, target_candidates

if TYPE_CHECKING:
    from game.rules.state import State


@step("magic.expire_buffs")
def _expire(state: "State") -> None:
    for uid, u in state.units.items():
        keep = []
        for b in u.buffs:
            if b.until_hero_of == state.active and b.set_turn < state.turn:
                state.emit(BuffExpired(unit=uid, kind=b.kind, source=b.source))
            else:
                keep.append(b)
        u.buffs = keep


on_begin("hero", "magic.expire_buffs")


def hero_options(state: "State") -> list[Action]:
    """Every legal magic action for the active player, each checked exactly by `state.legal`."""
    p = state.active
    out: list[Action] = []
    for uid, u in state.units.items():
        if u.player != p or not u.alive or power_left(state, uid) <= 0:
            continue
        ws = state.game.warscroll(u.warscroll)
        models = [i for i, _ in u.live_models()]
        candidates: list[Action] = []
        for kind, make in (("spell", CastSpell), ("prayer", ChantPrayer)):
            if kind == "spell" and uses(state, uid)["no_cast"]:
                continue
            for ab_id in known(state, uid, kind):
                if ab_id in uses(state, uid)["used"]:
                    continue
                ability = state.game.content.abilities[ab_id]
                for target in target_candidates(state, p, ability):
                    for i in models:
                        if kind == "spell":
                            candidates.append(CastSpell(player=p, unit=uid, spell=ab_id, model=i, target=target))
                        else:
                            candidates.append(ChantPrayer(player=p, unit=uid, prayer=ab_id, model=i, target=target))
        if (ws.wizard_level or ws.priest_level) and BANISH not in uses(state, uid)["used"]:
            for mid in state.manifestations:
                for i in models:
                    candidates.append(Banish(player=p, unit=uid, manifestation=mid, model=i))
        out.extend(a for a in candidates if state.legal(a))
    return out


PHASE_OPTIONS["hero"].append(hero_options)
