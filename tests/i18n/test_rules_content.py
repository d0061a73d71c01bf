"""Issue 22, domain "rules": every content name and text, every rule text and every demonstration
caption reads in Korean and Japanese with no English left (names are names: translated too)."""

from __future__ import annotations

import pytest
from i18n_rulewords import english_words

from game import i18n
from game.content_words import content_name, content_strings
from game.ui.rule_texts import rule_text, rule_texts

LANGS = ("ko", "ja")


@pytest.fixture
def lang(request):
    i18n.set_language(request.param)
    yield request.param
    i18n.set_language("en")


def test_content_strings_cover_every_kind_of_name():
    texts = {t for t, _ in content_strings()}
    for name in (
        "Reed-Witch",
        "Lore of Cinders",
        "Ember Staff",
        "Ashfall Crossing",
        "Old Milestone",
        "The Mirecourt Circle",
        "Rolling Pyre",
        "Current rules",
        "Classic endless spells",
    ):
        assert name in texts


@pytest.mark.parametrize("lang", LANGS, indirect=True)
def test_every_content_text_is_translated_with_no_english_left(lang):
    problems = []
    for text, where in content_strings():
        shown = content_name(text)
        if shown == text or english_words(shown):
            problems.append(f"{where}: {text!r} -> {shown!r}")
    assert not problems, "\n".join(problems[:20])


@pytest.mark.parametrize("lang", LANGS, indirect=True)
def test_names_are_consistent(lang):
    """A name is a name: the same English name reads the same wherever it appears."""
    witch = {"ko": "갈대 마녀", "ja": "葦の魔女"}[lang]
    assert content_name("Reed-Witch") == witch
    assert witch in content_name(
        "Profile aos4: a Mist Eel (health 6) summoned by a Reed-Witch has already taken 5 damage."
    )


def test_english_stays_english():
    assert i18n.language() == "en"
    assert content_name("Reed-Witch") == "Reed-Witch"
    assert content_name("") == ""
    assert content_name("A map of the player's own") == "A map of the player's own"


@pytest.mark.parametrize("lang", LANGS, indirect=True)
def test_rule_text_for_every_rule_id(lang):
    """M1-M12, E1-E10, G1-G4, R1-R4: each has its own text in the language, keeping its ID."""
    english = rule_texts("en")
    mine = rule_texts(lang)
    assert set(mine) == set(english)
    for rid in english:
        title, text = rule_text(rid)
        assert title.startswith(rid + " ")
        assert text != english[rid]["text"] and title != f"{rid} {english[rid]['title']}"
        assert not english_words(title[len(rid) :]), (rid, title)
        assert not english_words(text), (rid, english_words(text))


@pytest.mark.parametrize("lang", LANGS, indirect=True)
def test_rule_text_falls_back_to_english_per_rule(lang, monkeypatch):
    from game.ui import rule_texts as rt

    real = rt.rule_texts
    monkeypatch.setattr(rt, "rule_texts", lambda code="en": {} if code != "en" else real("en"))
    assert rt.rule_text("M3") == ("M3 " + real("en")["M3"]["title"], real("en")["M3"]["text"])
    assert rt.rule_text("Z9")[0] == "Z9" and not english_words(rt.rule_text("Z9")[1])
