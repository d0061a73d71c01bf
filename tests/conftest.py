"""Fixtures and checks every test gets.

* Saves and autosaves go to a temporary folder, never the user's.
* **Scripted dice are used up.** Every `ScriptedDice` that test code creates (a test module,
  tests/helpers.py's `battle(...)`, tests/ui/uihelpers.py's `scripted_session(...)`, ...) is
  watched while the test runs. A test that passes with script entries left over fails: a rule
  test's script is exactly the dice the rule rolls, so a leftover means the engine rolled fewer
  dice than the test says it does. A `DiceScriptError` that such dice raised (the script ran
  out, or a roll did not match) fails the test even if something caught it on the way. Copies
  the engine makes (`clone()`, `dice_from_dict`) are not watched; the dice the test handed in are.

  A test that deliberately leaves dice or provokes script errors says so, with the reason:

      @pytest.mark.dice_unchecked("tests ScriptedDice's own run-out error")
"""

from __future__ import annotations

import functools
import os
import sys

import pytest

from game.rules.dice import ScriptedDice
from game.rules.errors import DiceScriptError

TESTS_DIR = os.path.dirname(os.path.abspath(__file__)) + os.sep


@pytest.fixture(autouse=True)
def _private_data_dir(tmp_path, monkeypatch):
    monkeypatch.setenv("SPELLFIELD_DATA_DIR", str(tmp_path / "spellfield-data"))


# --- scripted dice must be used up -----------------------------------------------------------


class _DiceWatch:
    """The scripted dice test code created during one test, and the script errors they raised."""

    def __init__(self) -> None:
        self.made: list[tuple[ScriptedDice, str, int]] = []  # (dice, where created, script length)
        self.rolls: dict[int, list[str]] = {}  # id(dice) -> the rolls it served, e.g. "2D6 casting"
        self.errors: list[str] = []


_watch: _DiceWatch | None = None
_from_test_code: dict[str, bool] = {}
_original_init = ScriptedDice.__init__
_original_roll = ScriptedDice.roll


def _is_test_code(filename: str) -> bool:
    known = _from_test_code.get(filename)
    if known is None:
        known = _from_test_code[filename] = os.path.abspath(filename).startswith(TESTS_DIR)
    return known


@functools.wraps(_original_init)
def _watched_init(self, *args, **kwargs) -> None:
    _original_init(self, *args, **kwargs)
    if _watch is not None:
        frame = sys._getframe(1)
        chain = []  # the test code that made the dice, innermost first
        while frame is not None and _is_test_code(frame.f_code.co_filename):
            chain.append(f"{os.path.relpath(frame.f_code.co_filename, TESTS_DIR)}:{frame.f_lineno}")
            frame = frame.f_back
        if chain:
            _watch.made.append((self, " -> ".join(reversed(chain)), len(self.script)))
            _watch.rolls[id(self)] = []


@functools.wraps(_original_roll)
def _watched_roll(self, count: int, sides: int, purpose: str) -> tuple[int, ...]:
    rolls = _watch.rolls.get(id(self)) if _watch is not None else None
    try:
        dice = _original_roll(self, count, sides, purpose)
    except DiceScriptError as exc:
        if rolls is not None:
            _watch.errors.append(str(exc))
        raise
    if rolls is not None:
        rolls.append(f"{count}D{sides} {purpose} {list(dice)}")
    return dice


# for the whole session; outside a test (_watch is None) they behave exactly as before
ScriptedDice.__init__ = _watched_init  # type: ignore[method-assign]
ScriptedDice.roll = _watched_roll  # type: ignore[method-assign]


def pytest_collection_modifyitems(config, items):
    """Soak runs are long by design: pytest-timeout's per-test limit (pyproject.toml) is for
    hangs in the default suite, so it does not apply to them."""
    for item in items:
        if item.get_closest_marker("soak") is not None and item.get_closest_marker("timeout") is None:
            item.add_marker(pytest.mark.timeout(0))


def pytest_configure(config):
    config.addinivalue_line(
        "markers",
        "dice_unchecked(reason): this test deliberately leaves scripted dice unrolled or provokes "
        "DiceScriptError; the reason is required",
    )


def _dice_problems(item) -> list[str]:
    marker = item.get_closest_marker("dice_unchecked")
    if marker is not None:
        if not (marker.args and isinstance(marker.args[0], str) and marker.args[0].strip()):
            return ["@pytest.mark.dice_unchecked needs a reason: why does this test leave dice?"]
        return []
    assert _watch is not None
    problems = [f"a scripted dice error was raised (and caught): {e}" for e in _watch.errors]
    for dice, where, length in _watch.made:
        if dice.script:
            problems.append(
                f"the ScriptedDice made at {where} ({length} entries) has {len(dice.script)} left over, "
                f"never rolled: {dice.script!r}; the rolls it served: {'; '.join(_watch.rolls[id(dice)]) or 'none'}"
            )
    return problems


@pytest.hookimpl(wrapper=True)
def pytest_runtest_setup(item):
    global _watch
    _watch = _DiceWatch()  # fixtures' dice count too
    return (yield)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_call(item):
    result = yield  # a test that failed already is reported as it is
    problems = _dice_problems(item)
    if problems:
        pytest.fail(
            "scripted dice not used up exactly (the script must be the dice the rules roll; "
            "see tests/conftest.py):\n  " + "\n  ".join(problems),
            pytrace=False,
        )
    return result


@pytest.hookimpl(wrapper=True)
def pytest_runtest_teardown(item, nextitem):
    global _watch
    try:
        return (yield)
    finally:
        _watch = None
