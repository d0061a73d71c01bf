"""The effect registry and timed modifiers (M3, M5)."""

from __future__ import annotations

from game.data.models import EFFECT_PARAMS
from game.rules import ChooseTurnOrder, EndPhase
from game.rules.actions import CastSpell
from game.rules.effects import EFFECTS, modifier
from tests.helpers import P1_WIZ2, P2_BEHEMOTH, battle, kinds


def test_every_effect_in_the_data_vocabulary_has_exactly_one_handler():
    assert set(EFFECTS) == set(EFFECT_PARAMS)


def test_m3_save_buff_lasts_until_the_casters_next_hero_phase():
    s = battle({"w2": (1, P1_WIZ2, [(10, 22)]), "beast": (2, P2_BEHEMOTH, [(40, 22)])}, [3, 4, 6, 1])
    s.apply(CastSpell(player=1, unit="w2", spell="heat_haze"))  # self: +1 save
    assert modifier(s, "w2", "save_buff") == 1
    seen_in_p2_turn = False
    expired = []
    while not (s.round == 2 and s.phase == "hero"):
        d = s.pending()
        if d.kind == "turn_order":
            events = s.apply(ChooseTurnOrder(player=d.player, first=1))
        else:
            events = s.apply(EndPhase(player=d.player))
        if s.active == 2 and s.phase == "hero":
            seen_in_p2_turn = modifier(s, "w2", "save_buff") == 1
        expired += [e for e in events if e.type == "BuffExpired"]
    assert seen_in_p2_turn
    assert modifier(s, "w2", "save_buff") == 0 and len(expired) == 1


def test_m3_debuff_lands_on_the_target():
    s = battle({"w2": (1, P1_WIZ2, [(10, 22)]), "beast": (2, P2_BEHEMOTH, [(20, 22)])}, [3, 4])
    events = s.apply(CastSpell(player=1, unit="w2", spell="choking_smog", target="beast"))
    assert "EffectApplied" in kinds(events) and modifier(s, "beast", "hit_debuff") == 1
