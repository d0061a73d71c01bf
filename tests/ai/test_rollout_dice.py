"""The hard bot's rollout dice: one stream per purpose, stratified within a roll, and still fair dice."""

from __future__ import annotations

from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from game.ai.rollout_dice import RolloutDice

CHARGE = "charge roll (2D6)"
HITS = "Hooked Glaive hit rolls (3+-0)"


def test_a_purpose_keeps_its_rolls_whatever_other_purposes_rolled_first():
    # the point of the streams: two candidates that roll different hit dice still meet the same charge roll
    quiet, busy = RolloutDice(7), RolloutDice(7)
    busy.roll(13, 6, HITS)
    busy.roll(1, 3, "miscast damage (D3)")
    assert [busy.roll(2, 6, CHARGE) for _ in range(5)] == [quiet.roll(2, 6, CHARGE) for _ in range(5)]


def test_the_same_purpose_moves_on_from_roll_to_roll():
    d = RolloutDice(7)
    rolls = [d.roll(2, 6, CHARGE) for _ in range(40)]
    assert len(set(rolls)) > 10


def test_different_seeds_give_different_dice():
    assert [RolloutDice(1).roll(6, 6, HITS) for _ in range(3)] != [RolloutDice(2).roll(6, 6, HITS) for _ in range(3)]


def test_each_full_block_of_sides_dice_is_every_face_once():
    d = RolloutDice(3)
    dice = d.roll(20, 6, HITS)
    assert len(dice) == 20
    for start in (0, 6, 12):
        assert sorted(dice[start : start + 6]) == [1, 2, 3, 4, 5, 6]


def test_stratified_sums_stay_near_their_mean_and_plain_dice_do_not():
    # twelve hit rolls on 4+: always exactly 6 hits from stratified dice; independent dice spread
    d = RolloutDice(11)
    assert {sum(1 for x in d.roll(12, 6, HITS) if x >= 4) for _ in range(200)} == {6}
    assert len({sum(1 for _ in range(12) if d.roll(1, 6, "run (D6)")[0] >= 4) for _ in range(200)}) > 3


def test_a_clone_continues_the_same_dice_and_is_independent():
    d = RolloutDice(5)
    d.roll(3, 6, HITS)
    c = d.clone()
    assert [c.roll(2, 6, CHARGE) for _ in range(4)] == [d.roll(2, 6, CHARGE) for _ in range(4)]
    c.roll(9, 6, HITS)
    assert c.roll(9, 6, HITS) != d.roll(9, 6, HITS) or c.to_dict() != d.to_dict()


def test_every_face_is_equally_likely_in_every_position():
    # stratified or not, a single die is a fair die: 600 rolls of 8D6, each position counted
    d = RolloutDice(13)
    by_pos = [Counter() for _ in range(8)]
    for _ in range(600):
        for i, x in enumerate(d.roll(8, 6, HITS)):
            by_pos[i][x] += 1
    for c in by_pos:
        assert set(c) == {1, 2, 3, 4, 5, 6}
        assert all(60 <= n <= 140 for n in c.values()), c  # expected 100 each


@settings(max_examples=60, deadline=None)
@given(
    seed=st.integers(0, 2**62),
    rolls=st.lists(st.tuples(st.integers(0, 20), st.sampled_from([3, 6]), st.sampled_from([CHARGE, HITS, "x"])), max_size=8),
)
def test_rolls_are_legal_dice_and_replay_exactly_for_a_seed(seed, rolls):
    a, b = RolloutDice(seed), RolloutDice(seed)
    for count, sides, purpose in rolls:
        got = a.roll(count, sides, purpose)
        assert len(got) == count and all(1 <= x <= sides for x in got)
        assert b.roll(count, sides, purpose) == got
