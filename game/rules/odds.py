"""Exact odds of the game's dice, by enumerating them (never by simulation): magic (casting,
unbinding, prayers, banishing, dispelling), dice expressions, the charge roll and the attack
sequence (M3-M6, M12, E3, R3, R4).

This is the one module of odds. The UI shows these numbers and the AI weighs its choices with
them; neither keeps a copy of the maths. Probabilities are in [0, 1]; `*_fraction` variants
give the exact `Fraction`. Answers are memoised: the bots ask the same few questions thousands
of times.

The attack sequence (R3) is resolved by `game.rules.attacks.resolve_attacks`, which reads the
weapon and the situation through the same helpers as the odds here, so the two cannot drift:
- `strike_of(weapon)`: what the sequence reads from a weapon (its profile, the effect of a
  critical hit, anti-hero, the charge bonus);
- `Situation` (built from the state by `game.rules.attacks.situation`): the attacker's hit
  modifier (a hit debuff, -1 for Cover when shooting), whether it charged this turn, and the
  target's save, save buffs, ward (ward buffs included) and HERO keyword;
- `profile(strike, situation)`: the effective profile, with the -1/+1 cap on the hit modifier,
  anti-hero and the charge bonus applied: the numbers every roll is made against;
- the per-die rules `hit_roll_hits`, `critical_hit`, `wound_roll_wounds`, `save_roll_fails`
  and `ward_roll_stops`, which the engine applies to each die and the odds count over a D6.
Per attack: a hit roll (an unmodified 6 is a critical hit and always hits, an unmodified 1
always fails); a critical hit's effect is "mortal" (mortal damage: no wound or save roll),
"auto_wound" (no wound roll), "two_hits" (two hits) or none; a wound roll per hit; a save roll
per wound (none with a Save of 7); the Damage (3, D3, D6, 2D6, D3+1 ...) plus the charge bonus
per failed save or mortal hit; a ward roll per damage point, mortal ones included. Given the
counts every stage is independent of the others, so the expected damage is exact as a product
of per-attack probabilities: the mean of the damage points the target takes (`DamageDealt`
amounts) while it lives (normal damage is dealt first, then mortal; a target slain by the
first gets none of the second).

The float answers (`attack_mean`, `expr_distribution` ...) are computed by the same formulas as
the exact ones, only in floats (one code path, `one = 1.0` or `Fraction(1)`), in the operation
order the bots have always used, so their values are bit-for-bit those the bots have acted on.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass
from fractions import Fraction
from functools import cache, lru_cache
from itertools import product
from typing import TYPE_CHECKING, TypeVar

from game.rules.dicexpr import parse_expr

if TYPE_CHECKING:
    from game.data.models import Weapon

D6 = range(1, 7)
N = TypeVar("N", float, Fraction)


@cache
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


def prayer_fail_fraction() -> Fraction:
    """M5: P(the chanting roll is an unmodified 1: the prayer fails and costs D3 ritual points)."""
    return Fraction(1, 6)


def prayer_fail_chance() -> float:
    return float(prayer_fail_fraction())


# --- dice expressions (3, D3, D6, 2D6, D3+1) ---------------------------------------------------


def _expr_mean(expr: int | str, one: N) -> N:
    count, sides, plus = parse_expr(expr)
    if count == 0:
        return one * plus
    return one * (count * (sides + 1)) / 2 + plus


def expr_mean(expr: int | str) -> float:
    """The expected value of a dice expression."""
    return _expr_mean(expr, 1.0)


def expr_mean_fraction(expr: int | str) -> Fraction:
    """The exact expected value of a dice expression."""
    return _expr_mean(expr, Fraction(1))


def _expr_dist(expr: int | str, one: N) -> tuple[tuple[int, N], ...]:
    count, sides, plus = parse_expr(expr)
    if count == 0:
        return ((plus, one),)
    zero = one * 0
    dist = {0: one}
    for _ in range(count):
        nxt: dict[int, N] = {}
        for v, p in dist.items():
            for f in range(1, sides + 1):
                nxt[v + f] = nxt.get(v + f, zero) + p / sides
        dist = nxt
    return tuple(sorted((v + plus, p) for v, p in dist.items()))


@cache
def expr_distribution_fraction(expr: int | str) -> tuple[tuple[int, Fraction], ...]:
    """The exact distribution of a dice expression: ((value, probability), ...), by value."""
    return _expr_dist(expr, Fraction(1))


@cache
def expr_distribution(expr: int | str) -> tuple[tuple[int, float], ...]:
    """`expr_distribution_fraction` in floats."""
    return _expr_dist(expr, 1.0)


def _d6_at_least(n: int, one: N) -> N:
    return one * sum(1 for d in D6 if d >= n) / 6


def d6_at_least_fraction(n: int) -> Fraction:
    """P(D6 >= n), with no special 1 or 6 (an effect's "on a roll of n+")."""
    return _d6_at_least(n, Fraction(1))


def d6_at_least(n: int) -> float:
    return _d6_at_least(n, 1.0)


def _mortal_dist(amount: int | str, on: int | None, one: N) -> tuple[tuple[int, N], ...]:
    dist = _expr_dist(amount, one)
    if on is None:
        return dist
    p = _d6_at_least(on, one)
    return tuple([(0, 1 - p)] + [(d, q * p) for d, q in dist])


def mortal_damage_distribution(amount: int | str, on: int | None = None) -> tuple[tuple[int, float], ...]:
    """The damage points of a "mortal_damage" effect (`amount`, a dice expression), or of a
    "mortal_damage_on_roll" one (`amount` on a D6 roll of `on`+; 0 points otherwise), before
    wards (`after_ward`). A D6 with `on` of 7 never succeeds."""
    return _mortal_dist(amount, on, 1.0)


def mortal_damage_distribution_fraction(amount: int | str, on: int | None = None) -> tuple[tuple[int, Fraction], ...]:
    """`mortal_damage_distribution`, exact."""
    return _mortal_dist(amount, on, Fraction(1))


# --- the charge roll (R4) ------------------------------------------------------------------------


@lru_cache(maxsize=64)
def two_d6_at_least_fraction(need: int) -> Fraction:
    """P(2D6 >= need)."""
    return Fraction(sum(1 for a, b in _two_d6() if a + b >= need), 36)


def charge_roll_needed(distance: float) -> int:
    """R4: the least 2D6 roll that lets a unit move `distance` inches (a move may be up to the
    roll, within the engine's 1e-9" tolerance); never below 2, the least 2D6 can roll."""
    return max(2, math.ceil(distance - 1e-9))


def charge_fraction(distance: float) -> Fraction:
    """R4: P(the 2D6 charge roll is at least `distance` inches)."""
    return two_d6_at_least_fraction(charge_roll_needed(distance))


def charge_chance(distance: float) -> float:
    return float(charge_fraction(distance))


# --- the attack sequence (R3): the per-die rules ---------------------------------------------------


def critical_hit(d: int) -> bool:
    """R3: an unmodified 6 to hit is a critical hit."""
    return d == 6


def hit_roll_hits(d: int, hit: int, mod: int) -> bool:
    """R3: a hit roll of `d` hits: an unmodified 6 always, an unmodified 1 never, otherwise
    d + mod >= hit (`mod` already capped, `Profile.hit_mod`)."""
    return d == 6 or (d != 1 and d + mod >= hit)


def wound_roll_wounds(d: int, wound: int) -> bool:
    """R3: a wound roll of `d` wounds: an unmodified 1 never, a 6 always, otherwise d >= wound."""
    return d != 1 and (d == 6 or d >= wound)


def save_roll_fails(d: int, save: int, rend: int, save_mod: int) -> bool:
    """R3: a save roll of `d` fails: an unmodified 1, or d - rend + save_mod < save. (With a
    Save of 7, or one no die can pass, no save is rolled: every wound is unsaved, `Profile.save_roll`.)"""
    return d == 1 or d - rend + save_mod < save


def ward_roll_stops(d: int, ward: int) -> bool:
    """R3: a ward roll of `d` stops its damage point: d >= ward (a ward of 0: none is rolled)."""
    return d >= ward


# --- the attack sequence (R3): weapon, situation, effective profile -------------------------------


@dataclass(frozen=True)
class Strike:
    """What the attack sequence reads from a weapon: its profile and its abilities.

    `crit` is the effect of a critical hit, in the engine's order of precedence: "mortal", else
    "auto_wound", else "two_hits", else "" (an ordinary hit). An ability counts when its values
    sum above 0; `anti_hero` (Wound less against a HERO) and `charge_bonus` (Damage more if the
    attacker charged this turn) are sums.
    """

    attacks: int | str
    hit: int
    wound: int
    rend: int
    damage: int | str
    crit: str = ""
    anti_hero: int = 0
    charge_bonus: int = 0


_STRIKES: dict[int, tuple["Weapon", Strike]] = {}


def strike_of(w: "Weapon") -> Strike:
    """The weapon as the attack sequence reads it (memoised per weapon object)."""
    found = _STRIKES.get(id(w))
    if found is not None and found[0] is w:
        return found[1]

    def total(kind: str) -> int:
        return sum(a.value for a in w.abilities if a.kind == kind)

    crit = next(
        (
            c
            for c, kind in (("mortal", "crit_mortal"), ("auto_wound", "crit_auto_wound"), ("two_hits", "crit_two_hits"))
            if total(kind)
        ),
        "",
    )
    s = Strike(w.attacks, w.hit, w.wound, w.rend, w.damage, crit, total("anti_hero"), total("charge_damage_bonus"))
    _STRIKES[id(w)] = (w, s)  # the weapon is held, so its id is not reused
    return s


@dataclass(frozen=True)
class Volley:
    """One weapon fired or swung by `models` models."""

    weapon: "Weapon"
    models: int


@dataclass(frozen=True)
class Situation:
    """What the attack sequence reads besides the weapons (R3), as
    `game.rules.attacks.situation` reads it from the state: the target's Save (7: none), save
    buffs, ward (0: none; the best of its warscroll's and its ward buffs) and HERO keyword; the
    attacker's total hit modifier before the -1/+1 cap (a hit debuff, -1 for Cover when
    shooting) and whether it charged this turn."""

    save: int
    ward: int = 0
    save_mod: int = 0
    hero: bool = False
    hit_mod: int = 0
    charged: bool = False


@dataclass(frozen=True)
class Profile:
    """The effective profile of one weapon in one situation: what each roll of the attack
    sequence is made against (R3). `hit_mod` is capped at -1/+1, `wound` has anti-hero taken
    off against a HERO, `bonus` is the charge bonus added to each damage roll (0 unless the
    attacker charged)."""

    attacks: int | str
    hit: int
    hit_mod: int
    crit: str
    wound: int
    save: int
    rend: int
    save_mod: int
    damage: int | str
    bonus: int
    ward: int

    @property
    def save_roll(self) -> bool:
        """Whether save rolls are made (R3): not with a Save of 7 (none), nor when no die can pass
        after Rend and save buffs ("no save: 7+ after rend"); those wounds are all unsaved."""
        return self.save <= 6 and any(not save_roll_fails(d, self.save, self.rend, self.save_mod) for d in D6)


@lru_cache(maxsize=65536)
def profile(s: Strike, sit: Situation) -> Profile:
    """The effective profile of `s` in `sit` (R3): the one place the hit modifier's cap,
    anti-hero and the charge bonus are applied, for the engine and the odds alike."""
    return Profile(
        attacks=s.attacks,
        hit=s.hit,
        hit_mod=max(-1, min(1, sit.hit_mod)),
        crit=s.crit,
        wound=s.wound - (s.anti_hero if sit.hero else 0),
        save=sit.save,
        rend=s.rend,
        save_mod=sit.save_mod,
        damage=s.damage,
        bonus=s.charge_bonus if sit.charged else 0,
        ward=sit.ward,
    )


# --- the attack sequence (R3): the odds ------------------------------------------------------------


def _share(one: N, count: int) -> N:
    """`count` faces out of a D6."""
    return one * count / 6


def _p_hit(p: Profile, one: N) -> N:
    return _share(one, sum(1 for d in D6 if hit_roll_hits(d, p.hit, p.hit_mod)))


def _p_critical(one: N) -> N:
    return _share(one, sum(1 for d in D6 if critical_hit(d)))


def _p_wound(p: Profile, one: N) -> N:
    return _share(one, sum(1 for d in D6 if wound_roll_wounds(d, p.wound)))


def _p_fail_save(p: Profile, one: N) -> N:
    if not p.save_roll:
        return one
    return _share(one, sum(1 for d in D6 if save_roll_fails(d, p.save, p.rend, p.save_mod)))


def _ward_pass(ward: int, one: N) -> N:
    if not ward:
        return one
    return _share(one, sum(1 for d in D6 if not ward_roll_stops(d, ward)))


def ward_pass_fraction(ward: int) -> Fraction:
    """R3: the share of damage points that get through a ward of `ward`+ (0: none)."""
    return _ward_pass(ward, Fraction(1))


def ward_pass(ward: int) -> float:
    return _ward_pass(ward, 1.0)


def _after_ward(dist: Iterable[tuple[int, N]], ward: int, one: N) -> tuple[tuple[int, N], ...]:
    if not ward:
        return tuple(dist)
    q = _ward_pass(ward, one)
    zero = one * 0
    out: dict[int, N] = {}
    for d, p in dist:
        for k in range(d + 1):
            pk = math.comb(d, k) * q**k * (1 - q) ** (d - k)
            out[k] = out.get(k, zero) + p * pk
    return tuple(sorted(out.items()))


def after_ward(dist: Iterable[tuple[int, float]], ward: int) -> tuple[tuple[int, float], ...]:
    """R3: a distribution of damage points ((points, probability), ...) after a ward of
    `ward`+ is rolled for each point (0: no ward)."""
    return _after_ward(dist, ward, 1.0)


def after_ward_fraction(dist: Iterable[tuple[int, Fraction]], ward: int) -> tuple[tuple[int, Fraction], ...]:
    """`after_ward`, exact (give the distribution in `Fraction`s)."""
    return _after_ward(dist, ward, Fraction(1))


def hit_fraction(hit: int, mod: int = 0) -> Fraction:
    """R3: P(one hit roll hits) against `hit`+ with a hit modifier of `mod` (capped at -1/+1)."""
    return _p_hit(profile(Strike(1, hit, 4, 0, 1), Situation(7, hit_mod=mod)), Fraction(1))


def wound_fraction(wound: int) -> Fraction:
    """R3: P(one wound roll wounds) against `wound`+."""
    return _p_wound(profile(Strike(1, 4, wound, 0, 1), Situation(7)), Fraction(1))


def fail_save_fraction(save: int, rend: int = 0, save_mod: int = 0) -> Fraction:
    """R3: P(one wound is unsaved) against a Save of `save` (7: none), `rend` and save buffs."""
    return _p_fail_save(profile(Strike(1, 4, 4, rend, 1), Situation(save, save_mod=save_mod)), Fraction(1))


def _attack_mean(p: Profile, models: int, one: N) -> tuple[N, N]:
    attacks = _expr_mean(p.attacks, one) * models
    six = _p_critical(one)
    normal_hit = _p_hit(p, one) - six  # hits that are not critical (a 6 always hits)
    pw = _p_wound(p, one)
    pf = _p_fail_save(p, one)
    dmg = _expr_mean(p.damage, one) + p.bonus
    per_attack = normal_hit * pw * pf * dmg
    if p.crit == "mortal":  # no wound or save roll
        per_attack += six * dmg
    elif p.crit == "auto_wound":  # no wound roll
        per_attack += six * pf * dmg
    elif p.crit == "two_hits":
        per_attack += six * 2 * pw * pf * dmg
    else:
        per_attack += six * pw * pf * dmg
    hits = attacks * (normal_hit + six * (2 if p.crit == "two_hits" else 1))
    return hits, attacks * per_attack * _ward_pass(p.ward, one)


@lru_cache(maxsize=65536)
def attack_mean(s: Strike, models: int, sit: Situation) -> tuple[float, float]:
    """(expected hits, expected damage points through the ward) of `models` models attacking
    with `s` in `sit` (R3): hits as `AttacksResolved.hits` counts them (critical hits included,
    two for "two_hits"), damage as the target takes it (`DamageDealt` amounts, mortal
    included)."""
    return _attack_mean(profile(s, sit), models, 1.0)


@lru_cache(maxsize=4096)
def attack_mean_fraction(s: Strike, models: int, sit: Situation) -> tuple[Fraction, Fraction]:
    """`attack_mean`, exact."""
    return _attack_mean(profile(s, sit), models, Fraction(1))


def expected(volleys: Iterable[Volley], sit: Situation) -> tuple[float, float]:
    """(expected hits, expected damage points the target takes) of `volleys` in `sit`: the
    exact means of `game.rules.attacks.resolve_attacks`, summed over the volleys in order."""
    hits = damage = 0.0
    for v in volleys:
        h, d = attack_mean(strike_of(v.weapon), v.models, sit)
        hits += h
        damage += d
    return hits, damage


def expected_fraction(volleys: Iterable[Volley], sit: Situation) -> tuple[Fraction, Fraction]:
    """`expected`, exact."""
    hits = damage = Fraction(0)
    for v in volleys:
        h, d = attack_mean_fraction(strike_of(v.weapon), v.models, sit)
        hits += h
        damage += d
    return hits, damage


def expected_damage(volleys: Iterable[Volley], sit: Situation) -> float:
    """The expected damage points the target takes from `volleys` in `sit` (R3): the number the
    UI's target panel shows and the bots weigh."""
    return expected(volleys, sit)[1]


def expected_damage_fraction(volleys: Iterable[Volley], sit: Situation) -> Fraction:
    """`expected_damage`, exact."""
    return expected_fraction(volleys, sit)[1]
