"""The event log's view state: lines wrapped at word boundaries, where the player has scrolled,
which long entries are opened, and how many entries arrived while they read older ones.

Pure of drawing (hud.event_log draws what `rows` returns) and of the game: it holds entry texts
and counts only. Scrolling is measured in wrapped rows up from the newest; at 0 the log follows
new entries, above 0 it holds its place and counts what arrived since ("new events").
"""

from __future__ import annotations

from dataclasses import dataclass, field

from game.ui import theme

FONT = 12  # the log's text size
ROW = 17  # pixels per wrapped row
FOLD = 4  # an entry longer than this many rows shows this many until clicked open
WHEEL_ROWS = 2  # rows one wheel notch moves


def wrap(text: str, width: int, size: int = FONT) -> list[str]:
    """`text` in lines no wider than `width` pixels, broken between words; a single word wider
    than the whole line (a long name with no spaces) is broken inside itself, never cut off."""
    f = theme.font(size)
    out: list[str] = []
    for line in theme.wrap(text, size, width):
        while f.size(line)[0] > width and len(line) > 1:
            k = len(line) - 1
            while k > 1 and f.size(line[:k])[0] > width:
                k -= 1
            out.append(line[:k])
            line = line[k:]
        out.append(line)
    return out


@dataclass(frozen=True)
class Row:
    """One drawn row: the entry it belongs to and its text; `first` rows carry the rule tag,
    `more` marks the last row of a folded entry (drawn with "... more")."""

    entry: int
    text: str
    first: bool
    more: bool = False


@dataclass
class LogView:
    offset: int = 0  # rows scrolled up from the newest; 0 follows new entries
    opened: set[int] = field(default_factory=set)  # entries unfolded by a click
    unseen: int = 0  # entries that arrived while scrolled up
    count: int = 0  # entries known at the last sync
    width: int = 0  # text width of the last layout, in pixels
    _cache: dict[tuple[str, int], list[str]] = field(default_factory=dict)

    @property
    def following(self) -> bool:
        return self.offset == 0

    def lines_of(self, text: str, width: int) -> list[str]:
        key = (text, width)
        found = self._cache.get(key)
        if found is None:
            if len(self._cache) > 4000:
                self._cache.clear()
            found = self._cache[key] = wrap(text, width)
        return found

    def entry_rows(self, index: int, text: str, width: int) -> list[Row]:
        lines = self.lines_of(text, width)
        if len(lines) > FOLD and index not in self.opened:
            return [Row(index, s, k == 0, k == FOLD - 1) for k, s in enumerate(lines[:FOLD])]
        return [Row(index, s, k == 0) for k, s in enumerate(lines)]

    def sync(self, texts: list[str], width: int) -> None:
        """Take in the entries as they are now: new ones move a scrolled-up view by their rows
        (it holds its place) and are counted as unseen; a following view stays at the newest."""
        n = len(texts)
        if n < self.count or width != self.width:  # a shorter log (undo, a new game) or new width
            self.offset = 0 if n < self.count else self.offset
            self.unseen = 0 if n < self.count else self.unseen
            self.opened = {i for i in self.opened if i < n}
        elif n > self.count and self.offset > 0:
            self.offset += sum(len(self.entry_rows(i, texts[i], width)) for i in range(self.count, n))
            self.unseen += n - self.count
        self.count, self.width = n, width

    def rows(self, texts: list[str], width: int, height_rows: int) -> list[Row]:
        """The rows that fit `height_rows`, oldest first, at the current scroll; the offset is
        clamped so the oldest row is never scrolled past."""
        self.sync(texts, width)
        need = self.offset + height_rows
        tail: list[Row] = []
        i = len(texts) - 1
        while i >= 0 and len(tail) < need:
            tail[:0] = self.entry_rows(i, texts[i], width)
            i -= 1
        if i < 0:  # the whole log is laid out: no scrolling above its top
            self.offset = max(0, min(self.offset, len(tail) - height_rows))
        if self.offset == 0:
            self.unseen = 0
        end = len(tail) - self.offset
        return tail[max(0, end - height_rows) : end]

    def scroll(self, notches: float) -> None:
        """The wheel: up (positive) shows older rows, down newer; at the bottom it follows again."""
        self.offset = max(0, self.offset + round(notches * WHEEL_ROWS))
        if self.offset == 0:
            self.unseen = 0

    def to_newest(self) -> None:
        self.offset, self.unseen = 0, 0

    def toggle(self, entry: int, texts: list[str], height_rows: int) -> bool:
        """Open or fold a long entry; False when it is short enough to show whole anyway. An
        entry opened grows downwards from where it starts: the view moves up with it (and stops
        following) when its first row would otherwise leave the top."""
        if entry >= len(texts) or len(self.lines_of(texts[entry], self.width)) <= FOLD:
            return False
        self.opened ^= {entry}
        below = sum(len(self.entry_rows(i, texts[i], self.width)) for i in range(entry, len(texts)))
        self.offset = max(self.offset, below - height_rows)
        return True
