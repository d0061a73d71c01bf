"""The `random` bot: a uniformly random choice among the options `pending()` lists."""

from __future__ import annotations

import random
from collections.abc import Sequence

from game.rules import Action, State


class RandomBot:
    """A uniformly random legal choice, with its own RNG.

    It draws the decision's unchecked candidates in a random order and takes the first that
    `State.legal` accepts (`draw_legal`): each legal candidate is equally likely, and the full
    option list is never built.
    """

    name = "random"

    def __init__(self, player: int, seed: int = 0) -> None:
        self.player = player
        self.rng = random.Random(seed * 2 + player)

    def choose(self, state: State) -> Action:
        decision = state.pending()
        if decision.player != self.player:
            raise ValueError(f"it is player {decision.player}'s decision, not {self.player}'s")
        action = draw_legal(state, decision.candidates, self.rng)
        if action is None:
            raise RuntimeError(f"no legal option listed for {decision.kind}: {decision.prompt}")
        return action


def draw_legal(state: State, candidates: Sequence[Action], rng: random.Random) -> Action | None:
    """The first legal action of `candidates` drawn in a uniformly random order, or None.

    The order is drawn as it is used (a Fisher-Yates shuffle stopped at the first legal one),
    so a decision with a thousand candidates costs as many draws as candidates are tried, not a
    thousand (issue 24); each legal candidate is still equally likely to be the answer."""
    pool = list(candidates)
    n = len(pool)
    with state.query():  # one read-only stretch: geometry is computed once for all checks
        for i in range(n):
            j = i + rng.randrange(n - i)
            pool[i], pool[j] = pool[j], pool[i]
            if state.legal(pool[i]):
                return pool[i]
    return None
