"""The `random` bot: a uniformly random choice among the options `pending()` lists."""

from __future__ import annotations

import random

from game.rules import Action, State


class RandomBot:
    """A uniformly random legal choice, with its own RNG.

    It shuffles the decision's unchecked candidates and takes the first that `State.legal`
    accepts: each legal candidate is equally likely, and the full option list is never built.
    """

    name = "random"

    def __init__(self, player: int, seed: int = 0) -> None:
        self.player = player
        self.rng = random.Random(seed * 2 + player)

    def choose(self, state: State) -> Action:
        decision = state.pending()
        if decision.player != self.player:
            raise ValueError(f"it is player {decision.player}'s decision, not {self.player}'s")
        with state.query():  # one read-only stretch: geometry is computed once for all checks
            candidates = list(decision.candidates)
            self.rng.shuffle(candidates)
            for action in candidates:
                if state.legal(action):
                    return action
        raise RuntimeError(f"no legal option listed for {decision.kind}: {decision.prompt}")
