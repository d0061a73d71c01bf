"""What the other side did: a few short lines after a hand-over (hotseat) or an AI turn.

`recap(state, events)` is pure: it reads the events since the player last had the screen and
writes at most MAX_LINES lines in display names, the most telling first kept (units destroyed,
victory points, damage done, spells and manifestations, charges), shown in the order they
happened. The words are the labels' (labels.recap_line, which is the log's line for most
events): one wording for each event. Damage a spell, a prayer or a moving manifestation did
joins that line ("Tide-Hound moved 9" across Mire Wardens: 2 mortal damage").
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from game.i18n import _, ngettext
from game.rules import Event
from game.ui.labels import damage_words, name_of, recap_line

MAX_LINES = 4  # and a fifth saying how many more the log holds

# how telling an event is (lower first kept); events not named here are left to the log
_RANK = {
    "UnitDestroyed": 0,
    "GameEnded": 0,
    "VictoryPoints": 1,
    "AttacksResolved": 2,
    "Miscast": 2,
    "SpellCast": 3,
    "UnbindAttempted": 3,
    "PrayerResolved": 3,
    "ManifestationSummoned": 3,
    "BanishAttempted": 3,
    "DispelAttempted": 3,
    "ManifestationMoved": 4,
    "RetreatDeclared": 4,
    "UnitMoved": 5,
}
# lines damage may join: what dealt it is named in the line
_CAUSES = ("SpellCast", "PrayerResolved", "ManifestationMoved", "Miscast")
# damage that another line already counts (an attack sequence's total, a retreat's own line)
_COUNTED = ("shooting", "combat", "retreat")
# events between a cause and its damage that leave the cause open
_QUIET = ("DiceRolled", "ModelSlain", "EffectApplied", "DamageDealt", "ManifestationDamaged", "RitualPoints")


@dataclass
class _Item:
    rank: int
    at: int
    text: str
    dealt: dict[str, list[int]] = field(default_factory=dict)  # unit name -> [damage, mortal]
    alone: bool = False  # damage with no cause among these events: "<unit> took <damage>"
    scored: Event | None = None  # the last VictoryPoints a line of points sums up to
    after: list[str] = field(default_factory=list)  # what followed from it: "Reed-Witch is destroyed"

    def words(self) -> str:
        if self.alone:
            head = "; ".join(
                _("{unit} took {damage}").format(unit=who, damage=damage_words(d, m))
                for who, (d, m) in self.dealt.items()
            )
        elif not self.dealt:
            head = self.text
        else:
            parts = []
            for who, (dmg, mortal) in self.dealt.items():
                # the line's last words name the one unit hurt: "... across Mire Wardens: 2 mortal damage"
                words = damage_words(dmg, mortal)
                if not (len(self.dealt) == 1 and self.text.endswith(who)):
                    words = _("{damage} to {unit}").format(damage=words, unit=who)
                parts.append(words)
            head = _("{line}: {damage}").format(line=self.text, damage=", ".join(parts))
        return "; ".join([head, *self.after])


def _notable(ev: Event) -> bool:
    t = ev.type
    if t == "AttacksResolved":
        return bool(ev.damage or ev.mortal)
    if t == "UnbindAttempted":
        return bool(ev.unbound)
    if t == "PrayerResolved":
        return bool(ev.answered)
    if t == "BanishAttempted":
        return bool(ev.banished)
    if t == "DispelAttempted":
        return bool(ev.dispelled)
    if t == "ManifestationMoved":
        return ev.distance > 0
    if t == "UnitMoved":
        return ev.kind == "charge"
    return t in _RANK


def recap(state, events: list[Event], limit: int = MAX_LINES) -> list[str]:
    """At most `limit` short lines (and one "...and N more" line) for `events`, oldest first."""
    items: list[_Item] = []
    cause: _Item | None = None
    slain: dict[str, str] = {}  # units destroyed in an attack sequence whose total is still to come
    for i, ev in enumerate(events):
        t = ev.type
        if t == "UnitDestroyed":
            line = recap_line(state, ev)
            closing = _attack_closing(events, i)
            if cause is not None and name_of(state, ev.unit) in cause.dealt:
                cause.after.append(line)
                cause.rank = 0
                continue
            if closing is not None and closing.target == ev.unit:
                slain[ev.unit] = line  # joins the attack's line: "... shot at X: 4 damage; X is destroyed"
                continue
        if t == "DamageDealt" and ev.source not in _COUNTED:
            who = name_of(state, ev.unit)
            if cause is None:  # nothing in these events dealt it (it began earlier): its own line
                cause = _Item(2, i, "", alone=True)
                items.append(cause)
            hurt = cause.dealt.setdefault(who, [0, 0])
            hurt[1 if ev.mortal else 0] += ev.amount
            cause.rank = min(cause.rank, 2)
            continue
        if t in _QUIET:
            continue
        if not _notable(ev):
            cause = None
            continue
        last = items[-1].scored if items else None
        if t == "VictoryPoints" and last is not None and last.player == ev.player:
            # one line for a player's points at one scoring: the sum, and the score after it
            summed = replace(ev, points=last.points + ev.points)
            items[-1].scored, items[-1].text = summed, recap_line(state, summed)
            continue
        item = _Item(_RANK.get(t, 5), i, recap_line(state, ev), scored=ev if t == "VictoryPoints" else None)
        if t == "AttacksResolved" and ev.target in slain:
            item.after.append(slain.pop(ev.target))
            item.rank = 0
        items.append(item)
        cause = item if t in _CAUSES else None
    items += [_Item(0, len(events), line) for line in slain.values()]  # no total came: their own lines
    if len(items) <= limit + 1:  # a "1 more" line would take the room the line itself needs
        kept = items
    else:
        kept = sorted(sorted(items, key=lambda it: (it.rank, it.at))[:limit], key=lambda it: it.at)
    lines = [it.words() for it in kept]
    if len(kept) < len(items):
        more = len(items) - len(kept)
        lines.append(
            ngettext("...and {n} more in the event log", "...and {n} more in the event log", more).format(n=more)
        )
    return lines


def _attack_closing(events: list[Event], i: int) -> Event | None:
    """The AttacksResolved that closes the attack sequence the event at `i` is part of (R3)."""
    for ev in events[i + 1 :]:
        if ev.type == "AttacksResolved":
            return ev
        if ev.type not in (*_QUIET, "UnitDestroyed", "ManifestationRemoved"):
            return None
    return None
