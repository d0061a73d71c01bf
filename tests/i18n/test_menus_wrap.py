"""The one line breaker (game.ui.text_wrap, issue 22): English and Korean at spaces, Japanese
between characters, never a closing mark at a line's start nor an opening one at its end."""

from __future__ import annotations

from game.ui.text_wrap import NO_END, NO_START, chunks, wrap


class Mono:
    """A font where every character is 10 pixels wide (the breaker only measures)."""

    def size(self, text: str) -> tuple[int, int]:
        return 10 * len(text), 12


F = Mono()


def test_english_breaks_at_spaces_as_before():
    assert wrap("the quick brown fox", 100, F) == ["the quick", "brown fox"]
    assert wrap("a  b", 100, F) == ["a b"]  # spaces collapse, as the old splitter did
    assert wrap("unbreakableword x", 50, F) == ["unbreakableword", "x"]  # too long: alone, whole
    assert wrap("one\ntwo", 100, F) == ["one", "two"] and wrap("", 100, F) == [""]


def test_korean_breaks_at_spaces_only():
    lines = wrap("주문을 시전할 수 있는 위저드", 80, F)
    assert lines == ["주문을 시전할", "수 있는 위저드"]
    assert all(not line.startswith(" ") for line in lines)


def test_japanese_breaks_between_characters():
    lines = wrap("永久呪文の解呪を試みる", 40, F)
    assert lines == ["永久呪文", "の解呪を", "試みる"]
    assert "".join(lines) == "永久呪文の解呪を試みる"


def test_japanese_line_start_and_end_rules():
    text = "呪文を詠唱する。「解呪」（打ち消し）、ヒーローフェイズ。"
    for width in range(20, 200, 10):
        lines = wrap(text, width, F)
        assert "".join(lines) == text
        for line in lines[1:]:
            assert line[0] not in NO_START, (width, lines)
        for line in lines[:-1]:
            assert line[-1] not in NO_END, (width, lines)
    assert wrap("詠唱する。", 40, F) == ["詠唱す", "る。"]  # 。 goes with the character before it


def test_mixed_scripts_keep_latin_words_whole():
    pieces = [p for _, p in chunks("ルール E7 を見る")]
    assert pieces == ["ルー", "ル", "E7", "を", "見", "る"]  # ー never starts a line
    lines = wrap("2D6 をロールして casting roll", 60, F)
    assert all("2D6" in line or "2D" not in line for line in lines)
    assert "casting" in " ".join(lines) and "roll" in " ".join(lines)


def test_theme_wrap_uses_it():
    import os

    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    import pygame

    from game.ui import theme

    pygame.font.init()
    assert theme.wrap("永久呪文の解呪を試みる。" * 5, 15, 120) == wrap(
        "永久呪文の解呪を試みる。" * 5, 120, theme.font(15)
    )
