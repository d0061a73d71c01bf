"""The `hard` bot: the normal bot's judgement, checked by search inside a time budget.

At the decisions that shape a turn (casting, chanting and banishing; unbinding; predatory
control and moves; charges, charge moves and fights), it takes the normal bot's best few
candidates and runs determinized Monte Carlo rollouts for each: on `state.clone()` with its own
dice (`SeededDice` seeded from its own RNG, never the game's), it applies the candidate, plays on
with normal-policy bots for both sides to the end of the phase (through the combat phase for
charges), and scores the position with `knowledge.evaluate`. The rollouts of every candidate
share their dice seeds (common random numbers), so the comparison is fair. Rollouts go round
the candidates until the time budget is spent; the best mean wins, ties going to the normal
bot's order. Other decisions (deployment, movement, shooting) use the normal policy directly.
"""

from __future__ import annotations

import math
import random
import time

from game.ai import knowledge as K
from game.ai.normal import NormalBot, Scored
from game.rules.actions import Action
from game.rules.dice import SeededDice
from game.rules.state import State

SEARCH_KINDS = {"unbind", "predatory_control", "predatory_move", "fight", "charge_move"}
SEARCH_PHASES = {"hero", "charge"}
TOP_K = 4
MAX_STEPS = 40  # decisions per rollout
MARGIN = 0.75  # evaluation points a searched option must gain over the normal bot's first choice
MIN_EVIDENCE = 3  # rollouts it needs before it can overrule it


class HardBot:
    name = "hard"

    def __init__(
        self, player: int, seed: int = 0, budget: float = 1.0, top_k: int = TOP_K, min_rollouts: int = 1,
        rollouts: int | None = None,
    ) -> None:
        """`budget`: seconds of search per decision. `rollouts`: a fixed number of rollouts per
        candidate instead (the budget then only caps runaway searches): with it, the bot's choices
        depend on its seed alone, not on the machine's speed."""
        self.player = player
        self.rollouts = rollouts
        self.seed = seed
        self.rng = random.Random(seed * 1_000_033 + player * 17 + 1)
        self.budget = budget
        self.top_k = top_k
        self.min_rollouts = min_rollouts
        self.normal = NormalBot(player, seed)
        self.last_explanation = ""
        self.searched = 0

    def choose(self, state: State) -> Action:
        d = state.pending()
        if d.player != self.player:
            raise ValueError(f"it is player {d.player}'s decision, not {self.player}'s")
        ranked = self.normal.ranked(state, d)
        searchable = d.kind in SEARCH_KINDS or (d.kind == "phase" and d.data.get("phase") in SEARCH_PHASES)
        cands = _distinct(ranked)[: self.top_k]
        if not searchable or len(cands) < 2 or self.budget <= 0:
            self.last_explanation = ranked[0][2]
            return ranked[0][1]
        return self._search(state, cands, d.kind, d.data.get("phase"))

    # --- the search ---------------------------------------------------------------------------

    def _search(self, state: State, cands: list[Scored], kind: str, phase: str | None) -> Action:
        self.searched += 1
        start = time.perf_counter()
        deadline = start + self.budget
        totals = [0.0] * len(cands)
        counts = [0] * len(cands)
        horizon = _Horizon(state, through_combat=(phase == "charge" or kind == "charge_move"))
        seeds: list[int] = []
        rounds = 0
        fixed = self.rollouts is not None
        if fixed:
            deadline = start + max(self.budget, 0.0) * 10 + 5.0  # a safety cap only
        limit = self.rollouts if fixed else 64
        while rounds < limit:
            seed = self.rng.getrandbits(62)
            seeds.append(seed)
            for i, (_, action, _) in enumerate(cands):
                if rounds >= 1 and time.perf_counter() >= deadline:
                    break  # an unfinished round is not compared (common random numbers)
                totals[i] += self._rollout(state, action, seed, horizon, math.inf if fixed else deadline + self.budget)
                counts[i] += 1
            rounds += 1
            if time.perf_counter() >= deadline:
                break
        n = max(counts)
        means = [totals[i] / counts[i] if counts[i] else -1e9 for i in range(len(cands))]
        # candidates short of a full set of rollouts are compared on what they have; the search
        # overrules the first instinct only on a clear margin, since a few rollouts are noisy
        best = max(range(len(cands)), key=lambda i: (round(means[i], 6), -i))
        base = means[0]
        if best != 0 and (counts[best] < MIN_EVIDENCE or means[best] - base < MARGIN):
            best = 0
        score, action, text = cands[best]
        gain = means[best] - base
        note = f" [searched {len(cands)} options x {n} rollouts"
        note += f"; +{gain:.1f} over the first instinct]" if best != 0 else "; first instinct confirmed]"
        self.last_explanation = text + note
        return action

    def _rollout(self, state: State, action: Action, seed: int, horizon: "_Horizon", hard_stop: float) -> float:
        sim = state.clone()
        sim.dice = SeededDice.from_seed(seed)  # our own dice: the game's are never touched
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
            return K.evaluate(sim, self.player)


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
