"""Walkers on the battlefield (M10): a manifestation with Move above 0" that is not PREDATORY gets
a unit's controls, all through intents. Drag it in the movement phase (clamped by the engine's
legality, at its Move and short of the enemy's 3"), run from its button, charge and drag the
charge move, shoot with the Kiln Golem, fight with a pile-in; its name, never an id, on the
screen. The engine decides every move; these tests check that the UI asks it and shows it."""

from __future__ import annotations

import dataclasses
import math
import re

import pytest

from game.data.models import Footprint
from game.geometry.measure import distance
from game.geometry.shapes import Circle
from game.rules import Game, ManifestationSpec, ScriptedDice, add_manifestations, odds
from game.rules.actions import EndPhase
from game.rules.attacks import situation
from game.rules.shooting import in_cover, shooting_volleys
from game.rules.space import manifestation_shape, thing_shapes
from game.rules.units import ModelState, UnitState
from game.ui.controls.units import ChargeTool, MoveTool, charge_odds
from game.ui.intents import intent
from game.ui.render.overlays import Shape
from tests.helpers import P1_SPEARS, P1_WIZ2, P2_WARDENS, P2_WIZ2, R32, battle, small_map
from tests.ui.controlhelpers import drag, frame, point_at, scene_for, shot
from tests.ui.uihelpers import button_for, screen_pos

R60 = 60 / 25.4 / 2  # the Kiln Golem's footprint
GOLEM = "m3"  # ids as the engine makes them, so that "no id on the screen" means something
IDS = ("m3", "m4", "m5", "p1u0", "p2u0", "p2u1", "p1u1", "kiln_golem", "rolling_pyre", "ashen_serpent")


def _put(s, mid, scroll, player, summoner, x, y):
    add_manifestations(s, [ManifestationSpec(mid, scroll, summoner, x, y, player=player, commander=player)])


def _board(dice=(), phase="movement", foe_at=(50, 40), golem_at=(20, 22), extra=None, profile="aos4"):
    """Player 1's Pyre-Magister at (10, 22) and its Kiln Golem (Move 5", 60mm, Slag Spit 10");
    player 2's Fen Oracle far away and one Mire Warden at `foe_at`."""
    units = {"p1u0": (1, P1_WIZ2, [(10, 22)]), "p2u0": (2, P2_WIZ2, [(55, 5)]), "p2u1": (2, P2_WARDENS, [foe_at])}
    units.update(extra or {})
    s = battle(units, dice, phase=phase, profile=profile)
    _put(s, GOLEM, "kiln_golem", 1, "p1u0", *golem_at)
    return s


def _panel_text(scene) -> str:
    v = scene.view
    parts = [v.title, *v.lines]
    for b in v.buttons:
        parts += [b.label, b.odds, b.tip]
    return "\n".join(parts)


def _no_ids(text: str) -> None:
    for k in IDS:
        assert not re.search(rf"(?<![\w-]){k}(?![\w-])", text), f"id {k!r} on the screen: {text!r}"


def _red_in_status(app, scene) -> bool:
    from game.ui import theme

    r = scene.status_rect
    bad = theme.TEXT_BAD
    return any(sum(abs(a - b) for a, b in zip(app.screen.get_at((x, y))[:3], bad)) < 60
               for x in range(r.x, r.x + min(r.w, 500), 2) for y in range(r.y, r.bottom))


def _golem(scene):
    m = scene.state.manifestations[GOLEM]
    return m.x, m.y


# --- the movement phase ---------------------------------------------------------------------------


def test_a_walker_is_listed_by_name_dragged_clamped_at_its_move_and_committed(app):
    scene = scene_for(app, _board())
    assert isinstance(scene.tool, MoveTool)
    # the movement panel lists it by name with its move, like a unit
    b = button_for(scene, lambda b, a: b.label == "Kiln Golem")
    assert b.odds == 'normal 5"' and b.intent.get("unit") == GOLEM
    _no_ids(_panel_text(scene))
    # drag it 8" to the right: the ghost stops at 5" (M10: its Move), green
    drag(app, scene, (20, 22), (28, 22), release=False)
    t = scene.tool
    assert t.unit == GOLEM and t.offset is not None and not t.reasons
    assert abs(math.hypot(*t.offset) - 5) < 0.01 and abs(t.offset[1]) < 0.05
    assert t.raw_reasons, "the wanted point was out of reach and says why"
    assert '0.0" of 5" left' in scene.hint[0]
    ghosts = [mk for mk in scene.overlays.marks if isinstance(mk, Shape) and isinstance(mk.shape, Circle)
              and abs(mk.shape.r - R60) < 1e-9]
    assert ghosts and abs(ghosts[-1].shape.x - (20 + t.offset[0])) < 1e-6  # the footprint follows the pointer
    assert scene.selection.get("unit") == GOLEM  # pressing it picked it, like a unit
    shot(app, "walker_move.png")
    scene.handle(intent("release", pos=scene.pointer, button=1))
    frame(app)
    assert t.pending()
    assert "move Kiln Golem" in scene.view.title
    button_for(scene, lambda b, a: b.label.endswith("Commit the move (Enter)"))
    _no_ids(_panel_text(scene) + "\n" + scene.hint[0])
    scene.handle(intent("continue"))  # Enter
    frame(app, 2)
    ev = [e for e in scene.session.history if e.type == "UnitMoved"][-1]
    assert ev.unit == GOLEM and ev.kind == "normal"
    x, y = _golem(scene)
    assert abs(x - (20 + t.offset[0])) < 1e-3 and abs(y - 22) < 0.05 and math.hypot(x - 20, y - 22) <= 5
    last = scene.session.actions()[-1]
    assert (last["type"], last["unit"], len(last["to"])) == ("MoveUnit", GOLEM, 1)  # one point: its new centre
    # no dice were rolled: U takes the move back
    undo = button_for(scene, lambda b, a: b.label.startswith("Undo: move Kiln Golem"))
    scene.handle(undo.intent)
    frame(app, 2)
    assert _golem(scene) == (20, 22)


def test_a_walkers_drag_stops_short_of_the_enemys_3_inches_and_esc_cancels(app):
    # the Mire Warden's edge 4.5" from the Golem's: a normal move may close 1.5" at most (R4)
    foe_x = 20 + R60 + 4.5 + R32
    scene = scene_for(app, _board(foe_at=(foe_x, 22)))
    drag(app, scene, (20, 22), (23.5, 22), release=False)  # within its 5", 1" from the Warden
    t = scene.tool
    assert t.offset is not None and not t.reasons
    gap = distance(Circle(20 + t.offset[0], 22 + t.offset[1], R60), Circle(foe_x, 22, R32))
    assert 3.0 < gap < 3.05, gap
    assert t.raw_reasons[0] == 'would end within 3" of Mire Wardens (R4)'  # the engine's reason, with a name
    scene.handle(intent("release", pos=scene.pointer, button=1))
    frame(app)
    assert t.raw_reasons[0] == 'would end within 3" of Mire Wardens (R4)'  # the engine's explain once released
    assert 'stopped: would end within 3" of Mire Wardens (R4)' in scene.hint[0]
    _no_ids(scene.hint[0])
    scene.handle(intent("back"))  # Esc drops the ghost; nothing is applied
    frame(app)
    assert not scene.tool.pending() and _golem(scene) == (20, 22)
    assert not [e for e in scene.session.history if e.type == "UnitMoved"]


def test_a_walker_runs_from_its_button_and_then_drags_further(app):
    scene = scene_for(app, _board(dice=[4]))
    scene.handle(button_for(scene, lambda b, a: b.label == "Kiln Golem").intent)
    frame(app)
    assert scene.view.title.endswith("move Kiln Golem")
    assert any("moves like a unit (M10)" in line for line in scene.view.lines)
    run = button_for(scene, lambda b, a: a is not None and a.type == "Run")
    assert run.intent.get("action").unit == GOLEM
    scene.handle(run.intent)
    frame(app, 2)
    assert [e.unit for e in scene.session.history if e.type == "RunDeclared"] == [GOLEM]
    assert button_for(scene, lambda b, a: b.label == "Kiln Golem").odds == 'run 9"'  # Move 5" + the D6
    drag(app, scene, (20, 22), (20, 33), release=False)
    assert scene.tool.unit == GOLEM and scene.tool.reach() == 9
    assert any(line.startswith('Running: up to 9"') for line in scene.view.lines)
    scene.handle(intent("release", pos=scene.pointer, button=1))
    frame(app)
    assert abs(math.hypot(*scene.tool.offset) - 9) < 0.01
    scene.handle(intent("continue"))
    frame(app, 2)
    ev = [e for e in scene.session.history if e.type == "UnitMoved"][-1]
    assert (ev.unit, ev.kind) == (GOLEM, "run") and ev.distance <= 9


def test_pressing_a_predatory_manifestation_in_the_movement_phase_says_why_by_name(app):
    s = _board()
    _put(s, "m4", "rolling_pyre", 1, "p1u0", 20, 36)
    scene = scene_for(app, s)
    assert "Rolling Pyre" not in _panel_text(scene)  # not a walker: not in the list
    drag(app, scene, (20, 36), (24, 36))
    assert "PREDATORY" in scene.message and "Rolling Pyre" in scene.message
    _no_ids(scene.message)
    assert not scene.session.actions()


def test_under_aos3_the_kiln_golem_endless_spell_is_no_walker_but_the_stalker_invocation_is(app):
    s = _board(profile="aos3")
    _put(s, "m5", "reedwrack_stalker", 1, "p1u0", 20, 34)  # (its owner is no PRIEST; the rules allow it in a test)
    scene = scene_for(app, s)
    labels = [b.label for b in scene.view.buttons]
    assert "Reedwrack Stalker" in labels and "Kiln Golem" not in labels
    drag(app, scene, (20, 22), (23, 22))
    assert "E1" in scene.message and _golem(scene) == (20, 22)


def test_a_polygon_walker_drags_with_its_polygon_ghost(app):
    # other content: a walker on a 4" x 2" rectangle (M10: the footprint is any shape)
    base = Game.load(battlefield=small_map())
    golem = base.content.manifestations["kiln_golem"]
    box = golem.model_copy(update={"footprint": Footprint(polygon=[(-2, -1), (2, -1), (2, 1), (-2, 1)])})
    content = dataclasses.replace(base.content, manifestations={**base.content.manifestations, "kiln_golem": box},
                                  content_hash=base.content.content_hash + "-box")
    game = Game.load(battlefield=small_map(), content=content)
    s = game.new_state(dice=ScriptedDice([]))
    s.units = {"p1u0": UnitState("p1u0", 1, P1_WIZ2, "Pyre-Magister", [ModelState(10, 22)]),
               "p2u0": UnitState("p2u0", 2, P2_WIZ2, "Fen Oracle", [ModelState(55, 5)])}
    s.stage, s.round, s.turn, s.active, s.first_player, s.phase = "battle", 1, 1, 1, 1, "movement"
    _put(s, GOLEM, "kiln_golem", 1, "p1u0", 20, 22)
    scene = scene_for(app, s)
    drag(app, scene, (21.5, 22.5), (21.5, 26.5), release=False)  # pressed off-centre, inside the box
    t = scene.tool
    assert t.unit == GOLEM and t.offset is not None and not t.reasons
    ghost = [mk for mk in scene.overlays.marks if isinstance(mk, Shape) and not isinstance(mk.shape, Circle)
             and abs(mk.shape.area - 8) < 1e-6]
    assert ghost, "the polygon footprint is the ghost"
    minx, miny, maxx, maxy = ghost[-1].shape.bounds
    assert abs((miny + maxy) / 2 - (22 + t.offset[1])) < 1e-6
    shot(app, "walker_polygon.png")
    px = app.screen.get_at(screen_pos(scene, 20 + t.offset[0] + 1.3, 22 + t.offset[1] + 0.5))
    assert px.g > px.r and px.g > px.b, px  # tinted green: legal
    scene.handle(intent("release", pos=scene.pointer, button=1))
    frame(app)
    scene.handle(intent("continue"))
    frame(app, 2)
    assert abs(_golem(scene)[1] - (22 + t.offset[1])) < 1e-3 and abs(t.offset[1] - 4) < 0.05


# --- the charge phase ------------------------------------------------------------------------------


def test_a_walker_declares_a_charge_with_the_units_odds_and_drags_the_charge_move(app):
    # 2D6 = 8; the Warden's edge lies 7.5" from the Golem's; a Pyre-Magister of player 1 may charge too
    foe_x = 20 + R60 + 7.5 + R32
    spears_at = (foe_x, 22 - 9.0)
    s = _board(dice=[4, 4], phase="charge", foe_at=(foe_x, 22), extra={"p1u1": (1, P1_SPEARS, [spears_at])})
    scene = scene_for(app, s)
    point_at(app, scene, 20.3, 22.2)  # hovering it: what it is, by name (the engine's M10 test)
    assert scene.hint[0].startswith('Kiln Golem (player 1): Move 5", banishment 8, Health 7/7, Save 4+: moves like a unit')
    assert scene.overlays.highlight_units.get(GOLEM) is not None  # it can charge: highlighted like a unit
    charge = button_for(scene, lambda b, a: a is not None and a.type == "Charge" and a.unit == GOLEM)
    assert charge.label == "Charge with Kiln Golem"
    assert "needs 7+ on 2D6 (58%)" in charge.odds and charge.odds == charge_odds(s, GOLEM)
    unit = button_for(scene, lambda b, a: a is not None and a.type == "Charge" and a.unit == "p1u1")
    assert unit.odds == charge_odds(s, "p1u1") and "on 2D6" in unit.odds  # one place for both
    _no_ids(_panel_text(scene))
    scene.handle(charge.intent)
    frame(app, 2)
    assert scene.decision.kind == "charge_move" and isinstance(scene.tool, ChargeTool) and scene.tool.unit == GOLEM
    assert scene.view.title.endswith("charge with Kiln Golem")
    _no_ids(_panel_text(scene))
    # drag through the Warden: the path stops at its base, which is within ½"
    drag(app, scene, (20, 22), (33, 22), release=False)
    t = scene.tool
    assert t.offset is not None and not t.reasons, t.reasons
    gap = distance(Circle(20 + t.offset[0], 22 + t.offset[1], R60), Circle(foe_x, 22, R32))
    assert gap <= 0.5
    assert scene.overlays.highlight_units.get("p2u1") is not None  # the enemy in reach, gold band
    assert "Charge ends here" in scene.hint[0]
    shot(app, "walker_charge.png")
    scene.handle(intent("release", pos=scene.pointer, button=1))
    frame(app)
    scene.handle(button_for(scene, lambda b, a: b.label.startswith("Commit the charge")).intent)
    frame(app, 2)
    ev = [e for e in scene.session.history if e.type == "UnitMoved"][-1]
    assert (ev.unit, ev.kind) == (GOLEM, "charge")
    assert distance(manifestation_shape(scene.state, GOLEM), Circle(foe_x, 22, R32)) <= 0.5


# --- shooting ----------------------------------------------------------------------------------


def test_the_kiln_golem_is_picked_on_the_field_and_shoots_from_the_panel(app):
    # 2 attacks: hits on 4+ (4, 5), wounds on 4+ (4, 1), the Warden's save roll 2
    foe_x = 20 + R60 + 8 + R32
    s = _board(dice=[4, 5, 4, 1, 2], phase="shooting", foe_at=(foe_x, 22))
    scene = scene_for(app, s)
    shooter = button_for(scene, lambda b, a: b.label == "Kiln Golem")
    assert 'range 10"' in shooter.odds
    _no_ids(_panel_text(scene))
    # a click on its footprint picks it, as a unit's base does
    pos = screen_pos(scene, 20.5, 22.3)
    scene.handle(intent("pointer", pos=pos))
    scene.handle(intent("press", pos=pos, button=1))
    frame(app, 2)
    assert scene.selection.get("unit") == GOLEM and scene.view.title.endswith("Kiln Golem shoots")
    assert any("Slag Spit 10\"" in line for line in scene.view.lines)
    shoot = button_for(scene, lambda b, a: a is not None and a.type == "Shoot" and a.target == "p2u1")
    h, dmg = odds.expected(shooting_volleys(s, GOLEM, "p2u1"), situation(s, GOLEM, "p2u1", cover=in_cover(s, "p2u1")))
    assert f"expect {h:.1f} hits, {dmg:.1f} damage" in shoot.odds and "~1 model:" in shoot.odds
    assert f'{min(distance(c, Circle(foe_x, 22, R32)) for c in thing_shapes(s, GOLEM)):.1f}" away' in shoot.odds
    assert any(abs(getattr(r, "radius", 0) - (R60 + 10)) < 1e-9 for r in scene.overlays.rings)  # its 10" ring
    point_at(app, scene, foe_x, 22)  # hovering the target: the engine says the Golem sees it
    assert scene.hint[0].startswith("Kiln Golem sees the target")
    _no_ids(_panel_text(scene) + "\n" + scene.hint[0])
    shot(app, "walker_shoot.png")
    scene.handle(shoot.intent)
    frame(app, 2)
    r = [e for e in scene.session.history if e.type == "AttacksResolved"][-1]
    assert (r.unit, r.target, r.attacks, r.hits, r.wounds) == (GOLEM, "p2u1", 2, 2, 1)


# --- combat ------------------------------------------------------------------------------------


def test_a_walker_is_listed_by_name_to_fight_and_piles_in(app):
    # 2.5" from the Warden: in combat; a Spears unit of player 1 is in combat with it too
    foe_x = 20 + R60 + 2.5 + R32
    s = _board(dice=[1, 1, 1], phase="charge", foe_at=(foe_x, 22),
               extra={"p1u1": (1, P1_SPEARS, [(foe_x, 22 + 2 * R32 + 1.0)])})
    scene = scene_for(app, s)
    scene.handle(intent("end_phase"))  # into the combat phase
    frame(app, 2)
    assert scene.decision.kind == "fight"
    pick = button_for(scene, lambda b, a: b.label == "Kiln Golem")
    assert "within 3\"" in pick.odds
    assert scene.overlays.highlight_units.get(GOLEM) is not None  # highlighted on the field
    _no_ids(_panel_text(scene))
    scene.handle(pick.intent)
    frame(app, 2)
    text = _panel_text(scene)
    assert scene.view.title.endswith("Kiln Golem fights")
    assert "Kiln Golem piles in first: up to 3\" straight towards its target" in text
    assert "Molten Fists A3" in text
    assert scene.hint[0].startswith("Kiln Golem piles in first")
    _no_ids(text + "\n" + scene.hint[0])
    shot(app, "walker_fight.png")
    scene.handle(button_for(scene, lambda b, a: a is not None and a.type == "Fight" and a.target == "p2u1").intent)
    frame(app, 2)
    pile = [e for e in scene.session.history if e.type == "UnitMoved"][-1]
    assert (pile.unit, pile.kind) == (GOLEM, "pile_in") and pile.distance == pytest.approx(2.45)
    r = [e for e in scene.session.history if e.type == "AttacksResolved"][-1]
    assert (r.unit, r.attacks) == (GOLEM, 3)
    # the log names it, never by id
    _no_ids("\n".join(line for line, _ in scene._log_lines))
    assert any(line.startswith("Kiln Golem makes a pile-in move") for line, _ in scene._log_lines)


def test_a_predatory_fighter_is_said_to_fight_where_it_stands(app):
    s = battle({"p1u0": (1, P1_WIZ2, [(10, 22)]), "p2u1": (2, P2_WARDENS, [(20 + 3 + 2.5 + R32, 22)])},
               phase="charge")  # only the panel is read: nothing fights, nothing is rolled
    _put(s, "m4", "ashen_serpent", 1, "p1u0", 20, 22)
    s.apply(EndPhase(player=1))
    scene = scene_for(app, s)
    text = _panel_text(scene)  # the only fighter: picked at once
    assert "Ashen Serpent fights where it stands" in text and "piles in first" not in text
    _no_ids(text)


def test_a_walker_in_combat_retreats_from_its_button_then_drags_away(app):
    # 2" from the Warden: in combat, so only a retreat (D3 mortal damage: 2), then a move out of combat (R4)
    foe_x = 20 + R60 + 2.0 + R32
    scene = scene_for(app, _board(dice=[2], foe_at=(foe_x, 22)))
    b = button_for(scene, lambda b, a: b.label == "Kiln Golem")
    assert b.odds == "in combat: retreat only"
    drag(app, scene, (20, 22), (17, 22))  # a normal move is refused with the reason, by name
    assert "in combat" in scene.message and "Kiln Golem" in scene.message
    _no_ids(scene.message)
    assert _red_in_status(app, scene), "the refusal shows on the status line, over the tool's hint"
    frame(app, 200)  # a few seconds later the hint is back
    assert not _red_in_status(app, scene)
    scene.handle(b.intent)
    frame(app)
    assert not [x for x in scene.view.buttons if x.intent.get("action") is not None and x.intent.get("action").type == "Run"]
    scene.handle(button_for(scene, lambda b, a: a is not None and a.type == "Retreat").intent)
    frame(app, 2)
    assert scene.state.manifestations[GOLEM].damage == 2
    drag(app, scene, (20, 22), (14, 22))
    t = scene.tool
    assert t.move_kind() == "retreat" and t.offset is not None and not t.reasons
    scene.handle(intent("continue"))
    frame(app, 2)
    ev = [e for e in scene.session.history if e.type == "UnitMoved"][-1]
    assert (ev.unit, ev.kind) == (GOLEM, "retreat") and _golem(scene)[0] < 20 - 0.5
