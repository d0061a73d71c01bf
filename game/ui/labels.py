"""Readable words for actions, events and dice, and the exact odds the panel shows.

Everything here reads the state; nothing changes it. Unknown action and event types get a
generic label (type name plus fields, with ids turned into names), so new decision kinds are
readable the day they land.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, fields
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
    return str(thing)


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
        return OptionLabel(f"{sp.name} ({sp.value}+){target}", o, sp.text)
    if t == "ChantPrayer":
        pr = g.content.abilities[action.prayer]
        pts = state.units[action.unit].ritual_points
        target = f" -> {name_of(state, action.target)}" if action.target else ""
        o = (
            f"answered now {pct(query.odds.prayer_chance(pr.value, pts))} ({pts} ritual pts); "
            f"fail on 1: {pct(query.odds.prayer_fail_chance())}"
        )
        return OptionLabel(f"{pr.name} ({pr.value}+){target}", o, pr.text)
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
    t = ev.type
    n = lambda x: name_of(state, x)  # noqa: E731
    g = state.game
    if t == "DiceRolled":
        return f"rolled {'+'.join(map(str, ev.dice))} for {ev.purpose}"
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
        name = g.content.manifestations[ev.scroll].name if ev.scroll in g.content.manifestations else ev.scroll
        return f"{name} removed ({ev.reason})"
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
        parts.append(f"{f.name} {name_of(state, v)}")
    return _humanise(t) + (": " + ", ".join(parts) if parts else "")


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


def _objective(state, ev, n) -> str:
    o = state.game.battlefield.map.objectives[ev.objective]
    who = f"player {ev.player}" if ev.player else "nobody"
    return f"{o.name}: held by {who} (control {ev.scores[0]} to {ev.scores[1]})"


def _predatory_began(state, ev, n) -> str:
    if not ev.manifestations:
        return "No predatory manifestations to move"
    return f"Predatory manifestations move: {', '.join(n(m) for m in ev.manifestations)}"


def _predatory_moved(state, ev, n) -> str:
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


# --- the dice tray --------------------------------------------------------------------------


@dataclass(frozen=True)
class TrayEntry:
    dice: tuple[int, ...]
    text: str  # e.g. "casting 6+1 = 7 >= 7: cast"
    good: bool | None  # for the acting player: success, failure or neutral
    rule: str = ""


def _sum(d: tuple[int, ...]) -> str:
    return "+".join(map(str, d))


def tray_entries(state, events: list[Event]) -> list[TrayEntry]:
    """One entry per roll, with its meaning, read from the typed events that follow it."""
    out: list[TrayEntry] = []
    i = 0
    evs = list(events)
    while i < len(evs):
        ev = evs[i]
        nxt = evs[i + 1] if i + 1 < len(evs) else None
        if isinstance(ev, DiceRolled):
            d = ev.dice
            nt = nxt.type if nxt is not None else ""
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
            if nt == "PriorityWon":
                out.append(
                    TrayEntry(d, f"roll-off P1 {d[0]} vs P2 {d[1]}: player {nxt.winner} has priority", None, "R2")
                )
                i += 2
                continue
            out.append(TrayEntry(d, f"{ev.purpose}: {_sum(d)} = {sum(d)}", None, ev.rule))
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
