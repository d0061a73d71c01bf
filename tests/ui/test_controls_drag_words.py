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


def test_the_words_come_from_the_engines_problems_not_its_text():
    # the engine's problems carry their facts (game.rules.Problem); the words are made from them
    from game.rules import Problem, query

    st = _board(witch=(2, P2_WIZ1, [(45, 30)]), spears=(1, P1_SPEARS, [(30, 30)]))
    (blocked,) = query.thing_move_problems(st, "mag", ((20, 16),), 6.0, may_end_in_combat=False, rule="G4")
    assert isinstance(blocked, Problem) and blocked.code == "blocked" and blocked.facts["by"][0].startswith("terrain")
    assert why_stopped(st, "mag", blocked, "normal") == "blocked by Drowned Tower (G4)"
    (far,) = query.thing_move_problems(st, "mag", ((11, 10),), 6.0, may_end_in_combat=False, rule="G4")
    assert far.code == "too_far" and why_stopped(st, "mag", far, "run") == '6" used (Run 6")'
    # the words do not depend on the text: the same facts in other words give the same answer
    odd = Problem("something else entirely", "blocked", "G4", by=("base:0",))
    assert why_stopped(st, "mag", odd, "normal") == "blocked by Reed-Witch (G4)"
    on_base = Problem("x", "overlap_base", "G4", base=1)
    assert why_stopped(st, "mag", on_base, "normal") == f"would end on {st.units['spears'].name} (G4)"
    # a plain string (no code) is shown with its internal names replaced
    assert why_stopped(st, "mag", "give one position per model", "normal") == "give one position per model"


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
