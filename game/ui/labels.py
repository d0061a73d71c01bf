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

from game.rules import Action, DiceRolled, Event, query


def name_of(state, thing: Any) -> str:
    """A unit's or manifestation's name from its id (never the id itself); other values as
    they are. Several manifestations of one warscroll on the battlefield are numbered in the
    order they were set up ("Kiln Golem 2")."""
    if isinstance(thing, str):
        if thing in state.units:
            return state.units[thing].name
        m = state.manifestations.get(thing)
        if m is not None:
            name = state.game.content.manifestations[m.scroll].name
            same = [k for k, o in state.manifestations.items() if o.scroll == m.scroll]
            return f"{name} {same.index(thing) + 1}" if len(same) > 1 else name
        ab = state.game.content.abilities.get(thing)
        if ab is not None:
            return ab.name
        scroll = state.game.content.manifestations.get(thing)
        if scroll is not None:
            return scroll.name
        seen = _seen_scrolls(state).get(thing)
        if seen is not None and seen in state.game.content.manifestations:
            return state.game.content.manifestations[seen].name
        if _MANIFESTATION_ID.fullmatch(thing):
            return "a manifestation"  # gone before its scroll was seen: still never the id
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
    key = (tuple(state.units), tuple((k, m.scroll) for k, m in state.manifestations.items()))
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
    return scroll.name if scroll else "a manifestation"


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
    """The label, odds and help for one action."""
    t = action.type
    g = state.game
    if t == "EndPhase":
        if state.stage == "deployment":
            return OptionLabel("End deployment", tip="Finish setting up this army (R2)")
        return OptionLabel(f"End {state.phase.replace('_', ' ')} phase", tip="Shortcut: E")
    if t == "ChooseTurnOrder":
        who = "I go first" if action.first == action.player else "Opponent goes first"
        return OptionLabel(
            f"{who} (player {action.first})", tip="The priority winner picks who takes the first turn (R2)"
        )
    if t == "CastSpell":
        sp = g.content.abilities[action.spell]
        target = f" -> {name_of(state, action.target)}" if action.target else ""
        unb = unbinder_in_range(state, action.player, action.unit, action.model)
        lands = query.odds.lands_chance(sp.value, unb)
        o = f"cast {pct(query.odds.cast_chance(sp.value))}, lands {pct(lands)}" + (
            " (unbinder in range)" if unb else " (no unbinder)"
        )
        return _with_notes(state, OptionLabel(f"{sp.name} ({sp.value}+){target}", o, sp.text), action.spell, action)
    if t == "ChantPrayer":
        pr = g.content.abilities[action.prayer]
        pts = state.units[action.unit].ritual_points
        target = f" -> {name_of(state, action.target)}" if action.target else ""
        o = (
            f"answered now {pct(query.odds.prayer_chance(pr.value, pts))} ({pts} ritual pts); "
            f"fail on 1: {pct(query.odds.prayer_fail_chance())}"
        )
        return _with_notes(state, OptionLabel(f"{pr.name} ({pr.value}+){target}", o, pr.text), action.prayer, action)
    if t == "Banish":
        from game.rules.query import banish_bonus

        m = state.manifestations[action.manifestation]
        scroll = g.content.manifestations[m.scroll]
        bonus = banish_bonus(state, action.player, action.manifestation)
        o = f"banish {pct(query.odds.banish_chance(scroll.banishment, bonus))} (2D6+{bonus} >= {scroll.banishment})"
        return OptionLabel(f"Banish {name_of(state, action.manifestation)}", o, "M12")
    if t == "Dispel":
        from game.rules.query import summoning_value

        m = state.manifestations[action.manifestation]
        v = summoning_value(state, m.scroll)
        o = f"dispel {pct(query.odds.dispel_chance(v))} (2D6 > {v})"
        return OptionLabel(f"Dispel {name_of(state, action.manifestation)} with {name_of(state, action.unit)}", o, "E3")
    if t == "PassDispel":
        return OptionLabel("Pass: no more dispels", tip="E3")
    if t == "Unbind":
        roll = decision.data.get("roll") if decision is not None else None
        o = f"unbind {pct(query.odds.unbind_chance(roll))} (2D6 > {roll})" if roll is not None else ""
        where = ""
        try:
            from game.geometry.measure import distance
            from game.rules.query import model_circle

            d = decision.data
            dist = distance(
                model_circle(state, action.unit, action.model), model_circle(state, d["caster"], d["model"])
            )
            where = f', {dist:.1f}" away'
        except Exception:
            pass
        n = len(state.units[action.unit].models)
        model = f" model {action.model + 1}" if n > 1 else ""
        return OptionLabel(f"Unbind with {name_of(state, action.unit)}{model}{where}", o, "M6")
    if t == "DeclineUnbind":
        return OptionLabel("Let it through", tip="Make no unbind attempt (M6)")
    if t in ("BankRitual", "SpendRitual") and decision is not None:
        d = decision.data
        roll, pts = d.get("roll", 0), d.get("ritual_points", 0)
        pr = g.content.abilities.get(d.get("prayer", ""))
        if t == "BankRitual":
            return OptionLabel(f"Bank {roll}: ritual points {pts} -> {pts + roll}", "the prayer has no effect", "M5")
        if pr is not None:
            total = roll + pts
            ok = total >= pr.value
            return OptionLabel(
                f"Spend: {roll} + {pts} = {total} vs {pr.value}",
                "answered: points reset to 0" if ok else "fails: points kept",
                "M5",
            )
    if t == "PlaceManifestation":
        return OptionLabel(f'Set up at ({action.x:.1f}", {action.y:.1f}")')
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


def event_line(state, ev: Event) -> str:
    """The log's sentence for one event: names and words, never ids."""
    _learn(state, ev)
    return plain(state, _event_line(state, ev))


def _event_line(state, ev: Event) -> str:
    t = ev.type
    n = lambda x: name_of(state, x)  # noqa: E731
    g = state.game
    if t == "DiceRolled":
        return f"rolled {', '.join(map(str, ev.dice))} for {purpose_words(state, ev.purpose)}"
    if t == "RoundStarted":
        return f"Battle round {ev.round} begins"
    if t == "PriorityWon":
        return f"Priority roll-off {ev.rolls[0]} vs {ev.rolls[1]}: player {ev.winner} chooses"
    if t == "TurnOrderChosen":
        return f"Player {ev.chooser} chose player {ev.first} to go first"
    if t == "TurnStarted":
        return f"Player {ev.player}'s turn (round {ev.round})"
    if t == "PhaseStarted":
        return f"{ev.phase.replace('_', ' ').capitalize()} phase (player {ev.player})"
    if t == "PhaseEnded":
        return f"{ev.phase.replace('_', ' ').capitalize()} phase ends"
    if t == "GameEnded":
        who = f"player {ev.winner} wins" if ev.winner else "a draw"
        return f"Game over: {who} ({ev.reason}), {ev.score[0]}-{ev.score[1]}"
    if t == "CastAttempted":
        word = {"succeeded": "cast", "failed": "fails", "miscast": "MISCAST"}.get(ev.outcome, ev.outcome)
        return f"{n(ev.unit)} casts {n(ev.spell)}: {ev.roll} vs {ev.value}: {word}"
    if t == "Miscast":
        return f"{n(ev.unit)} miscasts {n(ev.spell)}: {ev.damage} mortal damage"
    if t == "UnbindAttempted":
        return f"{n(ev.unit)} tries to unbind {n(ev.spell)}: {ev.roll} vs {ev.casting_roll}: " + (
            "unbound" if ev.unbound else "fails"
        )
    if t == "UnbindDeclined":
        return f"Player {ev.player} lets {n(ev.spell)} through"
    if t == "SpellCast":
        tgt = f" on {n(ev.target)}" if ev.target else ""
        return f"{n(ev.spell)} takes effect{tgt}"
    if t == "PrayerChanted":
        return f"{n(ev.unit)} chants {n(ev.prayer)}: rolled {ev.roll}"
    if t == "RitualPoints":
        return f"{n(ev.unit)} {ev.how} ritual points ({ev.change:+d}): now {ev.points}"
    if t == "PrayerResolved":
        return f"{n(ev.prayer)}: {ev.roll} + {ev.ritual_points} vs {ev.value}: " + (
            "answered" if ev.answered else "unanswered"
        )
    if t == "EffectApplied":
        return f"{_humanise(ev.effect)} {ev.value} on {n(ev.target)} ({n(ev.source)})"
    if t == "ManifestationSummoned":
        return f"{g.content.manifestations[ev.scroll].name} set up at ({ev.x:.1f}, {ev.y:.1f}) by {n(ev.summoner)}"
    if t == "SummonFailed":
        return f"Summoning {g.content.manifestations[ev.scroll].name} failed: {ev.reason}"
    if t == "BanishAttempted":
        return f"{n(ev.unit)} banishes {_gone(state, ev)}: {ev.dice_total}+{ev.bonus} vs {ev.value}: " + (
            "banished" if ev.banished else "fails"
        )
    if t == "DispelAttempted":
        return f"{n(ev.unit)} dispels {_gone(state, ev)}: {ev.roll} vs {ev.value}: " + (
            "dispelled" if ev.dispelled else "fails"
        )
    if t == "ManifestationRemoved":
        name = g.content.manifestations[ev.scroll].name if ev.scroll in g.content.manifestations else "A manifestation"
        return f"{name} is removed: {_REMOVED.get(ev.reason, ev.reason.replace('_', ' '))}"
    if t == "DamageDealt":
        return f"{n(ev.unit)} takes {ev.amount} {'mortal ' if ev.mortal else ''}damage ({n(ev.source)})"
    if t == "ModelSlain":
        return f"A model of {n(ev.unit)} is slain"
    if t == "UnitDestroyed":
        return f"{n(ev.unit)} is destroyed"
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
    "banished": "banished",
    "dispelled": "dispelled",
    "destroyed": "destroyed",
    "severed": "the unit that summoned it is slain",
    "edge": "it left the battlefield",
    "warscroll": "its warscroll says so",
}

_WILD_REASONS = {
    "out_of_range": "not wholly within {range:g}\" of the model that summoned it",
    "no_summoner": "the unit that summoned it is gone",
    "summoner_slain": "the model that summoned it is slain (E5)",
    "chose_another": "its wizard controls another one",
}


def _retreat(state, ev, n) -> str:
    hurt = f", taking {ev.damage} mortal damage" if ev.damage else ""
    return f"{n(ev.unit)} retreats from combat{hurt}"


def _attacks(state, ev, n) -> str:
    mortal = f" + {ev.mortal} mortal" if ev.mortal else ""
    verb = "shoots" if ev.kind == "shooting" else "fights"
    return (
        f"{n(ev.unit)} {verb} {n(ev.target)}: {ev.attacks} attacks, {ev.hits} hit, {ev.wounds} wound, "
        f"{ev.unsaved} unsaved: {ev.damage} damage{mortal}"
    )


def no_save_words(state, ev) -> str:
    """R3: why no save was rolled ("Reed-Witch: no save: 7+ after rend 2; 3 of 3 unsaved")."""
    why = "no save" if ev.save > 6 else f"no save: {ev.need}+ after rend {ev.rend}"
    return f"{name_of(state, ev.target)}: {why}; {_of(ev.wounds, ev.wounds)} unsaved"


def _objective(state, ev, n) -> str:
    o = state.game.battlefield.map.objectives[ev.objective]
    who = f"player {ev.player}" if ev.player else "nobody"
    return f"{o.name}: held by {who} (control {ev.scores[0]} to {ev.scores[1]})"


def _predatory_began(state, ev, n) -> str:
    if not ev.manifestations:
        return "No predatory manifestations to move"
    return f"Predatory manifestations move: {', '.join(n(m) for m in ev.manifestations)}"


def _predatory_moved(state, ev, n) -> str:
    _learn(state, ev)
    if ev.distance <= 0:
        why = f": {ev.reason}" if ev.reason else ""
        return f"{n(ev.manifestation)} stays where it is{why}"
    across = f", across {', '.join(n(u) for u in ev.passed_across)}" if ev.passed_across else ""
    return (
        f"{n(ev.manifestation)} moves {ev.distance:.1f}\" to a point {ev.measured:.1f}\" from it "
        f"(reach {ev.reach:g}\"){across}"
    )


def _wild(state, ev, n) -> str:
    why = _WILD_REASONS.get(ev.reason, ev.reason.replace("_", " ")).format(range=state.game.profile.control_range)
    return f"{n(ev.manifestation)} is wild: {why}"


# Lines for movement, charges, fights, scoring and the predatory procedure (E6-E9), by event type.
_BATTLE_LINES: dict[str, Callable[[Any, Event, Callable[[Any], str]], str]] = {
    "UnitDeployed": lambda state, ev, n: f"{n(ev.unit)} deployed",
    "UnitMoved": lambda state, ev, n: f"{n(ev.unit)} makes a {ev.kind.replace('_', '-')} move of {ev.distance:.1f}\"",
    "RunDeclared": lambda state, ev, n: f"{n(ev.unit)} runs: +{ev.extra}\" to its move",
    "RetreatDeclared": _retreat,
    "ChargeRolled": lambda state, ev, n: f"{n(ev.unit)} rolls {ev.roll}\" to charge",
    "ChargeFailed": lambda state, ev, n: f"{n(ev.unit)}'s charge fails: {ev.reason}",
    "FightPassed": lambda state, ev, n: f"Player {ev.player} has no more units to fight with",
    "AttacksResolved": _attacks,
    "SavesNotRolled": lambda state, ev, n: no_save_words(state, ev),
    "BuffExpired": lambda state, ev, n: f"{_humanise(ev.kind)} on {n(ev.unit)} ({n(ev.source)}) expires",
    "ObjectiveControlled": _objective,
    "VictoryPoints": lambda state, ev, n: (
        f"Player {ev.player} scores {ev.points} VP ({ev.reason}): {ev.score[0]}-{ev.score[1]}"
    ),
    "DispelPassed": lambda state, ev, n: f"Player {ev.player} dispels nothing this hero phase",
    "ManifestationDamaged": lambda state, ev, n: f"{n(ev.manifestation)} takes {ev.amount} damage ({n(ev.source)})",
    "PredatoryMovesBegan": _predatory_began,
    "ManifestationControlled": lambda state, ev, n: (
        f"{n(ev.manifestation)} is controlled by {n(ev.unit)} (player {ev.player})"
    ),
    "ManifestationWild": _wild,
    "CommandTaken": lambda state, ev, n: f"Player {ev.player} commands {n(ev.manifestation)}",
    "PredatoryPassed": lambda state, ev, n: f"Player {ev.player} has nothing left to move",
    "ManifestationMoved": _predatory_moved,
    "PredatoryMovesEnded": lambda state, ev, n: f"Predatory moves end ({len(ev.moved)} moved)",
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
    return f"{hit}+" + (f" ({m:+d} to hit)" if m else "")


def _content_words(state, text: str) -> str:
    """Content ids (ability and manifestation ids) in `text` as their names."""
    return _ID.sub(lambda mt: name_of(state, mt.group(0)), text)


def purpose_words(state, purpose: str) -> str:
    """A roll's purpose as a player reads it: names, not ids; "4+ (-1 to hit)", not "(4+-1)"."""
    if mt := _HIT.fullmatch(purpose):
        return f"{mt['w']} hit rolls, {_hit_words(mt['hit'], mt['mod'])}"
    if mt := _WOUND.fullmatch(purpose):
        return f"{mt['w']} wound rolls, {mt['wound']}+"
    if mt := _SAVE.fullmatch(purpose):
        return f"save rolls, {mt['need']}+ after rend {mt['rend']}"
    if mt := _WARD.fullmatch(purpose):
        return f"ward rolls, {mt['ward']}+, for {mt['who']}"
    if mt := _REMOVAL.fullmatch(purpose):
        return f"{_removal_name(state, mt)} removal roll (removed on {mt['value']} or less)"
    if mt := _ON_ROLL.fullmatch(purpose):
        return f"{name_of(state, mt['ab'])} on {mt['on']}+"
    return plain(state, _content_words(state, purpose))


def _removal_name(state, mt: re.Match) -> str:
    mid = mt["mid"]
    return name_of(state, mid) if mid in state.manifestations else mt["name"]


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
        dice = f"{n} {'die' if n == 1 else 'dice'}"
        return f"{dice}: {self.passed} pass" if self.marks else dice


def _sum(d: tuple[int, ...]) -> str:
    return "+".join(map(str, d))


def _of(k: int, n: int) -> str:
    return f"all {n}" if k == n and n > 1 else f"{k} of {n}"


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


_CRIT_WORDS = {"mortal": "mortal damage", "auto_wound": "auto-wound", "two_hits": "2 hits each"}


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
        sixes = f" ({crit} {'six' if crit == 1 else 'sixes'}: {effect})" if crit and effect else ""
        text = f"{mt['w']}: {_of(sum(marks), n)} hit on {_hit_words(mt['hit'], mt['mod'])}{sixes}"
        return TrayEntry(d, text, None, ev.rule, marks)
    if mt := _WOUND.fullmatch(ev.purpose):
        marks = tuple(o.wound_roll_wounds(x, int(mt["wound"])) for x in d)
        return TrayEntry(d, f"{mt['w']}: {_of(sum(marks), n)} wound on {mt['wound']}+", None, ev.rule, marks)
    if mt := _SAVE.fullmatch(ev.purpose):
        need, rend = int(mt["need"]), int(mt["rend"])
        # `need` already folds in rend and save buffs, so it is tested against a bare save
        marks = tuple(not o.save_roll_fails(x, need, 0, 0) for x in d)
        closing = _attacks_after(evs, i)
        who = f"{name_of(state, closing.target)} " if closing is not None else ""
        # saves that no die can pass are not rolled (SavesNotRolled, R3)
        text = f"{who}saves {_of(sum(marks), n)} on {need}+" + (f" (rend {rend})" if rend else "")
        return TrayEntry(d, text, None, ev.rule, marks)
    if mt := _WARD.fullmatch(ev.purpose):
        marks = tuple(o.ward_roll_stops(x, int(mt["ward"])) for x in d)
        return TrayEntry(d, f"{mt['who']}: ward {mt['ward']}+ stops {_of(sum(marks), n)}", None, ev.rule, marks)
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
            return TrayEntry(d, f"{name} removal roll {_sum(d)}: removed on {mt['value']} or less", None, ev.rule)
        gone = nxt.type == "ManifestationRemoved" and nxt.manifestation == mt["mid"]
        return TrayEntry(
            d,
            f"{name} removal roll {_sum(d)} (removed on {mt['value']} or less): " + ("removed" if gone else "stays"),
            None,
            ev.rule,
            (not gone,) if len(d) == 1 else (),
        )
    if mt := _ON_ROLL.fullmatch(ev.purpose):
        name = name_of(state, mt["ab"])
        if not later:
            return TrayEntry(d, f"{name} on {mt['on']}+: rolled {_sum(d)}", None, ev.rule)
        nxt = later[0]
        # the effect's own record follows at once, with nothing dealt, when the roll failed
        failed = nxt.type == "EffectApplied" and nxt.source == mt["ab"] and not nxt.value
        text = f"{name} on {mt['on']}+: rolled {_sum(d)}: " + ("no effect" if failed else "it strikes")
        return TrayEntry(d, text, not failed, ev.rule, (not failed,) if len(d) == 1 else ())
    return None


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
                word = (
                    {"succeeded": "cast", "failed": "fails", "miscast": "miscast (double 1)"}[nxt.outcome]
                    if nxt.outcome in ("succeeded", "failed", "miscast")
                    else nxt.outcome
                )
                cmp = ">=" if nxt.roll >= nxt.value else "<"
                out.append(TrayEntry(d, f"casting {_sum(d)} = {nxt.roll} {cmp} {nxt.value}: {word}", ok, "M3"))
                i += 2
                continue
            if nt == "UnbindAttempted":
                cmp = ">" if nxt.unbound else "<="
                out.append(
                    TrayEntry(
                        d,
                        f"unbind {_sum(d)} = {nxt.roll} {cmp} {nxt.casting_roll}: "
                        + ("unbound" if nxt.unbound else "not unbound"),
                        nxt.unbound,
                        "M6",
                    )
                )
                i += 2
                continue
            if nt == "Miscast":
                out.append(TrayEntry(d, f"miscast damage D3 = {nxt.damage} mortal", False, "M3"))
                i += 2
                continue
            if nt == "PrayerChanted":
                ok = nxt.roll >= 2
                out.append(
                    TrayEntry(
                        d, f"chanting {nxt.roll}: " + ("bank or spend" if ok else "fails, lose D3 points"), ok, "M5"
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
                        f"banish {_sum(d)}+{nxt.bonus} = {tot} {cmp} {nxt.value}: "
                        + ("banished" if nxt.banished else "stays"),
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
                        f"dispel {_sum(d)} = {nxt.roll} {cmp} {nxt.value}: "
                        + ("dispelled" if nxt.dispelled else "stays"),
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
                out.append(TrayEntry(d, f"roll-off P1 {d[0]} vs P2 {d[1]}: tied, rolled again", None, "R2"))
                i += 1
                continue
            if nt == "PriorityWon":
                out.append(
                    TrayEntry(d, f"roll-off P1 {d[0]} vs P2 {d[1]}: player {nxt.winner} has priority", None, "R2")
                )
                i += 2
                continue
            total = f"{_sum(d)} = {sum(d)}" if len(d) > 1 else _sum(d)
            out.append(TrayEntry(d, f"{purpose_words(state, ev.purpose)}: {total}", None, ev.rule))
        elif ev.type == "SavesNotRolled":
            out.append(TrayEntry((), no_save_words(state, ev), None, "R3"))
        elif ev.type == "PrayerResolved":
            tot = ev.roll + ev.ritual_points
            cmp = ">=" if ev.answered else "<"
            out.append(
                TrayEntry(
                    (),
                    f"spend {ev.roll} + {ev.ritual_points} pts = {tot} {cmp} {ev.value}: "
                    + ("answered" if ev.answered else "fails"),
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
        across = f" across {', '.join(n(u) for u in ev.passed_across)}" if ev.passed_across else ""
        return plain(state, f"{n(ev.manifestation)} moved {ev.distance:.0f}\"{across}")
    if t == "AttacksResolved":
        verb = "shot at" if ev.kind == "shooting" else "fought"
        return plain(state, f"{n(ev.unit)} {verb} {n(ev.target)}: {damage_words(ev.damage, ev.mortal)}")
    if t == "ManifestationSummoned":
        return plain(state, f"{n(ev.summoner)} summoned {state.game.content.manifestations[ev.scroll].name}")
    if t == "VictoryPoints":
        return f"Player {ev.player} scored {ev.points} VP: {ev.score[0]}-{ev.score[1]}"
    return event_line(state, ev)


def damage_words(damage: int, mortal: int = 0) -> str:
    """ "3 damage", "2 mortal damage", "3 damage + 1 mortal": the recap's damage figure."""
    if damage and mortal:
        return f"{damage} damage + {mortal} mortal"
    return f"{mortal} mortal damage" if mortal else f"{damage} damage"
