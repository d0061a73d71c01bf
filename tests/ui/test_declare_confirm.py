"""Declare, then roll (issue 20): a chosen spell (M3), charge (R4) or shot shows what will be
rolled and the engine's odds, and rolls only on a confirm (Enter, or the same button again);
Esc cancels; the setting `confirm_rolls` turns the confirm off; bots never wait."""

from __future__ import annotations

from game.rules import query
from game.ui import settings, widgets
from game.ui.controls import declare
from game.ui.intents import intent
from game.ui.labels import pct
from tests.helpers import P1_WIZ2, P2_WARDENS, battle
from tests.ui.controlhelpers import frame, scene_for

CONFIRM_ROLLS = True  # tests/ui/conftest.py: this module keeps the confirm on


def _at_kiln_heart(app, dice):
    s = battle({"a": (1, P1_WIZ2, [(10, 10)]), "e": (2, P2_WARDENS, [(20, 10)])}, dice)
    scene = scene_for(app, s)
    scene.handle(intent("hotkey", index=0))  # the Pyre Magister
    frame(app, 2)
    kiln = next(b for b in scene.view.buttons if b.label.startswith("Kiln Heart"))
    scene.handle(kiln.intent)
    frame(app, 2)
    return scene


def _rolled(scene) -> bool:
    return any(e.type in ("DiceRolled", "CastAttempted") for e in scene.session.history)


def test_m3_a_declared_spell_rolls_only_after_confirm(app):
    assert settings.get("confirm_rolls") is True  # the default
    scene = _at_kiln_heart(app, [1, 2])
    cast = scene.view.buttons[0]
    scene.handle(intent("hotkey", index=0))
    frame(app, 3)
    assert not _rolled(scene) and scene.declared == cast.intent.get("action")
    text = declare.declare_text(scene.state, scene.declared)
    assert text.startswith("Cast Kiln Heart on ") and "2D6 casting roll, 8+ needed: " in text
    assert pct(query.odds.cast_chance(8)) in text  # the engine's odds, not a second formula
    shown = [el.text for el, it in widgets.INTENTS.items() if el.alive() and it == cast.intent]
    assert any(t.startswith(">> 1. Kiln Heart") for t in shown), shown  # the declared slot, same place
    assert "Confirm (Enter)" in [el.text for el in widgets.INTENTS if el.alive()]
    scene.handle(intent("continue"))  # Enter
    frame(app, 3)
    assert _rolled(scene) and scene.declared is None


def test_m3_a_second_press_of_the_same_button_confirms(app):
    scene = _at_kiln_heart(app, [1, 2])
    cast = scene.view.buttons[0]
    scene.handle(cast.intent)
    frame(app, 2)
    assert not _rolled(scene)
    scene.handle(cast.intent)
    frame(app, 3)
    assert _rolled(scene)


def test_m3_esc_cancels_a_declaration_and_nothing_is_rolled(app):
    scene = _at_kiln_heart(app, [])
    scene.handle(intent("hotkey", index=0))
    frame(app, 2)
    scene.handle(intent("back"))
    frame(app, 2)
    assert scene.declared is None and not _rolled(scene)
    assert scene.selection.get("ability") == "kiln_heart"  # only the declaration went


def test_m3_the_setting_turns_the_confirm_off(app):
    scene = _at_kiln_heart(app, [1, 2])
    scene.handle(intent("toggle", name="confirm_rolls"))
    frame(app, 2)
    assert settings.get("confirm_rolls") is False
    scene.handle(intent("hotkey", index=0))
    frame(app, 3)
    assert _rolled(scene)


def test_r4_a_declared_charge_names_its_roll(app):
    s = battle({"a": (1, P1_WIZ2, [(10, 10)]), "e": (2, P2_WARDENS, [(18, 10)])}, [], phase="charge")
    scene = scene_for(app, s)
    charge = next(b for b in scene.view.buttons if getattr(b.intent.get("action"), "type", "") == "Charge")
    scene.handle(charge.intent)
    frame(app, 2)
    assert scene.declared is not None and not _rolled(scene)
    assert "2D6 charge roll" in declare.declare_text(scene.state, scene.declared)
