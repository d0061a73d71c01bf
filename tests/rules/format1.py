"""Saves and state bytes written by the engine before the decision frames and use counters were
typed (commit 621cfda, state format 1), kept in tests/rules/fixtures/format1/ so that the typed
records are pinned to write exactly the same bytes (test_rules_stored.py).

Only API that exists on both sides of the change is used here, so this module is also the
generator: from a checkout of the old code,

    python -m tests.rules.format1 <dir>

writes `games.json` (for whole bot games: the number of actions and one sha256 over
`json.dumps(state.to_dict())` after every action, key order included; and which save shows each
feature) and the saves (`Recorder.save`) at the first action of those games where a feature (a
frame kind, a kind of use counter) appears.

The two normal-bot games were re-pinned once, on purpose, when the bot began to value a shot by
the engine's exact expectation (game.rules.odds, one source of truth): with that one line of
game/ai/normal.py put back, the typed-records code writes the old hashes for all four games.
They were re-pinned again, on purpose, when the bot began to keep its heroes alive and to time its
magic (issue 25: game/ai/hero_safety.py; cast order, unbinds, ritual points, summons, predatory
lookahead in game/ai/magic_plan.py; game/ai only, the engine unchanged); the random-bot games'
hashes did not change.

The two random-bot games were re-pinned once, on purpose, when the random bot's candidates were
pruned of what cheap checks prove illegal and it began to draw them one at a time instead of
shuffling them all (issue 24: game/ai/random_bot.py, the hero, shooting and charge candidates),
so that it plays other, equally random games. The normal-bot games, which do not draw from the
candidates, still write their pinned bytes, and the old saves are unchanged: they re-play their
histories to the saved state with the typed records. The games are re-pinned with
`play` alone (not `write`, which would replace the old saves).
"""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path
from typing import Any

from game.ai.registry import make_bot
from game.rules import Game
from game.rules.session import Recorder

FIXTURES = Path(__file__).resolve().parent / "fixtures" / "format1"

# (bot, profile, seed): between them every decision kind and every kind of use counter appears
# (random aos3 26 opens predatory_control; the aos3 games dispel, E3).
GAMES = (("random", "aos4", 1), ("random", "aos3", 26), ("normal", "aos4", 1), ("normal", "aos3", 1))
SAVED_FROM = (("random", "aos4", 1), ("random", "aos3", 26))


def features(d: dict[str, Any]) -> list[str]:
    """What a saved state (a to_dict) shows of the records: open frame kinds, use counters."""
    out = [f"frame_{f['kind']}" for f in d["decisions"]]
    for key, u in d["phase_uses"].items():
        out.append("uses_player" if key.startswith("player") else "uses_dispelled" if "dispelled" in u else "uses_unit")
    for t in d["turn_uses"].values():
        if t:
            out.append("army_" + "_".join(t))  # the order the lists were first recorded
    return out


def play(bot: str, profile: str, seed: int, on_step=None) -> dict[str, Any]:
    """A whole bot game; `on_step(recorder, state_dict)` after every action."""
    game = Game.load(profile=profile)
    rec = Recorder(game, seed, game.new_state(seed=seed))
    bots = {1: make_bot(bot, 1, seed), 2: make_bot(bot, 2, seed + 1)}
    h = hashlib.sha256()
    while not rec.state.is_over():
        rec.apply(bots[rec.state.pending().player].choose(rec.state))
        d = rec.state.to_dict()
        h.update(json.dumps(d).encode())
        if on_step is not None:
            on_step(rec, d)
        assert len(rec.steps) < 5000, "the game did not finish"
    return {"actions": len(rec.steps), "to_dict_sha256": h.hexdigest()}


def write(out: Path) -> None:
    out.mkdir(parents=True, exist_ok=True)
    games: dict[str, Any] = {}
    saved: dict[str, str] = {}
    for bot, profile, seed in GAMES:
        name = f"{bot} {profile} {seed}"

        def keep(rec: Recorder, d: dict[str, Any], name: str = name) -> None:
            new = [feat for feat in features(d) if feat not in saved]
            if new:
                file = f"{name.replace(' ', '-')}-action{len(rec.steps)}.json"
                saved.update(dict.fromkeys(new, file))
                rec.save(out / file, force=True)

        games[name] = play(bot, profile, seed, keep if (bot, profile, seed) in SAVED_FROM else None)
    (out / "games.json").write_text(json.dumps({"games": games, "saves": saved}, indent=1) + "\n")


if __name__ == "__main__":
    write(Path(sys.argv[1]) if len(sys.argv) > 1 else FIXTURES)
