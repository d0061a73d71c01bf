"""M9, E2 (issue 24): a check that looks ahead (`LooksAhead`) is told the points the pickers will
check next, and the pickers check the same points in the same order as with a plain check."""

from __future__ import annotations

import math

import pytest

from game.geometry import Circle
from game.geometry.setup_region import SetupSpace, pick, pick_on_rays


class Ahead:
    """A check that records what it was told lies ahead, answering as ``legal`` does."""

    def __init__(self, legal, k: int = 5) -> None:
        self.legal, self.k = legal, k
        self.asked: list[tuple[float, float]] = []
        self.told: list[list[tuple[float, float]]] = []
        self.peek = None

    def attach(self, peek) -> None:
        self.peek = peek

    def __call__(self, x: float, y: float) -> bool:
        self.asked.append((x, y))
        self.told.append(self.peek(self.k))
        return self.legal(x, y)


def _space():
    src = Circle(20, 20, 0.787)
    bases = [src] + [Circle(20 + 4 * math.cos(a), 20 + 4 * math.sin(a), 0.5) for a in range(0, 6)]
    return src, SetupSpace(src, 12.0, 1.0, width=60, height=44, bases=bases)


@pytest.mark.parametrize("limit", [1, 4])
def test_m9_lookahead_pick_checks_the_same_points_in_order(limit):
    src, space = _space()
    spot = (27.0, 14.0)

    def legal(x, y):  # only a small disk passes (as sight may do): the search samples the region
        return math.hypot(x - spot[0], y - spot[1]) < 0.6

    plain: list = []

    def check(x, y):
        plain.append((x, y))
        return legal(x, y)

    want = pick(space.region(), check, source=src.centre, limit=limit)
    ahead = Ahead(legal)
    got = pick(space.region(), ahead, source=src.centre, limit=limit)
    assert got == want and ahead.asked == plain and len(plain) > 20
    # what it was told lies ahead is what came next, up to the first find (after it the spread
    # rule may skip some of the points told)
    first = next(i for i, p in enumerate(ahead.asked) if legal(*p))
    assert first > 5
    for i, told in enumerate(ahead.told[:first]):
        nxt = ahead.asked[i + 1 : i + 1 + len(told)]
        assert told[: len(nxt)] == nxt, i
    # nothing is told across the end of one batch of candidates (the next is not drawn yet)
    assert sum(map(bool, ahead.told[:first])) > first // 2


def test_m9_lookahead_rays_stop_after_the_same_failures():
    src, space = _space()
    plain: list = []

    def check(x, y):
        plain.append((x, y))
        return False

    assert pick_on_rays(space, check, limit=2, max_failures=5) == []
    ahead = Ahead(lambda x, y: False, k=3)
    assert pick_on_rays(space, ahead, limit=2, max_failures=5) == []
    assert ahead.asked == plain and len(plain) == 5
    assert ahead.told[0] == plain[1:4]
