"""The rules catalogue (docs/rules.md) and the in-game rule texts (game/ui/rule_texts.toml) agree.

Pure Python: no display. The IDs are parsed out of docs/rules.md itself, so this runs from a
fresh clone of the repository."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from game.rules.ids import RULE_IDS
from game.ui.rule_texts import rule_text, rule_texts

DOCS = Path(__file__).resolve().parents[2] / "docs" / "rules.md"

EXPECTED_IDS = (
    [f"M{i}" for i in range(1, 13)]
    + [f"E{i}" for i in range(1, 11)]
    + [f"G{i}" for i in range(1, 5)]
    + [f"R{i}" for i in range(1, 5)]
)

# A rule is listed in the catalogue as a bold lead at the start of a line ("**M1 Power level.**")
# or as a heading ("### M1 Power level").
_LEAD = re.compile(r"^(?:\*\*(?P<bold>[MEGR]\d+) |#{1,6} (?P<head>[MEGR]\d+)\b)")
_ANY_HEADING = re.compile(r"^#{1,6} ")


def _catalogue() -> dict[str, str]:
    """Rule ID -> the catalogue's text for it, from its lead up to the next rule or heading."""
    sections: dict[str, list[str]] = {}
    current: str | None = None
    for line in DOCS.read_text(encoding="utf-8").splitlines():
        m = _LEAD.match(line)
        if m:
            current = m.group("bold") or m.group("head")
            assert current not in sections, f"{current} is listed twice in docs/rules.md"
            sections[current] = []
        elif _ANY_HEADING.match(line):
            current = None
        if current:
            sections[current].append(line)
    return {rid: " ".join(" ".join(lines).split()) for rid, lines in sections.items()}


def _norm(s: str) -> str:
    return " ".join(s.lower().split())


def _both(rule_id: str) -> tuple[str, str]:
    """(catalogue text, in-game text) for a rule, lower-cased with whitespace collapsed."""
    return _norm(_catalogue()[rule_id]), _norm(rule_texts()[rule_id]["text"])


def _says(rule_id: str, phrase: str) -> None:
    doc, game = _both(rule_id)
    assert _norm(phrase) in doc, f"docs/rules.md {rule_id} does not say {phrase!r}"
    assert _norm(phrase) in game, f"rule_texts.toml {rule_id} does not say {phrase!r}"


# --- the two sets of IDs -------------------------------------------------------------------------

def test_catalogue_lists_exactly_the_expected_rule_ids():
    assert sorted(_catalogue()) == sorted(EXPECTED_IDS)


def test_in_game_texts_have_exactly_the_expected_rule_ids():
    assert sorted(rule_texts()) == sorted(EXPECTED_IDS)


def test_the_engine_cites_only_catalogued_rule_ids():
    assert set(RULE_IDS) == set(_catalogue())


def test_every_catalogue_rule_has_an_in_game_text_and_back():
    assert set(_catalogue()) == set(rule_texts())
    for rid, entry in rule_texts().items():
        assert entry.get("title", "").strip(), f"{rid} has no title"
        assert entry.get("text", "").strip(), f"{rid} has no text"
        assert _catalogue()[rid].strip(), f"{rid} has no catalogue text"


def test_in_game_texts_are_short():
    for rid, entry in rule_texts().items():
        sentences = [s for s in re.split(r"(?<=[.!?])\s+", entry["text"].strip()) if s]
        assert 1 <= len(sentences) <= 4, f"{rid} has {len(sentences)} sentences"


def test_catalogue_names_no_published_game():
    text = DOCS.read_text(encoding="utf-8").lower()
    for name in ("warhammer", "age of sigmar", "games workshop"):
        assert name not in text


# --- the corrected rules ---------------------------------------------------------------------------

def test_m12_text_counts_enemy_manifestations_other_than_the_target():
    _says("M12", "other than the target")
    doc, game = _both("M12")
    assert "beyond the first" not in doc and "beyond the first" not in game


def test_m12_text_banish_friendly_adds_every_enemy_manifestation():
    doc, game = _both("M12")
    assert "minus 1" in doc and "minus 1" in game
    assert "friendly" in doc and "friendly" in game


def test_e9_text_measures_from_the_footprint():
    _says("E9", "closest point of its footprint")
    _says("E9", "not from its centre")
    doc, game = _both("E9")
    assert "of its centre" not in game.replace("not from its centre", "")


def test_e7_text_one_per_wizard_unit():
    _says("E7", "the whole unit controls at most one")
    _says("E7", "chooses")


def test_e5_text_no_stand_in_the_manifestation_is_wild():
    _says("E5", "no stand-in")
    _says("E5", "wild")


def test_m9_text_one_of_each_and_exact_set_up_check():
    _says("M9", "already has on the battlefield")
    _says("M9", "no legal set-up anywhere")


def test_m10_text_move_zero_only_in_combat():
    _says("M10", "counts as a unit only in the combat phase")


def test_m10_text_moves_charges_and_pile_in():
    for phrase in ("normal move", "run", "retreat", "charge", "pile-in", "only by the predatory procedure"):
        _says("M10", phrase)


def test_e3_text_invocations_cannot_be_dispelled():
    _says("E3", "invocations cannot be dispelled")


def test_r4_text_counts_manifestations_that_count_as_units():
    _says("R4", "counts as a unit at that moment")


# --- rule_text() -----------------------------------------------------------------------------------

def test_rule_text_gives_the_title_with_its_id():
    title, text = rule_text("M3")
    assert title == "M3 " + rule_texts()["M3"]["title"]
    assert title.startswith("M3 ") and len(title) > 3
    assert text == rule_texts()["M3"]["text"] and "2D6" in text


@pytest.mark.parametrize("unknown", ["Z9", "M13", ""])
def test_unknown_rule_gives_the_placeholder(unknown):
    assert rule_text(unknown) == (unknown, "No text for this rule.")
