"""Rolling the dice expressions that data files use: 3, D3, D6, 2D6, D3+1.

Their odds (exact means and distributions) are in game.rules.odds, read through `parse_expr`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from game.data.models import DICE_EXPR

if TYPE_CHECKING:
    from game.rules.state import State


def parse_expr(expr: int | str) -> tuple[int, int, int]:
    """(count, sides, plus) of a dice expression: `count` dice of `sides` sides, plus `plus`.
    A constant is (0, 1, value)."""
    if isinstance(expr, int):
        return 0, 1, expr
    m = DICE_EXPR.match(expr)
    if m is None:  # data is validated on load; this is a programming error
        raise ValueError(f"bad dice expression {expr!r}")
    if m.group(1) is not None:
        return 0, 1, int(m.group(1))
    return int(m.group(2) or 1), int(m.group(3)), int(m.group(4) or 0)


def roll_expr(state: "State", expr: int | str, purpose: str, rule: str, player: int | None = None) -> int:
    """The value of a dice expression; each roll is an event with its purpose."""
    count, sides, plus = parse_expr(expr)
    if count == 0:
        return plus
    dice = state.roll(count, sides, purpose, rule, player)
    return sum(dice) + plus


def expr_range(expr: int | str) -> tuple[int, int]:
    """The least and greatest values of a dice expression."""
    count, sides, plus = parse_expr(expr)
    return count + plus, count * sides + plus
