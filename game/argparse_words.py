"""argparse's own words (usage:, options:, its error messages) in the player's language (issue 22).

argparse translates through its module globals `_` and `ngettext` (``from gettext import gettext
as _, ngettext``), looked up when a parser is built, formats help or reports an error. `speaking()`
points them at game.i18n while the command line builds and runs its parser, so the msgids below
(copied exactly from argparse.py of Python 3.11, hence %-style fields: they are argparse's, not
ours) come from the "cli" catalogue. English stays argparse's own text, byte for byte.
"""

from __future__ import annotations

import argparse
from collections.abc import Iterator
from contextlib import contextmanager

from game import i18n
from game.i18n import N_

#: The msgids argparse can show a player (its programming errors, e.g. "dest= is required", are left out).
WORDS: tuple[str, ...] = (
    N_("usage: "),
    N_("positional arguments"),
    N_("options"),
    N_("subcommands"),
    N_("show this help message and exit"),
    N_("argument %(argument_name)s: %(message)s"),
    N_("%(prog)s: error: %(message)s\n"),
    N_("unrecognized arguments: %s"),
    N_("the following arguments are required: %s"),
    N_("one of the arguments %s is required"),
    N_("not allowed with argument %s"),
    N_("ignored explicit argument %r"),
    N_("expected one argument"),
    N_("expected at most one argument"),
    N_("expected at least one argument"),
    N_("ambiguous option: %(option)s could match %(matches)s"),
    N_("unexpected option string: %s"),
    N_("invalid %(type)s value: %(value)r"),
    N_("invalid choice: %(value)r (choose from %(choices)s)"),
    N_("unknown parser %(parser_name)r (choices: %(choices)s)"),
    N_("can't open '%(filename)s': %(error)s"),
    N_('argument "-" with mode %r'),
)


def _plural_marks() -> None:  # pragma: no cover - never called: marks argparse's plural for extraction
    i18n.ngettext("expected %s argument", "expected %s arguments", 2)


def _gettext(msgid: str | None) -> str | None:
    # argparse passes None for a missing subparser description: keep it None
    return i18n._(msgid) if msgid else msgid


@contextmanager
def speaking() -> Iterator[None]:
    """argparse speaks the language in use (game.i18n) inside the block, its own English after."""
    saved = argparse._, argparse.ngettext  # type: ignore[attr-defined]
    argparse._, argparse.ngettext = _gettext, i18n.ngettext  # type: ignore[attr-defined]
    try:
        yield
    finally:
        argparse._, argparse.ngettext = saved  # type: ignore[attr-defined]
