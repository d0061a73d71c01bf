"""Lint and types as habits: `ruff check game` finds nothing under the configured rule set and
`mypy` (pyproject's [tool.mypy]: game/rules and what it imports) reports no errors. Both tools
come with `pip install .[test]`, so `.ci/run` and the README's test command run these too."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", *args], cwd=ROOT, capture_output=True, text=True, timeout=600)


def test_ruff_finds_nothing_in_game():
    out = _run("ruff", "check", "--no-cache", "game")
    assert out.returncode == 0, out.stdout + out.stderr


def test_mypy_is_clean_on_the_rules_engine():
    out = _run("mypy", "--cache-dir", str(ROOT / ".mypy_cache"))
    assert out.returncode == 0, out.stdout + out.stderr
    assert "Success" in out.stdout
