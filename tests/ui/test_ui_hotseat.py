"""A whole hotseat turn driven through intents: deployment, the roll-off, the turn order, the
phases, a spell with the unbind hand-over to the other player, and ending phases (M3, M6, R2)."""

from __future__ import annotations

from game.ui.intents import intent
from tests.ui.conftest import frames
from tests.ui.uihelpers import button_for, free_spot, hotseat, scripted_session

# priority roll-off 5 vs 2; casting 4+4 = 8; unbinding 1+2 = 3; nothing else is rolled before
# player 2's turn
SCRIPT = [5, 2, 4, 4, 1, 2]


def test_whole_hotseat_turn_with_unbind_handover(app):
    session = scripted_session(SCRIPT)
    st = session.state
    # bring player 2's Fen Oracle (WIZARD (2)) within 30" of player 1's Pyre-Magister
    oracle = st.units["p2u0"]
    r = st.game.warscroll(oracle.warscroll).base.radius_in
    oracle.models[0].x, oracle.models[0].y = free_spot(st, r, [25, 23, 27, 21, 29, 19, 31], 33.0, skip=("p2u0",))
    scene = hotseat(app, session)
    frames(app)

    # deployment: player 1 is at the screen already; player 2 gets the hand-over screen
    assert scene.decision.kind == "deploy" and not scene.needs_handover()
    scene.handle(intent("end_phase"))
    frames(app)
    assert scene.decision.kind == "deploy" and scene.decision.player == 2
    assert scene.needs_handover() and scene.handover_title() == "Player 2: deployment"
    scene.handle(intent("end_phase"))  # ignored behind the hand-over screen
    frames(app)
    assert scene.decision.player == 2
    scene.handle(intent("continue"))
    scene.handle(intent("end_phase"))
    frames(app)

    # priority roll-off: 5 vs 2, player 1 chooses the turn order
    d = scene.decision
    assert d.kind == "turn_order" and d.player == 1
    assert any("roll-off P1 5 vs P2 2" in e.text for e in scene._tray)
    scene.handle(intent("continue"))
    frames(app)
    b = button_for(scene, lambda b, a: a is not None and a.type == "ChooseTurnOrder" and a.first == 1)
    assert "I go first" in b.label
    scene.handle(b.intent)
    frames(app)
    assert scene.state.active == 1 and scene.state.phase == "start_of_turn"
    scene.handle(intent("end_phase"))
    frames(app)
    assert scene.state.phase == "hero"

    # hero phase: pick the caster, then the spell; the panel shows the exact odds
    scene.handle(button_for(scene, lambda b, a: b.label == "Pyre-Magister").intent)
    frames(app)
    haze = button_for(scene, lambda b, a: a is not None and a.type == "CastSpell" and a.spell == "heat_haze")
    assert haze.odds.startswith("cast 72%") and "unbinder in range" in haze.odds
    scene.handle(haze.intent)
    frames(app)

    # the unbind window belongs to player 2: hand-over screen first
    d = scene.decision
    assert d.kind == "unbind" and d.player == 2
    assert scene.needs_handover() and scene.handover_title() == "Player 2: unbind?"
    app.screenshot(app_tmp(app) / "handover.png")
    scene.handle(intent("continue"))
    frames(app)
    unbind = button_for(scene, lambda b, a: a is not None and a.type == "Unbind")
    assert unbind.odds.startswith("unbind ") and "(2D6 > 8)" in unbind.odds
    scene.handle(unbind.intent)
    frames(app)
    texts = [e.text for e in scene._tray]
    assert "casting 4+4 = 8 >= 6: cast" in texts
    assert "unbind 1+2 = 3 <= 8: not unbound" in texts
    assert any(line.startswith("Heat Haze takes effect") for line, _ in scene._log_lines)

    # back to player 1, who ends the remaining phases of the turn with the E key
    assert scene.decision.player == 1 and scene.needs_handover()
    scene.handle(intent("continue"))
    for _ in range(10):
        if scene.state.active == 2:
            break
        scene.handle(intent("end_phase"))
        frames(app)
    assert scene.state.active == 2 and scene.state.turn == 2
    assert scene.needs_handover() and scene.handover_title() == "Player 2's turn"
    assert len(session.recorder.steps) >= 9


def app_tmp(app):
    import os
    from pathlib import Path

    return Path(os.environ["SPELLFIELD_HOME"])
