"""The status line under the battlefield never runs under the side panel: a long hint steps down
a size, then is cut with an ellipsis (a Japanese pile-in hint ran past the board's edge)."""

from __future__ import annotations

import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")

import pygame  # noqa: E402
import pytest  # noqa: E402

from game import i18n  # noqa: E402
from game.ui import theme  # noqa: E402
from game.ui.render import hud  # noqa: E402

HINT = (
    "点火の弩兵はまずパイルインします：対象へまっすぐ最大3\"、その後攻撃（R4）。"
    "強調表示された対象をクリックしてください。"
)


@pytest.fixture
def ja():
    pygame.init()
    i18n.set_language("ja")
    yield
    i18n.set_language("en")


def test_a_short_hint_keeps_its_size(ja):
    assert hud.fit_line("ヒーローフェイズ", 600) == ("ヒーローフェイズ", 14)


def test_a_hint_a_little_too_long_steps_down_a_size(ja):
    w14, w12 = theme.font(14).size(HINT)[0], theme.font(12).size(HINT)[0]
    assert w12 < w14
    assert hud.fit_line(HINT, w12 + 1) == (HINT, 12)
    assert hud.fit_line(HINT, w14) == (HINT, 14)  # the boundary: exactly as wide fits


def test_a_long_hint_is_cut_with_an_ellipsis_and_never_drawn_past_the_line(ja):
    shown, size = hud.fit_line(HINT, 400)
    assert size == 12 and shown.endswith("…") and HINT.startswith(shown[:-1])
    assert theme.font(12).size(shown)[0] <= 400
    surf = pygame.Surface((700, 40))
    surf.fill((255, 0, 255))
    hud.status_line(surf, pygame.Rect(0, 10, 416, 26), HINT)
    right = [surf.get_at((x, y))[:3] for x in range(416, 700) for y in range(10, 36)]
    assert set(right) == {(255, 0, 255)}  # nothing beyond the line's right edge
