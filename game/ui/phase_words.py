"""The shared words for the turn's phases and the players (issue 22), translated where shown.

One set for the header, the panel, the hints and the log, so that a phase or a player is
called the same everywhere in every language. The engine's phase names ("hero",
"start_of_turn", ...: game.rules.turn, R1) are keys; the words are translated at each call.

    phase_title("hero")    -> "Hero phase"      (a header, a title)
    phase_noun("hero")     -> "hero phase"      (inside a sentence: "End the hero phase?")
    phase_short("hero")    -> "Hero"            (a narrow header)
    player("1")/player(1)  -> "Player 1"        player_short(1) -> "P1"
    player_turn(1)         -> "Player 1's turn"
"""

from __future__ import annotations

from game.i18n import N_, _

#: phase key -> (title, noun in a sentence, short); an unknown key falls back to its own words.
_PHASES: dict[str, tuple[str, str, str]] = {
    "start_of_turn": (N_("Start of turn phase"), N_("start of turn phase"), N_("Start of turn")),
    "hero": (N_("Hero phase"), N_("hero phase"), N_("Hero")),
    "movement": (N_("Movement phase"), N_("movement phase"), N_("Movement")),
    "shooting": (N_("Shooting phase"), N_("shooting phase"), N_("Shooting")),
    "charge": (N_("Charge phase"), N_("charge phase"), N_("Charge")),
    "combat": (N_("Combat phase"), N_("combat phase"), N_("Combat")),
    "end_of_turn": (N_("End of turn phase"), N_("end of turn phase"), N_("End of turn")),
}


def _words(phase: str | None) -> tuple[str, str, str]:
    key = str(phase or "")
    if key in _PHASES:
        return tuple(_(w) for w in _PHASES[key])  # type: ignore[return-value]
    plain = key.replace("_", " ")  # a phase added to the engine tomorrow still reads
    return (f"{plain.capitalize()} phase", f"{plain} phase", plain.capitalize())


def phase_title(phase: str | None) -> str:
    """E.g. "Hero phase", "Start of turn phase" (R1)."""
    return _words(phase)[0]


def phase_noun(phase: str | None) -> str:
    """E.g. "hero phase", to sit inside a sentence."""
    return _words(phase)[1]


def phase_short(phase: str | None) -> str:
    """E.g. "Hero", for a narrow header."""
    return _words(phase)[2]


def player(n: int | str) -> str:
    """E.g. "Player 1"."""
    return _("Player {n}").format(n=n)


def player_short(n: int | str) -> str:
    """E.g. "P1"."""
    return _("P{n}").format(n=n)


def player_turn(n: int | str) -> str:
    """E.g. "Player 1's turn"."""
    return _("Player {n}'s turn").format(n=n)
