"""Colours, fonts and styles. All text is Noto Sans (regular and bold), the font files that ship
inside the pygame-gui package, the same font its theme (assets/theme.json, "noto_sans") gives
the menus and panels: one even-spaced face for the HUD, the battlefield and the widgets."""

from __future__ import annotations

from functools import cache
from importlib import resources

import pygame

BG = (24, 26, 30)
PANEL = (34, 37, 43)
PANEL_EDGE = (70, 75, 86)
TEXT = (232, 232, 226)
TEXT_DIM = (160, 164, 170)
TEXT_BAD = (255, 120, 110)
TEXT_GOOD = (130, 230, 140)
ACCENT = (240, 200, 90)

FIELD = (92, 104, 78)  # the battlefield cloth
FIELD_EDGE = (20, 20, 20)
GRID_1 = (104, 117, 89)
GRID_6 = (126, 140, 108)
RULER_BG = (38, 40, 46)
RULER_TEXT = (210, 210, 200)

# Terrain styles by trait: fill, outline, pattern ("hatch", "cross", "dots" or None)
TERRAIN = {
    "impassable": ((58, 52, 50), (20, 18, 18), "cross"),
    "obscuring": ((70, 76, 60), (30, 34, 26), "hatch"),
    "cover": ((110, 128, 80), (60, 80, 40), "dots"),
    "plain": ((100, 108, 86), (70, 76, 60), None),
}

OBJECTIVE = (250, 220, 120)
OBJECTIVE_RING = (250, 220, 120)

RING_SPELL = (80, 220, 230)  # spell ranges
RING_UNBIND = (190, 120, 255)  # 30" unbind / banish
RING_CONTROL = (255, 190, 60)  # 24" control (E7)
RING_MOVE = (245, 245, 245)  # Move
RING_REACH = (120, 200, 255)  # summoning reach
SIGHT_CLEAR = (70, 235, 90)
SIGHT_BLOCKED = (240, 60, 50)
GHOST_OK = (70, 235, 90)
GHOST_BAD = (240, 60, 50)
RULER = (255, 255, 255)
SELECT = (255, 255, 255)
LEGAL_TARGET = (120, 255, 140)
WIZARD = (150, 110, 240)
PRIEST = (235, 190, 70)
HEALTH_OK = (90, 210, 90)
HEALTH_LOST = (120, 30, 30)
PREDATORY = (255, 70, 120)


def player_colour(state, player: int) -> tuple[int, int, int]:
    return tuple(state.game.army(player).colour) if player in (1, 2) else (150, 150, 150)


def darker(c, f: float = 0.55) -> tuple[int, int, int]:
    return tuple(int(v * f) for v in c[:3])


def lighter(c, f: float = 0.45) -> tuple[int, int, int]:
    return tuple(int(v + (255 - v) * f) for v in c[:3])


FONT_FILES = {False: "NotoSans-Regular.ttf", True: "NotoSans-Bold.ttf"}
# Noto Sans pixels per `size`: glyphs as big as the earlier default font's at the same `size`
# (pygame-ce drew that one at 0.6875 of 1.35 x size), so layouts keep their room.
FONT_SCALE = 0.93


def font_path(bold: bool = False) -> str:
    """The Noto Sans file pygame-gui ships (its data folder), regular or bold."""
    return str(resources.files("pygame_gui.data") / FONT_FILES[bold])


@cache
def font(size: int, bold: bool = False) -> pygame.font.Font:
    """Noto Sans with glyphs about as big as `size` suggests; `bold` is its real bold face.
    (pygame-ce's default font, drawn this small, spaced letters unevenly: "ph ase".)"""
    return pygame.font.Font(font_path(bold), max(6, round(size * FONT_SCALE)))


_TEXT_CACHE: dict = {}


def forget_fonts() -> None:
    """Drop cached fonts and text: a font made before `pygame.quit()` is dead, so a second run
    of the front end in one process (tests, a relaunch) must make its own."""
    font.cache_clear()
    _TEXT_CACHE.clear()


def text(s: str, size: int = 15, colour=TEXT, bold: bool = False) -> pygame.Surface:
    """A rendered text surface, cached (labels repeat every frame)."""
    key = (s, size, colour, bold)
    surf = _TEXT_CACHE.get(key)
    if surf is None:
        if len(_TEXT_CACHE) > 4000:
            _TEXT_CACHE.clear()
        surf = font(size, bold).render(s, True, colour)
        _TEXT_CACHE[key] = surf
    return surf


def wrap(s: str, size: int, width: int) -> list[str]:
    """Split `s` into lines that fit `width` pixels."""
    f = font(size)
    out: list[str] = []
    for para in s.split("\n"):
        line = ""
        for word in para.split(" "):
            trial = f"{line} {word}".strip()
            if f.size(trial)[0] <= width or not line:
                line = trial
            else:
                out.append(line)
                line = word
        out.append(line)
    return out


def gui_theme_path() -> str:
    """The pygame-gui theme shipped in assets/."""
    return str(resources.files("game.assets") / "theme.json")
