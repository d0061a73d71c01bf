"""Objectives, victory points and the result (R2, R3).

Default battleplan [ours]:
- At the end of each turn every objective is checked: models within 3" of it add their unit's
  Control characteristic; the higher total controls it. On a tie the previous controller keeps
  it [ruling].
- The player whose turn it is then scores 1 victory point for each objective it controls, and
  1 more if it controls more objectives than its opponent.
- The first time an army's general is slain, the opponent scores 3 victory points at the end of
  that turn.
- After the last battle round the player with more victory points wins; equal is a draw.
  An army with no unit left on the battlefield loses at once.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from game.geometry.measure import TOL
from game.rules.events import ObjectiveControlled, VictoryPoints
from game.rules.flow import end_game, step
from game.rules.space import positions

if TYPE_CHECKING:
    from game.rules.state import State

OBJECTIVE_RANGE = 3.0
PER_OBJECTIVE = 1
MORE_OBJECTIVES = 1
GENERAL_SLAIN = 3


def control_scores(state: "State", index: int) -> tuple[int, int]:
    """Each player's control score at objective `index`."""
    o = state.game.battlefield.map.objectives[index]
    pos = positions(state)
    scores = [0, 0]
    if len(pos.x):
        near = np.hypot(pos.x - o.x, pos.y - o.y) - pos.r <= OBJECTIVE_RANGE + TOL
        for k in np.flatnonzero(near).tolist():
            u = state.units[pos.units[pos.owner[k]]]
            scores[u.player - 1] += state.game.warscroll(u.warscroll).control
    return scores[0], scores[1]


def general_of(state: "State", player: int) -> str:
    return f"p{player}u{state.game.army(player).general}"


@step("scoring.end_of_turn", rule="R2")
def score_end_of_turn(state: "State") -> None:
    """Objectives are controlled and victory points paid at the end of each turn."""
    p = state.active
    for i in range(len(state.game.battlefield.map.objectives)):
        a, b = control_scores(state, i)
        if a != b:
            state.objectives[i] = 1 if a > b else 2
        state.emit(ObjectiveControlled(objective=i, player=state.objectives[i], scores=(a, b)))
    held = [sum(1 for c in state.objectives if c == q) for q in (1, 2)]
    _award(state, p, PER_OBJECTIVE * held[p - 1], f"{held[p - 1]} objectives held")
    if held[p - 1] > held[2 - p]:
        _award(state, p, MORE_OBJECTIVES, "more objectives than the opponent")
    for q in (1, 2):
        g = general_of(state, 3 - q)
        bonus = f"general{3 - q}_slain"
        if g in state.units and not state.units[g].alive and not state.flags.get(bonus):
            state.flags[bonus] = True
            _award(state, q, GENERAL_SLAIN, "slew the enemy general")


def _award(state: "State", player: int, points: int, reason: str) -> None:
    if points <= 0:
        return
    state.score[player - 1] += points
    state.emit(VictoryPoints(player=player, points=points, reason=reason, score=(state.score[0], state.score[1])))


@step("scoring.annihilation", rule="R2")
def annihilation(state: "State") -> None:
    """An army with nothing left on the battlefield loses at once."""
    if state.stage != "battle":
        return
    for p in (1, 2):
        if not any(u.alive for u in state.units.values() if u.player == p):
            end_game(state, reason=f"player {p}'s army was wiped out", winner=3 - p)
            return
