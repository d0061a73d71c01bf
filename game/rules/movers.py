"""What moves like a unit (R4, G4, M10): units, and manifestations that use the CORE MOVE
abilities.

M10: a manifestation with Move above 0" makes normal moves, runs, retreats and charges like a
unit, in the phases where units use them, and its summoner's player moves it; with weapons it
shoots and fights like one (piling in when it fights). A PREDATORY one moves only by the
predatory procedure (E6-E9) **[ruling]**, and the kinds a profile makes untouchable (E1) never
act like units. The movement, charge, shooting and combat rules take either kind of id; this
module answers the questions they share about it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from game.rules.allowances import label, named
from game.rules.errors import IllegalActionError
from game.rules.manifest_units import follows_m10, moves_like_unit
from game.rules.manifestations import scroll_of

if TYPE_CHECKING:
    from game.rules.state import State


def flags_of(state: "State", thing: str) -> dict[str, Any]:
    """The per-turn marks (moved, ran, charged, shot, fought) of a unit or a manifestation."""
    if thing in state.manifestations:
        return state.manifestations[thing].flags
    return state.units[thing].flags


def player_of(state: "State", thing: str) -> int:
    """The army a unit or manifestation belongs to (its summoner's, for a manifestation)."""
    if thing in state.manifestations:
        return state.manifestations[thing].player
    return state.units[thing].player


def walkers(state: "State", player: int) -> list[str]:
    """`player`'s manifestations that move like units this game (M10)."""
    return [mid for mid, m in state.manifestations.items() if m.player == player and moves_like_unit(state, mid)]


def movers(state: "State", player: int) -> list[str]:
    """`player`'s live units, then its manifestations that move like units (M10)."""
    return [uid for uid, u in state.units.items() if u.player == player and u.alive] + walkers(state, player)


def check_own_mover(state: "State", player: int, thing: str) -> None:
    """`thing` is one of `player`'s live units, or a manifestation of its army that moves like a
    unit (M10); otherwise an IllegalActionError that says which rule stops it."""
    if thing in state.manifestations:
        m = state.manifestations[thing]
        s = scroll_of(state, thing)
        if m.player != player:
            raise IllegalActionError(
                "not_your_unit",
                f"{label(state, thing)} belongs to player {m.player}'s army",
                "M10",
                unit=named(state, thing),
                player=m.player,
            )
        if not follows_m10(state, thing):
            raise IllegalActionError(
                "manifestation_immune",
                f"{label(state, thing)} is an {s.kind.replace('_', ' ')}: "
                "in this profile it does not move like a unit (E1)",
                "E1",
                unit=named(state, thing),
                kind=s.kind.replace("_", " "),
            )
        if s.predatory:
            raise IllegalActionError(
                "predatory",
                f"{label(state, thing)} is PREDATORY: "
                "it moves only by the predatory procedure at the end of each hero phase (M10, E6)",
                "M10",
                unit=named(state, thing),
            )
        if s.move <= 0:
            raise IllegalActionError(
                "cannot_move",
                f"{label(state, thing)} has Move \"-\": it cannot move (M10)",
                "M10",
                unit=named(state, thing),
            )
        return
    u = state.units.get(thing)
    if u is None or not u.alive:
        raise IllegalActionError("unknown_unit", f"there is no unit {thing!r} on the battlefield", unit=thing)
    if u.player != player:
        raise IllegalActionError(
            "not_your_unit",
            f"{label(state, thing)} belongs to player {u.player}",
            unit=named(state, thing),
            player=u.player,
        )


def walker_weapons(state: "State", mid: str, ranged: bool) -> list:
    """A manifestation's ranged or melee weapons (M10), none for an E1 kind."""
    if not follows_m10(state, mid):
        return []
    return [w for w in scroll_of(state, mid).weapons if (w.range > 0) == ranged]
