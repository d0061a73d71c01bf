"""Readable words for actions, events and dice, and the exact odds the panel shows.

Everything here reads the state; nothing changes it. Unknown action and event types get a
generic label (type name plus fields, with ids turned into names), so new decision kinds are
readable the day they land.
"""

from __future__ import annotations

import re
import weakref
from collections.abc import Callable
from dataclasses import dataclass, field, fields
from typing import Any

from game.ai.reason import Reason, words
from game.content_words import content_name as cn
from game.i18n import N_, _, language, ngettext
from game.i18n import PHASE_WORDS as i18n_phase_words
from game.rules import Action, DiceRolled, Event, query


def name_of(state, thing: Any) -> str:
    """A unit's or manifestation's name from its id (never the id itself), in the player's
    language (content_words); other values as they are. Several manifestations of one warscroll
    on the battlefield are numbered in the order they were set up ("Kiln Golem 2")."""
    if isinstance(thing, str):
        if thing in state.units:
            return cn(state.units[thing].name)
        m = state.manifestations.get(thing)
        if m is not None:
            name = cn(state.game.content.manifestations[m.scroll].name)
            same = [k for k, o in state.manifestations.items() if o.scroll == m.scroll]
            return f"{name} {same.index(thing) + 1}" if len(same) > 1 else name
        ab = state.game.content.abilities.get(thing)
        if ab is not None:
            return cn(ab.name)
        scroll = state.game.content.manifestations.get(thing)
        if scroll is not None:
            return cn(scroll.name)
        seen = _seen_scrolls(state).get(thing)
        if seen is not None and seen in state.game.content.manifestations:
            return cn(state.game.content.manifestations[seen].name)
        if _MANIFESTATION_ID.fullmatch(thing):
            return _("a manifestation")  # gone before its scroll was seen: still never the id
    return str(thing)


_MANIFESTATION_ID = re.compile(r"m\d+")
# The scroll of every manifestation an event has named, per game: a manifestation that has left
# the battlefield is gone from the state, but the log still names it in lines read since.
_SCROLLS: dict[int, tuple[Any, dict[str, str]]] = {}  # id(game) -> (weak ref to the game, mid -> scroll)


def _seen_scrolls(state) -> dict[str, str]:
    # keyed by identity: a Game is a frozen dataclass holding lists, so it cannot be a dict key
    game = state.game
    key = id(game)
    found = _SCROLLS.get(key)
    if found is None or found[0]() is not game:
        try:
            ref = weakref.ref(game, lambda _: _SCROLLS.pop(key, None))
        except TypeError:  # a game that cannot be weakly referenced: no memory
            return {}
        found = _SCROLLS[key] = (ref, {})
    return found[1]


def _learn(state, ev: Event) -> None:
    """Remember the scroll of a manifestation that an event names together with its scroll."""
    mid, scroll = getattr(ev, "manifestation", None), getattr(ev, "scroll", None)
    if isinstance(mid, str) and isinstance(scroll, str) and scroll:
        _seen_scrolls(state)[mid] = scroll


_PLAIN: dict = {}


def plain(state, text: str) -> str:
    """`text` (often an engine message, which names things as "Name (id)" and now and then by
    a bare id) with every unit and manifestation id on the battlefield turned into its name
    (`name_of`): ids never reach the screen."""
    if not text:
        return text
    # the names are in the language in use: a switch makes another entry
    key = (language(), tuple(state.units), tuple((k, m.scroll) for k, m in state.manifestations.items()))
    found = _PLAIN.get(key)
    if found is None:
        if len(_PLAIN) > 64:
            _PLAIN.clear()
        names: dict[str, str] = {}
        for k in (*state.units, *state.manifestations):
            raw = (
                state.units[k].name
                if k in state.units
                else state.game.content.manifestations[state.manifestations[k].scroll].name
            )
            names[f"{raw} ({k})"] = names[f"{raw} [{k}]"] = names[k] = name_of(state, k)
        alt = "|".join(re.escape(w) for w in sorted(names, key=len, reverse=True))
        found = _PLAIN[key] = (re.compile(rf"(?<![\w-])(?:{alt})(?![\w-])"), names) if names else (None, names)
    pat, names = found
    return pat.sub(lambda mt: names[mt.group(0)], text) if pat is not None else text


def _gone(state, ev: Event) -> str:
    """A manifestation's name from the event's scroll when it has left the battlefield since."""
    if ev.manifestation in state.manifestations or not getattr(ev, "scroll", ""):
        return name_of(state, ev.manifestation)
    scroll = state.game.content.manifestations.get(ev.scroll)
    return cn(scroll.name) if scroll else _("a manifestation")


def _humanise(word: str) -> str:
    out = ""
    for ch in word:
        if ch.isupper() and out:
            out += " "
        out += ch
    return out.replace("_", " ").strip().capitalize()


def pct(p: float) -> str:
    return f"{p * 100:.0f}%" if 0.005 < p < 0.995 or p in (0.0, 1.0) else f"{p * 100:.1f}%"


def unbinder_in_range(state, player: int, unit: str, model: int) -> bool:
    """M6: does the opponent have a WIZARD with an unbind left within 30" of this caster?"""
    from game.rules.query import unbinders

    try:
        return bool(unbinders(state, 3 - player, unit, model))
    except Exception:
        return False


@dataclass(frozen=True)
class OptionLabel:
    text: str  # the button's label
    odds: str = ""  # exact odds, when the action rolls dice
    tip: str = ""  # longer help


def _with_notes(state, label: OptionLabel, ability: str, action) -> OptionLabel:
    """The engine's word on what the ability would do to this target (query.effect_notes): a
    useless target is flagged "no effect" on the button before the player commits."""
    notes = query.effect_notes(state, ability, action.unit, action.target)
    if not notes:
        return label
    useless = notes[0].startswith("no effect")
    text = f"{label.text} (no effect)" if useless else label.text
    return OptionLabel(text, f"{label.odds}; {'; '.join(notes)}" if label.odds else "; ".join(notes), label.tip)


def describe(state, action: Action, decision=None) -> OptionLabel:
    """The label, odds and help for one action, in the player's language."""
    from game.ui.phase_words import phase_noun

    t = action.type
    g = state.game
    if t == "EndPhase":
        if state.stage == "deployment":
            return OptionLabel(_("End deployment"), tip=_("Finish setting up this army (R2)"))
        return OptionLabel(_t(N_("End {phase}"), phase=phase_noun(state.phase)), tip=_("Shortcut: E"))
    if t == "ChooseTurnOrder":
        template = (
            N_("I go first (player {n})") if action.first == action.player else N_("Opponent goes first (player {n})")
        )
        return OptionLabel(
            _t(template, n=action.first), tip=_("The priority winner picks who takes the first turn (R2)")
        )
    if t == "CastSpell":
        sp = g.content.abilities[action.spell]
        target = f" -> {name_of(state, action.target)}" if action.target else ""
        unb = unbinder_in_range(state, action.player, action.unit, action.model)
        lands = query.odds.lands_chance(sp.value, unb)
        o = _t(
            N_("cast {cast}, lands {lands} (unbinder in range)")
            if unb
            else N_("cast {cast}, lands {lands} (no unbinder)"),
            cast=pct(query.odds.cast_chance(sp.value)),
            lands=pct(lands),
        )
        label = OptionLabel(f"{cn(sp.name)} ({sp.value}+){target}", o, cn(sp.text))
        return _with_notes(state, label, action.spell, action)
    if t == "ChantPrayer":
        pr = g.content.abilities[action.prayer]
        pts = state.units[action.unit].ritual_points
        target = f" -> {name_of(state, action.target)}" if action.target else ""
        o = _t(
            N_("answered now {now} ({pts} ritual pts); fail on 1: {fail}"),
            now=pct(query.odds.prayer_chance(pr.value, pts)),
            pts=pts,
            fail=pct(query.odds.prayer_fail_chance()),
        )
        label = OptionLabel(f"{cn(pr.name)} ({pr.value}+){target}", o, cn(pr.text))
        return _with_notes(state, label, action.prayer, action)
    if t == "Banish":
        from game.rules.query import banish_bonus

        m = state.manifestations[action.manifestation]
        scroll = g.content.manifestations[m.scroll]
        bonus = banish_bonus(state, action.player, action.manifestation)
        o = _t(
            N_("banish {chance} (2D6+{bonus} >= {value})"),
            chance=pct(query.odds.banish_chance(scroll.banishment, bonus)),
            bonus=bonus,
            value=scroll.banishment,
        )
        return OptionLabel(_t(N_("Banish {name}"), name=name_of(state, action.manifestation)), o, "M12")
    if t == "Dispel":
        from game.rules.query import summoning_value

        m = state.manifestations[action.manifestation]
        v = summoning_value(state, m.scroll)
        o = _t(N_("dispel {chance} (2D6 > {value})"), chance=pct(query.odds.dispel_chance(v)), value=v)
        label = _t(
            N_("Dispel {name} with {unit}"), name=name_of(state, action.manifestation), unit=name_of(state, action.unit)
        )
        return OptionLabel(label, o, "E3")
    if t == "PassDispel":
        return OptionLabel(_("Pass: no more dispels"), tip="E3")
    if t == "Unbind":
        roll = decision.data.get("roll") if decision is not None else None
        o = (
            _t(N_("unbind {chance} (2D6 > {roll})"), chance=pct(query.odds.unbind_chance(roll)), roll=roll)
            if roll is not None
            else ""
        )
        dist = None
        try:
            from game.geometry.measure import distance
            from game.rules.query import model_circle

            d = decision.data
            dist = distance(
                model_circle(state, action.unit, action.model), model_circle(state, d["caster"], d["model"])
            )
        except Exception:
            pass
        n = len(state.units[action.unit].models)
        who = name_of(state, action.unit)
        if n > 1:
            who = _t(N_("{unit} model {n}"), unit=who, n=action.model + 1)
        if dist is not None:
            label = _t(N_('Unbind with {unit}, {d}" away'), unit=who, d=f"{dist:.1f}")
        else:
            label = _t(N_("Unbind with {unit}"), unit=who)
        return OptionLabel(label, o, "M6")
    if t == "DeclineUnbind":
        return OptionLabel(_("Let it through"), tip=_("Make no unbind attempt (M6)"))
    if t in ("BankRitual", "SpendRitual") and decision is not None:
        d = decision.data
        roll, pts = d.get("roll", 0), d.get("ritual_points", 0)
        pr = g.content.abilities.get(d.get("prayer", ""))
        if t == "BankRitual":
            return OptionLabel(
                _t(N_("Bank {roll}: ritual points {pts} -> {after}"), roll=roll, pts=pts, after=pts + roll),
                _("the prayer has no effect"),
                "M5",
            )
        if pr is not None:
            total = roll + pts
            ok = total >= pr.value
            return OptionLabel(
                _t(N_("Spend: {roll} + {pts} = {total} vs {value}"), roll=roll, pts=pts, total=total, value=pr.value),
                _("answered: points reset to 0") if ok else _("fails: points kept"),
                "M5",
            )
    if t == "PlaceManifestation":
        return OptionLabel(_t(N_('Set up at ({x}", {y}")'), x=f"{action.x:.1f}", y=f"{action.y:.1f}"))
    # generic: type name and fields, ids as names
    parts = []
    for f in fields(action):
        if f.name in ("player", "type"):
            continue
        v = getattr(action, f.name)
        if isinstance(v, float):
            v = f"{v:.1f}"
        elif isinstance(v, (list, tuple)) and len(v) > 3:
            v = f"{len(v)} points"
        parts.append(f"{f.name.replace('_', ' ')} {name_of(state, v)}")
    label = _humanise(t) + (": " + ", ".join(parts) if parts else "")
    return OptionLabel(label)


# --- events -------------------------------------------------------------------------------


def _t(msgid: str, **fields: Any) -> str:
    """`msgid` in the language in use, its named fields filled in."""
    return _(msgid).format(**fields)


def _cap(text: str) -> str:
    """The first letter in capitals (English sentences; Korean and Japanese have none)."""
    return text[:1].upper() + text[1:]


# The engine's phase names in words, lower case (a sentence capitalises them): game.i18n's, and
# the deployment stage.
PHASE_WORDS = {**i18n_phase_words, "deployment": N_("deployment")}


def phase_word(phase: str) -> str:
    """A phase's name in words ("end of turn"), translated."""
    word = PHASE_WORDS.get(phase)
    return _(word) if word is not None else phase.replace("_", " ")


# Effect handlers and buff kinds (game.rules.effects) in words, as the log names them.
EFFECT_WORDS = {
    "heal": N_("Heal"),
    "hit_debuff": N_("Hit debuff"),
    "mortal_damage": N_("Mortal damage"),
    "mortal_damage_on_roll": N_("Mortal damage on roll"),
    "move_debuff": N_("Move debuff"),
    "save_buff": N_("Save buff"),
    "summon": N_("Summon"),
    "ward_buff": N_("Ward buff"),
}


def _effect_word(kind: str) -> str:
    word = EFFECT_WORDS.get(kind)
    return _(word) if word is not None else _humanise(kind)


# Move kinds (UnitMoved.kind) in words: "makes a pile-in move"
MOVE_WORDS = {
    "normal": N_("{unit} makes a normal move of {distance}\""),
    "run": N_("{unit} makes a run move of {distance}\""),
    "retreat": N_("{unit} makes a retreat move of {distance}\""),
    "charge": N_("{unit} makes a charge move of {distance}\""),
    "pile_in": N_("{unit} makes a pile-in move of {distance}\""),
}

RITUAL_WORDS = {
    "lost": N_("{unit} lost ritual points ({change}): now {points}"),
    "banked": N_("{unit} banked ritual points ({change}): now {points}"),
    "spent": N_("{unit} spent ritual points ({change}): now {points}"),
}

# The engine's reasons (game ended, points scored, a charge or a summoning failed), as templates
# read back out of its English: the events keep the engine's words, the log shows the player's.
_REASONS: list[tuple[re.Pattern[str], str]] = [
    (re.compile(r"all (?P<n>\d+) battle rounds played"), N_("all {n} battle rounds played")),
    (re.compile(r"player (?P<player>\d+)'s army was wiped out"), N_("player {player}'s army was wiped out")),
    (re.compile(r"(?P<n>\d+) objectives held"), N_("{n} objectives held")),
    (re.compile(r"more objectives than the opponent"), N_("more objectives than the opponent")),
    (re.compile(r"slew the enemy general"), N_("slew the enemy general")),
    (re.compile(r"no charge move made"), N_("no charge move made")),
    (re.compile(r"no legal set-up exists"), N_("no legal set-up exists")),
    (
        re.compile(r"would overlap a base of (?P<unit>.+) \((?P<id>[^()]+)\) \(E9\)"),
        N_("would overlap a base of {unit} (E9)"),
    ),
    (
        re.compile(r"would overlap impassable terrain '(?P<terrain>.+)' \(E9\)"),
        N_("would overlap impassable terrain {terrain} (E9)"),
    ),
    (re.compile(r"would overlap (?P<unit>.+) \(E9\)"), N_("would overlap {unit} (E9)")),
]


def reason_words(state, reason: str) -> str:
    """An engine reason in the language in use (names as names); unknown reasons as they are."""
    if language() != "en":
        for pat, template in _REASONS:
            if mt := pat.fullmatch(reason):
                kw = {k: v for k, v in mt.groupdict().items() if k != "id"}
                if "unit" in kw and mt.groupdict().get("id"):
                    kw["unit"] = name_of(state, mt["id"])
                return _t(template, **kw)
    return reason


# DamageDealt.source when no ability dealt it: the step of the turn that did
SOURCE_WORDS = {
    "shooting": N_("shooting"),
    "combat": N_("combat"),
    "retreat": N_("retreat"),
    "miscast": N_("miscast"),
}


def _source(state, source: Any) -> str:
    word = SOURCE_WORDS.get(source) if isinstance(source, str) else None
    return _(word) if word is not None else name_of(state, source)


_CAST_LOG = {"succeeded": N_("cast"), "failed": N_("fails"), "miscast": N_("MISCAST")}


def event_line(state, ev: Event) -> str:
    """The log's sentence for one event: names and words, never ids."""
    _learn(state, ev)
    return plain(state, _event_line(state, ev))


def _event_line(state, ev: Event) -> str:
    t = ev.type
    n = lambda x: name_of(state, x)  # noqa: E731
    g = state.game
    if t == "DiceRolled":
        return _t(
            N_("rolled {dice} for {purpose}"),
            dice=", ".join(map(str, ev.dice)),
            purpose=purpose_words(state, ev.purpose),
        )
    if t == "RoundStarted":
        return _t(N_("Battle round {round} begins"), round=ev.round)
    if t == "PriorityWon":
        return _t(
            N_("Priority roll-off {a} vs {b}: player {winner} chooses"), a=ev.rolls[0], b=ev.rolls[1], winner=ev.winner
        )
    if t == "TurnOrderChosen":
        return _t(N_("Player {chooser} chose player {first} to go first"), chooser=ev.chooser, first=ev.first)
    if t == "TurnStarted":
        return _t(N_("Player {player}'s turn (round {round})"), player=ev.player, round=ev.round)
    if t == "PhaseStarted":
        return _t(N_("{phase} phase (player {player})"), phase=_cap(phase_word(ev.phase)), player=ev.player)
    if t == "PhaseEnded":
        return _t(N_("{phase} phase ends"), phase=_cap(phase_word(ev.phase)))
    if t == "GameEnded":
        reason, a, b = reason_words(state, ev.reason), ev.score[0], ev.score[1]
        if ev.winner:
            return _t(
                N_("Game over: player {winner} wins ({reason}), {a}-{b}"), winner=ev.winner, reason=reason, a=a, b=b
            )
        return _t(N_("Game over: a draw ({reason}), {a}-{b}"), reason=reason, a=a, b=b)
    if t == "CastAttempted":
        word = _CAST_LOG.get(ev.outcome)
        return _t(
            N_("{unit} casts {spell}: {roll} vs {value}: {outcome}"),
            unit=n(ev.unit),
            spell=n(ev.spell),
            roll=ev.roll,
            value=ev.value,
            outcome=_(word) if word else ev.outcome,
        )
    if t == "Miscast":
        return _t(
            N_("{unit} miscasts {spell}: {damage} mortal damage"), unit=n(ev.unit), spell=n(ev.spell), damage=ev.damage
        )
    if t == "UnbindAttempted":
        kw = dict(unit=n(ev.unit), spell=n(ev.spell), roll=ev.roll, casting_roll=ev.casting_roll)
        if ev.unbound:
            return _t(N_("{unit} tries to unbind {spell}: {roll} vs {casting_roll}: unbound"), **kw)
        return _t(N_("{unit} tries to unbind {spell}: {roll} vs {casting_roll}: fails"), **kw)
    if t == "UnbindDeclined":
        return _t(N_("Player {player} lets {spell} through"), player=ev.player, spell=n(ev.spell))
    if t == "SpellCast":
        if ev.target:
            return _t(N_("{spell} takes effect on {target}"), spell=n(ev.spell), target=n(ev.target))
        return _t(N_("{spell} takes effect"), spell=n(ev.spell))
    if t == "PrayerChanted":
        return _t(N_("{unit} chants {prayer}: rolled {roll}"), unit=n(ev.unit), prayer=n(ev.prayer), roll=ev.roll)
    if t == "RitualPoints":
        kw = dict(unit=n(ev.unit), change=f"{ev.change:+d}", points=ev.points)
        template = RITUAL_WORDS.get(ev.how)
        if template is not None:
            return _t(template, **kw)
        return _t(N_("{unit} {how} ritual points ({change}): now {points}"), how=ev.how, **kw)
    if t == "PrayerResolved":
        kw = dict(prayer=n(ev.prayer), roll=ev.roll, points=ev.ritual_points, value=ev.value)
        if ev.answered:
            return _t(N_("{prayer}: {roll} + {points} vs {value}: answered"), **kw)
        return _t(N_("{prayer}: {roll} + {points} vs {value}: unanswered"), **kw)
    if t == "EffectApplied":
        return _t(
            N_("{effect} {value} on {target} ({source})"),
            effect=_effect_word(ev.effect),
            value=ev.value,
            target=n(ev.target),
            source=n(ev.source),
        )
    if t == "ManifestationSummoned":
        return _t(
            N_("{name} set up at ({x}, {y}) by {summoner}"),
            name=cn(g.content.manifestations[ev.scroll].name),
            x=f"{ev.x:.1f}",
            y=f"{ev.y:.1f}",
            summoner=n(ev.summoner),
        )
    if t == "SummonFailed":
        return _t(
            N_("Summoning {name} failed: {reason}"),
            name=cn(g.content.manifestations[ev.scroll].name),
            reason=reason_words(state, ev.reason),
        )
    if t == "BanishAttempted":
        kw = dict(unit=n(ev.unit), name=_gone(state, ev), total=ev.dice_total, bonus=ev.bonus, value=ev.value)
        if ev.banished:
            return _t(N_("{unit} banishes {name}: {total}+{bonus} vs {value}: banished"), **kw)
        return _t(N_("{unit} banishes {name}: {total}+{bonus} vs {value}: fails"), **kw)
    if t == "DispelAttempted":
        kw = dict(unit=n(ev.unit), name=_gone(state, ev), roll=ev.roll, value=ev.value)
        if ev.dispelled:
            return _t(N_("{unit} dispels {name}: {roll} vs {value}: dispelled"), **kw)
        return _t(N_("{unit} dispels {name}: {roll} vs {value}: fails"), **kw)
    if t == "ManifestationRemoved":
        why = _REMOVED.get(ev.reason)
        why_text = _(why) if why is not None else ev.reason.replace("_", " ")
        if ev.scroll in g.content.manifestations:
            return _t(N_("{name} is removed: {why}"), name=cn(g.content.manifestations[ev.scroll].name), why=why_text)
        return _t(N_("A manifestation is removed: {why}"), why=why_text)
    if t == "DamageDealt":
        kw = dict(unit=n(ev.unit), amount=ev.amount, source=_source(state, ev.source))
        if ev.mortal:
            return _t(N_("{unit} takes {amount} mortal damage ({source})"), **kw)
        return _t(N_("{unit} takes {amount} damage ({source})"), **kw)
    if t == "ModelSlain":
        return _t(N_("A model of {unit} is slain"), unit=n(ev.unit))
    if t == "UnitDestroyed":
        return _t(N_("{unit} is destroyed"), unit=n(ev.unit))
    line = _BATTLE_LINES.get(t)
    if line is not None:
        return line(state, ev, n)
    parts = []
    for f in fields(ev):
        if f.name in ("rule", "type"):
            continue
        v = getattr(ev, f.name)
        if isinstance(v, float):
            v = f"{v:.1f}"
        elif isinstance(v, (list, tuple)) and len(v) > 4:
            v = f"{len(v)} points"
        parts.append(f"{f.name.replace('_', ' ')} {name_of(state, v)}")
    return _humanise(t) + (": " + ", ".join(parts) if parts else "")


_REMOVED = {
    "banished": N_("banished"),
    "dispelled": N_("dispelled"),
    "destroyed": N_("destroyed"),
    "severed": N_("the unit that summoned it is slain"),
    "edge": N_("it left the battlefield"),
    "warscroll": N_("its warscroll says so"),
}

_WILD_REASONS = {
    "out_of_range": N_("not wholly within {range}\" of the model that summoned it"),
    "no_summoner": N_("the unit that summoned it is gone"),
    "summoner_slain": N_("the model that summoned it is slain (E5)"),
    "chose_another": N_("its wizard controls another one"),
}


def _retreat(state, ev, n) -> str:
    if ev.damage:
        return _t(N_("{unit} retreats from combat, taking {damage} mortal damage"), unit=n(ev.unit), damage=ev.damage)
    return _t(N_("{unit} retreats from combat"), unit=n(ev.unit))


def _attacks(state, ev, n) -> str:
    kw = dict(
        unit=n(ev.unit),
        target=n(ev.target),
        attacks=ev.attacks,
        hits=ev.hits,
        wounds=ev.wounds,
        unsaved=ev.unsaved,
        damage=ev.damage,
        mortal=ev.mortal,
    )
    if ev.kind == "shooting":
        if ev.mortal:
            return _t(
                N_(
                    "{unit} shoots {target}: {attacks} attacks, {hits} hit, {wounds} wound, {unsaved} unsaved: "
                    "{damage} damage + {mortal} mortal"
                ),
                **kw,
            )
        return _t(
            N_(
                "{unit} shoots {target}: {attacks} attacks, {hits} hit, {wounds} wound, {unsaved} unsaved: "
                "{damage} damage"
            ),
            **kw,
        )
    if ev.mortal:
        return _t(
            N_(
                "{unit} fights {target}: {attacks} attacks, {hits} hit, {wounds} wound, {unsaved} unsaved: "
                "{damage} damage + {mortal} mortal"
            ),
            **kw,
        )
    return _t(
        N_("{unit} fights {target}: {attacks} attacks, {hits} hit, {wounds} wound, {unsaved} unsaved: {damage} damage"),
        **kw,
    )


def no_save_words(state, ev) -> str:
    """R3: why no save was rolled ("Reed-Witch: no save: 7+ after rend 2; 3 of 3 unsaved")."""
    unsaved = _of_unsaved(ev.wounds, ev.wounds)
    if ev.save > 6:
        return _t(N_("{unit}: no save; {unsaved}"), unit=name_of(state, ev.target), unsaved=unsaved)
    return _t(
        N_("{unit}: no save: {need}+ after rend {rend}; {unsaved}"),
        unit=name_of(state, ev.target),
        need=ev.need,
        rend=ev.rend,
        unsaved=unsaved,
    )


def _objective(state, ev, n) -> str:
    o = state.game.battlefield.map.objectives[ev.objective]
    kw = dict(objective=cn(o.name), a=ev.scores[0], b=ev.scores[1])
    if ev.player:
        return _t(N_("{objective}: held by player {player} (control {a} to {b})"), player=ev.player, **kw)
    return _t(N_("{objective}: held by nobody (control {a} to {b})"), **kw)


def _predatory_began(state, ev, n) -> str:
    if not ev.manifestations:
        return _("No predatory manifestations to move")
    return _t(N_("Predatory manifestations move: {names}"), names=", ".join(n(m) for m in ev.manifestations))


def _predatory_moved(state, ev, n) -> str:
    _learn(state, ev)
    if ev.distance <= 0:
        if ev.reason:
            return _t(
                N_("{name} stays where it is: {reason}"),
                name=n(ev.manifestation),
                reason=reason_words(state, ev.reason),
            )
        return _t(N_("{name} stays where it is"), name=n(ev.manifestation))
    kw = dict(
        name=n(ev.manifestation), distance=f"{ev.distance:.1f}", measured=f"{ev.measured:.1f}", reach=f"{ev.reach:g}"
    )
    if ev.passed_across:
        return _t(
            N_("{name} moves {distance}\" to a point {measured}\" from it (reach {reach}\"), across {units}"),
            units=", ".join(n(u) for u in ev.passed_across),
            **kw,
        )
    return _t(N_("{name} moves {distance}\" to a point {measured}\" from it (reach {reach}\")"), **kw)


def _wild(state, ev, n) -> str:
    template = _WILD_REASONS.get(ev.reason)
    why = (
        _t(template, range=f"{state.game.profile.control_range:g}")
        if template is not None
        else ev.reason.replace("_", " ")
    )
    return _t(N_("{name} is wild: {why}"), name=n(ev.manifestation), why=why)


def _moved(state, ev, n) -> str:
    template = MOVE_WORDS.get(ev.kind)
    kw = dict(unit=n(ev.unit), distance=f"{ev.distance:.1f}")
    if template is not None:
        return _t(template, **kw)
    return _t(N_("{unit} makes a {kind} move of {distance}\""), kind=ev.kind.replace("_", "-"), **kw)


def _points(state, ev, n) -> str:
    return _t(
        N_("Player {player} scores {points} VP ({reason}): {a}-{b}"),
        player=ev.player,
        points=ev.points,
        reason=reason_words(state, ev.reason),
        a=ev.score[0],
        b=ev.score[1],
    )


# Lines for movement, charges, fights, scoring and the predatory procedure (E6-E9), by event type.
_BATTLE_LINES: dict[str, Callable[[Any, Event, Callable[[Any], str]], str]] = {
    "UnitDeployed": lambda state, ev, n: _t(N_("{unit} deployed"), unit=n(ev.unit)),
    "UnitMoved": _moved,
    "RunDeclared": lambda state, ev, n: _t(N_("{unit} runs: +{extra}\" to its move"), unit=n(ev.unit), extra=ev.extra),
    "RetreatDeclared": _retreat,
    "ChargeRolled": lambda state, ev, n: _t(N_("{unit} rolls {roll}\" to charge"), unit=n(ev.unit), roll=ev.roll),
    "ChargeFailed": lambda state, ev, n: _t(
        N_("{unit}'s charge fails: {reason}"), unit=n(ev.unit), reason=reason_words(state, ev.reason)
    ),
    "FightPassed": lambda state, ev, n: _t(N_("Player {player} has no more units to fight with"), player=ev.player),
    "AttacksResolved": _attacks,
    "SavesNotRolled": lambda state, ev, n: no_save_words(state, ev),
    "BuffExpired": lambda state, ev, n: _t(
        N_("{kind} on {unit} ({source}) expires"), kind=_effect_word(ev.kind), unit=n(ev.unit), source=n(ev.source)
    ),
    "ObjectiveControlled": _objective,
    "VictoryPoints": _points,
    "DispelPassed": lambda state, ev, n: _t(N_("Player {player} dispels nothing this hero phase"), player=ev.player),
    "ManifestationDamaged": lambda state, ev, n: _t(
        N_("{name} takes {amount} damage ({source})"),
        name=n(ev.manifestation),
        amount=ev.amount,
        source=_source(state, ev.source),
    ),
    "PredatoryMovesBegan": _predatory_began,
    "ManifestationControlled": lambda state, ev, n: _t(
        N_("{name} is controlled by {unit} (player {player})"),
        name=n(ev.manifestation),
        unit=n(ev.unit),
        player=ev.player,
    ),
    "ManifestationWild": _wild,
    "CommandTaken": lambda state, ev, n: _t(
        N_("Player {player} commands {name}"), player=ev.player, name=n(ev.manifestation)
    ),
    "PredatoryPassed": lambda state, ev, n: _t(N_("Player {player} has nothing left to move"), player=ev.player),
    "ManifestationMoved": _predatory_moved,
    "PredatoryMovesEnded": lambda state, ev, n: _t(N_("Predatory moves end ({n} moved)"), n=len(ev.moved)),
}


# --- roll purposes in words -----------------------------------------------------------------

# The engine names each roll's purpose (game.rules: attacks, damage, removal, effects); these read
# the target numbers back out of them, so the tray can say what each die needed.
_HIT = re.compile(r"(?P<w>.+) hit rolls \((?P<hit>\d+)\+(?P<mod>[+-]\d+)\)")
_WOUND = re.compile(r"(?P<w>.+) wound rolls \((?P<wound>\d+)\+\)")
_SAVE = re.compile(r"save rolls \((?P<need>-?\d+)\+ after rend (?P<rend>-?\d+)\)")
_WARD = re.compile(r"ward (?P<ward>\d+)\+ for (?P<who>.+)")
_REMOVAL = re.compile(r"(?P<name>.+) \((?P<mid>[^()]+)\) removal: (?P<value>\d+) or less")
_ON_ROLL = re.compile(r"(?P<ab>[a-z0-9_]+) on (?P<on>\d+)\+")
_AMOUNT = re.compile(r"(?P<what>.+) (?P<kind>damage|healing|attacks)")
_ID = re.compile(r"\b[a-z][a-z0-9]*(?:_[a-z0-9]+)+\b")


def _hit_words(hit: str, mod: str) -> str:
    m = int(mod)
    if m:
        return _t(N_("{hit}+ ({mod} to hit)"), hit=hit, mod=f"{m:+d}")
    return f"{hit}+"


def _content_words(state, text: str) -> str:
    """Content ids (ability and manifestation ids) in `text` as their names."""
    return _ID.sub(lambda mt: name_of(state, mt.group(0)), text)


# The other purposes the engine gives its rolls (game.rules: state.roll and roll_expr), as
# templates read back out of its English (the events keep the engine's words).
_PURPOSES: list[tuple[re.Pattern[str], str]] = [
    (re.compile(r"banishment \(need (?P<value>\d+), \+(?P<bonus>\d+)\)"), N_("banishment (need {value}, +{bonus})")),
    (re.compile(r"dispelling \(beat (?P<value>\d+)\)"), N_("dispelling (beat {value})")),
    (re.compile(r"casting (?P<spell>.+) \((?P<value>\d+)\+\)"), N_("casting {spell} ({value}+)")),
    (re.compile(r"miscast damage \(D3\)"), N_("miscast damage (D3)")),
    (re.compile(r"unbinding \(beat (?P<value>\d+)\)"), N_("unbinding (beat {value})")),
    (re.compile(r"charge roll \(2D6\)"), N_("charge roll (2D6)")),
    (re.compile(r"priority roll-off \(player 1, player 2\)"), N_("priority roll-off (player 1, player 2)")),
    (re.compile(r"run \(D6\)"), N_("run (D6)")),
    (re.compile(r"retreat damage \(D3\)"), N_("retreat damage (D3)")),
    (re.compile(r"chanting (?P<prayer>.+) \((?P<value>\d+)\+\)"), N_("chanting {prayer} ({value}+)")),
    (re.compile(r"ritual points lost \(D3\)"), N_("ritual points lost (D3)")),
]
_AMOUNT_WORDS = {"damage": N_("{what} damage"), "healing": N_("{what} healing"), "attacks": N_("{what} attacks")}


def purpose_words(state, purpose: str) -> str:
    """A roll's purpose as a player reads it: names, not ids; "4+ (-1 to hit)", not "(4+-1)"."""
    if mt := _HIT.fullmatch(purpose):
        return _t(N_("{weapon} hit rolls, {hit}"), weapon=cn(mt["w"]), hit=_hit_words(mt["hit"], mt["mod"]))
    if mt := _WOUND.fullmatch(purpose):
        return _t(N_("{weapon} wound rolls, {wound}+"), weapon=cn(mt["w"]), wound=mt["wound"])
    if mt := _SAVE.fullmatch(purpose):
        return _t(N_("save rolls, {need}+ after rend {rend}"), need=mt["need"], rend=mt["rend"])
    if mt := _WARD.fullmatch(purpose):
        return _t(N_("ward rolls, {ward}+, for {unit}"), ward=mt["ward"], unit=cn(mt["who"]))
    if mt := _REMOVAL.fullmatch(purpose):
        return _t(
            N_("{name} removal roll (removed on {value} or less)"), name=_removal_name(state, mt), value=mt["value"]
        )
    if mt := _ON_ROLL.fullmatch(purpose):
        return _t(N_("{ability} on {on}+"), ability=name_of(state, mt["ab"]), on=mt["on"])
    if language() != "en":
        for pat, template in _PURPOSES:
            if mt := pat.fullmatch(purpose):
                found = {k: cn(v) if k in ("spell", "prayer") else v for k, v in mt.groupdict().items()}
                return plain(state, _t(template, **found))
        if mt := _AMOUNT.fullmatch(purpose):
            what = plain(state, cn(_content_words(state, mt["what"])))  # a weapon's name, too
            return _t(_AMOUNT_WORDS[mt["kind"]], what=what)
    return plain(state, _content_words(state, purpose))


def _removal_name(state, mt: re.Match) -> str:
    mid = mt["mid"]
    return name_of(state, mid) if mid in state.manifestations else cn(mt["name"])


# --- the dice tray --------------------------------------------------------------------------


@dataclass(frozen=True)
class TrayEntry:
    dice: tuple[int, ...]
    text: str  # e.g. "casting 6+1 = 7 >= 7: cast"
    good: bool | None  # for the acting player: success, failure or neutral
    rule: str = ""
    # per die, in order: True when that die passed its roll, False when it failed (the engine's
    # per-die rules, game.rules.odds through query.odds); empty when the dice count as a total
    marks: tuple[bool, ...] = field(default=())

    @property
    def passed(self) -> int:
        return sum(self.marks)

    @property
    def folded(self) -> str:
        """The entry's dice in a few words, for a row too narrow to show them all."""
        n = len(self.dice)
        dice = ngettext("{n} die", "{n} dice", n).format(n=n)
        return _t(N_("{dice}: {passed} pass"), dice=dice, passed=self.passed) if self.marks else dice


def _sum(d: tuple[int, ...]) -> str:
    return "+".join(map(str, d))


# "{n} of {total} hit", "all {n} hit": the count and its verb in one string per language (word
# order: Korean and Japanese put the verb last and "all" after the number).
_OF_WORDS = {
    "hit": (N_("{k} of {n} hit on {need}"), N_("all {n} hit on {need}")),
    "wound": (N_("{k} of {n} wound on {need}+"), N_("all {n} wound on {need}+")),
    "save": (N_("saves {k} of {n} on {need}+"), N_("saves all {n} on {need}+")),
    "ward": (N_("ward {need}+ stops {k} of {n}"), N_("ward {need}+ stops all {n}")),
}


def _of_words(what: str, k: int, n: int, need: Any) -> str:
    some, every = _OF_WORDS[what]
    if k == n and n > 1:
        return _t(every, n=n, need=need)
    return _t(some, k=k, n=n, need=need)


def _of_unsaved(k: int, n: int) -> str:
    if k == n and n > 1:
        return ngettext("all {n} unsaved", "all {n} unsaved", n).format(n=n)
    return ngettext("{k} of {n} unsaved", "{k} of {n} unsaved", n).format(k=k, n=n)


def _attacks_after(evs: list[Event], i: int) -> Event | None:
    """The AttacksResolved that closes the attack sequence a roll at `i` belongs to (R3)."""
    for ev in evs[i + 1 :]:
        if ev.type == "AttacksResolved":
            return ev
        if ev.type not in (
            "DiceRolled",
            "SavesNotRolled",
            "DamageDealt",
            "ModelSlain",
            "UnitDestroyed",
            "ManifestationDamaged",
            "ManifestationRemoved",
        ):
            return None
    return None


_CRIT_WORDS = {"mortal": N_("mortal damage"), "auto_wound": N_("auto-wound"), "two_hits": N_("2 hits each")}


def _crit_of(state, closing: Event | None, weapon: str) -> str:
    """What a critical hit does for the attacker's weapon of this name ("" when nothing extra)."""
    if closing is None:
        return ""
    g = state.game
    who = closing.unit
    if who in state.units:
        weapons = g.warscroll(state.units[who].warscroll).weapons
    elif who in state.manifestations:
        weapons = g.content.manifestations[state.manifestations[who].scroll].weapons
    else:
        return ""
    w = next((w for w in weapons if w.name == weapon), None)
    return query.odds.strike_of(w).crit if w is not None else ""


def _per_die(state, evs: list[Event], i: int) -> TrayEntry | None:
    """Hit, wound, save and ward rolls: each die marked pass or fail by the engine's rule (R3)."""
    ev = evs[i]
    d = ev.dice
    o = query.odds
    n = len(d)
    if mt := _HIT.fullmatch(ev.purpose):
        hit, mod = int(mt["hit"]), int(mt["mod"])
        marks = tuple(o.hit_roll_hits(x, hit, mod) for x in d)
        crit = sum(1 for x, ok in zip(d, marks) if ok and o.critical_hit(x))
        effect = _CRIT_WORDS.get(_crit_of(state, _attacks_after(evs, i), mt["w"]), "")
        sixes = (
            " " + ngettext("({n} six: {effect})", "({n} sixes: {effect})", crit).format(n=crit, effect=_(effect))
            if crit and effect
            else ""
        )
        text = _t(
            N_("{weapon}: {count}{sixes}"),
            weapon=cn(mt["w"]),
            count=_of_words("hit", sum(marks), n, _hit_words(mt["hit"], mt["mod"])),
            sixes=sixes,
        )
        return TrayEntry(d, text, None, ev.rule, marks)
    if mt := _WOUND.fullmatch(ev.purpose):
        marks = tuple(o.wound_roll_wounds(x, int(mt["wound"])) for x in d)
        text = _t(N_("{weapon}: {count}"), weapon=cn(mt["w"]), count=_of_words("wound", sum(marks), n, mt["wound"]))
        return TrayEntry(d, text, None, ev.rule, marks)
    if mt := _SAVE.fullmatch(ev.purpose):
        need, rend = int(mt["need"]), int(mt["rend"])
        # `need` already folds in rend and save buffs, so it is tested against a bare save
        marks = tuple(not o.save_roll_fails(x, need, 0, 0) for x in d)
        closing = _attacks_after(evs, i)
        # saves that no die can pass are not rolled (SavesNotRolled, R3)
        text = _of_words("save", sum(marks), n, need)
        if rend:
            text = _t(N_("{saves} (rend {rend})"), saves=text, rend=rend)
        if closing is not None:
            text = _t(N_("{unit} {saves}"), unit=name_of(state, closing.target), saves=text)
        return TrayEntry(d, text, None, ev.rule, marks)
    if mt := _WARD.fullmatch(ev.purpose):
        marks = tuple(o.ward_roll_stops(x, int(mt["ward"])) for x in d)
        text = _t(N_("{unit}: {count}"), unit=cn(mt["who"]), count=_of_words("ward", sum(marks), n, mt["ward"]))
        return TrayEntry(d, text, None, ev.rule, marks)
    return None


def _by_sequence(state, evs: list[Event], i: int) -> TrayEntry | None:
    """Rolls whose outcome only the events after them tell: removal (E4) and on-a-roll effects."""
    ev = evs[i]
    d = ev.dice
    later = evs[i + 1 :]
    if mt := _REMOVAL.fullmatch(ev.purpose):
        name = _removal_name(state, mt)
        nxt = later[0] if later else None
        if nxt is None:
            text = _t(
                N_("{name} removal roll {dice}: removed on {value} or less"), name=name, dice=_sum(d), value=mt["value"]
            )
            return TrayEntry(d, text, None, ev.rule)
        gone = nxt.type == "ManifestationRemoved" and nxt.manifestation == mt["mid"]
        return TrayEntry(
            d,
            _t(
                N_("{name} removal roll {dice} (removed on {value} or less): removed")
                if gone
                else N_("{name} removal roll {dice} (removed on {value} or less): stays"),
                name=name,
                dice=_sum(d),
                value=mt["value"],
            ),
            None,
            ev.rule,
            (not gone,) if len(d) == 1 else (),
        )
    if mt := _ON_ROLL.fullmatch(ev.purpose):
        name = name_of(state, mt["ab"])
        if not later:
            return TrayEntry(
                d, _t(N_("{ability} on {on}+: rolled {dice}"), ability=name, on=mt["on"], dice=_sum(d)), None, ev.rule
            )
        nxt = later[0]
        # the effect's own record follows at once, with nothing dealt, when the roll failed
        failed = nxt.type == "EffectApplied" and nxt.source == mt["ab"] and not nxt.value
        text = _t(
            N_("{ability} on {on}+: rolled {dice}: no effect")
            if failed
            else N_("{ability} on {on}+: rolled {dice}: it strikes"),
            ability=name,
            on=mt["on"],
            dice=_sum(d),
        )
        return TrayEntry(d, text, not failed, ev.rule, (not failed,) if len(d) == 1 else ())
    return None


_CAST_TRAY = {"succeeded": N_("cast"), "failed": N_("fails"), "miscast": N_("miscast (double 1)")}


def tray_entries(state, events: list[Event]) -> list[TrayEntry]:
    """One entry per roll, with its meaning, read from the typed events that follow it."""
    out: list[TrayEntry] = []
    i = 0
    evs = list(events)
    for ev in evs:
        _learn(state, ev)
    while i < len(evs):
        ev = evs[i]
        nxt = evs[i + 1] if i + 1 < len(evs) else None
        if isinstance(ev, DiceRolled):
            d = ev.dice
            nt = nxt.type if nxt is not None else ""
            entry = _per_die(state, evs, i) or _by_sequence(state, evs, i)
            if entry is not None:
                out.append(entry)
                i += 1
                continue
            if nt == "CastAttempted":
                ok = nxt.outcome == "succeeded"
                word = _(_CAST_TRAY[nxt.outcome]) if nxt.outcome in _CAST_TRAY else nxt.outcome
                cmp = ">=" if nxt.roll >= nxt.value else "<"
                text = _t(
                    N_("casting {dice} = {roll} {cmp} {value}: {outcome}"),
                    dice=_sum(d),
                    roll=nxt.roll,
                    cmp=cmp,
                    value=nxt.value,
                    outcome=word,
                )
                out.append(TrayEntry(d, text, ok, "M3"))
                i += 2
                continue
            if nt == "UnbindAttempted":
                cmp = ">" if nxt.unbound else "<="
                out.append(
                    TrayEntry(
                        d,
                        _t(
                            N_("unbind {dice} = {roll} {cmp} {value}: unbound")
                            if nxt.unbound
                            else N_("unbind {dice} = {roll} {cmp} {value}: not unbound"),
                            dice=_sum(d),
                            roll=nxt.roll,
                            cmp=cmp,
                            value=nxt.casting_roll,
                        ),
                        nxt.unbound,
                        "M6",
                    )
                )
                i += 2
                continue
            if nt == "Miscast":
                out.append(TrayEntry(d, _t(N_("miscast damage D3 = {damage} mortal"), damage=nxt.damage), False, "M3"))
                i += 2
                continue
            if nt == "PrayerChanted":
                ok = nxt.roll >= 2
                out.append(
                    TrayEntry(
                        d,
                        _t(
                            N_("chanting {roll}: bank or spend")
                            if ok
                            else N_("chanting {roll}: fails, lose D3 points"),
                            roll=nxt.roll,
                        ),
                        ok,
                        "M5",
                    )
                )
                i += 2
                continue
            if nt == "BanishAttempted":
                cmp = ">=" if nxt.banished else "<"
                tot = nxt.dice_total + nxt.bonus
                out.append(
                    TrayEntry(
                        d,
                        _t(
                            N_("banish {dice}+{bonus} = {total} {cmp} {value}: banished")
                            if nxt.banished
                            else N_("banish {dice}+{bonus} = {total} {cmp} {value}: stays"),
                            dice=_sum(d),
                            bonus=nxt.bonus,
                            total=tot,
                            cmp=cmp,
                            value=nxt.value,
                        ),
                        nxt.banished,
                        "M12",
                    )
                )
                i += 2
                continue
            if nt == "DispelAttempted":
                cmp = ">" if nxt.dispelled else "<="
                out.append(
                    TrayEntry(
                        d,
                        _t(
                            N_("dispel {dice} = {roll} {cmp} {value}: dispelled")
                            if nxt.dispelled
                            else N_("dispel {dice} = {roll} {cmp} {value}: stays"),
                            dice=_sum(d),
                            roll=nxt.roll,
                            cmp=cmp,
                            value=nxt.value,
                        ),
                        nxt.dispelled,
                        "E3",
                    )
                )
                i += 2
                continue
            if (
                ev.purpose.startswith("priority roll-off")
                and len(d) == 2
                and nt == "DiceRolled"
                and (nxt.purpose == ev.purpose)
            ):
                # R2 [ruling]: a tie is rolled again
                out.append(
                    TrayEntry(d, _t(N_("roll-off P1 {a} vs P2 {b}: tied, rolled again"), a=d[0], b=d[1]), None, "R2")
                )
                i += 1
                continue
            if nt == "PriorityWon":
                out.append(
                    TrayEntry(
                        d,
                        _t(
                            N_("roll-off P1 {a} vs P2 {b}: player {winner} has priority"),
                            a=d[0],
                            b=d[1],
                            winner=nxt.winner,
                        ),
                        None,
                        "R2",
                    )
                )
                i += 2
                continue
            total = f"{_sum(d)} = {sum(d)}" if len(d) > 1 else _sum(d)
            out.append(
                TrayEntry(
                    d,
                    _t(N_("{purpose}: {total}"), purpose=purpose_words(state, ev.purpose), total=total),
                    None,
                    ev.rule,
                )
            )
        elif ev.type == "SavesNotRolled":
            out.append(TrayEntry((), no_save_words(state, ev), None, "R3"))
        elif ev.type == "PrayerResolved":
            tot = ev.roll + ev.ritual_points
            cmp = ">=" if ev.answered else "<"
            out.append(
                TrayEntry(
                    (),
                    _t(
                        N_("spend {roll} + {points} pts = {total} {cmp} {value}: answered")
                        if ev.answered
                        else N_("spend {roll} + {points} pts = {total} {cmp} {value}: fails"),
                        roll=ev.roll,
                        points=ev.ritual_points,
                        total=tot,
                        cmp=cmp,
                        value=ev.value,
                    ),
                    ev.answered,
                    "M5",
                )
            )
        i += 1
    return out


# --- the recap's short forms ---------------------------------------------------------------
# The recap (game.ui.recap) reads most events in the log's own words (event_line); these few
# are long in the log for the record's sake (coordinates, every count) and short here.


def recap_line(state, ev: Event) -> str:
    """An event as the recap after a hand-over or an AI turn says it: the log's line, but for
    a few whose log line carries figures the recap leaves to the log."""
    _learn(state, ev)
    n = lambda x: name_of(state, x)  # noqa: E731
    t = ev.type
    if t == "ManifestationMoved":
        kw = dict(name=n(ev.manifestation), distance=f"{ev.distance:.0f}")
        if ev.passed_across:
            line = _t(
                N_("{name} moved {distance}\" across {units}"), units=", ".join(n(u) for u in ev.passed_across), **kw
            )
        else:
            line = _t(N_("{name} moved {distance}\""), **kw)
        return plain(state, line)
    if t == "AttacksResolved":
        kw = dict(unit=n(ev.unit), target=n(ev.target), damage=damage_words(ev.damage, ev.mortal))
        if ev.kind == "shooting":
            return plain(state, _t(N_("{unit} shot at {target}: {damage}"), **kw))
        return plain(state, _t(N_("{unit} fought {target}: {damage}"), **kw))
    if t == "ManifestationSummoned":
        return plain(
            state,
            _t(
                N_("{summoner} summoned {name}"),
                summoner=n(ev.summoner),
                name=cn(state.game.content.manifestations[ev.scroll].name),
            ),
        )
    if t == "VictoryPoints":
        return _t(
            N_("Player {player} scored {points} VP: {a}-{b}"),
            player=ev.player,
            points=ev.points,
            a=ev.score[0],
            b=ev.score[1],
        )
    return event_line(state, ev)


def damage_words(damage: int, mortal: int = 0) -> str:
    """ "3 damage", "2 mortal damage", "3 damage + 1 mortal": the recap's damage figure."""
    if damage and mortal:
        return _t(N_("{damage} damage + {mortal} mortal"), damage=damage, mortal=mortal)
    return _t(N_("{n} mortal damage"), n=mortal) if mortal else _t(N_("{n} damage"), n=damage)


# --- the AI's explanations ------------------------------------------------------------------


def bot_note(player: int, note: str) -> Reason:
    """The log's line for an AI's explanation, kept language-neutral (translated by note_words)."""
    return Reason(N_("AI (player {player}): {note}"), player=player, note=note)


def note_words(note: str) -> str:
    """A log note (an AI's explanation, a Reason) in the language in use; plain text as it is."""
    return words(note)
