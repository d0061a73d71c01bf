"""UI tests run headless: SDL's dummy video and audio drivers, set before pygame is imported."""

from __future__ import annotations

import os

os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ["SDL_AUDIODRIVER"] = "dummy"
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

import pytest  # noqa: E402


@pytest.fixture(autouse=True)
def _spellfield_home(tmp_path, monkeypatch):
    """Saves and replays go to a temporary folder, never the user's."""
    monkeypatch.setenv("SPELLFIELD_HOME", str(tmp_path / "home"))


@pytest.fixture(autouse=True)
def _no_roll_confirm(request, monkeypatch):
    """Declare-then-roll is off unless a test module is about it (`CONFIRM_ROLLS = True`, as in
    tests/ui/test_declare_confirm.py): a chosen spell, prayer, banish, charge or shot applies
    at once. The setting itself is untouched (tests/ui/test_settings.py reads its default)."""
    if not getattr(request.module, "CONFIRM_ROLLS", False):
        from game.ui.controls import declare

        monkeypatch.setattr(declare, "enabled", lambda: False)


@pytest.fixture
def app():
    from game.ui.app import App, init_pygame

    init_pygame(True)
    a = App((1280, 800), headless=True)
    yield a
    while a.scenes:
        a.pop()


def frames(app, n: int = 2) -> None:
    for _ in range(n):
        app.frame(1 / 60)
