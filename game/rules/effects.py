"""The effect handler registry: data names a handler, the engine runs it (no expressions).

Every name in `game.data.models.EFFECT_PARAMS` has exactly one handler here; a test keeps
them in step. A handler resolves one `EffectSpec` for one resolved spell or prayer.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from game.data.models import EffectSpec
from game.rules.damage import deal_damage, heal
from game.rules.dicexpr import roll_expr
from game.rules.events import EffectApplied
from game.rules.units import Buff

if TYPE_CHECKING:
    from game.rules.state import State


@dataclass(frozen=True)
class EffectContext:
    """Who resolved what, at whom. `target` is a unit or manifestation id (or None)."""

    player: int
    unit: str
    model: int
    ability: str
    target: str | None
    rule: str  # M3 for spells, M5 for prayers


Handler = Callable[["State", EffectContext, EffectSpec], None]
EFFECTS: dict[str, Handler] = {}


def effect(name: str) -> Callable[[Handler], Handler]:
    def register(fn: Handler) -> Handler:
        EFFECTS[name] = fn
        return fn

    return register


def _target(ctx: EffectContext) -> str:
    return ctx.target or ctx.unit  # "self" abilities affect their user


@effect("mortal_damage")
def _mortal_damage(state: "State", ctx: EffectContext, spec: EffectSpec) -> None:
    amount = roll_expr(state, spec.amount or 0, f"{ctx.ability} damage", ctx.rule, ctx.player)
    dealt = deal_damage(state, _target(ctx), amount, mortal=True, source=ctx.ability)
    state.emit(EffectApplied("mortal_damage", _target(ctx), dealt, ctx.ability, ctx.rule))


@effect("mortal_damage_on_roll")
def _mortal_damage_on_roll(state: "State", ctx: EffectContext, spec: EffectSpec) -> None:
    (d,) = state.roll(1, 6, f"{ctx.ability} on {spec.on}+", ctx.rule, ctx.player)
    dealt = 0
    if d >= (spec.on or 7):
        amount = roll_expr(state, spec.amount or 0, f"{ctx.ability} damage", ctx.rule, ctx.player)
        dealt = deal_damage(state, _target(ctx), amount, mortal=True, source=ctx.ability)
    state.emit(EffectApplied("mortal_damage_on_roll", _target(ctx), dealt, ctx.ability, ctx.rule))


def _buff(state: "State", ctx: EffectContext, spec: EffectSpec) -> None:
    target = _target(ctx)
    unit = state.units.get(target)
    if unit is None:  # a manifestation takes damage but carries no modifiers
        return
    unit.buffs.append(Buff(spec.handler, spec.value or 0, ctx.ability, ctx.player, state.turn))
    state.emit(EffectApplied(spec.handler, target, spec.value or 0, ctx.ability, ctx.rule))


# The timed modifiers a unit can carry (`Buff.kind`); later phases read them with `modifier`.
BUFF_KINDS: tuple[str, ...] = ("save_buff", "ward_buff", "hit_debuff", "move_debuff")
for _name in BUFF_KINDS:
    EFFECTS[_name] = _buff


@effect("heal")
def _heal(state: "State", ctx: EffectContext, spec: EffectSpec) -> None:
    target = _target(ctx)
    if target not in state.units:
        return
    amount = roll_expr(state, spec.amount or 0, f"{ctx.ability} healing", ctx.rule, ctx.player)
    state.emit(EffectApplied("heal", target, heal(state, target, amount), ctx.ability, ctx.rule))


@effect("summon")
def _summon(state: "State", ctx: EffectContext, spec: EffectSpec) -> None:
    from game.rules.summoning import open_setup

    open_setup(state, ctx, spec.manifestation or "")


def resolve(state: "State", ctx: EffectContext, specs: list[EffectSpec]) -> None:
    """Resolve an ability's effects in order."""
    for spec in specs:
        EFFECTS[spec.handler](state, ctx, spec)


def modifier(state: "State", unit_id: str, kind: str) -> int:
    """The sum of a unit's active buffs of one kind (e.g. save_buff) for later phases to read."""
    return sum(b.value for b in state.units[unit_id].buffs if b.kind == kind)


def effect_notes(state: "State", ability_id: str, user: str, target: str | None) -> list[str]:
    """What `ability_id` used by `user` on `target` would do that a player should know before
    committing (M3, M5): "no effect" when every effect it has would change nothing (healing a
    unit with no damage), and a note when a timed modifier would add to one the target already
    carries (modifiers of a kind add up: `modifier`). The engine allows the action either way."""
    ability = state.game.content.abilities[ability_id]
    who = target or user  # "self" abilities affect their user
    unit = state.units.get(who)
    notes: list[str] = []
    changes = False
    for spec in ability.effects:
        if spec.handler == "heal":
            hurt = unit is not None and any(m.damage for _, m in unit.live_models())
            changes = changes or hurt
        elif spec.handler in BUFF_KINDS:
            if unit is None:
                continue  # a manifestation carries no modifiers
            changes = True
            now = modifier(state, who, spec.handler)
            if now:
                total = now + (spec.value or 0)
                notes.append(
                    f"{unit.name} already has {spec.handler.replace('_', ' ')} {now:+d}: it adds up to {total:+d}"
                )
        else:
            changes = True  # damage, summoning: always something to resolve
    if not changes and unit is not None:
        notes.insert(0, f"no effect: {unit.name} has no damage to heal")
    return notes
