"""Errors raised by the rules engine."""

from __future__ import annotations

from typing import Any

from game.geometry.problem import Problem


class IllegalActionError(Exception):
    """An action the rules forbid. `code` is a stable reason code, `rule` the rule ID.

    The message names the units, the rule and the measured distance where one is relevant,
    for example: ``unbind: Ash Seer is 30.42" from Ember Adept; unbinding reaches 30" (M6)``.

    `fields` are what the message was made from (issue 22): the message is a `Problem` with this
    code, rule and those fields as its facts, so the front end can word it in another language.
    """

    def __init__(self, code: str, message: str, rule: str | None = None, **fields: Any) -> None:
        self.code = code
        self.rule = rule
        text = message if rule is None or f"({rule})" in message else f"{message} ({rule})"
        self.message: str = Problem(text, code, rule or "", **fields)
        super().__init__(self.message)


class DiceScriptError(AssertionError):
    """A scripted roll was unexpected, mismatched or missing (tests and demos only)."""


class FlowLoopError(RuntimeError):
    """The engine's automatic steps did not settle: a step keeps queueing steps (an engine bug,
    never a player's doing). The message names the last steps that ran."""
