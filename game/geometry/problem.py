"""Why a thing may not move or stand somewhere: the engine's words, with what they are made of.

A `Problem` is a `str`: its text is exactly what the engine has always said (explanations,
illegal-action messages and event reasons are unchanged, byte for byte), and it also carries a
`code`, the rule ID and the facts the text was made from (a sweep's obstacle tokens, a
distance, an allowance), so that the UI names them without reading the words back (G4, R4).

Codes: ``too_far`` (reach, step), ``blocked`` (by: obstacle tokens such as ``base:3``,
``terrain:Basalt Spire``, ``edge``; or unit / terrain), ``edge``, ``overlap_base`` (base),
``on_terrain`` (terrain), ``on_manifestation`` (index), ``overlap_own``, ``coherency``,
``combat`` (gap).

The same idea carries the engine's other messages (issue 22): an `IllegalActionError`'s
`message`, `State.explain`'s reasons and `Unavailable.message` are Problems whose `code` is the
error's code and whose `facts` are the *fields* the English text was made from; a thing the
text names is a `Named` (its English words, with its id). The front end (game.ui.engine_words)
words them in the player's language from the code and the fields; the engine never translates,
and the English text is the same bytes as before.
"""

from __future__ import annotations

from typing import Any


class Problem(str):
    """One problem: a string, with `code`, `rule` and `facts` (see the module docstring)."""

    code: str
    rule: str
    facts: dict[str, Any]

    def __new__(cls, text: str, code: str = "", rule: str = "", **facts: Any) -> Problem:
        self = super().__new__(cls, text)
        self.code, self.rule, self.facts = code, rule, facts
        return self

    @property
    def fields(self) -> dict[str, Any]:
        """The facts the text was made from, by name (for the front end's own words)."""
        return self.facts

    def worded(self, text: str, rule: str | None = None, **more: Any) -> Problem:
        """The same problem in other words (e.g. with the model it is about and the rule)."""
        return Problem(text, self.code, self.rule if rule is None else rule, **{**self.facts, **more})


class Named(str):
    """A unit's, manifestation's or spell's name as a message words it (e.g. "Ash Seer (u3)"),
    carrying the `id` it names, so that the front end shows its own display name instead."""

    id: str

    def __new__(cls, text: str, id: str = "") -> Named:
        self = super().__new__(cls, text)
        self.id = id
        return self

    def __reduce__(self):  # copies and pickles keep the id
        return (Named, (str(self), self.id))


def code_of(text: str) -> str:
    """A problem's code ("" for a plain string: a problem without one)."""
    return text.code if isinstance(text, Problem) else ""
