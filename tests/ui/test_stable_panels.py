"""Stable action panels (issue 20): spent spells, prayers and units keep their place and number,
greyed, with the engine's reason (query.ability_unavailable); Back has one fixed place and key;
the movement panel is never stuck on a cancelled drag."""

from __future__ import annotations

from game.rules import CastSpell, query
from game.ui.intents import intent
from tests.helpers import P1_WIZ1, P1_WIZ2, P2_WARDENS, battle
from tests.ui.controlhelpers import drag, frame, scene_for

FAIL = [1, 2]  # a 2D6 casting roll of 3: the spell fails (it counts as used, M3), no unbind window


def _units():
    return {"a": (1, P1_WIZ2, [(10, 10)]), "b": (1, P1_WIZ1, [(12, 10)]), "e": (2, P2_WARDENS, [(20, 10)])}


def _cast(state, unit: str, spell: str) -> None:
    state.apply(CastSpell(player=1, unit=unit, spell=spell, model=0, target="e"))


def test_m7_ability_unavailable_names_the_rule():
    # M7: a spell attempted by one WIZARD of the army is not offered to another this turn; R1 for
    # the caster itself; the reason is the engine's own, read-only
    s = battle(_units(), FAIL)
    assert query.ability_unavailable(s, "b", "kiln_heart") is None
    _cast(s, "a", "kiln_heart")
    why = query.ability_unavailable(s, "b", "kiln_heart")
    assert (why.code, why.rule) == ("once_per_turn", "M7") and "(M7)" in why.message
    mine = query.ability_unavailable(s, "a", "kiln_heart")
    assert (mine.code, mine.rule) == ("rule_of_one", "R1")
    before = s.to_dict() if hasattr(s, "to_dict") else None
    query.ability_unavailable(s, "b", "spark_lash")
    assert before is None or s.to_dict() == before


def test_m1_a_spent_caster_says_why():
    s = battle(_units(), FAIL)
    _cast(s, "b", "kiln_heart")  # the Cinder Adept's one use (M1)
    why = query.ability_unavailable(s, "b", "spark_lash")
    assert (why.code, why.rule) == ("power_spent", "M1")


def _spell_slots(scene) -> list[str]:
    return [b.label.split(" (")[0].split(":")[0] for b in scene.view.buttons]


def test_m7_the_panel_keeps_button_order_after_a_cast(app):
    s = battle(_units(), FAIL)
    scene = scene_for(app, s)
    casters = [b.label for b in scene.view.buttons]
    scene.handle(intent("hotkey", index=0))  # 1: the Pyre Magister
    frame(app, 2)
    before = _spell_slots(scene)
    assert scene.view.back is not None and "< Other" not in " ".join(before)
    kiln = next(i for i, b in enumerate(scene.view.buttons) if b.label.startswith("Kiln Heart"))
    scene.handle(scene.view.buttons[kiln].intent)  # Kiln Heart: its one target
    frame(app, 2)
    scene.handle(intent("hotkey", index=0))
    frame(app, 3)
    assert any(e.type == "CastAttempted" for e in scene.session.history)
    # back on the casters: both keep their slots
    assert [b.label for b in scene.view.buttons] == casters
    scene.handle(intent("hotkey", index=1))  # 2: the Cinder Adept, who did not cast
    frame(app, 2)
    assert _spell_slots(scene) == [x for x in before if x in _spell_slots(scene)]
    slot = next(b for b in scene.view.buttons if b.label.startswith("Kiln Heart"))
    assert not slot.enabled and slot.odds == "used this turn (M7)", slot
    assert "(M7)" in slot.tip
    # its number key says why and does nothing
    n = scene.view.buttons.index(slot)
    seen = len(scene.session.history)
    scene.handle(intent("hotkey", index=n))
    frame(app)
    assert len(scene.session.history) == seen and "M7" in scene.message
    # the key after it is still the spell after it (no renumbering)
    nxt = scene.view.buttons[n + 1]
    assert scene._slots[n + 1] is nxt


def test_back_has_one_place_and_key(app):
    s = battle(_units())
    scene = scene_for(app, s)
    assert scene.view.back is None  # nothing to go back to: the footer's Back is greyed
    scene.handle(intent("hotkey", index=0))
    frame(app, 2)
    assert scene.view.back is not None and scene.selection.get("unit") == "a"
    scene.handle(intent("back"))  # Esc, or the footer's Back (the same intent)
    frame(app, 2)
    assert scene.selection == {} and scene.view.back is None
    assert scene.app.scenes[-1] is scene  # Back from a staged choice never leaves the battle


def test_r4_esc_after_a_cancelled_drag_returns_to_the_list(app):
    s = battle({"a": (1, P1_WIZ2, [(10, 10)]), "b": (1, P1_WIZ1, [(10, 20)]), "e": (2, P2_WARDENS, [(40, 10)])},
               phase="movement")
    scene = scene_for(app, s)
    listed = [b.label for b in scene.view.buttons]
    drag(app, scene, (10, 10), (13, 10))
    assert scene.tool.pending() and "move" in scene.view.title
    scene.handle(intent("back"))  # Esc: the drag is cancelled, the unit stays picked
    frame(app, 2)
    assert not scene.tool.pending() and "move" in scene.view.title
    scene.handle(intent("back"))  # Esc again: the unit list
    frame(app, 2)
    assert scene.view.title.endswith("movement phase") and [b.label for b in scene.view.buttons] == listed
    assert scene.tool.unit is None
    # and the list works: another unit's button opens its panel
    scene.handle(scene.view.buttons[1].intent)
    frame(app, 2)
    assert scene.view.title.endswith(s.units["b"].name)
