"""The `random` bot: a uniformly random choice among the options `pending()` lists."""

from __future__ import annotations

import random

from game.rules.actions import Action
from game.rules.state import State


class RandomBot:
    """Picks uniformly among the enumerated legal options, with its own RNG."""

    name = "random"

    def __init__(self, player: int, seed: int = 0) -> None:
        self.player = player
        self.rng = random.Random(seed * 2 + player)

    def choose(self, state: State) -> Action:
        decision = state.pending()
        if decision.player != self.player:
            raise ValueError(f"it is player {decision.player}'s decision, not {self.player}'s")
        options = list(decision.options)  # pending() lists only legal options
        if not options:
            raise RuntimeError(f"no legal option listed for {decision.kind}: {decision.prompt}")
        return self.rng.choice(options)
