"""Manifestations on the battlefield: who owns them, and taking them off (E4, M9-M11)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from game.data.models import ManifestationScroll
from game.rules.events import ManifestationRemoved

if TYPE_CHECKING:
    from game.rules.state import State


def scroll_of(state: "State", mid: str) -> ManifestationScroll:
    return state.game.content.manifestations[state.manifestations[mid].scroll]


def on_battlefield(state: "State", player: int) -> list[str]:
    """Ids of the manifestations that belong to `player`'s army."""
    return [mid for mid, m in state.manifestations.items() if m.player == player]


def remove_manifestation(state: "State", mid: str, reason: str, rule: str) -> None:
    """Take a manifestation off the battlefield (E4). It cannot be summoned again this turn (M9, E3)."""
    m = state.manifestations.pop(mid)
    removed = state.turn_uses[str(m.player)].mark("removed").removed
    if m.scroll not in removed:
        removed.append(m.scroll)
    state.emit(ManifestationRemoved(manifestation=mid, scroll=m.scroll, reason=reason, rule=rule))


def sever(state: "State", unit_id: str) -> None:
    """M11: when a summoning WIZARD or PRIEST is slain, its manifestations are removed at once."""
    for mid in [k for k, m in state.manifestations.items() if m.summoner == unit_id]:
        remove_manifestation(state, mid, "severed", "M11")


def summoning_value(state: "State", scroll_id: str) -> int:
    """The casting (or chanting) value of the ability that summons `scroll_id` (for E3 dispels)."""
    values = [a.value for a in state.game.content.abilities.values() if a.summons == scroll_id]
    return min(values) if values else 7
