"""The turn as one declared table (R2, E3, E6): the table as text, the orders that are rules, and
the loop guard of `flow.settle`."""

from __future__ import annotations

import pytest

from game.rules import EndPhase, ManifestationSpec, add_manifestations, flow
from game.rules.actions import CastSpell, PassDispel
from game.rules.errors import FlowLoopError
from game.rules.flow import MAX_AUTOMATIC_STEPS, step
from game.rules.turn import END_OF_HERO_PHASE, TURN, at_end_of_hero_phase
from tests.helpers import P1_WIZ2, P2_PRI1, battle, kinds

# The whole table, as `TURN.describe()` prints it. Changing the order of play is a rules change:
# it changes this text on purpose, in the same commit.
TABLE = """\
turn (R2): start_of_turn -> hero -> movement -> shooting -> charge -> combat -> end_of_turn
  after every action and step: removal.stamp_set_up_round (E4), scoring.annihilation (R2)
phase start_of_turn: the active player ends it
phase hero
  begin:      magic.expire_buffs (M3), predatory.reset (E8), magic.dispel_window (E3)
  options:    hero.hero_options
  candidates: hero.hero_candidates
  end:        predatory.control (E7), predatory.moves (E8), [end-of-hero-phase abilities (E6): none yet]
phase movement
  options:    movement.movement_options
  candidates: movement.movement_candidates
phase shooting
  options:    shooting.shooting_legal_options
  candidates: shooting.shooting_options
phase charge
  options:    charge.charge_options
  candidates: charge.charge_candidates
phase combat
  begin:      combat.open_fights (R4)
phase end_of_turn
  begin:      scoring.end_of_turn (R2)
  end:        removal.end_of_round (E4)
then flow.advance: the next phase, the next turn, or the next round (flow.start_round)
decisions (stacked; pending() shows the top one):
  summon_setup:      summoning.setup_view
  unbind:            casting.unbind_view
  dispel:            banishing.dispel_view
  ritual_choice:     prayers.ritual_view
  predatory_control: predatory.control_view
  predatory_move:    predatory.move_view
  charge_move:       charge.charge_move_view
  fight:             combat.fight_view"""


def test_r2_the_turn_table_printed_in_one_place():
    text = TURN.describe()
    print(text)
    assert text == TABLE


def test_r2_the_phases_are_r2s_in_order():
    assert TURN.phase_names == ("start_of_turn", "hero", "movement", "shooting", "charge", "combat", "end_of_turn")


def test_e3_e6_the_hero_phase_order():
    hero = TURN.phase("hero")
    # E3: the bookkeeping, then the dispel window, the last of the begin steps; casting,
    # chanting and banishing are the phase's options, offered only once the window has closed.
    assert hero.begin_steps() == ["magic.expire_buffs", "predatory.reset", "magic.dispel_window"]
    assert [f.__name__ for f in hero.options] == ["hero_options"]
    # E6: predatory control and moves, then every other end-of-hero-phase step.
    assert hero.end_steps() == ["predatory.control", "predatory.moves"]
    assert hero.end[-1] is END_OF_HERO_PHASE


def test_e6_an_ability_added_later_runs_after_the_predatory_steps_by_the_tables_rule():
    @step("test.late_ability", rule="E6")
    def late(state):
        pass

    @step("test.later_ability", rule="E6")
    def later(state):
        pass

    at_end_of_hero_phase(late)
    at_end_of_hero_phase(later)
    try:
        assert TURN.phase("hero").end_steps() == [
            "predatory.control", "predatory.moves", "test.late_ability", "test.later_ability",
        ]
        assert TURN.step("test.late_ability") is late
        assert "test.later_ability" in TURN.step_names()
        assert "[end-of-hero-phase abilities (E6): test.late_ability (E6), test.later_ability (E6)]" in TURN.describe()
    finally:
        END_OF_HERO_PHASE.remove(late)
        END_OF_HERO_PHASE.remove(later)
    assert TURN.phase("hero").end_steps() == ["predatory.control", "predatory.moves"]


def test_e3_the_dispel_window_comes_before_casting():
    # E3: at the start of the hero phase the dispel window opens; a cast is no answer to it.
    s = battle({"w2": (1, P1_WIZ2, [(10, 22)]), "priest": (2, P2_PRI1, [(20, 22)])}, profile="aos3", phase="start_of_turn")
    add_manifestations(s, [ManifestationSpec("lights", "bog_light_swarm", "priest", 30, 30, player=2, commander=2)])
    events = s.apply(EndPhase(player=1))
    assert kinds(events)[-1] == "PhaseStarted" and s.phase == "hero"
    assert s.pending().kind == "dispel"
    cast = CastSpell(player=1, unit="w2", spell="spark_lash", model=0, target="priest")
    assert "does not answer the open decision" in s.explain(cast)[0]
    s.apply(PassDispel(player=1))
    s.apply(PassDispel(player=2))
    assert s.pending().kind == "phase" and s.legal(cast) and cast in s.pending().options
    s.dice.assert_exhausted()


def test_the_tables_steps_have_one_name_each_and_every_queued_name_is_known():
    names = [n for ph in TURN.phases for n in ph.begin_steps() + ph.end_steps()] + [s.name for s in TURN.skeleton]
    assert len(names) == len(set(names))
    assert TURN.step_names() == set(names)
    for n in names:
        assert TURN.step(n).name == n
    with pytest.raises(KeyError, match="no step named 'nope'"):
        TURN.step("nope")


def test_flow_keeps_no_registries_of_positions():
    # The order lives in the table only: flow has no lists for rule modules to append to.
    for old in ("ON_BEGIN", "ON_BEGIN_LAST", "ON_END", "STEPS", "PHASE_OPTIONS", "PHASE_CANDIDATES", "DECISION_VIEWS",
                "SETTLE_CHECKS", "on_begin", "on_end"):
        assert not hasattr(flow, old), old


def test_settle_stops_a_looping_step_with_a_clear_error():
    @step("test.loop")
    def loop(state):
        state.steps.insert(0, "test.loop")  # queues itself again, forever: an engine bug

    at_end_of_hero_phase(loop)
    try:
        s = battle({"w2": (1, P1_WIZ2, [(10, 22)]), "priest": (2, P2_PRI1, [(50, 22)])})
        with pytest.raises(FlowLoopError) as err:
            s.apply(EndPhase(player=1))
    finally:
        END_OF_HERO_PHASE.remove(loop)
    msg = str(err.value)
    assert f"{MAX_AUTOMATIC_STEPS} automatic steps ran without a decision in the hero phase" in msg
    assert "the last: test.loop, test.loop" in msg and "next queued: test.loop" in msg


def test_settle_lets_a_long_but_finite_chain_of_steps_through():
    count = []

    @step("test.chain")
    def chain(state):
        count.append(1)
        if len(count) < MAX_AUTOMATIC_STEPS - 10:
            state.steps.insert(0, "test.chain")

    at_end_of_hero_phase(chain)
    try:
        s = battle({"w2": (1, P1_WIZ2, [(10, 22)]), "priest": (2, P2_PRI1, [(50, 22)])})
        s.apply(EndPhase(player=1))
    finally:
        END_OF_HERO_PHASE.remove(chain)
    assert len(count) == MAX_AUTOMATIC_STEPS - 10 and s.phase == "movement"
