"""M9, E2 (issue 24): the set-up search asks sight of several points at once (SightBatches), and
finds the very same points, in the same order, after the very same exact checks as the
point-by-point check, on crowded battlefields (random games with every unit quadrupled, as
bench/bench_game.py's 4x)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from game.ai.random_bot import RandomBot
from game.geometry import setup_region
from game.rules import summon_sight, summoning

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))
import bench_game  # noqa: E402


@pytest.fixture(scope="module")
def crowded():
    return bench_game.build("4x")


def _record(monkeypatch) -> list:
    """Every exact check the pickers make, as (x, y, legal), in order."""
    log: list = []
    orig = setup_region._Picker.attempt

    def attempt(self, p):
        before = (self.checks, len(self.found))
        done = orig(self, p)
        if self.checks != before[0]:
            log.append((*self.found[-1], True) if len(self.found) != before[1] else (p, False))
        return done

    monkeypatch.setattr(setup_region._Picker, "attempt", attempt)
    return log


@pytest.mark.parametrize("seed", [0, 3])
def test_m9_e2_batched_sight_search_same_points_and_checks_on_a_crowded_board(crowded, monkeypatch, seed):
    log = _record(monkeypatch)
    orig = summoning.candidate_points
    compared = {"searches": 0, "region": 0, "none": 0}

    def both(state, player, unit_id, model, scroll_id, limit=summoning.MAX_OPTIONS):
        # the search made: for fewer points than MAX_OPTIONS, the MAX_OPTIONS one (its first points)
        searched = limit if not 0 < limit < summoning.MAX_OPTIONS else summoning.MAX_OPTIONS
        key = summoning._key("setup_points", state, player, unit_id, model, scroll_id) + (searched,)
        if key in state._cache:
            return orig(state, player, unit_id, model, scroll_id, limit)
        results = []
        for batched in (True, False):
            state._cache.pop(key, None)
            monkeypatch.setattr(summon_sight, "BATCHED", batched)
            del log[:]
            results.append((orig(state, player, unit_id, model, scroll_id, limit), list(log)))
        assert results[0] == results[1]
        compared["searches"] += 1
        compared["region"] += len(results[0][1]) > 8  # past the rays: the region was searched
        compared["none"] += not results[0][0]
        return results[0][0]

    monkeypatch.setattr(summoning, "candidate_points", both)
    state = crowded.new_state(seed=seed)
    bots = {1: RandomBot(1, seed), 2: RandomBot(2, seed)}
    while not state.is_over():
        state.apply(bots[state.pending().player].choose(state))
    # the games reach the region search and searches that find nothing (where batching pays)
    assert compared["searches"] >= 5 and compared["region"] and compared["none"]


def test_m9_sight_batches_answer_as_problems_point_by_point(crowded):
    """SightBatches(x, y) == not problems(x, y, named=False) on a grid of points, with a picker's
    look-ahead feeding it the next points; the words of a failing point are unchanged."""
    state = crowded.new_state(seed=0)
    bots = {1: RandomBot(1, 0), 2: RandomBot(2, 0)}
    while not state.is_over() and not state.manifestations and state.turn < 2:
        state.apply(bots[state.pending().player].choose(state))
    unit = next(uid for uid, u in state.units.items() if u.player == 1 and not u.models[0].slain)
    scroll = next(iter(state.game.content.manifestations))
    check = summoning.setup_check(state, 1, unit, 0, scroll)
    sx, sy = check.source.centre
    pts = [(round(sx + dx * 0.7, 10), round(sy + dy * 0.7, 10)) for dx in range(-18, 19, 2) for dy in range(-18, 19, 2)]
    batches = summon_sight.SightBatches(check)
    queue = list(pts)
    batches.attach(lambda k: queue[:k])
    got = []
    while queue:
        x, y = queue.pop(0)
        got.append(batches(x, y))
    want = [not check.problems(x, y, named=False) for x, y in pts]
    assert got == want
    assert any(want) and not all(want)
    kinds = {p.code for x, y in pts for p in check.problems(x, y)}
    assert "unseen_setup" in kinds  # sight decides some points: the batches are exercised
