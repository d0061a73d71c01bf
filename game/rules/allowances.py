"""Magic allowances: power level (M1), once per turn per army (M2, M7), the Rule of One (R1),
unbind counts (M6), E2's one summon per wizard per phase and E3's dispel penalty (aos3).

Usage is recorded in `state.phase_uses[unit]` (reset every phase) and
`state.turn_uses[player]` (reset every turn). An attempt counts as a use whatever its result.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from game.data.models import Ability
from game.rules.errors import IllegalActionError

if TYPE_CHECKING:
    from game.rules.state import State

BANISH = "banish"  # the Banish Manifestation ability's id for R1


def _fresh_unit_uses() -> dict[str, Any]:
    return {"power": 0, "unbinds": 0, "used": [], "no_cast": False, "summons": 0, "penalty": 0}


def uses(state: "State", unit_id: str) -> dict[str, Any]:
    """A unit's uses this phase, for reading. Checks must not change the state."""
    return state.phase_uses.get(unit_id) or _fresh_unit_uses()


def record_uses(state: "State", unit_id: str) -> dict[str, Any]:
    """A unit's uses this phase, for recording a use."""
    return state.phase_uses.setdefault(unit_id, _fresh_unit_uses())


def army_uses(state: "State", player: int) -> dict[str, Any]:
    """An army's uses this turn (M2, M7, M9), for reading."""
    t = state.turn_uses[str(player)]
    return {"abilities": [], "summon_attempts": [], "removed": [], **t}


def record_army_uses(state: "State", player: int) -> dict[str, Any]:
    """An army's uses this turn, for recording."""
    t = state.turn_uses[str(player)]
    for key in ("abilities", "summon_attempts", "removed"):
        t.setdefault(key, [])
    return t


def levels(state: "State", unit_id: str) -> tuple[int, int]:
    ws = state.game.warscroll(state.units[unit_id].warscroll)
    return ws.wizard_level, ws.priest_level


def label(state: "State", unit_id: str) -> str:
    """A unit's or a manifestation's name with its id, for messages."""
    if unit_id in state.manifestations:
        return f"{state.game.content.manifestations[state.manifestations[unit_id].scroll].name} ({unit_id})"
    return f"{state.units[unit_id].name} ({unit_id})"


def power_left(state: "State", unit_id: str) -> int:
    """Uses of SPELL, PRAYER and BANISH left this phase (M1), less any dispel penalty (E3)."""
    u = uses(state, unit_id)
    return max(levels(state, unit_id)) - u["power"] - u["penalty"]


def unbinds_left(state: "State", unit_id: str) -> int:
    """UNBINDs left this phase: the WIZARD's power level (M6), less any dispel penalty (E3)."""
    u = uses(state, unit_id)
    return levels(state, unit_id)[0] - u["unbinds"] - u["penalty"]


def check_power(state: "State", unit_id: str, ability_id: str) -> None:
    """M1 and R1: an allowance left, and this ability not yet used by this unit this phase."""
    u = uses(state, unit_id)
    n = max(levels(state, unit_id))
    if power_left(state, unit_id) <= 0:
        extra = f", less {u['penalty']} for dispelling (E3)" if u["penalty"] else ""
        raise IllegalActionError(
            "power_spent",
            f"{label(state, unit_id)} has used {u['power']} of its {n} spells, prayers and banishes "
            f"this phase{extra} (M1)",
            "M1",
        )
    if ability_id in u["used"]:
        raise IllegalActionError(
            "rule_of_one", f"{label(state, unit_id)} has already used {ability_id} this phase (R1)", "R1"
        )


def check_army_once(state: "State", player: int, ability: Ability) -> None:
    """M2, M7: each spell or prayer once per turn per army, unless UNLIMITED."""
    if ability.unlimited:
        return
    if ability.id in army_uses(state, player)["abilities"]:
        kind = "WIZARD" if ability.kind == "spell" else "PRIEST"
        raise IllegalActionError(
            "once_per_turn",
            f"{ability.name} has already been attempted by a {kind} of player {player}'s army this turn (M7)",
            "M7",
        )


def spend(state: "State", unit_id: str, ability_id: str, player: int, per_army: bool = True) -> None:
    """Record one use of an ability (the attempt counts, whatever its result) [ruling under M3]."""
    u = record_uses(state, unit_id)
    u["power"] += 1
    u["used"].append(ability_id)
    if per_army:
        record_army_uses(state, player)["abilities"].append(ability_id)
