"""Exact odds (game.rules.odds) against brute-force simulation and hand-counted values."""

from __future__ import annotations

import random
from fractions import Fraction

import pytest

from game.rules import odds


def test_m3_cast_odds_by_hand():
    # 7+ on 2D6 is 21/36; no miscast can reach 7. 2+ excludes only the double 1.
    assert odds.cast_fraction(7) == Fraction(21, 36)
    assert odds.cast_fraction(2) == Fraction(35, 36)
    assert odds.miscast_fraction() == Fraction(1, 36)


def test_m6_unbind_must_be_higher():
    assert odds.unbind_fraction(7) == Fraction(15, 36)  # 8+
    assert odds.unbind_fraction(12) == 0


def test_m5_prayer_odds_with_ritual_points():
    assert odds.prayer_fraction(5, 0) == Fraction(2, 6)  # 5 or 6
    assert odds.prayer_fraction(5, 3) == Fraction(5, 6)  # any 2+
    assert odds.prayer_fraction(5, 10) == Fraction(5, 6)  # a 1 always fails


def test_m12_and_e3_odds():
    assert odds.banish_fraction(7, 2) == Fraction(sum(1 for a in range(1, 7) for b in range(1, 7) if a + b >= 5), 36)
    assert odds.dispel_fraction(6) == Fraction(21, 36)  # 7+


@pytest.mark.parametrize("value", [5, 7, 9])
def test_odds_match_brute_force_simulation(value):
    rng = random.Random(value)
    n = 60_000
    cast = lands = 0
    for _ in range(n):
        a, b = rng.randint(1, 6), rng.randint(1, 6)
        if (a, b) == (1, 1) or a + b < value:
            continue
        cast += 1
        if rng.randint(1, 6) + rng.randint(1, 6) <= a + b:
            lands += 1
    assert abs(cast / n - odds.cast_chance(value)) < 0.01
    assert abs(lands / n - odds.lands_chance(value, unbind_available=True)) < 0.01
    assert odds.lands_chance(value, unbind_available=False) == odds.cast_chance(value)
    chant_pts = value - 4
    hits = sum(1 for _ in range(n) if (r := rng.randint(1, 6)) >= 2 and r + chant_pts >= value)
    assert abs(hits / n - odds.prayer_chance(value, chant_pts)) < 0.01
