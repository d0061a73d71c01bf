"""Small helpers over pygame-gui: buttons that carry an `Intent`, read back by `game.ui.input`."""

from __future__ import annotations

import weakref

import pygame
import pygame_gui
from pygame_gui.elements import UIButton

from game.ui.intents import Intent
from game.ui.theme import gui_theme_path

# element -> the intent it stands for (input.py reads this when pygame-gui reports a press)
INTENTS: "weakref.WeakKeyDictionary" = weakref.WeakKeyDictionary()
# element -> a name for menu widgets (dropdowns, lists, entries): input.py emits ui(name, value)
NAMES: "weakref.WeakKeyDictionary" = weakref.WeakKeyDictionary()


def new_manager(size: tuple[int, int]) -> pygame_gui.UIManager:
    """A pygame-gui manager in the language in use: its theme (assets/theme.json) gives each
    element a Noto face per locale (Noto Sans, Noto Sans KR, Noto Sans JP)."""
    from game import i18n
    from game.ui.theme import font_path

    manager = pygame_gui.UIManager(size, None, enable_live_theme_updates=False, starting_language=i18n.language())
    # pygame-gui knows only its own locale's face by name: tell it where all three live
    for name, lang in (("noto_sans", "en"), ("noto_sans_kr", "ko"), ("noto_sans_jp", "ja")):
        manager.add_font_paths(name, font_path(False, lang), font_path(True, lang))
    manager.get_theme().load_theme(gui_theme_path())
    return manager


def button(
    rect,
    label: str,
    manager,
    intent: Intent,
    container=None,
    tooltip: str | None = None,
    object_id: str | None = None,
    enabled: bool = True,
) -> UIButton:
    b = UIButton(
        pygame.Rect(rect), label, manager=manager, container=container, tool_tip_text=tooltip, object_id=object_id
    )
    INTENTS[b] = intent
    if not enabled:
        b.disable()
    return b


def hovered_intent() -> Intent | None:
    """The intent of the live button the pointer is on (pygame-gui's hover state), if any: a
    field tool shows on the battlefield what a hovered button would pick."""
    for element, it in list(INTENTS.items()):
        if getattr(element, "hovered", False) and element.alive():
            return it
    return None


def named(element, name: str):
    NAMES[element] = name
    return element
