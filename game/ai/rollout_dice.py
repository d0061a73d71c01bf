"""Dice for the hard bot's rollouts: one stream per purpose, stratified within a roll.

A search compares candidate actions on the same dice (common random numbers). With one shared
stream, the first extra roll one candidate makes shifts every later roll, so the comparison is
soon between unrelated dice. Here every purpose string ("charge roll (2D6)", "Hooked Glaive hit
rolls (3+-0)", ...) has its own stream, so a charge roll stays the same charge roll whatever was
rolled before it. And a roll of many dice is stratified: each full block of `sides` dice is a
shuffled 1..sides, so twelve hit rolls land close to their mean while every single die is still
uniform. Both cut the noise of a rollout's result; neither changes what one die can show.

These dice are the bot's own (seeded from its RNG); the game's dice are never touched.
"""

from __future__ import annotations

import zlib
from typing import Any

from game.rules.dice import SeededDice


class RolloutDice:
    """Per-purpose, stratified dice (Dice protocol) for search rollouts."""

    def __init__(self, seed: int, streams: dict[str, SeededDice] | None = None) -> None:
        self.seed = seed
        self.streams: dict[str, SeededDice] = streams if streams is not None else {}

    def _stream(self, purpose: str) -> SeededDice:
        s = self.streams.get(purpose)
        if s is None:
            # crc32, not hash(): str hashes change from process to process
            s = self.streams[purpose] = SeededDice.from_seed(self.seed ^ (zlib.crc32(purpose.encode()) << 20))
        return s

    def roll(self, count: int, sides: int, purpose: str) -> tuple[int, ...]:
        s = self._stream(purpose)
        out: list[int] = []
        while count - len(out) >= sides:
            block = list(range(1, sides + 1))
            for i in range(sides - 1, 0, -1):  # Fisher-Yates on the stream
                j = s._die(i + 1) - 1
                block[i], block[j] = block[j], block[i]
            out.extend(block)
        while len(out) < count:
            out.append(s._die(sides))
        return tuple(out)

    def to_dict(self) -> dict[str, Any]:
        return {"kind": "rollout", "seed": self.seed, "streams": {k: v.state for k, v in self.streams.items()}}

    def clone(self) -> "RolloutDice":
        return RolloutDice(self.seed, {k: SeededDice(v.state) for k, v in self.streams.items()})
