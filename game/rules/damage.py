"""Damage (R3): ward rolls per damage point, allocation to models, slain models and units.

When a WIZARD or PRIEST unit is destroyed its manifestations are removed at once (M11),
whatever dealt the damage: a miscast, a spell, an attack or a manifestation.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from game.rules.events import DamageDealt, ManifestationDamaged, ModelSlain, UnitDestroyed
from game.rules.manifestations import remove_manifestation, scroll_of, sever
from game.rules.odds import ward_roll_stops
from game.rules.space import invalidate

if TYPE_CHECKING:
    from game.rules.state import State


def ward_of(state: "State", unit_id: str) -> int:
    """The unit's best ward: its warscroll's or a ward buff's (lower is better; 0 is none)."""
    u = state.units[unit_id]
    wards = [state.game.warscroll(u.warscroll).ward] + [b.value for b in u.buffs if b.kind == "ward_buff"]
    wards = [w for w in wards if w]
    return min(wards) if wards else 0


def deal_damage(state: "State", target: str, amount: int, *, mortal: bool, source: str) -> int:
    """Deal `amount` damage points to a unit or a manifestation; return the points that landed.

    R3: a ward save is rolled for each point. Points go to a model already wounded, else to the
    unit's last model still standing (the default choice), one point at a time.
    """
    if amount <= 0:
        return 0
    if target in state.manifestations:
        return _damage_manifestation(state, target, amount, source)
    u = state.units.get(target)
    if u is None or not u.alive:
        return 0
    ward = ward_of(state, target)
    if ward:
        saved = sum(
            1 for d in state.roll(amount, 6, f"ward {ward}+ for {u.name}", "R3", u.player) if ward_roll_stops(d, ward)
        )
        amount -= saved
    if amount <= 0:
        return 0
    state.emit(DamageDealt(unit=target, amount=amount, mortal=mortal, source=source))
    health = state.game.warscroll(u.warscroll).health
    for _ in range(amount):
        live = u.live_models()
        if not live:
            break
        wounded = [(i, m) for i, m in live if m.damage > 0]
        i, m = wounded[0] if wounded else live[-1]
        m.damage += 1
        if m.damage >= health:
            m.slain = True
            invalidate(state)
            state.emit(ModelSlain(unit=target, model=i))
    if not u.alive:
        state.emit(UnitDestroyed(unit=target))
        sever(state, target)
    return amount


def _damage_manifestation(state: "State", mid: str, amount: int, source: str) -> int:
    """M10 (aos4): manifestations take damage and can be destroyed."""
    m = state.manifestations[mid]
    m.damage += amount
    state.emit(ManifestationDamaged(manifestation=mid, amount=amount, source=source))
    if m.damage >= scroll_of(state, mid).health:
        remove_manifestation(state, mid, "destroyed", "M10")
    return amount


def heal(state: "State", unit_id: str, amount: int) -> int:
    """Remove up to `amount` damage points from a unit's wounded models; return how many."""
    healed = 0
    for _, m in state.units[unit_id].live_models():
        take = min(m.damage, amount - healed)
        m.damage -= take
        healed += take
    return healed
