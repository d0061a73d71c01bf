"""A hint for the player (issue 25): what a bot would choose in the human's decision, and why.

The bot is asked on a clone of the state with dice of its own (`RolloutDice`), never the game's
dice, so a hint never changes the state or the dice the game goes on with. It runs in a worker
thread (like the AI controller) so the window keeps drawing while a slow bot thinks. The odds
shown are the engine's (`game.ui.labels.describe`, `query`), never a formula of the UI's.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from typing import Any

from game.i18n import _
from game.rules import Action, State, query

HINT_DICE_SEED = 25  # the hint bot's own dice (its search rollouts); never the game's


@dataclass
class Hint:
    action: Action
    reason: Any  # the bot's Reason (said in words when shown)
    level: str
    version: int  # the session version it was asked at: a hint for a closed decision is dropped


def bot_choice(state: State, player: int, level: str, seed: int) -> tuple[Action, Any]:
    """The bot's own choice for `state`, made on a clone with its own dice."""
    from game.ai.registry import make_bot
    from game.ai.rollout_dice import RolloutDice

    sim = state.clone()
    sim.dice = RolloutDice(seed ^ HINT_DICE_SEED)  # never the game's dice
    bot = make_bot(level, player, seed)
    action = bot.choose(sim)
    return action, getattr(bot, "last_explanation", "")


class HintAsker:
    """Asks a bot off the render loop; `poll` hands back the Hint once there is one."""

    def __init__(self) -> None:
        self._thread: threading.Thread | None = None
        self._result: Hint | None = None
        self._error: BaseException | None = None
        self._token = 0

    def ask(self, session: Any, player: int, level: str) -> None:
        self._token += 1
        token = self._token
        state, version, seed = session.state.clone(), session.version, int(session.seed or 0)
        self._result = None

        def work() -> None:
            try:
                action, reason = bot_choice(state, player, level, seed)
            except BaseException as exc:  # shown on the main thread
                self._error = exc
                return
            if token == self._token:
                self._result = Hint(action, reason, level, version)

        self._thread = threading.Thread(target=work, name="hint", daemon=True)
        self._thread.start()

    def thinking(self) -> bool:
        return self._thread is not None and self._thread.is_alive()

    def wait(self, timeout: float | None = None) -> None:
        if self._thread is not None:
            self._thread.join(timeout)

    def poll(self) -> Hint | None:
        if self._error is not None:
            err, self._error = self._error, None
            raise err
        h, self._result = self._result, None
        return h

    def cancel(self) -> None:
        self._token += 1
        self._result = None


def hint_lines(state: State, hint: Hint, decision=None) -> list[str]:
    """The panel's lines: what to do, the bot's reason in words, the engine's odds."""
    from game.ai.reason import words
    from game.ui.choices import LEVELS, by_id, label
    from game.ui.labels import describe, name_of

    a = hint.action
    t = a.type
    odds = ""
    if t == "Shoot":
        with state.query():
            h, dmg = query.shooting_odds(state, a.unit, a.target)
        what = _("{unit} shoots {target}").format(unit=name_of(state, a.unit), target=name_of(state, a.target))
        odds = _("expect {hits} hits, {damage} damage").format(hits=f"{h:.1f}", damage=f"{dmg:.1f}")
    elif t == "Fight":
        with state.query():
            h, dmg, _n = query.fight_odds(state, a.unit, a.target)
        what = _("{unit} fights {target}").format(unit=name_of(state, a.unit), target=name_of(state, a.target))
        odds = _("expect {hits} hits, {damage} damage").format(hits=f"{h:.1f}", damage=f"{dmg:.1f}")
    elif t == "Charge":
        from game.ui.controls.units import charge_odds

        what = _("Charge with {unit}").format(unit=name_of(state, a.unit))
        with state.query():
            odds = charge_odds(state, a.unit)
    elif t in ("MoveUnit", "DeployUnit"):
        what = _("Move {unit} to the marked place").format(unit=name_of(state, a.unit))
    elif t == "MovePredatory":  # the board shows its footprint there and the line to it (E9)
        what = _("Move {unit} to the marked place").format(unit=name_of(state, a.manifestation))
    elif t == "Run":
        what = _("{unit} runs").format(unit=name_of(state, a.unit))
    elif t == "Retreat":
        what = _("{unit} retreats").format(unit=name_of(state, a.unit))
    elif t == "FailCharge":
        what = _("Give up the charge")
    else:
        with state.query():
            lab = describe(state, a, decision)
        what, odds = lab.text, lab.odds
    level = label(by_id(LEVELS, hint.level))
    out = [_("Hint ({level} AI): {action}").format(level=level, action=what)]
    if odds:
        out.append(odds)
    reason = words(hint.reason) if hint.reason else ""
    if reason:
        out.append(_("Why: {reason}").format(reason=reason))
    return out
