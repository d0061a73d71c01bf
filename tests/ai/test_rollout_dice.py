"""The hard bot's rollout dice: one stream per purpose, and still fair dice."""

from __future__ import annotations

from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from game.ai.rollout_dice import RolloutDice
from game.rules.dice import SeededDice

CHARGE = "charge roll (2D6)"
HITS = "Hooked Glaive hit rolls (3+-0)"


def test_a_purpose_keeps_its_rolls_whatever_other_purposes_rolled_first():
    # the point of the streams: two candidates that roll different hit dice still meet the same charge roll
    quiet, busy = RolloutDice(7), RolloutDice(7)
    busy.roll(13, 6, HITS)
    busy.roll(1, 3, "miscast damage (D3)")
    assert [busy.roll(2, 6, CHARGE) for _ in range(5)] == [quiet.roll(2, 6, CHARGE) for _ in range(5)]


def test_one_shared_stream_would_not_keep_them():
    # the contrast: on the game's own kind of dice, an extra roll shifts every later one
    quiet, busy = SeededDice.from_seed(7), SeededDice.from_seed(7)
    busy.roll(13, 6, HITS)
    assert [busy.roll(2, 6, CHARGE) for _ in range(5)] != [quiet.roll(2, 6, CHARGE) for _ in range(5)]


def test_the_same_purpose_moves_on_from_roll_to_roll():
    d = RolloutDice(7)
    assert len({d.roll(2, 6, CHARGE) for _ in range(40)}) > 10


def test_purposes_and_seeds_give_different_dice():
    d = RolloutDice(1)
    assert [d.roll(6, 6, HITS) for _ in range(3)] != [d.roll(6, 6, CHARGE) for _ in range(3)]
    assert [RolloutDice(1).roll(6, 6, HITS) for _ in range(3)] != [RolloutDice(2).roll(6, 6, HITS) for _ in range(3)]


def test_a_clone_continues_the_same_dice_and_is_independent():
    d = RolloutDice(5)
    d.roll(3, 6, HITS)
    c = d.clone()
    assert [c.roll(2, 6, CHARGE) for _ in range(4)] == [d.roll(2, 6, CHARGE) for _ in range(4)]
    c.roll(9, 6, HITS)  # moves the clone's hit stream only
    assert c.to_dict()["streams"][HITS] != d.to_dict()["streams"][HITS]
    assert c.to_dict()["streams"][CHARGE] == d.to_dict()["streams"][CHARGE]


def test_every_face_is_equally_likely_in_every_position():
    # a fair die: 600 rolls of 8D6, each position counted (expected 100 of each face)
    d = RolloutDice(13)
    by_pos = [Counter() for _ in range(8)]
    for _ in range(600):
        for i, x in enumerate(d.roll(8, 6, HITS)):
            by_pos[i][x] += 1
    for c in by_pos:
        assert set(c) == {1, 2, 3, 4, 5, 6}
        assert all(60 <= n <= 140 for n in c.values()), c


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
