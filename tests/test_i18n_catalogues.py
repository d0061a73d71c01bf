"""The translation catalogues (game/locale, issue 22) are complete and consistent with the code.

For every domain (tools/i18n.py): every string the code marks has a Korean and a Japanese
translation (not fuzzy, not empty); a translation uses exactly the named fields of its English
string ({unit}, {n}); the shipped .mo files are the compiled .po files, byte for byte.
"""

from __future__ import annotations

import re
import string
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]



from tests.catalogue_tool import tool  # noqa: E402

DOMAINS = list(tool.DOMAIN_FILES)


def fields(text: str) -> set[str]:
    """The named fields of a format string ("{unit} casts {spell}" -> {unit, spell})."""
    try:
        return {f for _, f, _, _ in string.Formatter().parse(text) if f is not None}
    except ValueError:  # not a format string (a lone brace): compare the braces as text
        return set(re.findall(r"\{[^{}]*\}", text))


@pytest.mark.parametrize("domain", DOMAINS)
def test_every_marked_string_is_translated(domain):
    gaps = tool.missing(domain)
    assert not gaps, f"{len(gaps)} strings of {domain} not translated, e.g. {gaps[:5]}"


@pytest.mark.parametrize("domain", DOMAINS)
@pytest.mark.parametrize("lang", tool.LANGS)
def test_a_translation_keeps_the_fields_of_its_english(domain, lang):
    cat = tool.read(tool.po_path(lang, domain), lang, domain)
    bad = []
    for msg in cat:
        if not msg.id or not msg.string:
            continue
        ids = msg.id if isinstance(msg.id, (list, tuple)) else [msg.id]
        strings = msg.string if isinstance(msg.string, (list, tuple)) else [msg.string]
        want = set().union(*(fields(i) for i in ids))
        for s in strings:
            if s and fields(s) != want:
                bad.append((msg.id, s))
    assert not bad, bad[:5]


@pytest.mark.parametrize("domain", DOMAINS)
@pytest.mark.parametrize("lang", tool.LANGS)
def test_the_shipped_mo_is_the_compiled_po(domain, lang):
    po = tool.po_path(lang, domain)
    assert po.is_file(), f"{po} is missing: run python tools/i18n.py update"
    mo = po.with_suffix(".mo")
    assert mo.is_file() and mo.read_bytes() == tool.mo_bytes(po, lang, domain), (
        f"{mo} is not the compiled {po.name}: run python tools/i18n.py compile"
    )


def test_the_layer_translates_and_falls_back_to_english():
    from game import i18n

    try:
        assert i18n.set_language("ja") == "ja" and i18n.language() == "ja"
        assert i18n._("a string no catalogue has") == "a string no catalogue has"
        assert i18n.set_language("ko_KR.UTF-8") == "ko"
        with pytest.raises(ValueError, match="unknown language"):
            i18n.set_language("xx")
        assert i18n.language_code("ja-JP") == "ja" and i18n.language_code(None) == "en"
    finally:
        i18n.set_language("en")
