"""The last of the engine's messages in Korean and Japanese (issue 22, domain "engine"): a
predatory endless spell's point and footprint problems (E9, E10), a summoned manifestation's
set-up problems (M9, G2, G4), an action that does not answer the open decision or comes from the
wrong player (R2), and "unknown" refusals. Each keeps its English text byte for byte, is a
`Problem` worded from its fields, and reads with no English and no raw id left."""

from __future__ import annotations

import re

import pytest

from game import i18n
from game.rules import EndPhase, IllegalActionError, query
from game.rules.actions import CastSpell, DeployUnit, MoveUnit
from game.ui.engine_words import engine_text
from tests.rules.test_rules_m10_walkers import _field, _put

IDS = r"\b(beacon|pyre|golem|hound|foe|w[12]|ghost|nobody)\b|CastSpell|DeployUnit|EndPhase"


@pytest.fixture
def lang():
    yield i18n.set_language
    i18n.set_language("en")


def _names(s) -> set[str]:
    """Words of the units', manifestations', spells' and terrain's names (content)."""
    names = [u.name for u in s.units.values()]
    names += [m.name for m in s.game.content.manifestations.values()]
    names += [a.name for a in s.game.content.abilities.values()]
    names += [t.name for t in s.game.battlefield.terrain.pieces]
    return {w for n in names for w in re.findall(r"[A-Za-z]{3,}", n)}


def _english_left(s, text: str) -> list[str]:
    allowed = _names(s) | {"WIZARD", "PRIEST"}
    return [w for w in re.findall(r"[A-Za-z]{3,}", text) if w not in allowed]


def _refused(s, action) -> str:
    with pytest.raises(IllegalActionError) as err:
        s.apply(action)
    return err.value.message


def _cases():
    """(state, the engine's message, its exact English text)."""
    walk = _field(phase="hero")
    _put(walk, "pyre", "rolling_pyre", 1, "w1", 20, 32)
    far = query.point_problem(walk, "pyre", 59.0, 2.0)
    off = query.point_problem(walk, "pyre", 80.0, 2.0)
    over = query.blocked_reason(walk, "pyre", 20.0, 22.0)  # onto the Kiln Golem
    base = query.blocked_reason(walk, "pyre", 10.0, 22.0)  # onto the Pyre-Magister
    near = query.setup_problems(walk, 1, "w1", 0, "ember_beacon", 10.0, 40.0)
    out = [
        (walk, far[1], None),
        (walk, off[1], None),
        (walk, over, None),
        (walk, base, None),
        (walk, near[0], None),
        (walk, _refused(walk, DeployUnit(player=1, unit="w1", to=((10, 22),))), None),
        (walk, _refused(walk, EndPhase(player=2)), "player 2 cannot act now: player 1 must make a phase decision"),
        (walk, _refused(walk, CastSpell(player=1, unit="nobody", spell="heat_haze")), "there is no unit 'nobody'"),
        (
            _field(),
            _refused(_field(), MoveUnit(player=1, unit="ghost", to=((1, 1),))),
            "there is no unit 'ghost' on the battlefield",
        ),
    ]
    return out


def test_e9_m9_r2_messages_keep_their_exact_english_text():
    for _state, message, english in _cases():
        if english is not None:
            assert message == english
        assert getattr(message, "code", ""), message  # a Problem: worded from its fields


@pytest.mark.parametrize("code", ["ko", "ja"])
def test_e9_m9_r2_messages_have_no_english_and_no_id_left(lang, code):
    for s, message, _english in _cases():
        lang(code)
        said = engine_text(message, s)
        assert said != str(message) and not _english_left(s, said), (str(message), said)
        assert not re.search(IDS, said), said
        lang("en")


@pytest.mark.parametrize("language", ["ko", "ja"])
def test_r4_a_charge_that_ends_short_is_refused_in_the_players_language(lang, language):
    """R4: the charge-move refusal "would not end within ½" of a visible enemy" reached the
    Korean screen in English (seen playing against hard); now every part of it is worded."""
    from game.rules.actions import Charge
    from tests.helpers import P1_SPEARS, P2_BEHEMOTH, R32, battle

    r90 = 90 / 25.4 / 2
    s = battle(
        {"spears": (1, P1_SPEARS, [(10, 10)]), "beast": (2, P2_BEHEMOTH, [(10, 10 + R32 + r90 + 6)])},
        [3, 4],  # the charge roll: 7
        phase="charge",
    )
    s.apply(Charge(player=1, unit="spears"))
    english = _refused(s, MoveUnit(player=1, unit="spears", to=((10, 15.0),)))  # 1" short
    assert english.endswith(
        'cannot end its charge there: the unit would not end within ½" of a visible enemy unit or manifestation (R4)'
    )
    lang(language)
    said = engine_text(english, s)
    assert said != english and not _english_left(s, said), said
    assert "(R4)" in said
