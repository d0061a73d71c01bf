"""When manifestations leave the battlefield on their own (E4b, E4c); M11 lives in damage.py.

- E4b: any part of it touches the battlefield edge after it moves (profile switch
  `edge_removal`). Checked by the predatory move (E9) through `after_move`.
- E4c: its warscroll's removal conditions (`RemovalRule`, game/content/manifestations.toml):
  - `after_moves N`: removed once it has made N moves. A move that could not be placed
    (moved 0", E9) still counts as a move **[ruling]**.
  - `end_of_round N`: removed at the end of the N-th battle round after the round it was set up
    in, so one set up in round r goes at the end of round r + N **[ruling: "after" excludes the
    round of set-up]**.
  - `on_roll N`: at the end of each battle round, roll a D6 for it; removed on N or less.
  The end of a battle round is the end of the second turn's end-of-turn phase (R2).

The round a manifestation was set up in is stamped into `flags["set_up_round"]` by a settle check
that runs after every action and step, so it is written in the same `apply()` as the set-up.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from game.data.models import RemovalRule
from game.geometry.measure import touches_edge
from game.rules.flow import step
from game.rules.manifestations import remove_manifestation, scroll_of
from game.rules.space import footprint_at, manifestation_shape

if TYPE_CHECKING:
    from game.rules.state import State

SET_UP_ROUND = "set_up_round"  # ManifestationState.flags key


def rules_of(state: "State", mid: str, kind: str) -> list[RemovalRule]:
    return [r for r in scroll_of(state, mid).removal if r.kind == kind]


def set_up_round(state: "State", mid: str) -> int:
    """The battle round the manifestation was set up in (the current one if not yet stamped)."""
    return int(state.manifestations[mid].flags.get(SET_UP_ROUND, state.round))


@step("removal.stamp_set_up_round", rule="E4")
def stamp_set_up_round(state: "State") -> None:
    """E4c: stamp the round each manifestation was set up in, in the apply() that set it up."""
    for m in state.manifestations.values():
        if SET_UP_ROUND not in m.flags:
            m.flags[SET_UP_ROUND] = state.round


# --- E4b: the battlefield edge --------------------------------------------------------------


def touching_edge(state: "State", mid: str) -> bool:
    """G3: any part of the footprint reaches or crosses the battlefield's boundary."""
    bf = state.game.battlefield
    return touches_edge(manifestation_shape(state, mid), bf.width, bf.height)


def removed_at_edge(state: "State", mid: str, x: float, y: float) -> bool:
    """E4b: would `mid` be removed for touching the battlefield edge if it ended a move with its
    centre at (x, y)? (The profile may not remove manifestations at the edge.)"""
    bf = state.game.battlefield
    return state.game.profile.edge_removal and touches_edge(
        footprint_at(state, state.manifestations[mid].scroll, x, y), bf.width, bf.height
    )


def remove_if_touching_edge(state: "State", mid: str) -> bool:
    """E4b: after it moves, a manifestation touching the edge is removed. True if removed."""
    if mid in state.manifestations and state.game.profile.edge_removal and touching_edge(state, mid):
        remove_manifestation(state, mid, "edge", "E4")
        return True
    return False


# --- E4c: warscroll removal conditions ------------------------------------------------------------


def moves_exhausted(state: "State", mid: str) -> bool:
    """E4c after_moves: has it made as many moves as its warscroll allows?"""
    m = state.manifestations[mid]
    return any(m.moves_made >= r.value for r in rules_of(state, mid, "after_moves"))


def after_move(state: "State", mid: str) -> str | None:
    """The checks that follow a move: E4b, then E4c after_moves. Returns the removal reason
    ("edge" or "warscroll") or None when it stays."""
    if mid not in state.manifestations:
        return None
    if remove_if_touching_edge(state, mid):
        return "edge"
    if moves_exhausted(state, mid):
        remove_manifestation(state, mid, "warscroll", "E4")
        return "warscroll"
    return None


def round_expires(state: "State", mid: str) -> bool:
    """E4c end_of_round: is this the end of the N-th battle round after its set-up round?"""
    start = set_up_round(state, mid)
    return any(state.round >= start + r.value for r in rules_of(state, mid, "end_of_round"))


def is_end_of_round(state: "State") -> bool:
    """R2: the battle round ends with the second turn's end-of-turn phase."""
    return state.stage == "battle" and state.phase == "end_of_turn" and state.active != state.first_player


@step("removal.end_of_round", rule="E4")
def end_of_round(state: "State") -> None:
    """E4c at the end of each battle round: end_of_round expiries first, then on_roll rolls,
    in the order the manifestations were set up."""
    if not is_end_of_round(state):
        return
    for mid in list(state.manifestations):
        if mid in state.manifestations and round_expires(state, mid):
            remove_manifestation(state, mid, "warscroll", "E4")
    for mid in list(state.manifestations):
        if mid not in state.manifestations:
            continue
        for r in rules_of(state, mid, "on_roll"):
            m = state.manifestations[mid]
            (d,) = state.roll(1, 6, f"{scroll_of(state, mid).name} ({mid}) removal: {r.value} or less", "E4", m.player)
            if d <= r.value:
                remove_manifestation(state, mid, "warscroll", "E4")
                break
