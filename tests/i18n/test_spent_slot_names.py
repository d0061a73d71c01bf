"""A greyed spell slot (issue 20's stable panels) names its spell in the language in use, as the
offered ones do (issue 22): a Japanese hero panel showed "Spark Lash (5+)" beside 陽炎 (6+)."""

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
