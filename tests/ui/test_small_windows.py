"""Small windows (issue 20): a minimum window size, a narrower side panel below 1280 wide, and a
header whose texts never overlap (asserted on the rectangles it drew)."""

from __future__ import annotations

import itertools

import pygame

from game.ui import theme
from game.ui.app import App
from game.ui.render import hud
from tests.ui.conftest import frames
from tests.ui.uihelpers import hotseat, scripted_session, to_hero_phase


def _disjoint_inside(rects: dict[str, pygame.Rect], area: pygame.Rect) -> None:
    for (na, a), (nb, b) in itertools.combinations(rects.items(), 2):
        assert not a.colliderect(b), (na, a, nb, b)
    for name, r in rects.items():
        assert area.contains(r), (name, r, area)


def test_the_window_cannot_be_resized_below_the_minimum(app):
    app.resize((800, 500))
    assert app.size == theme.MIN_WINDOW == (1024, 640) and app.screen.get_size() == (1024, 640)
    app.resize((1000, 650))
    assert app.size == (1024, 650)
    assert App((640, 480), headless=True).size == (1024, 640)


def test_at_1024_wide_the_header_does_not_overlap_and_the_side_panel_is_narrower(app):
    scene = hotseat(app, scripted_session([5, 2]))
    frames(app)
    to_hero_phase(app, scene)  # the longest header: round, turn, phase and "Player 1 to act"
    frames(app)
    wide = scene.panel_rect.w
    assert set(scene.header_rects) >= {"phase", "chip", "score"}
    _disjoint_inside(scene.header_rects, scene.top_rect)
    for size in ((1024, 640), (1000, 650)):
        app.resize(size)
        frames(app)
        assert scene.panel_rect.w < wide and scene.field_rect.w > app.size[0] // 2
        assert set(scene.header_rects) >= {"phase", "chip", "score"}
        _disjoint_inside(scene.header_rects, scene.top_rect)


def test_the_header_shortens_its_texts_rather_than_overlap():
    # narrower than any window: the phase text shortens, then the army names
    session = scripted_session([])
    st, decision = session.state, session.decision
    st.stage, st.phase, st.round, st.turn = "battle", "movement", 1, 1  # drawn only: the longest texts
    surf = pygame.Surface((1024, 40))
    for w in (1024, 800, 600, 480):
        rect = pygame.Rect(0, 0, w, 40)
        drawn = hud.topbar(surf, rect, st, decision, "AI thinking...")
        _disjoint_inside(drawn, rect)
        assert {"phase", "chip", "score"} <= set(drawn)
