"""The `hard` bot: the normal bot's judgement, with its movement searched as whole-turn plans.

Movement, where games are decided, is searched as whole-phase plans: at the first movement
decision of its turn the bot plays the rest of the turn (movement with a plan style, then
shooting, charges, combat and the end of the turn with normal policies for both sides) and the
opponent's reply turn, on clones with its own dice, for each of a few plan styles (the normal
plan; more aggressive; everyone to the objectives; holders stay put). It scores the position
after the opponent's turn with `knowledge.evaluate_full` and keeps the best style for the rest of
the phase, so its other movement decisions cost no more than normal's. A style other than the
normal plan must beat it by MOVE_MARGIN, since rollouts are noisy.

Rollouts run in rounds that share their dice across the styles (common random numbers), and the
dice are `RolloutDice`, one stream per purpose, so two styles meet the same charge and casting
rolls however many other dice they rolled first. The bot's own dice are seeded from its own RNG;
the game's are never touched.

Its other decisions (the magic phase, unbinding, predatory manifestations, charges, fights,
deployment and shooting) are the normal bot's; the plan rollouts play them with normal policies
for both sides. Measured against `normal` (`simulate --seed 11`, draws count half): short-horizon
rollouts at those decisions, run alone, scored 51.2% (202 games); the plan search alone at 3
rollouts per style 57.9% (400 games), the same as both together (58.0%) at half the cost. So the
budget went to the plan search: 6 rollouts per style on per-purpose dice score 62.4% (400 games,
Wilson CI95 57.5-67.0%).

The amount of search is fixed by rounds, not by time, so a seed gives the same choices on any
machine; the time budget only caps a search that runs long (counted in `capped`).
"""

from __future__ import annotations

import math
import random
import time

from game.ai import knowledge as K
from game.ai.normal import NormalBot
from game.ai.reason import Reason
from game.ai.rollout_dice import RolloutDice
from game.i18n import N_
from game.rules import Action, Decision, State

STYLES = ("normal", "aggressive", "objectives", "hold")  # movement plan styles (normal's first)
# the plan styles in words, for the explanation's note
_STYLES = {"normal": N_("normal"), "aggressive": N_("aggressive"), "objectives": N_("objectives"), "hold": N_("hold")}
PLAN_ROUNDS = 6  # rollouts per style of the movement plan search
MOVE_BUDGET = 6.0  # the plan search (once a turn) may use this many times the decision budget
MOVE_MAX_STEPS = 300  # decisions per rollout (our turn and the opponent's reply)
MOVE_MARGIN = 1.5  # evaluation points another style must gain over the normal plan
MOVE_MIN_EVIDENCE = 1  # rounds it needs before another style can be chosen


class HardBot:
    name = "hard"

    def __init__(self, player: int, seed: int = 0, budget: float = 1.0, plan_rollouts: int = PLAN_ROUNDS) -> None:
        """`plan_rollouts`: rollouts per style in the movement plan search. It fixes how much the
        bot searches, so that its choices depend on its seed alone, not on the machine's speed.
        `budget` (seconds per decision; MOVE_BUDGET times that for the plan search, once a turn)
        only caps a search that runs long: a search that hits it ends after its last full round
        and is counted in `capped`. A budget of 0 turns the search off."""
        self.player = player
        self.plan_rollouts = plan_rollouts
        self.seed = seed
        self.rng = random.Random(seed * 1_000_033 + player * 17 + 1)
        self.budget = budget
        self.normal = NormalBot(player, seed)
        self.last_explanation = ""
        self.searched = 0
        self.capped = 0  # searches the time budget cut short (their choices depend on the machine)
        self.move_key: tuple[int, int] | None = None
        self.move_bot: NormalBot | None = None
        self.move_note = ""

    def choose(self, state: State) -> Action:
        d = state.pending()
        if d.player != self.player:
            raise ValueError(f"it is player {d.player}'s decision, not {self.player}'s")
        if is_movement(d) and self.budget > 0:
            return self._movement(state, d)
        _, action, self.last_explanation = self.normal.ranked(state, d)[0]
        return action

    # --- movement: whole-phase plans ---------------------------------------------------------

    def _movement(self, state: State, d: Decision) -> Action:
        key = (state.round, state.turn)
        if self.move_key != key or self.move_bot is None:
            self.move_key = key
            self.move_bot, self.move_note = self._plan_search(state)
        ranked = self.move_bot.ranked(state, d)
        self.last_explanation = Reason.join(ranked[0][2], self.move_note)
        return ranked[0][1]

    def _plan_search(self, state: State) -> tuple[NormalBot, str]:
        styles = list(STYLES)
        self.searched += 1
        start = time.perf_counter()
        deadline = start + self.budget * MOVE_BUDGET
        totals = [0.0] * len(styles)
        rounds = 0
        while rounds < self.plan_rollouts:
            if rounds >= 1 and time.perf_counter() >= deadline:
                self.capped += 1
                break  # the cap: only full rounds are compared (common random numbers)
            seed = self.rng.getrandbits(62)
            for i, style in enumerate(styles):
                totals[i] += self._plan_rollout(state, style, seed, deadline + self.budget * MOVE_BUDGET)
            rounds += 1
        means = [t / rounds for t in totals]
        best = max(range(len(styles)), key=lambda i: (round(means[i], 6), -i))
        if best != 0 and (rounds < MOVE_MIN_EVIDENCE or means[best] - means[0] < MOVE_MARGIN):
            best = 0
        bot = PlanBot(self.player, self.seed, styles[best])
        kw = dict(style=Reason(_STYLES.get(styles[best], styles[best])), n=len(styles), rounds=rounds)
        if best:
            note = Reason(
                N_(" [plan '{style}' of {n} x {rounds} turn rollouts; +{gain:.1f}]"), gain=means[best] - means[0], **kw
            )
        else:
            note = Reason(N_(" [plan '{style}' of {n} x {rounds} turn rollouts]"), **kw)
        return bot, note

    def _plan_rollout(self, state: State, style: str, seed: int, hard_stop: float) -> float:
        sim = state.clone()
        sim.dice = RolloutDice(seed)  # our own dice: the game's are never touched
        me = self.player
        bots = {p: NormalBot(p, seed + p, fast=True) for p in (1, 2)}
        mover = PlanBot(me, seed + me, style, fast=True)
        turn = sim.turn
        steps = 0
        while not sim.is_over() and sim.turn <= turn + 1 and steps < MOVE_MAX_STEPS and time.perf_counter() < hard_stop:
            d = sim.pending()
            bot = mover if (d.player == me and is_movement(d)) else bots[d.player]
            try:
                sim.apply(bot.choose(sim))
            except Exception:
                break
            steps += 1
        with sim.query():
            return K.evaluate_full(sim, me)


def is_movement(d: Decision) -> bool:
    """A decision of the movement phase: where the plan search steers."""
    return d.kind == "phase" and d.data.get("phase") == "movement"


class PlanBot(NormalBot):
    """The normal bot with a movement style: which units head for objectives and which fight."""

    def __init__(self, player: int, seed: int = 0, style: str = "normal", fast: bool = False) -> None:
        super().__init__(player, seed, fast=fast)
        self.style = style

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
            from game.rules.query import in_combat

            objs = state.game.battlefield.map.objectives
            if not in_combat(state, uid) and any(K.within_objective(state, uid, i) for i in range(len(objs))):
                return None  # holders stay put
        return super().plan_move(state, uid, plan)
