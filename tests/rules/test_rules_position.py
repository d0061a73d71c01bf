"""The position builder (`game.rules.position`): a small position on any battlefield, built
without touching the state's fields, checked as a loaded state is, ids kept."""

from __future__ import annotations

import pytest

from game.rules import Game, ScriptedDice
from game.rules.actions import CastSpell, DeclineUnbind, PlaceManifestation
from game.rules.position import ManifestationSpec, PositionError, UnitSpec, build_position
from tests.helpers import P1_WIZ2, P2_WARDENS, P2_WIZ2, small_map


def _game():
    return Game.load(battlefield=small_map())


def test_a_small_position_is_exactly_what_was_given():
    s = build_position(_game(), [UnitSpec("w", 1, P1_WIZ2, [(10, 22)]), UnitSpec("foe", 2, P2_WARDENS, [(40, 22), (41.5, 22)])],
                       [ManifestationSpec("pyre", "rolling_pyre", "w", x=20, y=22)], phase="hero", active=1)
    assert sorted(s.units) == ["foe", "w"] and len(s.units["foe"].models) == 2
    assert s.manifestations["pyre"].player == 1 and s.manifestations["pyre"].commander == 1
    assert (s.stage, s.round, s.phase, s.active, s.turn) == ("battle", 1, "hero", 1, 1)
    assert s.pending().kind == "phase"


def test_g4_a_position_the_engine_could_not_reach_is_refused_with_every_reason():
    # G3/G4: off the battlefield, overlapping bases, a footprint on a base: each reason named
    with pytest.raises(PositionError) as err:
        build_position(_game(), [UnitSpec("w", 1, P1_WIZ2, [(10, 22)]), UnitSpec("foe", 2, P2_WARDENS, [(10.5, 22), (70, 5)])],
                       [ManifestationSpec("pyre", "rolling_pyre", "w", x=10, y=24)])
    text = str(err.value)
    assert "off the 60x44 battlefield" in text and "overlap" in text
    assert build_position(_game(), [UnitSpec("w", 1, P1_WIZ2, [(10, 22)]), UnitSpec("foe", 2, P2_WARDENS, [(10.5, 22)])],
                          check=False)  # a test that needs it can ask for it


def test_ids_given_stay_ids_and_fresh_ids_never_collide():
    # M9: a summon gets a fresh id; "m1" is taken by a hand-placed manifestation and is kept
    game = _game()
    s = build_position(game, [UnitSpec("w", 1, P1_WIZ2, [(10, 22)]), UnitSpec("o", 2, P2_WIZ2, [(55, 40)])],
                       [ManifestationSpec("m1", "bog_light_swarm", "o", x=50, y=30)], dice=ScriptedDice([4, 4]))
    s.apply(CastSpell(player=1, unit="w", spell="kindle_ember_beacon"))
    if s.pending().kind == "unbind":
        s.apply(DeclineUnbind(player=2))
    pt = s.pending().options[0]
    assert isinstance(pt, PlaceManifestation)
    s.apply(pt)
    assert s.manifestations["m1"].scroll == "bog_light_swarm"
    new = [k for k in s.manifestations if k != "m1"]
    assert len(new) == 1 and s.manifestations[new[0]].scroll == "ember_beacon"
    s.dice.assert_exhausted()


def test_unknown_ids_and_a_missing_summoner_are_refused():
    for units, mans, words in (
        ([UnitSpec("w", 1, "no_such_scroll", [(10, 22)])], [], "unknown warscroll"),
        ([UnitSpec("w", 1, P1_WIZ2, [(10, 22)])], [ManifestationSpec("x", "rolling_pyre", "nobody", x=20, y=20)], "summoner"),
        ([UnitSpec("w", 1, P1_WIZ2, [(10, 22)])], [ManifestationSpec("w", "rolling_pyre", "w", x=20, y=20)], "already used"),
    ):
        with pytest.raises(PositionError, match=words):
            build_position(_game(), units, mans)


def test_g4_adding_a_manifestation_on_a_base_is_refused_and_adds_nothing():
    # G4: a footprint on a base is refused (every reason named) and the position is left as it was;
    # a clear spot is accepted, and taking it off again leaves no trace (no event: an editor's act)
    from game.rules import add_manifestations, remove_manifestations

    s = build_position(_game(), [UnitSpec("w", 1, P1_WIZ2, [(10, 22)])])
    with pytest.raises(PositionError, match="overlaps|stands on|on a base|clear of"):
        add_manifestations(s, [ManifestationSpec("pyre", "rolling_pyre", "w", x=10.5, y=22)])
    assert s.manifestations == {}
    add_manifestations(s, [ManifestationSpec("pyre", "rolling_pyre", "w", x=20, y=22)])
    assert s.manifestations["pyre"].summoner == "w" and s.pending().options
    with pytest.raises(PositionError, match="already used"):
        add_manifestations(s, [ManifestationSpec("pyre", "rolling_pyre", "w", x=30, y=22)])
    remove_manifestations(s, ["pyre"])
    assert s.manifestations == {}
