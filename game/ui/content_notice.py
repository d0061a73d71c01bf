"""The main menu's one line about the player's own content files that could not be read (issue
23): a broken pack in the data folder is left out whole, and the player is told where to look."""

from __future__ import annotations

from game.i18n import ngettext


def content_notice() -> str:
    """ "2 of your content files could not be read; see spellfield check <folder>", or "" when
    every file was read. Each problem names its file first (`packs/mine/army.toml: ...`)."""
    from game.data import library
    from game.rules import data_dir

    problems = library.active().problems
    if not problems:
        return ""
    files = {p.split(": ", 1)[0] for p in problems}
    return ngettext(
        "{n} of your content files could not be read; see spellfield check {folder}",
        "{n} of your content files could not be read; see spellfield check {folder}",
        len(files),
    ).format(n=len(files), folder=data_dir() / library.PACKS_FOLDER if _only_packs(files) else data_dir())


def _only_packs(files: set[str]) -> bool:
    from game.data import library

    return all(f.startswith(f"{library.PACKS_FOLDER}/") for f in files)
