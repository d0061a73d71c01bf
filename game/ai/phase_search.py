"""Whole-phase plan search for the hard bot: play a few styles on clones and keep the best.

One job: given a position and a few styles for the bot's side (the first is the baseline,
normal's own judgement), play each style on clones of the position to a horizon (the end of the
opponent's reply turn, or the end of the current turn), score the end with
`knowledge.evaluate_full` and pick the best style; another style than the baseline must beat it
by a margin, since rollouts are noisy.

Rollouts run in rounds: in a round every style meets the same dice (common random numbers), and
the dice are `RolloutDice`, one stream per purpose, so two styles meet the same charge and
casting rolls however many other dice they rolled first. The round seeds come from the bot's own
RNG; the game's dice are never touched. The search is fixed by its rounds, so a seed gives the
same choice on any machine; the time budget only caps a search that runs long (only full
rounds are compared then).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from random import Random

from game.ai import knowledge as K
from game.ai.normal import NormalBot
from game.ai.rollout_dice import RolloutDice
from game.rules import Action, State

MAX_STEPS = 300  # decisions per rollout (our turn and the opponent's reply)

# makes the bot's side for one rollout: (style, seed) -> a bot that plays all its decisions
MakeBot = Callable[[str, int], NormalBot]


@dataclass
class Outcome:
    """What a search found: the style chosen, each style's mean score and the rounds played."""

    best: int
    means: list[float]
    rounds: int
    capped: bool

    @property
    def gain(self) -> float:
        return self.means[self.best] - self.means[0]


def rollout(
    state: State,
    me: int,
    mine: NormalBot,
    seed: int,
    *,
    turns: int = 1,
    first: Action | None = None,
    hard_stop: float = float("inf"),
    max_steps: int = MAX_STEPS,
) -> float:
    """Play `state` on a clone with `mine` for `me` and a fast normal bot for the opponent to
    the end of `turns` further turns (1: the opponent's reply; 0: this turn), and score it for
    `me`. `first`, if given, is applied first (a candidate for the open decision)."""
    sim = state.clone()
    sim.dice = RolloutDice(seed)  # our own dice: the game's are never touched
    other = NormalBot(3 - me, seed + 3 - me, fast=True)
    last = sim.turn + turns
    steps = 0
    if first is not None:
        sim.apply(first)
    while not sim.is_over() and sim.turn <= last and steps < max_steps and time.perf_counter() < hard_stop:
        d = sim.pending()
        bot = mine if d.player == me else other
        try:
            sim.apply(bot.choose(sim))
        except Exception:
            break  # a rollout that cannot go on is scored where it stopped
        steps += 1
    with sim.query():
        return K.evaluate_full(sim, me)


def search(
    state: State,
    me: int,
    styles: Sequence[str],
    make: MakeBot,
    rng: Random,
    *,
    rounds: int,
    budget: float,
    margin: float,
    turns: int = 1,
    min_evidence: int = 1,
) -> Outcome:
    """Play every style `rounds` times (rounds share their dice) and pick the best by its mean;
    a style other than `styles[0]` must beat it by `margin`. `budget` seconds cap the search:
    after its first round, a round that would not end within it (judged by the rounds so far)
    is not started, and no rollout runs past it."""
    start = time.perf_counter()
    deadline = start + budget
    totals = [0.0] * len(styles)
    played = 0
    capped = False
    while played < rounds:
        now = time.perf_counter()
        if played >= 1 and now + (now - start) / played > deadline:
            capped = True
            break  # only full rounds are compared (common random numbers)
        seed = rng.getrandbits(62)
        for i, style in enumerate(styles):
            totals[i] += rollout(state, me, make(style, seed + me), seed, turns=turns, hard_stop=deadline)
        played += 1
    means = [t / played for t in totals]
    best = max(range(len(styles)), key=lambda i: (round(means[i], 6), -i))
    if best != 0 and (played < min_evidence or means[best] - means[0] < margin):
        best = 0
    return Outcome(best, means, played, capped)
