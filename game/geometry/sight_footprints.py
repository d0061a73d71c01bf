"""G2 from one base to many footprints at once (M9, E2; issue 24).

`footprints_seen(observer, footprints, terrain, blockers)[i]` is exactly
``visible(observer, footprints[i], terrain, blockers).visible``: can the summoning model see a
manifestation's footprint set up at each of many candidate centres?

Why it exists: on a crowded battlefield the set-up search (`game.geometry.setup_region.pick`)
checks up to hundreds of centres, and nearly every one fails on sight, its last and dearest
step; one `visible` per centre costs far more than one stacked pass over them all.

How it stays the same answer: the round footprints are rows of `visible_many` (one row per
(observer, footprint) pair, every pair with the same blocking bases), which takes `visible`'s
tiers (touching, the centre line, the wall proof, the sampled lines) with the same element-wise
tests and the same G2 rulings: the pieces the observer's or the footprint's centre stands in
are ignored for that row (a footprint whose centre is in an obscuring piece is seen through it).
Polygon footprints are rare in set-up searches (and `visible_many` asks `visible` for them
too), so each is asked of `visible` itself.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from .nearby import BaseIndex
from .shapes import Circle, Shape
from .sight_many import SharedBlockers, visible_many
from .terrain import TerrainIndex
from .visibility import _blocker_arrays, visible

__all__ = ["footprints_seen"]


def footprints_seen(
    observer: Circle,
    footprints: Sequence[Shape],
    terrain: TerrainIndex,
    blockers: BaseIndex | Sequence[Circle] = (),
    *,
    samples: int = 8,
) -> np.ndarray:
    """G2 per footprint: ``visible(observer, footprints[i], terrain, blockers).visible``, for
    every footprint at once. ``blockers`` as `visible` takes them (the observer's own unit and
    every manifestation already left out)."""
    seen = np.zeros(len(footprints), dtype=bool)
    round_at = [i for i, f in enumerate(footprints) if isinstance(f, Circle)]
    if round_at:
        if len(blockers):
            x, y, r = _blocker_arrays(blockers)
        else:
            x = y = r = np.empty(0)
        # every pair is blocked by the same bases: one set, kept by every row
        shared = SharedBlockers(x, y, r, np.ones((len(round_at), len(x)), dtype=bool))
        rows = visible_many(
            [observer] * len(round_at), [[footprints[i]] for i in round_at], terrain, shared, samples=samples
        )
        seen[round_at] = rows
    for i, f in enumerate(footprints):
        if not isinstance(f, Circle):
            seen[i] = visible(observer, f, terrain, blockers, samples=samples).visible
    return seen
