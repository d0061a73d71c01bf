"""Model numbers on screen count from 1 (issue 22): the engine's messages name a unit's models by
their index from 0 ("model 0"), and stay so byte for byte; `engine_text` shows model n as n+1 in
every language, worded from the message's facts or read back from a plain string (G1, G4)."""

from __future__ import annotations

import re

import pytest

from game import i18n
from game.rules.actions import CastSpell, MoveUnit
from game.ui.engine_words import engine_text
from tests.helpers import P1_WIZ2, battle

WARDENS = "mire_wardens"
#: (the engine's English text, as a plain string) -> the numbers a player must read
PLAIN = {
    "Emberward Spears model 0 would not be wholly within player 1's deployment zone (G4)": ["1"],
    'model 2 overlaps model 0 of its unit (0.50" overlap) (G4)': ["3", "1"],
    'model 0 would be 1.50" from the rest of its unit; coherency needs 1"': ["1"],
}


@pytest.fixture
def lang():
    yield i18n.set_language
    i18n.set_language("en")


def _numbers_after_model(text: str) -> list[str]:
    """The numbers that follow the word for a model in English, Korean or Japanese."""
    return re.findall(r"(?:model|모델|モデル)\s?(\d+)", text)


@pytest.mark.parametrize("code", ["en", "ko", "ja"])
def test_g1_g4_model_numbers_count_from_one(lang, code):
    foe = {"foe": (2, WARDENS, [(50, 40)])}
    mv = battle({"w": (1, P1_WIZ2, [(10, 10)]), **foe}, phase="movement")
    hero = battle({"w": (1, P1_WIZ2, [(10, 10)]), **foe}, phase="hero")
    cases = [
        (mv, MoveUnit(player=1, unit="w", to=((10, 30),))),
        (hero, CastSpell(player=1, unit="w", spell="cinder_bolt", target="foe")),
    ]
    for s, action in cases:
        (reason,) = s.explain(action)
        assert "model 0" in reason  # the engine's words are unchanged
        lang(code)
        for said in (engine_text(reason, s), engine_text(str(reason), s)):
            assert _numbers_after_model(said) == ["1"], said
        lang("en")
    lang(code)
    for english, numbers in PLAIN.items():
        said = engine_text(english)
        assert _numbers_after_model(said) == numbers, said
        if code != "en":
            assert not re.findall(r"\b(?:would|within|deployment|overlaps|coherency)\b", said), said
