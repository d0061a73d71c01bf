"""Fuzz: the files players send each other that are not data files, a replay and a save, each
mutated (a value replaced by another type, NaN, an infinity, a huge or negative number, a key
or a tail of a list deleted), then fed in process to every command that reads them:

* a replay to `spellfield replay FILE` and `spellfield replay FILE --verify`;
* a save, as the autosave, to `spellfield play --resume --headless`, and to the engine's
  `load_game` and `replay_from_save`.

Nothing may escape but the documented errors (`SaveError` from the engine; nothing at all from
`main`, which returns an exit code), no command may hang, and a file that was changed is never
accepted silently: `--verify` exits non-zero on a replay whose action or checksum was changed,
and a save whose state was changed does not load (its checksum gives it away), nor one whose
history no longer re-plays to that state; a save whose seed is taken away loads as an old seedless save does, its
history unverified and no replay made from it. The default run is short; `pytest -m soak` runs a long one.
"""

from __future__ import annotations

import json
import math
import os
import signal

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from game.ai.random_bot import RandomBot
from game.cli import main
from game.rules import Game
from game.rules.saves import SaveError, load_game, replay_from_save, save_game
from game.rules.session import Recorder

VALUES = [
    "x",
    "",
    True,
    False,
    None,
    math.nan,
    math.inf,
    -math.inf,
    1e308,
    -5,
    0,
    1.5,
    10**30,
    [],
    {},
    [1.5],
    "p1u0",
    3,
]
EXAMPLES = int(os.environ.get("FUZZ_EXAMPLES", "25"))


@pytest.fixture(scope="module")
def corpus(tmp_path_factory):
    """A 60-action random game as a replay and as a save."""
    game = Game.load()
    rec = Recorder(game, 5, game.new_state(seed=5))
    bots = {1: RandomBot(1, 5), 2: RandomBot(2, 5)}
    for _ in range(60):
        rec.apply(bots[rec.state.pending().player].choose(rec.state))
    folder = tmp_path_factory.mktemp("corpus")
    save = folder / "save.json"
    save_game(save, rec.state, 5, [s["action"] for s in rec.steps])
    return {"replay": rec.to_dict(), "save": json.loads(save.read_text())}


def _paths(node, here=()):
    out = [here] if here else []
    if isinstance(node, dict):
        for k, v in node.items():
            out += _paths(v, here + (k,))
    elif isinstance(node, list):
        for i, v in enumerate(node[:80]):
            out += _paths(v, here + (i,))
    return out


def mutate(doc, data) -> tuple[list, str]:
    """Change one place of `doc` in place; (the path, what was done)."""
    paths = _paths(doc)
    path = data.draw(st.sampled_from(paths), label="path")
    parent = doc
    for k in path[:-1]:
        parent = parent[k]
    how = data.draw(st.sampled_from(["replace", "replace", "replace", "delete"]), label="how")
    old = parent[path[-1]]
    if how == "delete":
        if isinstance(parent, dict):
            del parent[path[-1]]
        else:
            del parent[path[-1] :]
        return list(path), "delete"
    new = data.draw(st.sampled_from([v for v in VALUES if not (type(v) is type(old) and v == old)]), label="value")
    parent[path[-1]] = new
    return list(path), f"replace {old!r} with {new!r}"


class _Hang(Exception):
    pass


def _run(argv, capsys) -> tuple[int, str]:
    """`main(argv)` in process, under a 20 s deadline (a hang fails the test)."""

    def alarm(*_):
        raise _Hang(argv)

    old = signal.signal(signal.SIGALRM, alarm)
    signal.alarm(20)
    try:
        rc = main(argv)
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)
    out = capsys.readouterr()
    return rc, out.out + out.err


def _normal(doc):
    """The file's meaning: every action that decodes stands for itself, so leaving out a field
    that has a default (`model` 0) is no change."""
    from game.rules.actions import Action

    def norm(node):
        if isinstance(node, dict):
            if "type" in node and "player" in node:
                try:
                    return repr(Action.from_dict(node))
                except ValueError:
                    pass
            return {k: norm(v) for k, v in node.items()}
        if isinstance(node, list):
            return [norm(v) for v in node]
        return node

    return json.dumps(norm(doc), sort_keys=True, default=str)


def _changed(before, after) -> bool:
    return _normal(before) != _normal(after)


def _fuzz_replay(corpus, tmp_path, data, capsys) -> None:
    doc = json.loads(json.dumps(corpus["replay"]))
    where, how = mutate(doc, data)
    f = tmp_path / "mutant_replay.json"
    f.write_text(json.dumps(doc))  # NaN and infinities are written as JSON's NaN/Infinity
    rc, text = _run(["replay", str(f)], capsys)
    assert rc in (0, 2), (where, how, rc, text)
    assert "Traceback" not in text, (where, how, text)
    rc, text = _run(["replay", str(f), "--verify"], capsys)
    assert "Traceback" not in text, (where, how, text)
    if _changed(corpus["replay"], doc):
        # a changed header, action or checksum never verifies (except a deletion of a tail of
        # steps, which is a shorter game that still verifies step by step)
        shorter = where[:1] == ["steps"] and how == "delete" and len(where) == 2
        assert rc != 0 or shorter or _plays_the_same(corpus["replay"], doc, where), (where, how, text)


def _plays_the_same(original, doc, where) -> bool:
    """Whether a changed action of step k leaves the game where the original left it: applied
    after the original steps before it, it gives step k's recorded state checksum. A replay's
    checksums are of the states, so such a change (a failed cast from another model of the same
    unit, say) is the same game and verifies; only the events it tells differ."""
    from game.rules.actions import Action

    if where[:1] != ["steps"] or len(where) < 3 or where[2] != "action":
        return False
    k = where[1]
    try:
        changed = Action.from_dict(doc["steps"][k]["action"])
    except (ValueError, TypeError, KeyError):
        return False
    state = Game.load().new_state(seed=original["header"]["seed"])  # the corpus game: default content
    for step in original["steps"][:k]:
        state.apply(Action.from_dict(step["action"]))
    if not state.legal(changed):
        return False
    state.apply(changed)
    return state.checksum() == original["steps"][k]["checksum"]


def _fuzz_save(corpus, tmp_path, data, capsys, monkeypatch) -> None:
    doc = json.loads(json.dumps(corpus["save"]))
    where, how = mutate(doc, data)
    f = tmp_path / "autosave.json"
    f.write_text(json.dumps(doc))
    try:
        game, state, meta = load_game(f)
        rebuilt = replay_from_save(meta, game)
        loaded = True
    except SaveError as exc:
        assert str(f) in str(exc), (where, how, str(exc))
        loaded = False
    if _changed(corpus["save"], doc) and loaded:
        if where[0] == "history":
            # a history that still re-plays from the seed to exactly the saved state (an action
            # from another model of a unit, with the same outcome) is a true account of the game
            from game.rules.actions import Action

            again = game.new_state(seed=meta["seed"])
            for h in meta["history"]:
                again.apply(Action.from_dict(h))
            assert meta["verified"] and again.checksum() == state.checksum(), (where, how)
        else:
            # the one other change that loads: a save without a seed (as old saves are) keeps its
            # fully checked state, its history left unverified, and never yields a replay
            assert where == ["header", "seed"] and doc["header"].get("seed") is None, (where, how)
            assert meta["verified"] is False and rebuilt is None
    # any other change: the checksum, the state checks or the re-played history give it away
    monkeypatch.setenv("SPELLFIELD_DATA_DIR", str(tmp_path))
    rc, text = _run(["play", "--resume", "--headless", "--frames", "1"], capsys)
    assert "Traceback" not in text, (where, how, text)
    assert (rc == 0) == loaded, (where, how, rc, text)


@settings(
    max_examples=EXAMPLES,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(data=st.data())
def test_a_mutated_replay_is_refused_or_reported_never_a_traceback(corpus, tmp_path, data, capsys):
    _fuzz_replay(corpus, tmp_path, data, capsys)


@settings(
    max_examples=EXAMPLES,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(data=st.data())
def test_a_mutated_save_does_not_load_and_resume_says_so(corpus, tmp_path, data, capsys, monkeypatch):
    _fuzz_save(corpus, tmp_path, data, capsys, monkeypatch)


@pytest.mark.soak
@settings(
    max_examples=1500, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture]
)
@given(data=st.data())
def test_soak_mutated_replays_and_saves(corpus, tmp_path, data, capsys, monkeypatch):
    if data.draw(st.booleans(), label="replay?"):
        _fuzz_replay(corpus, tmp_path, data, capsys)
    else:
        _fuzz_save(corpus, tmp_path, data, capsys, monkeypatch)


def test_the_untouched_replay_verifies_and_the_untouched_save_resumes(corpus, tmp_path, capsys, monkeypatch):
    # the baseline the fuzz tests depend on: the files as written are accepted by the same commands
    f = tmp_path / "replay.json"
    f.write_text(json.dumps(corpus["replay"]))
    rc, text = _run(["replay", str(f), "--verify"], capsys)
    assert rc == 0 and "all 60 steps verified" in text
    (tmp_path / "autosave.json").write_text(json.dumps(corpus["save"]))
    monkeypatch.setenv("SPELLFIELD_DATA_DIR", str(tmp_path))
    rc, text = _run(["play", "--resume", "--headless", "--frames", "1"], capsys)
    assert rc == 0, text
