"""What an ability would do, asked before it is used (M3, M5): `query.effect_notes`, which the
option labels show so that a useless target is flagged before the player commits."""

from __future__ import annotations

from game.rules import query
from game.rules.units import Buff
from tests.helpers import P1_PRI1, P1_SPEARS, battle


def _board(damage=0):
    s = battle({"pri": (1, P1_PRI1, [(10, 22)]), "spears": (1, P1_SPEARS, [(16, 22), (17.4, 22)])})
    s.units["spears"].models[0].damage = damage
    return s


def test_m5_healing_a_unit_with_no_damage_has_no_effect():
    # M5: Warmth of the Hearth heals 1; the Spears have no damage, so it would change nothing
    s = _board()
    assert query.effect_notes(s, "warmth_of_the_hearth", "pri", "spears") == [
        "no effect: Emberward Spears has no damage to heal"
    ]


def test_m5_healing_a_wounded_unit_is_not_flagged():
    s = _board(damage=1)
    assert query.effect_notes(s, "warmth_of_the_hearth", "pri", "spears") == []


def test_m3_a_modifier_the_target_already_carries_adds_up_and_says_so():
    # modifiers of a kind add up (effects.modifier): a second +1 save makes +2, and the note says so
    s = _board()
    assert query.effect_notes(s, "hearthguard_blessing", "pri", "spears") == []
    s.units["spears"].buffs.append(Buff("save_buff", 1, "hearthguard_blessing", 1, s.turn))
    (note,) = query.effect_notes(s, "hearthguard_blessing", "pri", "spears")
    assert note == "Emberward Spears already has save buff +1: it adds up to +2"


def test_m5_the_option_label_flags_a_useless_target_before_the_player_commits():
    # the prayer's button says "no effect" on an unwounded unit and not on a wounded one
    from game.rules import ChantPrayer
    from game.ui.labels import describe

    action = ChantPrayer(player=1, unit="pri", model=0, prayer="warmth_of_the_hearth", target="spears")
    label = describe(_board(), action)
    assert label.text.endswith("(no effect)") and "no effect: Emberward Spears has no damage to heal" in label.odds
    assert "no effect" not in describe(_board(damage=1), action).text
