"""Why a dragged move stops, in words a player reads: the engine's move problems
(`query.thing_move_problems`) named.

One job: translation, not rules. The engine decides and says why; each problem is a
`game.rules.Problem`: the engine's text with a `code` and the facts it was made from
(`blocked` by obstacle tokens, `too_far` with its reach, `combat`, `overlap_base`,
`on_terrain`, `on_manifestation`; see game/geometry/problem.py). This module names the facts:
`base:<k>` is the k-th base the engine's sweep saw (every live model but the mover's, in
`query.positions` order, as `formation.move_problems` builds them), `terrain:<k>` the k-th
impassable piece of the map (or `terrain:<name>`), `edge` the battlefield edge. The one thing
it looks up that the problem leaves out is which enemy a combat-range stop is near
(`query.enemies_within` at the engine's 3"). A plain string (a problem without a code) is
shown as it is, its internal names replaced (`labels.plain`).
"""

from __future__ import annotations

from typing import Any

from game.content_words import content_name as cn
from game.i18n import N_, _
from game.rules import Problem
from game.ui.engine_words import engine_text
from game.ui.labels import name_of, plain

KIND_WORD = {
    "normal": N_("Move"),
    "run": N_("Run"),
    "retreat": N_("Retreat"),
    "charge": N_("charge roll"),
    "deploy": N_("Move"),
}


def base_owner(state: Any, mover: str, k: int) -> str | None:
    """The unit whose model is base `k` of the sweep for `mover` (None if there is no such base)."""
    from game.rules.query import positions

    pos = positions(state)
    idx = [j for j in range(len(pos.owner)) if mover not in pos.units or int(pos.owner[j]) != pos.units.index(mover)]
    return pos.units[int(pos.owner[idx[k]])] if 0 <= k < len(idx) else None


def token_name(state: Any, mover: str, token: str) -> str:
    """A sweep token (`base:3`, `terrain:0`, `terrain:Drowned Tower`, `edge`) as a display name."""
    kind, _sep, rest = token.partition(":")
    if kind == "base" and rest.isdigit():
        owner = base_owner(state, mover, int(rest))
        return name_of(state, owner) if owner is not None else _("a model")
    if kind == "terrain":
        if rest.isdigit():
            pieces = [cn(t.name) for t in state.game.battlefield.map.terrain if "impassable" in t.traits]
            return pieces[int(rest)] if int(rest) < len(pieces) else _("impassable terrain")
        return cn(rest)
    if token == "edge":
        return _("the battlefield edge")
    return plain(state, token)


def why_stopped(state: Any, mover: str, problem: str, kind: str, ends=None) -> str:
    """The engine's `problem` in display words, e.g. 'blocked by Drowned Tower (G4)',
    'would end within 3" of Reed-Witch (R4)', '6" used (Move 6")'. `kind` is the move's kind
    (normal, run, retreat, charge); `ends` the mover's shapes where the move would end (to name
    the enemy of a combat-range stop)."""
    if not isinstance(problem, Problem) or not problem.code:
        return plain(state, engine_text(problem, state))
    f, rule = problem.facts, problem.rule
    code = problem.code
    if code == "blocked":
        if f.get("by"):
            return _("blocked by {what} ({rule})").format(what=token_name(state, mover, f["by"][0]), rule=rule)
        what = name_of(state, f["unit"]) if f.get("unit") else cn(f.get("terrain") or "") or _("impassable terrain")
        return _("blocked by {what} ({rule})").format(what=what, rule=rule)
    if code == "too_far":
        reach = f["reach"]
        return _('{reach}" used ({kind} {reach}")').format(reach=f"{reach:g}", kind=_(KIND_WORD.get(kind, N_("Move"))))
    if code == "combat":
        from game.rules.query import COMBAT_RANGE, enemies_within

        near = enemies_within(state, mover, ends, COMBAT_RANGE) if ends else []
        who = name_of(state, near[0]) if near else _("the enemy")
        return _('would end within {range}" of {who} ({rule})').format(range=f"{COMBAT_RANGE:g}", who=who, rule=rule)
    if code == "overlap_base":
        owner = base_owner(state, mover, f["base"])
        return _("would end on {what} ({rule})").format(
            what=name_of(state, owner) if owner else _("a model"), rule=rule
        )
    if code == "on_terrain":
        return _("would end on {what} ({rule})").format(what=cn(f["terrain"]), rule=rule)
    if code == "on_manifestation":
        mids = list(state.manifestations)
        k = f["index"]
        what = name_of(state, mids[k]) if k < len(mids) else _("a manifestation")
        return _("would end on {what} ({rule})").format(what=what, rule=rule)
    if code == "edge":
        return _("would touch the battlefield edge ({rule})").format(rule=rule)
    if code == "overlap_own":
        return _("would end on another model of its unit ({rule})").format(rule=rule)
    if code == "coherency":
        return _('would leave its unit (coherency 1", {rule})').format(rule=rule)
    return plain(state, problem)
