"""`spellfield check FILE...`: validate map and content files and report every problem.

Content files are checked in context: their cross references are resolved against the game's
embedded content, with the checked files' own definitions laid over it (so a single lore file
can be checked, and a lore naming a missing spell is reported, M8). Map files get geometric
checks too: valid terrain polygons, objectives clear of impassable terrain, one valid
deployment zone per player with every anchor inside its zone.

Problems are errors (exit status 1). Warnings are advice and do not fail a check.
"""

from __future__ import annotations

import math
import os
import sys
from collections.abc import Sequence
from pathlib import Path

from shapely.geometry import Point, Polygon
from shapely.validation import explain_validity

from game.data.content import build_content, content_warnings, default_content
from game.data.errors import DataError
from game.data.loader import (
    CONTENT_KEYS,
    detect_kind,
    label_for,
    load_content_data,
    load_map_data,
    read_toml,
)
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


def check_files(paths: Sequence[str | os.PathLike[str]], warnings: list[str] | None = None) -> list[str]:
    """Every problem in the given map and content files (empty if all are fine).

    If `warnings` is given, advice that is not an error is appended to it.
    """
    problems: list[str] = []
    warn: list[str] = warnings if warnings is not None else []
    content_files: dict[str, ContentFile] = {}
    for path in paths:
        label = label_for(path)
        try:
            data = read_toml(path, label)
            # a demonstration has [[manifestation]] tables as content files do: recognise it first
            kind = "demo" if "demo" in data and "step" in data else detect_kind(data)
            if kind == "map":
                bm = load_map_data(data, label)
                problems += map_problems(bm, label, warn)
                stem = Path(label).stem
                if bm.id != stem:
                    warn.append(f"{label}: map.id {bm.id!r} differs from the file name; embedded maps are found by file name")
            elif kind == "content":
                cf = load_content_data(data, label)
                content_files[label] = cf
                problems += footprint_problems(cf, label, warn)
            elif kind == "demo":
                # a rule demonstration: its schema and cross-references live with the demos
                from game.demos.loader import load_demo

                load_demo(Path(path))
            elif kind == "replay":
                problems.append(f"{label}: this is a replay, not a map or content file; verify it with the replay tools")
            else:
                problems.append(
                    f"{label}: not a map file (no [map] table), a demonstration ([demo] and [[step]]) or a content file (no "
                    + ", ".join(f"[[{k}]]" for k in CONTENT_KEYS)
                    + ")"
                )
        except DataError as e:
            problems += e.problems
    if content_files:
        problems += _content_problems(content_files, warn)
    return problems


def _content_problems(files: dict[str, ContentFile], warn: list[str]) -> list[str]:
    try:
        base = default_content()
    except DataError as e:
        base = None
        warn.append("embedded content does not load, so cross references are checked among the given files only:")
        warn.extend("  " + p for p in e.problems)
    try:
        merged = build_content(files, base=base)
    except DataError as e:
        return e.problems
    warn.extend(w for w in content_warnings(merged) if any(w.startswith(f"{label}:") for label in files))
    return []


def footprint_problems(cf: ContentFile, label: str, warn: list[str]) -> list[str]:
    """Manifestation footprint polygons must be simple and should be centred on (0, 0)."""
    out: list[str] = []
    for i, m in enumerate(cf.manifestation):
        if m.footprint.polygon is None:
            continue
        poly = Polygon(m.footprint.polygon)
        where = f"{label}: manifestation[{i}].footprint.polygon ({m.id!r})"
        if not poly.is_valid or poly.area <= 0:
            out.append(f"{where}: not a simple polygon: {explain_validity(poly)}")
            continue
        c = poly.centroid
        if math.hypot(c.x, c.y) > 0.5:
            warn.append(f"{where}: centred on ({c.x:.2f}, {c.y:.2f}), expected about (0, 0)")
    return out


def map_problems(bm: BattleMap, label: str, warn: list[str] | None = None) -> list[str]:
    """Geometric problems of a validated map (schema problems are caught when loading)."""
    warn = warn if warn is not None else []
    out: list[str] = []
    impassable: list[tuple[int, Polygon]] = []
    for i, t in enumerate(bm.terrain):
        poly = Polygon(t.points)
        if not poly.is_valid or poly.area <= 0:
            out.append(
                f"{label}: map.terrain[{i}].points: {t.name!r} is not a simple polygon: "
                f"{explain_validity(poly) if not poly.is_valid else 'zero area'}"
            )
        elif "impassable" in t.traits:
            impassable.append((i, poly))

    for i, o in enumerate(bm.objectives):
        p = Point(o.x, o.y)
        for j, poly in impassable:
            if poly.covers(p):
                out.append(
                    f"{label}: map.objectives[{i}]: ({o.x:g}, {o.y:g}) lies inside impassable terrain "
                    f"map.terrain[{j}] ({bm.terrain[j].name!r})"
                )
    lo, hi = RECOMMENDED_OBJECTIVES
    if not lo <= len(bm.objectives) <= hi:
        warn.append(f"{label}: map.objectives: {len(bm.objectives)} objectives; {lo}-{hi} are recommended")

    zones: dict[int, tuple[int, Polygon]] = {}
    for i, z in enumerate(bm.deployment):
        poly = Polygon(z.points)
        if not poly.is_valid or poly.area <= 0:
            out.append(
                f"{label}: map.deployment[{i}].points: not a simple polygon: "
                f"{explain_validity(poly) if not poly.is_valid else 'zero area'}"
            )
            continue
        if z.player in zones:
            out.append(f"{label}: map.deployment[{i}]: a second zone for player {z.player} (first is map.deployment[{zones[z.player][0]}])")
            continue
        zones[z.player] = (i, poly)
        out += _anchor_problems(bm, label, i, poly, impassable, warn)
    for player in (1, 2):
        if player not in zones and not any(z.player == player for z in bm.deployment):
            out.append(f"{label}: map.deployment: no deployment zone for player {player}")
    if 1 in zones and 2 in zones:
        (i1, z1), (i2, z2) = zones[1], zones[2]
        if z1.intersection(z2).area > 0:
            out.append(f"{label}: map.deployment[{i1}] and map.deployment[{i2}]: the two deployment zones overlap")
    return out


def _anchor_problems(
    bm: BattleMap, label: str, zi: int, zone: Polygon, impassable: list[tuple[int, Polygon]], warn: list[str]
) -> list[str]:
    out: list[str] = []
    z = bm.deployment[zi]
    where = f"{label}: map.deployment[{zi}].anchors"
    if len(z.anchors) < RECOMMENDED_ANCHORS:
        warn.append(f"{where}: {len(z.anchors)} anchors; {RECOMMENDED_ANCHORS} are recommended (one per army unit)")
    r = BLOCK_BASE_MM / MM_PER_INCH / 2
    pitch = 2 * r + BLOCK_GAP
    per_row = math.ceil(BLOCK_MODELS / BLOCK_ROWS)
    for k, (x, y) in enumerate(z.anchors):
        p = Point(x, y)
        if not zone.covers(p):
            out.append(f"{where}[{k}]: ({x:g}, {y:g}) is outside player {z.player}'s deployment zone")
            continue
        blocked = [j for j, poly in impassable if poly.covers(p)]
        for j in blocked:
            out.append(f"{where}[{k}]: ({x:g}, {y:g}) lies inside impassable terrain map.terrain[{j}] ({bm.terrain[j].name!r})")
        if blocked:
            continue
        # Advice: a 10-model block of 32mm bases in two rows fits around the anchor.
        centres = [
            (x + (c - (per_row - 1) / 2) * pitch, y + (row - (BLOCK_ROWS - 1) / 2) * pitch)
            for row in range(BLOCK_ROWS)
            for c in range(per_row)
        ]
        boundary = zone.exterior
        fits = all(
            zone.covers(Point(cx, cy))
            and boundary.distance(Point(cx, cy)) >= r
            and r <= cx <= bm.width - r
            and r <= cy <= bm.height - r
            and all(poly.distance(Point(cx, cy)) >= r for _, poly in impassable)
            for cx, cy in centres
        )
        if not fits:
            warn.append(
                f"{where}[{k}]: a unit of {BLOCK_MODELS} models on {BLOCK_BASE_MM:g}mm bases in {BLOCK_ROWS} rows "
                f"does not fit around ({x:g}, {y:g}) inside the zone and clear of impassable terrain"
            )
    for a in range(len(z.anchors)):
        for b in range(a + 1, len(z.anchors)):
            (xa, ya), (xb, yb) = z.anchors[a], z.anchors[b]
            d = math.hypot(xa - xb, ya - yb)
            if d < MIN_ANCHOR_SPACING:
                warn.append(f"{where}[{a}] and [{b}]: only {d:.2f}\" apart; {MIN_ANCHOR_SPACING:g}\" is recommended")
    return out


def main(argv: list[str]) -> int:
    """Check files; print "OK <file>" for each good file, else its problems. 0 if all good, else 1."""
    if not argv:
        print("usage: spellfield check FILE...", file=sys.stderr)
        return 2
    warnings: list[str] = []
    problems = check_files(argv, warnings)
    labels = [label_for(p) for p in argv]
    for label in labels:
        mine = [p for p in problems if p.startswith(f"{label}:")]
        if mine:
            for p in mine:
                print(p)
        else:
            print(f"OK {label}")
    for p in problems:
        if not any(p.startswith(f"{label}:") for label in labels):
            print(p)
    for w in warnings:
        print(f"warning: {w}")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
