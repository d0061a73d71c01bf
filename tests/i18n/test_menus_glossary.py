"""The glossary (game/locale/glossary.toml, issue 22): every rules term in English, Korean and
Japanese; the menus catalogue uses the glossary's word wherever its English string has the term;
a term marked as the seeds' (no `ko_seed = false`) appears in the seed text it comes from."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
GLOSSARY = ROOT / "game" / "locale" / "glossary.toml"
SEEDS = Path("/work/shared/seeds")
from tests.catalogue_tool import tool  # noqa: E402

REQUIRED = (
    "spell cast casting_roll casting_value unbind power_level prayer chant ritual_points banish dispel "
    "endless_spell invocation manifestation predatory control controlling_player wild summon hero_phase "
    "movement_phase wholly_within line_of_sight ward save rend mortal_damage charge combat_range"
).split()



def terms() -> dict[str, dict]:
    return tomllib.loads(GLOSSARY.read_text(encoding="utf-8"))["terms"]


def test_every_rules_term_is_there_in_three_languages():
    t = terms()
    assert set(REQUIRED) <= set(t), set(REQUIRED) - set(t)
    for key, entry in t.items():
        assert all(isinstance(entry.get(lang), str) and entry[lang] for lang in ("en", "ko", "ja")), key


@pytest.mark.skipif(not SEEDS.is_dir(), reason="the seed texts are not here")
def test_the_seeds_terms_are_the_seeds():
    ko = "".join(p.read_text(encoding="utf-8") for p in SEEDS.glob("000_*.txt"))
    ja = "".join(p.read_text(encoding="utf-8") for p in SEEDS.glob("001_*.txt"))
    for key, entry in terms().items():
        if entry.get("ko_seed", True):
            assert entry["ko"] in ko, (key, entry["ko"])
        if entry.get("ja_seed", True):
            assert entry["ja"] in ja, (key, entry["ja"])


@pytest.mark.parametrize("lang", ["ko", "ja"])
def test_the_menus_catalogue_uses_the_glossary(lang):
    cat = tool.read(tool.po_path(lang, "menus"), lang, "menus")
    # the longest English term first: "hero phase" is checked as itself, not as "phase"
    by_length = sorted((e for e in terms().values() if not e.get("homonym")), key=lambda e: -len(e["en"]))
    bad = []
    for msg in cat:
        if not msg.id or not msg.string:
            continue
        english = re.sub(r"\{[^{}]*\}", " ", (msg.id if isinstance(msg.id, str) else msg.id[0]).lower())
        translated = msg.string if isinstance(msg.string, str) else msg.string[0]
        for entry in by_length:
            term = entry["en"].lower()
            if re.search(rf"\b{re.escape(term)}\b", english):
                if entry[lang] not in translated:
                    bad.append((msg.id, entry["en"], translated))
                english = re.sub(rf"\b{re.escape(term)}\b", " ", english)
    assert not bad, bad
