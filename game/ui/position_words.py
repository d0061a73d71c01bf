"""Where a game stands, in words: "Round 2, player 2 movement" (the F5 toast, the save and replay
lists). Its own module because the storage writes it into a replay and the lists read it back."""

from __future__ import annotations

from typing import Any


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


def position_info(state) -> dict[str, Any]:
    """What a replay's list entry shows of where its game stopped (a save has its state)."""
    return {
        "where": where_text(state.stage, state.round, state.active, state.phase),
        "score": f"{state.score[0]} - {state.score[1]}",
    }
