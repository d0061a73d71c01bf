"""Why a dragged move stops, in words a player reads: the engine's move-problem texts
(`query.thing_move_problems`, `State.explain`) with their internal tokens named.

One job: translation, not rules. The engine decides and says why ("model 0's path is blocked
after 3.21" by terrain:0 (G4)", "the unit would end 2.91" from the enemy, inside combat range
(R4)", "model 0 would move 8.00"; it may move 6.00" (G4)"); this module turns its tokens into
names: `base:<k>` is the k-th base the engine's sweep saw (every live model but the mover's,
in `query.positions` order, as `formation.move_problems` builds them), `terrain:<k>` the k-th
impassable piece of the map (or `terrain:<name>`), `edge` the battlefield edge. The one thing
it looks up that the text leaves out is which enemy a combat-range stop is near
(`query.enemies_within` at the engine's 3").
"""

from __future__ import annotations

import re
from typing import Any

from game.ui.labels import name_of, plain

_BLOCKED = re.compile(r"path is blocked after [\d.]+\" by (?P<what>.+?) \((?P<rule>G4)\)(?: \(\w+\))*$")
_TOO_FAR = re.compile(r"would move [\d.]+\"; it may move (?P<reach>[\d.]+)\" \((?P<rule>\w+)\)(?: \(\w+\))*$")
_COMBAT = re.compile(r"would end [\d.]+\" from the enemy, inside combat range \((?P<rule>R4)\)(?: \(\w+\))*$")
_OVERLAP = re.compile(r"overlaps base (?P<k>\d+) \([\d.]+\" overlap\) \((?P<rule>G4)\)(?: \(\w+\))*$")
_ON_TERRAIN = re.compile(r"overlaps impassable terrain '(?P<name>[^']+)' \((?P<rule>G4)\)(?: \(\w+\))*$")
_ON_MANIFESTATION = re.compile(r"ends on manifestation (?P<k>\d+) \((?P<rule>G4)\)(?: \(\w+\))*$")
_WALKER_BLOCKED = re.compile(
    r"its path is blocked by (?:impassable terrain '(?P<name>[^']+)'|(?P<thing>.+?)) \(G4\)(?: \(\w+\))*$"
)

KIND_WORD = {"normal": "Move", "run": "Run", "retreat": "Retreat", "charge": "charge roll", "deploy": "Move"}


def first_problem(text: str) -> str:
    """The first problem of an engine message, without its "<unit> cannot <move> there: "."""
    head, sep, tail = text.partition(" there: ")
    return re.split(r"; (?!it may move)", tail if sep else text)[0]  # "; it may move" is one problem's


def base_owner(state: Any, mover: str, k: int) -> str | None:
    """The unit whose model is base `k` of the sweep for `mover` (None if there is no such base)."""
    from game.rules.query import positions

    pos = positions(state)
    idx = [j for j in range(len(pos.owner)) if mover not in pos.units or int(pos.owner[j]) != pos.units.index(mover)]
    return pos.units[int(pos.owner[idx[k]])] if 0 <= k < len(idx) else None


def token_name(state: Any, mover: str, token: str) -> str:
    """A sweep token (`base:3`, `terrain:0`, `terrain:Drowned Tower`, `edge`) as a display name."""
    kind, _, rest = token.partition(":")
    if kind == "base" and rest.isdigit():
        owner = base_owner(state, mover, int(rest))
        return name_of(state, owner) if owner is not None else "a model"
    if kind == "terrain":
        if rest.isdigit():
            pieces = [t.name for t in state.game.battlefield.map.terrain if "impassable" in t.traits]
            return pieces[int(rest)] if int(rest) < len(pieces) else "impassable terrain"
        return rest
    if token == "edge":
        return "the battlefield edge"
    return plain(state, token)


def why_stopped(state: Any, mover: str, text: str, kind: str, ends=None) -> str:
    """The engine's reason `text` (a whole message or one problem) in display words, e.g.
    'blocked by Drowned Tower (G4)', 'would end within 3" of Reed-Witch (R4)', '6" used (Move 6")'.
    `kind` is the move's kind (normal, run, retreat, charge); `ends` the mover's shapes where the
    move would end (to name the enemy of a combat-range stop)."""
    p = first_problem(text)
    m = _BLOCKED.search(p)
    if m:
        first = m["what"].split(", ")[0]
        return f"blocked by {token_name(state, mover, first)} ({m['rule']})"
    m = _WALKER_BLOCKED.search(p)
    if m:
        return f"blocked by {m['name'] or plain(state, m['thing'])} (G4)"
    m = _TOO_FAR.search(p)
    if m:
        reach = float(m["reach"])
        return f'{reach:g}" used ({KIND_WORD.get(kind, "Move")} {reach:g}")'
    m = _COMBAT.search(p)
    if m:
        from game.rules.query import COMBAT_RANGE, enemies_within

        near = enemies_within(state, mover, ends, COMBAT_RANGE) if ends else []
        who = name_of(state, near[0]) if near else "the enemy"
        return f'would end within {COMBAT_RANGE:g}" of {who} ({m["rule"]})'
    m = _OVERLAP.search(p)
    if m:
        owner = base_owner(state, mover, int(m["k"]))
        return f"would end on {name_of(state, owner) if owner else 'a model'} ({m['rule']})"
    m = _ON_TERRAIN.search(p)
    if m:
        return f"would end on {m['name']} ({m['rule']})"
    m = _ON_MANIFESTATION.search(p)
    if m:
        mids = list(state.manifestations)
        k = int(m["k"])
        return f"would end on {name_of(state, mids[k]) if k < len(mids) else 'a manifestation'} ({m['rule']})"
    return plain(state, p)
