"""Issue 24: a game configuration deploys once (`Game.derived`), and every state starts from it.

The default deployment (G4) depends on the battlefield and the armies alone, so a simulation's
many games of one `Game` set up from one answer; each state still owns its models.
"""

from __future__ import annotations

from dataclasses import replace

from game.rules import Game
from game.rules import state as state_module
from game.rules.state import default_deployment


def _centres(s, player: int):
    return [tuple((m.x, m.y) for m in u.models) for u in s.units.values() if u.player == player]


def test_g4_states_of_one_game_deploy_once_at_the_same_places(monkeypatch):
    calls = []
    real = state_module.deploy_army

    def counted(*args, **kwargs):
        calls.append(args[2])  # the player
        return real(*args, **kwargs)

    monkeypatch.setattr(state_module, "deploy_army", counted)
    game = Game.load()
    a, b = game.new_state(seed=1), game.new_state(seed=2)
    assert calls == [1, 2]  # one deployment per side, for both states
    assert _centres(a, 1) == _centres(b, 1) and _centres(a, 2) == _centres(b, 2)
    other = replace(game, rounds=3)  # a new configuration keeps nothing of the old one's
    other.new_state(seed=1)
    assert calls == [1, 2, 1, 2]


def test_g4_the_kept_deployment_is_the_one_made_afresh():
    game = Game.load(profile="aos3")
    s = game.new_state(seed=4)
    fresh = default_deployment(game)  # made again, not the kept answer
    assert tuple(tuple(_centres(s, p)) for p in (1, 2)) == fresh


def test_g4_a_state_moving_its_models_leaves_the_next_states_deployment_alone():
    game = Game.load()
    a = game.new_state(seed=1)
    before = _centres(game.new_state(seed=9), 1)
    first = next(iter(a.units.values()))
    first.models[0].x += 3.0  # as an editor or a test might
    assert _centres(game.new_state(seed=9), 1) == before
