"""One word for one rule (issue 22): the Korean and Japanese texts never use a competing word for
a rules term the glossary fixes (game/locale/glossary.toml). The words below were each found in
some catalogue and replaced by the glossary's; this keeps them from coming back."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

# (the glossary's word, competing words that must not appear) per language
REJECTED = {
    "ko": {
        "소멸 (banish)": [r"추방"],
        "디스펠 (dispel)": [r"소거", r"해주"],
        "지속 주문 (endless spell)": [r"영속 주문", r"무한 주문"],
        "포식형 (predatory)": [r"배회형", r"약탈형"],
        "폭주 시전 (miscast)": [r"시전 사고"],
        "현현 (manifestation)": [r"현현체", r"마니페스테이션"],
        "전투 범위 (combat range)": [r"전투 거리"],
        "기원물 (invocation)": [r"기원체"],
    },
    "ja": {
        "退散 (banish)": [r"追放"],
        "奇蹟 / 祈願 (prayer / chant)": [r"祈祷(?!物)"],
        "白兵戦範囲 (combat range)": [r"戦闘範囲"],
        "致命的ダメージ (mortal damage)": [r"致命ダメージ"],
        "魔力値 (power level)": [r"魔力レベル"],
        "詠唱失敗 (miscast)": [r"詠唱事故", r"暴発"],
        "顕現 (manifestation)": [r"顕現体"],
        "祈祷物 (invocation)": [r"召喚物", r"祈願体"],
    },
}


def texts(lang: str) -> list[tuple[str, str]]:
    """(file, line) of every translated text: the catalogues' msgstr lines, the rule texts and the
    rules catalogue."""
    out = []
    for p in sorted((ROOT / "game" / "locale" / lang / "LC_MESSAGES").glob("*.po")):
        out += [(p.name, line) for line in p.read_text(encoding="utf-8").splitlines() if line.startswith("msgstr")]
    for p in (ROOT / "game" / "ui" / f"rule_texts.{lang}.toml", ROOT / "docs" / f"rules.{lang}.md"):
        out += [(p.name, line) for line in p.read_text(encoding="utf-8").splitlines()]
    return out


@pytest.mark.parametrize("lang", ["ko", "ja"])
def test_one_word_for_each_rules_term(lang):
    found = []
    lines = texts(lang)
    for term, rejected in REJECTED[lang].items():
        for pattern in rejected:
            found += [(term, name, line.strip()[:80]) for name, line in lines if re.search(pattern, line)]
    assert not found, found[:5]
