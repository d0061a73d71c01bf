"""Bad command-line values and internal errors: one clear message, a non-zero exit, no traceback."""

from __future__ import annotations

import pytest

import game.cli as cli
from game.cli import main

BAD_VALUES = [
    (["simulate", "--p1", "hard@nan"], "argument --p1: bad time budget in 'hard@nan': 'nan' must be a number of seconds from 0 to 600"),
    (["simulate", "--p2", "hard@inf"], "argument --p2: bad time budget in 'hard@inf': 'inf' must be a number of seconds from 0 to 600"),
    (["simulate", "--p1", "hard@-1"], "argument --p1: bad time budget in 'hard@-1': '-1' must be a number of seconds from 0 to 600"),
    (["simulate", "--p1", "hard@1e9"], "argument --p1: bad time budget in 'hard@1e9': '1e9' must be a number of seconds from 0 to 600"),
    (["simulate", "--p1", "hard@fast"], "argument --p1: bad time budget in 'hard@fast': 'fast' is not a number of seconds"),
    (["simulate", "--p1", "grandmaster"], "argument --p1: unknown bot 'grandmaster'; choose one of random, normal, hard"),
    (["simulate", "--games", "0"], "argument --games: 0 is out of range (1 to 100,000)"),
    (["simulate", "--games", "ten"], "argument --games: 'ten' is not a whole number"),
    (["simulate", "--jobs", "0"], "argument --jobs: 0 is out of range (1 to 256)"),
    (["simulate", "--seed", "-1"], "argument --seed: -1 is out of range (0 to 9,223,372,036,854,775,807)"),
    (["play", "--text", "--seed", str(2**63)], f"argument --seed: {2**63} is out of range (0 to 9,223,372,036,854,775,807)"),
    (["play", "--text", "--seed", "1.5"], "argument --seed: '1.5' is not a seed (a whole number)"),
    (["record", "out.json", "--seed", "-7"], "argument --seed: -7 is out of range"),
    (["play", "--headless", "--frames", "-1"], "argument --frames: -1 is out of range (1 to 1,000,000)"),
    (["play", "--headless", "--frames", "0"], "argument --frames: 0 is out of range (1 to 1,000,000)"),
    (["play", "--headless", "--advance", "-3"], "argument --advance: -3 is out of range (0 to 100,000)"),
    (["play", "--headless", "--size", "0x0"], "argument --size: size 0x0 is out of range (320x240 to 8000x8000)"),
    (["demo", "m3_miscast", "--size", "0x0"], "argument --size: size 0x0 is out of range (320x240 to 4000x4000)"),
    (["demo", "m3_miscast", "--size", "1x2x3"], "argument --size: size must look like 1280x760, got '1x2x3'"),
]


@pytest.mark.parametrize("argv, message", BAD_VALUES, ids=lambda v: " ".join(v) if isinstance(v, list) else "")
def test_bad_values_are_refused_before_any_work(argv, message, capsys, monkeypatch):
    def no_work(args):  # a refused value must never reach the command
        raise AssertionError("the command ran")

    monkeypatch.setattr(cli, "COMMANDS", {k: no_work for k in cli.COMMANDS})
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err


def test_good_values_still_parse(capsys):
    args = cli._parser().parse_args(["simulate", "--p1", "hard@0", "--p2", "hard@0.25", "--games", "3", "--jobs", "2", "--seed", "0"])
    assert (args.p1, args.p2, args.games, args.jobs, args.seed) == ("hard@0", "hard@0.25", 3, 2, 0)
    args = cli._parser().parse_args(["demo", "m3_miscast", "--size", "800x480"])
    assert args.size == (800, 480)


def test_make_bot_refuses_the_same_budgets():
    from game.ai.registry import make_bot

    for bad in ("hard@nan", "hard@inf", "hard@-0.5", "hard@601", "hard@"):
        with pytest.raises(ValueError, match="bad time budget"):
            make_bot(bad, 1, 1)
    assert make_bot("hard@0", 1, 1).budget == 0.0


def test_an_internal_error_in_per_file_work_names_the_file(tmp_path, capsys, monkeypatch):
    import game.rules as rules

    path = tmp_path / "r.json"
    path.write_text("{}")

    def broken(p):
        a, b = (1, 2, 3)  # noqa: F841 - the reliability run's "too many values to unpack"

    monkeypatch.setattr(rules, "read_replay", broken)  # the CLI reads files through the surface
    assert main(["replay", str(path)]) == 2
    err = capsys.readouterr().err
    assert err == f"spellfield: error: {path}: too many values to unpack (expected 2)\n"


def test_an_unexpected_error_is_one_line_with_a_nonzero_exit(capsys, monkeypatch):
    def bug(args):
        raise ZeroDivisionError("division by zero")

    monkeypatch.setitem(cli.COMMANDS, "check", bug)
    assert main(["check", "x.toml"]) == 70
    err = capsys.readouterr().err
    assert err == "spellfield: internal error: ZeroDivisionError: division by zero\n"


def test_an_os_error_names_its_file(tmp_path, capsys, monkeypatch):
    def unreadable(args):
        raise PermissionError(13, "Permission denied", str(tmp_path / "locked.toml"))

    monkeypatch.setitem(cli.COMMANDS, "check", unreadable)
    assert main(["check", "x.toml"]) == 2
    assert capsys.readouterr().err == f"spellfield: error: {tmp_path / 'locked.toml'}: Permission denied\n"


def test_an_unknown_map_for_play_and_record_is_one_clear_line(tmp_path, capsys):
    for argv in (["play", "--text", "--map", "nowhere"], ["record", str(tmp_path / "o.json"), "--map", str(tmp_path / "none.toml")]):
        assert main(argv) == 2
        err = capsys.readouterr().err
        assert err.startswith("spellfield: error: ") and err.count("\n") == 1 and "Traceback" not in err


def test_help_exits_zero(capsys):
    assert main(["--help"]) == 0
    assert "spellfield" in capsys.readouterr().out
