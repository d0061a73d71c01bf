"""Why a bot chose its action, kept language-neutral (issue 22): a template and its fields.

A `Reason` is a `str` whose value is the English sentence (what the bots have always said, so
tests and determinism see the same text), and which also keeps its template (marked with N_()
for the "log" catalogue) and its named fields. The front end shows `words(reason)`: the template
in the language in use with its fields filled in (fields that are Reasons translated too). The
text never feeds a choice: the bots rank by score alone.
"""

from __future__ import annotations

from typing import Any


class Reason(str):
    """The English explanation, with the template and fields to say it in another language."""

    template: str
    fields: dict[str, Any]
    parts: tuple[Any, ...]  # a Reason joined from several: each part in turn

    def __new__(cls, template: str, **fields: Any) -> Reason:
        self = super().__new__(cls, template.format(**fields))
        self.template, self.fields, self.parts = template, fields, ()
        return self

    @classmethod
    def join(cls, *parts: Any) -> Reason:
        """Parts said one after another ("<the move's reason> [plan ...]")."""
        self = super().__new__(cls, "".join(str(p) for p in parts))
        self.template, self.fields, self.parts = "", {}, tuple(parts)
        return self


def words(reason: Any) -> str:
    """`reason` in the language in use; a plain string is shown as it is."""
    if not isinstance(reason, Reason):
        return str(reason)
    if reason.parts:
        return "".join(words(p) for p in reason.parts)
    from game.content_words import content_name
    from game.i18n import _

    def field(v: Any) -> Any:  # a Reason in words; a name (the bots keep content names) in the language
        if isinstance(v, Reason):
            return words(v)
        return content_name(v) if isinstance(v, str) else v

    return _(reason.template).format(**{k: field(v) for k, v in reason.fields.items()})
