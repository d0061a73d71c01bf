"""tests/conftest.py's scripted-dice watch: a test passes only if every ScriptedDice that test code
made is used up exactly, and no script error it raised was swallowed. Checked by running a small
test file under a copy of that conftest in a fresh pytest process."""

from __future__ import annotations

from pathlib import Path

pytest_plugins = ["pytester"]

ROOT = Path(__file__).resolve().parents[1]

CASES = '''
import pytest

from game.rules import DiceScriptError, ScriptedDice


def test_used_up_exactly_passes():
    d = ScriptedDice([3, {"purpose": "casting", "dice": [4, 4]}])
    d.roll(1, 6, "chanting")
    d.roll(2, 6, "casting")


def test_nothing_scripted_passes():
    ScriptedDice([])


def test_a_leftover_fails():
    d = ScriptedDice([3, 5])
    d.roll(1, 6, "chanting")


def test_a_swallowed_run_out_fails():
    d = ScriptedDice([])
    try:
        d.roll(2, 6, "casting")
    except DiceScriptError:
        pass


def test_a_swallowed_purpose_mismatch_fails():
    d = ScriptedDice([{"purpose": "unbinding", "dice": [4, 4]}])
    try:
        d.roll(2, 6, "casting")
    except Exception:
        pass


@pytest.fixture
def fixture_dice():
    return ScriptedDice([6])


def test_dice_made_by_a_fixture_are_watched_too(fixture_dice):
    pass


def test_copies_the_engine_makes_are_not_watched():
    d = ScriptedDice([2, 2])
    d.clone().roll(1, 6, "chanting")  # a look-ahead on a copy
    d.roll(2, 6, "casting")


def test_a_test_failing_on_its_own_is_reported_as_it_is():
    ScriptedDice([1])
    assert 1 == 2, "its own failure"


@pytest.mark.dice_unchecked("it deliberately leaves a die")
def test_the_marker_with_a_reason_opts_out():
    ScriptedDice([1])


@pytest.mark.dice_unchecked
def test_the_marker_needs_a_reason():
    pass
'''


def test_the_dice_watch_fails_leftovers_and_swallowed_script_errors(pytester, monkeypatch):
    monkeypatch.setenv("PYTHONPATH", str(ROOT))
    pytester.makeconftest((ROOT / "tests" / "conftest.py").read_text())
    pytester.makepyfile(test_cases=CASES)
    result = pytester.runpytest_subprocess("-p", "no:cacheprovider", "-rf")
    outcomes = result.parseoutcomes()
    assert outcomes.get("passed") == 4 and outcomes.get("failed") == 6, result.stdout.str()
    out = result.stdout.str()
    failed = {line.split("::")[1].split()[0] for line in result.stdout.lines if line.startswith("FAILED")}
    assert failed == {
        "test_a_leftover_fails", "test_a_swallowed_run_out_fails", "test_a_swallowed_purpose_mismatch_fails",
        "test_dice_made_by_a_fixture_are_watched_too", "test_a_test_failing_on_its_own_is_reported_as_it_is",
        "test_the_marker_needs_a_reason",
    }, out
    assert ("the ScriptedDice made at test_cases.py:17 (2 entries) has 1 left over, never rolled: [5]; "
            "the rolls it served: 1D6 chanting [3]") in out
    assert "a scripted dice error was raised (and caught): dice script ran out: the engine rolled 2D6 for 'casting'" in out
    assert "a scripted dice error was raised (and caught): scripted dice expected a 'unbinding' roll" in out
    assert "the ScriptedDice made at test_cases.py:" in out and "[6]; the rolls it served: none" in out
    # not for the test that failed anyway; counted in the failure reports only (with CI set, pytest
    # repeats whole messages in the short summary)
    reports = out.split("short test summary info")[0]
    assert "its own failure" in out and reports.count("left over") == 2
    assert "@pytest.mark.dice_unchecked needs a reason" in out
