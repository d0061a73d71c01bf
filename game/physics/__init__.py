"""pymunk adapter: "move this base along this path; where does it stop, what does it touch" (G4).

A kinematic query world only: nothing is ever stepped or simulated.
"""

from .move import MoveResult, move_along, move_base

__all__ = ["MoveResult", "move_base", "move_along"]
