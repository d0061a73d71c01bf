"""The hard bot's movement plan styles (issue 7): what each style changes in the normal plan and
what it leaves alone. Positions are inline; the objectives score as in R2 (control within 3")."""

from __future__ import annotations

from game.ai.hard import STYLES, HardBot, PlanBot
from game.rules.actions import MoveUnit, Run
from tests.helpers import P1_SPEARS, P1_WIZ2, P2_BEHEMOTH, P2_WARDENS, P2_WIZ2, battle


def _block(x: float, y: float) -> list[tuple[float, float]]:
    """Ten 32mm-ish models in two ranks of five."""
    return [(x + (i % 5) * 1.3, y + (i // 5) * 1.3) for i in range(10)]


def _objectives_position(enemy_on_third: bool):
    # Objective 1 is ours (Holders stand on it), objective 2 is empty and near the free spears,
    # objective 3 is the enemy's when their Wardens stand on it.
    wardens = _block(42, 21) if enemy_on_third else _block(42, 38)
    return battle({
        "p1u0": (1, P1_WIZ2, [(5, 5)]),  # the general, a wizard
        "holders": (1, P1_SPEARS, _block(12, 21)),
        "free": (1, P1_SPEARS, _block(28, 3)),
        "p2u0": (2, P2_WIZ2, [(55, 40)]),
        "wardens": (2, P2_WARDENS, wardens),
    }, phase="movement", objectives=[(15, 22), (30, 12), (45, 22)])


def test_r2_contest_style_sends_units_off_the_objectives_to_the_one_the_enemy_holds():
    s = _objectives_position(enemy_on_third=True)
    with s.query():
        normal = PlanBot(1, 0, "normal").objective_plan(s)
        contest = PlanBot(1, 0, "contest").objective_plan(s)
    assert normal["free"] == 1  # the nearest objective that needs a unit
    assert contest["free"] == 2  # the one the enemy holds
    assert contest["holders"] == 0  # a unit already on an objective stays on it
    assert contest["p1u0"] == normal["p1u0"]  # the general is not sent into the fight
    act = PlanBot(1, 0, "contest").ranked(s)[0]
    assert isinstance(act[1], Run) and act[1].unit == "free" and "Objective 3" in act[2]


def test_r2_contest_style_is_the_normal_plan_when_the_enemy_holds_nothing():
    s = _objectives_position(enemy_on_third=False)
    with s.query():
        assert PlanBot(1, 0, "contest").objective_plan(s) == PlanBot(1, 0, "normal").objective_plan(s)


def _focus_position():
    # Spears A is nearer the Behemoth, but both spears units can reach the Wardens.
    return battle({
        "p1u0": (1, P1_WIZ2, [(5, 40)]),
        "a": (1, P1_SPEARS, _block(14, 24)),
        "b": (1, P1_SPEARS, _block(14, 12)),
        "p2u0": (2, P2_WIZ2, [(55, 40)]),
        "wardens": (2, P2_WARDENS, _block(30, 12)),
        "beast": (2, P2_BEHEMOTH, [(30, 30)]),
    }, phase="movement")


def test_focus_style_sends_free_fighters_at_one_target_not_each_its_nearest():
    s = _focus_position()
    with s.query():
        assert PlanBot(1, 0, "focus").focus_target(s) == "wardens"
    normal = PlanBot(1, 0, "normal").ranked(s)[0]
    focus = PlanBot(1, 0, "focus").ranked(s)[0]
    assert normal[1].unit == focus[1].unit == "a"
    assert "Bog Behemoth" in normal[2]  # each to its nearest
    assert isinstance(focus[1], MoveUnit) and "Mire Wardens with the others" in focus[2]
    before = s.clone()
    s.apply(focus[1])
    from game.ai import knowledge as K

    with s.query(), before.query():
        assert K.gap(s, "a", "wardens") < K.gap(before, "a", "wardens")


def test_focus_style_leaves_the_general_and_casters_out_of_the_rush():
    s = _focus_position()
    s.units["p1u0"].models[0].x, s.units["p1u0"].models[0].y = 20, 20  # the wizard general, near both
    bot = PlanBot(1, 0, "focus")
    with s.query():
        moved = bot.plan_move(s, "p1u0", bot.objective_plan(s))
    assert moved is None or "with the others" not in moved[2]


def test_the_plan_search_tries_every_style_and_names_the_one_it_keeps():
    s = _focus_position()
    bot = HardBot(1, seed=3, plan_rollouts=1)
    bot.choose(s)
    assert f"of {len(STYLES)} x 1 turn rollouts" in bot.last_explanation
    assert bot.move_bot is not None and bot.move_bot.style in STYLES
