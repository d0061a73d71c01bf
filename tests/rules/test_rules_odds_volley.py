"""The attack sequence's odds (game.rules.odds) are the exact means of the engine's own attack
resolution (R3): small volleys are played THROUGH THE ENGINE (`Shoot` and `Fight`, so
`resolve_attacks` and `deal_damage`) once for every outcome of every roll it makes, with
scripted dice, and the probability-weighted mean damage and hits are compared with the odds.

How the enumeration works: the engine is run on a clone of the position with a script of dice;
when the script runs out at a roll, that roll's count and sides are read and the run is
repeated once per outcome of that roll, the script extended by it. Every run that ends uses
its whole script (`ScriptedDice.assert_exhausted`), and the weights of the finished runs add
up to exactly 1. A roll of n dice is enumerated as its multisets of faces, weighted by the
number of orders each stands for (the engine only counts and sums the dice of one roll; one
test enumerates every ordered sequence as well and gets the same answer).

Also here: the UI's target and fight panels and the bots' weighing show and use the odds
module's number for the same attack.
"""

from __future__ import annotations

import dataclasses
import math
import re
from collections import Counter
from fractions import Fraction
from itertools import combinations_with_replacement, product
from types import SimpleNamespace

import pytest

from game.data.models import Weapon, WeaponAbility
from game.rules import EndPhase, Game, ScriptedDice, odds
from game.rules.actions import Fight, Shoot
from game.rules.attacks import situation
from game.rules.combat import fight_odds, fight_volleys
from game.rules.position import UnitSpec, build_position
from game.rules.shooting import in_cover, shooting_odds, shooting_volleys
from game.rules.units import Buff
from tests.helpers import small_map

R32 = 32 / 25.4 / 2
R90 = 90 / 25.4 / 2
ATTACKER, TARGET = "kindled_crossbows", "bog_behemoth"  # warscrolls given other profiles below


# --- enumerating the engine's dice -----------------------------------------------------------


class _NeedRoll(Exception):
    def __init__(self, count: int, sides: int) -> None:
        super().__init__(f"{count}D{sides}")
        self.count, self.sides = count, sides


@dataclasses.dataclass
class ProbeDice(ScriptedDice):
    """Scripted dice that, where the script ends, report the roll the engine asks for."""

    def roll(self, count: int, sides: int, purpose: str) -> tuple[int, ...]:
        if not self.script:
            raise _NeedRoll(count, sides)
        return super().roll(count, sides, purpose)


def _outcomes(count: int, sides: int, ordered: bool):
    """Every outcome of `count` dice of `sides` sides, with its probability."""
    total = sides**count
    if ordered:
        for faces in product(range(1, sides + 1), repeat=count):
            yield faces, Fraction(1, total)
        return
    for faces in combinations_with_replacement(range(1, sides + 1), count):
        orders = math.factorial(count)
        for k in Counter(faces).values():
            orders //= math.factorial(k)
        yield faces, Fraction(orders, total)


def _damage(events) -> int:
    return sum(e.amount for e in events if e.type in ("DamageDealt", "ManifestationDamaged"))


def _hits(events) -> int:
    return sum(e.hits for e in events if e.type == "AttacksResolved")


def enumerate_engine(base, action, *, ordered: bool = False):
    """(exact mean damage, exact mean hits, finished runs) of `action` applied to `base`,
    over every outcome of every roll the engine makes."""
    damage = hits = Fraction(0)
    weight_total = Fraction(0)
    runs = 0
    stack: list[tuple[tuple[int, ...], Fraction]] = [((), Fraction(1))]
    while stack:
        script, weight = stack.pop()
        s = base.clone()
        s.dice = ProbeDice(list(script))
        try:
            events = s.apply(action)
        except _NeedRoll as need:
            for faces, p in _outcomes(need.count, need.sides, ordered):
                stack.append((script + faces, weight * p))
            continue
        s.dice.assert_exhausted()  # every scripted die was rolled
        damage += weight * _damage(events)
        hits += weight * _hits(events)
        weight_total += weight
        runs += 1
    assert weight_total == 1  # the runs cover every outcome, once
    return damage, hits, runs


# --- positions -----------------------------------------------------------------------------


def _weapon(name="Test Weapon", *, rng=18.0, attacks=2, hit=4, wound=4, rend=0, damage=1, abilities=()):
    return Weapon(name=name, range=rng, attacks=attacks, hit=hit, wound=wound, rend=rend, damage=damage,
                  abilities=[WeaponAbility(kind=k, value=v) for k, v in abilities])


def _game(weapons, *, save=4, ward=0, hero=False, models=1):
    """Content where the attacker's warscroll carries `weapons` (and `models` models) and the
    target's is one model of health 30 (no attack here slays it) with `save`, `ward`, HERO."""
    base = Game.load(battlefield=small_map())
    c = base.content
    shooter = c.warscrolls[ATTACKER].model_copy(update={"weapons": list(weapons), "models": models})
    kw = [k for k in c.warscrolls[TARGET].keywords if k != "HERO"] + (["HERO"] if hero else [])
    target = c.warscrolls[TARGET].model_copy(update={"health": 30, "save": save, "ward": ward, "keywords": kw})
    tag = f"-volley-{id(shooter)}"
    content = dataclasses.replace(c, warscrolls={**c.warscrolls, ATTACKER: shooter, TARGET: target},
                                  content_hash=c.content_hash + tag)
    return Game.load(battlefield=small_map(), content=content)


def _position(game, *, phase, gap, models=1, terrain_cover=False):
    if terrain_cover:
        copse = {"name": "Copse", "traits": ["cover"], "points": [(4, 17), (16, 17), (16, 27), (4, 27)]}
        game = Game.load(battlefield=small_map([copse]), content=game.content)
    spots = [(10 + i * (2 * R32 + 0.5), 10) for i in range(models)]
    specs = [UnitSpec("a", 1, ATTACKER, spots), UnitSpec("t", 2, TARGET, [(10, 10 + R32 + R90 + gap)])]
    return build_position(game, specs, phase=phase, active=1, dice=ScriptedDice([]))


def _buff(s, uid, kind, value):
    s.units[uid].buffs.append(Buff(kind, value, "test", 1, s.turn))


def _shooting(weapons, *, models=1, cover=False, **target):
    s = _position(_game(weapons, models=models, **target), phase="shooting", gap=6.0, models=models, terrain_cover=cover)
    assert in_cover(s, "t") is cover
    return s, Shoot(player=1, unit="a", target="t")


def _fighting(weapons, *, charged=False, **target):
    s = _position(_game(weapons, **target), phase="charge", gap=1.0)
    if charged:
        s.units["a"].flags["charged_turn"] = s.turn
    s.apply(EndPhase(player=1))  # into the combat phase: player 1 picks a fighter
    assert s.pending().kind == "fight"
    return s, Fight(player=1, unit="a", target="t")


def _odds_of(s, action):
    """The odds module's (hits, damage) for the attack `action` makes, exactly."""
    if isinstance(action, Shoot):
        volleys = shooting_volleys(s, "a", "t")
        sit = situation(s, "a", "t", cover=in_cover(s, "t"))
    else:
        volleys = fight_volleys(s, "a", len(s.units["a"].live_models()))
        sit = situation(s, "a", "t")
    return odds.expected_fraction(volleys, sit), odds.expected(volleys, sit), sit


def _check(s, action, *, ordered=False, min_runs=2):
    damage, hits, runs = enumerate_engine(s, action, ordered=ordered)
    (h_exact, d_exact), (h_float, d_float), sit = _odds_of(s, action)
    assert runs >= min_runs
    assert d_exact == damage and h_exact == hits  # exactly, as fractions
    assert abs(d_float - float(damage)) < 1e-9 and abs(h_float - float(hits)) < 1e-9
    return damage, sit


# --- the volleys -----------------------------------------------------------------------------


def test_rend_and_an_ordinary_crit_against_a_save_two_models():
    s, a = _shooting([_weapon(attacks=1, hit=3, wound=4, rend=1, damage=2)], models=2, save=4)
    damage, _ = _check(s, a)
    # 2 models x 1 attack x (4/6 hit) x (3/6 wound) x (4/6 fail 4+ at rend 1) x 2 damage
    assert damage == 2 * Fraction(4, 6) * Fraction(3, 6) * Fraction(4, 6) * 2


def test_crit_mortal_with_rend_through_a_ward_every_point_warded():
    # mortal hits skip wound and save but not the ward, rolled per point, mortal ones too
    w = _weapon(attacks=2, hit=4, wound=3, rend=2, damage=1, abilities=[("crit_mortal", 1)])
    s, a = _shooting([w], save=3, ward=5)
    damage, sit = _check(s, a)
    assert sit.ward == 5 and damage > 0


def test_crit_auto_wound_and_anti_hero_with_a_save_buff_and_a_hit_debuff():
    w = _weapon(attacks=2, hit=3, wound=5, rend=1, damage="D3", abilities=[("crit_auto_wound", 1), ("anti_hero", 1)])
    s, a = _shooting([w], save=4, hero=True)
    _buff(s, "t", "save_buff", 1)  # a buff on the target
    _buff(s, "a", "hit_debuff", 1)  # a debuff on the attacker
    damage, sit = _check(s, a)
    assert (sit.save_mod, sit.hit_mod, sit.hero) == (1, -1, True)


def test_crit_two_hits_and_the_charge_bonus_in_a_fight_through_a_ward_buff():
    w = _weapon("Test Blade", rng=0, attacks=1, hit=4, wound=4, rend=1, damage=1,
                abilities=[("crit_two_hits", 1), ("charge_damage_bonus", 1)])
    s, a = _fighting([w], charged=True, save=5)
    _buff(s, "t", "ward_buff", 6)  # a buffed ward of 6+
    damage, sit = _check(s, a)
    assert sit.charged and sit.ward == 6
    # the same fight uncharged deals less: the bonus is read from the same situation
    s2, a2 = _fighting([w], charged=False, save=5)
    _buff(s2, "t", "ward_buff", 6)
    assert _check(s2, a2)[0] < damage


def test_cover_and_a_hit_debuff_are_capped_at_minus_one_with_random_attacks_and_no_save():
    w = _weapon(attacks="D3", hit=4, wound=3, rend=0, damage=1, abilities=[("crit_two_hits", 1)])
    s, a = _shooting([w], save=7, cover=True)
    _buff(s, "a", "hit_debuff", 1)  # -1 and Cover's -1: -2, capped at -1
    _, sit = _check(s, a)
    assert sit.hit_mod == -2 and odds.profile(odds.strike_of(w), sit).hit_mod == -1


def test_two_weapons_in_one_attack():
    ws = [_weapon("Bolt", attacks=1, hit=4, wound=4, rend=1, damage=1, abilities=[("crit_mortal", 1)]),
          _weapon("Dart", attacks=1, hit=5, wound=3, rend=0, damage="D3")]
    s, a = _shooting(ws, save=5)
    _check(s, a)


def test_ordered_sequences_give_the_same_mean_as_multisets():
    w = _weapon(attacks=1, hit=4, wound=4, rend=1, damage=2, abilities=[("crit_auto_wound", 1)])
    s, a = _shooting([w], save=4, ward=5)
    by_sets = enumerate_engine(s, a)
    by_orders = enumerate_engine(s, a, ordered=True)
    assert by_sets[:2] == by_orders[:2] and by_orders[2] > by_sets[2]


# --- the UI and the bots use the same number ---------------------------------------------------


def test_the_target_panel_and_the_bot_weigh_the_odds_modules_number_for_a_shot():
    from game.ai import knowledge as K
    from game.ui.controls.targets import shooting_control
    from game.ui.decisions import PanelContext

    # a ward, a save buff, a crit and Cover: all of them in the one number
    w = _weapon(attacks=3, hit=3, wound=3, rend=1, damage=2, abilities=[("crit_mortal", 1)])
    s, a = _shooting([w], models=2, save=4, ward=5, cover=True)
    _buff(s, "t", "save_buff", 1)
    want = odds.expected_damage(shooting_volleys(s, "a", "t"), situation(s, "a", "t", cover=True))
    hits = odds.expected(shooting_volleys(s, "a", "t"), situation(s, "a", "t", cover=True))[0]
    assert shooting_odds(s, "a", "t") == (hits, want)
    assert K.shot_mean(s, "a", "t") == want  # the bot's weighing of this shot
    view = shooting_control(PanelContext(session=SimpleNamespace(state=s), decision=s.pending(), selection={"unit": "a"}))
    button = next(b for b in view.buttons if b.label.startswith("Shoot "))
    assert f"expect {hits:.1f} hits, {want:.1f} damage" in button.odds
    assert float(re.search(r"([\d.]+) damage", button.odds).group(1)) == round(want, 1)


def test_the_fight_panel_and_the_bot_weigh_the_odds_modules_number_for_a_fight():
    from game.ai import knowledge as K
    from game.ui.controls.targets import fight_control
    from game.ui.decisions import PanelContext

    w = _weapon("Test Blade", rng=0, attacks=3, hit=3, wound=4, rend=1, damage=2,
                abilities=[("crit_two_hits", 1), ("charge_damage_bonus", 1)])
    s, a = _fighting([w], charged=True, save=4, ward=6)
    want = odds.expected_damage(fight_volleys(s, "a", 1), situation(s, "a", "t"))
    hits = odds.expected(fight_volleys(s, "a", 1), situation(s, "a", "t"))[0]
    assert fight_odds(s, "a", "t") == (hits, want, 1)
    assert K.fight_mean(s, "a", "t") == want  # the bot's weighing of this fight
    # the bot's what-if for the same attack (all models, charged as it is) is the same number
    assert K.attack_output(s, "a", "t", "combat", charged=True) == want
    view = fight_control(PanelContext(session=SimpleNamespace(state=s), decision=s.pending(), selection={"unit": "a"}))
    button = next(b for b in view.buttons if b.label.startswith("Fight "))
    assert f"up to ~{hits:.1f} hits, {want:.1f} damage" in button.odds


@pytest.mark.parametrize("gap, need", [(3.2, 3), (6.5, 6), (11.55, 12), (13.0, 13)])
def test_charge_odds_come_from_the_odds_module(gap, need):
    assert odds.charge_roll_needed(gap - 0.5) == need
    assert odds.charge_fraction(gap - 0.5) == Fraction(sum(1 for x in range(1, 7) for y in range(1, 7) if x + y >= need), 36)
