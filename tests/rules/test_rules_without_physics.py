"""G4: a rule decision never depends on pymunk. Whole bot games run with `pymunk` and `pygame`
made unimportable, and they are the same games, event for event, as with them."""

from __future__ import annotations

import ast
import hashlib
import json
import subprocess
import sys
from pathlib import Path

from game.ai.registry import make_bot
from game.rules import Game

ROOT = Path(__file__).resolve().parents[2]

PLAY = '''
import hashlib, json, sys
sys.modules["pymunk"] = None
sys.modules["pygame"] = None
from game.rules import Game
from game.ai.registry import make_bot

def play(bot, profile, seed):
    state = Game.load(profile=profile).new_state(seed=seed)
    bots = {1: make_bot(bot, 1, seed), 2: make_bot(bot, 2, seed + 1)}
    h, moves, n = hashlib.sha256(), 0, 0
    while not state.is_over():
        for e in state.apply(bots[state.pending().player].choose(state)):
            h.update(json.dumps(e.to_dict(), sort_keys=True, default=str).encode())
            moves += e.type == "UnitMoved"
        n += 1
        assert n < 5000, "the game did not finish"
    return {"result": state.result(), "moves": moves, "actions": n, "hash": h.hexdigest()}

out = {f"{b} {p}": play(b, p, 1) for b, p in (("normal", "aos4"), ("normal", "aos3"), ("random", "aos4"), ("random", "aos3"))}
out["loaded"] = sorted(m for m, mod in sys.modules.items() if mod is not None and m.startswith(("game.physics", "game.ui", "pymunk", "pygame")))
print(json.dumps(out))
'''


def _hash(bot: str, profile: str, seed: int) -> str:
    state = Game.load(profile=profile).new_state(seed=seed)
    bots = {1: make_bot(bot, 1, seed), 2: make_bot(bot, 2, seed + 1)}
    h = hashlib.sha256()
    while not state.is_over():
        for e in state.apply(bots[state.pending().player].choose(state)):
            h.update(json.dumps(e.to_dict(), sort_keys=True, default=str).encode())
    return h.hexdigest()


def test_g4_whole_bot_games_run_without_pymunk_or_pygame_and_are_the_same_games():
    run = subprocess.run([sys.executable, "-c", PLAY], capture_output=True, text=True, cwd=ROOT, timeout=300)
    assert run.returncode == 0, run.stderr
    out = json.loads(run.stdout)
    assert out.pop("loaded") == []  # neither the physics layer, the UI, pymunk nor pygame
    for name, game in out.items():
        assert game["result"] and game["result"]["reason"], name  # finished, with a result
        assert game["moves"] > 10, name  # models moved: their paths were checked without pymunk
    # the same games as with pymunk importable (one per bot and profile is enough to tell)
    assert out["normal aos4"]["hash"] == _hash("normal", "aos4", 1)
    assert out["random aos3"]["hash"] == _hash("random", "aos3", 1)


def _imports(path: Path) -> set[str]:
    """Every module a file imports, at the top or inside a function."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            found.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.add(node.module)
    return found


def test_g4_rules_and_bots_never_import_physics_pymunk_or_pygame():
    """DESIGN.md: `ui -> ai -> rules -> geometry, data`; `rules` never needs `physics`."""
    bad = []
    for pkg in ("rules", "ai", "geometry"):
        for path in sorted((ROOT / "game" / pkg).glob("*.py")):
            for mod in _imports(path):
                if mod.split(".")[0] in ("pymunk", "pygame") or mod.startswith(("game.physics", "game.ui")):
                    bad.append(f"{path.relative_to(ROOT)} imports {mod}")
    assert bad == []
