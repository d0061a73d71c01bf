"""Issue 20: named saves, one save slot and one replay per game, the F5 toast, the log restored on
resume, and the Load and Replays lists (words, newest first, delete asks first, rename)."""

from __future__ import annotations

import json
import os

from game.ai.random_bot import RandomBot
from game.rules import load_game, read_replay, verify
from game.rules.saves import save_bytes
from game.ui import saves_list, storage
from game.ui.intents import intent
from game.ui.position_words import where_text
from game.ui.render import toast
from game.ui.scenes.battle import BattleScene
from game.ui.scenes.menu import MenuScene
from game.ui.scenes.saves import SavesScene
from game.ui.session import Session
from tests.ui.conftest import frames

OPTS = {"map": None, "armies": ("emberward", "mirecourt"), "profile": "aos4", "seed": 5}


def _battle(app, advance: int = 12, ai: dict | None = None) -> BattleScene:
    app.push(MenuScene(app))
    opts = dict(OPTS, **({"ai": ai} if ai else {}))
    assert app.start_battle(opts, advance=advance) is None
    scene = app.scene
    scene.session.autosaving = True  # as in a real window (headless start_battle leaves it off)
    return scene


def _play(scene: BattleScene, n: int) -> None:
    s = scene.session
    bots = {p: RandomBot(p, 99) for p in (1, 2)}
    for _ in range(n):
        if s.state.is_over():
            return
        s.apply(bots[s.decision.player].choose(s.state))



def _leave(scene) -> None:
    """Esc, then yes to "Leave the battle?" (the battle asks first)."""
    scene.handle(intent("back"))
    if getattr(scene, "confirm", None) is not None:
        scene.handle(intent("continue"))

def test_save_info_is_optional_and_a_save_without_it_keeps_its_bytes(tmp_path):
    s = Session.new(seed=3)
    plain = save_bytes(s.state, 3, [])
    assert b'"info"' not in plain  # the bytes of every existing save stay what they were
    p = tmp_path / "a.json"
    p.write_bytes(plain)
    assert load_game(p)[2]["info"] == {}
    storage.save(s, p)
    info = load_game(p)[2]["info"]
    assert info["game_id"] == s.game_id and info["mode"] == "hotseat"
    data = json.loads(p.read_text())
    data["info"] = ["not", "an", "object"]  # display data only: a damaged one never refuses the save
    p.write_text(json.dumps(data))
    assert load_game(p)[2]["info"] == {}
    data["info"] = {"title": "x" * 999, "nested": {"a": 1}, "n": 2, "bad": float("inf")}
    p.write_text(json.dumps(data))
    assert load_game(p)[2]["info"] == {"title": "x" * 200, "n": 2}


def test_f5_shows_the_toast(app):
    scene = _battle(app, advance=30)
    frames(app)
    scene.handle(intent("save"))
    st = scene.state
    assert scene.toast.text == "Saved: " + where_text(st.stage, st.round, st.active, st.phase).lower()
    assert scene.toast.text.startswith("Saved: round ") and "player" in scene.toast.text
    assert "/" not in scene.toast.text and ".json" not in scene.toast.text  # never a file path
    frames(app)
    assert toast.draw(app.screen, scene.field_rect, scene.toast, scene.clock) is not None
    assert scene.message == "" or "saved to" not in scene.message  # the status line keeps its hint
    assert storage.slot_path(scene.session).is_file()
    frames(app, int(60 * (toast.SHOWN + 0.5)))
    assert toast.draw(app.screen, scene.field_rect, scene.toast, scene.clock) is None  # gone after a while


def test_three_leave_resume_cycles_leave_one_save_entry_and_one_verified_replay(app):
    scene = _battle(app)
    game_id = scene.session.game_id
    total = len(scene.session.actions())
    for _ in range(3):
        _play(scene, 5)
        total = len(scene.session.actions())
        _leave(scene)  # leave: the slot and the replay, rewritten
        assert isinstance(app.scene, MenuScene)
        app.scene.handle(intent("menu", go="load"))
        loads = app.scene
        assert isinstance(loads, SavesScene) and len(loads.entries) == 1  # the autosave is the same game
        loads.pick(0)
        loads.handle(intent("open"))
        scene = app.scene
        assert isinstance(scene, BattleScene) and scene.session.game_id == game_id
        scene.session.autosaving = True
    _leave(scene)
    assert [p.name for p in storage.saves_dir().iterdir()] == [f"{game_id}.json"]
    assert [p.name for p in storage.replays_dir().iterdir()] == [f"{game_id}.json"]
    assert len(saves_list.save_entries()) == 1 and len(saves_list.replay_entries()) == 1
    data = read_replay(storage.replays_dir() / f"{game_id}.json")
    report = verify(data)
    assert report.ok and report.steps == total == len(data["steps"]), report.message


def test_the_log_and_the_dice_tray_restore_after_resume(app):
    scene = _battle(app, advance=30)
    frames(app)
    before_log = list(scene._log_lines)
    before_tray = list(scene._tray)
    before = [e.to_dict() for e in scene.session.history]
    assert before_log and before_tray
    _leave(scene)
    assert app.open_save(storage.saves_dir() / f"{scene.session.game_id}.json") is None
    resumed = app.scene
    frames(app)
    assert [e.to_dict() for e in resumed.session.history] == before
    assert len(resumed.session.batches) == len(resumed.session.actions())
    assert resumed._log_lines == before_log and resumed._tray == before_tray


def test_entries_in_words_newest_first_with_mode_map_rules_round_score_and_time(app):
    first = _battle(app, advance=8)
    _leave(first)
    os.utime(storage.slot_path(first.session), (1, 1))  # older on disk (the info's time wins)
    second = _battle(app, advance=8, ai={"level": "normal", "human": 1})
    _leave(second)
    entries = saves_list.save_entries()
    assert len(entries) == 2 and entries[0].when >= entries[1].when
    assert entries[0].path.name == f"{second.session.game_id}.json"  # newest first
    texts = [e.label for e in entries]
    assert "vs AI (normal)" in texts[0] and texts[1].count("Hotseat") == 1
    for t in texts:
        assert "The Emberward Covenant vs " in t and "Current rules" in t and "Ashfall Crossing" in t
        assert "score " in t and "20" in t  # the local time, "2026-12-01 17:40"
        for gid in (first.session.game_id, second.session.game_id):
            assert gid not in t  # no internal id on screen
        assert ".json" not in t and "emberward" not in t
    replays = saves_list.replay_entries()
    assert len(replays) == 2 and "vs AI (normal)" in replays[0].label


def test_a_game_against_the_ai_resumes_against_the_ai(app):
    scene = _battle(app, advance=8, ai={"level": "random", "human": 2})
    _leave(scene)
    assert app.open_save(storage.slot_path(scene.session)) is None
    ctl = app.scene.controllers
    assert getattr(ctl[1], "kind", "") == "bot" and getattr(ctl[2], "kind", "") != "bot"
    assert app.scene.session.info["ai_level"] == "random"


def test_delete_asks_first_and_rename_keeps_the_save_loadable(app):
    scene = _battle(app, advance=8)
    _leave(scene)
    slot = storage.slot_path(scene.session)
    app.scene.handle(intent("menu", go="load"))
    lst = app.scene
    lst.pick(0)
    lst.handle(intent("rename"))
    lst.handle(intent("ui", name="title", value="  Friday   rematch "))
    lst.handle(intent("rename_ok"))
    assert lst.entries[0].title == "Friday rematch"
    assert load_game(slot)[2]["info"]["title"] == "Friday rematch"  # still a whole, checked save
    replay = read_replay(storage.replay_path(scene.session))
    assert replay["info"]["title"] == "Friday rematch" and verify(replay).ok  # the game's replay too
    frames(app)
    lst.pick(0)
    lst.handle(intent("delete"))
    assert lst.mode == "confirm" and slot.exists() and "Friday rematch" in lst.message  # asks first
    lst.handle(intent("cancel"))
    assert slot.exists() and lst.mode == "list"
    lst.handle(intent("delete"))
    lst.handle(intent("delete_ok"))
    assert not slot.exists() and lst.entries == []
    frames(app)


def test_a_damaged_file_is_listed_with_its_reason_and_can_be_deleted(app):
    storage.saves_dir().mkdir(parents=True)
    bad = storage.saves_dir() / "broken.json"
    bad.write_text("{not json")
    edited = storage.saves_dir() / "edited.json"
    s = Session.new(seed=2)
    storage.save(s, edited)
    data = json.loads(edited.read_text())
    data["state"]["round"] = 4  # the checksum no longer matches
    data["info"]["game_id"] = "../../escape"
    edited.write_text(json.dumps(data))
    app.push(MenuScene(app))
    app.scene.handle(intent("menu", go="load"))
    lst = app.scene
    frames(app)
    assert len(lst.entries) == 2 and all(e.problem for e in lst.entries)
    assert any("damaged" in e.details[0] for e in lst.entries)
    lst.pick(0)
    lst.handle(intent("open"))
    assert "cannot be opened" in lst.message and isinstance(app.scene, SavesScene)
    lst.handle(intent("delete"))
    lst.handle(intent("delete_ok"))
    lst.pick(0)
    lst.handle(intent("delete"))
    lst.handle(intent("delete_ok"))
    assert list(storage.saves_dir().iterdir()) == [] and lst.entries == []


def test_an_unsafe_game_id_in_a_save_never_names_a_file(app, tmp_path):
    s = Session.new(seed=2)
    p = tmp_path / "foreign.json"
    storage.save(s, p)
    data = json.loads(p.read_text())
    data["info"]["game_id"] = "../../outside"
    p.write_text(json.dumps(data))
    app.push(MenuScene(app))
    assert app.open_save(p) is None
    gid = app.scene.session.game_id
    assert "/" not in gid and "." not in gid
    assert storage.slot_path(app.scene.session).parent == storage.saves_dir()


def test_the_lists_draw_at_both_window_sizes(app):
    scene = _battle(app, advance=8)
    _leave(scene)
    for size in ((1280, 800), (1000, 650)):
        app.resize(size)
        for kind in ("save", "replay"):
            lst = SavesScene(app, kind)
            app.push(lst)
            frames(app)
            assert len(lst.entries) == 1
            assert lst.list_rect().bottom < size[1] - 42 - 24  # the buttons below the list
            app.pop()


def test_enter_in_the_name_box_keeps_the_new_name_and_esc_cancels():
    """While the player types a name, Enter keeps it and Esc cancels (input: typing keys)."""
    import pygame

    from game.ui.input import InputMapper

    inp = InputMapper()
    enter = pygame.event.Event(pygame.KEYDOWN, key=pygame.K_RETURN, mod=0, unicode="\r")
    esc = pygame.event.Event(pygame.KEYDOWN, key=pygame.K_ESCAPE, mod=0, unicode="")
    letter = pygame.event.Event(pygame.KEYDOWN, key=pygame.K_e, mod=0, unicode="e")
    assert [i.kind for i in inp._translate(enter, False, True)] == ["continue"]
    assert [i.kind for i in inp._translate(esc, False, True)] == ["back"]
    assert inp._translate(letter, False, True) == []  # a letter is the text box's, not "end phase"
