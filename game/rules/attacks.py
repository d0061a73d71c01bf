"""The attack sequence for shooting and combat (R3): hit, wound, save with Rend, damage.

- Hit roll: D6 per attack, at least the weapon's Hit. -1 for Cover against shooting, and a
  hit debuff on the attacker; the total hit modifier is capped at -1/+1 [core].
- Critical hits are unmodified 6s; their effect is data (WeaponAbility): two hits, an
  automatic wound, or mortal damage (no wound or save roll).
- Wound roll: D6 per hit, at least the weapon's Wound (less anti-hero against a HERO).
- Save roll: D6 per wound, minus Rend, plus save buffs, at least the target's Save (7: none; none is
  rolled either when no die can pass: `SavesNotRolled`).
- Damage: the weapon's Damage per failed save (+ a charge bonus where the content gives one),
  dealt through `deal_damage`, which rolls wards per point (R3).
Unmodified 1s always fail and unmodified 6s always hit.

The sequence and its odds are one: `situation` reads from the state what the sequence needs
besides the weapons (an `odds.Situation`), `odds.profile` turns a weapon (`odds.strike_of`) and
the situation into the numbers every roll is made against, and the per-die rules
(`odds.hit_roll_hits` ...) decide each die. `resolve_attacks` rolls through exactly these; the
exact means of the same (`odds.expected`, `attack_odds`) are what the UI shows and the bots
weigh.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from game.rules import odds
from game.rules.damage import deal_damage, ward_of
from game.rules.dicexpr import roll_expr
from game.rules.effects import modifier
from game.rules.events import AttacksResolved, SavesNotRolled
from game.rules.odds import Situation, Volley

if TYPE_CHECKING:
    from game.rules.state import State

__all__ = ["Situation", "Volley", "attack_odds", "resolve_attacks", "situation", "state_owner", "target_save"]


def target_save(state: "State", target: str) -> int:
    if target in state.manifestations:
        return state.game.content.manifestations[state.manifestations[target].scroll].save
    return state.game.warscroll(state.units[target].warscroll).save


def situation(state: "State", attacker: str, target: str, *, cover: bool = False) -> Situation:
    """The attack's situation now, as `resolve_attacks` reads it (it reads it through this):
    the attacker's hit debuff (and -1 for Cover, `cover`), whether it charged this turn; the
    target's Save, save buffs, ward (`deal_damage` rolls it per point; manifestations have
    none) and HERO keyword. The attacker is a unit, or a manifestation with weapons (M10)."""
    if attacker in state.manifestations:
        m = state.manifestations[attacker]
        hit_mod, charged = -(1 if cover else 0), m.flags.get("charged_turn") == state.turn
    else:
        hit_mod = -modifier(state, attacker, "hit_debuff") - (1 if cover else 0)
        charged = state.units[attacker].flags.get("charged_turn") == state.turn
    if target in state.units:
        ward = ward_of(state, target)
        save_mod = modifier(state, target, "save_buff")
        hero = state.game.warscroll(state.units[target].warscroll).has("HERO")
    else:
        ward, save_mod, hero = 0, 0, False
    return Situation(target_save(state, target), ward, save_mod, hero, hit_mod, charged)


def attack_odds(
    state: "State",
    attacker: str,
    volleys: list[Volley],
    target: str,
    *,
    cover: bool = False,
) -> tuple[float, float]:
    """(expected hits, expected damage points) of `resolve_attacks` with these arguments, now:
    the exact means of the very sequence (game.rules.odds), without rolling."""
    return odds.expected(volleys, situation(state, attacker, target, cover=cover))


def resolve_attacks(
    state: "State",
    attacker: str,
    volleys: list[Volley],
    target: str,
    *,
    kind: str,
    cover: bool = False,
) -> AttacksResolved:
    """Roll every attack of `volleys` against `target` and deal the damage.

    The attacker is a unit, or a manifestation with weapons (M10), whose commanding player rolls.
    """
    if attacker in state.manifestations:
        m = state.manifestations[attacker]
        player = m.commander or m.player
    else:
        player = state.units[attacker].player
    sit = situation(state, attacker, target, cover=cover)
    totals = dict(attacks=0, hits=0, wounds=0, unsaved=0, damage=0, mortal=0)
    for v in volleys:
        w = v.weapon
        p = odds.profile(odds.strike_of(w), sit)
        attacks = sum(roll_expr(state, p.attacks, f"{w.name} attacks", "R3", player) for _ in range(v.models))
        totals["attacks"] += attacks
        if attacks == 0:
            continue
        dice = state.roll(attacks, 6, f"{w.name} hit rolls ({p.hit}+{p.hit_mod:+d})", "R3", player)
        hits = auto_wounds = mortal_hits = 0
        for d in dice:
            if not odds.hit_roll_hits(d, p.hit, p.hit_mod):
                continue
            if odds.critical_hit(d) and p.crit == "mortal":
                mortal_hits += 1
            elif odds.critical_hit(d) and p.crit == "auto_wound":
                auto_wounds += 1
            else:
                hits += 2 if odds.critical_hit(d) and p.crit == "two_hits" else 1
        totals["hits"] += hits + auto_wounds + mortal_hits
        wounds = auto_wounds
        if hits:
            wounds += sum(
                1
                for d in state.roll(hits, 6, f"{w.name} wound rolls ({p.wound}+)", "R3", player)
                if odds.wound_roll_wounds(d, p.wound)
            )
        totals["wounds"] += wounds + mortal_hits
        unsaved = wounds
        if wounds and not p.save_roll:  # nothing to roll: say so (R3)
            need = p.save + p.rend - p.save_mod
            state.emit(SavesNotRolled(target=target, wounds=wounds, save=p.save, rend=p.rend, need=need))
        elif wounds:
            need = p.save + p.rend - p.save_mod
            unsaved = sum(
                1
                for d in state.roll(
                    wounds, 6, f"save rolls ({need}+ after rend {p.rend})", "R3", state_owner(state, target)
                )
                if odds.save_roll_fails(d, p.save, p.rend, p.save_mod)
            )
        totals["unsaved"] += unsaved
        per = [
            roll_expr(state, p.damage, f"{w.name} damage", "R3", player) + p.bonus for _ in range(unsaved + mortal_hits)
        ]
        totals["damage"] += sum(per[:unsaved])
        totals["mortal"] += sum(per[unsaved:])
    if totals["damage"]:
        deal_damage(state, target, totals["damage"], mortal=False, source=kind)
    if totals["mortal"] and (target in state.units or target in state.manifestations):
        deal_damage(state, target, totals["mortal"], mortal=True, source=kind)
    event = AttacksResolved(
        unit=attacker,
        target=target,
        kind=kind,
        attacks=totals["attacks"],
        hits=totals["hits"],
        wounds=totals["wounds"],
        unsaved=totals["unsaved"],
        damage=totals["damage"],
        mortal=totals["mortal"],
    )
    state.emit(event)
    return event


def state_owner(state: "State", thing: str) -> int:
    if thing in state.manifestations:
        return state.manifestations[thing].player
    return state.units[thing].player
