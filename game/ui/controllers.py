"""Controllers produce actions for one player: Human (hotseat has two), Bot and Replay.

    class Controller(Protocol):
        kind: str                      # "human" | "bot" | "replay"
        def begin(self, session) -> None   # a decision for this player has opened
        def poll(self) -> Action | None    # the chosen action, once there is one
        def submit(self, action) -> None   # humans: the panel or the battlefield chose
        def cancel(self) -> None

A bot thinks off the render loop, in a worker thread, on a clone of the state, so the window
keeps drawing; the scene applies its action on the main thread.
"""

from __future__ import annotations

import threading
from typing import Any, Protocol

from game.rules import Action


class Controller(Protocol):
    kind: str

    def begin(self, session: Any) -> None: ...

    def poll(self) -> Action | None: ...

    def submit(self, action: Action) -> None: ...

    def cancel(self) -> None: ...


class HumanController:
    kind = "human"

    def __init__(self, player: int) -> None:
        self.player = player
        self._queue: list[Action] = []

    def begin(self, session: Any) -> None:
        return None  # actions submitted just before the decision opened are kept

    def submit(self, action: Action) -> None:
        self._queue.append(action)

    def poll(self) -> Action | None:
        return self._queue.pop(0) if self._queue else None

    def cancel(self) -> None:
        self._queue.clear()


class BotController:
    """Wraps any bot with `choose(state) -> Action` (e.g. game.ai.random_bot.RandomBot)."""

    kind = "bot"

    def __init__(self, player: int, bot: Any, min_delay: float = 0.0) -> None:
        self.player = player
        self.bot = bot
        self.min_delay = min_delay
        self._thread: threading.Thread | None = None
        self._result: Action | None = None
        self._error: BaseException | None = None
        self._token = 0
        self._note = ""
        self.explanation = ""  # why the bot chose the action poll() last returned (bot.last_explanation)

    def begin(self, session: Any) -> None:
        self._token += 1
        token = self._token
        state = session.state.clone()  # the bot never touches the live state
        self._result = None

        def work() -> None:
            import time

            t0 = time.perf_counter()
            try:
                act = self.bot.choose(state)
            except BaseException as exc:  # surfaced on the main thread by poll()
                self._error = exc
                return
            left = self.min_delay - (time.perf_counter() - t0)
            if left > 0:
                time.sleep(left)
            if token == self._token:
                note = getattr(self.bot, "last_explanation", "") or ""
                self._note = note if isinstance(note, str) else str(note)  # a Reason stays one (translated when shown)
                self._result = act

        self._thread = threading.Thread(target=work, name=f"bot-p{self.player}", daemon=True)
        self._thread.start()

    def thinking(self) -> bool:
        return self._thread is not None and self._thread.is_alive()

    def poll(self) -> Action | None:
        if self._error is not None:
            err, self._error = self._error, None
            raise err
        act, self._result = self._result, None
        if act is not None:
            self.explanation = self._note
        return act

    def submit(self, action: Action) -> None:  # bots ignore the panel
        return None

    def cancel(self) -> None:
        self._token += 1
        self._result = None


class ReplayController:
    """Feeds the recorded actions one at a time when told to step."""

    kind = "replay"

    def __init__(self, actions: list[Action]) -> None:
        self.actions = actions
        self.index = 0
        self._go = False

    def begin(self, session: Any) -> None:
        return None

    def step(self) -> None:
        self._go = True

    def poll(self) -> Action | None:
        if self._go and self.index < len(self.actions):
            self._go = False
            act = self.actions[self.index]
            self.index += 1
            return act
        self._go = False
        return None

    def submit(self, action: Action) -> None:
        return None

    def cancel(self) -> None:
        self._go = False
