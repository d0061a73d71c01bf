"""Pixels: a 12" ring is 12 inches of pixels at two zoom levels; the sight line turns red when
terrain blocks it; the summoning ghost is green where legal and red where not (G1, G2, M9)."""

from __future__ import annotations

import pygame
import shapely

from game.data.models import BattleMap
from game.rules import Game, ScriptedDice
from game.rules.units import ModelState, UnitState
from game.ui import theme
from game.ui.intents import intent
from game.ui.session import Session
from tests.ui.conftest import frames
from tests.ui.controlhelpers import shot
from tests.ui.uihelpers import button_for, hotseat, screen_pos, scripted_session, to_hero_phase


def _saved(app, tmp_path, name):
    path = tmp_path / name
    app.screenshot(path)
    return pygame.image.load(str(path))


def _ring_radii(img, cx: int, cy: int, colour, max_r: int) -> list[int]:
    """Distances right of the centre, along the centre row, where the ring colour is drawn."""
    out = []
    w = img.get_width()
    for dx in range(0, max_r):
        x = cx + dx
        if x >= w:
            break
        if tuple(img.get_at((x, cy)))[:3] == colour:
            out.append(dx)
    return out


def test_spell_ring_is_twelve_inches_at_two_zoom_levels(app, tmp_path):
    session = scripted_session([])  # deployment: only pointing, nothing is rolled
    scene = hotseat(app, session)
    st = session.state
    m = st.units["p1u0"].models[0]  # Pyre-Magister, 40mm base; its lore has 12" spells
    r_base = st.game.warscroll(st.units["p1u0"].warscroll).base.radius_in
    for k, scale in enumerate((None, 26.0)):
        if scale is not None:
            scene.camera.set_scale(scale, scene.camera.to_screen(m.x, m.y))
            scene.camera.pan(-150, 0)  # room on the right for the ring
        pos = screen_pos(scene, m.x, m.y)
        scene.handle(intent("pointer", pos=pos))
        frames(app)
        assert any(r.label.startswith('12"') for r in scene.overlays.rings)
        img = _saved(app, tmp_path, f"ring{k}.png")
        s = scene.camera.scale
        cx, cy = screen_pos(scene, m.x, m.y)
        radii = _ring_radii(img, cx, cy, theme.RING_SPELL, int((r_base + 40) * s))
        want = (r_base + 12) * s  # 12" from the edge of the base (G1)
        assert radii, "no spell ring pixels on the centre row"
        got = min(radii, key=lambda r: abs(r - want))
        assert abs(got - want) <= 1.5, (scale, got, want, radii)
        # and the inches are inches: 12" of pixels between the base edge and the ring
        assert abs((got - r_base * s) / s - 12) < 0.1


def _wall_game():
    wall = {"name": "Wall of Thorns", "traits": ["obscuring"], "points": [[28, 18], [32, 18], [32, 26], [28, 26]]}
    bmap = BattleMap(id="wall_field", name="Wall Field", width=60, height=44, terrain=[wall])
    game = Game.load(battlefield=bmap)
    st = game.new_state(dice=ScriptedDice([]))
    st.units = {
        "a": UnitState("a", 1, "pyre_magister", "Pyre-Magister", [ModelState(20, 22)]),
        "b": UnitState("b", 2, "fen_oracle", "Fen Oracle", [ModelState(40, 30)]),
    }
    st.stage, st.round, st.turn, st.active, st.first_player, st.phase = "battle", 1, 1, 1, 1, "hero"
    return Session(game, st, 0)


def _sight(scene):
    from game.ui.render.overlays import Line

    lines = [m for m in scene.overlays.marks if isinstance(m, Line) and m.width == 3]
    return lines[0] if lines else None


def test_sight_line_turns_red_behind_obscuring_terrain(app, tmp_path):
    session = _wall_game()
    scene = hotseat(app, session)
    frames(app)
    st = session.state
    scene.handle(intent("press", pos=screen_pos(scene, 20, 22), button=1))  # select the observer
    scene.handle(intent("release", pos=screen_pos(scene, 20, 22), button=1))
    scene.handle(intent("pointer", pos=screen_pos(scene, 40, 30)))  # hover the target: clear over the wall's top
    frames(app)
    line = _sight(scene)
    assert line is not None and line.colour == theme.SIGHT_CLEAR and not line.dashed
    img = _saved(app, tmp_path, "clear.png")
    (ax, ay), (bx, by) = line.a, line.b
    mid = screen_pos(scene, (ax + bx) / 2, (ay + by) / 2)
    assert tuple(img.get_at(mid))[:3] == theme.SIGHT_CLEAR

    st.units["b"].models[0].y = 22.0  # straight behind the wall
    session.version += 1  # the state changed outside an action: the test tells the session
    scene.handle(intent("pointer", pos=screen_pos(scene, 40, 22)))
    frames(app)
    ov = scene.overlays
    line = _sight(scene)
    assert line.colour == theme.SIGHT_BLOCKED and line.dashed and "Wall of Thorns" in ov.blocked_terrain
    img = _saved(app, tmp_path, "blocked.png")
    (ax, ay), (bx, by) = line.a, line.b
    # sample the dashed line away from the wall's highlighted outline: some pixels are red
    pts = [screen_pos(scene, ax + (bx - ax) * t / 100, ay + (by - ay) * t / 100) for t in range(10, 30)]
    assert any(tuple(img.get_at(p))[:3] == theme.SIGHT_BLOCKED for p in pts)
    assert "blocked by Wall of Thorns" in scene.hint[0]


def test_summon_placement_ghost_green_and_red(app, tmp_path):
    # priority 5 vs 2; casting 6+6 = 12 summons the Rolling Pyre; no unbinder within 30"
    session = scripted_session([5, 2, 6, 6])
    scene = hotseat(app, session)
    to_hero_phase(app, scene)
    assert session.state.phase == "hero" and session.state.active == 1
    scene.handle(intent("select", unit="p1u0"))
    frames(app)
    scene.handle(button_for(scene, lambda b, a: a is not None and getattr(a, "spell", "") == "summon_rolling_pyre").intent)
    frames(app)
    d = session.decision
    assert d.kind == "summon_setup" and scene.view.point is not None
    legal = scene.view.point.candidates[0]
    scene.handle(intent("pointer", pos=screen_pos(scene, *legal)))
    frames(app)
    assert scene.overlays.ghost is not None and scene.overlays.ghost_ok
    # M9: the legal region of centres is shaded, and it is the engine's region
    from game.rules.summoning import setup_region
    from game.ui.render.overlays import Region

    regions = [m for m in scene.overlays.marks if isinstance(m, Region)]
    engine = setup_region(session.state, 1, d.data["unit"], d.data["model"], d.data["scroll"])
    assert len(regions) == 1 and regions[0].geometry.equals(engine) and engine.covers(shapely.Point(*legal))
    assert not engine.covers(shapely.Point(30, 38))  # the red spot below lies outside it
    img = _saved(app, tmp_path, "ghost_ok.png")
    shot(app, "summon_region.png")
    edge = screen_pos(scene, legal[0] + scene.overlays.ghost.r, legal[1])
    near = [tuple(img.get_at((edge[0] + dx, edge[1])))[:3] for dx in (-1, 0, 1)]
    assert theme.GHOST_OK in near
    # far from the caster: red, with the engine's reason
    scene.handle(intent("pointer", pos=screen_pos(scene, 30, 38)))
    frames(app)
    assert not scene.overlays.ghost_ok
    assert "cannot be set up" in scene.hint[0]
    img = _saved(app, tmp_path, "ghost_bad.png")
    edge = screen_pos(scene, 30 + scene.overlays.ghost.r, 38)
    near = [tuple(img.get_at((edge[0] + dx, edge[1])))[:3] for dx in (-1, 0, 1)]
    assert theme.GHOST_BAD in near
    # a click on the red spot is refused with the reason; on the green one it sets up
    scene.handle(intent("press", pos=screen_pos(scene, 30, 38), button=1))
    frames(app)
    assert session.decision.kind == "summon_setup" and "cannot be set up" in scene.message
    scene.handle(intent("press", pos=screen_pos(scene, *legal), button=1))
    frames(app)
    assert len(session.state.manifestations) == 1
    assert any(e.type == "ManifestationSummoned" for e in session.history)
