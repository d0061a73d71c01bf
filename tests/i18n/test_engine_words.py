"""The engine's messages in Korean and Japanese (issue 22, domain "engine"): the engine's English
text is unchanged, byte for byte, and `engine_text` words it with no English left (G1, G2, G4,
R1, R4, M3, M6, M8, M9, E3)."""

from __future__ import annotations

import re

import pytest

from game import i18n
from game.rules.actions import Banish, CastSpell, ChantPrayer, Charge, MoveUnit, Retreat, Shoot, Unbind
from game.ui.engine_words import TEMPLATES, engine_text
from tests.helpers import P1_WIZ2, battle

SPEARS, WARDENS = "emberward_spears", "mire_wardens"
#: Words that may stay: keywords, names from fields (units, spells), rule IDs are too short.
ALLOWED = {"WIZARD", "PRIEST", "Pyre", "Magister", "Mire", "Wardens", "Emberward", "Spears", "Cinder", "Bolt"}


def _english_left(text: str) -> list[str]:
    return [w for w in re.findall(r"[A-Za-z]{3,}", text) if w not in ALLOWED]


@pytest.fixture
def lang():
    yield i18n.set_language
    i18n.set_language("en")


def _cases():
    """(state, action, the engine's English reason) for hand-built illegal actions."""
    foe = {"foe": (2, WARDENS, [(50, 40)])}
    mv = battle({"w": (1, P1_WIZ2, [(10, 10)]), **foe}, phase="movement")
    hero = battle({"w": (1, P1_WIZ2, [(10, 10)]), **foe}, phase="hero")
    shoot = battle({"w": (1, P1_WIZ2, [(10, 10)]), **foe}, phase="shooting")
    charge = battle({"w": (1, SPEARS, [(10, 10)]), **foe}, phase="charge")
    return [
        (
            mv,
            MoveUnit(player=1, unit="w", to=((10, 30),)),
            'Pyre-Magister (w) cannot make a normal move there: model 0 would move 20.00"; it may move 6.00" (G4)',
        ),
        (
            mv,
            CastSpell(player=1, unit="w", spell="cinder_bolt", target="foe"),
            "you can only cast spells in your hero phase, not the movement phase (M3)",
        ),
        (mv, Retreat(player=1, unit="w"), "Pyre-Magister (w) is not in combat, so it cannot retreat (R4)"),
        (
            hero,
            CastSpell(player=1, unit="w", spell="cinder_bolt", target="foe"),
            'Mire Wardens (foe) is 48.58" from Pyre-Magister model 0; Cinder Bolt reaches 18" (G1)',
        ),
        (
            hero,
            CastSpell(player=1, unit="w", spell="cinder_bolt", target="w"),
            "Cinder Bolt must target an enemy unit; Pyre-Magister (w) is not",
        ),
        (
            hero,
            ChantPrayer(player=1, unit="w", prayer="x", target="w"),
            "Pyre-Magister (w) is not a PRIEST, so it cannot chant prayers (M8)",
        ),
        (shoot, Shoot(player=1, unit="w", target="foe"), "Pyre-Magister (w) has no ranged weapons"),
        (charge, Charge(player=1, unit="w"), 'no visible enemy within 12" of Emberward Spears (w) (R4)'),
    ]


def test_g4_r4_m8_engine_reasons_keep_their_exact_english_text():
    for s, action, english in _cases():
        assert s.explain(action) == [english]


@pytest.mark.parametrize("code", ["ko", "ja"])
def test_g4_r4_m8_engine_reasons_have_no_english_left(lang, code):
    for s, action, english in _cases():
        (reason,) = s.explain(action)
        lang(code)
        for said in (engine_text(reason, s), engine_text(str(reason), s)):  # by fields; as a plain string
            assert said != english and not _english_left(said), (english, said)
            assert "(w)" not in said and "(foe)" not in said  # no ids with a state
        lang("en")


def test_engine_text_in_english_is_the_engine_text_without_ids():
    for s, action, english in _cases():
        (reason,) = s.explain(action)
        # the engine counts models from 0, the screen from 1
        shown = english.replace(" (w)", "").replace(" (foe)", "").replace("model 0", "model 1")
        assert engine_text(reason) == shown


def test_engine_text_never_raises_and_keeps_unknown_text(lang):
    lang("ko")
    assert engine_text("something the engine says one day") == "something the engine says one day"
    assert engine_text(None) == ""
    assert engine_text(12) == "12"


@pytest.mark.parametrize("code", ["ko", "ja"])
def test_every_template_is_translated(lang, code):
    lang(code)
    for templates in TEMPLATES.values():
        for t in templates:
            assert i18n._(t) != t or not _english_left(t), t


def test_m6_unbind_out_of_range_words_the_distance(lang):
    from tests.rules.test_rules_casting import _duel

    s = _duel([3, 4], gap_to_unbinder=30.01, unbinder="reed_witch")
    foe = s.units["foe"]
    s.units["far2"] = foe.__class__("far2", 2, "fen_oracle", "Near Oracle", [foe.models[0].__class__(10, 34)])
    s.apply(CastSpell(player=1, unit="w2", spell="cinder_bolt", target="beast"))
    (reason,) = s.explain(Unbind(player=2, unit="foe"))
    assert reason.code == "out_of_range" and '30.01" from the caster' in reason
    for code, word in (("ko", "해제"), ("ja", "打ち消し")):
        lang(code)
        said = engine_text(reason, s)
        assert "30.01" in said and word in said and "(foe)" not in said, said
        assert not [w for w in _english_left(said) if w not in said_names(s)], said


def said_names(s) -> set[str]:
    """Words of the units' names (content: the rules domain translates them)."""
    return {w for u in s.units.values() for w in re.findall(r"[A-Za-z]{3,}", u.name)}


def test_e3_banish_refused_is_worded(lang):
    s = battle({"w": (1, P1_WIZ2, [(10, 10)]), "foe": (2, WARDENS, [(50, 40)])}, phase="hero")
    reasons = s.explain(Banish(player=1, unit="w", manifestation="nothing"))
    assert reasons
    lang("ko")
    assert engine_text(reasons[0], s)  # worded or the English text: never a crash
