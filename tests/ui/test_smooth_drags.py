"""Smooth drags (issue 24): the panel is built once per held drag (a reason appearing mid-drag
is in the hint line, not a panel rebuild), a ghost is one kept picture that draws what the
per-base drawing drew, and kept outline points follow the camera (R4)."""

from __future__ import annotations

import pygame

from game.ui import theme
from game.ui.intents import intent
from game.ui.render import overlays
from game.ui.render.overlays import Bases, draw_marks
from tests.helpers import P1_WIZ2, P2_WIZ1, battle
from tests.ui.controlhelpers import drag, frame, scene_for
from tests.ui.uihelpers import button_for, screen_pos


def _charge_scene(app):
    # R4: a charge roll of 8 (4 + 4) with the enemy base 6.6" ahead, edge to edge
    st = battle({"mag": (1, P1_WIZ2, [(20, 10)]), "witch": (2, P2_WIZ1, [(20, 18)])}, [4, 4], phase="charge")
    scene = scene_for(app, st)
    scene.handle(button_for(scene, lambda b, a: a is not None and a.type == "Charge").intent)
    frame(app, 2)
    assert scene.decision.kind == "charge_move"
    return scene


def _to(app, scene, x: float, y: float) -> None:
    scene.handle(intent("drag", pos=screen_pos(scene, x, y), rel=(1, 1), buttons=(1, 0, 0)))
    frame(app)


def test_r4_a_charge_drag_builds_the_panel_once_while_its_reason_comes_and_goes(app):
    scene = _charge_scene(app)
    builds = []
    real = scene._build_panel_widgets
    scene._build_panel_widgets = lambda view: (builds.append(view), real(view))[1]
    drag(app, scene, (20, 10), (20, 11), steps=1, release=False)  # the drag begins: one build
    t = scene.tool
    assert len(builds) == 1 and t.reasons  # 1" on: short of the enemy, the engine's reason
    text, colour = scene.hint
    assert colour == theme.TEXT_BAD and text.strip()  # the reason, in words, in the hint line
    commit = button_for(scene, lambda b, a: b.label.startswith("Commit the charge"))
    assert not commit.enabled  # greyed while held: it keeps its slot until the release
    _to(app, scene, 20, 24)  # through the enemy: the path stops at its base, within ½"
    assert not t.reasons and scene.hint[1] == theme.TEXT_GOOD
    _to(app, scene, 20, 12)  # short again
    assert t.reasons and scene.hint[1] == theme.TEXT_BAD
    assert len(builds) == 1, "the reason coming and going mid-drag rebuilt the panel"
    scene.handle(intent("release", pos=scene.pointer, button=1))
    frame(app)
    assert len(builds) == 2  # the release shows the settled move: its reason on the button
    commit = button_for(scene, lambda b, a: b.label.startswith("Commit the charge"))
    assert not commit.enabled and "½" in commit.tip  # the engine's reason, in words


def _drawn(renderer, mark, direct: bool) -> pygame.Surface:
    surf = pygame.Surface((900, 700))
    surf.fill((0, 0, 0))
    if direct:
        overlays._draw_bases_direct(surf, renderer.camera, mark)
    else:
        draw_marks(renderer, surf, [mark])
    return surf


def test_a_kept_ghost_picture_draws_what_the_bases_drew(app):
    from tests.ui.test_ui_drawing import _wall_game
    from tests.ui.uihelpers import hotseat

    scene = hotseat(app, _wall_game())
    frame(app, 2)
    r = scene.renderer
    circles = [(10 + 1.1 * k, 20 + 0.55 * (k % 2), 0.5) for k in range(10)]
    for ok in (True, False):
        mark = Bases(circles, ok=ok, alpha=60)
        kept, direct = _drawn(r, mark, False), _drawn(r, mark, True)
        col = (*(theme.GHOST_OK if ok else theme.GHOST_BAD), 255)
        lit = differ = edge_kept = edge_direct = 0
        for x in range(900):
            for y in range(700):
                a, b = kept.get_at((x, y)), direct.get_at((x, y))
                if a != (0, 0, 0, 255) or b != (0, 0, 0, 255):
                    lit += 1
                    differ += a != b
                    edge_kept += a == col
                    edge_direct += b == col
        assert lit > 500, ok
        # the same bases and outline; a dashed one's dashes may start a pixel along
        assert differ <= (0.1 if ok else 0.25) * lit, (ok, lit, differ)
        assert abs(edge_kept - edge_direct) <= 0.15 * edge_direct, (ok, edge_kept, edge_direct)
        again = _drawn(r, mark, False)  # the second draw is the kept picture
        assert pygame.image.tobytes(again, "RGB") == pygame.image.tobytes(kept, "RGB")


def test_kept_outline_points_follow_the_camera(app):
    import shapely

    from tests.ui.test_ui_drawing import _wall_game
    from tests.ui.uihelpers import hotseat

    scene = hotseat(app, _wall_game())
    frame(app, 2)
    r = scene.renderer
    shape = shapely.Point(20, 20).buffer(3)
    first = list(r._shape_points(shape))
    assert r._shape_points(shape) == first
    r.camera.pan(7, 0)
    moved = r._shape_points(shape)
    assert [round(x - 7, 6) for x, _y in moved] == [round(x, 6) for x, _y in first]
    r.camera.pan(-7, 0)
