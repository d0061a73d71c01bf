"""Issue 22: the rules catalogue docs/rules.md has Korean (docs/rules.ko.md) and Japanese
(docs/rules.ja.md) versions. Every rule ID (M1-M12, E1-E10, G1-G4, R1-R4) that opens a rule or a
section in the English page opens one in each translation, in the same order, and neither
translation keeps an English sentence (rule IDs, dice notation and keywords aside)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

DOCS = Path(__file__).resolve().parents[2] / "docs"
LANGS = ("ko", "ja")

# A rule opens as "**M3 Casting.**"; a section heading names its range, "## Magic (M1-M12)".
_RULE = re.compile(r"^\*\*([MEGR]\d+)\b")
_SECTION = re.compile(r"^##\s.*\(([MEGR]\d+-[MEGR]\d+)\)\s*$")
_BULLET = re.compile(r"^- \*\*([MEGR]\d+-[MEGR]\d+)\*\*")
# Kept as they are in every language: rule IDs, dice, and the rules' capital keywords.
_ALLOWED = re.compile(r"^(?:[MEGR]\d+|\d*D\d+|WIZARDS?|PRIESTS?|UNLIMITED|FLY|PREDATORY)$")
_CODE = re.compile(r"`[^`]*`")


def _ids(text: str) -> list[str]:
    """The rule IDs and ranges that open a rule, a range bullet or a section, in page order."""
    out: list[str] = []
    for line in text.splitlines():
        for pattern in (_RULE, _SECTION, _BULLET):
            m = pattern.match(line.strip())
            if m:
                out.append(m.group(1))
    return out


def _english_runs(text: str) -> list[str]:
    """Runs of 3+ English words; a code span (a command, a profile name) is not prose."""
    runs: list[str] = []
    for line in text.splitlines():
        run: list[str] = []
        # split into Latin words and everything else; anything non-Latin between words breaks a run
        for tok in re.findall(r"[A-Za-z][A-Za-z']*|[^A-Za-z\s]+", _CODE.sub(" ", line)):
            if re.fullmatch(r"[A-Za-z][A-Za-z']*", tok) and not _ALLOWED.match(tok):
                run.append(tok)
                continue
            if re.fullmatch(r"[\"'.,()*\-:;]+", tok) and run:
                continue  # English punctuation inside a run keeps it going
            if len(run) >= 3:
                runs.append(" ".join(run))
            run = []
        if len(run) >= 3:
            runs.append(" ".join(run))
    return runs


def _read(name: str) -> str:
    return (DOCS / name).read_text(encoding="utf-8")


def test_english_catalogue_lists_every_rule():
    ids = _ids(_read("rules.md"))
    for prefix, n in (("M", 12), ("E", 10), ("G", 4), ("R", 4)):
        assert [i for i in ids if re.fullmatch(prefix + r"\d+", i)] == [f"{prefix}{k}" for k in range(1, n + 1)]


@pytest.mark.parametrize("lang", LANGS)
def test_translation_has_every_rule_id_in_order(lang: str):
    assert _ids(_read(f"rules.{lang}.md")) == _ids(_read("rules.md"))


@pytest.mark.parametrize("lang", LANGS)
def test_translation_has_no_english_sentence(lang: str):
    assert _english_runs(_read(f"rules.{lang}.md")) == []


def test_the_english_check_would_catch_english():
    assert _english_runs(_read("rules.md"))
    assert _english_runs("주문 the spell fails 실패") == ["the spell fails"]
    assert _english_runs("WIZARD (2) 2D6 M3 E4 b") == []


def test_readme_links_both_translations():
    readme = (DOCS.parent / "README.md").read_text(encoding="utf-8")
    assert "Korean: docs/rules.ko.md, Japanese: docs/rules.ja.md" in readme
