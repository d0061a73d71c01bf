"""The player's settings file (game/ui/settings.py): remembered between sessions, never a crash."""

from __future__ import annotations

import json
import os

from game.ui import settings


def setup_function() -> None:
    settings.forget_cache()


def test_defaults_without_a_file() -> None:
    assert settings.get("palette") == "default"
    assert settings.get("confirm_rolls") is True
    assert settings.problem() is None


def test_a_change_is_written_and_read_back_in_a_new_session() -> None:
    assert settings.put("palette", "okabe_ito") is None
    settings.forget_cache()  # a new session
    assert settings.get("palette") == "okabe_ito"
    data = json.loads(settings.path().read_text())
    assert data["format"] == settings.FORMAT


def test_a_damaged_file_gives_the_defaults_and_names_the_file() -> None:
    p = settings.path()
    p.parent.mkdir(parents=True, exist_ok=True)
    p.write_text("{not json")
    assert settings.get("palette") == "default"
    problem = settings.problem()
    assert problem is not None and str(p) in problem
    assert p.read_text() == "{not json"  # left as it was until the player changes a setting


def test_a_wrong_type_keeps_the_default_for_that_key_only() -> None:
    p = settings.path()
    p.parent.mkdir(parents=True, exist_ok=True)
    p.write_text(json.dumps({"format": settings.FORMAT, "palette": "okabe_ito", "confirm_rolls": "yes"}))
    assert settings.get("palette") == "okabe_ito"
    assert settings.get("confirm_rolls") is True
    assert "confirm_rolls" in (settings.problem() or "")


def test_a_folder_where_the_file_should_be_is_not_fatal() -> None:
    p = settings.path()
    os.makedirs(p)
    assert settings.get("palette") == "default"
    assert settings.problem() is not None
    problem = settings.put("palette", "okabe_ito")
    assert problem is not None and problem.startswith("settings not saved")
    assert settings.get("palette") == "okabe_ito"  # holds for this session


def test_the_menu_colours_button_is_remembered(monkeypatch) -> None:
    from game.ui import theme
    from game.ui.app import _saved_palette

    settings.put("palette", "okabe_ito")
    settings.forget_cache()
    assert _saved_palette(settings.get("palette")) == "okabe_ito"
    assert _saved_palette("no such palette") == "default"
    theme.use_palette("default")
