"""Where a game stands, in words: "Round 2, player 2 movement" (the F5 toast, the save and replay
lists). Its own module because the storage writes it into a replay and the lists read it back."""

from __future__ import annotations

import re
from typing import Any

from game.i18n import N_, _

#: The phases (R2) by their engine names, as the player reads them ("movement phase").
PHASE_WORDS = {
    "start_of_turn": N_("start of turn phase"),
    "hero": N_("hero phase"),
    "movement": N_("movement phase"),
    "shooting": N_("shooting phase"),
    "charge": N_("charge phase"),
    "combat": N_("combat phase"),
    "end_of_turn": N_("end of turn phase"),
}


def where_text(stage: Any, round_: Any, active: Any, phase: Any) -> str:
    """ "Round 2, player 2 movement phase", "Deployment", "Round 3, priority roll", "Game over"."""
    if stage == "deployment":
        return "Deployment"
    if stage == "over":
        return "Game over"
    if stage == "turn_order":
        return f"Round {round_}, priority roll"
    phase_words = str(phase or "").replace("_", " ")
    return f"Round {round_}, player {active} {phase_words} phase" if phase_words else f"Round {round_}, player {active}"


def where_words(stage: Any, round_: Any, active: Any, phase: Any) -> str:
    """`where_text` in the language in use, for the screen (where_text itself stays English:
    it is written into a replay's info, the same bytes in every language)."""
    if stage == "deployment":
        return _("Deployment")
    if stage == "over":
        return _("Game over")
    if stage == "turn_order":
        return _("Round {round}, priority roll").format(round=round_)
    if not phase:
        return _("Round {round}, player {player}").format(round=round_, player=active)
    key = str(phase)
    words = _(PHASE_WORDS[key]) if key in PHASE_WORDS else key.replace("_", " ") + " " + _("phase")
    return _("Round {round}, player {player} {phase}").format(round=round_, player=active, phase=words)


_WHERE = re.compile(r"Round (\d+), (?:(priority roll)|player (\d+)(?: (.+) phase)?)$")


def where_words_from_text(text: str) -> str:
    """A replay's stored English `where` ("Round 2, player 2 movement phase") in the language in
    use; a text of another shape is shown as it is."""
    if text == "Deployment":
        return where_words("deployment", None, None, None)
    if text == "Game over":
        return where_words("over", None, None, None)
    m = _WHERE.match(text)
    if not m:
        return text
    if m.group(2):
        return where_words("turn_order", m.group(1), None, None)
    phase = (m.group(4) or "").replace(" ", "_") or None
    return where_words("turn", m.group(1), m.group(3), phase)


def position_info(state) -> dict[str, Any]:
    """What a replay's list entry shows of where its game stopped (a save has its state)."""
    return {
        "where": where_text(state.stage, state.round, state.active, state.phase),
        "score": f"{state.score[0]} - {state.score[1]}",
    }
