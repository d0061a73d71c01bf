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
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from random import Random

from game.ai import knowledge as K
from game.ai.normal import NormalBot
from game.ai.rollout_dice import RolloutDice
from game.rules import Action, State

MAX_STEPS = 300  # decisions per rollout (our turn and the opponent's reply)

# makes the bot's side for one rollout: (style, seed) -> a bot that plays all its decisions
MakeBot = Callable[[str, int], NormalBot]


@dataclass
class SameRound:
    """One round's rollouts, by the actions each played before the open phase ended: their
    scores, and how many later rollouts took one of them instead of playing on."""

    scores: dict[tuple, float] = field(default_factory=dict)
    hits: int = 0


@dataclass
class Outcome:
    """What a search found: the style chosen, each style's mean score and the rounds played."""

    best: int
    means: list[float]
    rounds: int
    capped: bool
    shared: int = 0  # rollouts answered by an earlier one of their round that played alike

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
    same_round: SameRound | None = None,
) -> float:
    """Play `state` on a clone with `mine` for `me` and a fast normal bot for the opponent to
    the end of `turns` further turns (1: the opponent's reply; 0: this turn), and score it for
    `me`. `first`, if given, is applied first (a candidate for the open decision).

    `same_round` holds, for the rollouts of one round (the same `seed`), the score of each
    sequence of actions played before the phase open at the start ended (with the bot's random
    state there). Two rollouts that played the same actions on the same dice stand in the same
    position with bots in the same state, and a style acts only at `me`'s decisions of that
    phase (game.ai.plan_styles: `ranked` asks a style's scorer there alone). So when the first
    of them met no such decision after the phase ended (a double turn brings one), the rest of
    the second is the same game: its score is taken instead of played again."""
    sim = state.clone()
    sim.dice = RolloutDice(seed)  # our own dice: the game's are never touched
    other = NormalBot(3 - me, seed + 3 - me, fast=True)
    last = sim.turn + turns
    steps = 0
    if first is not None:
        sim.apply(first)
    phase, turn = sim.phase, sim.turn
    played: list[Action] = [] if first is None else [first]
    prefix: tuple | None = None  # the actions before the open phase ended, and mine's random state
    styled_again = cut = False
    while not sim.is_over() and sim.turn <= last and steps < max_steps:
        if time.perf_counter() >= hard_stop:
            cut = True
            break
        if same_round is not None and prefix is None and (sim.phase != phase or sim.turn != turn):
            prefix = (tuple(played), mine.rng.getstate())
            if prefix in same_round.scores:
                same_round.hits += 1
                return same_round.scores[prefix]
        d = sim.pending()
        if prefix is not None and d.player == me and d.kind == "phase" and d.data.get("phase") == phase:
            styled_again = True  # the style acts again (a later turn of ours): this rest is its own
        bot = mine if d.player == me else other
        try:
            action = bot.choose(sim)
            sim.apply(action)
        except Exception:
            break  # a rollout that cannot go on is scored where it stopped
        played.append(action)
        steps += 1
    with sim.query():
        score = K.evaluate_full(sim, me)
    if same_round is not None and prefix is not None and not (cut or styled_again):
        same_round.scores.setdefault(prefix, score)
    return score


class Rounds:
    """The rounds of a search within its time budget, one seed each (the bot's own RNG): after
    the first round, a round that would not end within the budget (judged by the rounds so far)
    is not started (`capped`), so only full rounds are compared (common random numbers).
    `deadline` is where no rollout may run past."""

    def __init__(self, rounds: int, budget: float, rng: Random) -> None:
        self.rounds, self.rng = rounds, rng
        self.start = time.perf_counter()
        self.deadline = self.start + budget
        self.played = 0
        self.capped = False

    def __iter__(self) -> Iterator[int]:
        while self.played < self.rounds:
            now = time.perf_counter()
            if self.played >= 1 and now + (now - self.start) / self.played > self.deadline:
                self.capped = True
                return
            yield self.rng.getrandbits(62)
            self.played += 1  # the round's rollouts are done when the loop asks for the next


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
    share: bool = True,
) -> Outcome:
    """Play every style `rounds` times (rounds share their dice) and pick the best by its mean;
    a style other than `styles[0]` must beat it by `margin`. `budget` seconds cap the search:
    after its first round, a round that would not end within it (judged by the rounds so far)
    is not started, and no rollout runs past it. `share`: rollouts of a round that played the
    same actions through the open phase share one score (`rollout`'s `same_round`); off, every
    rollout is played to its end, with the same means."""
    totals = [0.0] * len(styles)
    shared = 0
    clock = Rounds(rounds, budget, rng)
    for seed in clock:
        same_round = SameRound() if share else None  # styles that played alike share a score
        for i, style in enumerate(styles):
            bot = make(style, seed + me)
            totals[i] += rollout(state, me, bot, seed, turns=turns, hard_stop=clock.deadline, same_round=same_round)
        shared += same_round.hits if same_round else 0
    played, capped = clock.played, clock.capped
    means = [t / played for t in totals]
    best = max(range(len(styles)), key=lambda i: (round(means[i], 6), -i))
    if best != 0 and (played < min_evidence or means[best] - means[0] < margin):
        best = 0
    return Outcome(best, means, played, capped, shared)
