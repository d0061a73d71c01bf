"""Colour is never the only signal (issue 19): a blocked sight line (G2) is dashed and crossed
where it is blocked, a clear one solid; an illegal ghost is dashed and crossed; and the
Okabe-Ito palette is a setting that swaps the signal colours and restores the default."""

from __future__ import annotations

import pytest

from game.geometry.shapes import Circle
from game.ui import theme
from game.ui.intents import intent
from game.ui.render.overlays import Bases, Cross, Line, Shape
from game.ui.render.sight_marks import block_point, sight_mark
from tests.ui.conftest import frames
from tests.ui.test_ui_drawing import _wall_game
from tests.ui.uihelpers import hotseat, screen_pos


@pytest.fixture
def okabe_ito():
    theme.use_palette("okabe-ito")
    try:
        yield
    finally:
        theme.use_palette("default")


def _sight_lines(scene) -> list[Line]:
    return [m for m in scene.overlays.marks if isinstance(m, Line) and m.width == 3]


def test_g2_blocked_sight_line_is_dashed_with_a_cross_and_a_clear_one_solid(app):
    session = _wall_game()
    scene = hotseat(app, session)
    frames(app)
    scene.handle(intent("press", pos=screen_pos(scene, 20, 22), button=1))  # select the observer
    scene.handle(intent("release", pos=screen_pos(scene, 20, 22), button=1))
    scene.handle(intent("pointer", pos=screen_pos(scene, 40, 30)))  # clear over the wall's top
    frames(app)
    (clear,) = _sight_lines(scene)
    assert not clear.dashed and clear.cross is None and clear.colour == theme.SIGHT_CLEAR
    session.state.units["b"].models[0].y = 22.0  # straight behind the Wall of Thorns
    session.version += 1
    scene.handle(intent("pointer", pos=screen_pos(scene, 40, 22)))
    frames(app)
    (blocked,) = _sight_lines(scene)
    assert blocked.dashed and blocked.colour == theme.SIGHT_BLOCKED
    assert blocked.cross is not None
    wall = next(t for t in session.state.game.battlefield.map.terrain if t.name == "Wall of Thorns")
    xs = [p[0] for p in wall.points]
    assert min(xs) - 0.01 <= blocked.cross[0] <= max(xs) + 0.01  # the cross sits where the wall cuts it
    assert scene.sight_segment == (blocked.a, blocked.b)  # the hover card keeps clear of it


def test_g2_block_point_is_the_first_blocker_met():
    bases = [(10.0, 0.0, 1.0), (5.0, 0.0, 1.0)]
    assert block_point(((0.0, 0.0), (20.0, 0.0)), bases, []) == pytest.approx((4.0, 0.0))
    assert block_point(((0.0, 0.0), (20.0, 0.0)), [], []) == (10.0, 0.0)  # none found: the middle
    assert sight_mark(((0, 0), (1, 0)), True).dashed is False


def test_an_illegal_ghost_is_dashed_and_crossed():
    assert Bases([(1, 1, 0.5)], ok=False).dashed and Bases([(1, 1, 0.5)], ok=False).cross
    assert not Bases([(1, 1, 0.5)], ok=True).dashed and not Bases([(1, 1, 0.5)], ok=True).cross


def test_an_illegal_ghost_draws_a_dashed_outline_and_a_cross(app):
    """The marks draw: a dashed ring leaves gaps a solid one does not, and the cross sits at the centre."""
    import pygame

    from game.ui.render.overlays import draw_marks

    scene = hotseat(app, _wall_game())
    frames(app)
    r = scene.renderer
    x, y = 10.0, 40.0
    cx, cy = r.camera.to_screen(x, y)
    rad = 1.0 * r.camera.scale
    ring = [(round(cx + rad * __import__("math").cos(a / 20)), round(cy + rad * __import__("math").sin(a / 20)))
            for a in range(0, 126)]  # fmt: skip

    def drawn(mark):
        surf = pygame.Surface((2000, 1500))
        surf.fill((0, 0, 0))
        draw_marks(r, surf, [mark])
        return surf

    good = drawn(Bases([(x, y, 1.0)], ok=True, alpha=0))
    bad = drawn(Bases([(x, y, 1.0)], ok=False, alpha=0))
    on_good = sum(tuple(good.get_at(p))[:3] == theme.GHOST_OK for p in ring)
    on_bad = sum(tuple(bad.get_at(p))[:3] == theme.GHOST_BAD for p in ring)
    assert on_good > 0.9 * len(ring) and 0.2 * len(ring) < on_bad < 0.8 * len(ring)  # dashes
    assert tuple(bad.get_at((round(cx), round(cy))))[:3] == theme.GHOST_BAD  # the cross
    assert tuple(good.get_at((round(cx), round(cy))))[:3] != theme.GHOST_OK
    walker = drawn(Shape(Circle(x, y, 1.0), (*theme.GHOST_BAD, 0), theme.GHOST_BAD, 2, dashed=True, cross=True))
    assert tuple(walker.get_at((round(cx), round(cy))))[:3] == theme.GHOST_BAD
    spot = drawn(Cross(x, y, theme.GHOST_BAD))
    assert tuple(spot.get_at((round(cx), round(cy))))[:3] == theme.GHOST_BAD


def test_okabe_ito_palette_swaps_the_colours_and_restores_the_default():
    default = (theme.SIGHT_CLEAR, theme.SIGHT_BLOCKED, theme.GHOST_OK, theme.GHOST_BAD, theme.TEXT_GOOD, theme.TEXT_BAD)
    assert theme.use_palette("okabe-ito") == "okabe_ito"
    try:
        oi = theme.OKABE_ITO
        assert theme.SIGHT_CLEAR == theme.GHOST_OK == theme.TEXT_GOOD == oi["sky_blue"]
        assert theme.SIGHT_BLOCKED == theme.GHOST_BAD == theme.TEXT_BAD == oi["vermillion"]
        assert theme.PLAYER_COLOURS == {1: oi["orange"], 2: oi["blue"]}
        assert sight_mark(((0, 0), (1, 0)), False).colour == oi["vermillion"]  # drawn at call time
        assert theme.PALETTE == "okabe_ito"
    finally:
        assert theme.use_palette("default") == "default"
    assert (theme.SIGHT_CLEAR, theme.SIGHT_BLOCKED, theme.GHOST_OK, theme.GHOST_BAD, theme.TEXT_GOOD,
            theme.TEXT_BAD) == default  # fmt: skip
    assert theme.PLAYER_COLOURS is None and theme.PALETTE == "default"
    with pytest.raises(ValueError, match="unknown palette"):
        theme.use_palette("sepia")


def test_player_colours_follow_the_palette(app, okabe_ito):
    session = _wall_game()
    assert theme.player_colour(session.state, 1) == theme.OKABE_ITO["orange"]
    assert theme.player_colour(session.state, 2) == theme.OKABE_ITO["blue"]


def test_the_board_layer_is_redrawn_when_the_palette_changes(app):
    scene = hotseat(app, _wall_game())
    frames(app)
    before = scene.renderer.static_renders
    frames(app)
    assert scene.renderer.static_renders == before  # cached while nothing changes
    theme.use_palette("okabe_ito")
    try:
        frames(app)
        assert scene.renderer.static_renders == before + 1
    finally:
        theme.use_palette("default")


def test_palette_from_the_command_line_and_the_environment(monkeypatch):
    from game.ui import app as app_mod

    seen = []
    monkeypatch.setattr(app_mod, "init_pygame", lambda headless: (_ for _ in ()).throw(SystemExit(seen)))
    real = theme.use_palette
    monkeypatch.setattr(theme, "use_palette", lambda name: seen.append(name) or real("default"))
    import argparse

    with pytest.raises(SystemExit):
        app_mod.run(argparse.Namespace(palette="okabe-ito"))
    monkeypatch.setenv("SPELLFIELD_PALETTE", "okabe_ito")
    with pytest.raises(SystemExit):
        app_mod.run(argparse.Namespace(palette=None))
    assert seen == ["okabe-ito", "okabe_ito"]
    monkeypatch.setattr(theme, "use_palette", real)
    assert app_mod.run(argparse.Namespace(palette="sepia")) == 2  # refused before a window opens


def test_an_illegal_summon_ghost_is_dashed_and_crossed(app):
    """The placement ghost of a summon (Overlays.ghost): solid when legal, dashed and crossed when not."""
    import math

    import pygame

    from game.ui.render.field import Overlays

    scene = hotseat(app, _wall_game())
    frames(app)
    r = scene.renderer
    x, y = 10.0, 40.0
    cx, cy = r.camera.to_screen(x, y)
    rad = 1.0 * r.camera.scale
    ring = [(round(cx + rad * math.cos(a / 20)), round(cy + rad * math.sin(a / 20))) for a in range(126)]

    def drawn(ok: bool):
        surf = pygame.Surface(scene.field_rect.size)
        r.draw(surf, scene.state, Overlays(ghost=Circle(x, y, 1.0), ghost_ok=ok))
        return surf

    good, bad = drawn(True), drawn(False)
    on_good = sum(tuple(good.get_at(p))[:3] == theme.GHOST_OK for p in ring)
    on_bad = sum(tuple(bad.get_at(p))[:3] == theme.GHOST_BAD for p in ring)
    assert on_good > 0.9 * len(ring) and 0.2 * len(ring) < on_bad < 0.8 * len(ring)
    assert tuple(bad.get_at((round(cx), round(cy))))[:3] == theme.GHOST_BAD  # the cross
