"""The hard bot's unbind search (M6): unbind now, or let the spell through? (issue 25)

The normal bot decides an unbind by a rule of thumb (game.ai.normal `_d_unbind`): the spell's
threat times the chance to beat its casting roll, against the bigger casts that may still come
this phase. The hard bot asks the game instead: for each answer (the normal bot's unbinder, or
no unbind), it plays the rest of the enemy's turn on clones with its own dice
(game.ai.phase_search `rollout`, common random numbers per round: both answers meet the same
casting, charge and damage rolls), scores the end with `knowledge.evaluate_full`, and keeps the
normal bot's answer unless the other gains at least `MARGIN` evaluation points on average.

Searched only when there is something to weigh: an unbinder in range, and a spell worth
stopping (the normal bot's "it does little" answers are kept unsearched). The game's dice are
never touched; the rounds fix the search, so a seed gives the same choice on any machine, and
the time budget only caps a search that runs long.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from random import Random

from game.ai.normal import NormalBot
from game.ai.phase_search import rollout
from game.rules import Action, DeclineUnbind, State, Unbind

ROUNDS = 4  # rollouts per answer (both answers share each round's dice)
MARGIN = 1.0  # evaluation points the other answer must gain over the normal bot's
MIN_GAIN = 0.05  # below this (threat x unbind chance), the normal bot's answer is kept unsearched


@dataclass(frozen=True)
class UnbindOutcome:
    """What an unbind search found: the answers weighed, their mean scores, the one kept."""

    answers: tuple[Action, ...]  # the normal bot's answer first
    means: tuple[float, ...]
    rounds: int
    capped: bool
    best: int

    @property
    def gain(self) -> float:
        return self.means[self.best] - self.means[0]


def answers(ranked: list[tuple[float, Action, object]]) -> tuple[Action, ...] | None:
    """The two answers to weigh, the normal bot's first: its best unbind and the decline; None
    when it has only one (no unbinder in range)."""
    first = ranked[0][1]
    unbind = next((a for _s, a, _r in ranked if isinstance(a, Unbind)), None)
    decline = next((a for _s, a, _r in ranked if isinstance(a, DeclineUnbind)), None)
    if unbind is None or decline is None:
        return None
    return (first, decline if isinstance(first, Unbind) else unbind)


def search(
    state: State,
    me: int,
    options: tuple[Action, ...],
    rng: Random,
    *,
    rounds: int = ROUNDS,
    budget: float = float("inf"),
    margin: float = MARGIN,
) -> UnbindOutcome:
    """Play each of `options` (the normal bot's answer first) `rounds` times to the end of this
    turn (M6: the enemy's hero phase goes on, then the rest of its turn) and keep the best by
    its mean; another answer than the first must beat it by `margin`. `budget` seconds cap the
    search: only full rounds are compared."""
    start = time.perf_counter()
    deadline = start + budget
    totals = [0.0] * len(options)
    played = 0
    capped = False
    while played < rounds:
        now = time.perf_counter()
        if played >= 1 and now + (now - start) / played > deadline:
            capped = True
            break
        seed = rng.getrandbits(62)
        for i, first in enumerate(options):
            mine = NormalBot(me, seed + me, fast=True)
            totals[i] += rollout(state, me, mine, seed, turns=0, first=first, hard_stop=deadline)
        played += 1
    means = tuple(t / played for t in totals)
    best = max(range(len(options)), key=lambda i: (round(means[i], 6), -i))
    if best != 0 and means[best] - means[0] < margin:
        best = 0
    return UnbindOutcome(options, means, played, capped, best)
