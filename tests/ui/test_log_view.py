"""The event log keeps up (issue 20): lines wrap at word boundaries to the log's width, a very
long entry folds and opens on a click, the log follows new events unless the player has
scrolled up, and then holds its place and shows "new events" (a click jumps to the newest)."""

from __future__ import annotations

import pygame
import pytest

from game.ui import theme
from game.ui.intents import intent
from game.ui.render import log_view
from game.ui.render.log_view import LogView
from tests.ui.conftest import frames
from tests.ui.uihelpers import hotseat, scripted_session, to_hero_phase

REASON = (
    "AI (player 2): Reed-Witch casts Reed Shroud on Mire Wardens (Western Bank) because the unit "
    "stands on the objective and is in reach of two enemy units that could charge it next turn, "
    "which would cost the objective"
)
WIDTH = 300


@pytest.fixture(autouse=True)
def _fonts():
    pygame.font.init()


def _words_kept(text: str, lines: list[str]) -> None:
    """Every line fits and is made of whole words: together they are the text again."""
    f = theme.font(log_view.FONT)
    assert all(f.size(s)[0] <= WIDTH for s in lines), lines
    assert " ".join(lines) == text
    words = text.split(" ")
    assert all(set(s.split(" ")) <= set(words) for s in lines)


def test_a_long_ai_reason_wraps_at_word_boundaries_not_cut_mid_word():
    lines = log_view.wrap(REASON, WIDTH)
    assert len(lines) >= 2
    _words_kept(REASON, lines)


def test_a_word_wider_than_the_log_is_broken_inside_itself_never_cut_off():
    word = "Aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
    lines = log_view.wrap(word, WIDTH)
    assert len(lines) >= 2 and "".join(lines) == word


def test_a_very_long_entry_folds_and_a_click_opens_the_whole_text():
    text = " ".join([REASON] * 3)
    view = LogView()
    texts = ["Battle round 1 begins", text, "Hero phase (player 1)"]
    rows = view.rows(texts, WIDTH, 20)
    mine = [r for r in rows if r.entry == 1]
    assert len(mine) == log_view.FOLD and mine[-1].more
    assert view.toggle(1, texts, 20)
    mine = [r for r in view.rows(texts, WIDTH, 20) if r.entry == 1]
    assert len(mine) > log_view.FOLD and not any(r.more for r in mine)
    _words_kept(text, [r.text for r in mine])  # the full text is reachable
    assert view.toggle(1, texts, 20) and len([r for r in view.rows(texts, WIDTH, 20) if r.entry == 1]) == log_view.FOLD
    assert not view.toggle(0, texts, 20)  # a short entry has nothing to open


def test_the_log_follows_new_events_and_holds_its_place_when_scrolled_up():
    view = LogView()
    texts = [f"event {i}" for i in range(30)]
    assert view.rows(texts, WIDTH, 10)[-1].text == "event 29"
    texts.append("event 30")
    assert view.rows(texts, WIDTH, 10)[-1].text == "event 30" and view.following
    view.scroll(2)  # the wheel up: older rows
    held = [r.text for r in view.rows(texts, WIDTH, 10)]
    assert held[-1] == f"event {30 - 2 * log_view.WHEEL_ROWS}" and not view.following
    texts += ["event 31", REASON]
    assert [r.text for r in view.rows(texts, WIDTH, 10)] == held and view.unseen == 2
    view.scroll(-10)  # back down to the bottom: following again, nothing unseen
    assert view.following and view.unseen == 0
    assert view.rows(texts, WIDTH, 10)[-1].entry == len(texts) - 1


def test_the_oldest_row_is_never_scrolled_past():
    view = LogView()
    texts = [f"event {i}" for i in range(5)]
    view.scroll(50)
    assert [r.text for r in view.rows(texts, WIDTH, 10)][0] == "event 0" and view.following


def test_in_the_battle_scene_the_wheel_scrolls_new_events_show_and_the_chip_jumps_back(app):
    session = scripted_session([5, 2])
    scene = hotseat(app, session)
    to_hero_phase(app, scene)
    scene.bot_notes += [(0, REASON)] + [(0, f"AI (player 2): note {i}") for i in range(30)]
    scene._derived_version = -1
    frames(app)
    # the long reason wraps to several rows, all whole words, none cut with an ellipsis
    scene.handle(intent("scroll", pos=scene.log_rect.center, dy=100))
    frames(app)
    reason_rows = [r for r, i in scene.log_boxes if scene._log_lines[i][0] == REASON]
    assert len(reason_rows) >= 2
    assert scene.log_chip is not None  # scrolled up: the chip offers the newest
    held = [i for _, i in scene.log_boxes]
    before = len(scene._log_lines)
    scene.handle(intent("end_phase"))  # more events arrive while the player reads older ones
    if scene.confirm is not None:  # "End the hero phase?" (no unit acted): yes
        scene.handle(intent("continue"))
    frames(app)
    assert len(scene._log_lines) > before
    assert [i for _, i in scene.log_boxes] == held, "the log held its place"
    assert scene.log_view.unseen == len(scene._log_lines) - before
    scene.handle(intent("press", pos=scene.log_chip.center, button=1))
    frames(app)
    assert scene.log_view.following and scene.log_chip is None
    assert scene.log_boxes[-1][1] == len(scene._log_lines) - 1


def test_a_click_on_a_folded_entry_opens_it(app):
    session = scripted_session([])
    scene = hotseat(app, session)
    frames(app)
    long = " ".join([REASON] * 3)
    scene.bot_notes.append((len(session.history), long))
    scene._derived_version = -1
    frames(app)
    rows = [r for r, i in scene.log_boxes if scene._log_lines[i][0] == long]
    assert len(rows) == log_view.FOLD
    scene.handle(intent("press", pos=rows[0].center, button=1))
    frames(app)
    rows = [r for r, i in scene.log_boxes if scene._log_lines[i][0] == long]
    assert len(rows) > log_view.FOLD
