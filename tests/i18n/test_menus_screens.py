"""The menus in Korean and Japanese (issue 22): the main menu, the vs-AI set-up form, the Load
list and the demonstration list leave no English word on screen but the content's names (maps,
armies, rules profiles: the "rules" catalogue's part) and key names; the Language button cycles
English, Korean, Japanese and is remembered; --lang, SPELLFIELD_LANG and the setting choose the
language at start; L in a battle switches it and keeps the same game."""

from __future__ import annotations

import os
import re

os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ["SDL_AUDIODRIVER"] = "dummy"

import pygame  # noqa: E402
import pytest  # noqa: E402

from game import i18n  # noqa: E402
from game.ui import choices, settings, theme  # noqa: E402

#: Words that stay in every language: key names, the game's name, AI, rule IDs and dice.
KEPT = {"Enter", "Esc", "Space", "Page", "Down", "Up", "Ctrl", "Spellfield", "WASD"}


@pytest.fixture(autouse=True)
def _home(tmp_path, monkeypatch):
    monkeypatch.setenv("SPELLFIELD_HOME", str(tmp_path / "home"))
    monkeypatch.setenv("SPELLFIELD_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.delenv(i18n.ENV_LANG, raising=False)
    settings.forget_cache()
    yield
    i18n.set_language("en")
    settings.forget_cache()


@pytest.fixture
def app():
    from game.ui.app import App, init_pygame

    init_pygame(True)
    a = App((1280, 800), headless=True)
    yield a
    while a.scenes:
        a.pop()


def content_words() -> set[str]:
    """Every word of the content's names and descriptions (translated by the rules domain)."""
    words: set[str] = set()
    for c in [*choices.maps(), *choices.armies(), *choices.profiles()]:
        for text in (c.name, c.description, choices.label(c), choices.description(c)):
            words |= set(re.findall(r"[A-Za-z]+", text))
    return words


def shown_texts(app, monkeypatch) -> list[str]:
    """Every text the current scene puts on screen in one frame: what it draws through
    theme.text and the pygame-gui widgets' texts (buttons, labels, dropdowns)."""
    drawn: list[str] = []
    real = theme.text

    def spy(s, *a, **kw):
        drawn.append(s)
        return real(s, *a, **kw)

    monkeypatch.setattr(theme, "text", spy)
    app.frame(1 / 60)
    app.scene.draw(app.screen)
    monkeypatch.setattr(theme, "text", real)
    for element in app.scene.manager.get_root_container().elements:
        for attr in ("text", "selected_option", "tool_tip_text"):
            value = getattr(element, attr, None)
            if isinstance(value, tuple):  # a dropdown's (text, id)
                value = value[0]
            if isinstance(value, str):
                drawn.append(value)
        for option in getattr(element, "options_list", []) or []:
            drawn.append(option[0] if isinstance(option, tuple) else option)
    return drawn


def english_words(texts: list[str], allowed: set[str]) -> set[str]:
    """Words of three letters or more that are English, not a kept word, a rule ID or a dice."""
    found: set[str] = set()
    for t in texts:
        for w in re.findall(r"[A-Za-z]{3,}", t):
            if w not in KEPT and w not in allowed:
                found.add(w)
    return found


def _scenes(app):
    from game.ui.scenes.demo import DemoListScene
    from game.ui.scenes.menu import MenuScene, VsAIScene
    from game.ui.scenes.saves import SavesScene

    return [MenuScene(app), VsAIScene(app), SavesScene(app, "save"), SavesScene(app, "replay"), DemoListScene(app)]


@pytest.mark.parametrize("lang", ["ko", "ja"])
def test_the_menus_leave_no_english_word(app, monkeypatch, lang):
    i18n.set_language(lang)
    allowed = content_words()
    demo_titles: set[str] = set()
    from game.ui.scenes.demo import load_entries

    for e in load_entries()[0]:  # demonstration titles are content too (the rules domain)
        demo_titles |= set(re.findall(r"[A-Za-z]+", i18n._(e.title)))
    for scene in _scenes(app):
        app.push(scene)
        texts = shown_texts(app, monkeypatch)
        assert texts, type(scene).__name__
        left = english_words(texts, allowed | demo_titles)
        assert not left, (type(scene).__name__, sorted(left))
        app.pop()


@pytest.mark.parametrize("lang", ["ko", "ja"])
def test_the_menu_draws_in_the_languages_face(app, lang):
    from game.ui.scenes.menu import MenuScene

    i18n.set_language(lang)
    app.push(MenuScene(app))
    app.frame(1 / 60)
    want = {"ko": "Noto Sans KR", "ja": "Noto Sans JP"}[lang]
    assert theme.font(15).name == want
    button = app.scene.manager.get_root_container().elements[0]
    assert button.font.__dict__["_GUIFontPygame__internal_font"].name == want  # pygame-gui's buttons too


def _press_language(app) -> None:
    from game.ui.intents import intent

    app.scene.handle(intent("menu", go="language"))


def test_the_language_button_cycles_and_is_remembered(app):
    from game.ui.scenes.menu import MenuScene

    app.push(MenuScene(app))
    labels = []
    for _ in range(3):
        _press_language(app)
        labels.append(i18n.language())
        texts = [getattr(e, "text", "") for e in app.scene.manager.get_root_container().elements]
        assert any(i18n.LANGUAGES[i18n.language()] in t for t in texts)  # the button names it
        settings.forget_cache()  # read back from the file
        assert settings.get("language") == i18n.language()
    assert labels == ["ko", "ja", "en"]


def test_the_language_at_start_flag_then_env_then_setting_then_system(monkeypatch):
    from game.ui.app import choose_language

    monkeypatch.setenv("LANGUAGE", "ja_JP.UTF-8")
    assert choose_language(None) == "ja"  # nothing else: the system's
    settings.put("language", "ko")
    assert choose_language(None) == "ko"
    monkeypatch.setenv(i18n.ENV_LANG, "ja")
    assert choose_language(None) == "ja"
    assert choose_language("en") == "en"


def test_the_lang_flag_starts_the_game_in_that_language(tmp_path):
    from game.cli import main

    shot = tmp_path / "menu.png"
    assert main(["play", "--headless", "--menu", "--frames", "2", "--lang", "ja", "--screenshot", str(shot)]) == 0
    assert i18n.language() == "ja" and shot.is_file()
    i18n.set_language("en")
    assert main(["play", "--headless", "--menu", "--frames", "1", "--lang", "xx"]) == 2  # names the choices


def test_switching_in_a_battle_keeps_the_game(app):
    from game.ui.scenes.battle import BattleScene

    assert app.start_battle(app.default_options(), advance=6) is None
    scene = app.scene
    assert isinstance(scene, BattleScene)
    for _ in range(3):
        app.frame(1 / 60)
    session, state = scene.session, scene.state
    before = (list(session.actions()), len(session.history), repr(session.decision))
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_l, mod=0, unicode="l"))
    app.frame(1 / 60)
    assert i18n.language() == "ko"
    assert app.scene is scene and scene.session is session and scene.state is state  # the same game
    assert (list(session.actions()), len(session.history), repr(session.decision)) == before
    app.frame(1 / 60)
    assert scene._panel_key is not None  # the panel was built again
    from game.ui import keys_help
    from game.ui.input import BATTLE

    assert ("L", "다음 언어") in keys_help.rows(BATTLE)  # the H table shows the key, in Korean
