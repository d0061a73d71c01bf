"""Default deployment: each unit's models set up around its map anchor, legally (G4).

Models go on a square grid spaced 0.5" edge to edge, nearest slots to the anchor first, each
model touching-distance coherent with one already placed, wholly within the player's zone,
clear of other bases, impassable terrain and the edge.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Iterable, Iterator

import numpy as np
from shapely.geometry import Polygon

from game.geometry.measure import TOL, distance, wholly_within
from game.geometry.nearby import BaseIndex
from game.geometry.placement import placement_problems
from game.geometry.shapes import Circle
from game.rules.battlefield import Battlefield
from game.rules.space import PRUNE_SLACK

GAP = 0.5  # inches between neighbouring bases in a default formation
# Bases at least this big (inches of radius) are far more than the 4-decimal rounding of their
# centres apart two slots away, so coherency asks only the neighbouring slots (`_coherent`).
NEIGHBOUR_RADIUS = 0.01
# Stop trying slots once none can be coherent with the bases placed (`place_unit`); off only to
# test that the answer is the same.
STOP_OUT_OF_REACH = True
# Skip, unasked, the slots whose base certainly overlaps a base placed before or pokes out of
# the zone's box (`_open_slots`); off only to test that the answer is the same.
SKIP_CROWDED = True
# inches beyond G4's own overlap test: covers the 4-decimal rounding of the centres (at most
# 0.00005") with room to spare, so a near-touch is still asked exactly
CROWDED_MARGIN = 0.001
CROWDED_CHUNK = 48  # slots judged in one numpy pass


def place_unit(
    bf: Battlefield,
    zone: Polygon | None,
    anchor: tuple[float, float],
    models: int,
    radius: float,
    placed: list[Circle],
    facing: int = 1,
) -> list[tuple[float, float]]:
    """Centres for `models` bases of `radius` around `anchor`; appends them to `placed`.

    Slots equally near the anchor are taken in an order turned with the player (`facing_of`), so
    the two sides of a point-symmetric map deploy as mirror images.
    Raises ValueError naming the anchor when the unit cannot be fitted legally.
    """
    step = 2 * radius + GAP
    span = int(math.ceil(math.sqrt(models))) + 6
    box = zone.bounds if zone is not None else None
    mine: list[Circle] = []
    order = _slot_order(step, span, facing)
    # Why (issue 24): a unit tried at a spare anchor that earlier units already fill would ask
    # every slot of its square, and nearly every answer is "overlaps a base"; an army four times
    # as big asked that about ten times as often per slot. One numpy pass over the placed bases
    # near the anchor marks the slots that certainly overlap one (`_open_slots`), and only the
    # others are tried. The bases placed do not change while this unit is placed, so the near
    # ones are indexed once (a far one cannot overlap any slot of the square); the unit's own
    # bases are indexed again only when one is added. Each overlap test is elementwise, so the
    # split answers exactly as one index over `placed + mine`.
    near = _near_bases(placed, anchor, span * step + radius + 1.0)
    others = BaseIndex(near)
    own = BaseIndex(mine)
    tried: Iterable[int] = range(len(order))
    if SKIP_CROWDED:
        tried = _open_slots(near, anchor, step, span, facing, radius, box)
    # Why: only the eight neighbouring slots can be within 1" of a slot (two steps apart is
    # 4r + 1" less the 4-decimal rounding, which leaves more than 1" between the bases), so
    # coherency asks those instead of every base of the unit: the same answer, not units x models.
    by_slot: dict[tuple[int, int], Circle] = {}
    near_only = radius > NEIGHBOUR_RADIUS
    # Why: slots come nearest first, and a coherent slot's centre is within 1" + 2r (and the
    # 4-decimal rounding) of a placed base's, so once the slots are farther from the anchor than
    # that beyond the farthest base placed, no later slot can join: the unit cannot be fitted
    # here, the same answer as trying every slot, found without trying the rest (issue 24).
    join = 1.0 + 2 * radius + 0.001
    farthest = -math.inf
    for n in tried:
        if len(mine) == models:
            break
        i, j = order[n]
        off = math.hypot(i * step, j * step)
        if STOP_OUT_OF_REACH and mine and off > farthest + join:
            break
        c = Circle(round(anchor[0] + i * step, 4), round(anchor[1] + j * step, 4), radius)
        if box is not None and _pokes_out(c, box):
            continue  # outside the zone's bounding box: certainly not wholly within the zone
        if mine and not _coherent(c, i, j, by_slot if near_only else None, mine):
            continue  # coherency: within 1" of another model of the unit
        if zone is not None and not wholly_within(c, zone, 0.0):
            continue
        if placement_problems(c, width=bf.width, height=bf.height, terrain=bf.terrain, bases=others):
            continue
        if len(own) and len(own.overlapping(c)[0]):
            continue
        mine.append(c)
        by_slot[(i, j)] = c
        farthest = max(farthest, off)
        own = BaseIndex(mine)
    if len(mine) < models:
        raise ValueError(f"cannot fit {models} models of {radius * 50.8:.0f}mm around deployment anchor {anchor}")
    placed.extend(mine)
    return [(c.x, c.y) for c in mine]


def _near_bases(placed: list[Circle], anchor: tuple[float, float], reach: float) -> list[Circle]:
    """The placed bases that some base within `reach` of `anchor` (centre to centre, less the
    placed base's radius) could overlap: the others are too far for every slot of the square."""
    ax, ay = anchor
    return [b for b in placed if abs(b.x - ax) <= reach + b.r and abs(b.y - ay) <= reach + b.r]


def _open_slots(
    near: list[Circle],
    anchor: tuple[float, float],
    step: float,
    span: int,
    facing: int,
    radius: float,
    box: tuple[float, float, float, float] | None,
) -> Iterator[int]:
    """The slots of `_slot_order(step, span, facing)` (their indices, in order) less those where
    a base of `radius` certainly reaches outside `box` (as `_pokes_out` says) or certainly
    overlaps one of `near` (G4: its centre is nearer than the two radii less `TOL`), each by
    `CROWDED_MARGIN` more, so that every slot left out is one `place_unit` would skip. Judged
    `CROWDED_CHUNK` slots at a time, in one numpy pass over the chunk and the bases, so that a
    unit placed in its first few slots pays for those alone (issue 24)."""
    di, dj = _slot_offsets(step, span, facing)
    x = np.array([b.x for b in near])
    y = np.array([b.y for b in near])
    lim = np.array([b.r for b in near]) + (radius - TOL - CROWDED_MARGIN)
    out = PRUNE_SLACK + CROWDED_MARGIN
    for start in range(0, len(di), CROWDED_CHUNK):
        sx = anchor[0] + di[start : start + CROWDED_CHUNK]
        sy = anchor[1] + dj[start : start + CROWDED_CHUNK]
        skip = np.zeros(len(sx), dtype=bool)
        if box is not None:
            minx, miny, maxx, maxy = box
            skip |= (sx - radius < minx - out) | (sy - radius < miny - out)
            skip |= (sx + radius > maxx + out) | (sy + radius > maxy + out)
        if len(near):
            left = np.flatnonzero(~skip)
            gap = np.hypot(x - sx[left, None], y - sy[left, None])
            skip[left[(gap < lim).any(axis=1)]] = True
        yield from (start + np.flatnonzero(~skip)).tolist()


@functools.lru_cache(maxsize=64)
def _slot_offsets(step: float, span: int, facing: int) -> tuple[np.ndarray, np.ndarray]:
    """The x and y offsets of `_slot_order`'s slots from the anchor, in inches."""
    order = np.array(_slot_order(step, span, facing), dtype=float)
    return order[:, 0] * step, order[:, 1] * step


def _coherent(c: Circle, i: int, j: int, by_slot: dict[tuple[int, int], Circle] | None, mine: list[Circle]) -> bool:
    """Whether base `c` (at slot i, j) is within 1" of a base of the unit already placed; with
    `by_slot`, only the neighbouring slots are asked (see `place_unit`)."""
    if by_slot is None:
        return any(distance(c, m) <= 1.0 for m in mine)
    for di in (-1, 0, 1):
        for dj in (-1, 0, 1):
            m = by_slot.get((i + di, j + dj))
            if m is not None and distance(c, m) <= 1.0:
                return True
    return False


@functools.lru_cache(maxsize=64)
def _slot_order(step: float, span: int, facing: int) -> tuple[tuple[int, int], ...]:
    """The grid slots (i, j) around an anchor, nearest first, ties turned with the player.

    The same order as sorting (distance, facing * i, facing * j, x, y): (i, j) is unique, so
    the anchor's coordinates never break a tie, and the order is the same for every anchor."""
    return tuple(
        (i, j)
        for _, _, _, i, j in sorted(
            ((i * step) ** 2 + (j * step) ** 2, facing * i, facing * j, i, j)
            for i in range(-span, span + 1)
            for j in range(-span, span + 1)
        )
    )


def _pokes_out(c: Circle, box: tuple[float, float, float, float]) -> bool:
    """Whether the base reaches clearly (by more than PRUNE_SLACK) outside the bounding box."""
    minx, miny, maxx, maxy = box
    return (
        c.x - c.r < minx - PRUNE_SLACK
        or c.y - c.r < miny - PRUNE_SLACK
        or c.x + c.r > maxx + PRUNE_SLACK
        or c.y + c.r > maxy + PRUNE_SLACK
    )


def facing_of(player: int) -> int:
    """1 for player 1, -1 for player 2: orders that are turned with the player, so that a
    point-symmetric map deploys both sides as mirror images."""
    return 1 if player == 1 else -1


def spare_anchors(bf: Battlefield, zone: Polygon | None, player: int, step: float = 4.0) -> list[tuple[float, float]]:
    """Extra anchors for units beyond the map's list: a grid over the zone, front rows last."""
    if zone is None:
        minx, miny, maxx, maxy = 0.0, 0.0, bf.width, bf.height
    else:
        minx, miny, maxx, maxy = zone.bounds
    pts = []
    y = miny + step / 2
    while y < maxy:
        x = minx + step / 2
        while x < maxx:
            pts.append((round(x, 3), round(y, 3)))
            x += step
        y += step
    far_edge = 0.0 if player == 1 else bf.height
    return sorted(pts, key=lambda p: (abs(p[1] - far_edge), facing_of(player) * p[0]))


def deploy_army(
    bf: Battlefield,
    zone: Polygon | None,
    player: int,
    anchors: list[tuple[float, float]],
    units: list[tuple[int, float]],
    placed: list[Circle],
) -> list[list[tuple[float, float]]]:
    """Set up each unit (models, radius) at its anchor, or at the first spare anchor that fits."""
    spares = spare_anchors(bf, zone, player)
    facing = facing_of(player)
    out = []
    for i, (models, radius) in enumerate(units):
        tries = ([anchors[i]] if i < len(anchors) else []) + spares
        for anchor in tries:
            try:
                out.append(place_unit(bf, zone, anchor, models, radius, placed, facing))
                break
            except ValueError:
                continue
        else:
            raise ValueError(f"player {player}'s unit {i} ({models} models) does not fit in the deployment zone")
    return out
