"""argparse `type=` validators shared by the command line (`game.cli`) and the window's options
(`game.ui.app`): a bad value is refused before any work starts, with the option named by
argparse and the reason, e.g. ``argument --frames: -1 is out of range (1 to 1,000,000)``.

Nothing here imports the engine or the UI.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable

from game.i18n import N_, _

#: Seeds are stored in replays and saves as JSON integers; keep them to unsigned 63 bits.
MAX_SEED = 2**63 - 1
#: A bot's time budget in seconds (`hard@0.3`): 0 (no search) to ten minutes per decision.


def int_in(lo: int, hi: int, what: str = N_("a whole number")) -> Callable[[str], int]:
    """A validator for a whole number from `lo` to `hi` (inclusive)."""

    def parse(text: str) -> int:
        try:
            value = int(text.strip().replace("_", ""), 10)
        except ValueError:
            raise argparse.ArgumentTypeError(_("{text} is not {what}").format(text=repr(text), what=_(what))) from None
        if not lo <= value <= hi:
            raise argparse.ArgumentTypeError(
                _("{value} is out of range ({lo} to {hi})").format(value=value, lo=f"{lo:,}", hi=f"{hi:,}")
            )
        return value

    parse.__name__ = what  # argparse names the type in some messages
    return parse


seed = int_in(0, MAX_SEED, N_("a seed (a whole number)"))


def size(lo: tuple[int, int], hi: tuple[int, int], example: str = "1280x800") -> Callable[[str], tuple[int, int]]:
    """A validator for a frame or window size `WxH`, each side within [lo, hi]."""

    def parse(text: str) -> tuple[int, int]:
        parts = text.lower().split("x")
        try:
            if len(parts) != 2:
                raise ValueError
            w, h = int(parts[0]), int(parts[1])
        except ValueError:
            raise argparse.ArgumentTypeError(
                _("size must look like {example}, got {text}").format(example=example, text=repr(text))
            ) from None
        if not (lo[0] <= w <= hi[0] and lo[1] <= h <= hi[1]):
            raise argparse.ArgumentTypeError(
                _("size {text} is out of range ({lo} to {hi})").format(
                    text=text, lo=f"{lo[0]}x{lo[1]}", hi=f"{hi[0]}x{hi[1]}"
                )
            )
        return w, h

    parse.__name__ = "size"
    return parse


def bot(text: str) -> str:
    """A bot name as `game.ai.registry.make_bot` takes it (`hard`, `hard@0.3`), checked early."""
    from game.ai.registry import parse_bot

    try:
        parse_bot(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None
    return text


bot.__name__ = "bot"
