"""The battle log: every event a whole game produces reads as a sentence, not a field dump."""

from __future__ import annotations

import re

from game.ai.normal import NormalBot
from game.data.content import DEFAULT_ARMIES
from game.rules import Game
from game.ui.labels import _humanise, event_line


def test_every_event_of_a_whole_game_has_its_own_log_line():
    state = Game.load(profile="aos4", armies=DEFAULT_ARMIES).new_state(seed=7)
    bots = {p: NormalBot(p, p) for p in (1, 2)}
    seen: dict[str, str] = {}
    while not state.is_over():
        for ev in state.apply(bots[state.pending().player].choose(state)):
            line = event_line(state, ev)
            assert line and not line.startswith(_humanise(ev.type) + ":"), f"{ev.type} fell back to a field dump: {line}"
            if ev.type == "BanishAttempted":  # named even once banished (M12)
                name = state.game.content.manifestations[ev.scroll].name
                assert f" {name}" in line and not re.search(rf"\b{ev.manifestation}\b", line), line
            seen.setdefault(ev.type, line)
    # the predatory procedure (E6-E9) and the core turn are all in this game
    for kind in ("PredatoryMovesBegan", "ManifestationControlled", "ManifestationMoved", "VictoryPoints",
                 "AttacksResolved", "UnitMoved", "ChargeRolled"):
        assert kind in seen, f"the game had no {kind} event"
    assert seen["VictoryPoints"].startswith("Player ") and " VP " in seen["VictoryPoints"]
