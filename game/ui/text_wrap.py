"""One line breaker for every text the UI wraps (issue 22): English and Korean break at spaces,
Japanese (and Chinese characters anywhere) between characters, with the Japanese rules of
where a line may not start or end (kinsoku): no 。、」）！？ー or small kana at a line's start,
no 「（『 at its end.

`wrap(text, width_px, font)` -> lines; `font` is anything with `size(str) -> (w, h)` (a pygame
font). A word wider than the line stays whole on its own line (as the English UI always did).
"""

from __future__ import annotations

from typing import Protocol

#: Never at a line's start: closing brackets, stops and commas, prolonged sound, small kana.
NO_START = frozenset(
    "、。，．・：；？！゛゜ヽヾゝゞ々ー〜…‥」』）］｝〕〉》】〙〗〟’”»"
    "ぁぃぅぇぉっゃゅょゎゕゖァィゥェォッャュョヮヵヶㇰㇱㇲㇳㇴㇵㇶㇷㇸㇹㇺㇻㇼㇽㇾㇿ"
    ")]},.:;!?%"
)
#: Never at a line's end: opening brackets and quotes.
NO_END = frozenset("「『（［｛〔〈《【〘〖〝‘“«([{")


class _Measures(Protocol):
    def size(self, text: str, /) -> tuple[int, int]: ...


def breaks_between_chars(c: str) -> bool:
    """True for characters a line may break around without a space: kana, kanji, CJK marks
    and full-width forms (Hangul is not among them: Korean breaks at spaces)."""
    o = ord(c)
    return (
        0x3000 <= o <= 0x30FF  # CJK symbols, hiragana, katakana
        or 0x31F0 <= o <= 0x31FF  # katakana extensions
        or 0x3400 <= o <= 0x4DBF  # CJK extension A
        or 0x4E00 <= o <= 0x9FFF  # CJK unified ideographs
        or 0xF900 <= o <= 0xFAFF  # CJK compatibility ideographs
        or 0xFF00 <= o <= 0xFFEF  # full-width and half-width forms
    )


def _may_break(before: str, after: str) -> bool:
    """A line may break between `before` and `after` (no space between them)."""
    if not (breaks_between_chars(before) or breaks_between_chars(after)):
        return False
    return after not in NO_START and before not in NO_END


def chunks(paragraph: str) -> list[tuple[str, str]]:
    """(joiner, piece) pairs: a piece is never broken; the joiner is " " where a space stood
    (dropped at a line break) or "" where a break between characters is allowed."""
    out: list[tuple[str, str]] = []
    piece, joiner, spaced = "", "", False
    for c in paragraph:
        if c == " ":
            if piece:
                out.append((joiner, piece))
                piece = ""
            spaced = True
            continue
        if not piece:
            joiner, piece, spaced = (" " if spaced else ""), c, False
            continue
        if _may_break(piece[-1], c):
            out.append((joiner, piece))
            joiner, piece = "", c
        else:
            piece += c
    if piece:
        out.append((joiner, piece))
    return out


def wrap(text: str, width_px: int, font: _Measures) -> list[str]:
    """`text` in lines that fit `width_px` pixels in `font`; a newline starts a new line."""
    lines: list[str] = []
    for para in text.split("\n"):
        line = ""
        for joiner, piece in chunks(para):
            trial = f"{line}{joiner}{piece}" if line else piece
            if not line or font.size(trial)[0] <= width_px:
                line = trial
            else:
                lines.append(line)
                line = piece
        lines.append(line)
    return lines
