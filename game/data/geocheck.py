"""The geometric checks of maps and footprints: one validation for every way a file comes in.

`spellfield check`, `Game.load`, `spellfield play --map F`, `spellfield record --map F` and the
demonstration loader all run these same functions, so a map that `check` rejects never reaches
the engine (where, for instance, a terrain piece whose points coincide has no edges and the
terrain index fails on it). Problems are errors and become `DataError`s when loading; advice
(`warn`) is computed only when a caller asks for it (`spellfield check`).

Bounded work (a map file can hold a few thousand anchors within the 1 MiB cap, and the schema
caps them much lower, but the checks do not rely on that):

* anchors against terrain and against each other go through shapely's STRtree (nearest
  neighbour and `dwithin` queries): O(n log n), never all pairs. Measured by
  `bench/bench_check.py`: 8,000 anchors packed in one zone take about 0.15 s and 72 MB here;
  the old all-pairs loop took 52 s and 4.7 GB for 32 million warnings.
* messages of one kind are capped (`MAX_PER_KIND`) and the rest are counted in one line, so
  a map with thousands of close anchors prints a dozen lines, not millions.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

import numpy as np
import shapely
from shapely.geometry import Point, Polygon
from shapely.validation import explain_validity

from game.data.models import MM_PER_INCH, BattleMap, ContentFile

#: A map should have this many objectives (advice only).
RECOMMENDED_OBJECTIVES = (4, 6)
#: Default anchors should fit an army of this many units (advice only).
RECOMMENDED_ANCHORS = 12
#: Advice: anchors at least this far apart.
MIN_ANCHOR_SPACING = 4.0
#: Advice: the block used to test that a unit fits around an anchor: 10 models on 32mm bases,
#: two rows of five, 0.1" apart.
BLOCK_MODELS, BLOCK_ROWS, BLOCK_BASE_MM, BLOCK_GAP = 10, 2, 32.0, 0.1
#: Most messages of one kind (per zone, per file) printed; the rest are counted in one line.
MAX_PER_KIND = 10


class Capped:
    """Messages grouped by kind, at most `limit` of each; `flush` adds "... and K more"."""

    def __init__(self, out: list[str] | None, limit: int = MAX_PER_KIND) -> None:
        self.out = out
        self.limit = limit
        self.extra: dict[str, tuple[str, int]] = {}
        self.counts: dict[str, int] = {}

    @property
    def wanted(self) -> bool:
        return self.out is not None

    def add(self, kind: str, where: str, message: Callable[..., str] | str) -> None:
        """`message` is the text, or a function called without arguments that makes it (only
        when it is shown); its parameters, if any, are defaults binding a loop's values."""
        if self.out is None:
            return
        n = self.counts.get(kind, 0) + 1
        self.counts[kind] = n
        if n <= self.limit:
            self.out.append(message() if callable(message) else message)
        else:
            self.extra[kind] = (where, n - self.limit)

    def flush(self) -> None:
        if self.out is None:
            return
        for kind, (where, left) in self.extra.items():
            self.out.append(f"{where}: ... and {left} more like this ({kind})")
        self.extra.clear()


def polygon_problem(points: Sequence[tuple[float, float]]) -> str | None:
    """Why these points are not a simple polygon with area, or None."""
    distinct = len(set(map(tuple, points)))
    if distinct < 3:
        return (
            f"its {len(points)} points coincide in {distinct} distinct point{'s' if distinct != 1 else ''}; "
            "a polygon needs 3 or more"
        )
    poly = Polygon(points)
    if not poly.is_valid:
        return explain_validity(poly)
    if poly.area <= 0:
        return "zero area"
    return None


def footprint_problems(cf: ContentFile, label: str, warn: list[str] | None = None) -> list[str]:
    """Manifestation footprint polygons must be simple and should be centred on (0, 0)."""
    out: list[str] = []
    for i, m in enumerate(cf.manifestation):
        if m.footprint.polygon is None:
            continue
        where = f"{label}: manifestation[{i}].footprint.polygon ({m.id!r})"
        why = polygon_problem(m.footprint.polygon)
        if why:
            out.append(f"{where}: not a simple polygon: {why}")
            continue
        c = Polygon(m.footprint.polygon).centroid
        if warn is not None and math.hypot(c.x, c.y) > 0.5:
            warn.append(f"{where}: centred on ({c.x:.2f}, {c.y:.2f}), expected about (0, 0)")
    return out


def terrain_problems(bm: BattleMap, label: str, field: str = "map") -> tuple[list[str], list[tuple[int, Polygon]]]:
    """Invalid terrain polygons, and the valid impassable ones (index, polygon)."""
    out: list[str] = []
    impassable: list[tuple[int, Polygon]] = []
    for i, t in enumerate(bm.terrain):
        why = polygon_problem(t.points)
        if why:
            out.append(f"{label}: {field}.terrain[{i}].points: {t.name!r} is not a simple polygon: {why}")
        elif "impassable" in t.traits:
            impassable.append((i, Polygon(t.points)))
    return out, impassable


def map_problems(
    bm: BattleMap, label: str, warn: list[str] | None = None, require_deployment: bool = True, field: str = "map"
) -> list[str]:
    """Geometric problems of a schema-valid map (schema problems are caught by pydantic).

    Errors: terrain and deployment zones that are not simple polygons with area; objectives
    and anchors inside impassable terrain; anchors outside their zone; a second zone for a
    player, a missing zone (unless `require_deployment` is False: a demonstration's inline
    battlefield has none) or overlapping zones. Advice goes to `warn` when it is given.
    `field` is the table the map sits in (messages read `file: map.terrain[2].points: ...`).
    """
    out, impassable = terrain_problems(bm, label, field)
    for i, o in enumerate(bm.objectives):
        p = Point(o.x, o.y)
        for j, poly in impassable:
            if poly.covers(p):
                out.append(
                    f"{label}: {field}.objectives[{i}]: ({o.x:g}, {o.y:g}) lies inside impassable terrain "
                    f"{field}.terrain[{j}] ({bm.terrain[j].name!r})"
                )
    lo, hi = RECOMMENDED_OBJECTIVES
    if warn is not None and not lo <= len(bm.objectives) <= hi:
        warn.append(f"{label}: {field}.objectives: {len(bm.objectives)} objectives; {lo}-{hi} are recommended")

    zones: dict[int, tuple[int, Polygon]] = {}
    for i, z in enumerate(bm.deployment):
        why = polygon_problem(z.points)
        if why:
            out.append(f"{label}: map.deployment[{i}].points: not a simple polygon: {why}")
            continue
        if z.player in zones:
            out.append(
                f"{label}: map.deployment[{i}]: a second zone for player {z.player} "
                f"(first is map.deployment[{zones[z.player][0]}])"
            )
            continue
        poly = Polygon(z.points)
        zones[z.player] = (i, poly)
        out += _anchor_problems(bm, label, i, poly, impassable, warn)
    if require_deployment or bm.deployment:
        for player in (1, 2):
            if player not in zones and not any(z.player == player for z in bm.deployment):
                out.append(f"{label}: map.deployment: no deployment zone for player {player}")
    if 1 in zones and 2 in zones:
        (i1, z1), (i2, z2) = zones[1], zones[2]
        if z1.intersection(z2).area > 0:
            out.append(f"{label}: map.deployment[{i1}] and map.deployment[{i2}]: the two deployment zones overlap")
    return out


def _anchor_problems(
    bm: BattleMap, label: str, zi: int, zone: Polygon, impassable: list[tuple[int, Polygon]], warn: list[str] | None
) -> list[str]:
    """Anchors outside their zone or in impassable terrain (errors, capped per kind); advice on
    anchors too close together or too tight for a unit. Near-linear in the number of anchors."""
    adv = Capped(warn)
    z = bm.deployment[zi]
    where = f"{label}: map.deployment[{zi}].anchors"
    errs = Capped([], limit=2 * MAX_PER_KIND)
    if adv.wanted and len(z.anchors) < RECOMMENDED_ANCHORS:
        adv.add(
            "few anchors",
            where,
            f"{where}: {len(z.anchors)} anchors; {RECOMMENDED_ANCHORS} are recommended (one per army unit)",
        )
    if not z.anchors:
        adv.flush()
        return []
    xy = np.asarray(z.anchors, dtype=float).reshape(-1, 2)
    pts = shapely.points(xy)
    inside = shapely.covers(zone, pts)
    blocked: dict[int, list[int]] = {}
    if impassable:
        tree = shapely.STRtree([poly for _, poly in impassable])
        a_idx, t_idx = tree.query(pts, predicate="covered_by")
        for k, t in sorted(zip(a_idx.tolist(), t_idx.tolist())):
            blocked.setdefault(k, []).append(impassable[t][0])
    usable = np.zeros(len(xy), dtype=bool)
    for k, (x, y) in enumerate(z.anchors):
        if not inside[k]:
            errs.add(
                "outside the zone",
                where,
                lambda k=k, x=x, y=y: f"{where}[{k}]: ({x:g}, {y:g}) is outside player {z.player}'s deployment zone",
            )
            continue
        for j in blocked.get(k, []):
            errs.add(
                "in impassable terrain",
                where,
                lambda k=k, x=x, y=y, j=j: (
                    f"{where}[{k}]: ({x:g}, {y:g}) lies inside impassable terrain "
                    f"map.terrain[{j}] ({bm.terrain[j].name!r})"
                ),
            )
        usable[k] = k not in blocked
    errs.flush()
    if adv.wanted:
        _fit_advice(bm, where, zone, impassable, xy, usable, adv)
        _spacing_advice(where, xy, adv)
        adv.flush()
    return errs.out or []


def _fit_advice(
    bm: BattleMap,
    where: str,
    zone: Polygon,
    impassable: list[tuple[int, Polygon]],
    xy: np.ndarray,
    usable: np.ndarray,
    adv: Capped,
) -> None:
    """Advice: a 10-model block of 32mm bases in two rows fits around each usable anchor, inside
    the zone, clear of its edge and of impassable terrain (vectorised over all anchors)."""
    ks = np.flatnonzero(usable)
    if not len(ks):
        return
    r = BLOCK_BASE_MM / MM_PER_INCH / 2
    pitch = 2 * r + BLOCK_GAP
    per_row = math.ceil(BLOCK_MODELS / BLOCK_ROWS)
    offsets = np.array(
        [
            ((c - (per_row - 1) / 2) * pitch, (row - (BLOCK_ROWS - 1) / 2) * pitch)
            for row in range(BLOCK_ROWS)
            for c in range(per_row)
        ]
    )
    centres = xy[ks][:, None, :] + offsets[None, :, :]  # (anchors, models, 2)
    flat = centres.reshape(-1, 2)
    cpts = shapely.points(flat)
    ok = shapely.covers(zone, cpts) & (shapely.distance(zone.exterior, cpts) >= r)
    ok &= (flat[:, 0] >= r) & (flat[:, 0] <= bm.width - r) & (flat[:, 1] >= r) & (flat[:, 1] <= bm.height - r)
    if impassable:
        tree = shapely.STRtree([poly for _, poly in impassable])
        # dwithin is "distance <= r"; the block is refused only where the distance is below r
        c_idx, t_idx = tree.query(cpts, predicate="dwithin", distance=r)
        if len(c_idx):
            d = shapely.distance(np.asarray([impassable[t][1] for t in t_idx.tolist()], dtype=object), cpts[c_idx])
            ok[c_idx[d < r]] = False
    fits = ok.reshape(len(ks), -1).all(axis=1)
    for k in ks[~fits].tolist():
        x, y = xy[k]
        adv.add(
            "unit does not fit",
            where,
            lambda k=k, x=x, y=y: (
                f"{where}[{k}]: a unit of {BLOCK_MODELS} models on {BLOCK_BASE_MM:g}mm bases in {BLOCK_ROWS} rows "
                f"does not fit around ({x:g}, {y:g}) inside the zone and clear of impassable terrain"
            ),
        )


def _spacing_advice(where: str, xy: np.ndarray, adv: Capped) -> None:
    """Advice: anchors closer than MIN_ANCHOR_SPACING. Each anchor is compared with its nearest
    neighbour (an STRtree nearest query, O(n log n)); a pair that are each other's nearest is
    reported once."""
    n = len(xy)
    if n < 2:
        return
    # identical anchors first (the nearest query below skips geometries equal to the query)
    uniq, first, inverse = np.unique(xy, axis=0, return_index=True, return_inverse=True)
    inverse = inverse.reshape(-1)
    for a in range(n):
        f = int(first[inverse[a]])
        if f != a:
            adv.add(
                "anchors too close",
                where,
                lambda f=f, a=a: f"{where}[{f}] and [{a}]: only 0.00\" apart; {MIN_ANCHOR_SPACING:g}\" is recommended",
            )
    m = len(uniq)
    if m < 2:
        return
    pts = shapely.points(uniq)
    tree = shapely.STRtree(pts)
    (src, dst), dist = tree.query_nearest(pts, exclusive=True, return_distance=True, all_matches=False)
    nearest = np.full(m, -1)
    d_near = np.full(m, math.inf)
    nearest[src] = dst
    d_near[src] = dist
    for u in np.argsort(first).tolist():  # in anchor order
        v = int(nearest[u])
        if v < 0 or d_near[u] >= MIN_ANCHOR_SPACING:
            continue
        if nearest[v] == u and first[v] < first[u]:
            continue  # already reported as (v, u)
        lo, hi = sorted((int(first[u]), int(first[v])))
        d = float(d_near[u])
        adv.add(
            "anchors too close",
            where,
            lambda lo=lo, hi=hi, d=d: (
                f"{where}[{lo}] and [{hi}]: only {d:.2f}\" apart; {MIN_ANCHOR_SPACING:g}\" is recommended"
            ),
        )
