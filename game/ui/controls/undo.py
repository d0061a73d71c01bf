"""Undo for the front end. The engine has no undo; this keeps a clone of the state from before
each action a human applied, as long as no die has been rolled since (a pre-action clone can be
restored without replaying randomness: no dice were consumed).

Rules:
- any action whose events include a DiceRolled clears the book (the past is fixed);
- only the player who decides now may undo, and only their own actions;
- restoring happens in place (the Session keeps the same State object), and the session's
  history, batches and recorder steps are cut back to what they were.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from game.rules import State

LIMIT = 60


@dataclass
class Entry:
    snapshot: dict
    player: int
    label: str
    history: int
    batches: int
    steps: int


class UndoBook:
    def __init__(self, session: Any) -> None:
        self.session = session
        self.entries: list[Entry] = []
        self._pending: Entry | None = None

    def before(self, action: Any, label: str = "") -> None:
        """Call just before applying a human's action."""
        s = self.session
        self._pending = Entry(
            s.state.to_dict(),
            action.player,
            label or action.type,
            len(s.history),
            len(s.batches),
            len(s.recorder.steps),
        )

    def after(self, events: list | None) -> None:
        """Call after the apply (events None: it was refused)."""
        e, self._pending = self._pending, None
        if events is None or e is None:
            return
        if any(getattr(ev, "type", "") == "DiceRolled" for ev in events):
            self.entries.clear()
            return
        self.entries.append(e)
        del self.entries[:-LIMIT]

    def clear(self) -> None:
        self.entries.clear()

    def available(self) -> Entry | None:
        """The action the deciding player may undo now, or None."""
        if not self.entries:
            return None
        st = self.session.state
        if st.is_over():
            return None
        top = self.entries[-1]
        return top if top.player == self.session.decision.player else None

    def undo(self) -> Entry | None:
        """Restore the state from before the last undoable action; returns it (None: nothing)."""
        top = self.available()
        if top is None:
            return None
        self.entries.pop()
        s = self.session
        fresh = State.from_dict(top.snapshot, s.game)
        s.state.__dict__.update(fresh.__dict__)  # in place: every holder of the state sees it
        del s.history[top.history :]
        del s.batches[top.batches :]
        del s.recorder.steps[top.steps :]
        s.version += 1
        if getattr(s, "autosaving", False):
            try:
                from game.ui.storage import autosave

                autosave(s)
            except Exception:
                pass
        return top
