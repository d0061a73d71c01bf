"""The replay viewer with a replay someone else made: a bad or illegal step shows a message on
screen and play stops there; a bad header is refused with a message. Never a traceback."""

from __future__ import annotations

import copy
import json

import pytest

from game.ui.intents import intent
from tests.ui.conftest import frames


@pytest.fixture(scope="module")
def recording() -> dict:
    from game.ai.random_bot import RandomBot
    from game.rules.game import Game
    from game.rules.session import Recorder

    game = Game.load()
    rec = Recorder(game, 5, game.new_state(seed=5))
    bots = {1: RandomBot(1, 5), 2: RandomBot(2, 5)}
    for _ in range(20):
        rec.apply(bots[rec.state.pending().player].choose(rec.state))
    return rec.to_dict()


def _open(app, tmp_path, data: dict):
    path = tmp_path / "theirs.json"
    path.write_text(json.dumps(data))
    assert app.open_replay(path) is None
    frames(app)
    return app.scene


def _assert_stopped_at(app, scene, i: int, words: str) -> None:
    assert scene.stopped is not None and scene.stopped[0] == i and words in scene.stopped[1]
    assert scene.ctl.index == i and not scene.playing
    assert words in scene.message  # on screen, in the message line
    assert any(words in line for line in scene.view.lines)  # and in the replay panel
    frames(app)  # drawing the stopped replay is fine


def test_an_ill_typed_step_stops_the_replay_there_with_the_field_named(app, tmp_path, recording):
    data = copy.deepcopy(recording)
    data["steps"][6]["action"]["player"] = "one"
    scene = _open(app, tmp_path, data)
    scene.handle(intent("step", delta=10))
    frames(app)
    _assert_stopped_at(app, scene, 6, "player: must be a whole number")
    assert scene.session.state.checksum() == recording["steps"][5]["checksum"]  # the good steps were played
    scene.handle(intent("step", delta=1))  # stepping on says it again and stays
    frames(app)
    _assert_stopped_at(app, scene, 6, "step 6")
    scene.handle(intent("step", delta=-4))  # going back works, and forward again stops again
    frames(app)
    assert scene.ctl.index == 2 and scene.stopped is None
    scene.handle(intent("toggle_play"))
    for _ in range(12):
        scene.update(0.5)
    frames(app)
    _assert_stopped_at(app, scene, 6, "cannot be read")


def test_an_illegal_step_stops_the_replay_there(app, tmp_path, recording):
    data = copy.deepcopy(recording)
    data["steps"][3]["action"] = {"type": "EndPhase", "player": 3 - data["steps"][3]["action"]["player"]}
    scene = _open(app, tmp_path, data)
    scene.handle(intent("step", delta=100))
    frames(app)
    _assert_stopped_at(app, scene, 3, "is illegal here")
    assert scene.session.state.checksum() == recording["steps"][2]["checksum"]


@pytest.mark.parametrize("change, words", [({"map": "/etc/passwd"}, "header.map"), ({"rounds": "5"}, "header.rounds"),
                                           ({"armies": ["emberward", "nobody"]}, "unknown army")])
def test_a_replay_with_a_bad_header_is_refused_with_a_message(app, tmp_path, recording, change, words):
    data = copy.deepcopy(recording)
    data["header"].update(change)
    path = tmp_path / "theirs.json"
    path.write_text(json.dumps(data))
    before = app.scene
    problem = app.open_replay(path)
    assert problem is not None and words in problem and app.scene is before
