"""Fuzz: mutated copies of the shipped maps, content files and demonstrations go through the
loaders, `Game.load` and `spellfield check`, in process.

Each example takes a shipped file, applies one to three mutations (delete a key or an item,
duplicate an item, replace a value with a string, a boolean, NaN, an infinity, a huge or
negative number, an empty list or table), writes it back as TOML and feeds it to:

* the loader for its kind (`load_map_file`, `load_content_file`, `load_demo`): it returns or
  raises `DataError`, nothing else;
* `check_files` and `check.main`: no exception; exit 1 exactly when problems are reported, and
  every file a loader refuses is refused by check too (one validation);
* what a file that passes is for: a map is played (`Game.load` and a new state with its
  default deployment), a content file is laid over the embedded content and a game is set up
  with it, a demonstration is run; none of these may raise.

The default run is short (`FUZZ_EXAMPLES`, about 5 s); `pytest -m soak` runs the long one.
"""

from __future__ import annotations

import copy
import math
import os
import tomllib
from pathlib import Path
from typing import Any, Callable

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from game.data.check import check_files
from game.data.check import main as check_main
from game.data.content import build_content, embedded_content_files
from game.data.errors import DataError
from game.data.loader import load_content_file, load_map_file
from tests.data.tomlwrite import dumps

REPO = Path(__file__).resolve().parents[2]
MAPS = sorted((REPO / "maps").glob("*.toml"))
CONTENT = sorted((REPO / "game" / "content").glob("*.toml"))
DEMOS = sorted((REPO / "maps" / "demos").glob("*.toml"))[:6]  # running a demo costs; a sample
FUZZ_EXAMPLES = int(os.environ.get("FUZZ_EXAMPLES", "40"))

REPLACEMENTS: list[Any] = [
    "1", "x", "", True, False, math.nan, math.inf, -math.inf, 10**30, -(10**30), 1e308, -1, 0, 0.5,
    [], {}, [[0, 0], [0, 0], [0, 0]], [1, 2], "D6", "999999D6",
]


def _paths(node: Any, here: tuple = ()) -> list[tuple]:
    """Every place in a TOML document that can be mutated (not the root)."""
    out = [here] if here else []
    if isinstance(node, dict):
        for k, v in node.items():
            out += _paths(v, here + (k,))
    elif isinstance(node, list):
        for i, v in enumerate(node):
            out += _paths(v, here + (i,))
    return out


def _parent(doc: Any, path: tuple) -> Any:
    for p in path[:-1]:
        doc = doc[p]
    return doc


def _nudged(v: Any) -> list[Any]:
    """Values of the same type near `v` (to move geometry: coincident, off-board, overlapping)."""
    if isinstance(v, bool):
        return [not v]
    if isinstance(v, int):
        return [0, 1, 2, v + 1, v - 1, 2 * v, -v, 1000]
    if isinstance(v, float):
        return [0.0, v + 0.5, v - 0.5, 2 * v, -v, 1e-9, 1000.0]
    if isinstance(v, str):
        return [v + "_x", v.upper(), v[:1]]
    return [v]


def mutate(doc: dict, data: st.DataObject, skip: Callable[[tuple], bool] = lambda path: False) -> list[str]:
    """Apply 1-3 mutations to `doc` in place; returns what was done (for the failure report).

    Kinds: delete a key or an item; duplicate an item; replace a value with a wrong one
    (REPLACEMENTS); nudge it to a value of its own type; copy a sibling over it (two equal
    points, two equal ids); collapse a list to copies of its first item (a polygon whose points
    all coincide)."""
    done = []
    for _ in range(data.draw(st.sampled_from([1, 1, 2, 3]), label="mutations")):
        paths = [p for p in _paths(doc) if not skip(p)]
        if not paths:
            break
        path = data.draw(st.sampled_from(paths), label="path")
        parent, last = _parent(doc, path), path[-1]
        kind = data.draw(st.sampled_from(["delete", "duplicate", "replace", "nudge", "nudge", "copy", "collapse"]), label="kind")
        if kind == "delete":
            del parent[last]
        elif kind == "duplicate" and isinstance(parent, list):
            parent.append(copy.deepcopy(parent[last]))
        elif kind == "copy" and isinstance(parent, list) and len(parent) > 1:
            parent[last] = copy.deepcopy(parent[data.draw(st.integers(0, len(parent) - 1), label="sibling")])
        elif kind == "collapse" and isinstance(parent[last], list) and len(parent[last]) > 1:
            parent[last] = [copy.deepcopy(parent[last][0]) for _ in parent[last]]  # e.g. every point the same
        elif kind == "nudge" and not isinstance(parent[last], (list, dict)):
            parent[last] = data.draw(st.sampled_from(_nudged(parent[last])), label="nudged")
        else:
            kind = "replace"
            parent[last] = copy.deepcopy(data.draw(st.sampled_from(REPLACEMENTS), label="value"))  # never share
        done.append(f"{kind} {'.'.join(map(str, path))}")
    return done


@pytest.fixture(scope="module")
def folder(tmp_path_factory):
    return tmp_path_factory.mktemp("fuzz")


def _check_agrees(path: Path, loader_refused: bool, capsys) -> list[str]:
    from game.demos.loader import load_demo  # the CLI hands the demonstrations' checks to `check`

    problems = check_files([path], checkers={"demo": load_demo})
    capsys.readouterr()
    assert check_main([str(path)], checkers={"demo": load_demo}) == (1 if problems else 0)
    out = capsys.readouterr().out
    assert "Traceback" not in out
    if loader_refused:
        assert problems, "the loader refused this file but check passed it"
    for p in problems:
        assert p.startswith(f"{path}:") or p.startswith("embedded content"), p
        assert "internal error" not in p, p
    return problems


def _fuzz_map(src: Path, folder: Path, data, capsys) -> None:
    from game.rules.game import Game

    doc = tomllib.loads(src.read_text())
    note = mutate(doc, data)
    path = folder / src.name
    path.write_text(dumps(doc), encoding="utf-8")
    try:
        load_map_file(path)
        refused = False
    except DataError as e:
        refused = True
        assert all(p.startswith(f"{path}:") for p in e.problems), (note, e.problems)
    problems = _check_agrees(path, refused, capsys)
    if not problems:
        game = Game.load(battlefield=str(path))  # what play --map and record --map do
        game.new_state(seed=1)  # with the map's default deployment
    return None


def _fuzz_content(src: Path, folder: Path, data, capsys) -> None:
    from game.rules.game import Game

    doc = tomllib.loads(src.read_text())
    note = mutate(doc, data)
    path = folder / src.name
    path.write_text(dumps(doc), encoding="utf-8")
    try:
        cf = load_content_file(path)
        refused = False
    except DataError as e:
        refused, cf = True, None
        assert all(p.startswith(f"{path}:") for p in e.problems), (note, e.problems)
    problems = _check_agrees(path, refused, capsys)
    if not problems and cf is not None:
        # check resolved it against the embedded content: a game can be set up with it
        files = {k: v for k, v in embedded_content_files().items() if not k.endswith("/" + src.name)}
        files[str(path)] = cf
        try:
            content = build_content(files)
        except DataError:
            return  # e.g. an id renamed away from what other embedded files name: refused, cleanly
        armies = tuple(sorted(content.armies))[:2]
        if len(armies) == 2:
            Game.load(content=content, armies=armies).new_state(seed=1)


def _fuzz_demo(src: Path, folder: Path, data, capsys) -> None:
    from game.demos.loader import load_demo
    from game.demos.runner import run_demo

    doc = tomllib.loads(src.read_text())
    note = mutate(doc, data)  # a step's action fields too: Action.from_dict checks their types
    path = folder / src.name
    path.write_text(dumps(doc), encoding="utf-8")
    try:
        demo = load_demo(path)
        refused = False
    except DataError as e:
        refused, demo = True, None
        assert all(p.startswith(f"{path}:") for p in e.problems), (note, e.problems)
    problems = _check_agrees(path, refused, capsys)
    assert bool(problems) == refused, (note, problems)
    if demo is not None:
        run_demo(demo, label=str(path))  # mismatches are reported, never raised


_SETTINGS = dict(deadline=None, derandomize=True, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])


@settings(max_examples=FUZZ_EXAMPLES, **_SETTINGS)
@given(data=st.data(), src=st.sampled_from(MAPS))
def test_fuzzed_maps_are_refused_cleanly_or_play(folder, capsys, data, src):
    _fuzz_map(src, folder, data, capsys)


@settings(max_examples=FUZZ_EXAMPLES, **_SETTINGS)
@given(data=st.data(), src=st.sampled_from(CONTENT))
def test_fuzzed_content_is_refused_cleanly_or_sets_up_a_game(folder, capsys, data, src):
    _fuzz_content(src, folder, data, capsys)


@settings(max_examples=max(5, FUZZ_EXAMPLES // 4), **_SETTINGS)
@given(data=st.data(), src=st.sampled_from(DEMOS))
def test_fuzzed_demos_are_refused_cleanly_or_run(folder, capsys, data, src):
    _fuzz_demo(src, folder, data, capsys)


@pytest.mark.soak
@settings(max_examples=3000, **{**_SETTINGS, "derandomize": False})
@given(data=st.data(), src=st.sampled_from(MAPS + CONTENT + sorted((REPO / "maps" / "demos").glob("*.toml"))))
def test_soak_fuzzed_data_files(folder, capsys, data, src):
    if src.parent.name == "demos":
        _fuzz_demo(src, folder, data, capsys)
    elif src.parent.name == "content":
        _fuzz_content(src, folder, data, capsys)
    else:
        _fuzz_map(src, folder, data, capsys)
