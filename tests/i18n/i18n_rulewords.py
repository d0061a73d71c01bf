"""Shared by the rules- and cli-domain tests (issue 22): what counts as English left behind."""

from __future__ import annotations

import re

# Words that stay as they are in every language: keywords (the seeds keep WIZARD/PRIEST in capitals),
# rule IDs, dice, profile names, units of length, the game's own name.
# (ASCII edges, not \b: Korean and Japanese letters are word characters too, so "aos3에서" has no \b)
KEEP = re.compile(
    r"(?<![A-Za-z])(WIZARDs?|PRIEST|UNLIMITED|FLY|HERO|[MEGR]\d{1,2}b?|\d*D\d+|aos[34]|mm|Spellfield|spellfield|CI|OK)"
    r"(?![A-Za-z])"
)
WORD = re.compile(r"[A-Za-z]{3,}")


def english_words(text: str) -> list[str]:
    """The English words of `text` (3 letters or more), once the words that stay are taken out."""
    return WORD.findall(KEEP.sub(" ", text))
