"""Bots by name, for the command line and the menus."""

from __future__ import annotations

from typing import Callable, Protocol

from game.rules.actions import Action
from game.rules.state import State


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


def make_bot(name: str, player: int, seed: int) -> Bot:
    """`name` is a key of BOTS, optionally with a time budget in seconds: "hard@0.3"."""
    base, _, budget = name.partition("@")
    try:
        bot = BOTS[base](player, seed)
    except KeyError:
        raise ValueError(f"unknown bot {name!r}; choose one of {', '.join(BOTS)}") from None
    if budget:
        try:
            bot.budget = float(budget)  # type: ignore[attr-defined]
        except ValueError:
            raise ValueError(f"bad time budget in {name!r}: {budget!r} is not a number of seconds") from None
    return bot
