"""Every text the UI draws is Noto Sans: the HUD and battlefield text (`theme.font`, at every size
the code asks for) and the pygame-gui theme's fonts (assets/theme.json)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pygame

from game.ui import theme

UI = Path(theme.__file__).parent


def _sizes_in_source() -> set[int]:
    """The literal text sizes the UI code passes to `theme.text(...)` and `theme.font(...)`."""
    found: set[int] = set()
    for path in UI.rglob("*.py"):
        src = path.read_text(encoding="utf-8")
        # the text may be a call itself: theme.text(_("Title"), 34, ...) (issue 22)
        found |= {int(n) for n in re.findall(r"\btext\((?:[^()\n]|\([^()\n]*\))*?,\s*(\d+)\s*[,)]", src)}
        found |= {int(n) for n in re.findall(r"\bfont\((\d+)", src)}
    return found


def test_every_text_size_is_noto_sans(app):
    sizes = _sizes_in_source()
    assert {12, 14, 15, 34} <= sizes, sizes  # the scan sees the status line, the log, the titles
    for size in sorted(sizes | set(range(8, 41))):
        regular, bold = theme.font(size), theme.font(size, bold=True)
        assert (regular.name, regular.style_name) == ("Noto Sans", "Regular"), size
        assert (bold.name, bold.style_name) == ("Noto Sans", "Bold"), size
        assert isinstance(theme.text("phase ruler", size), pygame.Surface)


def test_the_text_keeps_its_room(app):
    # Noto Sans is sized so that a line is about as wide as before: the status line's keys
    # (size 12) and a 14-size hint fit where they did
    keys = "E end phase  R ruler  F fit  S screenshot  F5 save  wheel zoom  drag/WASD pan  Esc back"
    assert theme.font(12).size(keys)[0] < 520
    assert theme.font(12).get_linesize() <= 17  # the event log's row


def test_the_gui_theme_uses_noto_sans_everywhere():
    data = json.loads(Path(theme.gui_theme_path()).read_text(encoding="utf-8"))
    blocks = [block["font"] for block in data.values() if "font" in block]
    # each font block: Noto Sans for English, Noto Sans KR / JP for the Korean / Japanese locale
    assert blocks and all(isinstance(b, list) for b in blocks)
    faces = {"en": "noto_sans", "ko": "noto_sans_kr", "ja": "noto_sans_jp"}
    assert all({f.get("locale", "en"): f["name"] for f in b} == faces for b in blocks)
    assert Path(theme.font_path()).name == "NotoSans-Regular.ttf" and Path(theme.font_path()).is_file()
    assert Path(theme.font_path(bold=True)).is_file()
