"""Files players send each other (replays, saves) never break the game that reads them.

Actions and events are decoded by type; a save is checked whole (header, history, state against
the game, history re-played to the saved state); a header names only a shipped map or carries
its own. Every refusal names the file, the step or field, and the reason.
"""

from __future__ import annotations

import copy
import json
import math
import time
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import game.rules  # noqa: F401  (registers every action and event type)
from game.ai.random_bot import RandomBot
from game.cli import main
from game.data.content import list_maps, load_map
from game.rules import Game
from game.rules.actions import Action
from game.rules.dice import dice_from_dict
from game.rules.events import Event
from game.rules.frames import FRAME_TYPES
from game.rules.records import record_fields
from game.rules.replay import ReplayError, game_for, read_replay, verify
from game.rules.saves import SaveError, load_game, replay_from_save, save_game, state_checksum
from game.rules.session import Recorder
from game.rules.state import State
from game.rules.state_check import state_problems
from game.rules.turn import TURN
from game.rules.units import ManifestationState, UnitState

NAN, INF = float("nan"), float("inf")


# --- shared games ------------------------------------------------------------------------------


def _record(profile: str, seed: int, steps: int | None = None, battlefield=None) -> Recorder:
    game = Game.load(profile=profile, battlefield=battlefield)
    rec = Recorder(game, seed, game.new_state(seed=seed))
    bots = {1: RandomBot(1, seed), 2: RandomBot(2, seed)}
    while not rec.state.is_over() and (steps is None or len(rec.steps) < steps):
        rec.apply(bots[rec.state.pending().player].choose(rec.state))
    return rec


@pytest.fixture(scope="module")
def games() -> dict[str, Recorder]:
    """Whole random-bot games in both profiles: the actions a real game produces."""
    return {"aos4": _record("aos4", 2), "aos3": _record("aos3", 5)}


@pytest.fixture(scope="module")
def replay_data() -> dict:
    return _record("aos4", 7, steps=90).to_dict()


# --- typed decoding: every field of every record type --------------------------------------------

GOOD = {"int": 2, "float": 1.5, "str": "p1u0", "str | None": None, "bool": True, "int | None": None}


def _good_value(tp) -> object:
    s = str(tp)
    if s in GOOD:
        return GOOD[s]
    if tp is int:
        return 2
    if tp is float:
        return 1.5
    if tp is str:
        return "p1u0"
    if tp is bool:
        return True
    if s.startswith("tuple[tuple[float, float]"):
        return [[1.5, 2], [3.25, 4.0]]
    if s == "tuple[int, ...]":
        return [1, 2]
    if s == "tuple[int, int]":
        return [3, 4]
    if s == "tuple[str, ...]":
        return ["m1"]
    if s in ("tuple[tuple[float, float], tuple[float, float]]",):
        return [[1.0, 2.0], [3.0, 4.0]]
    if s == "tuple[float, float]":
        return [1.0, 2.0]
    raise AssertionError(f"no sample value for {s}")


def _valid(cls) -> dict:
    return {"type": cls.__name__, **{n: _good_value(t) for n, t in record_fields(cls).items()}}


SCALAR_BAD = [{}, [], [1, 2]]  # an object or a list is never a scalar


def _bad_values(tp) -> list[tuple[object, str]]:
    """(wrong value, the words its error must contain) for a field annotated `tp`."""
    s = str(tp)
    if tp is int or s == "int | None":
        bad = [("2", "whole number"), (True, "got true"), (1.5, "got 1.5"), (2.0, "whole number"), (NAN, "got NaN"),
               (INF, "got Infinity")] + [(v, "whole number") for v in SCALAR_BAD]
        return bad + ([] if "None" in s else [(None, "got null")])
    if tp is float:
        return [("1.5", "finite number"), (True, "got true"), (None, "got null"), (NAN, "must be a finite number, got NaN"),
                (INF, "got Infinity"), (-INF, "got -Infinity")] + [(v, "finite number") for v in SCALAR_BAD]
    if tp is str or s == "str | None":
        bad = [(1, "must be a string"), (True, "got true"), (NAN, "got NaN")] + [(v, "string") for v in SCALAR_BAD]
        return bad + ([] if "None" in s else [(None, "got null")])
    if tp is bool:
        return [(1, "true or false"), ("true", "true or false"), (None, "got null")]
    if s.startswith("tuple[tuple[float, float], ...]"):
        return [("x", "must be a list"), ({}, "must be a list"), (1.5, "must be a list"), (None, "got null"),
                ([[1, 2, 3]], "[0]: must be a point [x, y], got [1, 2, 3]"), ([[1]], "[0]: must be a point"),
                ([["a", 2]], "[0][0]: must be a finite number"), ([[1, NAN]], "[0][1]: must be a finite number, got NaN"),
                ([[INF, 1]], "[0][0]: must be a finite number, got Infinity"), ([[True, 1]], "[0][0]"),
                ([{"x": 1, "y": 2}], "[0]: must be a point")]
    if s.startswith("tuple["):
        want = "must be a point [x, y]" if s == "tuple[float, float]" else "must be a list"
        return [("x", want), ({}, want), (None, "got null"), (1, want)]
    raise AssertionError(f"no wrong values for {s}")


@pytest.mark.parametrize(
    "family, cls",
    [pytest.param(f, c, id=c.__name__) for f in (Action, Event) for c in f.registry.values()],
)
def test_an_ill_typed_field_is_a_value_error_naming_the_type_and_the_field(family, cls):
    good = _valid(cls)
    assert family.from_dict(json.loads(json.dumps(good))) is not None  # the sample itself decodes
    wrong: list[str] = []
    cases = 0
    for name, tp in record_fields(cls).items():
        for value, words in _bad_values(tp):
            cases += 1
            try:
                family.from_dict({**good, name: value})
            except ValueError as exc:
                msg = str(exc)
                if f"{cls.__name__}.{name}" not in msg or words not in msg:
                    wrong.append(f"{name}={value!r}: {msg!r} lacks {words!r}")
            else:
                wrong.append(f"{name}={value!r}: accepted")
    assert cases and not wrong, "\n".join(wrong)


def test_the_messages_read_like_the_issue_asks():
    bad = {"type": "MoveUnit", "player": 1, "unit": "p1u0", "to": [[3.0, 4.0], [5, NAN]]}
    with pytest.raises(ValueError, match=r"^MoveUnit\.to\[1\]\[1\]: must be a finite number, got NaN$"):
        Action.from_dict(bad)
    with pytest.raises(ValueError, match=r"^CastSpell\.model: must be a whole number, got 1\.5$"):
        Action.from_dict({"type": "CastSpell", "player": 1, "unit": "p1u0", "spell": "s", "model": 1.5})
    with pytest.raises(ValueError, match=r"CastSpell\.spell: missing \(must be a string\)"):
        Action.from_dict({"type": "CastSpell", "player": 1, "unit": "p1u0"})
    with pytest.raises(ValueError, match=r"EndPhase: unknown field\(s\) extra"):
        Action.from_dict({"type": "EndPhase", "player": 1, "extra": 3})
    with pytest.raises(ValueError, match='unknown action type "Teleport"'):
        Action.from_dict({"type": "Teleport", "player": 1})
    with pytest.raises(ValueError, match="expected an object"):
        Action.from_dict([1, 2])


def test_an_int_is_fine_for_a_float_and_stays_an_int_so_round_trips_are_exact():
    d = {"type": "MoveUnit", "player": 1, "unit": "p1u0", "to": [[3, 4.5]]}
    a = Action.from_dict(d)
    assert a.to == ((3, 4.5),) and type(a.to[0][0]) is int and type(a.to) is tuple and type(a.to[0]) is tuple
    assert json.dumps(a.to_dict()) == json.dumps(d)


def test_every_record_type_has_a_typed_decoder():
    for family in (Action, Event):
        for cls in family.registry.values():
            d = json.loads(json.dumps(_valid(cls)))
            assert family.from_dict(d).to_dict() == d, cls.__name__


def test_every_action_and_event_of_real_games_round_trips_exactly(games):
    n = 0
    for rec in games.values():
        game = rec.game
        state = game.new_state(seed=rec.seed)
        for st_ in rec.steps:
            d = json.loads(json.dumps(st_["action"]))
            a = Action.from_dict(d)
            assert json.dumps(a.to_dict()) == json.dumps(d)
            for e in state.apply(a):
                ed = json.loads(json.dumps(e.to_dict()))
                assert Event.from_dict(ed) == e and json.dumps(Event.from_dict(ed).to_dict()) == json.dumps(ed)
            n += 1
    assert n > 300


_finite = st.floats(allow_nan=False, allow_infinity=False, width=64)


def _strategy(tp):
    s = str(tp)
    if tp is bool:
        return st.booleans()
    if tp is int:
        return st.integers(-(10**12), 10**12)
    if tp is float:
        return st.one_of(_finite, st.integers(-1000, 1000))
    if tp is str:
        return st.text(max_size=12)
    if s == "str | None":
        return st.none() | st.text(max_size=12)
    if s == "int | None":
        return st.none() | st.integers(-5, 5)
    if s.startswith("tuple[tuple[float, float], ...]"):
        return st.lists(st.tuples(_finite, _finite), max_size=5).map(tuple)
    if s == "tuple[int, ...]":
        return st.lists(st.integers(1, 6), max_size=6).map(tuple)
    if s == "tuple[str, ...]":
        return st.lists(st.text(max_size=5), max_size=4).map(tuple)
    if s == "tuple[int, int]":
        return st.tuples(st.integers(0, 99), st.integers(0, 99))
    if s == "tuple[float, float]":
        return st.tuples(_finite, _finite)
    if s == "tuple[tuple[float, float], tuple[float, float]]":
        return st.tuples(st.tuples(_finite, _finite), st.tuples(_finite, _finite))
    raise AssertionError(s)


_ALL = [*Action.registry.values(), *Event.registry.values()]


@st.composite
def _records(draw):
    cls = draw(st.sampled_from(_ALL))
    return cls(**{n: draw(_strategy(t)) for n, t in record_fields(cls).items()})


@settings(max_examples=300, deadline=None)
@given(_records())
def test_any_well_typed_record_round_trips_exactly_through_json(rec):
    family = Action if isinstance(rec, Action) else Event
    d = json.loads(json.dumps(rec.to_dict()))
    back = family.from_dict(d)
    assert back == rec and json.dumps(back.to_dict()) == json.dumps(rec.to_dict())


def test_decoding_a_400_action_replay_takes_a_few_milliseconds(games):
    actions = [s["action"] for rec in games.values() for s in rec.steps][:400]
    assert len(actions) == 400
    for a in actions:
        Action.from_dict(a)  # build the decoders first
    best = math.inf
    for _ in range(5):
        t = time.perf_counter()
        for a in actions:
            Action.from_dict(a)
        best = min(best, time.perf_counter() - t)
    # Measured on this machine: 1.1 ms before typed decoding, 0.75 ms after; the bound is loose.
    assert best < 0.015, f"{best * 1000:.1f} ms"


# --- replays --------------------------------------------------------------------------------------


def _bad_for(tp):
    return [v for v, _ in _bad_values(tp)]


@st.composite
def _mutations(draw, steps):
    i = draw(st.integers(0, len(steps) - 1))
    d = steps[i]["action"]
    cls = Action.registry[d["type"]]
    fields = record_fields(cls)
    name = draw(st.sampled_from(sorted(fields)))
    value = draw(st.sampled_from(_bad_for(fields[name])))
    return i, name, value


@pytest.fixture(scope="module")
def replay_steps(replay_data):
    return replay_data["steps"]


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_a_replay_with_one_ill_typed_action_fails_verify_at_that_step_and_never_raises(replay_data, data):
    i, name, value = data.draw(_mutations(replay_data["steps"]))
    mutated = copy.deepcopy(replay_data)
    mutated["steps"][i]["action"][name] = value
    report = verify(json.loads(json.dumps(mutated)))
    assert not report.ok and report.first_bad_step == i and report.steps == i
    assert report.message.startswith(f"steps[{i}].action: ") and f".{name}" in report.message


def test_verify_never_raises_on_a_broken_file_or_a_well_typed_but_impossible_action(replay_data):
    assert verify(replay_data).ok
    for broken in ({}, [], {"format": "spellfield-replay", "version": 1, "header": {"map": 3}, "steps": []}):
        report = verify(broken)  # type: ignore[arg-type]
        assert not report.ok and report.first_bad_step == 0
    for change in ({"unit": "nobody"}, {"player": 3}, {"player": -(2**70)}):
        mutated = copy.deepcopy(replay_data)
        i = next(k for k, s in enumerate(mutated["steps"]) if s["action"]["type"] == "MoveUnit")
        mutated["steps"][i]["action"].update(change)
        report = verify(mutated)
        assert not report.ok and report.first_bad_step == i and "illegal" in report.message


def test_the_replay_command_reports_an_ill_typed_action_as_a_mismatch(replay_data, tmp_path, capsys):
    mutated = copy.deepcopy(replay_data)
    i = next(k for k, s in enumerate(mutated["steps"]) if s["action"]["type"] == "MoveUnit")
    mutated["steps"][i]["action"]["to"][0][1] = NAN
    path = tmp_path / "game.json"
    path.write_text(json.dumps(mutated))  # json writes NaN, as other tools may
    assert main(["replay", str(path), "--verify"]) == 1
    out = capsys.readouterr()
    assert f"MISMATCH: steps[{i}].action: MoveUnit.to[0][1]: must be a finite number, got NaN" in out.out
    assert "Traceback" not in out.err


# --- the header's map -----------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["/etc/passwd", "../maps/x.toml", "maps/ashfall_crossing.toml", "ashfall_crossing.toml", ""])
def test_a_header_naming_a_path_or_an_unknown_map_is_refused(replay_data, tmp_path, capsys, name):
    data = copy.deepcopy(replay_data)
    data["header"]["map"] = name
    path = tmp_path / "r.json"
    path.write_text(json.dumps(data))
    with pytest.raises(ReplayError) as err:
        read_replay(path)
    msg = str(err.value)
    assert f"header.map: {name!r} is not a map that ships with Spellfield" in msg and "ashfall_crossing" in msg
    with pytest.raises(ReplayError, match="header.map"):
        game_for(data["header"])
    report = verify(data)
    assert not report.ok and "header.map" in report.message
    assert main(["replay", str(path), "--verify"]) == 2
    err_out = capsys.readouterr().err
    assert "header.map" in err_out and "Traceback" not in err_out


def test_a_shipped_map_id_works(tmp_path):
    assert "drowned_fen" in list_maps()
    data = _record("aos4", 3, steps=30, battlefield="drowned_fen").to_dict()
    assert data["header"]["map"] == "drowned_fen" and "map_data" not in data["header"]
    path = tmp_path / "fen.json"
    path.write_text(json.dumps(data))
    assert verify(read_replay(path)).ok


def test_a_game_on_another_map_carries_it_and_a_broken_carried_map_is_refused(tmp_path):
    custom = load_map("ashfall_crossing").model_copy(update={"id": "my_field", "name": "My Field"})
    data = _record("aos4", 3, steps=25, battlefield=custom).to_dict()
    assert data["header"]["map"] == "my_field" and data["header"]["map_data"]["id"] == "my_field"
    path = tmp_path / "custom.json"
    path.write_text(json.dumps(data))
    assert verify(read_replay(path)).ok
    for change, words in (
        ({"width": -3}, "header.map_data: width"),
        ({"id": "other"}, "header.map_data.id"),
        ({"terrain": [{"name": "Knot", "traits": ["impassable"], "points": [[1, 1], [2, 2], [1, 2], [2, 1]]}]},
         "not a simple polygon"),
        ({"extra": 1}, "header.map_data: extra"),
    ):
        bad = copy.deepcopy(data)
        bad["header"]["map_data"].update(change)
        path.write_text(json.dumps(bad))
        with pytest.raises(ReplayError, match=words.replace(".", r"\.").replace("(", r"\(")):
            read_replay(path)
    bad = copy.deepcopy(data)
    bad["header"]["map_data"] = "maps/ashfall_crossing.toml"
    with pytest.raises(ReplayError, match="header.map_data: must be an object"):
        game_for(bad["header"])


# --- saves ----------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def saved(tmp_path_factory) -> tuple[Path, dict]:
    """A save 60 actions into a game (hero phase of round 2, two manifestations out)."""
    s = Recorder.new(Game.load(), seed=16)
    bots = {1: RandomBot(1, 16), 2: RandomBot(2, 16)}
    for _ in range(60):
        s.apply(bots[s.state.pending().player].choose(s.state))
    path = tmp_path_factory.mktemp("saves") / "save.json"
    s.save(path)
    data = json.loads(path.read_text())
    assert data["state"]["manifestations"] and data["state"]["stage"] == "battle"
    return path, data


def _first(data: dict, kind: str) -> int:
    return next(i for i, h in enumerate(data["history"]) if h["type"] == kind)


def _edit_history_move(data):
    i = _first(data, "MoveUnit")
    data["history"][i]["to"][0][0] += 0.5


def _overlap(data):
    u = data["state"]["units"]
    a, b = u["p1u5"]["models"][0], u["p2u5"]["models"][0]
    b["x"], b["y"] = a["x"] + 0.2, a["y"]


def _two_manifestations_on_one_spot(data):
    ms = list(data["state"]["manifestations"].values())
    ms[1]["x"], ms[1]["y"] = ms[0]["x"], ms[0]["y"]


def _unit(data, uid="p1u0"):
    return data["state"]["units"][uid]


EDITS = [
    ("history entry changed", _edit_history_move, "history: its 60 actions from seed 16 do not lead to the saved state; first difference: state.units."),
    ("history cut short", lambda d: d.__setitem__("history", d["history"][:10]), "history: its 10 actions from seed 16 do not lead to the saved state"),
    ("history ill-typed", lambda d: d["history"][3].__setitem__("player", True), "history[3]: EndPhase.player: must be a whole number, got true"),
    ("history illegal", lambda d: d["history"].__setitem__(0, {"type": "EndPhase", "player": 2}), "history[0]: EndPhase is illegal"),
    ("history not actions", lambda d: d.__setitem__("history", [1]), "history[0]: expected an object"),
    ("unit x = 1000", lambda d: _unit(d)["models"][0].__setitem__("x", 1000), "state.units.p1u0.models[0]: at (1000,"),
    ("unit x = NaN", lambda d: _unit(d)["models"][0].__setitem__("x", NAN), "state.units.p1u0.models[0].x: must be a finite number, got NaN"),
    ("damage -5", lambda d: _unit(d)["models"][0].__setitem__("damage", -5), "state.units.p1u0.models[0].damage: must be 0 to"),
    ("damage = health", lambda d: _unit(d)["models"][0].__setitem__("damage", 6), "state.units.p1u0.models[0].damage: must be 0 to 5"),
    ("player 3", lambda d: _unit(d).__setitem__("player", 3), "state.units.p1u0.player: must be 1 or 2, got 3"),
    ("player true", lambda d: _unit(d).__setitem__("player", True), "state.units.p1u0.player: must be a whole number, got true"),
    ("stage foo", lambda d: d["state"].__setitem__("stage", "foo"), "state.stage: must be one of deployment, turn_order, battle, over, got 'foo'"),
    ("unknown warscroll", lambda d: _unit(d).__setitem__("warscroll", "nope"), "state.units.p1u0.warscroll: unknown warscroll 'nope'"),
    ("unknown phase", lambda d: d["state"].__setitem__("phase", "nap"), "state.phase: must be one of"),
    ("round beyond the game", lambda d: d["state"].__setitem__("round", 9), "state.round: must be 1 to 5"),
    ("turn inconsistent", lambda d: d["state"].__setitem__("turn", 7), "state.turn: must be"),
    ("ritual points < 0", lambda d: _unit(d, "p1u1").__setitem__("ritual_points", -1), "state.units.p1u1.ritual_points: must be 0 or more"),
    ("dice state broken", lambda d: d["state"]["dice"].__setitem__("state", "x"), "state.dice.state: must be a whole number"),
    ("dice state too big", lambda d: d["state"]["dice"].__setitem__("state", 2**64), "state.dice.state"),
    ("dice kind unknown", lambda d: d["state"].__setitem__("dice", {"kind": "loaded"}), "state.dice.kind: must be one of 'seeded', 'scripted'"),
    ("scripted dice", lambda d: d["state"].__setitem__("dice", {"kind": "scripted", "script": [6, 6]}), "state.dice.kind: a saved game rolls seeded dice"),
    ("unknown decision", lambda d: d["state"]["decisions"].append({"kind": "teleport", "player": 1}), "state.decisions[0].kind: must be one of"),
    ("decision missing a field", lambda d: d["state"]["decisions"].append({"kind": "charge_move", "player": 1, "unit": "p1u0"}), "state.decisions[0].roll: missing"),
    ("decision names nobody", lambda d: d["state"]["decisions"].append({"kind": "charge_move", "player": 1, "unit": "zz", "roll": 7}), "state.decisions[0].unit: unknown unit 'zz'"),
    ("unknown step", lambda d: d["state"]["steps"].append("os.system"), "state.steps[0]: unknown step 'os.system'"),
    ("overlapping models", _overlap, "state.units.p1u5.models[0]: overlaps units.p2u5.models[0]"),
    ("manifestations on one spot", _two_manifestations_on_one_spot, "overlaps manifestations."),
    ("unknown flag", lambda d: _unit(d)["flags"].__setitem__("god_mode", True), "state.units.p1u0.flags.god_mode: unknown key"),
    ("unknown manifestation", lambda d: next(iter(d["state"]["manifestations"].values())).__setitem__("scroll", "nope"), "scroll: unknown manifestation 'nope'"),
    ("header map is a path", lambda d: d["header"].__setitem__("map", "/etc/passwd"), "header.map: '/etc/passwd' is not a map that ships"),
    ("header seed a bool", lambda d: d["header"].__setitem__("seed", True), "header.seed: must be a whole number"),
    ("state a list", lambda d: d.__setitem__("state", []), "header and state must be objects"),
]


@pytest.mark.parametrize("what, edit, words", EDITS, ids=[e[0] for e in EDITS])
def test_an_edited_save_is_refused_naming_the_field(saved, tmp_path, what, edit, words):
    path, original = saved
    data = copy.deepcopy(original)
    edit(data)
    if isinstance(data["state"], dict):
        data["checksum"] = state_checksum(data["state"])  # an editor that fixes the checksum too
    bad = tmp_path / "edited.json"
    bad.write_text(json.dumps(data))
    with pytest.raises(SaveError) as err:
        load_game(bad)
    msg = str(err.value)
    assert msg.startswith(f"{bad}: ") and words in msg, msg


def test_the_untouched_save_loads_and_its_history_re_applies(saved):
    path, data = saved
    game, state, meta = load_game(path)
    assert meta["verified"] and meta["seed"] == 16 and len(meta["history"]) == 60
    assert state_checksum(state.to_dict()) == data["checksum"]
    rebuilt = replay_from_save(meta, game)
    assert rebuilt is not None and len(rebuilt["steps"]) == 60 and verify(rebuilt).ok
    session = Recorder.resume(path)
    fresh = game.new_state(seed=16)
    for h in session.actions():
        fresh.apply(Action.from_dict(h))
    assert fresh.checksum() == session.state.checksum()


def test_replay_from_save_refuses_a_history_that_does_not_lead_to_the_save(saved):
    path, _ = saved
    game, _, meta = load_game(path)
    with pytest.raises(SaveError, match="history: its 10 actions from seed 16 do not lead to the saved state"):
        replay_from_save({**meta, "history": meta["history"][:10]}, game)
    with pytest.raises(SaveError, match=r"history\[2\]: .*must be a whole number"):
        replay_from_save({**meta, "history": [*meta["history"][:2], {"type": "EndPhase", "player": 1.5}]}, game)
    assert replay_from_save({**meta, "seed": None}, game) is None


def test_a_save_without_a_seed_loads_with_its_history_unverified(saved, tmp_path):
    path, original = saved
    game, state, _ = load_game(path)
    p = tmp_path / "old.json"
    save_game(p, state, seed=None, history=original["history"][:5])  # an older file: no seed
    game2, state2, meta = load_game(p)
    assert meta["seed"] is None and meta["verified"] is False and len(meta["history"]) == 5
    assert state2.checksum() == state.checksum()
    assert replay_from_save(meta, game2) is None  # never a replay from an unverified history
    data = json.loads(p.read_text())
    data["state"]["units"]["p1u0"]["models"][0]["x"] = 1000  # its state is still checked in full
    data["checksum"] = state_checksum(data["state"])
    p.write_text(json.dumps(data))
    with pytest.raises(SaveError, match=r"state\.units\.p1u0\.models\[0\]: at \(1000"):
        load_game(p)


# --- the state checks, every way in ---------------------------------------------------------------


def test_every_state_of_random_games_passes_the_state_checks(games):
    for rec in games.values():
        state = rec.game.new_state(seed=rec.seed)
        for k, st_ in enumerate(rec.steps):
            if k % 3 == 0:
                d = json.loads(json.dumps(state.to_dict()))
                assert state_problems(d, rec.game) == [], (rec.game.profile.name, k)
                assert State.from_dict(d, rec.game).checksum() == state.checksum()
            state.apply(Action.from_dict(st_["action"]))
        assert state.is_over() and state_problems(state.to_dict(), rec.game) == []


def test_every_decision_kind_has_a_frame_class():
    assert set(FRAME_TYPES) == set(TURN.decisions)


def test_state_from_dict_refuses_with_the_field_paths(saved):
    _, data = saved
    game = Game.load()
    d = copy.deepcopy(data["state"])
    d["units"]["p1u0"]["models"][0]["damage"] = -5
    d["units"]["p1u2"]["player"] = 3
    d["stage"] = "foo"
    d["units"]["p1u3"]["ritual_points"] = -2
    with pytest.raises(ValueError) as err:
        State.from_dict(d, game)
    msg = str(err.value)
    assert "stage: must be one of" in msg and "units.p1u0.models[0].damage" in msg and "; and 1 more" in msg


def test_unit_manifestation_and_dice_loaders_check_their_fields(saved):
    _, data = saved
    u = copy.deepcopy(data["state"]["units"]["p1u0"])
    assert UnitState.from_dict(u).to_dict() == u
    for change, words in (({"player": "1"}, "unit: player: must be a whole number"),
                          ({"models": [{"x": 1, "y": 2, "damage": 0}]}, "unit: models[0].slain: missing"),
                          ({"buffs": [{"kind": 1}]}, "unit: buffs[0].kind")):
        with pytest.raises(ValueError, match=words.replace("[", r"\[").replace("]", r"\]")):
            UnitState.from_dict({**u, **change})
    m = copy.deepcopy(next(iter(data["state"]["manifestations"].values())))
    assert ManifestationState.from_dict(m).to_dict() == m
    with pytest.raises(ValueError, match="manifestation: x: must be a finite number, got Infinity"):
        ManifestationState.from_dict({**m, "x": INF})
    assert dice_from_dict({"kind": "seeded", "state": 5}).state == 5
    assert dice_from_dict({"kind": "scripted", "script": [1, {"purpose": "casting", "dice": [6, 6]}]}).remaining() == 2
    for bad, words in (({"kind": "seeded", "state": "5"}, "dice.state"), ({"kind": "seeded", "state": -1}, "dice.state"),
                       ({"kind": "seeded", "state": True}, "dice.state"), ({"kind": "seeded"}, "dice.state"),
                       ({"kind": "scripted", "script": [7]}, r"dice.script\[0\]"),
                       ({"kind": "scripted", "script": [{"dice": ["6"]}]}, r"dice.script\[0\].dice"),
                       ({"kind": "weighted"}, "dice.kind"), ([], "dice: must be an object")):
        with pytest.raises(ValueError, match=words):
            dice_from_dict(bad)  # type: ignore[arg-type]


def test_a_fresh_manifestation_id_never_takes_one_in_use():
    state = Game.load().new_state(seed=1)
    state.manifestations["m1"] = object()  # type: ignore[assignment]
    state.manifestations["m2"] = object()  # type: ignore[assignment]
    assert state.fresh_id("m") == "m3" and state.counter == 3


def test_a_session_continued_from_a_save_writes_a_replay_of_the_whole_game(saved, tmp_path):
    path, _ = saved
    s = Recorder.resume(path)
    bots = {1: RandomBot(1, 8), 2: RandomBot(2, 8)}
    for _ in range(5):
        s.apply(bots[s.state.pending().player].choose(s.state))
    replay = s.to_dict()
    assert len(replay["steps"]) == 65 and verify(replay).ok
    game, state, _ = load_game(path)
    old = tmp_path / "old.json"
    save_game(old, state, seed=None, history=[])
    with pytest.raises(ValueError, match="no replay"):
        Recorder.resume(old).to_dict()
