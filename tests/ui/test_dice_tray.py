"""The dice tray reads like dice (issue 19): hit, wound, save and ward dice are marked pass or
fail by the engine's per-die rules (R3) and counted, never summed; a tied roll-off says so (R2);
a save that cannot succeed says so; long rolls fold and nothing runs off the tray."""

from __future__ import annotations

import pygame
import pytest

from game.rules import AttacksResolved, DiceRolled, Game, SavesNotRolled
from game.ui.labels import TrayEntry, tray_entries
from game.ui.render import hud


@pytest.fixture(scope="module")
def state():
    return Game.load(profile="aos4").new_state(seed=1)


def roll(purpose: str, *dice: int, rule: str = "R3") -> DiceRolled:
    return DiceRolled(purpose=purpose, dice=tuple(dice), rule=rule)


def test_r3_hit_rolls_mark_each_die_and_count_the_hits(state):
    # 4+ with -1 to hit: a 6 always hits, a 1 never; 5 + (-1) = 4 hits, 4 + (-1) = 3 does not
    (e,) = tray_entries(state, [roll("Crossbow hit rolls (4+-1)", 1, 4, 5, 6, 3)])
    assert e.marks == (False, False, True, True, False)
    assert e.text.startswith("Crossbow: 2 of 5 hit on 4+ (-1 to hit)")
    assert "=" not in e.text and e.folded == "5 dice: 2 pass"


def test_r3_wound_rolls_and_ward_rolls_mark_each_die(state):
    (w,) = tray_entries(state, [roll("Lance wound rolls (3+)", 1, 2, 3, 6)])
    assert w.marks == (False, False, True, True) and w.text == "Lance: 2 of 4 wound on 3+"
    (d,) = tray_entries(state, [roll("ward 5+ for Fen-Oracle", 5, 4, 6)])
    assert d.marks == (True, False, True) and d.text == "Fen-Oracle: ward 5+ stops 2 of 3"


def test_r3_save_rolls_name_the_target_and_say_when_no_save_is_rolled(state):
    target = next(iter(state.units))
    closing = AttacksResolved(unit=target, target=target, kind="combat", attacks=3, hits=3, wounds=3,
                              unsaved=2, damage=2, mortal=0)
    (e,) = tray_entries(state, [roll("save rolls (4+ after rend 1)", 1, 4, 3), closing])
    name = state.units[target].name
    assert e.marks == (False, True, False) and e.text == f"{name} saves 1 of 3 on 4+ (rend 1)"
    # a 5+ save against rend 2: 7+ to save, which no die makes: none is rolled (R3)
    (n,) = tray_entries(state, [SavesNotRolled(target=target, wounds=2, save=5, rend=2, need=7), closing])
    assert n.dice == () and n.text == f"{name}: no save: 7+ after rend 2; all 2 unsaved"
    (z,) = tray_entries(state, [SavesNotRolled(target=target, wounds=1, save=7, rend=0, need=7), closing])
    assert z.text == f"{name}: no save; 1 of 1 unsaved"


def test_r2_a_tied_roll_off_says_it_is_rolled_again(state):
    from game.rules import PriorityWon

    p = "priority roll-off (player 1, player 2)"
    a, b = tray_entries(state, [roll(p, 3, 3, rule="R2"), roll(p, 5, 2, rule="R2"),
                                PriorityWon(round=1, winner=1, rolls=(5, 2))])
    assert a.text == "roll-off P1 3 vs P2 3: tied, rolled again"
    assert b.text.endswith("player 1 has priority")


def test_removal_and_on_a_roll_effects_read_their_outcome_from_the_events_after(state):
    from game.rules import EffectApplied

    r = tray_entries(state, [roll("Bog-Light Swarm (m4) removal: 1 or less", 3, rule="E4"), roll("run (D6)", 2)])[0]
    assert "m4" not in r.text and r.text.endswith("stays") and r.marks == (True,)
    miss, hit = (
        tray_entries(state, [roll("rolling_pyre on 4+", 2, rule="E9"),
                             EffectApplied("mortal_damage_on_roll", "x", 0, "rolling_pyre", "E9")])[0],
        tray_entries(state, [roll("rolling_pyre on 4+", 5, rule="E9"), roll("rolling_pyre damage", 2, rule="E9")])[0],
    )
    assert miss.text == "Rolling Pyre on 4+: rolled 2: no effect" and miss.marks == (False,)
    assert hit.text == "Rolling Pyre on 4+: rolled 5: it strikes" and hit.marks == (True,)


def _drawn_outside(rect: pygame.Rect, entries: list[TrayEntry], mouse=(-1, -1)) -> pygame.Surface:
    pygame.font.init()
    surf = pygame.Surface((rect.right + 40, rect.bottom + 40))
    surf.fill((1, 2, 3))
    hud.dice_tray(surf, rect, entries, mouse=mouse)
    return surf


def _outside(surf: pygame.Surface, rect: pygame.Rect) -> int:
    w, h = surf.get_size()
    return sum(1 for x in range(0, w, 2) for y in range(0, h, 2)
               if not rect.collidepoint(x, y) and surf.get_at((x, y))[:3] != (1, 2, 3))


@pytest.mark.parametrize("width", [300, 420])
def test_long_rolls_fold_and_nothing_runs_off_the_tray(width):
    rect = pygame.Rect(20, 20, width, 150)
    long = TrayEntry(tuple([1, 2, 3, 4, 5, 6] * 3), "Reed Bow: 9 of 18 hit on 4+ (2 sixes: 2 hits each)", None, "R3",
                     tuple(d >= 4 for d in [1, 2, 3, 4, 5, 6] * 3))
    words = TrayEntry((3, 4), "a very long explanation of a roll " * 6, True, "M3")
    entries = [long, words, long]
    assert _outside(_drawn_outside(rect, entries), rect) == 0
    # the mouse over the folded roll at the bottom shows its dice, still inside the tray
    surf = _drawn_outside(rect, entries, mouse=(rect.x + 30, rect.bottom - 15))
    assert _outside(surf, rect) == 0
    plain = _drawn_outside(rect, entries)
    assert pygame.image.tobytes(surf, "RGB") != pygame.image.tobytes(plain, "RGB")


def test_a_rolls_words_are_read_whole_in_a_narrow_tray():
    """At 1024 wide the tray is narrow: "saves 5 of 6 on 4+" wraps to a third line instead of
    being cut to "saves 5 of." (a cut count reads as a different count)."""
    pygame.init()
    text = "Emberward Spears (Second Watch) saves 5 of 6 on 4+"
    lines = hud._fits(text, 150)
    assert " ".join(lines) == text and len(lines) <= 3
    very = hud._fits("word " * 40, 150)
    assert len(very) == 3 and very[-1].endswith("…")
