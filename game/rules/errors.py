"""Errors raised by the rules engine."""

from __future__ import annotations


class IllegalActionError(Exception):
    """An action the rules forbid. `code` is a stable reason code, `rule` the rule ID.

    The message names the units, the rule and the measured distance where one is relevant,
    for example: ``unbind: Ash Seer is 30.42" from Ember Adept; unbinding reaches 30" (M6)``.
    """

    def __init__(self, code: str, message: str, rule: str | None = None) -> None:
        self.code = code
        self.rule = rule
        self.message = message if rule is None or f"({rule})" in message else f"{message} ({rule})"
        super().__init__(self.message)


class DiceScriptError(AssertionError):
    """A scripted roll was unexpected, mismatched or missing (tests and demos only)."""


class FlowLoopError(RuntimeError):
    """The engine's automatic steps did not settle: a step keeps queueing steps (an engine bug,
    never a player's doing). The message names the last steps that ran."""
