"""Content names and texts in the player's language (issue 22, domain "rules").

Every unit (warscroll), army, spell, prayer, manifestation, lore, weapon, map, terrain piece and
objective name, every content description or flavour text, the rules profiles' titles and
descriptions, and the demonstrations' titles, introductions, captions and labels are English in
the content files (game/content/*.toml, maps/*.toml, maps/demos/*.toml). The engine keeps them
English (events, saves and replays are the same bytes in every language); the front end shows
them through `content_name()`, which looks them up in the "rules" catalogue at the moment of
display. `content_strings()` lists them for the catalogue (tools/i18n.py adds them to the
"rules" template), with the file each one comes from.

It lives beside the command line (not in game.ui) because the demonstrations, the simulator's
table and the text view show content names too; game.ui.content_words re-exports it for the UI.
"""

from __future__ import annotations

import tomllib
from pathlib import Path

from game.i18n import _

ROOT = Path(__file__).resolve().parents[1]
#: The content files whose texts a player reads (globs from the repository's root).
CONTENT_FILES = ("game/content/*.toml", "maps/*.toml", "maps/demos/*.toml")
#: The keys whose values are shown: names, descriptions, flavour texts, demonstration captions.
TEXT_KEYS = frozenset({"name", "description", "text", "title", "intro", "summary", "caption", "label"})


def content_name(text: str) -> str:
    """`text` (a content name or text, in English as the content files write it) in the language
    in use; itself when the catalogue has no translation (a player's own map, say)."""
    return _(text) if text else text


def _walk(node: object, key: str, out: list[str]) -> None:
    if isinstance(node, dict):
        for k, v in node.items():
            _walk(v, k, out)
    elif isinstance(node, list):
        for v in node:
            _walk(v, key, out)
    elif isinstance(node, str) and key in TEXT_KEYS and node.strip():
        out.append(node)


def content_strings(root: Path = ROOT) -> list[tuple[str, str]]:
    """(text, file) for every shown text of the content files and the rules profiles, each text
    once (its first file), in file order."""
    seen: dict[str, str] = {}
    for pattern in CONTENT_FILES:
        for path in sorted(root.glob(pattern)):
            found: list[str] = []
            _walk(tomllib.loads(path.read_text(encoding="utf-8")), "", found)
            for text in found:
                seen.setdefault(text, str(path.relative_to(root)))
    try:  # the profiles' titles and descriptions (the set-up screen's rules choice)
        from game.rules import query

        for _id, title, desc in query.profile_choices():
            for text in (title, desc):
                if text:
                    seen.setdefault(text, "game/rules (profiles)")
    except Exception:  # extraction must not fail because the engine cannot be imported
        pass
    return list(seen.items())
