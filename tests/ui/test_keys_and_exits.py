"""Keys and exits (issue 20): one binding table, WASD pans, F12 screenshots into the data folder,
H's key table, E refused while another decision is open and asking before ending a phase in
which no unit acted (R2), and leaving a battle asks first."""

from __future__ import annotations

import inspect
from pathlib import Path

import pygame

from game.rules import data_dir, query
from game.ui import input as keys
from game.ui import keys_help
from game.ui.intents import intent
from game.ui.scenes.base import Scene
from game.ui.scenes.battle import BattleScene
from game.ui.scenes.replay import ReplayScene
from tests.ui.conftest import frames
from tests.ui.uihelpers import button_for, free_spot, hotseat, scripted_session, to_hero_phase

# priority roll-off 5 vs 2; casting 4+4 = 8; unbinding 1+2 = 3
SCRIPT = [5, 2, 4, 4, 1, 2]


def _battle(app, script=()):
    app.push(Scene(app))  # the menu underneath: leaving the battle comes back to it
    session = scripted_session(script)
    st = session.state
    oracle = st.units["p2u0"]  # player 2's wizard within 30" of player 1's caster: an unbind window
    r = st.game.warscroll(oracle.warscroll).base.radius_in
    oracle.models[0].x, oracle.models[0].y = free_spot(st, r, [25, 23, 27, 21, 29, 19, 31], 33.0, skip=("p2u0",))
    scene = hotseat(app, session)
    frames(app)
    return scene


def test_leaving_a_battle_asks_first_and_esc_stays(app):
    scene = _battle(app)
    scene.handle(intent("back"))
    assert scene.confirm is not None and scene.confirm.question == "Leave the battle?"
    assert "autosaved" in scene.confirm.detail
    frames(app)  # the question is drawn over the battle
    assert scene.confirm.rects["yes"].w > 0
    scene.handle(intent("back"))  # Esc: stay
    assert scene.confirm is None and app.scene is scene
    scene.handle(intent("back"))
    scene.handle(intent("confirm_no"))  # N: stay
    assert app.scene is scene
    scene.handle(intent("back"))
    frames(app)
    scene.handle(intent("press", pos=scene.confirm.rects["yes"].center, button=1))  # a click on Leave
    assert app.scene is not scene and not isinstance(app.scene, BattleScene)


def test_closing_the_window_in_a_battle_asks_first(app):
    from game.ui import storage

    scene = _battle(app)
    app.running = True
    scene.handle(intent("quit"))  # the window's close button
    assert scene.confirm is not None and scene.confirm.question == "Quit Spellfield?"
    assert app.running  # not yet
    scene.handle(intent("back"))  # Esc: stay
    assert scene.confirm is None and app.running and app.scene is scene
    scene.handle(intent("quit"))
    scene.handle(intent("continue"))  # Enter: quit, the game's slot written on the way out
    assert not app.running
    assert storage.slot_path(scene.session).is_file() or not scene.session.recorder.steps
    app.running = True
    other = _battle(app)
    other.handle(intent("quit"))
    other.handle(intent("quit"))  # a second close while asked: quits
    assert not app.running


def test_s_pans_and_is_no_longer_the_screenshot(app, monkeypatch):
    assert pygame.K_s not in keys.KEYS and keys.PAN_KEYS[pygame.K_s] == (0, -1)
    held = {pygame.K_s}

    class Held:
        def __getitem__(self, k):
            return k in held

    monkeypatch.setattr(pygame.key, "get_pressed", lambda: Held())
    monkeypatch.setattr(pygame.key, "get_mods", lambda: 0)
    pygame.event.clear()
    out = keys.InputMapper().poll(None, dt=0.1)
    assert [it.kind for it in out] == ["pan"] and out[0].get("dy") < 0 and out[0].get("dx") == 0
    monkeypatch.setattr(pygame.key, "get_mods", lambda: pygame.KMOD_CTRL)  # Ctrl+S saves, it does not pan
    assert keys.InputMapper().poll(None, dt=0.1) == []


def test_dead_keys_are_gone_and_every_key_is_in_the_table():
    assert pygame.K_F9 not in keys.KEYS
    assert keys.KEYS[pygame.K_l] == "language"  # L is alive again: the next language (issue 22)
    assert keys.KEYS[pygame.K_F12] == "screenshot"
    listed = {c for b in keys.BINDINGS for c in b.codes} | {c for b in keys.BINDINGS for c, _ in b.more}
    assert set(keys.KEYS) == listed  # one source: no key the table does not show


def test_f12_screenshot_goes_to_the_data_folder_and_says_where(app):
    scene = _battle(app)
    ev = pygame.event.Event(pygame.KEYDOWN, key=pygame.K_F12, mod=0, unicode="")
    (it,) = keys.InputMapper()._translate(ev, False, False)
    scene.handle(it)
    folder = data_dir() / "screenshots"
    shots = list(folder.glob("spellfield-*.png"))
    assert len(shots) == 1 and shots[0].read_bytes()[:4] == b"\x89PNG"
    assert scene.message == f"screenshot saved: {shots[0]}"
    scene.handle(it)  # a second one in the same second gets a name of its own
    assert len(list(folder.glob("spellfield-*.png"))) == 2
    # the path also stays up as a toast, long after the status line's hint came back
    assert scene.toast.text.startswith("Screenshot saved: ") and scene.toast.text.endswith(".png")
    assert scene.toast.seconds > 5


def test_h_shows_the_key_table_of_this_scene_only(app):
    scene = _battle(app)
    scene.handle(intent("help"))
    frames(app)
    assert scene.keys_open and scene.keys_rect is not None and scene.field_rect.contains(scene.keys_rect)
    battle = keys_help.rows("battle")
    assert ("E", "end the phase") in battle and ("F12", "screenshot") in battle
    assert all("F9" not in k and k != "S" for k, _ in battle)
    assert ("L", "next language") in battle  # issue 22: the app switches it, for every scene
    # every single-key binding the table shows is one the scene's handle acts on
    source = inspect.getsource(BattleScene.handle)
    for b in keys.bindings_for("battle"):
        if b.kind and b.kind not in ("confirm_yes", "confirm_no", "language"):
            assert f'"{b.kind}"' in source, b
    assert '"language"' in inspect.getsource(type(app).frame)  # L: App.frame, before any scene
    replay = dict(keys_help.rows("replay"))
    assert "E" not in replay and "U" not in replay and "F5 / Ctrl+S" not in replay  # the replay ignores them
    assert '"end_phase"' in inspect.getsource(ReplayScene.handle)
    assert "E" not in dict(keys_help.rows("demo"))
    scene.handle(intent("back"))  # Esc closes the table, and does not ask to leave
    assert not scene.keys_open and scene.confirm is None


def test_r2_e_while_another_decision_is_open_says_why_and_does_nothing(app):
    scene = _battle(app, SCRIPT)
    to_hero_phase(app, scene)
    scene.handle(button_for(scene, lambda b, a: b.label == "Pyre-Magister").intent)
    frames(app)
    scene.handle(button_for(scene, lambda b, a: a is not None and a.type == "CastSpell" and a.spell == "heat_haze").intent)
    frames(app)
    scene.handle(intent("continue"))  # player 2 takes the device for the unbind
    frames(app)
    assert scene.decision.kind == "unbind" and not scene.needs_handover()
    v = scene.session.version
    scene.handle(intent("end_phase"))
    frames(app)
    assert scene.session.version == v and scene.decision.kind == "unbind" and scene.confirm is None
    assert scene.message.startswith("E ends a phase, not this decision: unbind Heat Haze")
    # once the unbind is settled, player 1 has cast in this hero phase: E ends it without asking
    scene.handle(button_for(scene, lambda b, a: a is not None and a.type == "Unbind").intent)
    frames(app)
    scene.handle(intent("continue"))
    frames(app)
    assert scene.state.phase == "hero" and query.acted_this_phase(scene.state, 1)
    scene.handle(intent("end_phase"))
    frames(app)
    assert scene.confirm is None and scene.state.phase != "hero"


def test_r2_e_in_a_phase_where_no_unit_acted_asks_first(app):
    scene = _battle(app, SCRIPT[:2])
    to_hero_phase(app, scene)
    assert not query.acted_this_phase(scene.state, 1)
    scene.handle(intent("end_phase"))
    frames(app)
    assert scene.confirm is not None and scene.confirm.question == "End the hero phase?"
    assert scene.state.phase == "hero"
    scene.handle(intent("back"))  # Esc stays in the phase
    frames(app)
    assert scene.confirm is None and scene.state.phase == "hero"
    scene.handle(intent("end_phase"))
    scene.handle(intent("end_phase"))  # a second E ends it
    frames(app)
    assert scene.state.phase == "movement"
    scene.handle(intent("end_phase"))
    assert scene.confirm is not None and scene.confirm.question == "End the movement phase?"
    scene.handle(intent("continue"))  # and so does Enter
    frames(app)
    assert scene.state.phase not in ("hero", "movement")
