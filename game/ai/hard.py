"""The `hard` bot: the normal bot's judgement, checked by search.

At the decisions that shape a turn (casting, chanting and banishing; unbinding; predatory
control and moves; charges, charge moves and fights), it takes the normal bot's best few
candidates and runs determinized Monte Carlo rollouts for each: on `state.clone()` with its own
dice (`RolloutDice` seeded from its own RNG, never the game's: one stream per purpose, so
candidates meet the same charge and casting rolls), it applies the candidate, plays on with
normal-policy bots for both sides to the end of the phase (through the combat phase for
charges), and scores the position with `knowledge.evaluate_full` (the static evaluation plus the
buffs and debuffs in play). Rollouts run in rounds that share their dice seeds across the
candidates (common random numbers), so the comparison is fair. After MIN_ROUNDS rounds a
candidate that cannot plausibly beat the first instinct by MARGIN is dropped; the search ends
when none is left or after MAX_ROUNDS. The search overrules the normal bot's first choice only
on a clear margin, since a few rollouts are noisy.

Movement, where games are decided, is searched as whole-phase plans: at the first movement
decision of its turn the bot plays the rest of the turn (movement with a plan style, then
shooting, charges, combat and the end of the turn with normal policies for both sides) and the
opponent's reply turn on clones with its own dice for each of a few plan styles (the normal
plan; more aggressive; everyone to the objectives; holders stay put), scores the position after
the opponent's turn, and keeps the best style for the rest of the phase, so the other movement
decisions cost no more than normal's. Other decisions (deployment, shooting) use the normal
policy directly.

The amount of search is fixed by rounds, not by time, so a seed gives the same choices on any
machine; the time budget only caps a search that runs long.
"""

from __future__ import annotations

import math
import random
import time

from game.ai import knowledge as K
from game.ai.normal import NormalBot, Scored
from game.rules.actions import Action
from game.ai.rollout_dice import RolloutDice
from game.rules.state import State

SEARCH_KINDS = {"unbind", "predatory_control", "predatory_move", "fight", "charge_move"}
SEARCH_PHASES = {"hero", "charge"}
TOP_K = 3
MAX_STEPS = 40  # decisions per rollout
MARGIN = 0.75  # evaluation points a searched option must gain over the normal bot's first choice
MIN_EVIDENCE = 3  # rollouts it needs before it can overrule it
MIN_ROUNDS = 2  # rounds of rollouts before a candidate can be dropped
MAX_ROUNDS = 4  # rounds of rollouts per searched decision
Z = 1.0  # standard errors of optimism before a candidate is dropped
STYLES = ("normal", "aggressive", "objectives", "hold")  # movement plan styles (normal's first)
PLAN_ROUNDS = 3  # rollouts per style of the movement plan search
MOVE_BUDGET = 6.0  # the plan search (once a turn) may use this many times the decision budget
MOVE_MAX_STEPS = 300  # decisions per rollout (our turn and the opponent's reply)
MOVE_MARGIN = 1.5
MOVE_MIN_EVIDENCE = 1


class HardBot:
    name = "hard"

    def __init__(
        self, player: int, seed: int = 0, budget: float = 1.0, top_k: int = TOP_K, rollouts: int = MAX_ROUNDS,
        plan_rollouts: int = PLAN_ROUNDS,
    ) -> None:
        """`rollouts`: the most rounds of rollouts per searched decision; `plan_rollouts`: rollouts
        per style in the movement plan search. These fix how much the bot searches, so that its
        choices depend on its seed alone, not on the machine's speed. `budget` (seconds per
        decision; MOVE_BUDGET times that for the plan search) only caps a search that runs long:
        a search that hits it ends after its last full round and is counted in `capped`."""
        self.player = player
        self.rollouts = rollouts
        self.plan_rollouts = plan_rollouts
        self.seed = seed
        self.rng = random.Random(seed * 1_000_033 + player * 17 + 1)
        self.budget = budget
        self.top_k = top_k
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
        ranked = self.normal.ranked(state, d)
        if d.kind == "phase" and d.data.get("phase") == "movement" and self.budget > 0:
            return self._movement(state, d)
        searchable = d.kind in SEARCH_KINDS or (d.kind == "phase" and d.data.get("phase") in SEARCH_PHASES)
        cands = _distinct(ranked)[: self.top_k]
        if not searchable or len(cands) < 2 or self.budget <= 0:
            self.last_explanation = ranked[0][2]
            return ranked[0][1]
        return self._search(state, cands, d.kind, d.data.get("phase"))

    # --- movement: whole-phase plans ---------------------------------------------------------

    def _movement(self, state: State, d) -> Action:
        key = (state.round, state.turn)
        if self.move_key != key or self.move_bot is None:
            self.move_key = key
            self.move_bot, self.move_note = self._plan_search(state)
        ranked = self.move_bot.ranked(state, d)
        self.last_explanation = ranked[0][2] + self.move_note
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
        note = f" [plan '{styles[best]}' of {len(styles)} x {rounds} turn rollouts"
        note += f"; +{means[best] - means[0]:.1f}]" if best else "]"
        return bot, note

    def _plan_rollout(self, state: State, style: str, seed: int, hard_stop: float) -> float:
        sim = state.clone()
        sim.dice = RolloutDice(seed)
        me = self.player
        bots = {p: NormalBot(p, seed + p, fast=True) for p in (1, 2)}
        mover = PlanBot(me, seed + me, style, fast=True)
        turn = sim.turn
        steps = 0
        while not sim.is_over() and sim.turn <= turn + 1 and steps < MOVE_MAX_STEPS and time.perf_counter() < hard_stop:
            d = sim.pending()
            bot = mover if (d.player == me and d.kind == "phase" and d.data.get("phase") == "movement") else bots[d.player]
            try:
                sim.apply(bot.choose(sim))
            except Exception:
                break
            steps += 1
        with sim.query():
            return K.evaluate_full(sim, me)

    # --- the search ---------------------------------------------------------------------------

    def _search(self, state: State, cands: list[Scored], kind: str, phase: str | None) -> Action:
        """Rollouts in rounds, every live candidate on the same dice each round (common random
        numbers). After MIN_ROUNDS, a candidate whose paired gain over the first instinct cannot
        plausibly reach MARGIN (mean + Z standard errors below it) is dropped; the search stops
        when only the first instinct is left, after MAX_ROUNDS, or when the budget is spent."""
        self.searched += 1
        deadline = time.perf_counter() + self.budget
        limit = self.rollouts
        horizon = _Horizon(state, through_combat=(phase == "charge" or kind == "charge_move"))
        live = list(range(len(cands)))
        gains: list[list[float]] = [[] for _ in cands]  # paired with candidate 0, round by round
        rounds = 0
        hard_stop = deadline + self.budget
        while rounds < limit and len(live) > 1:
            if rounds >= 1 and time.perf_counter() >= deadline:
                self.capped += 1
                break  # the cap: only full rounds are compared (common random numbers)
            seed = self.rng.getrandbits(62)
            row = {i: self._rollout(state, cands[i][1], seed, horizon, hard_stop) for i in live}
            for i in live[1:]:
                gains[i].append(row[i] - row[0])
            rounds += 1
            if rounds >= MIN_ROUNDS:
                live = [i for i in live if i == 0 or _upper(gains[i]) >= MARGIN]
        best = 0
        for i in live[1:]:
            g = sum(gains[i]) / len(gains[i])
            if len(gains[i]) >= MIN_EVIDENCE and g >= MARGIN and (best == 0 or g > sum(gains[best]) / len(gains[best])):
                best = i
        score, action, text = cands[best]
        note = f" [searched {len(cands)} options, {rounds} rounds of rollouts"
        if best:
            note += f"; +{sum(gains[best]) / len(gains[best]):.1f} over the first instinct]"
        else:
            note += "; first instinct confirmed]"
        self.last_explanation = text + note
        return action

    def _rollout(self, state: State, action: Action, seed: int, horizon: "_Horizon", hard_stop: float) -> float:
        sim = state.clone()
        sim.dice = RolloutDice(seed)  # our own dice: the game's are never touched
        try:
            sim.apply(action)
        except Exception:
            return -1e6
        bots = {p: NormalBot(p, seed + p, fast=True) for p in (1, 2)}
        steps = 0
        while not sim.is_over() and not horizon.reached(sim) and steps < MAX_STEPS and time.perf_counter() < hard_stop:
            d = sim.pending()
            try:
                sim.apply(bots[d.player].choose(sim))
            except Exception:
                break
            steps += 1
        with sim.query():
            return K.evaluate_full(sim, self.player)


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
            from game.rules.formation import in_combat

            objs = state.game.battlefield.map.objectives
            if not in_combat(state, uid) and any(K.within_objective(state, uid, i) for i in range(len(objs))):
                return None  # holders stay put
        return super().plan_move(state, uid, plan)


class _Horizon:
    """Where a rollout stops: the end of the current phase (or of the combat phase after a charge)."""

    ORDER = ("start_of_turn", "hero", "movement", "shooting", "charge", "combat", "end_of_turn")

    def __init__(self, state: State, through_combat: bool) -> None:
        self.turn = state.turn
        self.phase = state.phase
        self.stop_after = "combat" if through_combat else state.phase

    def reached(self, s: State) -> bool:
        if s.turn != self.turn:
            return True
        return self.ORDER.index(s.phase) > self.ORDER.index(self.stop_after)


def _upper(gains: list[float]) -> float:
    """An optimistic bound on the mean paired gain: mean + Z standard errors."""
    n = len(gains)
    mean = sum(gains) / n
    var = sum((g - mean) ** 2 for g in gains) / (n - 1) if n > 1 else 0.0
    return mean + Z * math.sqrt(var / n)


def _distinct(ranked: list[Scored]) -> list[Scored]:
    seen: set = set()
    out = []
    for s in ranked:
        key = s[1]
        if key in seen:
            continue
        seen.add(key)
        out.append(s)
    return out
