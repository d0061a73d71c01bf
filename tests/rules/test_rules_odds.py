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


# --- dice expressions, wards, the charge roll and the attack sequence (one odds module) ------


def test_dice_expressions_means_and_distributions():
    assert odds.expr_mean_fraction("D3+1") == 3 and odds.expr_mean("2D6") == 7.0 and odds.expr_mean(4) == 4.0
    dist = odds.expr_distribution_fraction("2D6")
    assert dist[0] == (2, Fraction(1, 36)) and dict(dist)[7] == Fraction(6, 36) and sum(p for _, p in dist) == 1
    assert odds.expr_distribution("D3") == ((1, 1 / 3), (2, 1 / 3), (3, 1 / 3))
    assert odds.expr_distribution_fraction(2) == ((2, Fraction(1)),)


def test_wards_and_mortal_damage_distributions():
    assert odds.ward_pass_fraction(5) == Fraction(4, 6) and odds.ward_pass(0) == 1.0
    warded = dict(odds.after_ward_fraction(((2, Fraction(1)),), 5))  # 2 points, each stopped on 5+
    assert warded == {0: Fraction(1, 9), 1: Fraction(4, 9), 2: Fraction(4, 9)}
    on = odds.mortal_damage_distribution_fraction("D3", 4)  # D3 mortal damage on a 4+
    assert on[0] == (0, Fraction(1, 2)) and sum(p for _, p in on) == 1
    assert odds.mortal_damage_distribution(1) == ((1, 1.0),)


def test_m5_a_chant_fails_on_a_one():
    assert odds.prayer_fail_fraction() == Fraction(1, 6)
    assert odds.prayer_fraction(2, 0) == 1 - odds.prayer_fail_fraction()


@pytest.mark.parametrize("distance, need", [(0.0, 2), (2.0, 2), (2.0000000001, 2), (2.5, 3), (7.0, 7), (12.2, 13)])
def test_r4_the_charge_roll(distance, need):
    assert odds.charge_roll_needed(distance) == need
    assert odds.charge_fraction(distance) == Fraction(sum(1 for a in range(1, 7) for b in range(1, 7) if a + b >= need), 36)
    assert odds.charge_chance(distance) == float(odds.charge_fraction(distance))


def test_r3_per_die_rules_one_fails_six_succeeds():
    assert odds.hit_fraction(2, 1) == Fraction(5, 6)  # a 1 always fails, even at +1
    assert odds.hit_fraction(6, -1) == Fraction(1, 6) and odds.hit_fraction(4, -3) == odds.hit_fraction(4, -1)  # capped
    assert odds.wound_fraction(2) == Fraction(5, 6) and odds.wound_fraction(6) == Fraction(1, 6)
    assert odds.fail_save_fraction(7, 0, 3) == 1  # no save to roll, whatever the buffs
    assert odds.fail_save_fraction(3, 0, 5) == Fraction(1, 6)  # a 1 always fails
    assert odds.fail_save_fraction(4, 1, 1) == Fraction(3, 6)


def test_r3_the_effective_profile_applies_the_cap_anti_hero_and_the_charge_bonus():
    s = odds.Strike(2, 4, 4, 1, "D3", "two_hits", anti_hero=1, charge_bonus=1)
    p = odds.profile(s, odds.Situation(4, ward=5, save_mod=1, hero=True, hit_mod=-2, charged=True))
    assert (p.hit_mod, p.wound, p.bonus, p.save, p.save_mod, p.ward) == (-1, 3, 1, 4, 1, 5)
    q = odds.profile(s, odds.Situation(7))
    assert (q.hit_mod, q.wound, q.bonus, q.save_roll) == (0, 4, 0, False)


@pytest.mark.parametrize("crit", ["", "mortal", "auto_wound", "two_hits"])
def test_r3_attack_means_float_and_exact_agree(crit):
    s = odds.Strike("D6", 3, 4, 2, "D3+1", crit, anti_hero=2, charge_bonus=1)
    for sit in (odds.Situation(4), odds.Situation(3, 6, 1, True, -1, True), odds.Situation(7, 4)):
        h, d = odds.attack_mean_fraction(s, 3, sit)
        fh, fd = odds.attack_mean(s, 3, sit)
        assert abs(fh - float(h)) < 1e-12 and abs(fd - float(d)) < 1e-12


def test_r3_a_volley_by_hand():
    # 10 attacks, 4+ / 4+, rend 1 against a 4+ save, 1 damage, through a 6+ ward:
    # 10 x 1/2 x 1/2 x 2/3 x 1 x 5/6
    s = odds.Strike(10, 4, 4, 1, 1)
    assert odds.attack_mean_fraction(s, 1, odds.Situation(4, ward=6)) == (5, 10 * Fraction(1, 2) * Fraction(1, 2) * Fraction(2, 3) * Fraction(5, 6))
    # mortal crits skip wound and save: 1/6 x D3 (mean 2) per attack, and the 4+ hits that are not 6s as usual
    m = odds.Strike(6, 4, 4, 0, "D3", "mortal")
    h, d = odds.attack_mean_fraction(m, 1, odds.Situation(4))
    assert h == 3 and d == 6 * (Fraction(1, 6) * 2 + Fraction(2, 6) * Fraction(1, 2) * Fraction(1, 2) * 2)


def test_no_dice_maths_outside_the_odds_module_in_the_ui_and_the_ai():
    # the UI shows and the bots weigh game.rules.odds; neither keeps its own formula
    import pathlib
    import re

    root = pathlib.Path(__file__).resolve().parents[2] / "game"
    pattern = re.compile(r"/ ?36\b|\b7 - |range\(1, ?7\)|/ ?6\b|math\.comb|def (expected\b|chance_2d6|p_2d6|p_hit|p_wound|expr_dist)")
    for folder in ("ui", "ai"):
        for path in (root / folder).rglob("*.py"):
            for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
                assert not pattern.search(line), f"{path.relative_to(root)}:{n}: {line.strip()}"
