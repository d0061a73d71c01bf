"""Warscroll cards: what a unit, a manifestation, a spell or prayer, a terrain feature or an
objective is, in words and numbers, for the hover card and the panel's tool tips (issue 19).

One job: a card's CONTENT as a pure function of the state. Every rules fact comes from
`game.rules.query` (power and unbinds left, what a unit knows, its ward, control zones, control
scores, E10's reach); the warscroll data (game.data models) gives the printed characteristics.
Cards name things by their display names only, never by id. Drawing is `render.card_view`'s.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from game.data.models import Ability, EffectSpec, Footprint, ManifestationScroll, RemovalRule, Weapon
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


def _g(v: float) -> str:
    return f"{v:g}"


def _plus(v: int) -> str:
    return f"{v}+" if v <= 6 else "-"


def _until(state, player: int) -> str:
    """A buff's end (effects: until the start of the caster's next hero phase)."""
    return f"until the start of player {player}'s next hero phase"


# --- units --------------------------------------------------------------------------------


def weapon_line(w: Weapon, hit_mod: int = 0) -> str:
    """One weapon's profile: range (or melee), attacks, hit, wound, rend, damage, abilities."""
    rng = f'{_g(w.range)}"' if w.range > 0 else "melee"
    hit = f"Hit {w.hit}+" + (f" ({hit_mod:+d})" if hit_mod else "")
    parts = [
        f"{w.name}: {rng}",
        f"Attacks {w.attacks}",
        hit,
        f"Wound {w.wound}+",
        f"Rend {w.rend}",
        f"Damage {w.damage}",
    ]
    words = {
        "crit_two_hits": "Crit: 2 hits",
        "crit_auto_wound": "Crit: auto-wound",
        "crit_mortal": "Crit: mortal",
        "charge_damage_bonus": "+{v} damage on the charge",
        "anti_hero": "+{v} to wound heroes",
    }
    for a in w.abilities:
        parts.append(words[a.kind].format(v=a.value))
    return ", ".join(parts)


_BUFF_WORDS = {
    "save_buff": "+{v} to save rolls",
    "ward_buff": "Ward {v}+",
    "hit_debuff": "-{v} to hit rolls",
    "move_debuff": '-{v}" Move',
}


def unit_card(state, uid: str) -> Card:
    """A unit's warscroll card: characteristics, damage, weapons, keywords, magic and buffs."""
    u = state.units[uid]
    ws = state.game.warscroll(u.warscroll)
    live = u.live_models()
    lines: list[Line] = []
    sub = f"Player {u.player}, {state.game.army(u.player).name}: {len(live)}/{len(u.models)} model" + (
        "s" if len(u.models) != 1 else ""
    )
    # characteristics, with what modifies them now
    kind, allowance = query.allowance(state, uid) if u.alive else ("normal", ws.move)
    move = f'Move {_g(ws.move)}"' + (f' ({_g(allowance)}" now)' if allowance != ws.move and kind == "normal" else "")
    lines.append(Line(move + f", Control {ws.control}, base {_g(ws.base.round_mm or 0)}mm"))
    taken = sum(m.damage for _, m in live)
    health = f"Health {ws.health}" + (" per model" if len(u.models) > 1 else "")
    lines.append(Line(f"{health}, damage taken {taken}", BAD if taken else TEXT))
    save_mod = query.modifier(state, uid, "save_buff")
    save = f"Save {_plus(ws.save)}" + (f" (+{save_mod}: {_plus(max(2, ws.save - save_mod))} now)" if save_mod else "")
    ward = query.ward_of(state, uid)
    lines.append(Line(f"{save}, Ward {_plus(ward) if ward else 'none'}"))
    if ws.keywords:
        lines.append(Line(", ".join(ws.keywords), DIM))
    # weapons
    hit_mod = -query.modifier(state, uid, "hit_debuff")
    if ws.weapons:
        lines.append(Line("Weapons", HEAD))
        lines += [Line(weapon_line(w, hit_mod)) for w in ws.weapons]
    # magic (M1, M5, M6, M8)
    wiz, pri = query.levels(state, uid)
    if wiz or pri:
        lines.append(Line("Magic this phase", HEAD))
        power = f"{query.power_left(state, uid)} of {max(wiz, pri)} spells/prayers/banishes left (M1)"
        if wiz:
            power += f", {query.unbinds_left(state, uid)} of {wiz} unbinds left (M6)"
        lines.append(Line(power))
        if pri:
            lines.append(Line(f"Ritual points {u.ritual_points} (M5)"))
        used = set(query.uses(state, uid).used)
        army_used = set(query.army_uses(state, u.player).abilities)
        for k in ("spell", "prayer"):
            for aid in query.known(state, uid, k):
                ab = state.game.content.abilities[aid]
                note = ""
                if aid in used:
                    note, style = " - used this phase", DIM
                elif aid in army_used and not ab.unlimited:
                    note, style = " - the army used it this turn", DIM
                else:
                    style = TEXT
                lines.append(Line(f"{ab.name} ({k}, {ab.value}+, {_range_words(ab)}){note}", style))
    # timed buffs and debuffs
    if u.buffs:
        lines.append(Line("Active effects", HEAD))
        for b in u.buffs:
            src = state.game.content.abilities.get(b.source)
            what = _BUFF_WORDS.get(b.kind, b.kind.replace("_", " ")).format(v=b.value)
            bad = b.kind.endswith("debuff")
            lines.append(
                Line(
                    f"{what} ({src.name if src else 'an ability'}), {_until(state, b.until_hero_of)}",
                    BAD if bad else GOOD,
                )
            )
    return Card(u.name, sub, tuple(lines))


# --- abilities ----------------------------------------------------------------------------


def _range_words(ab: Ability) -> str:
    if ab.target == "self":
        return "self"
    return f'{_g(ab.range)}"' if ab.range > 0 else "no range"


def effect_words(state, spec: EffectSpec, caster_player: int | None = None) -> str:
    """An effect in words (the handlers of game.data.models.EFFECT_PARAMS)."""
    h, v = spec.handler, spec.value
    until = _until(state, caster_player) if caster_player else "until the start of the caster's next hero phase"
    if h == "mortal_damage":
        return f"{spec.amount} mortal damage"
    if h == "mortal_damage_on_roll":
        return f"on a {spec.on}+ (D6): {spec.amount} mortal damage"
    if h in _BUFF_WORDS:
        return _BUFF_WORDS[h].format(v=v) + f" {until}"
    if h == "heal":
        return f"heal {spec.amount}"
    if h == "summon":
        scroll = state.game.content.manifestations.get(spec.manifestation or "")
        if scroll is None:
            return "summons a manifestation"
        tags = (["PREDATORY"] if scroll.predatory else []) + [
            f'Move {_g(scroll.move)}"',
            f"banishment {scroll.banishment}+",
        ]
        return f"summons {scroll.name} ({', '.join(tags)})"
    return h.replace("_", " ")


def ability_card(state, aid: str, unit: str | None = None) -> Card:
    """A spell's or prayer's card: value, range, target, effect in words, keywords; with `unit`,
    what that caster has left to use it this phase."""
    ab = state.game.content.abilities[aid]
    player = state.units[unit].player if unit in state.units else None
    lines: list[Line] = []
    if ab.kind == "spell":
        value = f"Casting value {ab.value}+ on 2D6 (M3)"
        chance = f"Chance to cast {pct(query.odds.cast_chance(ab.value))} (before any unbind)"
    else:
        pts = state.units[unit].ritual_points if unit in state.units else 0
        value = f"Chanting value {ab.value}+ on D6 + ritual points (M5)"
        chance = f"Answered now {pct(query.odds.prayer_chance(ab.value, pts))} with {pts} ritual points"
    lines.append(Line(value))
    target = {"enemy": "an enemy unit", "friendly": "a friendly unit", "self": "the caster", "none": "no target"}[
        ab.target
    ]
    seen = ", visible to the caster" if ab.visible and ab.target in ("enemy", "friendly") else ""
    aim = "no target" if ab.target == "none" else f"target: {target}{seen}"
    lines.append(Line(f"Range {_range_words(ab)}; {aim}"))
    for e in ab.effects:
        lines.append(Line("Effect: " + effect_words(state, e, player)))
    lines.append(Line(chance, DIM))
    others = [k for k in ab.keywords if k != "UNLIMITED"]
    if others:
        lines.append(Line(", ".join(others), DIM))
    if ab.unlimited:
        lines.append(Line("UNLIMITED: not limited to once per turn per army (M2, M7)", DIM))
    if unit in state.units:
        lines.append(Line(f"{name_of(state, unit)}: {query.power_left(state, unit)} uses left this phase (M1)"))
    if ab.text:
        lines.append(Line(ab.text, DIM))
    kind = "Spell" if ab.kind == "spell" else "Prayer"
    return Card(ab.name, kind + (" (summons a manifestation, M9)" if ab.summons else ""), tuple(lines))


# --- manifestations -----------------------------------------------------------------------


def footprint_words(fp: Footprint) -> str:
    if fp.round_mm is not None:
        return f"round, {_g(fp.round_mm)}mm"
    xs = [p[0] for p in fp.polygon or []]
    ys = [p[1] for p in fp.polygon or []]
    return f'{max(xs) - min(xs):.1f}" x {max(ys) - min(ys):.1f}"'


def _removal_words(r: RemovalRule) -> str:
    if r.kind == "after_moves":
        return f"removed after {r.value} moves"
    if r.kind == "end_of_round":
        nth = {1: "1st", 2: "2nd", 3: "3rd"}.get(r.value, f"{r.value}th")
        return f"removed at the end of the {nth} battle round after the one it was set up in"
    return f"at the end of each battle round, removed on a D6 of {r.value} or less"


def _wild_words(reason: str | None, rng: float) -> str:
    return {
        "no_summoner": "its summoner is gone",
        "summoner_slain": "the model that summoned it is slain",
        "out_of_range": f'it is not wholly within {_g(rng)}" of the model that summoned it',
    }.get(reason or "", "")


def manifestation_card(state, mid: str) -> Card:
    """A manifestation's card: Move (E10's reach for a predatory one), health, save, banishment,
    footprint, keywords, and who controls and commands it and why (E7, E8)."""
    m = state.manifestations[mid]
    scroll: ManifestationScroll = query.scroll_of(state, mid)
    lines: list[Line] = []
    kind = "Endless spell" if scroll.kind == "endless_spell" else "Invocation"
    summoner = state.units.get(m.summoner)
    sub = f"{kind} of player {m.player}" + (f", summoned by {summoner.name}" if summoner is not None else "")
    if scroll.predatory and scroll.move > 0:
        lines.append(
            Line(
                f'Move {_g(scroll.move)}" + predatory {_g(query.move_reach(state, mid) - scroll.move)}" = '
                f'{_g(query.move_reach(state, mid))}" (E10)'
            )
        )
    else:
        lines.append(Line(f'Move {_g(scroll.move)}"' + (" (it cannot move)" if scroll.move == 0 else "")))
    left = max(0, scroll.health - m.damage)
    lines.append(Line(f"Health {left}/{scroll.health}, Save {_plus(scroll.save)}", BAD if m.damage else TEXT))
    rng = query.ranges(state.game)
    if rng.banishes:
        lines.append(Line(f"Banishment {scroll.banishment}+ (2D6 + bonus, M12)"))
    if rng.dispels:
        lines.append(Line(f"Dispel: 2D6 above {query.summoning_value(state, m.scroll)} (E3)"))
    lines.append(Line(f"Footprint {footprint_words(scroll.footprint)}"))
    kws = (["PREDATORY"] if scroll.predatory else []) + list(scroll.keywords)
    if kws:
        lines.append(Line(", ".join(kws), DIM))
    if scroll.weapons:
        lines.append(Line("Weapons", HEAD))
        lines += [Line(weapon_line(w)) for w in scroll.weapons]
    # control and command (E5, E7, E8)
    lines.append(Line("Control", HEAD))
    if scroll.predatory:
        cz = query.control_zone(state, mid)
        if cz.controller is not None:
            who = name_of(state, cz.controller[0])
            lines.append(Line(f"Controlled by {who} this hero phase (E7)", GOOD))
        if cz.qualifies:
            lines.append(
                Line(
                    f'Wholly within {_g(cz.range)}" of {summoner.name if summoner else "its summoner"}: '
                    "it can be controlled (E7)"
                )
            )
        else:
            lines.append(Line(f"Wild: {_wild_words(cz.reason, cz.range)} (E5, E7)", BAD))
    commander = query.commander_of(state, mid)
    why = "its summoner's player" if commander == m.player else "it picked this wild manifestation to move"
    lines.append(Line(f"Commanded by player {commander} ({why}, E8)"))
    if scroll.pass_across or scroll.removal:
        lines.append(Line("Abilities", HEAD))
    for e in scroll.pass_across:
        lines.append(Line("Units passed across: " + effect_words(state, e)))
    for r in scroll.removal:
        lines.append(Line(_removal_words(r).capitalize() + " (E4)", DIM))
    if scroll.predatory and scroll.move > 0:
        lines.append(Line(f"Moves made {m.moves_made}", DIM))
    return Card(name_of(state, mid), sub, tuple(lines))


# --- terrain and objectives ---------------------------------------------------------------

_TRAIT_WORDS = {
    "obscuring": "Obscuring: blocks sight through it (G2)",
    "impassable": "Impassable: nothing is set up or ends a move on it (G4)",
    "cover": "Cover: -1 to hit a unit in it",
}


def terrain_card(state, index: int) -> Card:
    """A terrain feature's traits in words."""
    t = state.game.battlefield.map.terrain[index]
    lines = tuple(Line(_TRAIT_WORDS[tr]) for tr in t.traits) or (Line("No traits: open ground"),)
    return Card(t.name, "Terrain", lines)


def objective_card(state, index: int) -> Card:
    """An objective's control scores now (R2) and who holds it."""
    o = state.game.battlefield.map.objectives[index]
    s1, s2 = query.control_scores(state, index)
    held = state.objectives[index] if index < len(state.objectives) else None
    lines = [
        Line(f'Control scores within {_g(query.OBJECTIVE_RANGE)}": player 1: {s1}, player 2: {s2} (R2)'),
        Line(f"Held by player {held}" if held else "Held by nobody yet", GOOD if held else DIM),
    ]
    return Card(o.name or f"Objective {index + 1}", "Objective", tuple(lines))


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
    return Card(card.title, card.subtitle, (*card.lines, Line("Pinned: Esc or a click on open ground closes it", DIM)))


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
