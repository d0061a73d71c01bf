"""Saves and replays carry the content they were played with (issue 23): a pack game verifies
and loads without the pack; carried content edited after recording is refused as such; hostile
carried content is a clear message; a built-in game carries nothing new."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest

from game.ai.random_bot import RandomBot
from game.data import library
from game.data.content import default_content
from game.rules import Game, Recorder, ReplayError, SaveError, game_for, load_game, verify

REPO = Path(__file__).resolve().parents[2]
PACK = REPO / "examples" / "packs" / "frostmere"
ARMIES = ("frostmere_conclave", "mirecourt")


@pytest.fixture(autouse=True)
def _built_in_library():
    library.set_active(None)
    yield
    library.set_active(None)


def _pack_game(actions: int = 60) -> Recorder:
    lib = library.load_library(None, [PACK], strict=True)
    game = Game.load(armies=ARMIES, battlefield=lib.maps["frostmere_tarn"], content=lib.content_for(ARMIES))
    rec = Recorder.new(game, seed=5)
    bots = {1: RandomBot(1, 5), 2: RandomBot(2, 5)}
    while not rec.state.is_over() and len(rec.steps) < actions:
        rec.apply(bots[rec.state.pending().player].choose(rec.state))
    return rec


@pytest.fixture(scope="module")
def pack_replay() -> dict:
    library.set_active(None)
    return _pack_game().to_dict()


def test_a_pack_games_replay_carries_only_what_its_armies_use(pack_replay: dict) -> None:
    carried = pack_replay["header"]["content_data"]
    assert sorted(a["id"] for a in carried["army"]) == sorted(ARMIES)
    assert "rime_seer" in {w["id"] for w in carried["warscroll"]}
    assert "wandering_blizzard" in {m["id"] for m in carried["manifestation"]}
    assert "pyre_magister" not in {w["id"] for w in carried["warscroll"]}


def test_a_pack_games_replay_verifies_without_the_pack(pack_replay: dict) -> None:
    report = verify(pack_replay)  # the active library is the built-in content alone
    assert report.ok, report.message
    assert report.steps == len(pack_replay["steps"])


def test_a_pack_games_save_loads_without_the_pack(tmp_path: Path) -> None:
    rec = _pack_game(40)
    path = rec.save(tmp_path / "pack.json")
    library.set_active(None)
    game, state, meta = load_game(path)
    assert meta["verified"] and game.armies[0].id == "frostmere_conclave"
    assert state.checksum() == rec.state.checksum()


def test_carried_content_edited_after_recording_is_reported_never_replayed(pack_replay: dict) -> None:
    edited = copy.deepcopy(pack_replay)
    for w in edited["header"]["content_data"]["warscroll"]:
        if w["id"] == "rime_seer":
            w["health"] = 30
    report = verify(edited)
    assert not report.ok and report.first_bad_step == 0
    assert "changed after the game was recorded" in report.message


def test_a_saved_pack_game_edited_after_saving_is_refused(tmp_path: Path) -> None:
    path = _pack_game(20).save(tmp_path / "pack.json")
    doc = json.loads(path.read_text(encoding="utf-8"))
    doc["header"]["content_data"]["ability"][0]["value"] = 2
    path.write_text(json.dumps(doc), encoding="utf-8")
    with pytest.raises(SaveError, match="changed after the game was recorded"):
        load_game(path)


def test_without_carried_content_an_unknown_hash_is_a_clear_message(pack_replay: dict) -> None:
    header = dict(pack_replay["header"])
    del header["content_data"]
    with pytest.raises(ReplayError, match="does not carry and this install does not have"):
        game_for(header)
    # with the pack installed, the library's content with that hash is used
    library.set_active(library.load_library(None, [PACK], strict=True))
    assert game_for(header).content.content_hash == header["content_hash"]


@pytest.mark.parametrize(
    ("content_data", "words"),
    [
        ("everything", "must be an object"),
        ({"warscroll": "many"}, "must be a list"),
        ({"warscroll": [{}] * 1_000_000}, "over the limit"),
        ({"warscroll": [{"id": 5}]}, "header.content_data"),
        ({"army": [{"id": "x", "name": "X", "colour": [1, 2, 3], "units": [{"warscroll": "nope"}]}]}, "nope"),
        ({"spells": []}, "header.content_data"),
    ],
)
def test_hostile_carried_content_is_a_clear_message(pack_replay: dict, content_data, words: str) -> None:
    header = {**pack_replay["header"], "content_data": content_data}
    with pytest.raises(ReplayError, match=words):
        game_for(header)
    report = verify({**pack_replay, "header": header})
    assert not report.ok and words in report.message


def test_a_built_in_games_files_carry_no_content() -> None:
    game = Game.load()
    rec = Recorder.new(game, seed=1)
    assert "content_data" not in rec.to_dict()["header"]
    assert game.content is default_content()
