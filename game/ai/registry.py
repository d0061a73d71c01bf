"""Bots by name, for the command line and the menus."""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Protocol

from game.rules import Action, State


class Bot(Protocol):
    """A bot is built with its player and its own seed; it chooses an action for a state.

    Bots never read the game's dice; a bot that searches works on clones with its own dice.
    """

    name: str
    player: int

    def choose(self, state: State) -> Action: ...


def _random(player: int, seed: int) -> Bot:
    from game.ai.random_bot import RandomBot

    return RandomBot(player, seed)


def _normal(player: int, seed: int) -> Bot:
    from game.ai.normal import NormalBot

    return NormalBot(player, seed)


def _hard(player: int, seed: int) -> Bot:
    from game.ai.hard import HardBot

    return HardBot(player, seed)


BOTS: dict[str, Callable[[int, int], Bot]] = {"random": _random, "normal": _normal, "hard": _hard}
MAX_BUDGET = 600.0  # seconds: a time budget above ten minutes per decision is a typo


def parse_bot(name: str) -> tuple[str, float | None]:
    """Split "hard@0.3" into ("hard", 0.3); ValueError for an unknown bot or a budget that is not
    a finite number of seconds from 0 to ten minutes (NaN, inf, -1 and 1e9 are refused)."""
    base, at, budget = name.partition("@")
    if base not in BOTS:
        raise ValueError(f"unknown bot {name!r}; choose one of {', '.join(BOTS)}, optionally with @SECONDS")
    if not at:
        return base, None
    try:
        return base, _seconds(budget)
    except ValueError as exc:
        raise ValueError(f"bad time budget in {name!r}: {exc}") from None


def _seconds(text: str) -> float:
    """A bot's time budget in seconds: a finite number from 0 (the search is off) to MAX_BUDGET."""
    try:
        value = float(text)
    except ValueError:
        raise ValueError(f"{text!r} is not a number of seconds") from None
    if not math.isfinite(value) or not 0 <= value <= MAX_BUDGET:
        raise ValueError(f"{text!r} must be a number of seconds from 0 to {MAX_BUDGET:g}")
    return value


def make_bot(name: str, player: int, seed: int) -> Bot:
    """`name` is a key of BOTS, optionally with a time budget in seconds: "hard@0.3"."""
    base, budget = parse_bot(name)
    bot = BOTS[base](player, seed)
    if budget is not None:
        bot.budget = budget  # type: ignore[attr-defined]
    return bot
