"""Everything around the battlefield: the round banner and score, the dice tray, the event log,
the hand-over screen, the rule text box and the status line. Reads only."""

from __future__ import annotations

import pygame

from game.content_words import content_name as cn
from game.i18n import _, ngettext
from game.ui import phase_words as words
from game.ui import theme
from game.ui.labels import TrayEntry
from game.ui.render import log_view
from game.ui.render.log_view import LogView

PIPS = {
    1: [(0.5, 0.5)],
    2: [(0.27, 0.27), (0.73, 0.73)],
    3: [(0.27, 0.27), (0.5, 0.5), (0.73, 0.73)],
    4: [(0.27, 0.27), (0.73, 0.27), (0.27, 0.73), (0.73, 0.73)],
    5: [(0.27, 0.27), (0.73, 0.27), (0.5, 0.5), (0.27, 0.73), (0.73, 0.73)],
    6: [(0.27, 0.22), (0.73, 0.22), (0.27, 0.5), (0.73, 0.5), (0.27, 0.78), (0.73, 0.78)],
}


PASS = (46, 150, 70)  # a die that passed its roll: green, with a tick
FAIL = (190, 55, 50)  # a die that failed: red, with a cross (shape as well as colour)
FACE = {None: (245, 240, 230), True: (212, 240, 212), False: (246, 208, 202)}


def mark(surf: pygame.Surface, cx: int, cy: int, passed: bool, r: int = 6) -> None:
    """A round badge: a tick on green for a pass, a cross on red for a fail."""
    pygame.draw.circle(surf, PASS if passed else FAIL, (cx, cy), r)
    pygame.draw.circle(surf, (25, 25, 25), (cx, cy), r, 1)
    k = r - 3
    if passed:
        pygame.draw.lines(surf, (255, 255, 255), False, [(cx - k, cy), (cx - 1, cy + k), (cx + k, cy - k)], 2)
    else:
        pygame.draw.line(surf, (255, 255, 255), (cx - k, cy - k), (cx + k, cy + k), 2)
        pygame.draw.line(surf, (255, 255, 255), (cx - k, cy + k), (cx + k, cy - k), 2)


def die(surf: pygame.Surface, x: int, y: int, size: int, value: int, colour=None, passed: bool | None = None) -> None:
    """One die face; `passed` tints it and badges it with a tick or a cross (None: neutral)."""
    r = pygame.Rect(x, y, size, size)
    pygame.draw.rect(surf, colour or FACE[passed], r, border_radius=4)
    pygame.draw.rect(surf, (40, 40, 40), r, 1, border_radius=4)
    for px, py in PIPS.get(value, []):
        pygame.draw.circle(surf, (20, 20, 20), (x + px * size, y + py * size), max(2, size // 9))
    if value not in PIPS:
        t = theme.text(str(value), 13, (20, 20, 20), bold=True)
        surf.blit(t, (x + (size - t.get_width()) / 2, y + (size - t.get_height()) / 2))
    if passed is not None:
        mark(surf, x + size - 1, y + 1, passed, 5)


def panel(surf: pygame.Surface, rect: pygame.Rect, title: str | None = None) -> int:
    pygame.draw.rect(surf, theme.PANEL, rect)
    pygame.draw.rect(surf, theme.PANEL_EDGE, rect, 1)
    if title:
        t = theme.text(title, 14, theme.ACCENT, bold=True)
        surf.blit(t, (rect.x + 8, rect.y + 5))
        return rect.y + 5 + t.get_height() + 3
    return rect.y + 5


GAP = 16  # the least room between two of the header's texts


def _phase_texts(state) -> list[str]:
    """The header's round and phase, longest first: a narrow window takes a shorter one."""
    if state.stage == "deployment":
        return [_("Deployment")]
    if state.stage == "turn_order":
        return [
            _("Battle round {round}: priority").format(round=state.round),
            _("Round {round}: priority").format(round=state.round),
        ]
    if state.stage == "over":
        return [_("Game over")]
    r, n, who = state.round, state.game.rounds, state.active
    return [
        _("Battle round {round}/{rounds}  -  {turn}  -  {phase}").format(
            round=r, rounds=n, turn=words.player_turn(who), phase=words.phase_title(state.phase)
        ),
        _("Round {round}/{rounds}  -  {player}  -  {phase}").format(
            round=r, rounds=n, player=words.player(who), phase=words.phase_short(state.phase)
        ),
        _("Round {round}  -  {player}  -  {phase}").format(
            round=r, player=words.player_short(who), phase=words.phase_short(state.phase)
        ),
    ]


def _shorten(s: str, size: int, width: int) -> str:
    """`s` cut with an ellipsis to fit `width` pixels in bold `size` (never below 4 letters)."""
    f = theme.font(size, bold=True)
    if f.size(s)[0] <= width:
        return s
    while len(s) > 4 and f.size(s + "…")[0] > width:
        s = s[:-1]
    return s.rstrip() + "…"


def topbar(surf: pygame.Surface, rect: pygame.Rect, state, decision, note: str = "") -> dict[str, pygame.Rect]:
    """The header: round and phase, who acts, the score between the army names (right aligned)
    and a note (e.g. "AI thinking...") when there is room. Nothing overlaps: a narrow window
    gets a shorter phase text, then smaller type, then shortened army names. Returns where each
    text was drawn ("phase", "chip", "score", "note")."""
    surf.fill((16, 17, 20), rect)
    pygame.draw.line(surf, theme.PANEL_EDGE, rect.bottomleft, rect.bottomright)
    drawn: dict[str, pygame.Rect] = {}
    x0, cy = rect.x + 10, rect.centery
    chip_text = (
        " " + _("{player} to act").format(player=words.player(decision.player)) + " "
        if decision is not None and decision.player in (1, 2)
        else ""
    )
    a1, a2 = state.game.army(1), state.game.army(2)
    score = f"{state.score[0]} - {state.score[1]}"

    def score_w(n1: str, n2: str, size: int) -> int:
        f = theme.font(size, bold=True)
        return f.size(f"{n1}  ")[0] + f.size(score)[0] + f.size(f"  {n2}")[0]

    def left_w(phase: str, size: int) -> int:
        w = theme.font(size, bold=True).size(phase)[0]
        if chip_text:
            w += 20 + theme.font(size - 2, bold=True).size(chip_text)[0]
        return w

    room = rect.w - 20
    choice = None
    for size in (17, 15):
        for phase in _phase_texts(state):
            if left_w(phase, size) + GAP + score_w(cn(a1.name), cn(a2.name), size - 2) <= room:
                choice = (phase, size, cn(a1.name), cn(a2.name))
                break
        if choice:
            break
    if choice is None:  # the shortest phase, small type, and the army names share what is left
        phase, size = _phase_texts(state)[-1], 15
        f = theme.font(size - 2, bold=True)
        spare = room - left_w(phase, size) - GAP - f.size(f"    {score}")[0]
        each = max(20, spare // 2)
        choice = (phase, size, _shorten(cn(a1.name), size - 2, each), _shorten(cn(a2.name), size - 2, each))
    phase, size, n1, n2 = choice
    t = theme.text(phase, size, theme.TEXT, bold=True)
    drawn["phase"] = surf.blit(t, (x0, cy - t.get_height() / 2))
    x = drawn["phase"].right + 20
    if chip_text:
        col = theme.player_colour(state, decision.player)
        chip = theme.text(chip_text, size - 2, (15, 15, 15), bold=True)
        r = pygame.Rect(x, cy - 11, chip.get_width(), 22)
        pygame.draw.rect(surf, theme.lighter(col, 0.3), r, border_radius=5)
        surf.blit(chip, (r.x, cy - chip.get_height() / 2))
        drawn["chip"] = r
        x = r.right + GAP
    # score, right aligned
    parts = [
        (f"{n1}  ", theme.lighter(theme.player_colour(state, 1), 0.35)),
        (score, theme.ACCENT),
        (f"  {n2}", theme.lighter(theme.player_colour(state, 2), 0.35)),
    ]
    surfs = [theme.text(s, size - 2, c, bold=True) for s, c in parts]
    w = sum(s.get_width() for s in surfs)
    sx = rect.right - 10 - w
    boxes = []
    for s in surfs:
        boxes.append(surf.blit(s, (sx, cy - s.get_height() / 2)))
        sx += s.get_width()
    drawn["score"] = boxes[0].unionall(boxes[1:])
    if note:
        n = theme.text(note, 13, theme.TEXT_DIM)
        if x + n.get_width() + GAP <= drawn["score"].x:
            drawn["note"] = surf.blit(n, (x, cy - n.get_height() / 2))
    return drawn


DIE = 18  # a tray die's size in pixels
STEP = DIE + 6  # room per die: its badge overhangs the right edge
TEXT_MIN = 140  # the narrowest the words beside the dice may get
LINE = 15


def _fits(text: str, width: int, most: int = 3) -> list[str]:
    """`text` in at most `most` lines of `width` (a roll's words are read whole: the row grows);
    only a text longer still ends its last line with an ellipsis."""
    lines = theme.wrap(text, 13, width)
    if len(lines) <= most:
        return lines
    last, f = " ".join(lines[most - 1 :]), theme.font(13)
    while f.size(last + "…")[0] > width and len(last) > 4:
        last = last[:-1]
    return [*lines[: most - 1], last.rstrip() + "…"]


def _tally(surf: pygame.Surface, x: int, y: int, e: TrayEntry) -> int:
    """A folded roll: tick and cross badges with their counts, or "N dice"; returns its width."""
    if not e.marks:
        t = theme.text(e.folded, 13, theme.TEXT_DIM, bold=True)
        surf.blit(t, (x, y + (DIE - t.get_height()) / 2))
        return t.get_width()
    x0 = x
    for passed, count in ((True, e.passed), (False, len(e.dice) - e.passed)):
        mark(surf, x + 7, y + DIE // 2, passed, 7)
        t = theme.text(str(count), 14, theme.TEXT, bold=True)
        surf.blit(t, (x + 16, y + (DIE - t.get_height()) / 2))
        x += 16 + t.get_width() + 8
    return x - x0


def _all_dice(surf: pygame.Surface, rect: pygame.Rect, row: pygame.Rect, e: TrayEntry) -> None:
    """The hover view of a folded roll: every die, in rows, over the tray's other rows (inside
    the tray, since the decision panel's buttons are drawn after it)."""
    per = max(1, (rect.w - 16) // STEP)
    fit = max(1, (rect.h - LINE - 16) // STEP)
    rows = min(fit, (len(e.dice) + per - 1) // per)
    box = pygame.Rect(rect.x + 2, rect.y + 2, rect.w - 4, rows * STEP + LINE + 10)
    if row.centery < rect.centery:
        box.bottom = rect.bottom - 2
    pygame.draw.rect(surf, (28, 30, 36), box, border_radius=6)
    pygame.draw.rect(surf, theme.ACCENT, box, 1, border_radius=6)
    shown = min(len(e.dice), rows * per)
    more = " " + _("({n} more not shown)").format(n=len(e.dice) - shown) if shown < len(e.dice) else ""
    surf.blit(theme.text(e.folded + more, 12, theme.TEXT_DIM), (box.x + 8, box.y + 4))
    marks = e.marks or (None,) * len(e.dice)
    for k, (v, ok) in enumerate(list(zip(e.dice, marks))[:shown]):
        die(surf, box.x + 8 + (k % per) * STEP, box.y + LINE + 6 + (k // per) * STEP, DIE, v, passed=ok)


def dice_tray(
    surf: pygame.Surface, rect: pygame.Rect, entries: list[TrayEntry], mouse: tuple[int, int] | None = None
) -> None:
    """The newest rolls, newest at the bottom. Hit, wound, save and ward dice carry a tick or a
    cross; a roll with more dice than fit beside its words folds into counts, and the mouse over
    it shows every die. Nothing is drawn outside `rect` but that hover view."""
    top = panel(surf, rect, _("Dice tray"))
    if not entries:
        surf.blit(theme.text(_("No rolls yet."), 13, theme.TEXT_DIM), (rect.x + 8, top))
        return
    if mouse is None:
        mouse = pygame.mouse.get_pos() if pygame.display.get_init() else (-1, -1)
    left, right = rect.x + 8, rect.right - 8
    per_row = max(1, (right - left - TEXT_MIN) // STEP)
    y = rect.bottom - 4
    hover = None
    for e in reversed(entries):
        folded = len(e.dice) > per_row
        dice_w = 0 if not e.dice else (88 if folded else len(e.dice) * STEP)
        room = right - left - dice_w - 4
        lines = _fits(e.text, room)
        h = max(DIE, LINE * len(lines)) + 6
        if y - h < top:
            break
        y -= h
        row = pygame.Rect(rect.x + 2, y, rect.w - 4, h)
        dy = y + (h - 6 - DIE) // 2
        if folded:
            dice_w = max(dice_w, _tally(surf, left, dy, e) + 6)
            if row.collidepoint(mouse):
                hover = (row, e)
        else:
            marks = e.marks or (None,) * len(e.dice)
            for k, (v, ok) in enumerate(zip(e.dice, marks)):
                die(surf, left + k * STEP, dy, DIE, v, passed=ok)
        col = theme.TEXT_GOOD if e.good else theme.TEXT_BAD if e.good is False else theme.TEXT
        ty = y + (h - 6 - LINE * len(lines)) // 2
        for k, line in enumerate(lines):
            surf.blit(theme.text(line, 13, col), (left + dice_w + 4, ty + k * LINE))
    if hover is not None:
        _all_dice(surf, rect, *hover)


def event_log(
    surf: pygame.Surface, rect: pygame.Rect, lines: list[tuple[str, str]], view: LogView, selected: int | None = None
) -> tuple[list[tuple[pygame.Rect, int]], pygame.Rect | None]:
    """Newest last, each entry wrapped at word boundaries to the log's width (log_view); a very
    long one folds to a few rows ending "... more" until clicked. Returns the click boxes (rect,
    entry index; one per row) and the "new events" chip's rect when it is shown."""
    y0 = panel(surf, rect, _("Event log (click a line for its rule)"))
    rows_fit = max(1, (rect.bottom - y0 - 4) // log_view.ROW - (0 if view.following else 1))  # room for the chip
    text_x, room = rect.x + 40, rect.w - 48
    rows = view.rows([t for t, _ in lines], room, rows_fit)
    f = theme.font(log_view.FONT)
    boxes = []
    y = y0
    for row in rows:
        r = pygame.Rect(rect.x + 4, y, rect.w - 8, log_view.ROW)
        if row.entry == selected:
            pygame.draw.rect(surf, (60, 64, 74), r)
        if row.first:
            tag = theme.text(lines[row.entry][1] or "", log_view.FONT, theme.ACCENT, bold=True)
            surf.blit(tag, (r.x + 2, y + 1))
        s = row.text
        if row.more:  # the fold: whole words, then a marker that a click opens the rest
            more = theme.text(" " + _("... more"), log_view.FONT, theme.ACCENT)
            parts = s.split(" ")
            while len(parts) > 1 and f.size(" ".join(parts))[0] + more.get_width() > room:
                parts.pop()
            s = " ".join(parts)
            surf.blit(more, (text_x + f.size(s)[0], y + 1))
        surf.blit(theme.text(s, log_view.FONT, theme.TEXT), (text_x, y + 1))
        boxes.append((r, row.entry))
        y += log_view.ROW
    chip = None
    if not view.following:
        word = (
            ngettext("{n} new event: show", "{n} new events: show", view.unseen).format(n=view.unseen)
            if view.unseen
            else _("Show newest")
        )
        t = theme.text(word, 12, (15, 15, 15), bold=True)
        chip = pygame.Rect(0, 0, t.get_width() + 16, t.get_height() + 6)
        chip.midbottom = (rect.centerx, rect.bottom - 4)
        pygame.draw.rect(surf, theme.ACCENT if view.unseen else theme.TEXT_DIM, chip, border_radius=9)
        surf.blit(t, (chip.x + 8, chip.y + 3))
    return boxes, chip


def handover(
    surf: pygame.Surface, rect: pygame.Rect, title: str, detail: str, colour, recap: list[str] = ()
) -> pygame.Rect:
    """The hotseat screen: hide the battlefield until the next player is ready. `recap` (a few
    short lines, game.ui.recap) says what the other side did meanwhile."""
    shade = pygame.Surface(rect.size, pygame.SRCALPHA)
    shade.fill((8, 9, 12, 235))
    surf.blit(shade, rect.topleft)
    w = min(640, rect.w - 40)
    t = theme.text(title, 30, theme.lighter(colour, 0.4), bold=True)
    detail_lines = theme.wrap(detail, 16, w - 60)
    recap_lines = [(k == 0, s) for line in recap for k, s in enumerate(log_view.wrap(line, w - 76, 14))]
    recap_h = (22 + 18 * len(recap_lines) + 8) if recap_lines else 0
    h = max(230, 40 + t.get_height() + 20 * len(detail_lines) + recap_h + 80)
    box = pygame.Rect(0, 0, w, min(h, rect.h - 20))
    box.center = rect.center
    pygame.draw.rect(surf, theme.PANEL, box, border_radius=10)
    pygame.draw.rect(surf, colour, box, 4, border_radius=10)
    surf.blit(t, (box.centerx - t.get_width() / 2, box.y + 28))
    y = box.y + 40 + t.get_height()
    for line in detail_lines:
        s = theme.text(line, 16, theme.TEXT)
        surf.blit(s, (box.centerx - s.get_width() / 2, y))
        y += s.get_height() + 2
    if recap_lines:
        y += 8
        surf.blit(theme.text(_("Meanwhile:"), 14, theme.ACCENT, bold=True), (box.x + 30, y))
        y += 22
        for first, line in recap_lines:
            if y + 18 > box.bottom - 66:
                break
            if first:
                surf.blit(theme.text("-", 14, theme.TEXT_DIM), (box.x + 34, y))
            surf.blit(theme.text(line, 14, theme.TEXT), (box.x + 46, y))
            y += 18
    btn = pygame.Rect(0, 0, 300, 40)
    btn.midbottom = (box.centerx, box.bottom - 20)
    pygame.draw.rect(surf, theme.lighter(colour, 0.2), btn, border_radius=6)
    s = theme.text(_("I am ready (Enter / click)"), 16, (15, 15, 15), bold=True)
    surf.blit(s, (btn.centerx - s.get_width() / 2, btn.centery - s.get_height() / 2))
    return btn


def recap_box(surf: pygame.Surface, field: pygame.Rect, title: str, lines: list[str]) -> pygame.Rect:
    """After the AI's turn: what it did, in a box at the top of the battlefield, until a click."""
    w = min(560, field.w - 40)
    rows = [(k == 0, s) for line in lines for k, s in enumerate(log_view.wrap(line, w - 40, 14))]
    box = pygame.Rect(0, 0, w, 34 + 18 * len(rows) + 26)
    box.midtop = (field.centerx, field.y + 12)
    pygame.draw.rect(surf, (28, 30, 36), box, border_radius=8)
    pygame.draw.rect(surf, theme.ACCENT, box, 2, border_radius=8)
    surf.blit(theme.text(title, 15, theme.ACCENT, bold=True), (box.x + 12, box.y + 8))
    y = box.y + 32
    for first, line in rows:
        if first:
            surf.blit(theme.text("-", 14, theme.TEXT_DIM), (box.x + 14, y))
        surf.blit(theme.text(line, 14, theme.TEXT), (box.x + 26, y))
        y += 18
    hint = theme.text(_("Click anywhere or act to close"), 12, theme.TEXT_DIM)
    surf.blit(hint, (box.right - hint.get_width() - 12, box.bottom - hint.get_height() - 6))
    return box


def rule_box(surf: pygame.Surface, rect: pygame.Rect, title: str, text: str) -> pygame.Rect:
    lines = theme.wrap(text, 14, rect.w - 20)
    h = 40 + len(lines) * 18 + 10
    box = pygame.Rect(rect.x, rect.bottom - h, rect.w, h)
    pygame.draw.rect(surf, (28, 30, 36), box, border_radius=6)
    pygame.draw.rect(surf, theme.ACCENT, box, 2, border_radius=6)
    surf.blit(theme.text(title, 16, theme.ACCENT, bold=True), (box.x + 10, box.y + 8))
    surf.blit(theme.text("x", 15, theme.TEXT_DIM, bold=True), (box.right - 18, box.y + 6))
    y = box.y + 32
    for line in lines:
        surf.blit(theme.text(line, 14, theme.TEXT), (box.x + 10, y))
        y += 18
    return box


_FITTED: dict[tuple[str, int, str], tuple[str, int]] = {}


def fit_line(text: str, width: int, sizes: tuple[int, ...] = (14, 12)) -> tuple[str, int]:
    """`text` and the first of `sizes` it fits `width` pixels at; failing all, the smallest size
    with the text cut to fit and an ellipsis (a long Japanese hint ran under the side panel)."""
    from game import i18n

    key = (text, width, i18n.language())
    got = _FITTED.get(key)
    if got is not None:
        return got
    for size in sizes:
        if theme.font(size).size(text)[0] <= width:
            got = (text, size)
            break
    else:
        size, f = sizes[-1], theme.font(sizes[-1])
        lo, hi = 0, len(text)  # the longest prefix that fits with the ellipsis
        while lo < hi:
            mid = (lo + hi + 1) // 2
            if f.size(text[:mid].rstrip() + "…")[0] <= width:
                lo = mid
            else:
                hi = mid - 1
        got = (text[:lo].rstrip() + "…", size)
    if len(_FITTED) > 500:
        _FITTED.clear()
    _FITTED[key] = got
    return got


def status_line(surf: pygame.Surface, rect: pygame.Rect, text: str, colour=theme.TEXT) -> None:
    """The line under the battlefield: the hint or message, never wider than the line."""
    surf.fill((16, 17, 20), rect)
    pygame.draw.line(surf, theme.PANEL_EDGE, rect.topleft, (rect.right - 1, rect.y))
    shown, size = fit_line(text, rect.w - 16)
    t = theme.text(shown, size, colour)
    surf.blit(t, (rect.x + 8, rect.centery - t.get_height() / 2))
    keys = theme.text(
        _("E end phase  R ruler  F fit  F12 screenshot  F5 save  WASD pan  H all keys  Esc back"), 12, theme.TEXT_DIM
    )
    if rect.x + 8 + t.get_width() + 20 < rect.right - keys.get_width() - 8:
        surf.blit(keys, (rect.right - keys.get_width() - 8, rect.centery - keys.get_height() / 2))
