"""Engine invariants under random legal play: clone independence, exact round trips,
determinism, side-effect-free queries, and the magic allowances (M1, M2, M5, M6, M7, R1)."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from game.ai.random_bot import RandomBot
from game.rules import Game, State
from game.rules.allowances import UnitUses
from game.rules.ids import RULE_IDS

GAMES = {p: Game.load(profile=p, rounds=2) for p in ("aos4", "aos3")}


def _dump(state: State) -> str:
    return json.dumps(state.to_dict(), sort_keys=True)


def _play(state: State, seed: int, steps: int, check=None) -> list:
    bots = {1: RandomBot(1, seed), 2: RandomBot(2, seed)}
    log = []
    for _ in range(steps):
        if state.is_over():
            break
        action = bots[state.pending().player].choose(state)
        events = state.apply(action)
        log.append((action.to_dict(), [e.to_dict() for e in events]))
        if check:
            check(state, events)
    return log


def _check_invariants(state: State, events: list) -> None:
    game = state.game
    for key, u in state.phase_uses.items():
        if key.startswith("player"):
            continue
        ws = game.warscroll(state.units[key].warscroll)
        level = max(ws.wizard_level, ws.priest_level)
        assert isinstance(u, UnitUses), (key, u)
        assert u.power + u.penalty <= level or u.power == 0, (key, u)  # M1
        assert u.unbinds + (u.penalty if u.unbinds else 0) <= ws.wizard_level, (key, u)  # M6
        assert len(u.used) == len(set(u.used)), (key, u)  # R1
    for player, t in state.turn_uses.items():
        once = [a for a in t.abilities if not game.content.abilities[a].unlimited]
        assert len(once) == len(set(once)), (player, t)  # M2, M7
    for u in state.units.values():
        assert u.ritual_points >= 0  # M5
    for e in events:
        assert e.rule in RULE_IDS, e


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10_000), profile=st.sampled_from(["aos4", "aos3"]))
def test_m1_m7_r1_random_hero_phases_never_break_the_allowances(seed, profile):
    state = GAMES[profile].new_state(seed=seed)
    _play(state, seed, 400, _check_invariants)


@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 10_000), cut=st.integers(0, 120))
def test_to_dict_from_dict_round_trips_exactly_and_continues_identically(seed, cut):
    game = GAMES["aos4"]
    state = game.new_state(seed=seed)
    _play(state, seed, cut)
    copy = State.from_dict(json.loads(json.dumps(state.to_dict())), game)
    assert _dump(copy) == _dump(state)
    # The same later actions give the same events from the original and from the copy.
    bots = {1: RandomBot(1, seed + 1), 2: RandomBot(2, seed + 1)}
    for _ in range(40):
        if state.is_over():
            break
        action = bots[state.pending().player].choose(state)
        assert [e.to_dict() for e in state.apply(action)] == [e.to_dict() for e in copy.apply(action)]
    assert _dump(copy) == _dump(state)


@settings(max_examples=8, deadline=None)
@given(seed=st.integers(0, 10_000), cut=st.integers(0, 80))
def test_clone_is_independent(seed, cut):
    state = GAMES["aos4"].new_state(seed=seed)
    _play(state, seed, cut)
    before = _dump(state)
    twin = state.clone()
    _play(twin, seed + 7, 30)
    assert _dump(state) == before


@settings(max_examples=8, deadline=None)
@given(seed=st.integers(0, 10_000), cut=st.integers(0, 80))
def test_pending_legal_and_explain_never_change_the_state(seed, cut):
    state = GAMES["aos3"].new_state(seed=seed)
    _play(state, seed, cut)
    before = _dump(state)
    d = state.pending()
    for a in d.options:
        assert state.legal(a) and state.explain(a) == []
    assert _dump(state) == before


@pytest.mark.parametrize("profile", ["aos4", "aos3"])
def test_same_seed_and_actions_give_identical_events(profile):
    a = _play(GAMES[profile].new_state(seed=11), 11, 10_000)
    b = _play(GAMES[profile].new_state(seed=11), 11, 10_000)
    assert json.dumps(a) == json.dumps(b)
    c = _play(GAMES[profile].new_state(seed=12), 12, 10_000)
    assert json.dumps(a) != json.dumps(c)


def test_every_listed_option_is_legal_through_a_whole_game():
    state = GAMES["aos4"].new_state(seed=5)
    rng = random.Random(5)
    while not state.is_over():
        d = state.pending()
        assert d.options, d
        bad = [a for a in d.options if not state.legal(a)]
        assert not bad, bad[:3]
        state.apply(rng.choice(d.options))


@pytest.mark.soak
def test_soak_1000_hero_phases_run_clean():
    """Random legal play until 1,000 hero phases have been played, in both profiles."""
    hero_phases, seed = 0, 0
    while hero_phases < 1000:
        profile = "aos4" if seed % 2 == 0 else "aos3"
        state = Game.load(profile=profile).new_state(seed=seed)

        def count(s, events):
            nonlocal hero_phases
            _check_invariants(s, events)
            hero_phases += sum(1 for e in events if e.type == "PhaseStarted" and e.phase == "hero")

        _play(state, seed, 100_000, count)
        assert state.is_over()
        seed += 1
