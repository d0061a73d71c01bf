"""The attack sequence for shooting and combat (R3): hit, wound, save with Rend, damage.

- Hit roll: D6 per attack, at least the weapon's Hit. -1 for Cover against shooting, and a
  hit debuff on the attacker; the total hit modifier is capped at -1/+1 [core].
- Critical hits are unmodified 6s; their effect is data (WeaponAbility): two hits, an
  automatic wound, or mortal damage (no wound or save roll).
- Wound roll: D6 per hit, at least the weapon's Wound.
- Save roll: D6 per wound, minus Rend, plus save buffs, at least the target's Save (7: none).
- Damage: the weapon's Damage per failed save (+ a charge bonus where the content gives one),
  dealt through `deal_damage`, which rolls wards per point (R3).
Unmodified 1s always fail and unmodified 6s always hit.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from game.data.models import Weapon
from game.rules.damage import deal_damage
from game.rules.dicexpr import roll_expr
from game.rules.effects import modifier
from game.rules.events import AttacksResolved

if TYPE_CHECKING:
    from game.rules.state import State


@dataclass(frozen=True)
class Volley:
    """One weapon fired or swung by `models` models."""

    weapon: Weapon
    models: int


def _ability(w: Weapon, kind: str) -> int:
    return sum(a.value for a in w.abilities if a.kind == kind)


def target_save(state: "State", target: str) -> int:
    if target in state.manifestations:
        return state.game.content.manifestations[state.manifestations[target].scroll].save
    return state.game.warscroll(state.units[target].warscroll).save


def resolve_attacks(
    state: "State", attacker: str, volleys: list[Volley], target: str, *, kind: str, cover: bool = False,
) -> AttacksResolved:
    """Roll every attack of `volleys` against `target` and deal the damage.

    The attacker is a unit, or a manifestation with weapons (M10), whose commanding player rolls.
    """
    if attacker in state.manifestations:  # M10: manifestations with weapons can fight
        m = state.manifestations[attacker]
        player = m.commander or m.player
        hit_mod, charged = -(1 if cover else 0), m.flags.get("charged_turn") == state.turn
    else:
        player = state.units[attacker].player
        hit_mod = -modifier(state, attacker, "hit_debuff") - (1 if cover else 0)
        charged = state.units[attacker].flags.get("charged_turn") == state.turn
    hit_mod = max(-1, min(1, hit_mod))
    save_mod = modifier(state, target, "save_buff") if target in state.units else 0
    save = target_save(state, target)
    totals = dict(attacks=0, hits=0, wounds=0, unsaved=0, damage=0, mortal=0)
    is_hero = target in state.units and state.game.warscroll(state.units[target].warscroll).has("HERO")
    for v in volleys:
        w = v.weapon
        attacks = sum(roll_expr(state, w.attacks, f"{w.name} attacks", "R3", player) for _ in range(v.models))
        totals["attacks"] += attacks
        if attacks == 0:
            continue
        dice = state.roll(attacks, 6, f"{w.name} hit rolls ({w.hit}+{hit_mod:+d})", "R3", player)
        hits = auto_wounds = mortal_hits = 0
        for d in dice:
            if d == 6:
                if _ability(w, "crit_mortal"):
                    mortal_hits += 1
                    continue
                if _ability(w, "crit_auto_wound"):
                    auto_wounds += 1
                    continue
                hits += 1 + (1 if _ability(w, "crit_two_hits") else 0)
            elif d != 1 and d + hit_mod >= w.hit:
                hits += 1
        totals["hits"] += hits + auto_wounds + mortal_hits
        wound_target = w.wound - (_ability(w, "anti_hero") if is_hero else 0)
        wounds = auto_wounds
        if hits:
            wounds += sum(
                1 for d in state.roll(hits, 6, f"{w.name} wound rolls ({wound_target}+)", "R3", player)
                if d != 1 and (d == 6 or d >= wound_target)
            )
        totals["wounds"] += wounds + mortal_hits
        unsaved = wounds
        if wounds and save <= 6:
            need = save + w.rend - save_mod
            unsaved = sum(
                1 for d in state.roll(wounds, 6, f"save rolls ({need}+ after rend {w.rend})", "R3", state_owner(state, target))
                if d == 1 or d - w.rend + save_mod < save
            )
        totals["unsaved"] += unsaved
        bonus = _ability(w, "charge_damage_bonus") if charged else 0
        per = [roll_expr(state, w.damage, f"{w.name} damage", "R3", player) + bonus for _ in range(unsaved + mortal_hits)]
        totals["damage"] += sum(per[:unsaved])
        totals["mortal"] += sum(per[unsaved:])
    if totals["damage"]:
        deal_damage(state, target, totals["damage"], mortal=False, source=kind)
    if totals["mortal"] and (target in state.units or target in state.manifestations):
        deal_damage(state, target, totals["mortal"], mortal=True, source=kind)
    event = AttacksResolved(
        unit=attacker, target=target, kind=kind, attacks=totals["attacks"], hits=totals["hits"], wounds=totals["wounds"],
        unsaved=totals["unsaved"], damage=totals["damage"], mortal=totals["mortal"],
    )
    state.emit(event)
    return event


def state_owner(state: "State", thing: str) -> int:
    if thing in state.manifestations:
        return state.manifestations[thing].player
    return state.units[thing].player
