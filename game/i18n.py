"""One translation layer for everything a player reads (issue 22): English, Korean, Japanese.

gettext catalogues, one per domain (the part of the game a string belongs to), kept as `.po`
files under `game/locale/<lang>/LC_MESSAGES/<domain>.po` and compiled by Babel to the `.mo` files
shipped beside them (`python tools/i18n.py compile`). At run time only the standard library's
gettext reads them; Babel formats numbers per language.

Use:
    from game.i18n import _, ngettext, N_
    _("New hotseat game")
    _("{unit} casts {spell}").format(unit=..., spell=...)     # named fields: word order differs
    ngettext("{n} die", "{n} dice", n).format(n=n)
    LABEL = N_("Quit")    # marked for extraction at import time, translated where it is shown: _(LABEL)

Rules of the layer:
- The engine (`game.rules`, `game.geometry`, `game.data`) never translates: its events, saves
  and replays are the same bytes in every language. The front end translates what it shows.
- A format string's fields are named (`{unit}`), and a translation keeps the same fields
  (tests/i18n checks every catalogue: complete, same fields, every glyph in the font).
- Switching language (`set_language`) takes effect at the next `_()` call; scenes rebuild their
  widgets through `on_change` listeners.
"""

from __future__ import annotations

import gettext
import locale as _locale
import os
from collections.abc import Callable
from pathlib import Path

#: The languages, by code, with their own names (as the language menu shows them).
LANGUAGES: dict[str, str] = {"en": "English", "ko": "한국어", "ja": "日本語"}
DEFAULT = "en"
#: The catalogues, one per part of the game (each lists its source files in tools/i18n.py).
DOMAINS: tuple[str, ...] = ("menus", "battle", "log", "rules", "engine", "cli")
LOCALE_DIR = Path(__file__).resolve().parent / "locale"
ENV_LANG = "SPELLFIELD_LANG"

_lang = DEFAULT
_catalogue: gettext.NullTranslations = gettext.NullTranslations()
_listeners: list[Callable[[str], None]] = []


def _load(lang: str) -> gettext.NullTranslations:
    """Every domain's catalogue for `lang`, chained (a msgid is looked up in each in turn)."""
    first: gettext.NullTranslations | None = None
    for domain in DOMAINS:
        t = gettext.translation(domain, LOCALE_DIR, [lang], fallback=True)
        if isinstance(t, gettext.GNUTranslations):
            if first is None:
                first = t
            else:
                first.add_fallback(t)
    return first or gettext.NullTranslations()


def language_code(name: str | None) -> str:
    """`ko`, `ko_KR.UTF-8`, `ja-JP` and `KO` name a language we have; anything else is English."""
    if not name:
        return DEFAULT
    code = name.replace("-", "_").split("_")[0].split(".")[0].lower()
    return code if code in LANGUAGES else DEFAULT


def system_language() -> str:
    """The language of the system's locale (LANGUAGE, LC_ALL, LC_MESSAGES, LANG), else English."""
    for var in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        value = os.environ.get(var)
        if value:
            return language_code(value.split(":")[0])
    try:
        return language_code(_locale.getlocale()[0])
    except (ValueError, TypeError):
        return DEFAULT


def set_language(lang: str) -> str:
    """Use `lang` ("en", "ko", "ja"; a locale name is accepted) from now on; returns its code.
    Raises ValueError naming the choices for a language we do not have."""
    global _lang, _catalogue
    code = name = str(lang)
    code = language_code(name)
    if code == DEFAULT and name.replace("-", "_").split("_")[0].lower() != DEFAULT:
        raise ValueError(f"unknown language {lang!r} (choose from: {', '.join(LANGUAGES)})")
    _lang = code
    _catalogue = _load(code) if code != DEFAULT else gettext.NullTranslations()
    for listener in list(_listeners):
        listener(code)
    return code


def language() -> str:
    """The language in use ("en", "ko" or "ja")."""
    return _lang


def on_change(listener: Callable[[str], None]) -> None:
    """Call `listener(code)` after every `set_language` (scenes rebuild their widgets)."""
    if listener not in _listeners:
        _listeners.append(listener)


def _(msgid: str) -> str:
    """`msgid` in the language in use (itself in English, or when no translation exists)."""
    return _catalogue.gettext(msgid)


def ngettext(singular: str, plural: str, n: int) -> str:
    """The singular or plural form for `n`, by the language's own plural rule."""
    return _catalogue.ngettext(singular, plural, n)


def pgettext(context: str, msgid: str) -> str:
    """`msgid` in a context (the same English word meaning two things)."""
    return _catalogue.pgettext(context, msgid)


def N_(msgid: str) -> str:
    """Mark `msgid` for the catalogue without translating it now (translate it where shown)."""
    return msgid


#: The engine's phase names (R2) as bare words, for sentences such as "ends the hero phase": one
#: set for the AI's reasons and the engine's messages (game.ui.phase_words has the titled forms).
PHASE_WORDS: dict[str, str] = {
    "start_of_turn": N_("start of turn"),
    "hero": N_("hero"),
    "movement": N_("movement"),
    "shooting": N_("shooting"),
    "charge": N_("charge"),
    "combat": N_("combat"),
    "end_of_turn": N_("end of turn"),
}


def number(value: float, digits: int = 0) -> str:
    """`value` with `digits` decimals, in the language's number format (Babel)."""
    from babel.numbers import format_decimal

    pattern = "#,##0" + ("." + "0" * digits if digits > 0 else "")
    return format_decimal(value, format=pattern, locale=_lang)
