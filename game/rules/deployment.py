"""Default deployment: each unit's models set up around its map anchor, legally (G4).

Models go on a square grid spaced 0.5" edge to edge, nearest slots to the anchor first, each
model touching-distance coherent with one already placed, wholly within the player's zone,
clear of other bases, impassable terrain and the edge.
"""

from __future__ import annotations

import math

from shapely.geometry import Polygon

from game.geometry.measure import distance, wholly_within
from game.geometry.placement import placement_problems
from game.geometry.shapes import Circle
from game.rules.battlefield import Battlefield

GAP = 0.5  # inches between neighbouring bases in a default formation


def place_unit(
    bf: Battlefield,
    zone: Polygon | None,
    anchor: tuple[float, float],
    models: int,
    radius: float,
    placed: list[Circle],
) -> list[tuple[float, float]]:
    """Centres for `models` bases of `radius` around `anchor`; appends them to `placed`.

    Raises ValueError naming the anchor when the unit cannot be fitted legally.
    """
    step = 2 * radius + GAP
    span = int(math.ceil(math.sqrt(models))) + 6
    slots = sorted(
        ((i * step) ** 2 + (j * step) ** 2, round(anchor[0] + i * step, 4), round(anchor[1] + j * step, 4))
        for i in range(-span, span + 1)
        for j in range(-span, span + 1)
    )
    mine: list[Circle] = []
    for _, x, y in slots:
        if len(mine) == models:
            break
        c = Circle(x, y, radius)
        if mine and not any(distance(c, m) <= 1.0 for m in mine):
            continue  # coherency: within 1" of another model of the unit
        if zone is not None and not wholly_within(c, zone, 0.0):
            continue
        if placement_problems(c, width=bf.width, height=bf.height, terrain=bf.terrain, bases=placed + mine):
            continue
        mine.append(c)
    if len(mine) < models:
        raise ValueError(f"cannot fit {models} models of {radius * 50.8:.0f}mm around deployment anchor {anchor}")
    placed.extend(mine)
    return [(c.x, c.y) for c in mine]
