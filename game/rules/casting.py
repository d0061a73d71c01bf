"""Casting spells (M3, M4) and unbinding them (M6).

A cast is declared with the picked model (E5) and its target; the 2D6 casting roll follows.
Two or more unmodified 1s are a miscast: D3 mortal damage to the caster, who casts no more
this phase. Only a roll that meets the casting value opens the opponent's unbind window (M4).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from game.data.models import Ability
from game.geometry.measure import distance
from game.rules.actions import Action, CastSpell, DeclineUnbind, Unbind
from game.rules.allowances import (
    check_army_once,
    check_power,
    label,
    named,
    record_uses,
    spend,
    unbinds_left,
    uses,
)
from game.rules.damage import deal_damage
from game.rules.decisions import Decision, handles
from game.rules.effects import EffectContext, resolve
from game.rules.errors import IllegalActionError
from game.rules.events import CastAttempted, Miscast, SpellCast, UnbindAttempted, UnbindDeclined
from game.rules.frames import UnbindFrame, pop, top
from game.rules.space import model_circle
from game.rules.summoning import check_may_summon, record_attempt
from game.rules.targeting import EPS, check_caster, check_known, check_target

if TYPE_CHECKING:
    from game.rules.state import State


def own_hero_phase(state: "State", verb: str, rule: str) -> None:
    if state.phase != "hero":
        raise IllegalActionError(
            "wrong_phase",
            f"you can only {verb} in your hero phase, not the {state.phase} phase",
            rule,
            verb=verb,
            phase=state.phase,
        )


def check_may_cast(state: "State", player: int, unit: str, model: int, spell_id: str) -> None:
    """Everything about casting `spell_id` except its target (M1, M3, M7, M8, M9, R1)."""
    spell = check_caster_may_cast(state, player, unit, model, spell_id)
    check_army_allowances(state, player, unit, spell)


def check_caster_may_cast(state: "State", player: int, unit: str, model: int, spell_id: str) -> Ability:
    """The part of `check_may_cast` that reads the caster alone, besides the phase: the phase
    (M3), the caster and its model (M8, E5), the spell known (M8), a miscast (M3), then M1 and
    R1. What the army has used this turn is `check_army_allowances`'."""
    own_hero_phase(state, "cast spells", "M3")
    check_caster(state, player, unit, model, ("WIZARD",), "cast spells")
    spell = check_known(state, unit, spell_id, "spell")
    if uses(state, unit).no_cast:
        raise IllegalActionError(
            "miscast",
            f"{label(state, unit)} miscast this phase and can cast no more spells (M3)",
            "M3",
            unit=named(state, unit),
        )
    check_power(state, unit, spell.id)
    return spell


def check_allowances(state: "State", player: int, unit: str, ability: Ability) -> None:
    """The allowances a spell or prayer uses: M1 and R1, then M9 (before M7: the more specific
    reason), then M2/M7."""
    check_power(state, unit, ability.id)
    check_army_allowances(state, player, unit, ability)


def check_army_allowances(state: "State", player: int, unit: str, ability: Ability) -> None:
    """The allowances of a spell or prayer that change as the army uses its abilities: M9 and
    E2's summon cap, then M2/M7 (the rest of `check_allowances` reads the unit's own uses)."""
    check_may_summon(state, player, unit, ability)
    check_army_once(state, player, ability)


def record_use(state: "State", player: int, unit: str, ability) -> None:
    """The attempt counts as a use whatever its result [ruling under M3]."""
    spend(state, unit, ability.id, player)
    record_attempt(state, player, unit, ability)


def _check_cast(state: "State", a: CastSpell) -> None:
    check_may_cast(state, a.player, a.unit, a.model, a.spell)
    check_target(state, a.player, a.unit, a.model, state.game.content.abilities[a.spell], a.target)


@handles(CastSpell, kinds=("phase",), check=_check_cast)
def _cast(state: "State", a: CastSpell) -> None:
    spell = state.game.content.abilities[a.spell]
    record_use(state, a.player, a.unit, spell)
    dice = state.roll(2, 6, f"casting {spell.name} ({spell.value}+)", "M3", a.player)
    roll = sum(dice)
    if sum(1 for d in dice if d == 1) >= 2:
        state.emit(CastAttempted(a.unit, a.model, a.spell, roll, spell.value, "miscast", a.target))
        record_uses(state, a.unit).no_cast = True
        (dmg,) = state.roll(1, 3, "miscast damage (D3)", "M3", a.player)
        state.emit(Miscast(unit=a.unit, spell=a.spell, damage=dmg))
        deal_damage(state, a.unit, dmg, mortal=True, source="miscast")
        return
    if roll < spell.value:
        state.emit(CastAttempted(a.unit, a.model, a.spell, roll, spell.value, "failed", a.target))
        return
    state.emit(CastAttempted(a.unit, a.model, a.spell, roll, spell.value, "succeeded", a.target))
    window = UnbindFrame(
        player=state.opponent(a.player), caster=a.unit, model=a.model, spell=a.spell, target=a.target, roll=roll
    )
    if unbind_options(state, window):  # M4, M6: a reaction only to a successful roll
        state.decisions.append(window)
    else:
        _resolve(state, window)


def unbinders(state: "State", player: int, caster_unit: str, caster_model: int) -> list[tuple[str, int, float]]:
    """(unit, model, distance) for every WIZARD model of `player` within 30" of the casting
    model with an unbind left (M6, E5)."""
    caster = model_circle(state, caster_unit, caster_model)
    reach = state.game.profile.unbind_range
    out = []
    for uid, u in state.units.items():
        if u.player != player or not u.alive or not state.game.warscroll(u.warscroll).wizard_level:
            continue
        if unbinds_left(state, uid) <= 0:
            continue
        for i, _ in u.live_models():
            d = distance(model_circle(state, uid, i), caster)
            if d <= reach + EPS:
                out.append((uid, i, d))
    return out


def unbind_options(state: "State", window: UnbindFrame) -> list[Action]:
    return [
        Unbind(player=window.player, unit=uid, model=i)
        for uid, i, _ in unbinders(state, window.player, window.caster, window.model)
    ]


def unbind_view(state: "State", d: UnbindFrame) -> Decision:
    spell = state.game.content.abilities[d.spell]
    caster = state.units[d.caster].name
    options = tuple(unbind_options(state, d)) + (DeclineUnbind(player=d.player),)
    return Decision(
        player=d.player,
        kind="unbind",
        prompt=f"unbind {spell.name} cast by {caster} with a roll of {d.roll}, or let it through (M6)",
        options=options,
        data={"caster": d.caster, "model": d.model, "spell": d.spell, "roll": d.roll, "target": d.target},
    )


def _check_unbind(state: "State", a: Unbind) -> None:
    window = top(state, UnbindFrame)
    check_caster(state, a.player, a.unit, a.model, ("WIZARD",), "unbind")
    if unbinds_left(state, a.unit) <= 0:
        u = uses(state, a.unit)
        extra = f", less {u.penalty} for dispelling (E3)" if u.penalty else ""
        raise IllegalActionError(
            "unbinds_spent",
            f"{label(state, a.unit)} has used {u.unbinds} unbinds this phase{extra} (M6)",
            "M6",
            unit=named(state, a.unit),
            used=u.unbinds,
            penalty=u.penalty,
        )
    d = distance(model_circle(state, a.unit, a.model), model_circle(state, window.caster, window.model))
    reach = state.game.profile.unbind_range
    if d > reach + EPS:
        raise IllegalActionError(
            "out_of_range",
            f"{label(state, a.unit)} model {a.model} is {d:.2f}\" from the caster "
            f"{label(state, window.caster)}; unbinding reaches {reach:g}\" (M6)",
            "M6",
            unit=named(state, a.unit),
            model=a.model,
            distance=d,
            caster=named(state, window.caster),
            reach=reach,
        )


@handles(Unbind, kinds=("unbind",), check=_check_unbind)
def _unbind(state: "State", a: Unbind) -> None:
    window = pop(state, UnbindFrame)
    record_uses(state, a.unit).unbinds += 1
    d = distance(model_circle(state, a.unit, a.model), model_circle(state, window.caster, window.model))
    roll = sum(state.roll(2, 6, f"unbinding (beat {window.roll})", "M6", a.player))
    unbound = roll > window.roll
    state.emit(UnbindAttempted(a.unit, a.model, window.caster, window.spell, roll, window.roll, unbound, round(d, 3)))
    if not unbound:
        _resolve(state, window)


def _check_decline(state: "State", a: DeclineUnbind) -> None:
    return None


@handles(DeclineUnbind, kinds=("unbind",), check=_check_decline)
def _decline(state: "State", a: DeclineUnbind) -> None:
    window = pop(state, UnbindFrame)
    state.emit(UnbindDeclined(player=a.player, spell=window.spell))
    _resolve(state, window)


def _resolve(state: "State", window: UnbindFrame) -> None:
    """Not unbound: the spell is cast and its effect resolves (M3)."""
    caster = window.caster
    if not state.units[caster].alive:
        return
    spell = state.game.content.abilities[window.spell]
    target = window.target
    if (
        target is not None
        and target not in state.manifestations
        and not (target in state.units and state.units[target].alive)
    ):
        target = None  # the target is gone; nothing left to affect
        if spell.target in ("enemy", "friendly"):
            return
    state.emit(SpellCast(unit=caster, spell=spell.id, roll=window.roll, target=target))
    player = state.units[caster].player
    resolve(state, EffectContext(player, caster, window.model, spell.id, target, "M3"), list(spell.effects))
