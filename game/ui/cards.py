"""Warscroll cards: what a unit, a manifestation, a spell or prayer, a terrain feature or an
objective is, in words and numbers, for the hover card and the panel's tool tips (issue 19).

One job: a card's CONTENT as a pure function of the state. Every rules fact comes from
`game.rules.query` (power and unbinds left, what a unit knows, its ward, control zones, control
scores, E10's reach); the warscroll data (game.data models) gives the printed characteristics.
Cards name things by their display names only, never by id. Drawing is `render.card_view`'s.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from game.content_words import content_name as cn
from game.data.models import Ability, EffectSpec, Footprint, ManifestationScroll, RemovalRule, Weapon
from game.i18n import N_, _, ngettext
from game.rules import query
from game.ui.labels import name_of, pct

# Line styles a card uses; the renderer picks a colour and weight for each.
HEAD, TEXT, DIM, GOOD, BAD = "head", "text", "dim", "good", "bad"


@dataclass(frozen=True)
class Line:
    text: str
    style: str = TEXT


@dataclass(frozen=True)
class Card:
    """A card: a title, an optional subtitle and lines (section heads, facts, notes)."""

    title: str
    subtitle: str = ""
    lines: tuple[Line, ...] = field(default_factory=tuple)

    def text(self) -> str:
        """The whole card as plain text, a line each (tool tips, tests)."""
        return "\n".join([self.title] + ([self.subtitle] if self.subtitle else []) + [ln.text for ln in self.lines])


def _capital(text: str) -> str:
    """`text` with a capital first letter, as str.capitalize() did (the rest lowered), for English;
    a script without case is left as it is."""
    return text.capitalize()


def _g(v: float) -> str:
    return f"{v:g}"


def _plus(v: int) -> str:
    return f"{v}+" if v <= 6 else "-"


def _until(state, player: int) -> str:
    """A buff's end (effects: until the start of the caster's next hero phase)."""
    return _("until the start of player {n}'s next hero phase").format(n=player)


#: Keywords shown as words (a content pack's own keywords stay as they are).
KEYWORD_WORDS = {
    "HERO": N_("HERO"),
    "INFANTRY": N_("INFANTRY"),
    "CAVALRY": N_("CAVALRY"),
    "MONSTER": N_("MONSTER"),
    "FLY": N_("FLY"),
    "WIZARD": N_("WIZARD"),
    "PRIEST": N_("PRIEST"),
    "PREDATORY": N_("PREDATORY"),
    "UNLIMITED": N_("UNLIMITED"),
    "ENDLESS SPELL": N_("ENDLESS SPELL"),
    "INVOCATION": N_("INVOCATION"),
    # the built-in armies' faction keywords (their army names' words)
    "EMBERWARD": N_("EMBERWARD"),
    "MIRECOURT": N_("MIRECOURT"),
}


def keyword_words(keywords) -> str:
    """Keywords as the player reads them, comma separated."""
    return ", ".join(_(KEYWORD_WORDS[k]) if k in KEYWORD_WORDS else k for k in keywords)


# --- units --------------------------------------------------------------------------------


def weapon_line(w: Weapon, hit_mod: int = 0) -> str:
    """One weapon's profile: range (or melee), attacks, hit, wound, rend, damage, abilities."""
    rng = f'{_g(w.range)}"' if w.range > 0 else _("melee")
    hit = _("Hit {v}+").format(v=w.hit) + (f" ({hit_mod:+d})" if hit_mod else "")
    parts = [
        f"{cn(w.name)}: {rng}",
        _("Attacks {v}").format(v=w.attacks),
        hit,
        _("Wound {v}+").format(v=w.wound),
        _("Rend {v}").format(v=w.rend),
        _("Damage {v}").format(v=w.damage),
    ]
    words = {
        "crit_two_hits": N_("Crit: 2 hits"),
        "crit_auto_wound": N_("Crit: auto-wound"),
        "crit_mortal": N_("Crit: mortal"),
        "charge_damage_bonus": N_("+{v} damage on the charge"),
        "anti_hero": N_("+{v} to wound heroes"),
    }
    for a in w.abilities:
        parts.append(_(words[a.kind]).format(v=a.value))
    return ", ".join(parts)


_BUFF_WORDS = {
    "save_buff": N_("+{v} to save rolls"),
    "ward_buff": N_("Ward {v}+"),
    "hit_debuff": N_("-{v} to hit rolls"),
    "move_debuff": N_('-{v}" Move'),
}


def unit_card(state, uid: str) -> Card:
    """A unit's warscroll card: characteristics, damage, weapons, keywords, magic and buffs."""
    u = state.units[uid]
    ws = state.game.warscroll(u.warscroll)
    live = u.live_models()
    lines: list[Line] = []
    sub = ngettext(
        "Player {n}, {army}: {live}/{models} model", "Player {n}, {army}: {live}/{models} models", len(u.models)
    ).format(n=u.player, army=cn(state.game.army(u.player).name), live=len(live), models=len(u.models))
    # characteristics, with what modifies them now
    kind, allowance = query.allowance(state, uid) if u.alive else ("normal", ws.move)
    move = _('Move {move}"').format(move=_g(ws.move)) + (
        " " + _('({now}" now)').format(now=_g(allowance)) if allowance != ws.move and kind == "normal" else ""
    )
    lines.append(
        Line(
            move
            + ", "
            + _("Control {control}, base {base}mm").format(control=ws.control, base=_g(ws.base.round_mm or 0))
        )
    )
    taken = sum(m.damage for _k, m in live)
    health = (_("Health {v} per model") if len(u.models) > 1 else _("Health {v}")).format(v=ws.health)
    lines.append(Line(_("{health}, damage taken {taken}").format(health=health, taken=taken), BAD if taken else TEXT))
    save_mod = query.modifier(state, uid, "save_buff")
    save = _("Save {v}").format(v=_plus(ws.save)) + (
        f" (+{save_mod}: " + _("{v} now").format(v=_plus(max(2, ws.save - save_mod))) + ")" if save_mod else ""
    )
    ward = query.ward_of(state, uid)
    lines.append(Line(_("{save}, Ward {ward}").format(save=save, ward=_plus(ward) if ward else _("none"))))
    if ws.keywords:
        lines.append(Line(keyword_words(ws.keywords), DIM))
    # weapons
    hit_mod = -query.modifier(state, uid, "hit_debuff")
    if ws.weapons:
        lines.append(Line(_("Weapons"), HEAD))
        lines += [Line(weapon_line(w, hit_mod)) for w in ws.weapons]
    # magic (M1, M5, M6, M8)
    wiz, pri = query.levels(state, uid)
    if wiz or pri:
        lines.append(Line(_("Magic this phase"), HEAD))
        power = _("{left} of {total} spells/prayers/banishes left (M1)").format(
            left=query.power_left(state, uid), total=max(wiz, pri)
        )
        if wiz:
            power += ", " + _("{left} of {total} unbinds left (M6)").format(
                left=query.unbinds_left(state, uid), total=wiz
            )
        lines.append(Line(power))
        if pri:
            lines.append(Line(_("Ritual points {n} (M5)").format(n=u.ritual_points)))
        used = set(query.uses(state, uid).used)
        army_used = set(query.army_uses(state, u.player).abilities)
        for k in ("spell", "prayer"):
            for aid in query.known(state, uid, k):
                ab = state.game.content.abilities[aid]
                note = ""
                if aid in used:
                    note, style = " - " + _("used this phase"), DIM
                elif aid in army_used and not ab.unlimited:
                    note, style = " - " + _("the army used it this turn"), DIM
                else:
                    style = TEXT
                kind_word = _("spell") if k == "spell" else _("prayer")
                lines.append(Line(f"{cn(ab.name)} ({kind_word}, {ab.value}+, {_range_words(ab)}){note}", style))
    # timed buffs and debuffs
    if u.buffs:
        lines.append(Line(_("Active effects"), HEAD))
        for b in u.buffs:
            src = state.game.content.abilities.get(b.source)
            what = (_(_BUFF_WORDS[b.kind]) if b.kind in _BUFF_WORDS else b.kind.replace("_", " ")).format(v=b.value)
            bad = b.kind.endswith("debuff")
            lines.append(
                Line(
                    f"{what} ({cn(src.name) if src else _('an ability')}), {_until(state, b.until_hero_of)}",
                    BAD if bad else GOOD,
                )
            )
    return Card(cn(u.name), sub, tuple(lines))


def warscroll_card(content, warscroll_id: str) -> Card:
    """A warscroll's printed card, with no game around it (the army builder, issue 23): its cost,
    characteristics, keywords, weapons and its own spells and prayers."""
    ws = content.warscrolls[warscroll_id]
    sub = ngettext("{models} model, {points} points", "{models} models, {points} points", ws.models).format(
        models=ws.models, points=ws.points
    )
    lines = [
        Line(
            _('Move {move}"').format(move=_g(ws.move))
            + ", "
            + _("Control {control}, base {base}mm").format(control=ws.control, base=_g(ws.base.round_mm or 0))
        ),
        Line((_("Health {v} per model") if ws.models > 1 else _("Health {v}")).format(v=ws.health)),
        Line(
            _("{save}, Ward {ward}").format(
                save=_("Save {v}").format(v=_plus(ws.save)), ward=_plus(ws.ward) if ws.ward else _("none")
            )
        ),
    ]
    if ws.keywords:
        lines.append(Line(keyword_words(ws.keywords), DIM))
    if ws.weapons:
        lines.append(Line(_("Weapons"), HEAD))
        lines += [Line(weapon_line(w)) for w in ws.weapons]
    own = [content.abilities[a] for a in (*ws.spells, *ws.prayers) if a in content.abilities]
    if own:
        lines.append(Line(_("Spells and prayers of its own"), HEAD))
        for ab in own:
            kind_word = _("spell") if ab.kind == "spell" else _("prayer")
            lines.append(Line(f"{cn(ab.name)} ({kind_word}, {ab.value}+, {_range_words(ab)})"))
    return Card(cn(ws.name), sub, tuple(lines))


# --- abilities ----------------------------------------------------------------------------


def _range_words(ab: Ability) -> str:
    if ab.target == "self":
        return _("self")
    return f'{_g(ab.range)}"' if ab.range > 0 else _("no range")


def effect_words(state, spec: EffectSpec, caster_player: int | None = None) -> str:
    """An effect in words (the handlers of game.data.models.EFFECT_PARAMS)."""
    h, v = spec.handler, spec.value
    until = _until(state, caster_player) if caster_player else _("until the start of the caster's next hero phase")
    if h == "mortal_damage":
        return _("{n} mortal damage").format(n=spec.amount)
    if h == "mortal_damage_on_roll":
        return _("on a {on}+ (D6): {n} mortal damage").format(on=spec.on, n=spec.amount)
    if h in _BUFF_WORDS:
        return _(_BUFF_WORDS[h]).format(v=v) + f" {until}"
    if h == "heal":
        return _("heal {n}").format(n=spec.amount)
    if h == "summon":
        scroll = state.game.content.manifestations.get(spec.manifestation or "")
        if scroll is None:
            return _("summons a manifestation")
        tags = ([_("PREDATORY")] if scroll.predatory else []) + [
            _('Move {move}"').format(move=_g(scroll.move)),
            _("banishment {v}+").format(v=scroll.banishment),
        ]
        return _("summons {name} ({tags})").format(name=cn(scroll.name), tags=", ".join(tags))
    return h.replace("_", " ")


def ability_card(state, aid: str, unit: str | None = None) -> Card:
    """A spell's or prayer's card: value, range, target, effect in words, keywords; with `unit`,
    what that caster has left to use it this phase."""
    ab = state.game.content.abilities[aid]
    player = state.units[unit].player if unit in state.units else None
    lines: list[Line] = []
    if ab.kind == "spell":
        value = _("Casting value {v}+ on 2D6 (M3)").format(v=ab.value)
        chance = _("Chance to cast {chance} (before any unbind)").format(chance=pct(query.odds.cast_chance(ab.value)))
    else:
        pts = state.units[unit].ritual_points if unit in state.units else 0
        value = _("Chanting value {v}+ on D6 + ritual points (M5)").format(v=ab.value)
        chance = _("Answered now {chance} with {points} ritual points").format(
            chance=pct(query.odds.prayer_chance(ab.value, pts)), points=pts
        )
    lines.append(Line(value))
    target = {
        "enemy": N_("an enemy unit"),
        "friendly": N_("a friendly unit"),
        "self": N_("the caster"),
        "none": N_("no target"),
    }[ab.target]
    seen = ", " + _("visible to the caster") if ab.visible and ab.target in ("enemy", "friendly") else ""
    aim = _("no target") if ab.target == "none" else _("target: {target}").format(target=_(target)) + seen
    lines.append(Line(_("Range {range}; {aim}").format(range=_range_words(ab), aim=aim)))
    for e in ab.effects:
        lines.append(Line(_("Effect: {effect}").format(effect=effect_words(state, e, player))))
    lines.append(Line(chance, DIM))
    others = [k for k in ab.keywords if k != "UNLIMITED"]
    if others:
        lines.append(Line(keyword_words(others), DIM))
    if ab.unlimited:
        lines.append(Line(_("UNLIMITED: not limited to once per turn per army (M2, M7)"), DIM))
    if unit in state.units:
        lines.append(
            Line(
                _("{unit}: {n} uses left this phase (M1)").format(
                    unit=name_of(state, unit), n=query.power_left(state, unit)
                )
            )
        )
    if ab.text:
        lines.append(Line(cn(ab.text), DIM))
    if ab.kind == "spell":
        kind = _("Spell (summons a manifestation, M9)") if ab.summons else _("Spell")
    else:
        kind = _("Prayer (summons a manifestation, M9)") if ab.summons else _("Prayer")
    return Card(cn(ab.name), kind, tuple(lines))


# --- manifestations -----------------------------------------------------------------------


def footprint_words(fp: Footprint) -> str:
    if fp.round_mm is not None:
        return _("round, {size}mm").format(size=_g(fp.round_mm))
    xs = [p[0] for p in fp.polygon or []]
    ys = [p[1] for p in fp.polygon or []]
    return f'{max(xs) - min(xs):.1f}" x {max(ys) - min(ys):.1f}"'


def _removal_words(r: RemovalRule) -> str:
    if r.kind == "after_moves":
        return _("removed after {n} moves").format(n=r.value)
    if r.kind == "end_of_round":
        nth = {1: N_("1st"), 2: N_("2nd"), 3: N_("3rd")}
        word = _(nth[r.value]) if r.value in nth else _("{n}th").format(n=r.value)
        return _("removed at the end of the {nth} battle round after the one it was set up in").format(nth=word)
    return _("at the end of each battle round, removed on a D6 of {n} or less").format(n=r.value)


def _wild_words(reason: str | None, rng: float) -> str:
    if reason == "no_summoner":
        return _("its summoner is gone")
    if reason == "summoner_slain":
        return _("the model that summoned it is slain")
    if reason == "out_of_range":
        return _('it is not wholly within {range}" of the model that summoned it').format(range=_g(rng))
    return ""


def manifestation_card(state, mid: str) -> Card:
    """A manifestation's card: Move (E10's reach for a predatory one), health, save, banishment,
    footprint, keywords, and who controls and commands it and why (E7, E8)."""
    m = state.manifestations[mid]
    scroll: ManifestationScroll = query.scroll_of(state, mid)
    lines: list[Line] = []
    kind = _("Endless spell") if scroll.kind == "endless_spell" else _("Invocation")
    summoner = state.units.get(m.summoner)
    sub = _("{kind} of player {n}").format(kind=kind, n=m.player) + (
        ", " + _("summoned by {unit}").format(unit=cn(summoner.name)) if summoner is not None else ""
    )
    if scroll.predatory and scroll.move > 0:
        lines.append(
            Line(
                _('Move {move}" + predatory {extra}" = {reach}" (E10)').format(
                    move=_g(scroll.move),
                    extra=_g(query.move_reach(state, mid) - scroll.move),
                    reach=_g(query.move_reach(state, mid)),
                )
            )
        )
    else:
        lines.append(
            Line(
                _('Move {move}"').format(move=_g(scroll.move))
                + (" " + _("(it cannot move)") if scroll.move == 0 else "")
            )
        )
    left = max(0, scroll.health - m.damage)
    lines.append(
        Line(
            _("Health {left}/{health}, Save {save}").format(left=left, health=scroll.health, save=_plus(scroll.save)),
            BAD if m.damage else TEXT,
        )
    )
    rng = query.ranges(state.game)
    if rng.banishes:
        lines.append(Line(_("Banishment {v}+ (2D6 + bonus, M12)").format(v=scroll.banishment)))
    if rng.dispels:
        lines.append(Line(_("Dispel: 2D6 above {v} (E3)").format(v=query.summoning_value(state, m.scroll))))
    lines.append(Line(_("Footprint {footprint}").format(footprint=footprint_words(scroll.footprint))))
    kws = (["PREDATORY"] if scroll.predatory else []) + list(scroll.keywords)
    if kws:
        lines.append(Line(keyword_words(kws), DIM))
    if scroll.weapons:
        lines.append(Line(_("Weapons"), HEAD))
        lines += [Line(weapon_line(w)) for w in scroll.weapons]
    # control and command (E5, E7, E8)
    lines.append(Line(_("Control"), HEAD))
    if scroll.predatory:
        cz = query.control_zone(state, mid)
        if cz.controller is not None:
            who = name_of(state, cz.controller[0])
            lines.append(Line(_("Controlled by {unit} this hero phase (E7)").format(unit=who), GOOD))
        if cz.qualifies:
            lines.append(
                Line(
                    _('Wholly within {range}" of {unit}: it can be controlled (E7)').format(
                        range=_g(cz.range), unit=cn(summoner.name) if summoner else _("its summoner")
                    )
                )
            )
        else:
            lines.append(Line(_("Wild: {why} (E5, E7)").format(why=_wild_words(cz.reason, cz.range)), BAD))
    commander = query.commander_of(state, mid)
    why = _("its summoner's player") if commander == m.player else _("it picked this wild manifestation to move")
    lines.append(Line(_("Commanded by player {n} ({why}, E8)").format(n=commander, why=why)))
    if scroll.pass_across or scroll.removal:
        lines.append(Line(_("Abilities"), HEAD))
    for e in scroll.pass_across:
        lines.append(Line(_("Units passed across: {effect}").format(effect=effect_words(state, e))))
    for r in scroll.removal:
        lines.append(Line(_capital(_removal_words(r)) + " (E4)", DIM))
    if scroll.predatory and scroll.move > 0:
        lines.append(Line(_("Moves made {n}").format(n=m.moves_made), DIM))
    return Card(name_of(state, mid), sub, tuple(lines))


# --- terrain and objectives ---------------------------------------------------------------

_TRAIT_WORDS = {
    "obscuring": N_("Obscuring: blocks sight through it (G2)"),
    "impassable": N_("Impassable: nothing is set up or ends a move on it (G4)"),
    "cover": N_("Cover: -1 to hit a unit in it"),
}


def terrain_card(state, index: int) -> Card:
    """A terrain feature's traits in words."""
    t = state.game.battlefield.map.terrain[index]
    lines = tuple(Line(_(_TRAIT_WORDS[tr])) for tr in t.traits) or (Line(_("No traits: open ground")),)
    return Card(cn(t.name), _("Terrain"), lines)


def objective_card(state, index: int) -> Card:
    """An objective's control scores now (R2) and who holds it."""
    o = state.game.battlefield.map.objectives[index]
    s1, s2 = query.control_scores(state, index)
    held = state.objectives[index] if index < len(state.objectives) else None
    lines = [
        Line(
            _('Control scores within {range}": player 1: {s1}, player 2: {s2} (R2)').format(
                range=_g(query.OBJECTIVE_RANGE), s1=s1, s2=s2
            )
        ),
        Line(_("Held by player {n}").format(n=held) if held else _("Held by nobody yet"), GOOD if held else DIM),
    ]
    return Card(cn(o.name) or _("Objective {n}").format(n=index + 1), _("Objective"), tuple(lines))


# --- what is under the pointer ------------------------------------------------------------

OBJECTIVE_MARK = 0.8  # inches: the objective marker's radius as the field draws it


def feature_at(state, wx: float, wy: float, slack: float = 0.0) -> tuple[str, int] | None:
    """The objective marker or terrain feature under a world point: ("objective", i) first
    (markers are small and sit on terrain), then ("terrain", i); None on open ground."""
    import shapely

    bmap = state.game.battlefield.map
    for i, o in enumerate(bmap.objectives):
        if (o.x - wx) ** 2 + (o.y - wy) ** 2 <= (OBJECTIVE_MARK + slack) ** 2:
            return "objective", i
    p = shapely.Point(wx, wy)
    for i, t in enumerate(bmap.terrain):
        if shapely.Polygon(t.points).covers(p):
            return "terrain", i
    return None


def pinned(card: Card) -> Card:
    """`card` as pinned by a click: it says how to close it."""
    return Card(
        card.title, card.subtitle, (*card.lines, Line(_("Pinned: Esc or a click on open ground closes it"), DIM))
    )


def card_for(state, thing: str | None, feature: tuple[str, int] | None = None) -> Card | None:
    """The card of a hovered unit or manifestation, else of a hovered feature, else None."""
    if thing in state.units:
        return unit_card(state, thing)
    if thing in state.manifestations:
        return manifestation_card(state, thing)
    if feature is not None:
        kind, i = feature
        return objective_card(state, i) if kind == "objective" else terrain_card(state, i)
    return None


def button_ability(it) -> tuple[str, str | None] | None:
    """The spell or prayer a panel button's intent stands for, with its caster: a cast or
    chant action, or the selection of an ability (the panel's "pick a target" step)."""
    act = it.get("action")
    aid = getattr(act, "spell", None) or getattr(act, "prayer", None)
    if aid:
        return aid, getattr(act, "unit", None)
    if it.kind == "select" and isinstance(it.get("ability"), str):
        return it.get("ability"), it.get("unit")
    return None
