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


# Player colours that override the armies' own (None: each army's colour from its data file).
PLAYER_COLOURS: dict[int, tuple[int, int, int]] | None = None


def player_colour(state, player: int) -> tuple[int, int, int]:
    if player in (1, 2) and PLAYER_COLOURS is not None:
        return PLAYER_COLOURS[player]
    return tuple(state.game.army(player).colour) if player in (1, 2) else (150, 150, 150)


def darker(c, f: float = 0.55) -> tuple[int, int, int]:
    return tuple(int(v * f) for v in c[:3])


def lighter(c, f: float = 0.45) -> tuple[int, int, int]:
    return tuple(int(v + (255 - v) * f) for v in c[:3])


# --- layout sizes (pixels) ---------------------------------------------------------------
MIN_WINDOW = (1024, 640)  # the window is never smaller: below it the panels cannot fit
HEADER_H = 40  # the battle's header (round, phase, who acts, score)
STATUS_H = 26  # the battle's status line under the battlefield
SIDE_W = 390  # the battle's side panel (decision, dice tray, log) in a wide window
SIDE_W_NARROW = 320  # ... below WIDE: the battlefield keeps its room
WIDE = 1280


def side_width(window_w: int) -> int:
    """The side panel's width for a window `window_w` wide: full from WIDE up, narrower below."""
    return SIDE_W if window_w >= WIDE else SIDE_W_NARROW


FONT_FILES = {False: "NotoSans-Regular.ttf", True: "NotoSans-Bold.ttf"}
#: Korean and Japanese text needs its own Noto face (pygame-gui ships both, SIL Open Font License);
#: each also has the Latin letters, so a Korean screen's digits and rule IDs match its words.
LANG_FONT_FILES = {
    "ko": {False: "NotoSansKR-Regular.ttf", True: "NotoSansKR-Bold.ttf"},
    "ja": {False: "NotoSansJP-Regular.otf", True: "NotoSansJP-Bold.otf"},
}
# Noto Sans pixels per `size`: glyphs as big as the earlier default font's at the same `size`
# (pygame-ce drew that one at 0.6875 of 1.35 x size), so layouts keep their room.
FONT_SCALE = 0.93


def _lang(lang: str | None) -> str:
    from game import i18n

    return lang if lang is not None else i18n.language()


def font_path(bold: bool = False, lang: str | None = None) -> str:
    """The Noto file pygame-gui ships (its data folder) for the language (default: the one in
    use), regular or bold: Noto Sans, Noto Sans KR or Noto Sans JP."""
    files = LANG_FONT_FILES.get(_lang(lang), FONT_FILES)
    return str(resources.files("pygame_gui.data") / files[bold])


@cache
def _font(size: int, bold: bool, lang: str) -> pygame.font.Font:
    return pygame.font.Font(font_path(bold, lang), max(6, round(size * FONT_SCALE)))


def font(size: int, bold: bool = False, lang: str | None = None) -> pygame.font.Font:
    """Noto Sans (KR, JP for Korean, Japanese) with glyphs about as big as `size` suggests;
    `bold` is its real bold face. Cached per language, so a switch picks the other face.
    (pygame-ce's default font, drawn this small, spaced letters unevenly: "ph ase".)"""
    return _font(size, bold, _lang(lang))


font.cache_clear = _font.cache_clear  # type: ignore[attr-defined]  # callers that cleared the old cache

_TEXT_CACHE: dict = {}


def forget_fonts() -> None:
    """Drop cached fonts and text: a font made before `pygame.quit()` is dead, so a second run
    of the front end in one process (tests, a relaunch) must make its own."""
    _font.cache_clear()
    _TEXT_CACHE.clear()


def text(s: str, size: int = 15, colour=TEXT, bold: bool = False) -> pygame.Surface:
    """A rendered text surface, cached (labels repeat every frame), in the language's face."""
    lang = _lang(None)
    key = (s, size, colour, bold, lang)
    surf = _TEXT_CACHE.get(key)
    if surf is None:
        if len(_TEXT_CACHE) > 4000:
            _TEXT_CACHE.clear()
        surf = font(size, bold).render(s, True, colour)
        _TEXT_CACHE[key] = surf
    return surf


def wrap(s: str, size: int, width: int, bold: bool = False) -> list[str]:
    """Split `s` into lines that fit `width` pixels (game.ui.text_wrap: spaces in English and
    Korean, between characters in Japanese with its line-start and line-end rules)."""
    from game.ui.text_wrap import wrap as wrap_text

    return wrap_text(s, width, font(size, bold))


def gui_theme_path() -> str:
    """The pygame-gui theme shipped in assets/."""
    return str(resources.files("game.assets") / "theme.json")


# --- palettes ----------------------------------------------------------------------------
# The signal colours a palette swaps. Colour is never the only signal (a blocked sight line is
# dashed and crossed, an illegal ghost dashed and crossed, dice ticked or crossed), but the
# Okabe-Ito set keeps the colours themselves apart for red-green colour blindness too.
_SWAPPED = (
    "SIGHT_CLEAR", "SIGHT_BLOCKED", "GHOST_OK", "GHOST_BAD", "TEXT_GOOD", "TEXT_BAD", "LEGAL_TARGET",
    "HEALTH_OK", "RING_UNBIND", "RING_CONTROL", "PLAYER_COLOURS",
)  # fmt: skip
OKABE_ITO = {
    "orange": (0xE6, 0x9F, 0x00),
    "sky_blue": (0x56, 0xB4, 0xE9),
    "bluish_green": (0x00, 0x9E, 0x73),
    "yellow": (0xF0, 0xE4, 0x42),
    "blue": (0x00, 0x72, 0xB2),
    "vermillion": (0xD5, 0x5E, 0x00),
    "reddish_purple": (0xCC, 0x79, 0xA7),
}
_OI = OKABE_ITO
PALETTES: dict[str, dict] = {
    "default": {k: globals()[k] for k in _SWAPPED},
    # good = sky blue, bad = vermillion (apart for every common colour blindness, and sky blue
    # stands out on the green cloth); players orange and blue
    "okabe_ito": {
        "SIGHT_CLEAR": _OI["sky_blue"],
        "SIGHT_BLOCKED": _OI["vermillion"],
        "GHOST_OK": _OI["sky_blue"],
        "GHOST_BAD": _OI["vermillion"],
        "TEXT_GOOD": _OI["sky_blue"],
        "TEXT_BAD": _OI["vermillion"],
        "LEGAL_TARGET": _OI["sky_blue"],
        "HEALTH_OK": _OI["bluish_green"],
        "RING_UNBIND": _OI["reddish_purple"],
        "RING_CONTROL": _OI["yellow"],
        "PLAYER_COLOURS": {1: _OI["orange"], 2: _OI["blue"]},
    },
}
PALETTE = "default"
ENV_PALETTE = "SPELLFIELD_PALETTE"  # the environment variable the app reads


def palette_name(name: str) -> str:
    """`okabe-ito`, `Okabe_Ito` and `okabe_ito` name one palette; unknown names raise ValueError."""
    key = name.strip().lower().replace("-", "_")
    if key not in PALETTES:
        raise ValueError(f"unknown palette {name!r} (choose from: {', '.join(PALETTES)})")
    return key


def use_palette(name: str) -> str:
    """Swap the signal colours for palette `name` ("default" or "okabe_ito"); returns its key.
    Cached drawings made in the old colours are dropped (text, icons); the battlefield's cached
    board layer is keyed on `PALETTE` by the battle scene, so it is redrawn too."""
    global PALETTE
    key = palette_name(name)
    globals().update(PALETTES[key])
    PALETTE = key
    _TEXT_CACHE.clear()
    from game.ui.render import icons

    icons.icon.cache_clear()
    return key
