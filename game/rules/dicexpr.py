"""Rolling the dice expressions that data files use: 3, D3, D6, 2D6, D3+1."""

from __future__ import annotations

from typing import TYPE_CHECKING

from game.data.models import DICE_EXPR

if TYPE_CHECKING:
    from game.rules.state import State


def roll_expr(state: "State", expr: int | str, purpose: str, rule: str, player: int | None = None) -> int:
    """The value of a dice expression; each roll is an event with its purpose."""
    if isinstance(expr, int):
        return expr
    m = DICE_EXPR.match(expr)
    if m is None:  # data is validated on load; this is a programming error
        raise ValueError(f"bad dice expression {expr!r}")
    if m.group(1) is not None:
        return int(m.group(1))
    count = int(m.group(2) or 1)
    sides = int(m.group(3))
    dice = state.roll(count, sides, purpose, rule, player)
    return sum(dice) + int(m.group(4) or 0)


def expr_range(expr: int | str) -> tuple[int, int]:
    """The least and greatest values of a dice expression."""
    if isinstance(expr, int):
        return expr, expr
    m = DICE_EXPR.match(expr)
    assert m is not None
    if m.group(1) is not None:
        v = int(m.group(1))
        return v, v
    count, sides, plus = int(m.group(2) or 1), int(m.group(3)), int(m.group(4) or 0)
    return count + plus, count * sides + plus


def expr_mean(expr: int | str) -> float:
    """The expected value of a dice expression."""
    if isinstance(expr, int):
        return float(expr)
    m = DICE_EXPR.match(expr)
    assert m is not None
    if m.group(1) is not None:
        return float(m.group(1))
    count, sides, plus = int(m.group(2) or 1), int(m.group(3)), int(m.group(4) or 0)
    return count * (sides + 1) / 2 + plus
