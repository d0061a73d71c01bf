"""Manifestations as units (M10) and as obstacles models pass through (G4, E1).

Helpers for the movement, charge and combat code:

- `follows_m10(state, mid)`: does M10 apply to it at all? Not to the kinds the profile makes
  untouchable (`untouchable_kinds`: E1, endless spells under aos3); invocations keep M10 there
  **[ruling]**.
- `counts_as_unit(state, mid, phase)`: M10 makes a manifestation count as a unit for movement,
  combat range, being in combat and the set-up of other units. One with Move 0" ("-") counts as
  a unit only in the combat phase.
- `can_be_affected(state, mid)`: M10: targeting, attacks and damage; E1: never.
- `moves_like_unit(state, mid)`: M10: with Move above 0" it uses the CORE MOVE abilities (normal
  move, run, retreat, charge) and piles in when it fights; a PREDATORY one moves only by the
  predatory procedure **[ruling]**.
- `enemy_manifestations` / `enemy_manifestation_shapes`: what an army's units must treat as
  enemy units in a phase (e.g. a charge may end within 1/2" of one; R4 combat range).
- `manifestation_blockers` / `ends_on_manifestation`: G4 (M10, E1): models may move through
  manifestations but never end a move on one. This holds in both profiles.
- `in_combat_with_manifestations`: enemy manifestations within combat range (3", R4) of a unit.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from game.geometry.measure import TOL, distance, overlaps
from game.geometry.shapes import Shape
from game.rules.manifestations import scroll_of
from game.rules.space import manifestation_shape, unit_circles

if TYPE_CHECKING:
    from game.rules.state import State

COMBAT_RANGE = 3.0  # R4 [core]


def can_move(state: "State", mid: str) -> bool:
    """M10: a manifestation with Move 0" ("-") cannot move; with Move above 0" it can use Move
    abilities."""
    return scroll_of(state, mid).move > 0


def follows_m10(state: "State", mid: str) -> bool:
    """M10 applies to this manifestation: it is on the battlefield and its kind is not one the
    profile makes untouchable (E1: endless spells under aos3; invocations keep M10 [ruling])."""
    m = state.manifestations.get(mid)
    return m is not None and scroll_of(state, mid).kind not in state.game.profile.untouchable_kinds


def counts_as_unit(state: "State", mid: str, phase: str | None = None) -> bool:
    """M10: does the manifestation count as a unit (movement, combat range, being in combat,
    set-up of other units) in `phase` (default: the current phase)? Move 0" ones only in the
    combat phase; never under E1."""
    if not follows_m10(state, mid):
        return False
    phase = state.phase if phase is None else phase
    return can_move(state, mid) or phase == "combat"


def can_be_affected(state: "State", mid: str) -> bool:
    """M10: abilities that pick targets can pick it, and it takes damage; E1: never."""
    return follows_m10(state, mid)


def moves_like_unit(state: "State", mid: str) -> bool:
    """M10: a manifestation with Move above 0" makes normal moves, runs, retreats and charges
    like a unit, and piles in when it fights; a PREDATORY one moves only by the predatory
    procedure (E6-E9) [ruling]; E1 kinds never move like units."""
    if not follows_m10(state, mid):
        return False
    s = scroll_of(state, mid)
    return s.move > 0 and not s.predatory


def enemy_manifestations(state: "State", player: int, phase: str | None = None) -> list[str]:
    """Manifestations of the other army that `player`'s units treat as enemy units in `phase` (M10)."""
    return [mid for mid, m in state.manifestations.items() if m.player != player and counts_as_unit(state, mid, phase)]


def enemy_manifestation_shapes(state: "State", player: int, phase: str | None = None) -> list[Shape]:
    """Footprints of `enemy_manifestations`, in the same order (M10)."""
    return [manifestation_shape(state, mid) for mid in enemy_manifestations(state, player, phase)]


def manifestation_blockers(state: "State", exclude: Iterable[str] = ()) -> list[tuple[str, Shape]]:
    """(id, footprint) of every manifestation a model may cross but not end a move on (G4, M10, E1)."""
    skip = set(exclude)
    return [(mid, manifestation_shape(state, mid)) for mid in state.manifestations if mid not in skip]


def ends_on_manifestation(state: "State", shape: Shape, exclude: Iterable[str] = ()) -> list[str]:
    """Ids of the manifestations that a base or footprint at `shape` would end on (overlap with
    positive area; touching is allowed) (G4)."""
    return [mid for mid, fp in manifestation_blockers(state, exclude) if overlaps(shape, fp)]


def in_combat_with_manifestations(state: "State", unit_id: str, phase: str | None = None) -> list[str]:
    """Enemy manifestations within 3" of any model of the unit, counting as units this phase
    (R4, M10)."""
    u = state.units[unit_id]
    bases = unit_circles(state, unit_id)
    out = []
    for mid in enemy_manifestations(state, u.player, phase):
        fp = manifestation_shape(state, mid)
        if any(distance(b, fp) <= COMBAT_RANGE + TOL for b in bases):
            out.append(mid)
    return out
