"""The rule demonstrations list (issue 20): one row per demonstration with its rule chips,
grouped Magic / Endless spells / Geometry / Core, a filter box, titles that wrap (in the scene
and in an exported GIF frame), and "again" / "next demonstration" on the last step."""

from __future__ import annotations

import pygame
import pytest

from game.ui import theme
from game.ui.intents import intent
from game.ui.scenes.demo import DemoListScene, DemoScene, paint_frame
from game.ui.scenes.menu import MenuScene
from tests.ui.conftest import frames

LONG_TITLE = (
    "A very long demonstration title that goes on and on about wholly within, predatory reach "
    "and the footprint of a manifestation, far wider than any panel"
)


@pytest.fixture
def demo_list(app):
    app.push(MenuScene(app))
    app.scene.handle(intent("menu", go="demos"))
    assert isinstance(app.scene, DemoListScene)
    frames(app)
    return app.scene


def test_one_row_per_demonstration_grouped_by_rule_family(demo_list):
    from game.demos.loader import demo_sources

    demos = [r for r in demo_list.rows if r.entry is not None]
    assert sorted(r.entry.name for r in demos) == sorted(demo_sources())  # each once
    heads = [r.text[0] for r in demo_list.rows if r.entry is None]
    assert heads == ["Magic", "Endless spells", "Geometry", "Core"]
    family = None
    for r in demo_list.rows:  # every row sits under the heading of its first rule's family
        if r.entry is None:
            family = r.text[0]
        else:
            assert r.entry.family == family
            assert {"M": "Magic", "E": "Endless spells", "G": "Geometry", "R": "Core"}[r.entry.rules[0][0]] == family


def test_the_filter_keeps_a_rule_id_exactly(demo_list):
    demo_list.handle(intent("ui", name="filter", value="E7"))
    shown = demo_list.shown()
    assert shown and all("E7" in e.rules for e in shown)
    assert len([r for r in demo_list.rows if r.entry]) == len(shown)
    demo_list.handle(intent("ui", name="filter", value="m1"))  # M1, not M10, M11 or M12
    assert shown != demo_list.shown() and all("M1" in e.rules for e in demo_list.shown())


def test_the_filter_keeps_words_of_the_title(demo_list):
    demo_list.handle(intent("ui", name="filter", value="summon"))
    shown = demo_list.shown()
    assert shown and all("summon" in (e.title + e.name).lower() for e in shown)
    demo_list.handle(intent("ui", name="filter", value="no such words here"))
    assert demo_list.shown() == [] and demo_list.rows == []
    demo_list.handle(intent("continue"))
    assert "No demonstration matches" in demo_list.message


def test_clicking_a_row_plays_it(app, demo_list):
    demo_list.handle(intent("ui", name="filter", value="E7"))
    row = next(r for r in demo_list.rows if r.entry is not None)
    pos = (demo_list.list_rect.x + 40, demo_list.list_rect.y + row.y + row.h // 2)
    demo_list.handle(intent("press", pos=pos, button=1))
    scene = app.scene
    assert isinstance(scene, DemoScene) and scene.name == row.entry.name
    assert scene.sequence == [e.name for e in demo_list.shown()]  # "next" follows the filtered list


def _at_last_step(app, scene: DemoScene) -> None:
    for _ in range(len(scene.run.frames)):
        scene.handle(intent("step", delta=1))
    frames(app)


def _live_labels(scene) -> list[str]:
    from game.ui import widgets

    return [e.text for e in widgets.INTENTS if e.alive() and e.ui_manager is scene.manager]


def test_the_last_step_offers_again_and_next(app, demo_list):
    demo_list.handle(intent("ui", name="filter", value="E7"))
    names = [e.name for e in demo_list.shown()]
    demo_list.open(names[0])
    scene = app.scene
    assert "Again" not in _live_labels(scene)
    _at_last_step(app, scene)
    assert {"Again", "Next demonstration"} <= set(_live_labels(scene))
    scene.handle(intent("again"))
    assert scene.index == 0 and "Again" not in _live_labels(scene)
    _at_last_step(app, scene)
    scene.handle(intent("next_demo"))
    nxt = app.scene
    assert isinstance(nxt, DemoScene) and nxt.name == names[1] and nxt.index == 0
    app.scene.handle(intent("back"))
    assert app.scene is demo_list  # "next" replaced the scene: Back is still the list


class Recording(pygame.Surface):
    """A surface that notes every text-sized blit's rectangle (the panel draws straight onto it)."""

    def __init__(self, size) -> None:
        super().__init__(size)
        self.rects: list[pygame.Rect] = []

    def blit(self, source, dest, *a, **k):
        r = super().blit(source, dest, *a, **k)
        if not hasattr(self, "rects"):  # the battlefield's subsurface: not the panel
            return r
        self.rects.append(pygame.Rect(dest[0], dest[1], source.get_width(), source.get_height()))
        return r


def _long_title_run():
    from game.demos import load_demo, run_demo

    run = run_demo(load_demo("e9_reach_from_the_footprint"))
    object.__setattr__(run.demo.demo, "title", LONG_TITLE)  # the demo model is frozen: a test-only title
    return run


@pytest.mark.parametrize("size", [(1280, 800), (640, 480)])
def test_a_long_title_wraps_in_the_scene(app, size):
    run = _long_title_run()
    surf = Recording(size)
    paint_frame(surf, run, len(run.frames) - 1, reserve=110)
    w = size[0]
    panel_x = w - min(430, max(300, w // 3))
    inside = [r for r in surf.rects if r.x >= panel_x]
    assert len([r for r in inside if r.y < 80]) >= 3  # the title took several lines
    assert all(r.right <= w - 10 for r in inside), [r for r in inside if r.right > w - 10]


def test_a_long_title_wraps_in_an_exported_gif_frame(tmp_path, monkeypatch):
    from PIL import Image

    from game.ui import export

    run = _long_title_run()
    said: list[str] = []
    real = theme.text

    def noting(s, *a, **k):
        said.append(s)
        return real(s, *a, **k)

    monkeypatch.setattr(theme, "text", noting)
    out = export.export_gif(run, tmp_path / "long.gif", size=(640, 480))
    frame = Image.open(out)
    assert frame.size == (640, 480)
    title_lines = [s for s in said if s and s in LONG_TITLE]
    assert len(title_lines) >= 3 and " ".join(dict.fromkeys(title_lines)) == LONG_TITLE
    panel_w = min(430, max(300, 640 // 3)) - 28
    for s in dict.fromkeys(title_lines):
        assert theme.font(20, True).size(s)[0] <= panel_w  # measured in the bold face it is drawn in


def test_h_in_a_demonstration_shows_its_keys_and_only_those(app, demo_list):
    from game.ui import keys_help
    from game.ui.input import RULE_DEMO

    demo_list.open(demo_list.shown()[0].name)
    scene = app.scene
    scene.handle(intent("help"))
    assert scene.keys_open
    frames(app)
    table = dict(keys_help.rows(RULE_DEMO))
    assert ". / Page Down" in table and ", / Page Up" in table and "Esc" in table
    assert not any("pan" in does or "end the phase" in does for does in table.values())  # no dead keys
    scene.handle(intent("back"))  # Esc closes the table first, not the demonstration
    assert not scene.keys_open and app.scene is scene
