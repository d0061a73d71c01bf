"""Every translation can be drawn (issue 22): each character of every msgstr of every catalogue
(all domains, whatever they hold today) has a glyph in its language's face, regular and bold
(theme.font: Noto Sans KR for Korean, Noto Sans JP for Japanese). A missing glyph is a box.

The check reads the same font files through pygame.freetype, whose get_metrics gives None for a
character the face lacks (pygame.font.Font.metrics, in this pygame-ce, gives the box's metrics)."""

from __future__ import annotations

import os
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import pygame.freetype  # noqa: E402
import pytest  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]



from tests.catalogue_tool import tool  # noqa: E402

from game.ui import theme  # noqa: E402


def _strings(lang: str) -> list[tuple[str, str]]:
    """(domain, msgstr) of every translated string of every domain in `lang`."""
    out = []
    for domain in tool.DOMAIN_FILES:
        path = tool.po_path(lang, domain)
        if not path.is_file():
            continue
        for msg in tool.read(path, lang, domain):
            if not msg.id:
                continue
            strings = msg.string if isinstance(msg.string, (list, tuple)) else [msg.string]
            out += [(domain, s) for s in strings if s]
    return out


def face(lang: str, bold: bool = False) -> pygame.freetype.Font:
    """The file theme.font draws `lang` in, opened with freetype."""
    pygame.freetype.init()
    return pygame.freetype.Font(theme.font_path(bold, lang), 15)


def missing_glyphs(text: str, font: pygame.freetype.Font) -> set[str]:
    """The characters of `text` that `font` has no glyph for (get_metrics gives None for them)."""
    chars = sorted({c for c in text if not c.isspace()})
    if not chars:
        return set()
    return {c for c, m in zip(chars, font.get_metrics("".join(chars))) if m is None}


@pytest.mark.parametrize("lang", tool.LANGS)
def test_every_translated_character_has_a_glyph(lang):
    bad: dict[str, set[str]] = {}
    for bold in (False, True):
        font = face(lang, bold)
        for domain, text in _strings(lang):
            gaps = missing_glyphs(text, font)
            if gaps:
                bad.setdefault(domain, set()).update(gaps)
    assert not bad, {d: "".join(sorted(g)) for d, g in bad.items()}


def test_the_check_sees_a_missing_glyph():
    # Noto Sans (English) has no Hangul: the test would see boxes
    assert missing_glyphs("새 게임", face("en")) == {"새", "게", "임"}
    assert not missing_glyphs("새 게임", face("ko")) and not missing_glyphs("새 게임", face("ko", bold=True))
    assert not missing_glyphs("永久呪文「解呪」。", face("ja"))
