"""The hard bot's single-decision searches (issue 25): a few answers to one open decision, each
played to the end of the turn on clones with the bot's own dice, the best kept.

Two decisions are weighed this way, beside the whole-phase plans (game.ai.phase_search):

- an unbind (M6): unbind now with the normal bot's unbinder, or let the spell through? The
  normal bot decides by a rule of thumb (game.ai.normal `_d_unbind`: the spell's threat times
  the chance to beat its casting roll, against the bigger casts that may still come); the
  rollouts play the rest of the enemy's turn instead. Searched only when there is something to
  weigh: an unbinder in range and a spell worth stopping.
- a predatory move (E8, E9): which manifestation to move and where, among the normal bot's best
  few (which it ranks two moves ahead), played on to the end of the turn.

Each answer is played `ROUNDS` times (game.ai.phase_search `rollout`, with the answer applied
first; common random numbers per round: every answer meets the same casting, charge and damage
rolls), the end scored with `knowledge.evaluate_full`, and the normal bot's answer is kept unless
another gains at least `MARGIN` evaluation points on average. The game's dice are never touched;
the rounds fix the search, so a seed gives the same choice on any machine, and the time budget
only caps a search that runs long.
"""

from __future__ import annotations

from dataclasses import dataclass
from random import Random

from game.ai.normal import NormalBot
from game.ai.phase_search import Rounds, rollout
from game.rules import Action, DeclineUnbind, MovePredatory, State, Unbind

ROUNDS = 4  # rollouts per answer (the answers share each round's dice)
MARGIN = 1.0  # evaluation points another answer must gain over the normal bot's
MIN_GAIN = 0.05  # below this (threat x unbind chance), the normal bot's unbind answer is kept unsearched
MIN_EVIDENCE = 2  # rounds a search needs before it may set the normal bot's answer aside
PREDATORY_ANSWERS = 3  # the normal bot's best few predatory moves weighed (E8, E9)


@dataclass(frozen=True)
class Outcome:
    """What a decision search found: the answers weighed, their mean scores, the one kept."""

    answers: tuple[Action, ...]  # the normal bot's answer first
    means: tuple[float, ...]
    rounds: int
    capped: bool
    best: int

    @property
    def gain(self) -> float:
        return self.means[self.best] - self.means[0]


def unbind_answers(ranked: list[tuple[float, Action, object]]) -> tuple[Action, ...] | None:
    """The two answers to an unbind to weigh (M6), the normal bot's first: its best unbind and
    the decline; None when it has only one (no unbinder in range)."""
    first = ranked[0][1]
    unbind = next((a for _s, a, _r in ranked if isinstance(a, Unbind)), None)
    decline = next((a for _s, a, _r in ranked if isinstance(a, DeclineUnbind)), None)
    if unbind is None or decline is None:
        return None
    return (first, decline if isinstance(first, Unbind) else unbind)


def predatory_answers(
    ranked: list[tuple[float, Action, object]], k: int = PREDATORY_ANSWERS
) -> tuple[Action, ...] | None:
    """The normal bot's best `k` predatory moves (E8, E9), its choice first; None when there is
    only one to make."""
    moves: list[Action] = []
    for _s, a, _r in ranked:
        if isinstance(a, MovePredatory) and a not in moves:
            moves.append(a)
            if len(moves) == k:
                break
    return tuple(moves) if len(moves) > 1 and moves[0] == ranked[0][1] else None


def search(
    state: State,
    me: int,
    options: tuple[Action, ...],
    rng: Random,
    *,
    rounds: int = ROUNDS,
    budget: float = float("inf"),
    margin: float = MARGIN,
) -> Outcome:
    """Play each of `options` (the normal bot's answer first) `rounds` times to the end of this
    turn and keep the best by its mean; another answer than the first must beat it by `margin`,
    over at least `MIN_EVIDENCE` rounds. `budget` seconds cap the search: only full rounds are
    compared."""
    totals = [0.0] * len(options)
    clock = Rounds(rounds, budget, rng)
    for seed in clock:
        for i, first in enumerate(options):
            mine = NormalBot(me, seed + me, fast=True)
            totals[i] += rollout(state, me, mine, seed, turns=0, first=first, hard_stop=clock.deadline)
    played, capped = clock.played, clock.capped
    means = tuple(t / played for t in totals)
    best = max(range(len(options)), key=lambda i: (round(means[i], 6), -i))
    if best != 0 and (played < MIN_EVIDENCE or means[best] - means[0] < margin):
        best = 0  # one rollout a side (a search its budget cut short) is too noisy to go by
    return Outcome(options, means, played, capped, best)
