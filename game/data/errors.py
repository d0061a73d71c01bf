"""The one error type of the data layer: a list of human-readable problems, never a traceback."""

from __future__ import annotations

from collections.abc import Iterable


class DataError(Exception):
    """Bad data. `problems` holds one message per problem, each naming the file and the field.

    str() gives the problems one per line, ready to print.
    """

    def __init__(self, problems: Iterable[str] | str):
        if isinstance(problems, str):
            problems = [problems]
        self.problems: list[str] = list(problems) or ["unknown data error"]
        super().__init__("\n".join(self.problems))

    def __str__(self) -> str:
        return "\n".join(self.problems)
