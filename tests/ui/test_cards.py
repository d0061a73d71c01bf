"""Warscroll cards (issue 19): their numbers are the warscroll data's and the engine's answers
(game.rules.query), they name things by name and never by id, and the drawn card lies inside
the battlefield view, clear of the side panel and the header."""

from __future__ import annotations

import re

import pygame
import pytest

from game.rules import Game, ManifestationSpec, add_manifestations, query
from game.rules.actions import CastSpell
from game.ui import cards
from game.ui.render import card_view
from tests.helpers import P1_WIZ2, P2_WARDENS, P2_WIZ2, battle
from tests.ui.controlhelpers import frame, point_at, scene_for, shot

# ids as the engine makes them: units p1u0, manifestations m1, and test ids used below
ID_TOKEN = re.compile(r"\b(?:p\d+u\d+|m\d+|u_wiz|u_foe)\b")


def _no_ids(state, card: cards.Card) -> None:
    text = card.text()
    assert not ID_TOKEN.search(text), text
    content = state.game.content
    for cid in (*content.abilities, *content.manifestations, *content.lores, *state.game.content.warscrolls):
        assert not re.search(rf"\b{re.escape(cid)}\b", text), (cid, text)


def _buffed_wizard():
    """A Pyre-Magister (WIZARD (2), Ember Staff) that has cast Heat Haze on itself (+1 save)."""
    s = battle({"u_wiz": (1, P1_WIZ2, [(10, 22)]), "u_foe": (2, P2_WARDENS, [(50, 22)])}, dice=[3, 4])
    s.apply(CastSpell(player=1, unit="u_wiz", spell="heat_haze", model=0, target=None))
    assert s.units["u_wiz"].buffs, "Heat Haze should have landed"
    return s


def test_unit_card_names_the_warscroll_and_the_engine_numbers():
    s = _buffed_wizard()
    ws = s.game.warscroll(s.units["u_wiz"].warscroll)
    card = cards.unit_card(s, "u_wiz")
    text = card.text()
    assert card.title == "Pyre-Magister"
    assert f'Move {ws.move:g}"' in text and f"Control {ws.control}" in text
    assert f"Health {ws.health}, damage taken 0" in text
    # Save with the buff the engine reads (query.modifier), Ward as query.ward_of answers
    mod = query.modifier(s, "u_wiz", "save_buff")
    assert mod == 1 and f"Save {ws.save}+ (+1: {ws.save - 1}+ now)" in text
    assert f"Ward {query.ward_of(s, 'u_wiz')}+" in text
    assert "WIZARD (2)" in text
    w = ws.weapons[0]
    assert (
        f"{w.name}: melee, Attacks {w.attacks}, Hit {w.hit}+, Wound {w.wound}+, Rend {w.rend}, Damage {w.damage}"
        in text
    )
    # what is left this phase: the engine's counts
    left, unbinds = query.power_left(s, "u_wiz"), query.unbinds_left(s, "u_wiz")
    assert (left, unbinds) == (1, 2)
    assert f"{left} of 2 spells/prayers/banishes left" in text and f"{unbinds} of 2 unbinds left" in text
    for aid in query.known(s, "u_wiz", "spell"):
        assert s.game.content.abilities[aid].name in text
    assert "Heat Haze (spell, 6+, self) - used this phase" in text
    assert "+1 to save rolls (Heat Haze), until the start of player 1's next hero phase" in text
    _no_ids(s, card)


def test_ability_card_value_range_target_effect_and_unlimited():
    s = battle({"u_wiz": (1, P1_WIZ2, [(10, 22)]), "u_foe": (2, P2_WARDENS, [(50, 22)])})
    ab = s.game.content.abilities["spark_lash"]
    assert ab.unlimited
    card = cards.ability_card(s, "spark_lash", "u_wiz")
    text = card.text()
    assert card.title == ab.name and card.subtitle == "Spell"
    assert f"Casting value {ab.value}+ on 2D6" in text
    assert f'Range {ab.range:g}"; target: an enemy unit, visible to the caster' in text
    assert f"Effect: {ab.effects[0].amount} mortal damage" in text
    assert "UNLIMITED" in text
    assert f"{query.power_left(s, 'u_wiz')} uses left this phase" in text
    _no_ids(s, card)
    # a summoning spell names what it summons, with E10's predatory keyword and its banishment
    summon = next(a for a in query.known(s, "u_wiz", "spell") if s.game.content.abilities[a].summons)
    scroll = s.game.content.manifestations[s.game.content.abilities[summon].summons]
    stext = cards.ability_card(s, summon, "u_wiz").text()
    assert scroll.name in stext and f"banishment {scroll.banishment}+" in stext
    _no_ids(s, cards.ability_card(s, summon, "u_wiz"))


@pytest.mark.parametrize("where, wild", [((20.0, 22.0), False), ((50.0, 40.0), True)])
def test_e7_e10_manifestation_card_reach_banishment_and_control(where, wild):
    s = battle({"u_wiz": (1, P1_WIZ2, [(10, 22)]), "u_foe": (2, P2_WIZ2, [(55, 10)])})
    add_manifestations(s, [ManifestationSpec("m1", "rolling_pyre", "u_wiz", *where)])
    scroll = query.scroll_of(s, "m1")
    card = cards.manifestation_card(s, "m1")
    text = card.text()
    assert card.title == scroll.name
    reach = query.move_reach(s, "m1")
    assert reach == scroll.move + 3
    assert f'Move {scroll.move:g}" + predatory 3" = {reach:g}" (E10)' in text
    assert f"Banishment {scroll.banishment}+" in text
    assert f"Footprint round, {scroll.footprint.round_mm:g}mm" in text
    assert "PREDATORY" in text and "summoned by Pyre-Magister" in text
    cz = query.control_zone(s, "m1")
    assert cz.qualifies is not wild
    if wild:
        assert 'Wild: it is not wholly within 24" of the model that summoned it (E5, E7)' in text
    else:
        assert 'Wholly within 24" of Pyre-Magister: it can be controlled (E7)' in text
    assert f"Commanded by player {query.commander_of(s, 'm1')}" in text
    _no_ids(s, card)


def test_r2_objective_card_shows_the_engine_control_scores():
    g = Game.load()  # the default map: objectives and terrain
    st = g.new_state(seed=3)
    for i, _ in enumerate(g.battlefield.map.objectives):
        s1, s2 = query.control_scores(st, i)
        assert f"player 1: {s1}, player 2: {s2}" in cards.objective_card(st, i).text()
    t = g.battlefield.map.terrain[0]
    text = cards.terrain_card(st, 0).text()
    assert t.name in text and all(tr.capitalize() in text for tr in t.traits)
    # feature_at finds them under the pointer
    o = g.battlefield.map.objectives[0]
    assert cards.feature_at(st, o.x, o.y) == ("objective", 0)
    xs, ys = zip(*t.points)
    cx, cy = sum(xs) / len(xs), sum(ys) / len(ys)
    assert cards.feature_at(st, cx, cy) == ("terrain", 0)


def test_card_rect_lies_inside_the_bounds_wherever_the_pointer_is():
    bounds = pygame.Rect(0, 40, 890, 734)
    for p in [(5, 45), (885, 45), (5, 770), (885, 770), (445, 400)]:
        r = card_view.card_rect((345, 420), p, bounds)
        assert bounds.contains(r) and not r.collidepoint(p), (p, r)
    # taller than the view: cut to it
    assert bounds.contains(card_view.card_rect((345, 2000), (400, 400), bounds))


def test_the_hovered_card_is_drawn_inside_the_field_view(app):
    s = battle(
        {"u_wiz": (1, P1_WIZ2, [(57, 41)]), "u_foe": (2, P2_WIZ2, [(3, 3)])}, width=60, height=44
    )  # corners: the card must turn back into the view
    scene = scene_for(app, s)
    for uid, (x, y) in (("u_wiz", (57, 41)), ("u_foe", (3, 3))):
        point_at(app, scene, x, y)
        frame(app)
        assert scene.hover == uid and scene.card is not None
        assert scene.card.title == s.units[uid].name
        r = scene.card_rect
        assert r is not None and scene.field_rect.contains(r), (r, scene.field_rect)
        assert not r.colliderect(scene.panel_rect) and not r.colliderect(scene.top_rect)
        shot(app, f"card_{uid}.png")
    # off every unit, on open ground: no card
    point_at(app, scene, 30, 22)
    frame(app)
    assert scene.card is None or scene.card.subtitle in ("Terrain", "Objective")
    assert scene.card is None or not scene.card.lines[-1].text.startswith("Pinned")  # nothing was clicked


def test_spell_buttons_carry_the_ability_card_as_their_tool_tip(app):
    s = battle({"u_wiz": (1, P1_WIZ2, [(10, 22)]), "u_foe": (2, P2_WARDENS, [(30, 22)])})
    scene = scene_for(app, s)
    tips = []
    for b in scene.view.buttons:
        found = cards.button_ability(b.intent)
        if found:
            tips.append((found[0], scene._button_tip(b)))
    if not tips:  # the panel may first ask for the caster
        from game.ui.intents import intent

        scene.handle(intent("select", unit="u_wiz"))
        frame(app)
        for b in scene.view.buttons:
            found = cards.button_ability(b.intent)
            if found:
                tips.append((found[0], scene._button_tip(b)))
    assert tips
    for aid, tip in tips:
        ab = s.game.content.abilities[aid]
        assert ab.name in tip and f"{ab.value}+" in tip
        assert not ID_TOKEN.search(tip) and aid not in tip


def test_a_click_pins_a_units_card_until_esc_or_open_ground(app):
    """Clicking a unit shows its warscroll where it was clicked, and it stays when the pointer
    leaves (a hovered unit's card shows over it meanwhile); Esc or a click on open ground unpins it."""
    from game.ui.intents import intent
    from tests.ui.uihelpers import screen_pos

    s = battle({"u_wiz": (1, P1_WIZ2, [(20, 20)]), "u_foe": (2, P2_WIZ2, [(40, 30)])}, width=60, height=44)
    scene = scene_for(app, s)
    scene.handle(intent("press", pos=screen_pos(scene, 20, 20), button=1))
    frame(app)
    assert scene.pinned == "u_wiz"
    point_at(app, scene, 30, 10)  # away from every unit
    assert scene.card is not None and scene.card.title == s.units["u_wiz"].name
    assert scene.card.lines[-1].text.startswith("Pinned: Esc")  # it says how to close it
    pinned_rect = scene.card_rect
    point_at(app, scene, 40, 30)  # hovering another unit: its card
    assert scene.card.title == s.units["u_foe"].name
    point_at(app, scene, 30, 10)
    assert scene.card.title == s.units["u_wiz"].name and scene.card_rect == pinned_rect  # where it was clicked
    scene.handle(intent("back"))
    frame(app)
    assert scene.pinned is None and (scene.card is None or scene.card.title != s.units["u_wiz"].name)
    scene.handle(intent("press", pos=screen_pos(scene, 20, 20), button=1))
    frame(app)
    assert scene.pinned == "u_wiz"
    scene.handle(intent("press", pos=screen_pos(scene, 30, 10), button=1))  # open ground
    frame(app)
    assert scene.pinned is None


def test_a_hovered_terrain_card_is_not_marked_pinned(app):
    tower = {"name": "Drowned Tower", "traits": ["impassable", "obscuring"], "points": [[28, 20], [32, 20], [32, 24], [28, 24]]}
    s = battle({"u_wiz": (1, P1_WIZ2, [(10, 10)]), "u_foe": (2, P2_WIZ2, [(50, 40)])}, terrain=[tower])
    scene = scene_for(app, s)
    point_at(app, scene, 30, 22)
    frame(app)
    assert scene.card is not None and scene.card.title == "Drowned Tower"
    assert not scene.card.lines[-1].text.startswith("Pinned")  # hovered, not clicked
