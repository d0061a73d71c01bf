"""The hard bot's plan styles: the normal bot with another movement, hero-phase or charge style.

A style is a variant of one of normal's scorers; everything else is normal's judgement. The
plan search (game.ai.phase_search) plays them on clones and keeps the best for the phase.
Styles are heuristics for the search to try, not rules: the engine still decides what is legal.
"""

from __future__ import annotations

import math

from game.ai import knowledge as K
from game.ai.normal import NormalBot, Scored
from game.ai.reason import Reason
from game.i18n import N_
from game.rules import Banish, CastSpell, ChantPrayer, Charge, Decision, EndPhase, State, query
from game.rules.query import in_combat, movers

MOVE_STYLES = ("normal", "aggressive", "objectives", "hold")  # the movement plans (normal's first)
# M1-M12: the hero phase: normal's order; the most valuable first; the smallest first, to draw
# the enemy's unbinds (bait); no cast held back
HERO_STYLES = ("normal", "valuable", "bait", "all_in")
# R1-R4: normal's charges; every charge with a fair chance; only near-sure ones; heroes stay
# back; no charge at all
CHARGE_STYLES = ("normal", "bold", "sure", "no_heroes", "none")
# the styles in words, for the explanation's note
WORDS = {
    "normal": N_("normal"),
    "aggressive": N_("aggressive"),
    "objectives": N_("objectives"),
    "hold": N_("hold"),
    "valuable": N_("most valuable first"),
    "bait": N_("bait first"),
    "all_in": N_("cast everything"),
    "bold": N_("bold"),
    "sure": N_("sure charges only"),
    "no_heroes": N_("heroes stay back"),
    "none": N_("no charges"),
}
SURE = 0.7  # a "sure" charge: at least this chance to reach
FAIR = 0.15  # a "bold" charge: at least this chance
ALL_IN_FLOOR = -0.5  # "all_in" casts what normal holds back down to this score


class PlanBot(NormalBot):
    """The normal bot with a style per searched phase: `style` for movement, `hero` for the
    hero phase, `charge` for the charge phase."""

    def __init__(
        self,
        player: int,
        seed: int = 0,
        style: str = "normal",
        fast: bool = False,
        hero: str = "normal",
        charge: str = "normal",
    ) -> None:
        super().__init__(player, seed, fast=fast)
        self.style = style
        self.hero = hero
        self.charge = charge

    # --- movement -------------------------------------------------------------------------

    def objective_plan(self, state: State) -> dict[str, int]:
        plan = super().objective_plan(state)
        if self.style == "normal":
            return plan
        objs = state.game.battlefield.map.objectives
        me = self.player
        enemies = K.live_units(state, 3 - me)
        if self.style == "aggressive":
            # fighters leave the objectives to the others and close on the enemy
            out = {}
            for uid, i in plan.items():
                ws = K.ws_of(state, uid)
                if enemies and not K.is_general(state, uid) and not (ws.wizard_level or ws.priest_level):
                    nearest = min(enemies, key=lambda e: K.gap(state, uid, e))
                    if K.attack_output(state, uid, nearest, "combat") >= 1.2 and not K.within_objective(state, uid, i):
                        continue
                out[uid] = i
            return out
        if self.style == "objectives":
            # every unit to its nearest objective
            out = dict(plan)
            for uid in K.live_units(state, me):
                if uid in out or not objs:
                    continue
                cx, cy = K.centre(state, uid)
                out[uid] = min(range(len(objs)), key=lambda i: math.hypot(objs[i].x - cx, objs[i].y - cy))
            return out
        return plan

    def plan_move(self, state: State, uid: str, plan: dict[str, int]):
        if self.style == "hold":
            objs = state.game.battlefield.map.objectives
            if not in_combat(state, uid) and any(K.within_objective(state, uid, i) for i in range(len(objs))):
                return None  # holders stay put
        return super().plan_move(state, uid, plan)

    # --- the hero phase (M1-M12) ---------------------------------------------------------

    def _p_hero(self, state: State, d: Decision) -> list[Scored]:
        out = super()._p_hero(state, d)
        if self.hero == "normal":
            return out
        casts = [s for s in out if not isinstance(s[1], EndPhase)]
        end = [s for s in out if isinstance(s[1], EndPhase)]
        if self.hero == "valuable":
            # the biggest effect first, whatever its chance (normal weighs value by chance)
            casts = [(10.0 + self._value(state, s[1]), s[1], s[2]) for s in casts]
        elif self.hero == "bait":
            # the smallest worthwhile cast first, when an enemy unbinder covers it: it draws
            # the unbind that would otherwise stop the big one (M6)
            casts = [(10.0 - s[0] if self._covered(state, s[1]) else 20.0 + s[0], s[1], s[2]) for s in casts]
        elif self.hero == "all_in" and not casts:
            # what normal holds back (a miscast risk, a small effect): cast it anyway
            best: Scored | None = None
            for a in d.options:
                if isinstance(a, (CastSpell, ChantPrayer, Banish)):
                    score, txt = self.cast_score(state, a)
                    if score > ALL_IN_FLOOR and (best is None or score > best[0]):
                        best = (score, a, txt)
            if best is not None:
                casts = [(1.0, best[1], best[2])]
        return casts + end

    def _value(self, state: State, a) -> float:
        if isinstance(a, CastSpell):
            return K.ability_value(state, self.player, a.unit, a.spell, a.target)
        if isinstance(a, ChantPrayer):
            return K.ability_value(state, self.player, a.unit, a.prayer, a.target)
        return 0.0

    def _covered(self, state: State, a) -> bool:
        return isinstance(a, CastSpell) and K.unbinder_near(state, a.unit, a.model, 3 - self.player)

    # --- charges (R1-R4) -------------------------------------------------------------------

    def _p_charge(self, state: State, d: Decision) -> list[Scored]:
        if self.charge == "normal":
            return super()._p_charge(state, d)
        if self.charge == "none":
            return self._end_phase(state, d, Reason(N_("sees no charge worth making")))
        out = self._bold(state) if self.charge == "bold" else super()._p_charge(state, d)
        keep = []
        for s in out:
            if not isinstance(s[1], Charge):
                continue
            uid = s[1].unit
            if self.charge == "sure" and self._reach_chance(state, uid) < SURE:
                continue
            if self.charge == "no_heroes" and self._is_hero(state, uid):
                continue
            keep.append(s)
        if not keep:
            return self._end_phase(state, d, Reason(N_("sees no charge worth making")))
        return keep

    def _bold(self, state: State) -> list[Scored]:
        """Every charge with a fair chance and some worth (normal asks more of both)."""
        me = self.player
        out: list[Scored] = []
        for uid in movers(state, me):
            if not self.may_charge(state, uid):
                continue
            best = self.best_charge(state, uid)  # (chance x value, chance, value, target)
            if best is None or best[1] < FAIR or best[0] <= 0.1:
                continue
            if K.is_general(state, uid) and self._general_would_fall(state, uid, best[3]):
                continue  # bold, but never the general into a fight it falls in (issue 25)
            a = Charge(player=me, unit=uid)
            if state.legal(a):
                why = Reason(
                    N_("{unit} charges toward {target}: {p:.0%} to make it, worth {value:.1f}"),
                    unit=self._name(state, uid),
                    target=self._name(state, best[3]),
                    p=best[1],
                    value=best[2],
                )
                out.append((best[0], a, why))
        return out

    def _reach_chance(self, state: State, uid: str) -> float:
        gaps = [K.gap(state, uid, e) for e in K.live_units(state, 3 - self.player)]
        return query.odds.charge_chance(min(gaps) - 0.45) if gaps else 0.0

    def _is_hero(self, state: State, uid: str) -> bool:
        if uid not in state.units:
            return False
        ws = K.ws_of(state, uid)
        return K.is_general(state, uid) or ws.has("HERO") or bool(ws.wizard_level or ws.priest_level)
