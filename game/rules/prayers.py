"""Prayers and ritual points (M5).

A D6 chanting roll: an unmodified 1 fails and costs D3 ritual points (never below 0). Any other
roll opens a choice: bank the roll as ritual points (no effect), or spend: roll + points against
the chanting value. Answered prayers resolve and reset the points to 0; a failed spend keeps
them [ruling]. Ritual points persist across turns in `UnitState.ritual_points`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from game.data.models import Ability
from game.rules.actions import BankRitual, ChantPrayer, SpendRitual
from game.rules.allowances import check_power
from game.rules.casting import check_army_allowances, own_hero_phase, record_use
from game.rules.decisions import Decision, handles
from game.rules.effects import EffectContext, resolve
from game.rules.events import PrayerChanted, PrayerResolved, RitualPoints, SummonFailed
from game.rules.frames import RitualChoiceFrame, pop
from game.rules.summoning import candidate_points
from game.rules.targeting import check_caster, check_known, check_target

if TYPE_CHECKING:
    from game.rules.state import State


def check_may_chant(state: "State", player: int, unit: str, model: int, prayer_id: str) -> None:
    """Everything about chanting `prayer_id` except its target (M1, M5, M7, M8, M9, R1)."""
    prayer = check_caster_may_chant(state, player, unit, model, prayer_id)
    check_army_allowances(state, player, unit, prayer)


def check_caster_may_chant(state: "State", player: int, unit: str, model: int, prayer_id: str) -> Ability:
    """The part of `check_may_chant` that reads the priest alone, besides the phase: the phase
    (M5), the priest and its model (M8, E5), the prayer known (M8), then M1 and R1."""
    own_hero_phase(state, "chant prayers", "M5")
    check_caster(state, player, unit, model, ("PRIEST",), "chant prayers")
    prayer = check_known(state, unit, prayer_id, "prayer")
    check_power(state, unit, prayer.id)
    return prayer


def _check_chant(state: "State", a: ChantPrayer) -> None:
    check_may_chant(state, a.player, a.unit, a.model, a.prayer)
    check_target(state, a.player, a.unit, a.model, state.game.content.abilities[a.prayer], a.target)


@handles(ChantPrayer, kinds=("phase",), check=_check_chant)
def _chant(state: "State", a: ChantPrayer) -> None:
    prayer = state.game.content.abilities[a.prayer]
    record_use(state, a.player, a.unit, prayer)
    (roll,) = state.roll(1, 6, f"chanting {prayer.name} ({prayer.value}+)", "M5", a.player)
    state.emit(PrayerChanted(a.unit, a.model, a.prayer, roll, a.target))
    priest = state.units[a.unit]
    if roll == 1:
        (lost,) = state.roll(1, 3, "ritual points lost (D3)", "M5", a.player)
        before = priest.ritual_points
        priest.ritual_points = max(0, before - lost)  # never below 0 [ruling]
        state.emit(RitualPoints(a.unit, "lost", priest.ritual_points - before, priest.ritual_points))
        return
    state.decisions.append(
        RitualChoiceFrame(player=a.player, unit=a.unit, model=a.model, prayer=a.prayer, target=a.target, roll=roll)
    )


def ritual_view(state: "State", d: RitualChoiceFrame) -> Decision:
    prayer = state.game.content.abilities[d.prayer]
    points = state.units[d.unit].ritual_points
    return Decision(
        player=d.player,
        kind="ritual_choice",
        prompt=(
            f"bank the roll of {d.roll} as ritual points, or spend: {d.roll} + {points} points "
            f"against {prayer.name}'s {prayer.value} (M5)"
        ),
        options=(BankRitual(player=d.player), SpendRitual(player=d.player)),
        data={"unit": d.unit, "prayer": d.prayer, "roll": d.roll, "ritual_points": points},
    )


def _no_check(state: "State", a) -> None:
    return None


@handles(BankRitual, kinds=("ritual_choice",), check=_no_check)
def _bank(state: "State", a: BankRitual) -> None:
    d = pop(state, RitualChoiceFrame)
    priest = state.units[d.unit]
    priest.ritual_points += d.roll
    state.emit(RitualPoints(d.unit, "banked", d.roll, priest.ritual_points))


@handles(SpendRitual, kinds=("ritual_choice",), check=_no_check)
def _spend(state: "State", a: SpendRitual) -> None:
    d = pop(state, RitualChoiceFrame)
    priest = state.units[d.unit]
    prayer = state.game.content.abilities[d.prayer]
    points = priest.ritual_points
    answered = d.roll + points >= prayer.value
    if answered and prayer.summons and not candidate_points(state, a.player, d.unit, d.model, prayer.summons, 1):
        # E2: no legal set-up means the attempt fails; the points are kept [ruling]
        state.emit(PrayerResolved(d.unit, d.prayer, d.roll, points, prayer.value, False))
        state.emit(SummonFailed(scroll=prayer.summons, unit=d.unit, reason="no legal set-up exists"))
        return
    state.emit(PrayerResolved(d.unit, d.prayer, d.roll, points, prayer.value, answered))
    if not answered:
        return
    priest.ritual_points = 0
    if points:
        state.emit(RitualPoints(d.unit, "spent", -points, 0))
    resolve(state, EffectContext(a.player, d.unit, d.model, d.prayer, d.target, "M5"), list(prayer.effects))
