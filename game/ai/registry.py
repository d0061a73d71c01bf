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


BOTS: dict[str, Callable[[int, int], Bot]] = {"random": _random}


def make_bot(name: str, player: int, seed: int) -> Bot:
    try:
        return BOTS[name](player, seed)
    except KeyError:
        raise ValueError(f"unknown bot {name!r}; choose one of {', '.join(BOTS)}") from None
