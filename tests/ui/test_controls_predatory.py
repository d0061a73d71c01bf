"""The predatory procedure on the battlefield: the control choice (E7) and the move preview
(E9, E10): the Move + 3" reach grown from the footprint, the path, the swept footprint, the units passed across, and
warnings for a point where it cannot be placed (a 0" move) and for the edge (E4b)."""

from __future__ import annotations

import pytest

from game.rules import ManifestationSpec, add_manifestations
from game.rules.actions import EndPhase
from game.ui.controls.predatory import ControlTool, PredatoryMoveTool
from game.ui.intents import intent
from tests.helpers import P1_WIZ2, P2_WIZ1, P2_WIZ2, battle
from tests.ui.controlhelpers import frame, point_at, scene_for, shot
from tests.ui.uihelpers import button_for, screen_pos


def _put(s, mid, scroll, player, summoner, x, y):
    add_manifestations(s, [ManifestationSpec(mid, scroll, summoner, x, y, player=player, commander=player)])


def _board():
    # player 1's WIZARD at (10, 22) summoned a Rolling Pyre (60mm, Move 8": reach 11") at (20, 34);
    # player 2's Reed-Witch stands in its way at (26, 34)
    # the dice: the pyre passing across the Reed-Witch, 3+ to hurt, then D3 mortal damage
    s = battle({"w1": (1, P1_WIZ2, [(10, 22)]), "w2": (2, P2_WIZ2, [(50, 10)]), "witch": (2, P2_WIZ1, [(26, 34)])},
               [3, 3])
    _put(s, "pyre", "rolling_pyre", 1, "w1", 20, 34)
    s.apply(EndPhase(player=1))
    assert s.pending().kind == "predatory_move"
    return s


def test_predatory_preview_passed_across_blocked_and_edge(app):
    s = _board()
    scene = scene_for(app, s)
    t = scene.tool
    assert isinstance(t, PredatoryMoveTool) and t.mid == "pyre"
    assert scene.view.point is None  # the tool owns the point choice
    # across the Reed-Witch: it is highlighted and named
    point_at(app, scene, 30.5, 34)
    pv = t.preview(*scene.pointer_world)
    assert pv["crossed"] == ["witch"] and not pv["blocked"] and not pv["edge"]
    assert scene.overlays.highlight_units.get("witch") is not None
    assert "passes across Reed-Witch" in scene.hint[0]
    # E9: the reach ring is measured from the footprint: Move 8" + 3" + the 60mm footprint's radius
    assert any(abs(getattr(r, "radius", 0) - (11 + 30 / 25.4)) < 1e-9 for r in scene.overlays.rings)
    shot(app, "predatory.png")
    # onto the Reed-Witch's base: it cannot be placed there, a 0" move
    point_at(app, scene, 26, 34)
    assert "CANNOT BE PLACED" in scene.hint[0] and '0" move' in scene.hint[0]
    assert t.preview(*scene.pointer_world)["crossed"] == []
    shot(app, "predatory_blocked.png")
    # to the top edge: it would be removed (E4b)
    point_at(app, scene, 20, 43.3)
    assert "edge" in scene.hint[0] and "removed" in scene.hint[0]
    # out of reach: red with the engine's reason
    point_at(app, scene, 20, 10)
    assert "moves up to" in scene.hint[0]
    # click across the witch: MovePredatory, and the event names the unit passed across
    pos = screen_pos(scene, 30.5, 34)
    scene.handle(intent("pointer", pos=pos))
    scene.handle(intent("press", pos=pos, button=1))
    frame(app, 2)
    ev = [e for e in scene.session.history if e.type == "ManifestationMoved"]
    assert ev and ev[-1].passed_across == ("witch",) and ev[-1].distance > 10


def test_predatory_control_choice_draws_the_zone_and_takes_a_click(app):
    s = battle({"w1": (1, P1_WIZ2, [(10, 22)]), "w2": (2, P2_WIZ2, [(50, 10)])})  # choosing rolls nothing
    _put(s, "pyre", "rolling_pyre", 1, "w1", 20, 22)
    _put(s, "serpent", "ashen_serpent", 1, "w1", 14, 30)
    s.apply(EndPhase(player=1))
    assert s.pending().kind == "predatory_control"
    scene = scene_for(app, s)
    assert isinstance(scene.tool, ControlTool)
    frame(app)
    assert any(r.radius > 24 for r in scene.overlays.rings)
    b = button_for(scene, lambda b, a: a is not None and a.type == "ChooseControlled" and a.manifestation == "serpent")
    assert "Control" in b.label
    pos = screen_pos(scene, 20, 22)  # click the Rolling Pyre on the battlefield
    scene.handle(intent("pointer", pos=pos))
    scene.handle(intent("press", pos=pos, button=1))
    frame(app, 2)
    ev = [e for e in scene.session.history if e.type == "ManifestationControlled"]
    assert ev and ev[-1].manifestation == "pyre"


def test_e9_an_oval_predators_reach_is_drawn_as_its_footprint_grown_by_the_reach(app):
    # E9: for an oval footprint the reach is no circle round the centre: it is the footprint
    # grown by Move + 3", drawn as an outline (the engine's reach_area).
    from game.rules.predatory import reach_area
    from game.ui.render.overlays import Shape

    s = battle({"w1": (1, P1_WIZ2, [(10, 22)]), "w2": (2, P2_WIZ2, [(50, 10)])})  # nothing is rolled
    _put(s, "serpent", "ashen_serpent", 1, "w1", 24, 22)
    s.apply(EndPhase(player=1))
    scene = scene_for(app, s)
    frame(app)
    area = reach_area(s, "serpent")
    outlines = [m for m in scene.overlays.marks if isinstance(m, Shape) and getattr(m.shape, "equals", None) and m.shape.equals(area)]
    assert outlines, "the grown oval is drawn"
    assert not any(abs(getattr(r, "radius", 0) - 11) < 1e-6 for r in scene.overlays.rings)  # no 11" circle
    minx, _, maxx, _ = area.bounds
    assert maxx - 24 == pytest.approx(14, abs=0.01) and 24 - minx == pytest.approx(14, abs=0.01)  # 3" + 11" each way
    shot(app, "predatory_oval_reach.png")


@pytest.mark.parametrize("gap, word", [(24.0, "wholly within"), (24.01, "NOT wholly within")])
def test_e7_hover_text_and_zone_come_from_the_engine(app, gap, word):
    # E7: hovering a predatory manifestation draws its summoning model's 24" zone and says what
    # query.control_zone decides, at the boundary both ways
    from tests.helpers import R40

    r60 = 60 / 25.4 / 2
    s = battle({"w1": (1, P1_WIZ2, [(10, 22)]), "w2": (2, P2_WIZ2, [(50, 10)])})
    _put(s, "pyre", "rolling_pyre", 1, "w1", 10 + R40 + gap - r60, 22)
    scene = scene_for(app, s)
    ring, text = scene.control_zone("pyre")
    assert (ring.x, ring.y, ring.radius) == pytest.approx((10, 22, R40 + 24))
    assert f'{word} 24" of ' in text and text.endswith("which summoned it (E7)")


def test_e5_hover_on_a_manifestation_whose_summoning_model_is_slain_says_it_is_wild(app):
    # E5, E7: the summoning model is slain while its unit lives: no zone, "wild"
    from tests.helpers import P1_COVEN

    s = battle({"c": (1, P1_COVEN, [(10, 10), (12, 10), (14, 10)]), "w2": (2, P2_WIZ2, [(50, 10)])})
    add_manifestations(s, [ManifestationSpec("pyre", "rolling_pyre", "c", 24, 10, model=2)])
    s.units["c"].models[2].slain = True
    scene = scene_for(app, s)
    ring, text = scene.control_zone("pyre")
    assert ring is None and "the model that summoned it is slain: it is wild (E5, E7)" in text


def test_e9_a_point_on_impassable_terrain_is_refused_in_the_players_language(app):
    """E9 [ruling]: a predatory manifestation cannot end on impassable terrain; the preview says
    why in the language in use, the terrain by its shown name (it once came in English, the
    name quoted, on a Japanese screen)."""
    from game import i18n

    # the pyre (60mm, reach 11") at (20, 22); the Basalt Spur, impassable, 6" to its east
    rock = {"name": "Basalt Spur", "traits": ["impassable"], "points": [(25, 19), (28, 19), (28, 25), (25, 25)]}
    s = battle({"w1": (1, P1_WIZ2, [(10, 22)]), "w2": (2, P2_WIZ2, [(50, 10)])}, terrain=[rock])
    _put(s, "pyre", "rolling_pyre", 1, "w1", 20, 22)
    s.apply(EndPhase(player=1))
    assert s.pending().kind == "predatory_move"
    i18n.set_language("ja")
    try:
        scene = scene_for(app, s)
        point_at(app, scene, 26.5, 22)  # the footprint's centre on the rock
        words = scene.hint[0]
        assert "配置できません" in words and "玄武岩の岩脚" in words and "(E9)" in words
        assert "would" not in words and "Basalt" not in words and "'" not in words
        # the point is being chosen: no terrain card over the preview (it hid the ghost's words)
        assert scene._hover_card(scene.view) is None
        point_at(app, scene, 20, 30)  # a free point 8" north: no refusal
        assert "配置できません" not in scene.hint[0]
    finally:
        i18n.set_language("en")


def test_a_terrain_card_shows_under_the_pointer_when_no_point_is_being_chosen(app):
    """The other side of the rule above: in a decision that picks no point (the hero phase's
    casters), the pointer over terrain shows that piece's card."""
    rock = {"name": "Basalt Spur", "traits": ["impassable"], "points": [(25, 19), (28, 19), (28, 25), (25, 25)]}
    s = battle({"w1": (1, P1_WIZ2, [(10, 22)]), "w2": (2, P2_WIZ2, [(50, 10)])}, terrain=[rock])
    scene = scene_for(app, s)
    point_at(app, scene, 26.5, 22)
    card = scene._hover_card(scene.view)
    assert card is not None and "Basalt Spur" in str(card)
