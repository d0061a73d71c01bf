"""The hero phase's automatic steps and its enumerable options (M1-M12).

- At the start of each hero phase, modifiers that last "until your next hero phase" expire.
- The active player's options: every legal cast, chant and banish, per picked model (E5).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import partial
from typing import TYPE_CHECKING, Literal

import numpy as np

from game.geometry.shapes import Circle
from game.rules.actions import Action, Banish, CastSpell, ChantPrayer
from game.rules.allowances import UnitUses, power_left
from game.rules.casting import check_army_allowances, check_caster_may_cast
from game.rules.errors import IllegalActionError
from game.rules.events import BuffExpired
from game.rules.flow import step
from game.rules.prayers import check_caster_may_chant
from game.rules.space import Positions, model_circle, positions, sees_many
from game.rules.summoning import summon_cap_applies
from game.rules.targeting import EPS, check_range, check_target_kind, known, target_candidates

if TYPE_CHECKING:
    from game.rules.state import State


@step("magic.expire_buffs", rule="M3")
def expire_buffs(state: "State") -> None:
    """Modifiers that last "until your next hero phase" expire at its start."""
    for uid, u in state.units.items():
        keep = []
        for b in u.buffs:
            if b.until_hero_of == state.active and b.set_turn < state.turn:
                state.emit(BuffExpired(unit=uid, kind=b.kind, source=b.source))
            else:
                keep.append(b)
        u.buffs = keep


def hero_options(state: "State") -> list[Action]:
    """Every legal cast, chant and banish for the active player, one per picked model (E5).

    The same checks as `state.legal`, arranged so that work independent of the target is done
    once: each caster model's distance to every unit is one vectorised pass (a prefilter; the
    exact range check still decides), target lists are built once per kind of target. Two
    passes: the first keeps, in order, every option that passes every check but sight
    (`check_target_but_sight`) with the sight it still needs; the second asks all those sights
    at once (`space.sees_many`, the same answer as `sight(...).visible` per key, cached for
    later checks) and keeps the options whose target is seen. Same options, same order.
    """
    p = state.active
    found: list[tuple[Action, tuple[str, int, str] | None]] = []  # option, the sight it needs
    pos = positions(state)
    unit_at = {uid: k for k, uid in enumerate(pos.units)}
    candidates: dict[str, list[str | None]] = {}
    army: dict[tuple[str, str | None], bool] = {}  # the army's allowances, asked once per ability
    for uid, u in state.units.items():
        if u.player != p or not u.alive or power_left(state, uid) <= 0:
            continue
        ws = state.game.warscroll(u.warscroll)
        models = [i for i, _ in u.live_models()]
        gaps: dict[int, np.ndarray] = {}
        memo = caster_memo(state, uid, models[0])
        for kind in ("spell", "prayer"):
            for ab_id in known(state, uid, kind):
                if not may_use(state, p, uid, models[0], kind, ab_id, memo, army):
                    continue
                ability = state.game.content.abilities[ab_id]
                targets = candidates.get(ability.target)
                if targets is None:
                    targets = candidates[ability.target] = target_candidates(state, p, ability)
                reach = ability.range + EPS
                sure = reach - SURE_SLACK
                named: dict[str | None, str | None] = {}  # per target: its name, or None (no target)
                for i in models:
                    g = gaps.get(i)
                    if g is None:
                        g = gaps[i] = _least_gaps(pos, model_circle(state, uid, i))
                    for target in targets:
                        k = unit_at.get(target) if target is not None else None
                        if k is not None and g[k] > reach:
                            continue
                        # `check_target_but_sight`, with its model-free part asked once per target
                        if target in named:
                            name = named[target]
                        else:
                            try:
                                name = check_target_kind(state, p, uid, ability, target)
                            except IllegalActionError:
                                name = _ILLEGAL
                            named[target] = name
                        if name is _ILLEGAL:
                            continue
                        needs_sight = False
                        if name is not None:
                            assert target is not None
                            if k is None or g[k] > sure:  # not surely within range: the exact check
                                try:
                                    check_range(state, uid, i, ability, target, name)
                                except IllegalActionError:
                                    continue
                            needs_sight = ability.visible and target != uid
                        act: Action
                        if kind == "spell":
                            act = CastSpell(player=p, unit=uid, spell=ab_id, model=i, target=target)
                        else:
                            act = ChantPrayer(player=p, unit=uid, prayer=ab_id, model=i, target=target)
                        found.append((act, (uid, i, target) if needs_sight and target is not None else None))
        if (ws.wizard_level or ws.priest_level) and state.game.profile.banishes:
            for mid in state.manifestations:
                for i in models:
                    act = Banish(player=p, unit=uid, manifestation=mid, model=i)
                    if state.legal(act):
                        found.append((act, None))
    seen = sees_many(state, [key for _a, key in found if key is not None])
    return [act for act, key in found if key is None or seen[key]]


# per kind of ability: the checks of its use that read the caster alone (besides the phase)
_CASTER_CHECKS = {"spell": check_caster_may_cast, "prayer": check_caster_may_chant}


def caster_memo(state: "State", uid: str, model: int) -> dict[str, bool]:
    """Which abilities `uid` may use now from its live model `model`, as far as the caster alone
    decides (`check_caster_may_cast` / `check_caster_may_chant`: the phase, the caster and its
    model, knowing the ability, a miscast, M1 and R1), filled in as `may_use` asks. It is kept
    (`State.recall`) beside every input those checks read: the phase and the active player, the
    unit's life and the model's, and the unit's uses this phase; a cast by another caster
    changes none of them, so each decision of a hero phase asks again only the caster that
    acted (issue 24). Its answers are a pure function of those inputs, so clones may share it."""
    u = state.units[uid]
    used = state.phase_uses.get(uid)
    spent = (
        (used.power, used.unbinds, tuple(used.used), used.no_cast, used.summons, used.penalty, used.dispelled)
        if isinstance(used, UnitUses)
        else None
    )
    inputs = (state.phase, state.active, u.player, u.alive, model, u.models[model].slain, spent)
    return state.recall(("caster_may", uid), inputs, dict)


def may_use(
    state: "State",
    player: int,
    uid: str,
    model: int,
    kind: str,
    ab_id: str,
    memo: dict[str, bool],
    army: dict[tuple[str, str | None], bool] | None = None,
) -> bool:
    """Whether `check_may_cast` (kind "spell") or `check_may_chant` ("prayer") passes: the
    caster's part from `memo` (`caster_memo`), then what the army has used this turn
    (`check_army_allowances`: every attempt of the army changes it). `army`, if given, keeps
    those answers for one unchanged state (one list of candidates): per ability, and per
    caster too where E2's cap reads the caster's own summons (`summon_cap_applies`)."""
    ok = memo.get(ab_id)
    if ok is None:
        try:
            _CASTER_CHECKS[kind](state, player, uid, model, ab_id)
            ok = True
        except IllegalActionError:
            ok = False
        memo[ab_id] = ok
    if not ok:
        return False
    ability = state.game.content.abilities[ab_id]
    key = army_key(ab_id, uid, summon_cap_applies(state, ability))
    if army is not None and key in army:
        return army[key]
    try:
        check_army_allowances(state, player, uid, ability)
        ok = True
    except IllegalActionError:
        ok = False
    if army is not None:
        army[key] = ok
    return ok


def army_key(ab_id: str, uid: str, capped: bool) -> tuple[str, str | None]:
    """Under which key `may_use` keeps the army's answer for an ability: per ability, and per
    caster too where E2's cap reads the caster (`capped`, `summon_cap_applies`)."""
    return (ab_id, uid if capped else None)


#: Inches below the reach under which the vectorised least gap proves a target within range: far
#: more than numpy's and math's hypot (and the order of the sums) can differ by, so the exact
#: `check_range` would say the same.
SURE_SLACK = 1e-6
_ILLEGAL = "\0illegal"  # a target the ability cannot pick, whatever the model


def _least_gaps(pos: Positions, eye: Circle) -> np.ndarray:
    """Per unit of `pos.units`, the least gap from the base `eye` to one of its models (inf for
    a unit with none left): the cheap range prefilter, the same sums as before, min per unit."""
    out = np.full(len(pos.units), np.inf)
    if len(pos.x):
        np.minimum.at(out, pos.owner, np.hypot(pos.x - eye.x, pos.y - eye.y) - pos.r - eye.r)
    return out


def hero_candidates(state: "State") -> list[Action]:
    """Cheap, unchecked candidates: every known ability at every target from every model of
    a caster with an allowance left, and every banish; less those that two cheap checks prove
    illegal, so that a sampling bot seldom draws a dead one (the list would otherwise grow
    with casters x targets, issue 24):

    - an ability the caster may not use now (`check_may_cast` / `check_may_chant`, which do
      not depend on the target or the model; asked through `may_use`: the caster's part kept
      with its own uses, the army's part once per ability), and
    - a unit target that no model of the unit is within the ability's reach of, from that
      caster model (the least base-to-base gap, the range prefilter `hero_options` uses; a
      unit with no model left is out of reach of everything).

    Everything else is left to `State.legal`. Each caster's unpruned list is kept from one
    decision to the next (`State.recall`) in two halves and its banishes, each beside every
    input it is made from: its candidates at the units (and at no target), made from the
    active player, the caster's warscroll and live models and the units in order; those at the
    manifestations, made from those and the enemy's manifestations (`_target_inputs`); and
    the banishes, made from those and every manifestation's id. The first names every unit of
    the side an ability targets, slain or not, so that a unit's death asks no rebuild; a
    summon of one's own rebuilds only the banishes, and a change among the enemy's rebuilds
    the second half too (a few candidates). The range test is one numpy pass per caster over its units half
    (the other is never out of reach), kept with the positions (`_InRange`). The list is, per
    ability, its kept candidates at the units, then those at the manifestations; then the
    banishes."""
    p = state.active
    mans = _target_inputs(state)
    order = tuple(state.units)
    parts: list[tuple[str, tuple[int, ...], _Half, _Half, tuple[Action, ...]]] = []
    for uid in _casters(state, order, p):
        u = state.units[uid]
        if not u.alive or power_left(state, uid) <= 0:
            continue
        live = tuple(i for i, m in enumerate(u.models) if not m.slain)
        inputs = (p, u.warscroll, live, order)
        units = state.recall(("hero_candidates", uid, "units"), inputs, partial(_units_half, state, uid, live))
        # only the enemy's manifestations can be targets (M10): a summon of one's own rebuilds
        # no ability's candidates, only the banishes
        on_mans = state.recall(
            ("hero_candidates", uid, "manifestations"),
            (inputs, tuple(m for m in mans if m[1] != p)),
            partial(_half, state, uid, live, True),
        )
        bans = state.recall(
            ("hero_candidates", uid, "banishes"),
            (inputs, tuple(m[0] for m in mans)),
            partial(_banishes, state, uid, live),
        )
        parts.append((uid, live, units, on_mans, bans))
    if not parts:
        return []
    # Why: in a hero phase most casts move nothing, so each caster's range test is kept with
    # the positions (`state._cache`, dropped when anything moves, is set up or is slain) beside
    # the half it was made for, and the gap matrix is made for the casters without one alone
    ranges = {uid: state._cache.get(("hero_in_range", uid)) for uid, *_ in parts}
    fresh = [(uid, live, units) for uid, live, units, *_ in parts if not _InRange.holds(ranges[uid], units)]
    if fresh:
        eyes = [model_circle(state, uid, i) for uid, live, _ in fresh for i in live]
        gaps = _gap_matrix(positions(state), eyes)
        first = 0  # the caster's first row of `gaps`
        for uid, live, units in fresh:
            made = _InRange.of(units, gaps[first + units.row, units.column])
            ranges[uid] = state._cache[("hero_in_range", uid)] = made
            first += len(live)
    out: list[Action] = []
    army: dict[tuple[str, str | None], bool] = {}  # the army's allowances, asked once per ability
    for uid, live, _units, on_mans, bans in parts:
        in_range = ranges[uid]
        assert in_range is not None
        # the abilities with a candidate in range are asked whether the caster may use them
        # now; the others have nothing left to prune, and the banishes are always kept
        memo = caster_memo(state, uid, live[0])
        may = [False] * len(on_mans.abilities)
        for b in in_range.asked_with(on_mans):
            kind, ab_id = on_mans.abilities[b]
            # Why inline: most answers are already in the two memos `may_use` fills (the
            # caster's, and the army's for this list); it is asked only for the others
            mine = memo.get(ab_id)
            if mine is False:
                continue
            found = army.get(army_key(ab_id, uid, on_mans.capped[b])) if mine else None
            may[b] = may_use(state, p, uid, live[0], kind, ab_id, memo, army) if found is None else found
        out.extend(in_range.listed(tuple(may), on_mans, bans))
    return out


def _casters(state: "State", order: tuple[str, ...], player: int) -> tuple[str, ...]:
    """The units of `player`, in order, whose warscrolls give a WIZARD or PRIEST level (M1): the
    only ones with an allowance to cast, chant or banish; kept (`State.recall`) beside the units
    in order and their warscrolls (a unit's player never changes), so that each decision of a
    hero phase passes over the player's casters alone."""
    scrolls = tuple(u.warscroll for u in state.units.values())

    def make() -> tuple[str, ...]:
        levels = {w: max(state.game.warscroll(w).wizard_level, state.game.warscroll(w).priest_level) for w in scrolls}
        return tuple(
            uid for uid, w in zip(order, scrolls) if levels[w] > 0 and state.units[uid].player == player
        )

    return state.recall(("hero_casters", player), (order, scrolls), make)


class _InRange:
    """One caster's candidates at the units (`part`, a `_Half`) that are within reach from
    where its models stand (`near`), and the abilities that have one (`abilities`); per answer
    of the may-use checks, the candidates kept, per ability (`kept`, remembered: a pure
    function of the answers)."""

    __slots__ = ("part", "near", "abilities", "_kept", "_asked", "_listed")

    def __init__(self, part: "_Half", near: np.ndarray, abilities: tuple[int, ...]) -> None:
        self.part = part
        self.near = near
        self.abilities = abilities
        self._kept: dict[tuple[bool, ...], tuple[tuple[Action, ...], ...]] = {}
        self._asked: tuple["_Half | None", tuple[int, ...]] = (None, ())
        self._listed: tuple[tuple[bool, ...], "_Half", tuple[Action, ...], tuple[Action, ...]] | None = None

    @staticmethod
    def holds(kept: "_InRange | None", part: "_Half") -> bool:
        """Whether `kept` was made for this very half."""
        return kept is not None and kept.part is part

    @classmethod
    def of(cls, part: "_Half", gaps: np.ndarray) -> "_InRange":
        """From the least gaps of each candidate's model to its target unit (column 0 and reach
        inf where the target is not a unit)."""
        near = gaps <= part.reach
        has = np.bincount(part.block[near], minlength=len(part.abilities)) > 0
        return cls(part, near, tuple(np.flatnonzero(has).tolist()))

    def asked_with(self, on_mans: "_Half") -> tuple[int, ...]:
        """The abilities with a candidate in range here or any at the manifestations (which are
        never out of reach), in order; the last answer is kept (the same half comes again)."""
        if self._asked[0] is not on_mans:
            self._asked = (on_mans, tuple(sorted(set(self.abilities) | set(on_mans.filled))))
        return self._asked[1]

    def listed(self, may: tuple[bool, ...], on_mans: "_Half", bans: tuple[Action, ...]) -> tuple[Action, ...]:
        """The caster's whole list for these answers: per ability, its candidates kept here,
        then, if it may be used, those at the manifestations; then the banishes. The last
        answers are kept (from one decision to the next most casters' answers stay)."""
        last = self._listed
        if last is not None and last[0] == may and last[1] is on_mans and last[2] is bans:
            return last[3]
        at_units = self.kept(may)
        out: list[Action] = []
        for b, ok in enumerate(may):
            out.extend(at_units[b])
            if ok:
                out.extend(on_mans.pieces[b][0])
        out.extend(bans)
        found = tuple(out)
        self._listed = (may, on_mans, bans, found)
        return found

    def kept(self, may: tuple[bool, ...]) -> tuple[tuple[Action, ...], ...]:
        """Per ability, its candidates in range, none for an ability the caster may not use."""
        found = self._kept.get(may)
        if found is None:
            n = len(self.part.abilities)
            ok = np.array(may, dtype=bool).reshape(n)
            keep = np.flatnonzero(ok[self.part.block] & self.near)
            acts = tuple(map(self.part.actions.__getitem__, keep.tolist()))
            # the half is in ability order: each ability's stretch of `acts` starts at `bounds`
            bounds = np.searchsorted(self.part.block[keep], np.arange(n + 1)).tolist()
            found = self._kept[may] = tuple(acts[bounds[b] : bounds[b + 1]] for b in range(n))
        return found


def _gap_matrix(pos: Positions, eyes: list[Circle]) -> np.ndarray:
    """Per base of `eyes` (rows) and unit of `pos.units` (columns), the least gap from that
    base to one of the unit's models (inf for a unit with no model left): the cheap range
    prefilter, one numpy pass for every eye. The models of a unit are contiguous in `pos`, in
    unit order."""
    n = len(pos.units)
    ex = np.array([e.x for e in eyes])[:, None]
    ey = np.array([e.y for e in eyes])[:, None]
    er = np.array([e.r for e in eyes])[:, None]
    out = np.full((len(eyes), n), np.inf)
    if len(pos.x):
        every = np.hypot(pos.x - ex, pos.y - ey) - pos.r - er
        counts = np.bincount(pos.owner, minlength=n)
        has = np.flatnonzero(counts)
        starts = np.concatenate(([0], np.cumsum(counts)[:-1]))[has]
        out[:, has] = np.minimum.reduceat(every, starts, axis=1)
    return out


def _target_inputs(state: "State") -> tuple:
    """What `target_candidates(..., with_slain=True)` and the banishes read besides the game,
    the player and the units in order (whose players never change): the manifestations in
    order, with their players and warscrolls (M10/E1 targeting follows from the warscroll's
    kind and the game's profile). A unit slain to the last model changes none of them: its
    candidates stay in the list and are dropped by range (issue 24)."""
    return tuple((mid, m.player, m.scroll) for mid, m in state.manifestations.items())


# one stretch of a caster's candidates: (actions, ability index, model row, unit column, reach)
_Piece = tuple[tuple[Action, ...], np.ndarray, np.ndarray, np.ndarray, np.ndarray]


@dataclass(frozen=True)
class _Half:
    """A caster's candidates at the units (and at no target), or at the manifestations: one
    piece per known ability, in order (per target, per live model). Its pieces' candidates in
    one tuple (`actions`), with what
    `hero_candidates` prunes them by: per candidate, its ability's index in `abilities`, the
    row of its model among the caster's live models, the unit index of its target (0 when the
    target is not a unit) and the reach it must be within (inf when the target is not a unit);
    `filled` are the abilities with a candidate, `capped` those whose army allowance `may_use`
    keeps per caster (`army_key`)."""

    abilities: tuple[tuple[str, str], ...]  # per ability: its kind ("spell", "prayer") and id
    pieces: tuple[_Piece, ...]
    actions: tuple[Action, ...]
    block: np.ndarray
    row: np.ndarray
    column: np.ndarray
    reach: np.ndarray
    filled: tuple[int, ...]
    capped: tuple[bool, ...]  # per ability: E2's cap reads the caster (`summon_cap_applies`)


def _half(state: "State", uid: str, models: tuple[int, ...], on_mans: bool) -> _Half:
    """A caster's half of its candidates: at the manifestations (`on_mans`) or at the rest."""
    p = state.active
    index = {u: k for k, u in enumerate(state.units)} if not on_mans else {}
    which: Literal["units", "manifestations"] = "manifestations" if on_mans else "units"
    abilities: list[tuple[str, str]] = []
    pieces: list[_Piece] = []
    by_kind: dict[str, list[str | None]] = {}  # per kind of target: the targets (abilities share them)
    for kind in ("spell", "prayer"):
        for ab_id in known(state, uid, kind):
            ability = state.game.content.abilities[ab_id]
            targets = by_kind.get(ability.target)
            if targets is None:
                targets = by_kind[ability.target] = target_candidates(state, p, ability, with_slain=True, which=which)
            acts: list[Action] = []
            column: list[int] = []
            reach: list[float] = []
            for target in targets:
                k = index.get(target) if target is not None else None
                for i in models:
                    if kind == "spell":
                        acts.append(CastSpell(player=p, unit=uid, spell=ab_id, model=i, target=target))
                    else:
                        acts.append(ChantPrayer(player=p, unit=uid, prayer=ab_id, model=i, target=target))
                column += [0 if k is None else k] * len(models)
                reach += [np.inf if k is None else ability.range + EPS] * len(models)
            pieces.append(_piece(acts, len(abilities), len(targets), len(models), column, reach))
            abilities.append((kind, ab_id))
    return _Half(
        tuple(abilities),
        tuple(pieces),
        tuple(act for piece in pieces for act in piece[0]),
        _stacked(pieces, 1),
        _stacked(pieces, 2),
        _stacked(pieces, 3),
        _stacked(pieces, 4),
        tuple(b for b, piece in enumerate(pieces) if piece[0]),
        tuple(summon_cap_applies(state, state.game.content.abilities[ab_id]) for _kind, ab_id in abilities),
    )


def _units_half(state: "State", uid: str, models: tuple[int, ...]) -> _Half:
    """The caster's half at the units (`_half`), kept with the game too (`Game.derived`) beside
    every input it is made from: the active player, the caster's warscroll and live models, and
    each unit in order with its player (what `known` and `target_candidates` read). Every game
    of a simulation starts from the same armies, so each caster's half, casters x units x
    abilities of candidates, is made once, not once a game (issue 24)."""
    u = state.units[uid]
    sides = tuple((k, t.player) for k, t in state.units.items())
    key = ("hero_candidates_units", uid, state.active, u.warscroll, models, sides)
    return state.game.derived(key, partial(_half, state, uid, models, False))


def _banishes(state: "State", uid: str, models: tuple[int, ...]) -> tuple[Action, ...]:
    """Every banish (M12) of the caster: each manifestation there is, from each live model."""
    p = state.active
    return tuple(Banish(player=p, unit=uid, manifestation=mid, model=i) for mid in state.manifestations for i in models)


def _stacked(pieces: list[_Piece], k: int) -> np.ndarray:
    """Field `k` (1-4: ability, row, column, reach) of every piece, one array in order."""
    arrays: list[np.ndarray] = [piece[k] for piece in pieces]  # type: ignore[misc]
    return np.concatenate(arrays) if arrays else _NO_PIECE[k]  # type: ignore[return-value]


def _piece(
    acts: list[Action], ability: int, targets: int, models: int, column: list[int], reach: list[float]
) -> _Piece:
    """One stretch of candidates: per target, per model (its rows 0..models-1 over and over)."""
    if not acts:
        return _NO_PIECE
    return (
        tuple(acts),
        np.full(len(acts), ability, dtype=int),
        np.tile(np.arange(models, dtype=int), targets),
        np.array(column, dtype=int),
        np.array(reach, dtype=float),
    )


# the stretch of no candidates (most abilities have no manifestation to target): one for all
_NO_PIECE: _Piece = ((), np.zeros(0, dtype=int), np.zeros(0, dtype=int), np.zeros(0, dtype=int), np.zeros(0))
