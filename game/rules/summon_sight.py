"""Set-up checks of many candidate centres, with sight asked in batches (M9, E2, G2; issue 24).

A set-up search (`candidate_points`: rays, then `game.geometry.setup_region.pick` over the
region of centres) asks `SetupCheck.problems(x, y, named=False)` of point after point. On a
crowded battlefield nearly every point passes the cheap checks and fails the last and dearest
one, sight (G2), and a search may fail a hundred points before it answers "none" (E2).
`SightBatches` answers exactly ``not check.problems(x, y, named=False)`` per point, in the same
order of checks (sight only once every other check passed), but when a point needs its sight it
also asks the picker for the points it will check next (`LooksAhead`), runs their cheap checks
(kept for when their turn comes) and asks the sight of every one that passed in one
`footprints_seen` pass, keeping the answers. The search's points, their order and its count of
checks do not change; only the work is shared.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from game.geometry.shapes import Shape
from game.geometry.sight_footprints import footprints_seen
from game.rules.space import blockers

if TYPE_CHECKING:
    from game.rules.summoning import SetupCheck

Point2 = tuple[float, float]

#: Batches on (tests turn it off to compare with the point-by-point check).
BATCHED = True

#: Points looked ahead at the second sight a search asks (the first is asked alone: at an open
#: battlefield the first point often passes and a batch would be wasted), doubling per batch up
#: to MOST_AHEAD: a search that keeps failing sight will likely fail many more points. A search
#: that answers "none" on a crowded board fails about 300 sampled points on sight; batches of up
#: to 512 ask them in two or three passes instead of ten (measured on the 4x board of
#: bench/bench_game.py: 0.64 -> 0.49 s for its 40 such searches in 5 games; the searches that
#: find a point cost no more, 0.13 -> 0.11 s)
FIRST_AHEAD = 2
MOST_AHEAD = 512


class SightBatches:
    """``legal(x, y) == not check.problems(x, y, named=False)`` for one summoning's check (M9),
    sight asked for several points at once; a `LooksAhead` check for the set-up pickers."""

    def __init__(self, check: "SetupCheck") -> None:
        self.check = check
        self._before: dict[Point2, tuple[Shape, bool]] = {}  # footprint, passes all but sight
        self._seen: dict[Point2, bool] = {}
        self._peek: Callable[[int], list[Point2]] = lambda k: []
        self._ahead = 0

    def attach(self, peek: Callable[[int], list[Point2]]) -> None:
        """The picker about to ask: ``peek(k)`` gives up to k of the points it will ask next."""
        self._peek = peek

    def __call__(self, x: float, y: float) -> bool:
        shape, ok = self._cheap(x, y)
        if not ok:
            return False
        if not self.check.rule.visible:
            return True
        if (x, y) not in self._seen:
            self._fetch((x, y), shape)
        return self._seen[(x, y)]

    def _cheap(self, x: float, y: float) -> tuple[Shape, bool]:
        """`SetupCheck.before_sight`, once per point: the footprint, and whether only sight is left."""
        found = self._before.get((x, y))
        if found is None:
            shape, problems = self.check.before_sight(x, y)
            found = self._before[(x, y)] = (shape, not problems)
        return found

    def _fetch(self, p: Point2, shape: Shape) -> None:
        """Sight for ``p`` and for the next points that pass their cheap checks, at once (G2)."""
        check = self.check
        todo: list[tuple[Point2, Shape]] = [(p, shape)]
        for q in self._peek(self._ahead) if self._ahead else []:
            if q not in self._seen:
                s, ok = self._cheap(*q)
                if ok:
                    todo.append((q, s))
        # the blocking bases `sight_to_shape` takes: every model outside the summoner's unit
        walls = blockers(check.state, [check.unit])
        terrain = check.state.game.battlefield.terrain
        seen = footprints_seen(check.source, [s for _q, s in todo], terrain, walls)
        for (q, _s), v in zip(todo, seen.tolist()):
            self._seen[q] = v
        self._ahead = min(max(2 * self._ahead, FIRST_AHEAD), MOST_AHEAD)
