"""The typed records kept in the state (game.rules.stored): the decision frames
(game.rules.frames) and the use counters (game.rules.allowances).

They save exactly as the untyped dicts they replaced (state format 1): whole bot games write the
same `to_dict()` bytes after every action as the engine did before (pinned in
fixtures/format1/games.json, made on the old code by tests/rules/format1.py), and saves written
by the old engine load, continue, and are written back byte for byte. Every record type
round-trips through State.to_dict / State.from_dict, and its schema is derived from its class.
"""

from __future__ import annotations

import copy
import dataclasses
import json

import pytest

from game.rules.actions import Action
from game.rules.allowances import (
    ArmyUses,
    PlayerUses,
    UnitUses,
    army_uses,
    dispel_targets,
    fresh_turn_uses,
    record_army_uses,
    uses,
)
from game.rules.frames import (
    FRAME_TYPES,
    ChargeMoveFrame,
    DispelFrame,
    FightFrame,
    Frame,
    PredatoryControlFrame,
    PredatoryMoveFrame,
    RitualChoiceFrame,
    SummonSetupFrame,
    UnbindFrame,
    frame_from_dict,
    pop,
    top,
)
from game.rules.saves import load_game, save_bytes
from game.rules.state import State
from game.rules.state_check import doc_model, state_problems
from game.rules.stored import Stored
from game.rules.turn import TURN
from tests.rules.format1 import FIXTURES, GAMES, features, play

PINNED = json.loads((FIXTURES / "games.json").read_text())
SAVES = sorted(set(PINNED["saves"].values()))


def _blob(state: State) -> str:
    return json.dumps(state.to_dict())  # key order included: what a save writes


# --- the same bytes as before ---------------------------------------------------------------------


@pytest.mark.parametrize("bot, profile, seed", GAMES)
def test_whole_games_write_the_same_state_bytes_after_every_action_as_format_1(bot, profile, seed):
    assert play(bot, profile, seed) == PINNED["games"][f"{bot} {profile} {seed}"]


def test_the_old_saves_show_every_frame_kind_and_every_kind_of_use_counter():
    shown = set(PINNED["saves"])
    assert {f"frame_{k}" for k in FRAME_TYPES} <= shown
    assert {"uses_unit", "uses_dispelled", "uses_player", "army_removed", "army_removed_abilities_summon_attempts"} <= shown


@pytest.mark.parametrize("name", SAVES)
def test_a_format_1_save_loads_as_typed_records_and_is_written_back_byte_for_byte(name, tmp_path):
    path = FIXTURES / name
    raw = path.read_bytes()
    game, state, meta = load_game(path)
    assert meta["verified"]  # its history re-played to the saved state with the typed records
    assert save_bytes(state, meta["seed"], meta["history"]) == raw
    saved = json.loads(raw)["state"]
    assert _blob(state) == json.dumps(saved)
    assert all(isinstance(f, Frame) for f in state.decisions)
    assert all(isinstance(u, PlayerUses if k.startswith("player") else UnitUses) for k, u in state.phase_uses.items())
    assert all(isinstance(t, ArmyUses) for t in state.turn_uses.values())
    for feat in features(saved):
        if feat.startswith("frame_"):
            assert any(f.kind == feat.removeprefix("frame_") for f in state.decisions)
    # a clone and a from_dict of it write the same bytes, and so does the state once continued
    assert _blob(state.clone()) == _blob(State.from_dict(json.loads(json.dumps(saved)), game)) == json.dumps(saved)


def test_a_loaded_format_1_save_continues_as_the_state_the_engine_reaches_from_the_start():
    """The old engine's save at random aos3 26's 68th action (a predatory_control frame open)
    is the state its history re-played from the start reaches, and the two go on alike: the
    same choices of equally seeded bots, the same events and the same bytes after every action
    to the end of the game."""
    from game.ai.registry import make_bot

    game, state, meta = load_game(FIXTURES / "random-aos3-26-action68.json")
    fresh = game.new_state(seed=26)
    for h in meta["history"]:
        fresh.apply(Action.from_dict(h))
    assert _blob(fresh) == _blob(state)
    assert any(f.kind == "predatory_control" for f in state.decisions)
    bots = {1: make_bot("random", 1, 26), 2: make_bot("random", 2, 27)}
    twins = {1: make_bot("random", 1, 26), 2: make_bot("random", 2, 27)}
    while not state.is_over():
        action = bots[state.pending().player].choose(state)
        assert twins[fresh.pending().player].choose(fresh) == action
        assert [e.to_dict() for e in state.apply(action)] == [e.to_dict() for e in fresh.apply(action)]
        assert _blob(state) == _blob(fresh)


# --- every record type round-trips ---------------------------------------------------------------


@pytest.fixture(scope="module")
def base():
    """A battle-stage state of the old saves, with manifestations on the battlefield."""
    game, state, _ = load_game(FIXTURES / "random-aos4-1-action93.json")
    return state


def _records(state: State) -> list[Stored]:
    content, units = state.game.content, list(state.units)
    spell = next(a.id for a in content.abilities.values() if a.kind == "spell")
    prayer = next(a.id for a in content.abilities.values() if a.kind == "prayer")
    scroll = next(iter(content.manifestations))
    mids = list(state.manifestations)
    return [
        UnbindFrame(player=2, caster=units[0], model=0, spell=spell, target=units[-1], roll=7),
        UnbindFrame(player=1, caster=units[0], model=0, spell=spell, target=None, roll=12),
        RitualChoiceFrame(player=1, unit=units[1], model=0, prayer=prayer, target=None, roll=3),
        ChargeMoveFrame(player=1, unit=units[2], roll=9),
        ChargeMoveFrame(player=2, unit=mids[0], roll=4),  # a manifestation that charges like a unit (M10)
        FightFrame(player=2, passed=[1]),
        FightFrame(player=1, passed=[]),
        DispelFrame(player=2),
        SummonSetupFrame(player=1, unit=units[0], model=0, scroll=scroll),
        PredatoryControlFrame(player=2, unit=units[-1], candidates=mids),
        PredatoryMoveFrame(player=1, stage="wild", moved=mids[:1], next_wild=2),
        UnitUses(),
        UnitUses(power=2, unbinds=1, used=[spell, "banish"], no_cast=True, summons=1, penalty=1, dispelled=True),
        PlayerUses(dispel_targets=mids),
        ArmyUses(),
        ArmyUses(removed=[scroll]),
        ArmyUses(abilities=[spell, spell], summon_attempts=[scroll]).mark("summon_attempts", "abilities", "removed"),
    ]


def test_frame_kinds_are_the_turn_tables_and_each_frame_saves_its_kind_first():
    assert set(FRAME_TYPES) == set(TURN.decisions)
    for kind, cls in FRAME_TYPES.items():
        fields = [f.name for f in dataclasses.fields(cls)]
        assert fields[0] == "player" and cls.kind == kind
        assert list(doc_model(cls).model_fields) == ["kind", *fields]


def test_every_record_type_round_trips_through_the_state(base):
    covered: set[type] = set()
    for rec in _records(base):
        s = base.clone()
        if isinstance(rec, Frame):
            s.decisions = [rec]
        elif isinstance(rec, ArmyUses):
            s.turn_uses = {"1": ArmyUses(), "2": rec}
        elif isinstance(rec, PlayerUses):
            s.phase_uses = {"player2": rec}
        else:
            s.phase_uses = {next(iter(s.units)): rec}
        d = json.loads(json.dumps(s.to_dict()))
        assert state_problems(d, s.game) == [], rec
        back = State.from_dict(d, s.game)
        got = back.decisions[0] if isinstance(rec, Frame) else (
            back.turn_uses["2"] if isinstance(rec, ArmyUses) else next(iter(back.phase_uses.values())))
        assert type(got) is type(rec) and got == rec and got is not rec
        assert json.dumps(back.to_dict()) == json.dumps(s.to_dict())
        assert json.dumps(s.clone().to_dict()) == json.dumps(s.to_dict())
        # on its own: to_dict, from_dict (checked), copy
        alone = rec.to_dict()
        assert type(rec).from_dict(copy.deepcopy(alone)) == rec and rec.copy() == rec
        if isinstance(rec, Frame):
            assert next(iter(alone)) == "kind" and frame_from_dict(alone) == rec
        covered.add(type(rec))
    assert covered == set(FRAME_TYPES.values()) | {UnitUses, PlayerUses, ArmyUses}


def test_the_saved_dicts_are_format_1s():
    """The exact dicts the untyped engine wrote (keys, their order, what is left out)."""
    assert UnitUses().to_dict() == {"power": 0, "unbinds": 0, "used": [], "no_cast": False, "summons": 0, "penalty": 0}
    assert list(UnitUses(dispelled=True, penalty=1).to_dict()) == [
        "power", "unbinds", "used", "no_cast", "summons", "penalty", "dispelled"]
    assert PlayerUses(["m1"]).to_dict() == {"dispel_targets": ["m1"]}
    # an army's lists are saved once recorded this turn, in the order first recorded
    assert ArmyUses().to_dict() == {}
    t = ArmyUses()
    t.mark("removed").removed.append("lights")
    assert json.dumps(t.to_dict()) == '{"removed": ["lights"]}'
    t.mark("abilities", "summon_attempts", "removed").abilities.append("spark_lash")
    assert json.dumps(t.to_dict()) == '{"removed": ["lights"], "abilities": ["spark_lash"], "summon_attempts": []}'
    assert json.dumps(ArmyUses.from_dict(json.loads(json.dumps(t.to_dict()))).to_dict()) == json.dumps(t.to_dict())
    # nothing filled in is ever left out of the save
    assert ArmyUses(summon_attempts=["lights"]).to_dict() == {"summon_attempts": ["lights"]}
    t = ArmyUses()
    t.abilities.append("spark_lash")
    assert t.to_dict() == {"abilities": ["spark_lash"]}
    with pytest.raises(ValueError, match="not 'spells'"):
        t.mark("spells")
    f = UnbindFrame(player=2, caster="p1u0", model=0, spell="spark_lash", target=None, roll=7)
    assert json.dumps(f.to_dict()) == (
        '{"kind": "unbind", "player": 2, "caster": "p1u0", "model": 0, "spell": "spark_lash", "target": null, "roll": 7}')
    assert fresh_turn_uses() == {"1": ArmyUses(), "2": ArmyUses()}


def test_copies_share_nothing(base):
    s = base.clone()
    s.decisions = [PredatoryMoveFrame(player=1, stage="controlled", moved=[], next_wild=1), FightFrame(player=1, passed=[])]
    s.phase_uses = {"p1u0": UnitUses(used=["banish"]), "player1": PlayerUses(["m1"])}
    record_army_uses(s, 1).abilities.append("banish")
    c = s.clone()
    c.decisions[0].moved.append("m1")
    c.decisions[1].passed.append(2)
    uses(c, "p1u0").used.append("spark_lash")
    dispel_targets(c, 1).append("m2")
    army_uses(c, 1).abilities.append("spark_lash")
    army_uses(c, 1).mark("removed")
    assert s.decisions[0].moved == [] and s.decisions[1].passed == []
    assert uses(s, "p1u0").used == ["banish"] and dispel_targets(s, 1) == ["m1"]
    assert army_uses(s, 1).abilities == ["banish"] and army_uses(s, 1).recorded == ["abilities", "summon_attempts", "removed"]
    d = s.to_dict()
    d2 = copy.deepcopy(d)
    back = State.from_dict(d, s.game)
    back.decisions[0].moved.append("m1")
    uses(back, "p1u0").used.append("spark_lash")
    assert d == d2  # nothing of the dict is shared with the state read from it


def test_reading_uses_changes_nothing(base):
    s = base.clone()
    s.phase_uses, s.turn_uses = {}, fresh_turn_uses()
    before = _blob(s)
    assert uses(s, "p1u0") == UnitUses() and dispel_targets(s, 1) == [] and army_uses(s, 1).abilities == []
    assert _blob(s) == before and s.phase_uses == {}


# --- the schema is the class's ------------------------------------------------------------------


@pytest.mark.parametrize("cls, d, words", [
    (UnbindFrame, {"kind": "unbind", "player": 2, "caster": "a", "model": 0, "spell": "s", "target": None, "roll": "7"},
     "UnbindFrame: roll: must be a whole number"),
    (UnbindFrame, {"kind": "unbind", "player": 2, "caster": "a", "model": 0, "spell": "s", "target": None},
     "UnbindFrame: roll: missing required field"),
    (FightFrame, {"kind": "fight", "player": 1, "passed": [1.5]}, "FightFrame: passed[0]: must be a whole number"),
    (PredatoryControlFrame, {"kind": "predatory_control", "player": 1, "unit": "u", "candidates": []},
     "candidates: must have at least 1 item"),
    (PredatoryMoveFrame, {"kind": "predatory_move", "player": 1, "stage": "x", "moved": [], "next_wild": 1},
     "stage: must be 'controlled' or 'wild'"),
    (DispelFrame, {"kind": "dispel", "player": 1, "extra": 2}, "extra: unknown key"),
    (DispelFrame, {"kind": "fight", "player": 1}, "kind: must be 'dispel'"),
    (UnitUses, {"power": 0, "unbinds": 0, "used": [], "no_cast": 0, "summons": 0, "penalty": 0}, "no_cast: must be a valid boolean"),
    (UnitUses, {"power": 0}, "unbinds: missing required field"),
    (ArmyUses, {"abilities": [3]}, "abilities[0]: must be a valid string"),
    (ArmyUses, {"recorded": []}, "recorded: unknown key"),  # kept in memory only
    (PlayerUses, {}, "dispel_targets: missing required field"),
])
def test_from_dict_checks_against_the_derived_schema(cls, d, words):
    with pytest.raises(ValueError, match=words.replace("[", r"\[").replace("]", r"\]")):
        cls.from_dict(d)


def test_a_state_with_a_bad_record_is_refused_with_its_path(base):
    d = base.to_dict()
    for change, words in (
        (lambda d: d["decisions"].append({"kind": "teleport", "player": 1}), "decisions[1].kind: must be one of"),
        (lambda d: d["decisions"].append(5), "decisions[1]: must be an object, got 5"),
        (lambda d: d["phase_uses"].update({"p1u0": 5}), "phase_uses.p1u0: must be an object, got 5"),
        (lambda d: d["phase_uses"].update({"player1": {"dispel_targets": 3}}), "phase_uses.player1.dispel_targets: must be a list"),
        (lambda d: d["turn_uses"].update({"1": {"removed": None}}), "turn_uses.1.removed: must be a list"),
        (lambda d: d["turn_uses"].update({"3": {}}), "turn_uses.3: unknown key"),
    ):
        bad = copy.deepcopy(d)
        change(bad)
        problems = state_problems(bad, base.game)
        assert any(p.startswith(words) for p in problems), (words, problems)
    with pytest.raises(ValueError, match="decision kind must be one of unbind, ritual_choice"):
        frame_from_dict({"kind": "teleport", "player": 1})


def test_top_and_pop_name_the_frame_they_expected(base):
    s = base.clone()
    s.decisions = [DispelFrame(player=1)]
    assert top(s, DispelFrame) is s.decisions[-1]
    with pytest.raises(TypeError, match="the open decision is a 'dispel' frame, not 'fight'"):
        pop(s, FightFrame)
    assert len(s.decisions) == 1 and isinstance(pop(s, DispelFrame), DispelFrame) and s.decisions == []
