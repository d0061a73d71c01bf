"""Issue 22: a rule demonstration follows a language change at once (its title, captions, step
texts, measured lines and the engine's refusals redrawn in the new language, on the step shown),
and exports as an animated GIF in Korean and in Japanese (E1, G4 refusals; M3)."""

from __future__ import annotations

import pytest
from i18n_rulewords import english_words

from game import i18n
from game.demos import load_demo, run_demo

DEMO = "e1_aos3_untouchable"  # two refused steps (E1, G4) and measured lines


@pytest.fixture
def app(monkeypatch):
    from game.ui.app import App, init_pygame

    monkeypatch.delenv("SPELLFIELD_LANG", raising=False)
    init_pygame(True)
    a = App((1280, 800), headless=True)
    yield a
    while a.scenes:
        a.pop()
    i18n.set_language("en")


def _drawn(monkeypatch, scene, surface) -> list[str]:
    """Every text the scene draws in one frame (theme.text is where every panel line is made)."""
    from game.ui import theme

    seen: list[str] = []
    real = theme.text

    def spy(text, *a, **kw):
        seen.append(str(text))
        return real(text, *a, **kw)

    monkeypatch.setattr(theme, "text", spy)
    scene.draw(surface)
    monkeypatch.setattr(theme, "text", real)
    return seen


KEYS = {"Space", "Esc", "Enter", "Tab", "Shift", "Ctrl"}  # key caps, as printed on the keyboard


def _english(lines: list[str]) -> list[str]:
    left = [(line, [w for w in english_words(line) if w not in KEYS]) for line in lines]
    return [f"{line!r}: {words}" for line, words in left if words]


@pytest.mark.parametrize("code", ["ko", "ja"])
def test_e1_g4_an_open_demonstration_switches_language_at_once(app, monkeypatch, code):
    import pygame

    from game.ui.scenes.demo import DemoScene

    scene = DemoScene(app, run_demo(load_demo(DEMO)), DEMO)
    app.push(scene)
    surface = pygame.Surface(app.size)
    english_title = scene.run.demo.demo.title
    for index in (1, 3):  # the two refused steps: the caption, the refusal, the measured line
        scene.go(index - scene.index)
        assert scene.run.frames[index].refused
        assert "Refused:" in " ".join(_drawn(monkeypatch, scene, surface))
        app.set_language(code, remember=False)
        assert scene.index == index and scene.run.demo.demo.title != english_title
        lines = _drawn(monkeypatch, scene, surface)
        assert not _english(lines), _english(lines)
        assert any(i18n._("Refused: {reason}").split("{reason}")[0] in line for line in lines)
        app.set_language("en", remember=False)
        assert scene.run.demo.demo.title == english_title


def test_the_l_key_switches_an_open_demonstration(app, monkeypatch):
    import pygame

    from game.ui.scenes.demo import DemoScene

    scene = DemoScene(app, run_demo(load_demo(DEMO)), DEMO)
    app.push(scene)
    scene.go(3)
    app.frame(1 / 60)
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_l, mod=0, unicode="l"))
    app.frame(1 / 60)
    assert i18n.language() == "ko" and app.scene is scene and scene.index == 3
    lines = _drawn(monkeypatch, scene, pygame.Surface(app.size))
    assert not _english(lines), _english(lines)


@pytest.mark.parametrize("code", ["ko", "ja"])
def test_m3_gif_export_in_korean_and_japanese(code, tmp_path):
    pytest.importorskip("pygame")
    from PIL import Image

    from game.ui.export import export_gif

    i18n.set_language(code)
    try:
        run = run_demo(load_demo("m3_miscast"))
        out = export_gif(run, tmp_path / f"m3_{code}.gif", (640, 400))
    finally:
        i18n.set_language("en")
    with Image.open(out) as im:
        assert im.format == "GIF" and im.is_animated
        assert im.n_frames == len(run.frames) and im.size == (640, 400)
        sizes = set()
        for k in range(im.n_frames):
            im.seek(k)
            sizes.add(im.convert("RGB").size)
        assert sizes == {(640, 400)}


def test_readme_languages_section_shows_the_demonstrations_in_korean_and_japanese():
    from pathlib import Path

    from PIL import Image

    root = Path(__file__).resolve().parents[2]
    readme = root.joinpath("README.md").read_text(encoding="utf-8")
    section = readme.split("## Languages", 1)[1].split("\n## ", 1)[0]
    for code in ("ko", "ja"):
        assert f"(docs/demo_{code}.png)" in section
        with Image.open(root / "docs" / f"demo_{code}.png") as im:
            assert im.format == "PNG" and im.size == (1280, 800)
