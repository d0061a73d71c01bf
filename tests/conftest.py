"""Every test keeps saves and autosaves in a temporary folder, never the user's."""

from __future__ import annotations

import pytest


@pytest.fixture(autouse=True)
def _private_data_dir(tmp_path, monkeypatch):
    monkeypatch.setenv("SPELLFIELD_DATA_DIR", str(tmp_path / "spellfield-data"))
