"""The predatory procedure (E6-E10): timing, control, order of moves, the move, and the removals
and severing that follow it (E4b, M11)."""

from __future__ import annotations

import dataclasses
import math

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from game.geometry.measure import first_touch, overlaps, touches_edge, wholly_within
from game.rules import (
    EndPhase,
    Game,
    IllegalActionError,
    ManifestationSpec,
    PositionError,
    SeededDice,
    add_manifestations,
    predatory,
    remove_manifestations,
)
from game.rules.flow import step
from game.rules.predatory import move_reach
from game.rules.predatory_records import ChooseControlled, MovePredatory
from game.rules.space import all_bases, manifestation_shape, model_circle
from game.rules.turn import END_OF_HERO_PHASE, TURN, at_end_of_hero_phase
from tests.helpers import (
    P1_COVEN,
    P1_SPEARS,
    P1_WIZ1,
    P1_WIZ2,
    P2_BEHEMOTH,
    P2_PRI1,
    P2_WARDENS,
    P2_WIZ1,
    P2_WIZ2,
    R25,
    R32,
    R40,
    battle,
    kinds,
    only,
)

R60 = 60 / 25.4 / 2  # Rolling Pyre (round), Move 8
# Ashen Serpent: a 6" x 2" ellipse polygon (semi-axes 3 along x, 1 along y), Move 8.


def _put(s, mid, scroll, player, summoner, x, y, model=0):
    add_manifestations(s, [ManifestationSpec(mid, scroll, summoner, x, y, model=model, player=player, commander=player)])


def _board(dice=(), active=1, extra=None, **kw):
    """Player 1's WIZARD at (10, 22), player 2's at (50, 22), far-off line units for each side."""
    units = {
        "w1": (1, P1_WIZ2, [(10, 22)]),
        "w2": (2, P2_WIZ2, [(50, 22)]),
        "spears": (1, P1_SPEARS, [(5, 40)]),
        "wardens": (2, P2_WARDENS, [(55, 40)]),
    }
    units.update(extra or {})
    return battle(units, dice, active=active, **kw)


def _end_hero(s):
    return s.apply(EndPhase(player=s.active))


def _move(s, mid, x, y, player=None):
    return s.apply(MovePredatory(player=s.pending().player if player is None else player, manifestation=mid, x=x, y=y))


def _stay(s, mid):
    m = s.manifestations[mid]
    return _move(s, mid, m.x, m.y)


# --- E6: timing ----------------------------------------------------------------------------------


def test_e6_the_procedure_runs_at_the_end_of_the_active_players_hero_phase():
    # E6: predatory manifestations move at the end of every hero phase.
    s = _board()
    _put(s, "pyre", "rolling_pyre", 1, "w1", 20, 22)
    events = _end_hero(s)
    assert kinds(events)[:2] == ["PredatoryMovesBegan", "ManifestationControlled"]
    assert only(events, "PredatoryMovesBegan").rule == "E6"
    assert s.phase == "hero" and s.pending().kind == "predatory_move"
    events = _stay(s, "pyre")
    assert only(events, "PredatoryMovesEnded").moved == ("pyre",)
    assert s.phase == "movement"


def test_e6_the_procedure_also_runs_in_the_opponents_hero_phase():
    # E6: "both players' hero phases": player 1's manifestation moves in player 2's hero phase too.
    s = _board(active=2)
    _put(s, "pyre", "rolling_pyre", 1, "w1", 20, 22)
    _end_hero(s)
    d = s.pending()
    assert d.kind == "predatory_move" and d.player == 1 and d.data["stage"] == "controlled"


def test_e6_no_predatory_manifestation_no_procedure():
    # E6: most manifestations stay where they are set up (the Ember Beacon has Move 0").
    s = _board()
    _put(s, "beacon", "ember_beacon", 1, "w1", 20, 22)
    events = _end_hero(s)
    assert "PredatoryMovesBegan" not in kinds(events) and s.phase == "movement"


@pytest.fixture
def end_of_hero_ability():
    """An end-of-hero-phase ability, added by a module the way content would add one."""
    seen: list[list[str]] = []

    @step("test.end_of_hero_ability")
    def _ability(state):
        seen.append([e.type for e in state._events])

    at_end_of_hero_phase(_ability)
    try:
        yield seen
    finally:
        END_OF_HERO_PHASE.remove(_ability)


def test_e6_end_of_hero_phase_abilities_resolve_after_every_predatory_move(end_of_hero_ability):
    # E6: any end-of-hero-phase abilities resolve only after all predatory moves are done.
    assert TURN.phase("hero").end_steps() == ["predatory.control", "predatory.moves", "test.end_of_hero_ability"]
    s = _board()
    _put(s, "pyre", "rolling_pyre", 1, "w1", 20, 22)
    _put(s, "lights", "bog_light_swarm", 2, "w2", 40, 22)
    _end_hero(s)
    assert end_of_hero_ability == []  # the moves wait for decisions; the ability waits for them
    _stay(s, "pyre")
    assert end_of_hero_ability == []
    _stay(s, "lights")
    (log,) = end_of_hero_ability  # it ran once, in the same apply() as the last move, after it
    assert log == ["ManifestationMoved", "PredatoryMovesEnded"]


# --- E7: control -----------------------------------------------------------------------------------


@pytest.mark.parametrize("scroll,half", [("rolling_pyre", R60), ("ashen_serpent", 3.0)])
def test_e7_wholly_within_24_exactly_is_controlled(scroll, half):
    # E7: wholly within 24" of the summoning model: every point at most 24" from its base.
    s = _board()
    _put(s, "m", scroll, 1, "w1", 10 + R40 + 24 - half, 22)
    assert wholly_within(manifestation_shape(s, "m"), model_circle(s, "w1", 0), 24)
    events = _end_hero(s)
    c = only(events, "ManifestationControlled")
    assert (c.manifestation, c.unit, c.model, c.rule) == ("m", "w1", 0, "E7")
    assert s.manifestations["m"].flags["controlled_by"] == ["w1", 0]
    assert s.pending().data["stage"] == "controlled"


@pytest.mark.parametrize("scroll,half", [("rolling_pyre", R60), ("ashen_serpent", 3.0)])
def test_e7_wholly_within_24_01_is_wild(scroll, half):
    # E7: 0.01" beyond: not wholly within, so wild.
    s = _board()
    _put(s, "m", scroll, 1, "w1", 10 + R40 + 24.01 - half, 22)
    events = _end_hero(s)
    wild = only(events, "ManifestationWild")
    assert wild.reason == "out_of_range" and wild.rule == "E7"
    assert "controlled_by" not in s.manifestations["m"].flags and s.manifestations["m"].flags["wild"] is True
    d = s.pending()
    assert d.data["stage"] == "wild"
    # The point choice for front ends (Decision.data protocol).
    assert (d.data["point_action"], d.data["point_fields"], d.data["reach"]) == ("MovePredatory", {"manifestation": "m"}, 11)


def test_e7_control_is_measured_from_the_model_picked_at_summoning():
    # E5, E7: for control, the summoning model is the model that was picked.
    coven = [(10, 10), (10 + 2 * R25, 10), (30, 10)]
    s = _board(extra={"coven": (1, P1_COVEN, coven)})
    _put(s, "pyre", "rolling_pyre", 1, "coven", 50, 10, model=2)  # wholly within 24" of model 2, not of model 0
    events = _end_hero(s)
    c = only(events, "ManifestationControlled")
    assert (c.unit, c.model) == ("coven", 2)


@pytest.mark.parametrize("slain", [False, True])
def test_e5_e7_a_slain_summoning_model_leaves_it_wild_while_its_unit_lives(slain):
    # E5 [ruling]: control is measured from the model picked at summoning; if that model is
    # slain while its unit lives, no other model stands in: the manifestation is wild (and it
    # stays on the battlefield: M11 needs the whole unit destroyed). Model 1 would qualify.
    coven = [(10, 10), (10 + 2 * R25, 10), (10 + 4 * R25, 10)]
    s = _board(extra={"coven": (1, P1_COVEN, coven)})
    s.units["coven"].models[2].slain = slain
    _put(s, "pyre", "rolling_pyre", 1, "coven", 20, 10, model=2)
    events = _end_hero(s)
    if slain:
        assert only(events, "ManifestationWild").reason == "summoner_slain"
        assert "ManifestationControlled" not in kinds(events) and "pyre" in s.manifestations
        assert s.pending().data["stage"] == "wild"
    else:
        c = only(events, "ManifestationControlled")
        assert (c.unit, c.model) == ("coven", 2)


def test_e7_e5_a_unit_of_several_models_controls_one_and_its_player_chooses():
    # E7, E5: a WIZARD unit of several models is one wizard: models 0 and 2 of the Coven each
    # summoned one, both qualify, the unit controls one of them and its player chooses.
    coven = [(10, 10), (10 + 2 * R25, 10), (10 + 4 * R25, 10)]
    s = _board(extra={"coven": (1, P1_COVEN, coven)})
    _put(s, "pyre", "rolling_pyre", 1, "coven", 20, 10, model=0)
    _put(s, "serpent", "ashen_serpent", 1, "coven", 20, 16, model=2)
    events = _end_hero(s)
    assert "ManifestationControlled" not in kinds(events)
    d = s.pending()
    assert d.kind == "predatory_control" and d.player == 1 and d.data["unit"] == "coven"
    assert d.data["models"] == {"pyre": 0, "serpent": 2}
    assert set(d.options) == {ChooseControlled(player=1, manifestation="pyre"), ChooseControlled(player=1, manifestation="serpent")}
    events = s.apply(ChooseControlled(player=1, manifestation="serpent"))
    c = only(events, "ManifestationControlled")
    assert (c.manifestation, c.unit, c.model) == ("serpent", "coven", 2)
    assert only(events, "ManifestationWild").manifestation == "pyre"
    assert s.manifestations["pyre"].flags["wild"] is True and "controlled_by" not in s.manifestations["pyre"].flags


def test_e7_e5_a_unit_of_several_models_with_one_qualifying_is_not_asked():
    # E7: the boundary the other way: the pyre of model 0 lies 0.01" beyond 24", so only the
    # serpent of model 2 qualifies and no choice is asked.
    coven = [(10, 10), (10 + 2 * R25, 10), (10 + 4 * R25, 10)]
    s = _board(extra={"coven": (1, P1_COVEN, coven)})
    _put(s, "pyre", "rolling_pyre", 1, "coven", 10 + R25 + 24.01 - R60, 10, model=0)
    _put(s, "serpent", "ashen_serpent", 1, "coven", 20, 16, model=2)
    events = _end_hero(s)
    assert only(events, "ManifestationControlled").manifestation == "serpent"
    assert only(events, "ManifestationWild").reason == "out_of_range"
    assert s.pending().kind == "predatory_move"


def test_e7_one_model_eligible_for_two_asks_its_player_to_choose():
    # E7: a model controls at most one per hero phase; if several qualify, its player chooses.
    s = _board()  # player 1 active; player 2's wizard qualifies for two
    _put(s, "lights", "bog_light_swarm", 2, "w2", 40, 22)
    _put(s, "eel", "mist_eel", 2, "w2", 40, 30)
    events = _end_hero(s)
    assert "ManifestationControlled" not in kinds(events)
    d = s.pending()
    assert d.kind == "predatory_control" and d.player == 2
    assert set(d.options) == {ChooseControlled(player=2, manifestation="lights"), ChooseControlled(player=2, manifestation="eel")}
    with pytest.raises(IllegalActionError):
        s.apply(ChooseControlled(player=1, manifestation="eel"))
    events = s.apply(ChooseControlled(player=2, manifestation="eel"))
    assert only(events, "ManifestationControlled").manifestation == "eel"
    assert only(events, "ManifestationWild").manifestation == "lights"
    assert only(events, "ManifestationWild").reason == "chose_another"
    d = s.pending()  # player 1 controls nothing: player 2 moves the eel
    assert d.kind == "predatory_move" and d.player == 2 and {a.manifestation for a in d.options} == {"eel"}
    _stay(s, "eel")
    d = s.pending()  # then the wild Bog-Lights, open to the active player first
    assert d.data["stage"] == "wild" and d.player == 1 and {a.manifestation for a in d.options} == {"lights"}


def test_e7_models_of_both_armies_control_their_own():
    s = _board()
    _put(s, "pyre", "rolling_pyre", 1, "w1", 20, 22)
    _put(s, "lights", "bog_light_swarm", 2, "w2", 40, 22)
    events = _end_hero(s)
    assert {(e.manifestation, e.player) for e in events if e.type == "ManifestationControlled"} == {("pyre", 1), ("lights", 2)}


# --- E8: order of moves ------------------------------------------------------------------------


def _order_board():
    """p1 controls pyre; p2 controls lights; five wild ones, four of them player 2's."""
    s = _board(
        extra={"hermit": (1, P1_WIZ1, [(30, 3)]), "caller": (2, P2_PRI1, [(30, 41)])},
    )
    _put(s, "pyre", "rolling_pyre", 1, "w1", 18, 22)
    _put(s, "lights", "bog_light_swarm", 2, "w2", 42, 22)
    _put(s, "serpent", "ashen_serpent", 1, "hermit", 30, 35)  # > 24" from the hermit: wild
    _put(s, "eel", "mist_eel", 2, "w2", 20, 8)  # > 24" from w2: wild
    _put(s, "hound", "tide_hound", 2, "caller", 30, 12)
    _put(s, "lights2", "bog_light_swarm", 2, "caller", 30, 5)
    return s


def test_e8_controlled_active_then_controlled_opponent_then_wild_alternating():
    # E8: the active player moves what its models control, then the opponent; then the players
    # alternate, active player first, each picking any wild one, even when one side owns more.
    s = _order_board()
    events = _end_hero(s)
    assert {e.manifestation for e in events if e.type == "ManifestationWild"} == {"serpent", "eel", "hound", "lights2"}
    order = []
    while s.pending().kind == "predatory_move":
        d = s.pending()
        mids = sorted({a.manifestation for a in d.options})
        order.append((d.player, d.data["stage"], mids))
        _stay(s, mids[-1])
    assert order == [
        (1, "controlled", ["pyre"]),
        (2, "controlled", ["lights"]),
        (1, "wild", ["eel", "hound", "lights2", "serpent"]),
        (2, "wild", ["eel", "hound", "lights2"]),
        (1, "wild", ["eel", "hound"]),
        (2, "wild", ["eel"]),
    ]
    assert s.phase == "movement"


def test_e8_moves_out_of_turn_or_out_of_stage_are_refused():
    s = _order_board()
    _end_hero(s)
    with pytest.raises(IllegalActionError) as err:  # player 2's controlled one waits for player 1's
        s.apply(MovePredatory(player=2, manifestation="lights", x=42, y=22))
    assert err.value.code == "not_your_decision"
    with pytest.raises(IllegalActionError) as err:  # wild ones wait for the controlled ones
        s.apply(MovePredatory(player=1, manifestation="serpent", x=30, y=35))
    assert err.value.code == "not_eligible" and "E8" in err.value.message
    _stay(s, "pyre")
    _stay(s, "lights")
    _stay(s, "serpent")
    with pytest.raises(IllegalActionError) as err:  # moved already this phase
        s.apply(MovePredatory(player=2, manifestation="serpent", x=30, y=35))
    assert err.value.code == "not_eligible"


def test_e8_a_player_whose_models_control_none_is_skipped():
    s = _board()
    _put(s, "lights", "bog_light_swarm", 2, "w2", 40, 22)
    _end_hero(s)
    d = s.pending()
    assert (d.player, d.data["stage"]) == (2, "controlled")


def test_e8_picking_a_wild_one_makes_the_picker_its_commander_until_the_next_hero_phase():
    # E8: whoever picks a wild manifestation commands it until the start of the next hero phase,
    # and makes every choice for its abilities (here: the pass-across roll is player 1's).
    s = _board(dice=[2])  # pass-across roll: 2, no damage (3+)
    _put(s, "lights", "bog_light_swarm", 2, "w2", 20, 30)  # wild: > 24" from w2
    s.units["wardens"].models[0].x, s.units["wardens"].models[0].y = 25, 30
    events = _end_hero(s)
    assert only(events, "ManifestationWild").manifestation == "lights"
    events = _move(s, "lights", 30, 30, player=1)
    assert only(events, "CommandTaken").player == 1
    moved = only(events, "ManifestationMoved")
    assert moved.player == 1 and moved.passed_across == ("wardens",) and moved.controlled is False
    assert only(events, "DiceRolled").player == 1
    assert s.manifestations["lights"].commander == 1
    assert s.manifestations["lights"].flags.get("controlled_by") is None
    # Through player 1's turn to player 2's hero phase: the command lapses at its start.
    while not (s.active == 2 and s.phase == "hero"):
        assert s.manifestations["lights"].commander == 1
        s.apply(EndPhase(player=s.active))
    assert s.manifestations["lights"].commander == 2


def test_e7_control_marks_reset_at_the_start_of_each_hero_phase():
    s = _board()
    _put(s, "pyre", "rolling_pyre", 1, "w1", 20, 22)
    _end_hero(s)
    _stay(s, "pyre")
    assert s.manifestations["pyre"].flags["controlled_by"] == ["w1", 0]  # kept for the UI to draw
    while not (s.active == 2 and s.phase == "hero"):
        s.apply(EndPhase(player=s.active))
    assert "controlled_by" not in s.manifestations["pyre"].flags


# --- E9, E10: the move ---------------------------------------------------------------------------


def test_e9_a_point_where_the_footprint_would_overlap_a_base_means_a_0_inch_move():
    # E9 [ruling]: it cannot be placed where its footprint overlaps a base: it does not move.
    s = _board()
    _put(s, "pyre", "rolling_pyre", 1, "w1", 20, 22)
    s.units["wardens"].models[0].x, s.units["wardens"].models[0].y = 28, 22
    _end_hero(s)
    events = _move(s, "pyre", 28 - R32 - R60 + 0.05, 22)
    moved = only(events, "ManifestationMoved")
    assert moved.distance == 0 and moved.path == ((20, 22), (20, 22)) and moved.passed_across == ()
    assert "would overlap a base of" in moved.reason and "wardens" in moved.reason and moved.rule == "E9"
    assert (s.manifestations["pyre"].x, s.manifestations["pyre"].y) == (20, 22)
    assert s.manifestations["pyre"].moves_made == 1  # it counts as having moved (0")


def test_e9_touching_a_base_exactly_is_not_overlapping():
    s = _board(dice=[1])  # the graze counts as passing across: roll 1, no damage
    _put(s, "pyre", "rolling_pyre", 1, "w1", 20, 22)
    s.units["wardens"].models[0].x, s.units["wardens"].models[0].y = 28, 22
    _end_hero(s)
    moved = only(_move(s, "pyre", 28 - R32 - R60, 22), "ManifestationMoved")
    assert moved.reason is None and moved.distance == pytest.approx(8 - R32 - R60)
    assert moved.passed_across == ("wardens",)


@pytest.mark.parametrize(
    "what,expect",
    [("manifestation", "would overlap Ember Beacon"), ("terrain", "impassable terrain 'Basalt'")],
)
def test_e9_a_footprint_overlapping_another_manifestation_or_impassable_terrain_does_not_move(what, expect):
    basalt = {"name": "Basalt", "traits": ["impassable"], "points": [(27, 20), (31, 20), (31, 24), (27, 24)]}
    s = _board(terrain=[basalt] if what == "terrain" else [])
    _put(s, "pyre", "rolling_pyre", 1, "w1", 20, 22)
    if what == "manifestation":
        _put(s, "beacon", "ember_beacon", 1, "w1", 29, 22)
    _end_hero(s)
    moved = only(_move(s, "pyre", 28, 22), "ManifestationMoved")
    assert moved.distance == 0 and expect in moved.reason


def test_e9_the_path_may_cross_models_and_terrain():
    basalt = {"name": "Basalt", "traits": ["impassable"], "points": [(24, 20), (26, 20), (26, 24), (24, 24)]}
    s = _board(dice=[1], terrain=[basalt])  # one pass-across roll for the wardens crossed
    s.units["wardens"].models[0].x, s.units["wardens"].models[0].y = 22, 22
    _put(s, "pyre", "rolling_pyre", 1, "w1", 19, 22)
    _end_hero(s)
    moved = only(_move(s, "pyre", 30, 22), "ManifestationMoved")
    assert moved.reason is None and moved.distance == pytest.approx(11) and moved.passed_across == ("wardens",)


def test_e10_reach_is_move_plus_3_exactly_and_0_01_more_is_refused():
    # E10: Move + 3"; E9: the point must be within it of the manifestation, measured from the
    # closest point of its footprint (G1): a 60mm Pyre's centre can go 11" + r.
    s = _board()
    _put(s, "pyre", "rolling_pyre", 1, "w1", 20, 22)  # Move 8: reach 11
    _end_hero(s)
    assert move_reach(s, "pyre") == 11
    with pytest.raises(IllegalActionError) as err:
        _move(s, "pyre", 20 + R60 + 11.01, 22)
    assert err.value.code == "out_of_reach" and "11.01\"" in err.value.message and err.value.rule == "E10"
    d = s.pending()
    assert d.data["manifestations"]["pyre"]["reach"] == 11 and d.data["manifestations"]["pyre"]["centre"] == [20, 22]
    dx = (11 + R60) / math.sqrt(2)
    moved = only(_move(s, "pyre", 20 + dx, 22 + dx), "ManifestationMoved")
    assert moved.distance == pytest.approx(11 + R60) and moved.measured == pytest.approx(11) and moved.reason is None


def test_e9_reach_measured_from_the_footprint_not_the_centre():
    # E9 (the audit's case): a Rolling Pyre (Move 8, 60mm) at (20, 22) picks (32, 22): 12.00"
    # from its centre but 10.82" from the Pyre itself, within its 11".
    s = _board()
    _put(s, "pyre", "rolling_pyre", 1, "w1", 20, 22)
    _end_hero(s)
    assert predatory.point_problem(s, "pyre", 32, 22) is None
    moved = only(_move(s, "pyre", 32, 22), "ManifestationMoved")
    assert moved.distance == pytest.approx(12.0) and moved.measured == pytest.approx(12 - R60)


@pytest.mark.parametrize("axis,half", [("x", 3.0), ("y", 1.0)])
def test_e9_an_oval_reaches_further_along_its_long_axis(axis, half):
    # E9: the Ashen Serpent's 6" x 2" oval (Move 8: reach 11) reaches a centre 11" + 3" away
    # along its long axis and 11" + 1" across it; 0.01" more is refused both ways.
    s = _board()
    _put(s, "serpent", "ashen_serpent", 1, "w1", 20, 22)
    _end_hero(s)
    def at(length):
        return (20 + length, 22) if axis == "x" else (20, 22 + length)
    assert predatory.point_problem(s, "serpent", *at(11.01 + half))[0] == "out_of_reach"
    assert predatory.point_problem(s, "serpent", *at(11 + half)) is None
    assert predatory.ray_reach(s, "serpent", *((1, 0) if axis == "x" else (0, 1))) == pytest.approx(11 + half, abs=1e-6)
    moved = only(_move(s, "serpent", *at(11 + half)), "ManifestationMoved")
    assert moved.distance == pytest.approx(11 + half)


def test_e9_candidate_points_reach_the_full_distance_from_the_footprint():
    # E9: the points offered for bots and UI hints go the whole way: 11" + r from the centre.
    s = _board()
    _put(s, "pyre", "rolling_pyre", 1, "w1", 20, 30)
    _end_hero(s)
    far = max(math.hypot(x - 20, y - 30) for x, y in predatory.candidate_points(s, "pyre", 1))
    assert 11 + R60 - 0.01 < far <= 11 + R60


def test_e9_a_point_off_the_battlefield_is_refused():
    s = _board()
    _put(s, "pyre", "rolling_pyre", 1, "w1", 5, 22)
    _end_hero(s)
    with pytest.raises(IllegalActionError) as err:
        _move(s, "pyre", -0.5, 22)
    assert err.value.code == "off_battlefield"
    with pytest.raises(IllegalActionError) as err:
        _move(s, "pyre", float("nan"), 22)
    assert err.value.code == "bad_point"


def test_e9_passed_across_includes_a_unit_only_grazed_by_a_round_footprint():
    # E9: units passed across are those whose bases the swept footprint intersects; touching counts.
    graze = 22 + R60 + R32
    s = _board(
        dice=[1, 1],  # pass-across rolls (3+ to hurt): miss both
        extra={
            "grazed": (2, P2_WARDENS, [(25, graze)]),
            "missed": (2, P2_WARDENS, [(27, graze + 0.01)]),
            "hit": (1, P1_SPEARS, [(29, 22.5)]),
        },
    )
    _put(s, "pyre", "rolling_pyre", 1, "w1", 20, 22)
    _end_hero(s)
    moved = only(_move(s, "pyre", 31, 22), "ManifestationMoved")
    assert moved.passed_across == ("grazed", "hit")  # in the order reached; friends too


def test_e9_passed_across_includes_a_unit_only_grazed_by_a_polygon_footprint():
    # The Ashen Serpent's ellipse reaches 1" above its centre line; the swept area is exact.
    graze = 22 + 1 + R32
    s = _board(
        extra={
            "grazed": (2, P2_WARDENS, [(25, graze)]),
            "missed": (2, P2_WARDENS, [(27, graze + 0.01)]),
            "tail": (2, P2_WARDENS, [(14 - R32, 22)]),  # touches the serpent's tip where it starts
        },
    )
    _put(s, "serpent", "ashen_serpent", 1, "w1", 17, 22)  # w1 at (10, 22): 7" away, clear of the tail
    _end_hero(s)
    events = _move(s, "serpent", 28, 22)
    moved = only(events, "ManifestationMoved")
    assert set(moved.passed_across) == {"grazed", "tail"} and "missed" not in moved.passed_across
    # Mortal damage 1 each (no dice): the health-1 wardens are slain.
    assert {e.unit for e in events if e.type == "UnitDestroyed"} == {"grazed", "tail"}


R90 = 90 / 25.4 / 2  # the Bog Behemoth's base


@pytest.mark.parametrize("scroll", ["rolling_pyre", "ashen_serpent"])
def test_e9_passed_across_in_the_order_the_footprint_first_touches_each_base(scroll):
    # E9: effects resolve in the order the moving footprint first touches each base along the
    # path, not by where the bases' centres project on it. The large base's centre lies further
    # along the path (x = 21.5) than the small one's (x = 21.0), but its edge is reached first.
    half_y = R60 if scroll == "rolling_pyre" else 1.0  # the footprint's half-width across the path
    big_y = 22 + math.sqrt((half_y + R90) ** 2 - 1.5**2)  # first touched with the centre at x = 20.0
    small_y = 22 - (half_y + R32 - 0.05)  # first touched at about x = 20.6
    s = _board(extra={"big": (2, P2_BEHEMOTH, [(21.5, big_y)]), "small": (2, P2_PRI1, [(21.0, small_y)])})
    _put(s, "m", scroll, 1, "w1", 14, 22)
    _end_hero(s)
    start, end = (14.0, 22.0), (30.0, 22.0)
    footprint = manifestation_shape(s, "m")
    t_big, t_small = first_touch(footprint, start, end, [model_circle(s, "big", 0), model_circle(s, "small", 0)])
    assert t_big < t_small
    assert predatory.passed_across(s, "m", start, end) == ["big", "small"]


def test_e9_a_zero_move_passes_across_nothing():
    s = _board()
    _put(s, "pyre", "rolling_pyre", 1, "w1", 20, 22)
    s.units["wardens"].models[0].x, s.units["wardens"].models[0].y = 20, 22 + R60 + R32  # touching
    _end_hero(s)
    assert only(_stay(s, "pyre"), "ManifestationMoved").passed_across == ()


def test_e4b_a_move_ending_touching_the_edge_removes_it():
    # E9: after the move E4b is checked: touching the battlefield edge removes it.
    s = _board()
    _put(s, "pyre", "rolling_pyre", 1, "w1", 8, 10)
    _end_hero(s)
    events = _move(s, "pyre", 8, R60)  # the footprint reaches y = 0 exactly
    removed = only(events, "ManifestationRemoved")
    assert (removed.reason, removed.rule) == ("edge", "E4") and "pyre" not in s.manifestations
    assert kinds(events).index("ManifestationMoved") < kinds(events).index("ManifestationRemoved")


def test_m10_move_0_never_moves():
    # M10: a manifestation with Move 0" cannot move, not even a PREDATORY one (E10 [ruling]).
    base = Game.load().content
    frozen = base.manifestations["rolling_pyre"].model_copy(update={"move": 0})
    content = dataclasses.replace(base, manifestations={**base.manifestations, "rolling_pyre": frozen})
    s = _board()
    s.game = dataclasses.replace(s.game, content=content)
    _put(s, "pyre", "rolling_pyre", 1, "w1", 20, 22)
    _put(s, "beacon", "ember_beacon", 1, "w1", 30, 22)
    events = _end_hero(s)
    assert not [e for e in events if e.type.startswith(("Predatory", "ManifestationMoved"))]
    assert s.phase == "movement" and (s.manifestations["pyre"].x, s.manifestations["pyre"].y) == (20, 22)


def test_m11_pass_across_damage_slaying_the_summoner_removes_its_manifestations():
    # M11: whatever slew the summoner, even its own manifestation, its manifestations go at once;
    # the procedure carries on without them.
    s = _board(dice=[5, 2], extra={"adept": (1, P1_WIZ1, [(25, 10)])})  # 5: hit on 3+; D3 = 2
    s.units["adept"].models[0].damage = 2  # health 4
    _put(s, "pyre", "rolling_pyre", 1, "adept", 20, 10)
    _put(s, "hound", "tide_hound", 1, "adept", 5, 35)  # wild: > 24" from the adept
    _put(s, "lights", "bog_light_swarm", 2, "w2", 40, 30)
    s.units["spears"].models[0].x, s.units["spears"].models[0].y = 27, 10  # after the adept: spared
    _end_hero(s)
    events = _move(s, "pyre", 30, 10)
    assert only(events, "ManifestationMoved").passed_across == ("adept", "spears")
    assert only(events, "UnitDestroyed").unit == "adept"
    removed = {e.manifestation: (e.reason, e.rule) for e in events if e.type == "ManifestationRemoved"}
    assert removed == {"pyre": ("severed", "M11"), "hound": ("severed", "M11")}
    assert [e for e in events if e.type == "DiceRolled"] and len([e for e in events if e.type == "DiceRolled"]) == 2
    d = s.pending()  # the wild hound is gone: player 2 moves its controlled lights
    assert d.kind == "predatory_move" and d.player == 2 and {a.manifestation for a in d.options} == {"lights"}
    _stay(s, "lights")
    assert s.phase == "movement"


def test_e8_options_are_legal_and_describe_the_continuous_choice():
    s = _order_board()
    _end_hero(s)
    while s.pending().kind == "predatory_move":
        d = s.pending()
        assert d.options and all(s.legal(a) for a in d.options)
        for mid, info in d.data["manifestations"].items():
            assert info["reach"] == move_reach(s, mid) and len(info["centre"]) == 2
        # staying put, the full reach in several directions, and toward / across enemies
        assert len([a for a in d.options if a.manifestation == d.options[0].manifestation]) >= 6
        s.apply(d.options[-1])


# --- property: random boards -----------------------------------------------------------------------

MOVERS = ["rolling_pyre", "ashen_serpent", "bog_light_swarm", "mist_eel", "tide_hound"]


def _random_board(seed: int, n_units: int, n_mans: int):
    import random

    rng = random.Random(seed)
    units = {}
    wizards = {1: [], 2: []}
    spots: list[tuple[float, float, float]] = []

    def free(x, y, r):
        return all(math.hypot(x - a, y - b) > r + c + 0.2 for a, b, c in spots)

    for k in range(n_units):
        player = 1 + k % 2
        wizards_of = [P1_WIZ2, P1_WIZ1, P1_COVEN] if player == 1 else [P2_WIZ2, P2_WIZ1]
        ws = rng.choice(wizards_of) if k < 4 else (P1_SPEARS if player == 1 else P2_WARDENS)
        r = {P1_WIZ2: R40, P2_WIZ2: R40, P1_COVEN: R25}.get(ws, R32)
        n = 3 if ws == P1_COVEN else 1  # a WIZARD unit of three models (E5)
        while True:
            x, y = rng.uniform(2, 50), rng.uniform(2, 42)
            if all(free(x + 2.2 * r * i, y, r) for i in range(n)):
                break
        models = [(x + 2.2 * r * i, y) for i in range(n)]
        spots.extend((mx, my, r) for mx, my in models)
        uid = f"u{k}"
        units[uid] = (player, ws, models)
        if k < 4:
            wizards[player].append(uid)
    s = battle(units, active=rng.choice([1, 2]))
    s.dice = SeededDice.from_seed(seed)
    for j in range(n_mans):
        player = 1 + rng.randrange(2)
        scroll = rng.choice(MOVERS)
        for _ in range(200):
            x, y = rng.uniform(4, 56), rng.uniform(4, 40)
            who = rng.choice(wizards[player])
            try:  # a spot the engine could hold (clear of bases, terrain, the others: G4)
                _put(s, f"m{j}", scroll, player, who, x, y, model=rng.randrange(len(units[who][2])))
            except PositionError:
                continue
            if predatory.blocked_reason(s, f"m{j}", x, y) is None and not touches_edge(manifestation_shape(s, f"m{j}"), 60, 44):
                break
            remove_manifestations(s, [f"m{j}"])
    return s, rng


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 100_000), n_units=st.integers(4, 10), n_mans=st.integers(1, 8))
def test_e6_e10_property_random_boards(seed, n_units, n_mans):
    s, rng = _random_board(seed, n_units, n_mans)
    active = s.active
    summoner_of = {mid: m.summoner for mid, m in s.manifestations.items()}
    events = list(_end_hero(s))
    while not s.is_over() and s.phase == "hero":
        d = s.pending()
        if d.kind == "predatory_move" and rng.random() < 0.5:
            mid = rng.choice(sorted({a.manifestation for a in d.options}))
            m = s.manifestations[mid]
            ang = rng.uniform(0, 2 * math.pi)
            ux, uy = math.cos(ang), math.sin(ang)
            longest = predatory.ray_reach(s, mid, ux, uy)  # E9: measured from the footprint
            beyond = MovePredatory(player=d.player, manifestation=mid, x=m.x + (longest + 0.01) * ux, y=m.y + (longest + 0.01) * uy)
            assert not s.legal(beyond)
            dist = rng.uniform(0, longest)
            a = MovePredatory(player=d.player, manifestation=mid, x=m.x + dist * ux, y=m.y + dist * uy)
            if not s.legal(a):
                a = rng.choice(d.options)
        else:
            assert d.options and all(s.legal(a) for a in d.options)
            a = rng.choice(d.options)
        for e in s.apply(a):
            events.append(e)
            if e.type == "ManifestationMoved" and e.manifestation in s.manifestations:
                shape = manifestation_shape(s, e.manifestation)
                assert not len(all_bases(s).overlapping(shape)[0])  # never ends overlapping a base
                if touches_edge(shape, 60, 44):
                    assert False, "touching the edge after a move and still there (E4b)"
        s._cache.clear()
    moves = [e for e in events if e.type == "ManifestationMoved"]
    # E9, E10: every point picked lies within the reach of the footprint.
    assert all(e.measured <= e.reach + 1e-9 for e in moves)
    # E7, E5: no unit, of one model or several, controls two.
    controllers = [e.unit for e in events if e.type == "ManifestationControlled"]
    assert len(controllers) == len(set(controllers))
    # Each moves at most once per phase.
    assert len({e.manifestation for e in moves}) == len(moves)
    # E8 order: controlled (active), controlled (opponent), then wild, alternating from the active player.
    stages = [(0 if e.player == active else 1) if e.controlled else 2 for e in moves]
    assert stages == sorted(stages)
    wild = [e.player for e in moves if not e.controlled]
    assert wild == [active if i % 2 == 0 else 3 - active for i in range(len(wild))]
    # Edge contact after moving means removal; no two things overlap.
    for mid, m in s.manifestations.items():
        assert not touches_edge(manifestation_shape(s, mid), 60, 44) or mid not in {e.manifestation for e in moves}
        # no orphan survives its summoner (M11)
        assert s.units[summoner_of[mid]].alive
    for mid in summoner_of:
        if mid not in s.manifestations:
            continue
        for other in s.manifestations:
            if other != mid and mid in {e.manifestation for e in moves}:
                assert not overlaps(manifestation_shape(s, mid), manifestation_shape(s, other))


def test_e9_events_and_actions_round_trip_and_a_save_mid_procedure_continues_identically():
    import json

    from game.rules import Action, Event, State

    s = _order_board()
    s.dice = SeededDice.from_seed(3)
    _end_hero(s)
    _move(s, "pyre", 27, 22)
    copy = State.from_dict(json.loads(json.dumps(s.to_dict())), s.game)
    assert json.dumps(copy.to_dict(), sort_keys=True) == json.dumps(s.to_dict(), sort_keys=True)
    while s.pending().kind == "predatory_move":
        a = s.pending().options[-1]
        assert Action.from_dict(json.loads(json.dumps(a.to_dict()))) == a
        ours, theirs = s.apply(a), copy.apply(a)
        assert [e.to_dict() for e in ours] == [e.to_dict() for e in theirs]
        for e in ours:
            assert Event.from_dict(json.loads(json.dumps(e.to_dict()))) == e
    assert copy.phase == s.phase == "movement"
