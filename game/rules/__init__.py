"""Spellfield's rules engine: pure Python, no pygame or pymunk.

Importing this package registers every rule module's handlers and steps.
"""

from game.rules import flow  # noqa: F401  (registers the R2 turn skeleton)
from game.rules import banishing, casting, hero, prayers, summoning  # noqa: F401  (magic: M1-M12, E1-E5)
from game.rules import manifest_units, predatory, removal  # noqa: F401  (E4, E6-E10, M10)
from game.rules import charge, combat, movement, scoring, shooting  # noqa: F401  (the battle: R1-R4, G4)
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
