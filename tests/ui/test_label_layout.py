"""Battlefield labels never overlap (issue 19): one layout pass places every label by priority.

Unit tests of the layout (game.ui.render.label_layout) and whole renders (the default battle,
a crowded scene of 12 manifestations among terrain, a demonstration frame) whose drawn label
boxes must be pairwise disjoint and inside the viewport, off the rulers.
"""

from __future__ import annotations

import pygame
import pytest

from game.rules import Game
from game.rules.position import ManifestationSpec, PositionError, UnitSpec, add_manifestations, build_position
from game.ui import theme
from game.ui.camera import Camera
from game.ui.render.field import FieldRenderer, Overlays, Ring
from game.ui.render.label_layout import LabelRequest, layout

VIEWPORTS = ((890, 734), (667, 584))  # the battle scene's field at 1280x800 and 1000x650


def _req(kind: str, pri: int, w: int, h: int, at, attr: str = "center", sizes=None, **kw) -> LabelRequest:
    return LabelRequest(kind, pri, sizes or [(w, h)], [(attr, at)], **kw)


# --- the layout function --------------------------------------------------------------------


def test_higher_priority_keeps_its_place():
    low = _req("low", 1, 40, 10, (50, 50))
    high = _req("high", 9, 40, 10, (50, 50))
    out = layout([low, high], pygame.Rect(0, 0, 200, 200))
    rects = {p.request.kind: p for p in out.placed}
    assert rects["high"].rect.center == (50, 50) and not rects["high"].moved
    assert rects["low"].rect.center != (50, 50) and rects["low"].moved
    assert not rects["high"].rect.colliderect(rects["low"].rect)


def test_a_label_moves_to_a_free_offset_near_its_anchor():
    first = _req("a", 5, 40, 10, (100, 100))
    second = _req("b", 5, 40, 10, (100, 100))
    out = layout([first, second], pygame.Rect(0, 0, 200, 200))
    a, b = (p.rect for p in out.placed)
    assert a.center == (100, 100)
    assert not a.colliderect(b)
    assert abs(b.centerx - 100) <= 40 and abs(b.centery - 100) <= 2 * 10 + 4  # near, not far away


def test_a_label_takes_its_second_place_before_a_nudge():
    blocker = _req("blocker", 9, 40, 10, (100, 95), "midbottom")
    lab = LabelRequest("lab", 1, [(40, 10)], [("midbottom", (100, 95)), ("midtop", (100, 120))])
    out = layout([blocker, lab], pygame.Rect(0, 0, 200, 200))
    placed = {p.request.kind: p for p in out.placed}
    assert placed["lab"].rect.midtop == (100, 120) and not placed["lab"].moved


def test_a_label_shrinks_to_a_smaller_variant_when_its_size_has_no_room():
    area = pygame.Rect(0, 0, 60, 12)
    lab = _req("lab", 1, 0, 0, (30, 6), sizes=[(80, 12), (50, 10)])
    out = layout([lab], area)
    assert out.placed[0].variant == 1 and area.contains(out.placed[0].rect)


def test_a_label_hides_when_there_is_no_room():
    area = pygame.Rect(0, 0, 50, 12)
    big = _req("big", 9, 50, 12, (25, 6))
    small = _req("small", 1, 20, 10, (25, 6))
    out = layout([small, big], area)
    assert [p.request.kind for p in out.placed] == ["big"]
    assert [r.kind for r in out.hidden] == ["small"]


def test_labels_stay_inside_the_bounds_and_off_obstacles():
    area = pygame.Rect(0, 0, 200, 100)
    ruler = pygame.Rect(0, 80, 200, 20)
    edge = _req("edge", 1, 60, 12, (195, 85))  # by the corner and on the ruler strip
    out = layout([edge], area, [ruler])
    (p,) = out.placed
    assert area.contains(p.rect) and not p.rect.colliderect(ruler)


def test_a_label_keeps_inside_its_own_area():
    board = pygame.Rect(20, 20, 100, 60)
    lab = _req("ring", 1, 40, 12, (150, 10), "bottomleft", within=board)
    (p,) = layout([lab], pygame.Rect(0, 0, 200, 200)).placed
    assert board.contains(p.rect)


# --- whole renders -------------------------------------------------------------------------------


def _assert_clean(renderer: FieldRenderer, vp: pygame.Rect) -> None:
    drawn = renderer.drawn_labels
    assert drawn, "no labels drawn"
    for d in drawn:
        assert vp.contains(d.rect), (d.kind, d.text, d.rect, vp)
        for strip in renderer._ruler_strips:
            assert not d.rect.colliderect(strip), (d.kind, d.text, "on the ruler")
    for i, a in enumerate(drawn):
        for b in drawn[i + 1 :]:
            assert not a.rect.colliderect(b.rect), (a, b)


def _busy_overlays(state, caster: str, target: str) -> Overlays:
    """A caster selected with its range rings, another unit hovered, the ruler out."""
    ov = Overlays()
    m = state.units[caster].models[0]
    for rad, label in ((3, '3" control'), (12, '12": Spark Lash'), (18, '18": 2 spells/prayers'), (30, '30" unbind')):
        ov.rings.append(Ring(m.x, m.y, rad, theme.RING_SPELL, label))
    ov.selected = (caster, 0)
    ov.hovered = target
    t = state.units[target].models[0]
    ov.ruler = ((m.x, m.y), (t.x, t.y), '21.0"')
    return ov


def _render(state, size, ov: Overlays) -> FieldRenderer:
    surf = pygame.Surface(size)
    bmap = state.game.battlefield.map
    renderer = FieldRenderer(Camera(pygame.Rect(0, 0, *size), (bmap.width, bmap.height)))
    renderer.draw(surf, state, ov, version=1)
    return renderer


@pytest.fixture(scope="module")
def game():
    pygame.init()
    return Game.load()


@pytest.mark.parametrize("size", VIEWPORTS)
def test_default_battle_labels_never_overlap(game, size):
    state = game.new_state(seed=3)
    renderer = _render(state, size, _busy_overlays(state, "p1u0", "p2u0"))
    _assert_clean(renderer, pygame.Rect(0, 0, *size))
    kinds = {d.kind for d in renderer.drawn_labels}
    assert {"terrain", "objective", "badge", "ring", "ruler", "unit"} <= kinds


def crowded_state(game):
    """The default battle's units in the hero phase and 12 manifestations set up on clear
    spots among the terrain of the middle of the board."""
    base = game.new_state(seed=3)
    units = [UnitSpec(uid, u.player, u.warscroll, [(m.x, m.y) for m in u.models]) for uid, u in base.units.items()]
    state = build_position(game, units, phase="hero")
    casters = [uid for uid, u in state.units.items() if game.warscroll(u.warscroll).wizard_level]
    scrolls = sorted(game.content.manifestations)
    n = 0
    for y in (22.0, 16.0, 28.0, 19.0, 25.0):
        for x in range(6, 58, 4):
            if n == 12:
                break
            caster = casters[n % len(casters)]
            spec = ManifestationSpec(f"m{n}", scrolls[n % len(scrolls)], caster, float(x), y)
            try:
                add_manifestations(state, [spec])
            except PositionError:
                continue
            m = state.manifestations[spec.id]
            if game.content.manifestations[m.scroll].predatory and n % 2:  # E7: "controlled by" lines
                m.flags["controlled_by"] = [caster, 0]
            n += 1
    assert n == 12
    return state


@pytest.mark.parametrize("size", VIEWPORTS)
def test_crowded_scene_labels_never_overlap(game, size):
    state = crowded_state(game)
    renderer = _render(state, size, _busy_overlays(state, "p1u0", "p2u0"))
    _assert_clean(renderer, pygame.Rect(0, 0, *size))
    assert sum(d.kind == "manifestation" for d in renderer.drawn_labels) >= 8


def test_demo_frames_labels_never_overlap():
    from game.demos import list_demos, load_demo, run_demo
    from game.ui.scenes.demo import paint_frame

    pygame.init()
    for name in list_demos()[:6]:
        run = run_demo(load_demo(name))
        surf = pygame.Surface((1280, 800))
        renderer = None
        for i in range(len(run.frames)):
            renderer = paint_frame(surf, run, i, renderer)
            _assert_clean(renderer, pygame.Rect((0, 0), renderer.camera.viewport.size))


def test_zooming_out_stops_at_fit():
    cam = Camera(pygame.Rect(0, 0, 890, 734), (60, 44))
    fit = cam.scale
    cam.zoom_at(0.5, (100, 100))
    assert cam.scale == fit
    before = (cam.ox, cam.oy)
    cam.fit()
    assert (cam.ox, cam.oy) == before  # back at fit the board is whole and centred
    cam.zoom_at(2.0, (100, 100))
    assert cam.scale == pytest.approx(2 * fit)


def test_low_zoom_collapses_labels_to_icons_with_their_words_as_tips(game):
    """At a small window's fit the terrain's words go to icons (their names as tool tips); a
    caster's badge stays; nothing overlaps."""
    state = crowded_state(game)
    big = _render(state, (890, 734), Overlays())
    small = _render(state, (420, 340), Overlays())
    assert small.camera.scale < big.camera.scale
    words = lambda r, k: sum(d.kind == k and not d.icon for d in r.drawn_labels)  # noqa: E731
    icons = [d for d in small.drawn_labels if d.icon]
    assert words(small, "terrain") < words(big, "terrain")
    assert {d.kind for d in icons} >= {"terrain"} and not any(d.icon for d in big.drawn_labels if d.kind == "terrain")
    assert any(d.kind == "badge" for d in small.drawn_labels)
    _assert_clean(small, pygame.Rect(0, 0, 420, 340))
    # the pointer over an icon shows its words
    icon = next(d for d in icons if d.kind == "terrain")
    tipped = _render(state, (420, 340), Overlays(pointer=icon.rect.center))
    assert tipped.drawn_tip is not None and tipped.drawn_tip.text == icon.text
    assert "(" in icon.text  # the name and its traits: "Drowned Tower (impassable, obscuring)"
    assert _render(state, (420, 340), Overlays(pointer=(1, 1))).drawn_tip is None


def test_a_ring_label_sits_on_the_ring_nearest_the_pointer(game):
    state = crowded_state(game)
    uid = next(iter(state.units))
    u = state.units[uid]
    m = u.models[0]
    ring = Ring(m.x, m.y, 6.0, theme.ACCENT, 'Spell 6"')

    def label_at(pointer):
        r = _render(state, (890, 734), Overlays(rings=[ring], pointer=pointer))
        (lab,) = [d for d in r.drawn_labels if d.kind == "ring"]
        return r.camera.to_screen(m.x, m.y), lab.rect

    (cx, cy), below = label_at((0, 733))  # pointer at the bottom left of the field
    (cx, cy), above = label_at((889, 0))  # at the top right
    assert above.centery < below.centery
    assert above.centerx > below.centerx


def test_a_shy_label_keeps_off_soft_obstacles_while_it_can():
    base = pygame.Rect(80, 90, 40, 20)
    shy = LabelRequest("terrain", 1, [(40, 10)], [("center", (100, 100))], shy=True)
    bold = LabelRequest("ruler", 1, [(40, 10)], [("center", (100, 100))])
    (p,) = layout([shy], pygame.Rect(0, 0, 200, 200), soft=[base]).placed
    assert not p.rect.colliderect(base)
    (q,) = layout([bold], pygame.Rect(0, 0, 200, 200), soft=[base]).placed
    assert q.rect.center == (100, 100)
    (r,) = layout([shy], pygame.Rect(80, 90, 40, 20), soft=[base]).placed  # no other room: it covers
    assert r.rect.center == (100, 100)
