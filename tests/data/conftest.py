"""Helpers for the data-layer tests: write TOML into tmp_path."""

from __future__ import annotations

from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
MAPS_DIR = REPO / "maps"
CONTENT_DIR = REPO / "game" / "content"

MINIMAL_MAP = """\
[map]
id = "tiny"
name = "Tiny"
width = 60
height = 44

[[map.terrain]]
name = "Rock"
traits = ["impassable"]
points = [[28, 20], [32, 20], [32, 24], [28, 24]]

[[map.objectives]]
x = 20
y = 22

[[map.deployment]]
player = 1
points = [[0, 0], [60, 0], [60, 12], [0, 12]]
anchors = [[10, 6]]

[[map.deployment]]
player = 2
points = [[0, 32], [60, 32], [60, 44], [0, 44]]
anchors = [[10, 38]]
"""


@pytest.fixture
def minimal_map() -> str:
    """A small valid map file's text."""
    return MINIMAL_MAP


@pytest.fixture
def write(tmp_path: Path):
    """write(name, text) -> path of a new file in tmp_path."""

    def _write(name: str, text: str | bytes) -> Path:
        p = tmp_path / name
        if isinstance(text, bytes):
            p.write_bytes(text)
        else:
            p.write_text(text, encoding="utf-8")
        return p

    return _write
