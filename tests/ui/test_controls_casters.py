"""E5 on the battlefield: a WIZARD unit of several models (the 3-model Coven) numbers its
models when the panel asks which one casts; hovering a model's button marks it and draws its
ranges from its base; a click on a model's base answers as its button does."""

from __future__ import annotations

import pygame
import pytest

from game.rules.query import model_circle
from game.ui import widgets
from game.ui.controls.casters import CasterModelTool
from game.ui.intents import intent
from game.ui.render.overlays import Label
from tests.helpers import P1_COVEN, P2_WIZ2, battle
from tests.ui.controlhelpers import frame, scene_for, shot
from tests.ui.uihelpers import screen_pos

SPOTS = [(10, 10), (12, 10), (14, 10)]


def _model_stage(app):
    # the Coven's models 2 and 3 reach the Fen-Oracle with Cinder Bolt (18"), model 1 does not
    s = battle({"c": (1, P1_COVEN, SPOTS), "w2": (2, P2_WIZ2, [(30, 14)])})
    scene = scene_for(app, s)
    caster = next(b for b in scene.view.buttons if b.intent.kind == "select" and b.intent.get("unit") == "c")
    scene.handle(caster.intent)
    frame(app, 2)
    assert [b.label for b in scene.view.buttons if b.label.startswith("Model")] == ["Model 1", "Model 2", "Model 3"]
    return scene


def _badges(scene) -> dict[str, tuple[float, float]]:
    return {m.text: (m.x, m.y) for m in scene.overlays.marks if isinstance(m, Label) and m.text.isdigit()}


def test_e5_badges_number_the_models_that_may_cast(app):
    scene = _model_stage(app)
    assert isinstance(scene.tool, CasterModelTool) and scene.tool.unit == "c"
    assert _badges(scene) == {"1": SPOTS[0], "2": SPOTS[1], "3": SPOTS[2]}
    assert "c" in scene.view.field_picks  # the unit's bases are picks: green, clickable
    assert "numbered base" in " ".join(scene.view.lines)
    shot(app, "e5_badges.png")


def test_e5_a_click_on_a_model_answers_like_its_button(app):
    scene = _model_stage(app)
    button = next(b for b in scene.view.buttons if b.label == "Model 2")
    pos = screen_pos(scene, *SPOTS[1])
    scene.handle(intent("pointer", pos=pos))
    scene.handle(intent("press", pos=pos, button=1))
    frame(app, 2)
    assert scene.selection == {k: v for k, v in button.intent.data.items()} == {"unit": "c", "model": 1}
    assert "Casting from model 2 (E5)." in scene.view.lines
    assert not _badges(scene)  # answered: the badges go
    # and on to the spell, cast from model 2
    bolt = next(b for b in scene.view.buttons if b.label.startswith("Cinder Bolt"))
    scene.handle(bolt.intent)
    frame(app)
    cast = next(b for b in scene.view.buttons if getattr(b.intent.get("action"), "type", "") == "CastSpell")
    assert cast.intent.get("action").model == 1


def test_e5_hovering_a_model_button_marks_it_and_its_ranges(app, monkeypatch):
    scene = _model_stage(app)
    spec = next(b for b in scene.view.buttons if b.label == "Model 3")
    element = next(e for e, it in widgets.INTENTS.items() if it == spec.intent and e.alive())
    monkeypatch.setattr(pygame.mouse, "get_pos", lambda: element.rect.center)
    frame(app, 2)
    assert widgets.hovered_intent() == spec.intent
    ov = scene.overlays
    assert ov.selected == ("c", 2)
    c = model_circle(scene.state, "c", 2)
    rings = {r.label: (r.x, r.y, r.radius) for r in ov.rings}
    assert rings['18": 2 spells/prayers'] == pytest.approx((c.x, c.y, c.r + 18))  # Cinder Bolt, Choking Smog
    assert rings['12": 4 spells/prayers'] == pytest.approx((c.x, c.y, c.r + 12))  # the summonings
    assert "Model 3 of Coven of the Kindled" in scene.hint[0]
    shot(app, "e5_hover.png")


def test_m8_hovering_a_spell_button_draws_its_range_from_the_casting_model(app, monkeypatch):
    # once the model is picked, hovering a spell's button draws that spell's range ring from the
    # model's base (Cinder Bolt, 18")
    scene = _model_stage(app)
    scene.handle(next(b for b in scene.view.buttons if b.label == "Model 3").intent)
    frame(app, 2)
    spec = next(b for b in scene.view.buttons if b.intent.get("ability") == "cinder_bolt")
    element = next(e for e, it in widgets.INTENTS.items() if it == spec.intent and e.alive())
    monkeypatch.setattr(pygame.mouse, "get_pos", lambda: element.rect.center)
    frame(app, 2)
    c = model_circle(scene.state, "c", 2)
    rings = {r.label: (r.x, r.y, r.radius) for r in scene.overlays.rings}
    assert rings['18": Cinder Bolt'] == pytest.approx((c.x, c.y, c.r + 18))
