"""A drag says why it stopped, in the engine's words with names for its tokens (G4, R4): the
first blocking obstacle of the path sweep, the enemy whose 3" it would end within, the inches
used of the move."""

from __future__ import annotations

import re

from game.ui.controls.move_words import token_name, why_stopped
from game.ui.intents import intent
from tests.helpers import P1_SPEARS, P1_WIZ2, P2_WIZ1, battle
from tests.ui.controlhelpers import drag, frame, scene_for

TOWER = {
    "name": "Drowned Tower",
    "traits": ["impassable", "obscuring"],
    "points": [[18, 14], [22, 14], [22, 16], [18, 16]],
}
IDS = re.compile(r"\b(mag|witch|spears)\b|base:|terrain:")


def _board(**units):
    # the Pyre-Magister (Move 6") at (20, 10), the Drowned Tower 2.4" ahead of its base
    return battle({"mag": (1, P1_WIZ2, [(20, 10)]), **units}, phase="movement", terrain=[TOWER])


def _hint_words(app, scene, to, release=False):
    drag(app, scene, (20, 10), to, release=False)
    during = scene.hint[0]
    if release:
        scene.handle(intent("release", pos=scene.pointer, button=1))
        frame(app)
    return during, scene.hint[0]


def test_g4_drag_into_terrain_names_the_blocking_piece(app):
    scene = scene_for(app, _board(witch=(2, P2_WIZ1, [(45, 30)])))
    during, after = _hint_words(app, scene, (20, 15), release=True)
    assert "stopped: blocked by Drowned Tower (G4)" in during, during
    assert "stopped: blocked by Drowned Tower (G4)" in after, after
    assert not IDS.search(during) and not IDS.search(after)


def test_g4_charge_through_an_enemy_base_names_the_unit(app):
    # R4, G4: a charge (roll 4 + 4 = 8) dragged through the Reed-Witch stops at her base; the
    # engine's sweep says "base:<k>" and the hint says her name
    st = battle({"mag": (1, P1_WIZ2, [(20, 10)]), "witch": (2, P2_WIZ1, [(20, 18)])}, [4, 4], phase="charge")
    scene = scene_for(app, st)
    charge = next(b for b in scene.view.buttons if getattr(b.intent.get("action"), "type", "") == "Charge")
    scene.handle(charge.intent)
    frame(app, 2)
    drag(app, scene, (20, 10), (20, 24), release=False)
    assert "stopped: blocked by Reed-Witch (G4)" in scene.hint[0], scene.hint[0]
    assert not IDS.search(scene.hint[0])
    assert token_name(scene.state, "mag", "base:0") == "Reed-Witch"
    assert token_name(scene.state, "mag", "edge") == "the battlefield edge"


def test_r4_drag_towards_an_enemy_says_whose_3_inches(app):
    scene = scene_for(app, _board(witch=(2, P2_WIZ1, [(27, 10)])))
    during, after = _hint_words(app, scene, (26, 10), release=True)
    assert 'stopped: would end within 3" of Reed-Witch (R4)' in after, after
    assert not IDS.search(after)


def test_r4_drag_past_the_move_says_the_inches_used(app):
    scene = scene_for(app, _board(witch=(2, P2_WIZ1, [(45, 30)])))
    during, after = _hint_words(app, scene, (11, 10), release=True)
    assert during.endswith('stopped: 6" used (Move 6")'), during
    assert after.endswith('stopped: 6" used (Move 6")'), after


def test_the_words_come_from_the_engines_texts():
    st = _board(witch=(2, P2_WIZ1, [(45, 30)]), spears=(1, P1_SPEARS, [(30, 30)]))
    blocked = (
        "Pyre-Magister (mag) cannot make a normal move there: "
        "model 0's path is blocked after 3.21\" by terrain:0, base:1 (G4)"
    )
    assert why_stopped(st, "mag", blocked, "normal") == "blocked by Drowned Tower (G4)"
    by_base = "model 0's path is blocked after 1.00\" by base:0 (G4)"
    assert why_stopped(st, "mag", by_base, "normal") == "blocked by Reed-Witch (G4)"
    assert why_stopped(st, "mag", "model 0 would move 9.40\"; it may move 9.00\" (G4)", "run") == '9" used (Run 9")'
    assert why_stopped(st, "mag", "model 0 overlaps base 1 (0.20\" overlap) (G4)", "normal").startswith("would end on ")


def test_g2_a_blocked_sight_line_names_the_unit_in_the_way(app):
    # G2: with a model selected and a target hovered, the hint names what blocks the line: the
    # unit whose models stand in the way (the engine's blocker_names), never "a model"
    from tests.helpers import P1_SPEARS, P1_WIZ2, P2_WARDENS, battle
    from tests.ui.controlhelpers import scene_for

    # two staggered ranks of spears, so that no line slips between the bases
    wall_of_spears = [(15, 22 + 1.3 * k) for k in range(-3, 4)] + [(16.3, 22.65 + 1.3 * k) for k in range(-3, 3)]
    s = battle({"w": (1, P1_WIZ2, [(10, 22)]), "spears": (1, P1_SPEARS, wall_of_spears),
                "foe": (2, P2_WARDENS, [(21, 22)])})
    scene = scene_for(app, s)
    scene.selected, scene.hover, scene.hover_model = ("w", 0), "foe", 0
    scene._compute_overlays()
    text = scene.hint[0]
    assert "cannot see the target" in text and f"blocked by {s.units['spears'].name} (G2)" in text, text
