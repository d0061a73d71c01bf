"""Issue 23 end to end: a player imports their own map, builds their own list in the army builder,
plays it against the AI on that map, exports the game's replay from the Replays list, and a
friend with a fresh install (no list, no map) verifies it with `spellfield replay FILE --verify`
and watches it in the replay viewer, which names the armies and the map.

Both sides are driven through the battle scene's own `_apply` (the human's side by a random bot,
the AI's side by the AI controller's own bot), so that the game ends in a few seconds."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from game import cli
from game.ai.random_bot import RandomBot
from game.data import library
from game.rules import data_dir
from game.ui import choices, saves_list, storage
from game.ui.intents import intent
from game.ui.scenes.battle import BattleScene
from game.ui.scenes.builder import BuilderScene
from game.ui.scenes.menu import MenuScene, VsAIScene
from game.ui.scenes.replay import ReplayScene
from game.ui.scenes.saves import SavesScene

ROOT = Path(__file__).resolve().parents[2]
TMX = ROOT / "examples" / "maps" / "thornwall_pass.tmx"


@pytest.fixture(autouse=True)
def _library():
    library.set_active(library.load_library(data_dir()), data_dir())
    yield
    library.set_active(None)


def b(scene, op: str, **kw) -> None:
    scene.handle(intent("builder", op=op, **kw))


def fresh_install(tmp_path: Path, monkeypatch) -> Path:
    """Another machine: an empty data folder (no list, no map) made the active one."""
    fresh = tmp_path / "friend"
    monkeypatch.setenv("SPELLFIELD_DATA_DIR", str(fresh / "data"))
    monkeypatch.setenv("SPELLFIELD_HOME", str(fresh / "data"))
    library.set_active(library.load_library(data_dir()), data_dir())
    return fresh


def test_own_list_on_own_map_vs_ai_then_a_friend_verifies_the_replay(app, tmp_path, monkeypatch, capsys) -> None:
    # the map, imported with the import-map command
    assert cli.main(["import-map", str(TMX)]) == 0
    assert (data_dir() / "maps" / "thornwall_pass.toml").is_file()
    library.reload()
    # the list, built and saved in the army builder
    menu = MenuScene(app)
    app.push(menu)
    menu.handle(intent("menu", go="builder"))
    builder = app.scene
    assert isinstance(builder, BuilderScene)
    b(builder, "faction", keyword="MIRECOURT")
    builder.handle(intent("ui", name="list_name", value="Fen Patrol"))
    for w in ("reed_witch", "fen_oracle", "mire_wardens", "reedstalker_archers"):
        b(builder, "add", warscroll=w)
    builder.handle(intent("ui", name="points_limit", value=builder.limit_label(500)))
    assert builder.problems() == [] and builder.unsaved()
    b(builder, "save")
    assert not builder.unsaved() and "offered in" in builder.message
    builder.handle(intent("back"))  # saved: no question
    assert app.scene is menu
    # Play vs AI, normal level, with that list on that map
    menu.handle(intent("menu", go="vs_ai"))
    form = app.scene
    assert isinstance(form, VsAIScene)
    mine = choices.by_id(form.options["army1"], "fen_patrol")
    assert "325 of 500 points" in choices.description(mine)
    thornwall = choices.by_id(form.options["map"], "thornwall_pass")
    assert choices.label(thornwall).startswith("Thornwall Pass")
    form.handle(intent("ui", name="map", value=choices.label(thornwall)))
    form.handle(intent("ui", name="army1", value=choices.label(mine)))
    form.handle(intent("ui", name="level", value="Normal"))
    form.handle(intent("start"))
    battle = app.scene
    assert isinstance(battle, BattleScene) and form.message == ""
    session = battle.session
    assert session.info["mode"] == "ai" and session.info["ai_level"] == "normal"
    assert session.game.army(1).name == "Fen Patrol" and session.game.battlefield.map.id == "thornwall_pass"
    # to the end: the human's side by a random bot, the AI's by its controller's own bot
    bots = {1: RandomBot(1, 4), 2: battle.controllers[2].bot}
    for _ in range(2000):
        if session.state.is_over():
            break
        battle._apply(bots[session.decision.player].choose(session.state))
    assert session.state.is_over()
    app.frame(1 / 60)
    assert any("Replays" in line for line in battle.view.lines)  # the end panel says where the replay is
    battle.handle(intent("back"))  # a finished game is left at once
    app.frame(1 / 60)
    # the Replays list has it, by name, and exports a file to send
    menu = app.scene
    assert isinstance(menu, MenuScene)
    menu.handle(intent("menu", go="replays"))
    replays = app.scene
    assert isinstance(replays, SavesScene)
    assert [e.title for e in replays.entries] == ["Fen Patrol vs The Mirecourt Circle"]
    assert "Thornwall Pass" in replays.entries[0].details[0]
    replays.pick(0)
    replays.handle(intent("export"))
    exported = storage.exports_dir() / "Fen_Patrol_vs_The_Mirecourt_Circle.json"
    assert exported.is_file() and str(exported) in replays.message and not replays.message_bad
    sent = tmp_path / "sent" / "our_game.json"
    sent.parent.mkdir()
    shutil.copy(exported, sent)
    while app.scenes:
        app.pop()

    # a friend's machine: nothing of ours installed
    fresh = fresh_install(tmp_path, monkeypatch)
    assert "fen_patrol" not in library.active().content.armies and "thornwall_pass" not in library.active().maps
    capsys.readouterr()
    assert cli.main(["replay", str(sent), "--verify"]) == 0
    out = capsys.readouterr().out
    assert "on Thornwall Pass, Fen Patrol vs The Mirecourt Circle" in out and "Current rules" in out
    assert "OK: all" in out
    assert "fen_patrol" not in out and "thornwall_pass" not in out.replace(str(sent), "")
    assert app.open_replay(sent) is None
    viewer = app.scene
    assert isinstance(viewer, ReplayScene)
    viewer.step(40)
    app.frame(1 / 60)
    assert viewer.stopped is None and viewer.mismatch is None
    assert "Fen Patrol vs The Mirecourt Circle, on Thornwall Pass" in viewer.view.lines
    assert not (fresh / "data" / "armies").exists() and not (fresh / "data" / "maps").exists()


def test_spellfield_replay_verifies_in_a_subprocess_without_the_pack(tmp_path, monkeypatch) -> None:
    """The command a friend types, in its own process, with an empty data folder."""
    import os
    import subprocess
    import sys

    from game.data.army_lists import save_list
    from game.data.models import Army, ArmyUnit
    from game.rules import Recorder, write_json_atomic
    from game.ui.session import Session

    content = library.active().content
    army = Army.model_construct(
        id="x", name="Fen Patrol", description="", colour=(20, 120, 90), general=0, points_limit=1000,
        units=[ArmyUnit(warscroll="reed_witch"), ArmyUnit(warscroll="mire_wardens")],
        spell_lore="lore_of_the_fen", prayer_lore=None, manifestation_lore=None,
    )  # fmt: skip
    save_list(data_dir(), army, content=content)
    library.reload()
    session = Session.new(armies=("fen_patrol", "emberward"), seed=3)
    bots = {1: RandomBot(1, 3), 2: RandomBot(2, 3)}
    for _ in range(60):
        if session.state.is_over():
            break
        session.apply(bots[session.decision.player].choose(session.state))
    rec: Recorder = session.recorder
    out = write_json_atomic(tmp_path / "game.json", rec.to_dict(), what="replay")
    env = {**os.environ, "SPELLFIELD_DATA_DIR": str(tmp_path / "empty"), "SPELLFIELD_LANG": "en"}
    env["PYTHONPATH"] = str(ROOT) + os.pathsep + env.get("PYTHONPATH", "")
    r = subprocess.run(
        [sys.executable, "-m", "game.cli", "replay", str(out), "--verify"],
        env=env, capture_output=True, text=True, timeout=120, cwd=tmp_path,
    )  # fmt: skip
    assert r.returncode == 0, r.stderr
    assert "Fen Patrol vs The Emberward Covenant" in r.stdout and "OK: all" in r.stdout
    assert saves_list._file_stem("Fen Patrol vs The Mirecourt Circle") == "Fen_Patrol_vs_The_Mirecourt_Circle"
