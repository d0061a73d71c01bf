"""Issue 22, domain "cli": `spellfield --help`, every command's help and argparse's own words
(usage:, options:, its error messages) in Korean and Japanese; the English help is argparse's own."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from i18n_rulewords import english_words

ROOT = Path(__file__).resolve().parents[2]
LOCALE_VARS = ("SPELLFIELD_LANG", "LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG")
COMMANDS = ("play", "check", "record", "simulate", "demo", "import-map", "replay")
CASES = [
    ["--help"],
    ["simulate", "--help"],
    ["import-map", "--help"],
    ["play", "--help"],
    ["demo", "--help"],
    ["record", "--help"],
    ["replay", "--help"],
    ["check", "--help"],
    ["import-map", "--help"],
    ["simulate", "--bogus"],  # unrecognized arguments
    ["simulate", "--games"],  # expected one argument
    ["check"],  # the following arguments are required
]
# What stays as it is in every language: option names, metavars and acronyms (capitals: GAMES,
# FILE, JSON, PNG), command names, bot, profile and palette names, file suffixes, the bot syntax,
# the --scheduler values (local, tcp://host:PORT) and Dask's name.
# Tiled (the map editor's name).
# (ASCII edges, not \b: Korean and Japanese letters are word characters too, so "PNG로" has no \b)


def _metavars() -> list[str]:
    """Every metavar the parsers show (OUT.gif, WxH, FILE), read from the parsers themselves."""
    import argparse

    from game import cli

    names: set[str] = set()
    parsers = [cli._parser()]
    while parsers:
        for action in parsers.pop()._actions:
            if isinstance(action, argparse._SubParsersAction):
                parsers.extend(action.choices.values())
            elif action.metavar:
                names.update([action.metavar] if isinstance(action.metavar, str) else action.metavar)
    return sorted(names, key=len, reverse=True)


STAYS = re.compile(
    "|".join(map(re.escape, _metavars()))
    + r"|--?[a-z][a-z0-9-]*|\.toml|\.tmx|Tiled|hard@|okabe-ito|tcp://host:\d+|(?<![A-Za-z])(?:[A-Z][A-Z0-9_]*|random|normal|hard|default|Dask|local|"
    + "|".join(COMMANDS)
    + r")(?![A-Za-z])"
)


def _run(args: list[str], **lang: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k not in LOCALE_VARS}
    env.update(lang, PYTHONPATH=str(ROOT), COLUMNS="100", SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy")
    return subprocess.run(
        [sys.executable, "-m", "game", *args], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120
    )


def _left(text: str) -> list[str]:
    return english_words(STAYS.sub(" ", text))


@pytest.mark.parametrize("lang", [{"LANG": "ja_JP.UTF-8"}, {"SPELLFIELD_LANG": "ko"}], ids=["ja", "ko"])
@pytest.mark.parametrize("args", CASES, ids=" ".join)
def test_help_and_argparse_errors_have_no_english_left(lang, args):
    done = _run(args, **lang)
    out = done.stdout + done.stderr
    assert done.returncode == (0 if "--help" in args else 2), out
    assert out.strip() and not _left(out), (_left(out), out)
    marks = ("使い方: ", "エラー: ", "オプション") if "LANG" in lang else ("사용법: ", "오류: ", "옵션")
    assert marks[0] in out and (marks[1] in out or marks[2] in out), out


PLAIN = """
import argparse, sys
from game import cli
sys.argv[0] = "spellfield"
words = sys.argv[1:]
cli._parser().parse_args(words)  # argparse's own English, never patched
"""


@pytest.mark.parametrize("args", CASES, ids=" ".join)
def test_english_help_is_argparses_own(args):
    """SPELLFIELD_LANG=en prints exactly what the parser prints with argparse left alone."""
    ours = _run(args, SPELLFIELD_LANG="en")
    env = {k: v for k, v in os.environ.items() if k not in LOCALE_VARS}
    env.update(PYTHONPATH=str(ROOT), COLUMNS="100", SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy")
    plain = subprocess.run(
        [sys.executable, "-c", PLAIN, *args], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120
    )
    assert (ours.stdout, ours.stderr, ours.returncode) == (plain.stdout, plain.stderr, plain.returncode)
    assert "show this help message and exit" in ours.stdout or "error: " in ours.stderr


def test_argparse_is_left_alone_after_a_command(monkeypatch):
    """The translation is installed only while the command line parses (pytest's own argparse keeps English)."""
    import argparse

    from game import cli, i18n

    for var in LOCALE_VARS:
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setenv("SPELLFIELD_LANG", "ja")
    before = argparse._
    try:
        assert cli.main(["simulate", "--games", "0"]) == 2
        assert argparse._ is before
    finally:
        i18n.set_language("en")
