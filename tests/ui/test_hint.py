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


def _hint_tags(scene):
    return [d for d in scene.renderer.drawn_labels if d.text.startswith("Hint (")]


def test_the_board_tags_the_hinted_piece_and_the_tag_goes_with_the_hint(app):
    # issue 25: the hint is shown on the board, not only in the panel: its piece is highlighted
    # and tagged "Hint (Normal AI)" there, so a player sees which unit the panel's words mean
    scene = hotseat(app, Session.new(seed=3))
    to_hero_phase(app, scene)
    app.frame(1 / 60)
    assert _hint_tags(scene) == []
    hint = _hinted(app, scene)
    app.frame(1 / 60)
    tags = _hint_tags(scene)
    assert [t.text for t in tags] == ["Hint (Normal AI)"]
    unit = getattr(hint.action, "unit", None)
    if unit is not None:  # the tag sits by the hinted unit (or on the line to its target)
        assert unit in scene.overlays.highlight_units
        assert scene.renderer.camera.viewport.colliderect(tags[0].rect)
    scene.handle(intent("back"))
    app.frame(1 / 60)
    assert _hint_tags(scene) == []


def test_a_predatory_hint_shows_where_the_manifestation_would_end(app):
    # issue 25 / E9: a hinted predatory move is drawn as its footprint at the end point and the
    # straight line there, tagged; the state is untouched
    from game.geometry.shapes import Circle
    from game.rules.predatory_records import MovePredatory
    from game.ui.hint import Hint
    from game.ui.render.overlays import Line, Shape
    from game.rules import ManifestationSpec, add_manifestations
    from game.rules.actions import EndPhase
    from tests.helpers import P1_WIZ2, P2_WIZ2, battle
    from tests.ui.controlhelpers import scene_for

    # player 1's WIZARD at (10, 22) and its Rolling Pyre at (20, 34); its predatory move is open
    s = battle({"w1": (1, P1_WIZ2, [(10, 22)]), "w2": (2, P2_WIZ2, [(50, 10)])}, [])
    add_manifestations(s, [ManifestationSpec("pyre", "rolling_pyre", "w1", 20, 34, player=1, commander=1)])
    s.apply(EndPhase(player=1))
    assert s.pending().kind == "predatory_move"
    scene = scene_for(app, s)
    before = s.checksum()
    scene.bot_hint = Hint(MovePredatory(player=1, manifestation="pyre", x=28.0, y=30.0), "", "normal", scene.session.version)
    app.frame(1 / 60)
    ghosts = [m for m in scene.overlays.marks if isinstance(m, Shape) and isinstance(m.shape, Circle)]
    assert any(abs(g.shape.x - 28.0) < 1e-9 and abs(g.shape.y - 30.0) < 1e-9 for g in ghosts)
    assert any(isinstance(m, Line) and m.a == (20, 34) and m.b == (28.0, 30.0) for m in scene.overlays.marks)
    assert [t.text for t in _hint_tags(scene)] == ["Hint (Normal AI)"]
    assert scene.view.lines[0] == "Hint (Normal AI): Move Rolling Pyre to the marked place"
    assert s.checksum() == before


def test_the_hint_tag_keeps_off_the_bases_between_caster_and_target(app):
    # the tag sits on the line from the caster to its target; where that line crosses a unit it
    # moves off the bases (it used to hide the models it sat on), while there is room near it
    from game.rules.actions import CastSpell
    from game.ui.hint import Hint
    from tests.helpers import P1_SPEARS, P1_WIZ2, P2_WARDENS, battle
    from tests.ui.controlhelpers import scene_for

    # the Pyre-Magister at (10, 22), its target 20" east at (30, 22); a block of Spears between
    block = [(18.0 + 1.4 * i, 20.6 + 1.4 * j) for i in range(5) for j in range(2)]
    s = battle({"w1": (1, P1_WIZ2, [(10, 22)]), "sp": (1, P1_SPEARS, block), "foe": (2, P2_WARDENS, [(30, 22)])})
    scene = scene_for(app, s)
    cast = CastSpell(player=1, unit="w1", spell="cinder_bolt", target="foe")
    scene.bot_hint = Hint(cast, "", "normal", scene.session.version)
    app.frame(1 / 60)
    app.frame(1 / 60)
    tags = _hint_tags(scene)
    assert len(tags) == 1
    bases = scene.renderer._base_boxes(s)
    assert bases and tags[0].rect.collidelist(bases) < 0
    # and it stays by its line: within a few label heights of the middle of it
    mid = scene.renderer.camera.to_screen(20.0, 22.0)
    assert abs(tags[0].rect.centery - mid[1]) < 4 * tags[0].rect.h
