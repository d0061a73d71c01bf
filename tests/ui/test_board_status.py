"""Status on the board (issue 19): buff and debuff tokens by the unit, health in numbers on
hover, objectives in their holder's colour (R2). Whole renders; the renderer's records
(drawn_labels, drawn_objectives) and pixels say what was drawn."""

from __future__ import annotations

import pygame
import pytest

from game.rules import Game
from game.rules.units import Buff
from game.ui import theme
from game.ui.camera import Camera
from game.ui.render.field import FieldRenderer, Overlays

SIZE = (890, 734)  # the battle scene's field at 1280x800


@pytest.fixture(scope="module")
def game():
    pygame.init()
    return Game.load()


def _render(state, ov: Overlays | None = None) -> tuple[FieldRenderer, pygame.Surface]:
    surf = pygame.Surface(SIZE)
    bmap = state.game.battlefield.map
    renderer = FieldRenderer(Camera(pygame.Rect(0, 0, *SIZE), (bmap.width, bmap.height)))
    renderer.draw(surf, state, ov or Overlays(), version=1)
    return renderer, surf


def _clean(renderer: FieldRenderer) -> None:
    drawn = renderer.drawn_labels
    for i, a in enumerate(drawn):
        for b in drawn[i + 1 :]:
            assert not a.rect.colliderect(b.rect), (a, b)


def test_m3_a_buffed_unit_shows_a_buff_token(game):
    state = game.new_state(seed=3)
    state.units["p1u0"].buffs.append(Buff("save_buff", 1, "x", 1, state.turn))
    renderer, _ = _render(state)
    tokens = [d for d in renderer.drawn_labels if d.kind == "buff"]
    assert [d.text for d in tokens] == ["+1 sv"]
    assert not any(d.kind == "debuff" for d in renderer.drawn_labels)
    _clean(renderer)


def test_m3_a_debuffed_unit_shows_a_debuff_token(game):
    state = game.new_state(seed=3)
    state.units["p2u0"].buffs.append(Buff("hit_debuff", 1, "x", 1, state.turn))
    state.units["p2u0"].buffs.append(Buff("move_debuff", 2, "x", 1, state.turn))
    renderer, _ = _render(state)
    tokens = [d for d in renderer.drawn_labels if d.kind == "debuff"]
    assert [d.text for d in tokens] == ['-1 hit -2" mv']
    assert not any(d.kind == "buff" for d in renderer.drawn_labels)
    _clean(renderer)


def test_buff_and_debuff_tokens_differ_by_shape():
    """Up-triangle for a buff, down-triangle for a debuff: the top row's middle is filled on
    one and the bottom row's on the other, whatever the colours."""
    from game.ui.render.chips import status_chip

    pygame.init()
    up, down = status_chip(True, "", (200, 200, 200)), status_chip(False, "", (200, 200, 200))
    h = up.get_height()
    apex_x = 4 + 4  # PAD_X + half the triangle
    top, bottom = (h - 9) // 2 + 1, (h - 9) // 2 + 8
    assert up.get_at((apex_x, bottom))[:3] == (200, 200, 200) and up.get_at((apex_x - 3, top))[:3] != (200, 200, 200)
    assert down.get_at((apex_x, top))[:3] == (200, 200, 200)
    assert down.get_at((apex_x - 3, bottom))[:3] != (200, 200, 200)


def test_r2_an_objective_held_by_player_1_is_drawn_in_player_1_colour(game):
    state = game.new_state(seed=3)
    state.objectives[0] = 1
    renderer, surf = _render(state)
    p1 = theme.player_colour(state, 1)
    assert renderer.drawn_objectives[0] == theme.lighter(p1, 0.3)
    assert all(c == theme.OBJECTIVE for c in renderer.drawn_objectives[1:])
    o = state.game.battlefield.map.objectives[0]
    x, y = renderer.camera.to_screen(o.x, o.y)
    assert tuple(surf.get_at((round(x), round(y))))[:3] == theme.lighter(p1, 0.3)
    labels = [d for d in renderer.drawn_labels if d.kind == "objective"]
    assert labels, "objective labels drawn"


def test_the_hovered_units_health_appears_in_numbers(game):
    state = game.new_state(seed=3)
    uid = next(k for k, u in state.units.items() if game.warscroll(u.warscroll).health > 1 and len(u.models) == 1)
    state.units[uid].models[0].damage = 2
    health = game.warscroll(state.units[uid].warscroll).health
    renderer, _ = _render(state, Overlays(hovered=uid))
    texts = [d.text for d in renderer.drawn_labels if d.kind == "health"]
    assert texts == [f"damage 2 of {health}"]
    _clean(renderer)
    renderer, _ = _render(state)  # not hovered: no numbers
    assert not any(d.kind == "health" for d in renderer.drawn_labels)


def test_a_hovered_unit_of_several_models_shows_its_health_left(game):
    state = game.new_state(seed=3)
    uid = next(k for k, u in state.units.items() if len(u.models) > 1)
    u = state.units[uid]
    h = game.warscroll(u.warscroll).health
    renderer, _ = _render(state, Overlays(hovered=uid))
    texts = [d.text for d in renderer.drawn_labels if d.kind == "health"]
    n = len(u.models)
    assert texts == ([f"{h * n}/{h * n} health"] if h > 1 else [f"{n}/{n} models"])


@pytest.mark.parametrize("size", ((890, 734), (667, 584)))
def test_status_tokens_and_health_numbers_join_the_one_layout(game, size):
    """Every unit buffed and debuffed, a caster selected with its rings, another hovered: the
    tokens and the numbers overlap no other label and stay inside the viewport, off the rulers."""
    from tests.ui.test_label_layout import _assert_clean, _busy_overlays

    state = game.new_state(seed=3)
    for u in state.units.values():
        u.buffs.append(Buff("ward_buff", 5, "x", 1, state.turn))
        u.buffs.append(Buff("hit_debuff", 1, "x", 1, state.turn))
    surf = pygame.Surface(size)
    bmap = state.game.battlefield.map
    renderer = FieldRenderer(Camera(pygame.Rect(0, 0, *size), (bmap.width, bmap.height)))
    renderer.draw(surf, state, _busy_overlays(state, "p1u0", "p2u0"), version=1)
    _assert_clean(renderer, pygame.Rect(0, 0, *size))
    kinds = [d.kind for d in renderer.drawn_labels]
    assert kinds.count("buff") >= len(state.units) // 2 and "debuff" in kinds and "health" in kinds
