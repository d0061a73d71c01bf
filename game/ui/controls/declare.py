"""Declare, then roll: which chosen actions wait for a confirm, and the line that declares one.

A spell (M3), a prayer (M5), a banish (M12), a dispel (E3), a charge (R4) or a shot (R3) rolls
dice the moment it is applied: a player's choice of one is first declared in the panel with what
will be rolled and the exact odds, and applies only on a confirm (Enter, or a second press of
the same button). The odds are the engine's (`query.odds`, `shooting_odds`), the same numbers
as the option's own odds line; nothing here computes a chance. The setting `confirm_rolls`
(game.ui.settings) turns the confirm off. Moves by drag are confirmed by Enter already, and
bots never meet a confirm: they do not choose through the panel.
"""

from __future__ import annotations

from game.content_words import content_name as cn
from game.i18n import _
from game.rules import Action, query
from game.ui import settings

ROLLS = ("CastSpell", "ChantPrayer", "Banish", "Dispel", "Charge", "Shoot")


def enabled() -> bool:
    """The player's setting: declared rolls wait for a confirm (default on)."""
    return bool(settings.get("confirm_rolls"))


def needs_confirm(action: Action | None) -> bool:
    return action is not None and action.type in ROLLS and enabled()


def declare_text(state, action: Action) -> str:
    """E.g. "Cast Reed Shroud: 2D6 casting roll, 7+ needed: 58.3%": what will be rolled, and
    the chance, from the engine's odds."""
    from game.ui.labels import name_of, pct, unbinder_in_range

    g = state.game
    t = action.type

    def what(name: str, thing) -> str:  # "Reed Shroud on Reed-Witch": the target in the word order of the language
        return _("{ability} on {target}").format(ability=name, target=name_of(state, thing)) if thing else name

    if t == "CastSpell":
        sp = g.content.abilities[action.spell]
        text = _("Cast {spell}: 2D6 casting roll, {value}+ needed: {chance}").format(
            spell=what(cn(sp.name), action.target), value=sp.value, chance=pct(query.odds.cast_chance(sp.value))
        )
        unb = unbinder_in_range(state, action.player, action.unit, action.model)
        if unb:
            text += "; " + _("gets through an unbind {chance}").format(
                chance=pct(query.odds.lands_chance(sp.value, unb))
            )
        return text
    if t == "ChantPrayer":
        pr = g.content.abilities[action.prayer]
        pts = state.units[action.unit].ritual_points
        return _(
            "Chant {prayer}: D6 chanting roll, {value}+ needed with {points} ritual points: {chance}; a 1 fails"
        ).format(
            prayer=what(cn(pr.name), action.target),
            value=pr.value,
            points=pts,
            chance=pct(query.odds.prayer_chance(pr.value, pts)),
        )
    if t == "Banish":
        m = state.manifestations[action.manifestation]
        need = g.content.manifestations[m.scroll].banishment
        bonus = query.banish_bonus(state, action.player, action.manifestation)
        return _("Banish {name}: 2D6+{bonus} banishment roll, {need}+ needed: {chance}").format(
            name=name_of(state, action.manifestation),
            bonus=bonus,
            need=need,
            chance=pct(query.odds.banish_chance(need, bonus)),
        )
    if t == "Dispel":
        m = state.manifestations[action.manifestation]
        v = query.summoning_value(state, m.scroll)
        return _("Dispel {name}: 2D6 roll, more than {value} needed: {chance}").format(
            name=name_of(state, action.manifestation), value=v, chance=pct(query.odds.dispel_chance(v))
        )
    if t == "Charge":
        from game.ui.controls.units import charge_odds

        odds = charge_odds(state, action.unit)
        return _("Charge with {unit}: 2D6 charge roll").format(unit=name_of(state, action.unit)) + (
            f"; {odds}" if odds else ""
        )
    if t == "Shoot":
        with state.query():
            h, dmg = query.shooting_odds(state, action.unit, action.target)
        return _("{unit} shoots {target}: hit, wound and save rolls; expect {hits} hits, {damage} damage").format(
            unit=name_of(state, action.unit), target=name_of(state, action.target), hits=f"{h:.1f}", damage=f"{dmg:.1f}"
        )
    from game.ui.labels import describe

    return describe(state, action).text
