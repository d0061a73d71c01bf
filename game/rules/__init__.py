"""Spellfield's rules engine: pure Python, no pygame or pymunk.

Importing this package loads the turn table (`game.rules.turn`), which imports every rule
module; each module's action handlers are declared with `decisions.handles`.
"""

from game.rules import turn  # noqa: F401  (the turn table, R2; it imports every rule module)
from game.rules.actions import Action, ChooseTurnOrder, EndPhase
from game.rules.decisions import Decision
from game.rules.dice import ScriptedDice, SeededDice
from game.rules.errors import DiceScriptError, IllegalActionError
from game.rules.events import Event
from game.rules.game import Game
from game.rules.state import State

__all__ = [
    "Action",
    "ChooseTurnOrder",
    "Decision",
    "DiceScriptError",
    "EndPhase",
    "Event",
    "Game",
    "IllegalActionError",
    "ScriptedDice",
    "SeededDice",
    "State",
]
