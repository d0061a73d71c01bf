"""Removal of manifestations (E4b edge, E4c warscroll conditions) and severed connection (M11)."""

from __future__ import annotations

import dataclasses

from game.rules import EndPhase, ManifestationSpec, add_manifestations
from game.rules.actions import CastSpell, DeclineUnbind
from game.rules.predatory_records import MovePredatory
from game.rules.removal import SET_UP_ROUND, end_of_round, is_end_of_round
from tests.helpers import P1_SPEARS, P1_WIZ1, P1_WIZ2, P2_WARDENS, P2_WIZ1, P2_WIZ2, R32, battle, kinds, only

R60 = 60 / 25.4 / 2


def _put(s, mid, scroll, player, summoner, x, y, **flags):
    add_manifestations(s, [ManifestationSpec(mid, scroll, summoner, x, y, player=player, commander=player, flags=dict(flags))])


def _board(dice=(), **kw):
    return battle(
        {
            "w1": (1, P1_WIZ2, [(10, 22)]),
            "w2": (2, P2_WIZ2, [(50, 22)]),
            "spears": (1, P1_SPEARS, [(5, 40)]),
            "wardens": (2, P2_WARDENS, [(55, 40)]),
        },
        dice,
        **kw,
    )


def _end_of_round_board(dice=(), round_=1):
    """Player 2's end-of-turn phase, player 1 having taken the first turn: the round's end (R2)."""
    return _board(dice, active=2, phase="end_of_turn", first_player=1, round=round_)


# --- E4b: the battlefield edge -------------------------------------------------------------------


def test_e4b_touching_the_edge_after_a_move_removes_it():
    # E4b: any part of it touches the battlefield edge after it moves.
    s = _board()
    _put(s, "pyre", "rolling_pyre", 1, "w1", 20, 38)
    s.apply(EndPhase(player=1))
    events = s.apply(MovePredatory(player=1, manifestation="pyre", x=20, y=44 - R60))
    assert only(events, "ManifestationRemoved").reason == "edge" and only(events, "ManifestationRemoved").rule == "E4"


def test_e4b_clear_of_the_edge_by_a_hair_stays():
    s = _board()
    _put(s, "pyre", "rolling_pyre", 1, "w1", 20, 38)
    s.apply(EndPhase(player=1))
    events = s.apply(MovePredatory(player=1, manifestation="pyre", x=20, y=44 - R60 - 0.001))
    assert "ManifestationRemoved" not in kinds(events) and "pyre" in s.manifestations


def test_e4b_the_profile_switch_turns_edge_removal_off():
    s = _board()
    s.game = dataclasses.replace(s.game, profile=dataclasses.replace(s.game.profile, edge_removal=False))
    _put(s, "pyre", "rolling_pyre", 1, "w1", 20, 38)
    s.apply(EndPhase(player=1))
    events = s.apply(MovePredatory(player=1, manifestation="pyre", x=20, y=44))
    assert "ManifestationRemoved" not in kinds(events)


# --- E4c: warscroll removal conditions -----------------------------------------------------------


def test_e4c_after_moves_the_rolling_pyre_burns_out_after_its_third_move():
    # E4c: after_moves 3 (manifestations.toml).
    s = _board()
    _put(s, "pyre", "rolling_pyre", 1, "w1", 20, 22)
    s.manifestations["pyre"].moves_made = 1
    s.apply(EndPhase(player=1))
    s.apply(MovePredatory(player=1, manifestation="pyre", x=22, y=22))
    assert s.manifestations["pyre"].moves_made == 2  # two moves made: it stays
    s2 = _board()
    _put(s2, "pyre", "rolling_pyre", 1, "w1", 20, 22)
    s2.manifestations["pyre"].moves_made = 2
    s2.apply(EndPhase(player=1))
    events = s2.apply(MovePredatory(player=1, manifestation="pyre", x=22, y=22))
    removed = only(events, "ManifestationRemoved")
    assert (removed.reason, removed.rule) == ("warscroll", "E4") and "pyre" not in s2.manifestations


def test_e4c_a_blocked_0_inch_move_counts_as_a_move():
    # E4c [ruling]: "counts as having moved 0"" is still a move for after_moves.
    s = _board()
    _put(s, "pyre", "rolling_pyre", 1, "w1", 20, 22)
    s.manifestations["pyre"].moves_made = 2
    s.apply(EndPhase(player=1))
    events = s.apply(MovePredatory(player=1, manifestation="pyre", x=10, y=22))  # onto the wizard: 0"
    assert only(events, "ManifestationMoved").distance == 0
    assert only(events, "ManifestationRemoved").reason == "warscroll"


def test_e4c_set_up_round_is_stamped_when_it_is_set_up():
    s = _board([3, 3])
    s.apply(CastSpell(player=1, unit="w1", spell="kindle_ember_beacon"))
    d = s.pending()
    events = s.apply(d.options[0])
    mid = only(events, "ManifestationSummoned").manifestation
    assert s.manifestations[mid].flags[SET_UP_ROUND] == 1


def test_e4c_end_of_round_the_beacon_gutters_out_at_the_end_of_the_second_round_after():
    # E4c: end_of_round 2: set up in round 1, it lasts through round 3's end [ruling: r + N].
    s = _end_of_round_board(dice=[6, 1], round_=2)
    _put(s, "beacon", "ember_beacon", 1, "w1", 20, 22, set_up_round=1)
    events = s.apply(EndPhase(player=2))
    assert "ManifestationRemoved" not in kinds(events) and "beacon" in s.manifestations
    s = _end_of_round_board(dice=[6, 1], round_=3)
    _put(s, "beacon", "ember_beacon", 1, "w1", 20, 22, set_up_round=1)
    events = s.apply(EndPhase(player=2))
    removed = only(events, "ManifestationRemoved")
    assert (removed.manifestation, removed.reason, removed.rule) == ("beacon", "warscroll", "E4")
    assert kinds(events).index("ManifestationRemoved") < kinds(events).index("RoundStarted")


def test_e4c_on_roll_a_d6_at_the_end_of_each_round_removes_on_the_value_or_less():
    # E4c: on_roll 1: the Bog-Light Swarm goes on a 1.
    purpose = "Bog-Light Swarm (lights) removal: 1 or less"
    s = _end_of_round_board(dice=[{"purpose": purpose, "dice": [1]}, 6, 1])
    _put(s, "lights", "bog_light_swarm", 2, "w2", 40, 22)
    events = s.apply(EndPhase(player=2))
    assert only(events, "ManifestationRemoved").reason == "warscroll" and "lights" not in s.manifestations
    s = _end_of_round_board(dice=[{"purpose": purpose, "dice": [2]}, 6, 1])
    _put(s, "lights", "bog_light_swarm", 2, "w2", 40, 22)
    events = s.apply(EndPhase(player=2))
    assert "ManifestationRemoved" not in kinds(events) and "lights" in s.manifestations


def test_e4c_nothing_is_rolled_at_the_end_of_the_first_turn_of_a_round():
    s = _board(active=1, phase="end_of_turn")  # player 1 took the first turn
    _put(s, "lights", "bog_light_swarm", 2, "w2", 40, 22)
    assert not is_end_of_round(s)
    events = s.apply(EndPhase(player=1))  # ScriptedDice([]) would fail on any roll
    assert "ManifestationRemoved" not in kinds(events) and "lights" in s.manifestations


def test_e4c_end_of_round_step_is_a_no_op_outside_the_round_end():
    s = _board()
    _put(s, "lights", "bog_light_swarm", 2, "w2", 40, 22)
    end_of_round(s)
    assert "lights" in s.manifestations


# --- M11: severed connection, whatever slew the summoner ---------------------------------------------


def test_m11_severed_by_a_miscast():
    s = battle({"adept": (1, P1_WIZ1, [(10, 22)]), "wardens": (2, P2_WARDENS, [(25, 22)])}, [1, 1, 2])
    s.units["adept"].models[0].damage = 2  # health 4; the miscast's D3 = 2 slays it
    _put(s, "pyre", "rolling_pyre", 1, "adept", 20, 10)
    events = s.apply(CastSpell(player=1, unit="adept", spell="cinder_bolt", target="wardens"))
    assert "Miscast" in kinds(events)
    removed = only(events, "ManifestationRemoved")
    assert (removed.reason, removed.rule) == ("severed", "M11") and not s.manifestations


def test_m11_severed_by_an_enemy_spell():
    s = battle({"adept": (1, P1_WIZ1, [(10, 22)]), "witch": (2, P2_WIZ1, [(20, 22)])}, [3, 4, 2], active=2)
    s.units["adept"].models[0].damage = 2
    _put(s, "pyre", "rolling_pyre", 1, "adept", 20, 10)
    s.apply(CastSpell(player=2, unit="witch", spell="drowning_chill", target="adept"))
    events = s.apply(DeclineUnbind(player=1))
    assert only(events, "ManifestationRemoved").reason == "severed" and "pyre" not in s.manifestations


def test_m11_severed_by_an_enemy_manifestation_passing_across():
    # Player 2's Bog-Lights pass across player 1's adept, which summoned the pyre.
    s = battle(
        {
            "adept": (1, P1_WIZ1, [(25, 22)]),
            "w2": (2, P2_WIZ2, [(40, 22)]),
            "spears": (1, P1_SPEARS, [(5, 40)]),
        },
        [4],  # Bog-Lights: 4+ to hurt (then a fixed 1 mortal damage, no roll)
        active=2,
    )
    s.units["adept"].models[0].damage = 3  # health 4
    _put(s, "pyre", "rolling_pyre", 1, "adept", 10, 35)
    _put(s, "lights", "bog_light_swarm", 2, "w2", 30, 22)
    s.apply(EndPhase(player=2))
    d = s.pending()
    assert d.player == 2 and d.data["stage"] == "controlled"  # the pyre is wild (> 24" from the adept)
    events = s.apply(MovePredatory(player=2, manifestation="lights", x=20, y=22 - R32 - 50 / 25.4 / 2 - 0.2))
    assert "adept" in only(events, "ManifestationMoved").passed_across
    assert only(events, "UnitDestroyed").unit == "adept"
    removed = only(events, "ManifestationRemoved")
    assert (removed.manifestation, removed.reason, removed.rule) == ("pyre", "severed", "M11")
    assert s.phase == "movement"  # no wild one left to move
