"""Hotseat through intents only: a whole turn of the default battle with the mouse where the
controls expect it (deployment drag, movement drag and commit, shooting click), and a game of
random legal choices that never gets stuck until it ends or a turn cap."""

from __future__ import annotations

import random

from game.ai.random_bot import RandomBot
from game.rules import SeededDice
from game.ui.intents import intent
from game.ui.session import Session
from tests.ui.controlhelpers import drag, frame, scene_for
from tests.ui.uihelpers import button_for


def _continue_if_handover(app, scene) -> None:
    if scene.needs_handover():
        scene.handle(intent("continue"))
        frame(app)


def test_whole_hotseat_turn_through_intents(app):
    session = Session.new(seed=11, dice=SeededDice(11))
    scene = scene_for(app, session.state)
    st = scene.state
    # deployment: drag a unit a little inside the zone, then end deployment for both players
    uid = next(k for k, u in st.units.items() if u.player == 1 and len(u.models) == 1)
    m = st.units[uid].models[0]
    drag(app, scene, (m.x, m.y), (m.x + 1.0, m.y))
    assert scene.session.actions()[-1]["type"] == "DeployUnit"
    scene.handle(intent("end_phase"))
    frame(app, 2)
    _continue_if_handover(app, scene)
    assert scene.decision.player == 2
    scene.handle(intent("end_phase"))
    frame(app, 2)
    _continue_if_handover(app, scene)
    d = scene.decision
    assert d.kind == "turn_order"
    scene.handle(button_for(scene, lambda b, a: a is not None and a.type == "ChooseTurnOrder" and a.first == d.player).intent)
    frame(app, 2)
    first = scene.state.active
    seen_phases = []
    moved = shot = False
    for _ in range(60):
        st, d = scene.state, scene.decision
        if st.active != first and st.stage == "battle":
            assert scene.needs_handover()  # the next player gets the hand-over screen first
            break
        _continue_if_handover(app, scene)
        st, d = scene.state, scene.decision
        if d.kind == "phase" and st.phase not in seen_phases:
            seen_phases.append(st.phase)
        if d.kind == "phase" and st.phase == "movement" and not moved:
            # drag the first single-model unit 2" towards the middle, then Enter
            mover = next(k for k, u in st.units.items() if u.player == first and len(u.models) == 1 and u.alive)
            mm = st.units[mover].models[0]
            dy = 2.0 if first == 1 else -2.0
            drag(app, scene, (mm.x, mm.y), (mm.x, mm.y + dy))
            assert scene.tool.pending() and not scene.tool.reasons, scene.hint
            scene.handle(intent("continue"))
            frame(app, 2)
            assert scene.session.actions()[-1]["type"] == "MoveUnit"
            moved = True
            continue
        if d.kind == "phase" and st.phase == "shooting" and not shot:
            shot = True
            picks = [b for b in scene.view.buttons if b.intent.kind == "select"]
            if picks:
                scene.handle(picks[0].intent)
                frame(app)
                target = next((b for b in scene.view.buttons if b.intent.kind == "choose" and b.intent.get("action").type == "Shoot"), None)
                if target is not None:
                    scene.handle(target.intent)
                    frame(app, 2)
                    continue
        if d.kind in ("phase", "deploy"):
            scene.handle(intent("end_phase"))
        elif d.kind == "fight":
            scene.handle(button_for(scene, lambda b, a: a is not None and a.type == "PassFight").intent)
        elif d.kind == "charge_move":
            scene.handle(button_for(scene, lambda b, a: a is not None and a.type == "FailCharge").intent)
        else:
            scene.handle(scene.view.buttons[-1].intent)
        frame(app, 2)
    assert moved
    assert scene.state.active != first, "the turn passed to the other player"
    assert seen_phases[:6] == ["start_of_turn", "hero", "movement", "shooting", "charge", "combat"][:len(seen_phases[:6])]
    assert {"movement", "shooting", "charge", "combat", "end_of_turn"} <= set(seen_phases)


def test_random_hotseat_game_never_gets_stuck(app):
    """Random legal choices, each sent as an intent; every decision must be reachable and the
    game must move on (a turn cap keeps it fast)."""
    session = Session.new(seed=7, dice=SeededDice(7))
    scene = scene_for(app, session.state)
    bots = {1: RandomBot(1, 3), 2: RandomBot(2, 3)}
    rng = random.Random(5)
    kinds = set()
    for _ in range(400):
        st = scene.state
        if st.is_over() or st.turn > 4:
            break
        _continue_if_handover(app, scene)
        d = scene.decision
        kinds.add(d.kind)
        assert scene.view is not None and scene.view.buttons or d.kind in ("predatory_move",), d
        if d.kind == "phase" and st.phase != "movement" and rng.random() < 0.15:
            scene.handle(intent("end_phase"))
            if scene.confirm is not None:  # nobody acted in this phase: a second E ends it
                scene.handle(intent("end_phase"))
        else:
            scene.handle(intent("choose", action=bots[d.player].choose(st)))
        v = scene.session.version
        frame(app)
        assert scene.session.version == v + 1 or scene.needs_handover() or scene.session.version > v, scene.message
    assert scene.state.is_over() or scene.state.turn > 4
    assert {"deploy", "turn_order", "phase"} <= kinds


def test_a_hotseat_battle_reaches_its_result_in_the_window(app):
    """Two players at one screen can play the default battle from deployment to the result:
    every decision of a whole game is made through the battle scene, with its hand-overs."""
    session = Session.new(seed=8, dice=SeededDice(8))
    scene = scene_for(app, session.state)
    bots = {1: RandomBot(1, 8), 2: RandomBot(2, 8)}
    for _ in range(3000):
        if scene.state.is_over():
            break
        _continue_if_handover(app, scene)
        d = scene.decision
        scene.handle(intent("choose", action=bots[d.player].choose(scene.state)))
        frame(app)
    frame(app)
    assert scene.state.is_over() and scene.state.result()["reason"]
    assert scene.view is not None and scene.view.title == "Game over"
