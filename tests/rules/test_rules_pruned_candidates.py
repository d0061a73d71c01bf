"""Issue 24: the candidates a sampling bot draws from are pruned and kept, never changed.

- The hero, shooting and charge candidates leave out only what cheap checks prove illegal
  (M1, E5, R1, R3, R4, G1): every legal option is still among them.
- A unit's movement candidates and a caster's hero candidates kept from one decision to the
  next are those made afresh; a caster's candidates at the units, kept with the `Game` for
  the next game from the same armies, are made again for units on other sides.
- `draw_legal` draws each legal candidate equally often, and None when none is legal.
- Deployment stops trying slots once none can join the unit, and skips the slots certainly on a
  base placed before or out of the zone (G4): the same bases as trying every slot.
- `State.legal` refutes a move that ends on another unit's base without wording why (G4).
"""

from __future__ import annotations

import collections
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from game.ai.random_bot import RandomBot, draw_legal
from game.data.content import DEFAULT_MAP, load_map
from game.geometry.shapes import Circle
from game.rules import Charge, Game, ScriptedDice, Shoot, hero
from game.rules.actions import CastSpell
from game.rules.battlefield import Battlefield
from game.rules.charge import charge_candidates
from game.rules.deployment import place_unit
from game.rules.hero import hero_candidates, hero_options
from game.rules.movement import movement_candidates
from game.rules.position import UnitSpec, build_position
from game.rules.shooting import shooting_options
from tests.helpers import P1_SPEARS, P1_WIZ1, P1_WIZ2, P2_WARDENS, battle, small_map


def _phases(profile: str, seed: int):
    """Every decision of a random game, as (state, decision) before the bot answers it."""
    s = Game.load(profile=profile).new_state(seed=seed)
    bots = {1: RandomBot(1, seed), 2: RandomBot(2, seed + 1)}
    while not s.is_over():
        d = s.pending()
        yield s, d
        s.apply(bots[d.player].choose(s))


@pytest.mark.parametrize("profile, seed", [("aos4", 5), ("aos3", 6)])
def test_m1_e5_r3_r4_pruned_candidates_keep_every_legal_option(profile, seed):
    """Every legal cast, chant and banish (M1, E5), shot (R3, G1) and charge (R4) is a candidate."""
    seen = collections.Counter()
    for s, d in _phases(profile, seed):
        if d.kind != "phase" or s.phase not in ("hero", "shooting", "charge"):
            continue
        p = s.active
        with s.query():
            if s.phase == "hero":
                cands = hero_candidates(s)
                assert set(hero_options(s)) <= set(cands)
                # what the pruning left out is illegal
                everything = set(hero_options(s))
                assert {a for a in cands if s.legal(a)} == everything
            elif s.phase == "shooting":
                cands = shooting_options(s)
                every = [
                    Shoot(player=p, unit=u, target=t)
                    for u, unit in s.units.items()
                    if unit.player == p
                    for t in [*s.units, *s.manifestations]
                ]
                assert {a for a in every if s.legal(a)} <= set(cands)
            else:
                cands = charge_candidates(s)
                every = [Charge(player=p, unit=u) for u, unit in s.units.items() if unit.player == p]
                assert {a for a in every if s.legal(a)} <= set(cands)
        seen[s.phase] += 1
    assert seen["hero"] > 5 and seen["shooting"] > 3 and seen["charge"] > 3


def test_movement_candidates_kept_between_decisions_are_those_made_afresh():
    asked = 0
    for s, d in _phases("aos4", 7):
        if d.kind == "phase" and s.phase == "movement":
            kept = movement_candidates(s)
            twin = s.clone()
            twin._keep.clear()  # nothing kept: every unit's part made again
            assert movement_candidates(twin) == kept
            asked += 1
    assert asked > 20


@pytest.mark.parametrize("profile, seed", [("aos4", 5), ("aos3", 6)])
def test_m1_hero_candidates_kept_between_decisions_are_those_made_afresh(profile, seed):
    """The casters' parts, their may-use answers (`caster_memo`) and their range tests kept
    from one decision to the next (`State.recall`, the positions' cache) give the lists a fresh
    build gives, the candidates and the options (M1, R1, M7), after units are slain to the last
    model too (their candidates are kept in the part and dropped by range, M1 / G1); and no
    candidate names a slain unit."""
    asked = after_a_death = 0
    for s, d in _phases(profile, seed):
        if d.kind == "phase" and s.phase == "hero":
            kept = hero_candidates(s)
            twin = s.clone()
            twin._keep.clear()  # nothing kept: every caster's part and may-use answers made again
            twin._cache.clear()  # and every caster's range test
            assert hero_candidates(twin) == kept
            with twin.query():
                assert hero_options(twin) == hero_options(s)
            slain = {uid for uid, u in s.units.items() if not u.alive}
            assert not [a for a in kept if getattr(a, "target", None) in slain]
            asked += 1
            after_a_death += bool(slain)
    assert asked > 20 and after_a_death > 5


def test_m1_a_casters_candidates_at_the_units_are_kept_per_game_for_the_same_units_and_sides(monkeypatch):
    """Issue 24: a caster's candidates at the units (every ability at every unit of the side it
    targets, M1, M3) are made once for the states of one `Game` whose units, in order, are on the
    same sides: a simulation's next game does not make them again. A state where a unit stands
    on the other side makes its own, and each list is the one a fresh game makes."""
    made: list[str] = []
    real = hero._half

    def counted(state, uid, models, on_mans):
        if not on_mans:
            made.append(uid)
        return real(state, uid, models, on_mans)

    monkeypatch.setattr(hero, "_half", counted)

    def at(game: Game, side_of_x: int):
        specs = [
            UnitSpec("w1", 1, P1_WIZ1, [(15.0, 25.0)]),
            UnitSpec("x", side_of_x, P1_SPEARS if side_of_x == 1 else P2_WARDENS, [(22.0, 25.0)]),
            UnitSpec("enemy", 2, P2_WARDENS, [(40.0, 25.0)]),
        ]
        return build_position(game, specs, phase="hero", active=1, dice=ScriptedDice([]))

    game = Game.load(battlefield=small_map())
    first = hero_candidates(at(game, 2))
    assert made == ["w1"] and any(getattr(a, "target", None) == "x" for a in first)
    made.clear()
    assert hero_candidates(at(game, 2)) == first and made == []  # a new state, the game's half
    mine = hero_candidates(at(game, 1))  # "x" is the caster's own now: not an enemy target
    assert made == ["w1"] and mine != first
    for side, got in ((2, first), (1, mine)):
        assert hero_candidates(at(Game.load(battlefield=small_map()), side)) == got  # made afresh


@pytest.mark.parametrize("profile, w2_keeps_it", [("aos3", False), ("aos4", True)])
def test_e2_hero_candidates_drop_a_summon_only_for_the_wizard_at_its_cap(profile, w2_keeps_it):
    """E2 (aos3): a WIZARD that has summoned this hero phase may summon no other endless
    spell, while another WIZARD of the army still may; aos4 has no cap. The army's allowances
    are asked once per ability, per caster only where the cap reads the caster (M9, E2)."""
    s = battle(
        {"w2": (1, P1_WIZ2, [(15, 15)]), "w1": (1, P1_WIZ1, [(15, 25)]), "enemy": (2, P2_WARDENS, [(50, 40)])},
        [2, 2],  # the beacon's casting roll, 4: failed, but the attempt counts (E2, M9)
        profile=profile,
    )
    s.apply(CastSpell(player=1, unit="w2", spell="kindle_ember_beacon"))
    with s.query():
        cands = hero_candidates(s)
        legal = set(hero_options(s))
    pyre = {a.unit for a in cands if isinstance(a, CastSpell) and a.spell == "summon_rolling_pyre"}
    assert "w1" in pyre and ("w2" in pyre) is w2_keeps_it
    assert {a for a in cands if s.legal(a)} == legal
    assert s.legal(CastSpell(player=1, unit="w2", spell="summon_rolling_pyre")) is w2_keeps_it


def test_draw_legal_draws_each_legal_candidate_equally_often():
    s = Game.load().new_state(seed=1)
    legal = set(s.pending().options)
    cands = [*legal, *(Charge(player=1, unit=u) for u in s.units)]  # charges are illegal in deployment
    assert len(legal) >= 1 and not any(s.legal(Charge(player=1, unit=u)) for u in s.units)
    rng = random.Random(4)
    counts = collections.Counter(draw_legal(s, cands, rng) for _ in range(400))
    assert set(counts) == legal
    assert draw_legal(s, cands[len(legal) :], rng) is None
    assert draw_legal(s, [], rng) is None


def test_draw_legal_is_uniform_among_the_legal_ones():
    """Among 3 legal candidates hidden in 30, each comes up about a third of the time."""

    class Fake:
        def __init__(self, good):
            self.good = good

        def query(self):
            import contextlib

            return contextlib.nullcontext()

        def legal(self, a):
            return a in self.good

    cands = list(range(30))
    fake = Fake({3, 17, 29})
    rng = random.Random(11)
    counts = collections.Counter(draw_legal(fake, cands, rng) for _ in range(3000))  # type: ignore[arg-type]
    assert set(counts) == {3, 17, 29}
    assert all(900 < n < 1100 for n in counts.values()), counts


@settings(max_examples=60, deadline=None)
@given(
    st.tuples(st.floats(6, 54), st.floats(4, 40)),
    st.lists(st.tuples(st.floats(-8, 8), st.floats(-8, 8)), min_size=10, max_size=80),
    st.integers(1, 20),
    st.floats(0.4, 1.2),
)
def test_g4_deployment_stops_trying_slots_with_the_same_answer(monkeypatch_module, anchor, others, models, radius):
    """A unit that cannot join up around its anchor fails as soon as no slot can be coherent,
    and one that fits takes the same slots, as when every slot is tried (G4). The other bases
    crowd the anchor, so that about half the units do not fit."""
    placed = [Circle(round(anchor[0] + x, 4), round(anchor[1] + y, 4), 0.8) for x, y in others]
    fast, slow = _placed_with_and_without(monkeypatch_module, "STOP_OUT_OF_REACH", None, anchor, models, radius, placed)
    assert fast == slow


def _placed_with_and_without(monkeypatch_module, shortcut: str, zone, anchor, models, radius, placed):
    """`place_unit`'s answer (the centres, or the refusal's words) with the deployment
    shortcut `shortcut` on, and with it off."""
    bf = Battlefield.from_map(load_map(DEFAULT_MAP))

    def attempt():
        try:
            return place_unit(bf, zone, anchor, models, radius, list(placed))
        except ValueError as exc:
            return str(exc)

    fast = attempt()
    with monkeypatch_module.context() as m:
        m.setattr(f"game.rules.deployment.{shortcut}", False)
        slow = attempt()
    return fast, slow


@settings(max_examples=60, deadline=None)
@given(
    st.tuples(st.floats(8, 52), st.floats(6, 38)),
    st.lists(st.tuples(st.floats(-9, 9), st.floats(-9, 9), st.floats(0.4, 1.6)), min_size=5, max_size=90),
    st.integers(1, 20),
    st.floats(0.4, 1.2),
    st.booleans(),
)
def test_g4_deployment_skips_crowded_slots_with_the_same_answer(
    monkeypatch_module, anchor, others, models, radius, in_zone
):
    """The slots `place_unit` leaves unasked (certainly on a base placed before, or out of the
    zone's box) change no answer: the same bases, or the same refusal, as asking every slot (G4).
    The zone is a box around the anchor, so that its edge cuts through the square of slots."""
    from shapely.geometry import box

    placed = [Circle(round(anchor[0] + x, 4), round(anchor[1] + y, 4), r) for x, y, r in others]
    zone = box(anchor[0] - 6, anchor[1] - 4, anchor[0] + 5, anchor[1] + 7) if in_zone else None
    fast, slow = _placed_with_and_without(monkeypatch_module, "SKIP_CROWDED", zone, anchor, models, radius, placed)
    assert fast == slow


@pytest.mark.parametrize("overlap, first", [(0.0, (20.0, 20.0)), (0.002, (18.5, 20.0))])
def test_g4_deployment_takes_a_slot_that_only_touches_a_placed_base(overlap, first):
    """G4: touching another base is allowed, overlapping it is not. A base placed so that it
    touches the anchor's own slot exactly leaves that slot open; 0.002" nearer, the slot is
    crowded and the unit's single model goes to the next slot (the 1" base to the left, player
    1's turn of the order)."""
    bf = Battlefield.from_map(load_map(DEFAULT_MAP))
    placed = [Circle(21.5 - overlap, 20.0, 1.0)]  # radii 0.5 + 1.0: touching at 1.5" apart
    assert place_unit(bf, None, (20.0, 20.0), 1, 0.5, placed) == [first]


@pytest.fixture(scope="module")
def monkeypatch_module():
    with pytest.MonkeyPatch.context() as m:
        yield m


@pytest.mark.parametrize("profile, seed", [("aos4", 8), ("aos3", 9)])
def test_g4_a_move_refuted_for_ending_on_a_base_is_one_the_full_check_refuses(profile, seed):
    """`State.legal` may say no to a move from its ends alone (`_ends_on_a_base`): only ever
    to a move whose full check finds a reason (G4); legal moves stay legal."""
    from game.rules.movement import _ends_on_a_base

    refuted = legal_ones = 0
    for s, d in _phases(profile, seed):
        if d.kind != "phase" or s.phase != "movement":
            continue
        with s.query():
            for a in d.candidates:
                if type(a).__name__ != "MoveUnit":
                    continue
                why = s.explain(a)
                if _ends_on_a_base(s, a):
                    refuted += 1
                    assert why and not s.legal(a), a
                elif not why:
                    legal_ones += 1
                    assert s.legal(a)
    assert refuted > 20 and legal_ones > 20


@pytest.mark.parametrize("profile, seed", [("aos4", 8), ("aos3", 9)])
def test_g4_the_bases_a_move_is_refuted_by_are_every_base_its_reach_can_meet(profile, seed):
    """`_ends_on_a_base` asks every other unit's base (`_other_bases`: the positions on either
    side of the unit's own stretch): for every move whose models end within reach, it refutes
    exactly the moves that end on ANY other unit's base (G4), asked here by hand."""
    import math

    from game.geometry.measure import TOL
    from game.rules.movement import _ends_on_a_base, allowance, radius_of
    from game.rules.space import PRUNE_SLACK, positions

    asked = on_a_base = 0
    for s, d in _phases(profile, seed):
        if d.kind != "phase" or s.phase != "movement":
            continue
        with s.query():
            pos = positions(s)
            for a in d.candidates:
                if type(a).__name__ != "MoveUnit" or a.unit not in s.units:
                    continue
                live = s.units[a.unit].live_models()
                reach = allowance(s, a.unit)[1]
                steps = [math.hypot(x - m.x, y - m.y) for (_i, m), (x, y) in zip(live, a.to)]
                if len(a.to) != len(live) or max(steps, default=0.0) > reach:
                    continue
                k = pos.units.index(a.unit)
                r = radius_of(s, a.unit)
                by_hand = any(
                    math.hypot(pos.x[j] - x, pos.y[j] - y) < pos.r[j] - (TOL + PRUNE_SLACK) + r
                    for x, y in a.to
                    for j in range(len(pos.x))
                    if pos.owner[j] != k
                )
                assert _ends_on_a_base(s, a) == by_hand, a
                asked += 1
                on_a_base += by_hand
    assert asked > 50 and on_a_base > 5


def test_g4_a_kept_refutation_is_checked_again_before_use():
    """A move refuted for ending on a base keeps the pair that refuted it (`State._witnesses`),
    and the pair is checked again before it answers (G4): once the blocking model has moved
    away, the full test decides, and every answer equals that of a state made afresh."""
    from game.rules.actions import MoveUnit
    from game.rules.movement import _ends_on_a_base

    foe = (2, P2_WARDENS, [(50.0 + 1.5 * i, 38.0) for i in range(5)])  # far off: the game goes on
    units = {"mag": (1, P1_WIZ2, [(20.0, 10.0)]), "w1": (1, P1_WIZ1, [(24.0, 10.0)]), "foe": foe}
    s = battle(units, phase="movement")
    onto = MoveUnit(1, "mag", ((24.0, 10.0),))  # ends on w1's base: G4 forbids it
    beside = MoveUnit(1, "mag", ((22.0, 13.0),))  # clear of every base: allowed
    assert _ends_on_a_base(s, onto) and not s.legal(onto)
    assert ("mag", onto.to) in s._witnesses  # the pair is kept ...
    assert _ends_on_a_base(s, onto)  # ... and answers again while it holds
    assert not _ends_on_a_base(s, beside) and s.legal(beside)

    # w1 steps aside (a legal normal move); the kept pair no longer holds
    s.apply(MoveUnit(1, "w1", ((24.0, 16.0),)))
    fresh = battle({**units, "w1": (1, P1_WIZ1, [(24.0, 16.0)])}, phase="movement")
    assert not _ends_on_a_base(s, onto) and not _ends_on_a_base(fresh, onto)
    assert s.legal(onto) == fresh.legal(onto)
    assert s.explain(onto) == fresh.explain(onto)
    # and a move onto w1 where it stands now is refuted in both
    onto_now = MoveUnit(1, "mag", ((24.0, 16.0),))
    assert _ends_on_a_base(s, onto_now) and _ends_on_a_base(fresh, onto_now)
    assert not s.legal(onto_now) and not fresh.legal(onto_now)
