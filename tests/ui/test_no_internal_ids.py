"""No internal name reaches a player (issue 19): whole bot games, every event through the log's
and the dice tray's words, the option labels of sampled decisions and the recap of every turn hold no unit id (p1u6),
manifestation id (m1), content id (bog_light_swarm), engine keyword (pile_in) or dice-notation
leak ("DD3", "(4++0)")."""

from __future__ import annotations

import re

import pytest

from game.ai.registry import make_bot
from game.rules import Game
from game.ui.labels import describe, event_line, tray_entries
from game.ui.recap import recap

# (bot, profile, seed): both bots, both profiles, a few whole games
GAMES = [("random", "aos4", 1), ("normal", "aos3", 2), ("normal", "aos4", 3)]

LEAKS = [
    re.compile(r"\bp\d+u\d+\b"),  # unit ids
    re.compile(r"\bm\d+\b"),  # manifestation ids
    re.compile(r"\b[a-z][a-z0-9]*(?:_[a-z0-9]+)+\b"),  # snake_case: content ids, kinds, purposes (pile_in)
    re.compile(r"DD\d"),  # a D glued to a dice expression
    re.compile(r"\d\+[+-]\d"),  # "(4++0)", "4+-1": a target and its modifier run together
    re.compile(r"\bbase \d"),  # base sizes
    re.compile(r"\bmodel 0\b"),  # a 0-based model index
]


def leaks(state, text: str) -> list[str]:
    found = [m.group(0) for pat in LEAKS for m in pat.finditer(text)]
    c = state.game.content
    ids = {*c.warscrolls, *c.abilities, *c.lores, *c.manifestations, *c.armies}
    found += [w for w in re.findall(r"[A-Za-z0-9_]+", text) if w in ids and "_" in w]
    return found


def play(bot: str, profile: str, seed: int):
    state = Game.load(profile=profile).new_state(seed=seed)
    bots = {1: make_bot(bot, 1, seed), 2: make_bot(bot, 2, seed + 1)}
    history, bad, n = [], [], 0
    while not state.is_over():
        decision = state.pending()
        if n % 9 == 0:  # option labels at sampled states
            for action in list(decision.options)[:80]:
                label = describe(state, action, decision)
                for text in (label.text, label.odds):
                    bad += [(f"option {action.type}", text, w) for w in leaks(state, text)]
        events = state.apply(bots[decision.player].choose(state))
        for ev in events:  # the log line as it is written, right after the event
            line = event_line(state, ev)
            bad += [(ev.type, line, w) for w in leaks(state, line)]
        history += events
        n += 1
    return state, history, bad


@pytest.fixture(scope="module", params=GAMES, ids=lambda g: "-".join(map(str, g)))
def game(request):
    return play(*request.param)


def test_the_log_and_the_options_name_no_internal_ids(game):
    state, history, bad = game
    # the battle scene re-writes the whole log from the current state: manifestations gone since
    for ev in history:
        line = event_line(state, ev)
        bad += [(ev.type, line, w) for w in leaks(state, line)]
    assert not bad, "\n".join(f"{t}: {text!r} leaks {w!r}" for t, text, w in sorted(set(bad))[:30])


def test_the_dice_tray_names_no_internal_ids(game):
    state, history, _ = game
    bad = []
    for start in range(0, len(history), 150):  # the scene shows the last 200 events
        for e in tray_entries(state, history[start : start + 200]):
            bad += [(e.rule, e.text, w) for w in leaks(state, e.text)]
    assert not bad, "\n".join(f"{r}: {text!r} leaks {w!r}" for r, text, w in sorted(set(bad))[:30])


def test_the_recap_of_every_turn_names_no_internal_ids(game):
    # what the hand-over screen and the box after an AI turn say of the other side's turn
    state, history, _ = game
    starts = [i for i, e in enumerate(history) if e.type == "TurnStarted"] + [len(history)]
    bad = []
    for a, b in zip(starts, starts[1:]):
        for line in recap(state, history[a:b]):
            bad += [(line, w) for w in leaks(state, line)]
    assert not bad, "\n".join(f"{text!r} leaks {w!r}" for text, w in sorted(set(bad))[:30])


def test_the_leak_patterns_catch_what_they_are_for():
    state = Game.load(profile="aos4").new_state(seed=1)
    for text in ("Forge Guard (p1u6) moves", "m1 moves", "bog_light_swarm on 4+", "a pile_in move",
                 "miscast damage DD3", "Crossbow hit rolls (4++0)", "base 85"):
        assert leaks(state, text), text
    for text in ("Crossbow: 4 of 10 hit on 4+", "Bog-Light Swarm on 4+: rolled 5: it strikes",
                 "charge roll (2D6): 3+4 = 7", "Unbind with Fen-Oracle model 2"):
        assert not leaks(state, text), text


def test_a_manifestation_that_has_left_is_still_named_in_the_log():
    # a Game cannot be a dict key (a frozen dataclass holding lists): the labels' memory of which
    # manifestation an id was must still work, so a whole game's log never says "a manifestation"
    from game.ai.registry import make_bot
    from game.rules import Game
    from game.ui.labels import event_line

    s = Game.load().new_state(seed=3)
    bots = {1: make_bot("random", 1, 3), 2: make_bot("random", 2, 4)}
    events = []
    for _ in range(400):
        if s.is_over():
            break
        events += s.apply(bots[s.pending().player].choose(s))
    lines = [event_line(s, e) for e in events if e.type != "DiceRolled"]
    assert any("Rolling Pyre" in line for line in lines)
    assert not [line for line in lines if "a manifestation" in line]
