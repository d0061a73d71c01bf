"""More of the engine's messages in Korean and Japanese (issue 22, domain "engine"): the refusals a
click can meet (self only, immune E1, cannot move and PREDATORY M10, not dispellable E3, cannot
fight and out of reach R4, phase ending R2) keep their English text byte for byte and are worded
with no English left."""

from __future__ import annotations

import re

import pytest

from game import i18n
from game.rules import EndPhase, IllegalActionError
from game.rules.actions import CastSpell, Dispel, Fight, MoveUnit
from game.ui.engine_words import engine_text
from tests.helpers import P1_WIZ2, battle
from tests.rules.test_rules_battle import GUARD
from tests.rules.test_rules_m10_walkers import _field, _put
from tests.rules.test_rules_seed_corrections import _start_of_turn

WARDENS = "mire_wardens"


@pytest.fixture
def lang():
    yield i18n.set_language
    i18n.set_language("en")


def _names(s) -> set[str]:
    """Words of the units', manifestations' and spells' names (content: the rules domain's)."""
    names = [u.name for u in s.units.values()]
    names += [s.game.content.manifestations[m.scroll].name for m in s.manifestations.values()]
    names += [a.name for a in s.game.content.abilities.values()]
    return {w for n in names for w in re.findall(r"[A-Za-z]{3,}", n)}


def _english_left(s, text: str) -> list[str]:
    allowed = _names(s) | {"WIZARD", "PRIEST"}
    return [w for w in re.findall(r"[A-Za-z]{3,}", text) if w not in allowed]


def _refused(s, action) -> IllegalActionError:
    with pytest.raises(IllegalActionError) as err:
        s.apply(action)
    return err.value


def _cases():
    """(state, the engine's message, its exact English text) for hand-built refusals."""
    hero = battle({"w": (1, P1_WIZ2, [(10, 10)]), "foe": (2, WARDENS, [(50, 40)])}, phase="hero")
    walk = _field()
    _put(walk, "beacon", "ember_beacon", 1, "w1", 20, 32)
    _put(walk, "pyre", "rolling_pyre", 1, "w1", 20, 44)
    aos3 = _field(profile="aos3")
    dispel = _start_of_turn()
    dispel.apply(EndPhase(player=1))
    units = {"a1": (1, GUARD, [(10, 10)]), "b1": (2, WARDENS, [(10, 12.5)]), "b2": (2, WARDENS, [(40, 30)])}
    fight = battle(units, [1, 1], phase="charge")  # a1's 2 hit rolls miss
    fight.apply(EndPhase(player=1))
    fight.apply(Fight(player=1, unit="a1", target="b1"))
    out = [
        (
            hero,
            _refused(hero, CastSpell(player=1, unit="w", spell="heat_haze", target="foe")).message,
            "Heat Haze can only affect its user",
        ),
        (
            walk,
            _refused(walk, MoveUnit(player=1, unit="beacon", to=((21, 32),))).message,
            'Ember Beacon (beacon) has Move "-": it cannot move (M10)',
        ),
        (
            walk,
            _refused(walk, MoveUnit(player=1, unit="pyre", to=((21, 44),))).message,
            "Rolling Pyre (pyre) is PREDATORY: it moves only by the predatory procedure at the end of each "
            "hero phase (M10, E6) (M10)",
        ),
        (
            aos3,
            _refused(aos3, MoveUnit(player=1, unit="golem", to=((22, 22),))).message,
            "Kiln Golem (golem) is an endless spell: in this profile it does not move like a unit (E1)",
        ),
        (
            dispel,
            dispel.explain(Dispel(player=1, unit="w2", manifestation="hound"))[0],
            None,
        ),
        (
            fight,
            fight.explain(Fight(player=2, unit="b2", target="a1"))[0],
            "Mire Wardens (b2) cannot fight now: it is not in combat, has no melee weapons or has fought (R4)",
        ),
        (
            walk,
            walk.explain(MoveUnit(player=1, unit="w1", to=((10, 30), (12, 30))))[0],
            "Pyre-Magister (w1) cannot make a normal move there: give one position per model on the battlefield: "
            "1, not 2 (G4)",
        ),
        (
            walk,
            walk.explain(MoveUnit(player=1, unit="foe", to=((50, 38),)))[0],
            "Mire Wardens (foe) belongs to player 2",
        ),
        (
            walk,
            walk.explain(MoveUnit(player=1, unit="golem", to=((20, 22), (21, 22))))[0],
            "Kiln Golem (golem) cannot make a normal move there: give one position, the centre of its footprint, not 2 (G4)",
        ),
    ]
    return out


def test_e1_e3_m10_r4_refusals_keep_their_exact_english_text():
    for s, message, english in _cases():
        if english is not None:
            assert message == english
        assert getattr(message, "code", "")  # a Problem: worded from its fields


@pytest.mark.parametrize("code", ["ko", "ja"])
def test_e1_e3_m10_r4_refusals_have_no_english_left(lang, code):
    for s, message, english in _cases():
        lang(code)
        for said in (engine_text(message, s), engine_text(str(message), s)):
            assert said != str(message) and not _english_left(s, said), (str(message), said)
            assert not re.search(r"\((beacon|pyre|golem|hound|a1|b2|w[12]?|foe)\)", said), said
        lang("en")


def test_engine_text_in_english_is_the_engine_text_without_ids():
    for s, message, english in _cases():
        assert engine_text(message) == re.sub(r" \((beacon|pyre|golem|hound|a1|b2|w[12]?|foe)\)", "", str(message))
