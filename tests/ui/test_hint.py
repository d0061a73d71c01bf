"""Issue 25: the T key's hint: a bot's choice on a clone with its own dice; it changes nothing."""

from __future__ import annotations

from game.ui.hint import bot_choice
from game.ui.intents import intent
from game.ui.session import Session
from uihelpers import hotseat, to_hero_phase


def _hinted(app, scene):
    scene.handle(intent("hint"))
    scene.hint_asker.wait(120)
    app.frame(1 / 60)
    return scene.bot_hint


def _dice(state):
    return state.dice.to_dict()


def test_hint_changes_nothing_and_is_the_bots_choice(app):
    scene = hotseat(app, Session.new(seed=3))
    to_hero_phase(app, scene)
    st = scene.state
    before, dice = st.checksum(), _dice(st)
    hint = _hinted(app, scene)
    assert hint is not None
    assert st.checksum() == before and _dice(st) == dice
    action, reason = bot_choice(st, scene.decision.player, "normal", 3)
    assert hint.action == action and str(hint.reason) == str(reason)
    assert bot_choice(st, scene.decision.player, "normal", 3)[0] == action  # deterministic
    lines = scene.view.lines
    assert any("Hint" in s for s in lines) and any(str(reason)[:10] in s or "Why" in s for s in lines)


def test_the_game_plays_on_as_without_the_hint(app):
    runs = []
    for hinted in (False, True):
        scene = hotseat(app, Session.new(seed=5))
        to_hero_phase(app, scene)
        if hinted:
            assert _hinted(app, scene) is not None
        n = len(scene.session.history)
        for _ in range(6):  # the game goes on: the normal bot's choices, rolled on the game's dice
            st = scene.state
            if st.is_over():
                break
            scene.session.apply(bot_choice(st, scene.decision.player, "normal", 1)[0])
            app.frame(1 / 60)
        runs.append([e.to_dict() if hasattr(e, "to_dict") else repr(e) for e in scene.session.history[n:]])
    assert runs[0] == runs[1] and runs[0]


def test_esc_clears_the_hint(app):
    scene = hotseat(app, Session.new(seed=3))
    to_hero_phase(app, scene)
    assert _hinted(app, scene) is not None
    scene.handle(intent("back"))
    app.frame(1 / 60)
    assert scene.bot_hint is None and not any("Hint" in s for s in scene.view.lines)
