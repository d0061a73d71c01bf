"""Ability names and words in the language in use (issue 22), where a Japanese hero panel showed
English: a greyed spell slot (issue 20's stable panels: "Spark Lash (5+)" beside 陽炎 (6+)) and
a spell's card, the option's tool tip (titled "Heat Haze", its flavour text in English)."""

from __future__ import annotations

import pytest

from game import i18n
from game.content_words import content_name
from game.rules import CastSpell
from game.ui.decisions import _spent_slot
from tests.helpers import P1_WIZ1, P1_WIZ2, P2_WARDENS, battle

FAIL = [1, 2]  # a 2D6 casting roll of 3: the spell fails (it counts as used, M3), no unbind window


@pytest.fixture
def ja():
    i18n.set_language("ja")
    yield
    i18n.set_language("en")


def test_m7_a_greyed_spell_slot_names_the_spell_in_japanese(ja):
    s = battle({"a": (1, P1_WIZ2, [(10, 10)]), "b": (1, P1_WIZ1, [(12, 10)]), "e": (2, P2_WARDENS, [(20, 10)])}, FAIL)
    s.apply(CastSpell(player=1, unit="a", spell="kiln_heart", model=0, target="e"))
    slot = _spent_slot(s, 1, "b", 0, "kiln_heart", several=False)  # M7: attempted this turn by "a"
    name = content_name(s.game.content.abilities["kiln_heart"].name)
    assert name != "Kiln Heart" and slot.label.startswith(name), slot.label
    assert not slot.enabled and "Kiln" not in slot.label


def test_m3_a_spells_card_gives_its_name_and_words_in_japanese(ja):
    # the option's tool tip: a Japanese card titled "Heat Haze" with its flavour text in English
    from game.ui.cards import ability_card

    s = battle({"a": (1, P1_WIZ2, [(10, 10)]), "e": (2, P2_WARDENS, [(20, 10)])})
    ab = s.game.content.abilities["heat_haze"]
    card = ability_card(s, "heat_haze", "a")
    assert card.title == content_name(ab.name) != ab.name
    assert ab.text and ab.text not in card.text() and content_name(ab.text) in card.text()
