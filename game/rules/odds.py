"""Exact odds for magic, by enumerating the dice (never by simulation).

All functions return a float probability in [0, 1]; `*_fraction` variants give the exact
`Fraction`. The UI shows these; the AI weighs its choices with them. Answers are memoised: the
bots ask the same few questions thousands of times.
"""

from __future__ import annotations

from fractions import Fraction
from functools import lru_cache
from itertools import product

D6 = range(1, 7)


@lru_cache(maxsize=None)
def _two_d6() -> tuple[tuple[int, int], ...]:
    return tuple(product(D6, D6))


@lru_cache(maxsize=4096)
def cast_fraction(value: int, modifier: int = 0) -> Fraction:
    """M3: P(casting roll + modifier >= value, and not a miscast of two unmodified 1s)."""
    hits = sum(1 for a, b in _two_d6() if not (a == 1 and b == 1) and a + b + modifier >= value)
    return Fraction(hits, 36)


def miscast_fraction() -> Fraction:
    """M3: P(two unmodified 1s on the casting roll) = 1/36."""
    return Fraction(1, 36)


@lru_cache(maxsize=4096)
def unbind_fraction(casting_roll: int, modifier: int = 0) -> Fraction:
    """M6: P(2D6 + modifier > casting_roll)."""
    return Fraction(sum(1 for a, b in _two_d6() if a + b + modifier > casting_roll), 36)


@lru_cache(maxsize=4096)
def lands_fraction(value: int, unbind_available: bool, modifier: int = 0, unbind_modifier: int = 0) -> Fraction:
    """M3 + M6: P(the spell is cast and survives the opponent's single unbind attempt).

    Only one unbind is allowed per cast, so "the best unbind" is any available unbinder.
    """
    total = Fraction(0)
    for a, b in _two_d6():
        roll = a + b + modifier
        if (a == 1 and b == 1) or roll < value:
            continue
        survive = 1 - unbind_fraction(roll, unbind_modifier) if unbind_available else Fraction(1)
        total += Fraction(1, 36) * survive
    return total


@lru_cache(maxsize=4096)
def prayer_fraction(value: int, ritual_points: int) -> Fraction:
    """M5: P(one chant is answered if the player spends): roll of 2+ and roll + points >= value."""
    return Fraction(sum(1 for r in D6 if r >= 2 and r + ritual_points >= value), 6)


@lru_cache(maxsize=4096)
def banish_fraction(value: int, bonus: int = 0) -> Fraction:
    """M12: P(2D6 + bonus >= banishment value)."""
    return Fraction(sum(1 for a, b in _two_d6() if a + b + bonus >= value), 36)


@lru_cache(maxsize=4096)
def dispel_fraction(casting_value: int) -> Fraction:
    """E3: P(2D6 > the endless spell's casting value)."""
    return Fraction(sum(1 for a, b in _two_d6() if a + b > casting_value), 36)


@lru_cache(maxsize=4096)
def cast_chance(value: int, modifier: int = 0) -> float:
    return float(cast_fraction(value, modifier))


@lru_cache(maxsize=4096)
def lands_chance(value: int, unbind_available: bool, modifier: int = 0, unbind_modifier: int = 0) -> float:
    return float(lands_fraction(value, unbind_available, modifier, unbind_modifier))


@lru_cache(maxsize=4096)
def unbind_chance(casting_roll: int, modifier: int = 0) -> float:
    return float(unbind_fraction(casting_roll, modifier))


@lru_cache(maxsize=4096)
def prayer_chance(value: int, ritual_points: int) -> float:
    return float(prayer_fraction(value, ritual_points))


@lru_cache(maxsize=4096)
def banish_chance(value: int, bonus: int = 0) -> float:
    return float(banish_fraction(value, bonus))


@lru_cache(maxsize=4096)
def dispel_chance(casting_value: int) -> float:
    return float(dispel_fraction(casting_value))
