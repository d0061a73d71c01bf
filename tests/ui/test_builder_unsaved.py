"""The army builder's rough edges (issue 23): unsaved changes are never lost without a question
(Back, Esc, New list, another faction, another saved list), and the list's points limit is
chosen in the builder and saved in the list file."""

from __future__ import annotations

import pygame
import pytest

from game.data import army_lists as al
from game.data import library
from game.rules import data_dir
from game.ui import widgets
from game.ui.intents import intent
from game.ui.scenes.builder import POINTS_LIMITS, BuilderScene
from game.ui.scenes.menu import MenuScene


@pytest.fixture(autouse=True)
def _library():
    library.set_active(library.load_library(data_dir()), data_dir())
    yield
    library.set_active(None)


def open_builder(app) -> BuilderScene:
    menu = MenuScene(app)
    app.push(menu)
    menu.handle(intent("menu", go="builder"))
    assert isinstance(app.scene, BuilderScene)
    return app.scene


def b(scene, op: str, **kw) -> None:
    scene.handle(intent("builder", op=op, **kw))


def test_an_empty_new_list_is_left_without_a_question(app) -> None:
    scene = open_builder(app)
    assert not scene.unsaved()
    scene.handle(intent("back"))
    assert isinstance(app.scene, MenuScene)


def test_back_with_unsaved_changes_asks_and_esc_stays(app) -> None:
    scene = open_builder(app)
    b(scene, "add", warscroll="pyre_magister")
    scene.handle(intent("back"))
    assert app.scene is scene and scene.confirm is not None
    assert scene.confirm.question == "Leave without saving?"
    assert scene.manager.get_root_container().elements == []  # modal: nothing under it takes a click
    scene.draw(pygame.Surface(app.size))
    b(scene, "add", warscroll="pyre_magister")  # swallowed while the question is open
    assert len(scene.units) == 1
    scene.handle(intent("back"))  # Esc: no, stay
    assert app.scene is scene and scene.confirm is None and len(scene.units) == 1
    assert any(e in widgets.INTENTS for e in scene.manager.get_root_container().elements)  # the widgets are back
    scene.handle(intent("back"))
    scene.handle(intent("continue"))  # Enter: yes, leave
    assert isinstance(app.scene, MenuScene)


def test_a_click_on_leave_leaves(app) -> None:
    scene = open_builder(app)
    b(scene, "add", warscroll="pyre_magister")
    scene.handle(intent("back"))
    scene.draw(pygame.Surface(app.size))
    scene.handle(intent("press", pos=scene.confirm.rects["yes"].center, button=1))
    assert isinstance(app.scene, MenuScene)


def test_switching_faction_or_new_list_with_unsaved_changes_asks_first(app) -> None:
    scene = open_builder(app)
    b(scene, "faction", keyword="EMBERWARD")
    b(scene, "add", warscroll="pyre_magister")
    b(scene, "faction", keyword="MIRECOURT")
    assert scene.confirm is not None and scene.faction.keyword == "EMBERWARD"
    scene.handle(intent("confirm_no"))
    assert scene.faction.keyword == "EMBERWARD" and len(scene.units) == 1
    scene.handle(intent("ui", name="faction", value="The Mirecourt Circle"))  # the dropdown asks too
    assert scene.confirm is not None
    scene.handle(intent("confirm_yes"))
    assert scene.faction.keyword == "MIRECOURT" and scene.units == [] and not scene.unsaved()
    b(scene, "add", warscroll="reed_witch")
    b(scene, "new")
    assert scene.confirm is not None and len(scene.units) == 1
    scene.handle(intent("continue"))
    assert scene.units == []


def test_saved_or_opened_lists_leave_at_once_and_an_edit_asks_again(app) -> None:
    scene = open_builder(app)
    b(scene, "faction", keyword="MIRECOURT")
    b(scene, "add", warscroll="reed_witch")
    scene.handle(intent("ui", name="list_name", value="Witch Alone"))
    b(scene, "save")
    path = scene.editing
    b(scene, "new")  # saved: no question
    assert scene.confirm is None and scene.units == []
    b(scene, "lists")
    b(scene, "edit", path=str(path))
    assert scene.confirm is None and scene.editing == path and not scene.unsaved()
    scene.handle(intent("ui", name="unit:0", value="The Witch"))
    assert scene.unsaved()
    scene.handle(intent("back"))
    assert scene.confirm is not None


def test_the_points_limit_is_chosen_and_saved_in_the_list(app) -> None:
    scene = open_builder(app)
    names = [
        e for e, n in widgets.NAMES.items() if n == "points_limit" and e in scene.manager.get_root_container().elements
    ]
    assert len(names) == 1  # the dropdown is on screen
    assert names[0].options_list and [o[0] for o in names[0].options_list] == [
        scene.limit_label(n) for n in POINTS_LIMITS
    ]
    b(scene, "faction", keyword="EMBERWARD")
    for w in ("pyre_magister", "emberward_spears", "emberward_spears", "emberward_spears"):
        b(scene, "add", warscroll=w)
    scene.handle(intent("ui", name="list_name", value="Small Host"))
    total = al.points_total(scene.content, scene.draft())
    scene.handle(intent("ui", name="points_limit", value=scene.limit_label(500)))
    assert scene.limit == 500 and scene.unsaved()
    over = [p for p in scene.problems() if "500" in str(p.say(lambda s: s))]
    assert (total > 500) == bool(over)
    scene.handle(intent("ui", name="points_limit", value="2000"))  # a script may give the number
    assert scene.limit == 2000 and scene.problems() == []
    b(scene, "save")
    saved = al.load_list(scene.editing)
    assert saved.points_limit == 2000
    assert "points_limit = 2000" in scene.editing.read_text(encoding="utf-8")
    b(scene, "new")
    assert scene.limit == 1000
    b(scene, "lists")
    b(scene, "edit", path=str(data_dir() / "armies" / "small_host.toml"))
    assert scene.limit == 2000 and not scene.unsaved()
    app.frame(1 / 60)
    scene.draw(pygame.Surface(app.size))


@pytest.mark.parametrize("size", [(1024, 640), (1280, 800)])
def test_the_limit_dropdown_fits_beside_the_title_and_the_points(app, size) -> None:
    scene = open_builder(app)
    app.resize(size)
    drop = next(
        e for e, n in widgets.NAMES.items() if n == "points_limit" and e in scene.manager.get_root_container().elements
    )
    _left, mid, card = scene.columns()
    title_right = 16 + 220  # "Army builder" at 30px bold is about 190px wide
    assert drop.rect.left > title_right and drop.rect.right <= mid.right < card.left
    assert drop.rect.bottom <= 64  # above the list's name row
