"""Benchmark of the geometry and physics layer (G1-G4).

Run:  python bench/bench_geometry.py

Seeded random board (60" x 44"), terrain = random convex polygons 2-6" across
(overlap between pieces kept small; every piece obscuring and impassable, the
worst case), 32 mm bases (0.63" radius), models placed without overlap where
possible.  Prints the MEDIAN per-query cost in microseconds (each query timed as
its best of 3 runs, see ``median_us``), then the targets with PASS/MISS.

Blockers and bases are passed as a prebuilt ``BaseIndex`` (the fast path a caller
should use); filtering out the observer's and target's own units is the caller's
job and is not timed.
"""

from __future__ import annotations

import math
import statistics
import sys
import time
from pathlib import Path

import numpy as np
import shapely

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from game.geometry import BaseIndex, Circle, TerrainIndex, TerrainPiece, placement_problems, visible  # noqa: E402
from game.geometry.path import sweep_move  # noqa: E402
from game.physics import move_base  # noqa: E402
from game.physics import move as move_mod  # noqa: E402

W, H = 60.0, 44.0
R = 32 / 25.4 / 2  # 0.63"
QUERIES = 300


def make_terrain(rng: np.random.Generator, n: int) -> list[TerrainPiece]:
    pieces: list[TerrainPiece] = []
    polys: list = []
    tries = 0
    while len(pieces) < n and tries < n * 200:
        tries += 1
        size = rng.uniform(2.0, 6.0)
        cx, cy = rng.uniform(size / 2 + 0.5, W - size / 2 - 0.5), rng.uniform(size / 2 + 0.5, H - size / 2 - 0.5)
        k = int(rng.integers(5, 9))
        ang = np.sort(rng.uniform(0, 2 * math.pi, k))
        rad = rng.uniform(0.6, 1.0, k) * size / 2
        poly = shapely.Polygon(np.column_stack([cx + rad * np.cos(ang), cy + rad * np.sin(ang)])).convex_hull
        if poly.area < 1.0:
            continue
        if any(poly.intersection(p).area > 0.1 * min(poly.area, p.area) for p in polys) and tries < n * 100:
            continue
        polys.append(poly)
        pieces.append(TerrainPiece(f"T{len(pieces)}", poly, frozenset({"obscuring", "impassable"})))
    return pieces


def make_models(rng: np.random.Generator, n: int, terrain: TerrainIndex) -> list[Circle]:
    xs: list[float] = []
    ys: list[float] = []
    out: list[Circle] = []
    for _ in range(n):
        for attempt in range(60):
            x, y = rng.uniform(R + 0.1, W - R - 0.1), rng.uniform(R + 0.1, H - R - 0.1)
            c = Circle(x, y, R)
            if xs and np.min(np.hypot(np.array(xs) - x, np.array(ys) - y)) < 2 * R and attempt < 59:
                continue
            if terrain.impassable_overlapping(c) and attempt < 59:
                continue
            break
        xs.append(x)
        ys.append(y)
        out.append(c)
    return out


REPEATS = 3


def median_us(fn, args_list) -> float:
    """Median over queries of each query's best-of-REPEATS time.

    Taking the best of a few runs of the SAME query removes scheduler noise from
    other processes on this shared 2-core machine without hiding slow queries
    (every query is still counted once in the median).
    """
    times = []
    for args in args_list:
        best = None
        for _ in range(REPEATS):
            t0 = time.perf_counter_ns()
            fn(*args)
            dt = time.perf_counter_ns() - t0
            best = dt if best is None or dt < best else best
        times.append(best)
    return statistics.median(times) / 1000.0


def bench_visibility(n_terrain: int, n_models: int, seed: int = 1) -> float:
    rng = np.random.default_rng(seed)
    tindex = TerrainIndex(make_terrain(rng, n_terrain))
    models = make_models(rng, n_models + 2, tindex)
    args = []
    for _ in range(QUERIES):
        i, j = rng.choice(len(models), 2, replace=False)
        keep = [k for k in range(len(models)) if k not in (i, j)]
        blockers = BaseIndex([models[k] for k in keep])
        args.append((models[i], models[j], tindex, blockers))
    for a in args[:20]:
        visible(*a)  # warm up
    return median_us(visible, args)


def bench_placement(n_terrain: int, n_models: int, seed: int = 2) -> float:
    rng = np.random.default_rng(seed)
    tindex = TerrainIndex(make_terrain(rng, n_terrain))
    bases = BaseIndex(make_models(rng, n_models, tindex))
    manif = [shapely.Point(10, 10).buffer(1.5, quad_segs=8), Circle(40, 30, 1.0), shapely.box(25, 5, 28, 7)]
    args = [
        (Circle(float(rng.uniform(0, W)), float(rng.uniform(0, H)), R),)
        for _ in range(QUERIES)
    ]

    def run(c):
        return placement_problems(c, width=W, height=H, terrain=tindex, bases=bases, manifestations=manif)

    for a in args[:20]:
        run(*a)
    return median_us(run, args)


def bench_within(n_models: int, seed: int = 3) -> float:
    rng = np.random.default_rng(seed)
    bases = BaseIndex(make_models(rng, n_models, TerrainIndex()))
    args = [(Circle(float(rng.uniform(0, W)), float(rng.uniform(0, H)), R), 12.0) for _ in range(QUERIES)]
    for a in args[:20]:
        bases.within(*a)
    return median_us(bases.within, args)


def bench_move(n_terrain: int, n_models: int, seed: int = 4, mover=None) -> float:
    """Median µs of one move: `mover` is the physics layer's `move_base` (pymunk broad phase and
    cross-check, the UI's drags) by default, or the geometry's `sweep_move` (what the rules use)."""
    mover = mover or move_base
    rng = np.random.default_rng(seed)
    pieces = make_terrain(rng, n_terrain)
    tindex = TerrainIndex(pieces)
    models = make_models(rng, n_models + 1, tindex)
    impassable = tindex.polygons("impassable")
    names = [p.name for p in pieces if "impassable" in p.traits]
    args = []
    while len(args) < QUERIES:
        i = int(rng.integers(len(models)))
        others = BaseIndex([m for k, m in enumerate(models) if k != i])
        if placement_problems(models[i], width=W, height=H, terrain=tindex, bases=others):
            continue  # moves start from legal positions (crowded boards have a few illegal ones)
        ang = rng.uniform(0, 2 * math.pi)
        dist = rng.uniform(3, 10)
        s = models[i].centre
        e = (s[0] + dist * math.cos(ang), s[1] + dist * math.sin(ang))
        args.append((s, e, others))

    def run(s, e, others):
        return mover(s, e, R, bases=others, impassable=impassable, width=W, height=H, impassable_names=names)

    for a in args[:20]:
        run(*a)
    return median_us(run, args)


def main() -> int:
    rows: list[tuple[str, str, float]] = []
    results: dict[tuple, float] = {}
    for nt in (5, 30, 100):
        for nm in (10, 100, 1000):
            v = bench_visibility(nt, nm)
            results[("vis", nt, nm)] = v
            rows.append(("visibility model-to-model", f"{nt} terrain, {nm} models", v))
    for nt in (5, 30, 100):
        for nm in (10, 100, 1000):
            v = bench_placement(nt, nm)
            results[("place", nt, nm)] = v
            rows.append(("placement check", f"{nt} terrain, {nm} models", v))
    for nm in (10, 100, 300, 1000):
        v = bench_within(nm)
        results[("within", nm)] = v
        rows.append(('who is within 12"', f"{nm} models", v))
    move_mod.STATS.update(moves=0, pymunk_disagreements=0)
    for nt in (5, 30, 100):
        for nm in (10, 100, 1000):
            v = bench_move(nt, nm)
            results[("move", nt, nm)] = v
            rows.append(("collision-aware move", f"{nt} terrain, {nm} models", v))
    for nt in (5, 30, 100):
        for nm in (10, 100, 1000):
            v = bench_move(nt, nm, mover=sweep_move)
            results[("sweep", nt, nm)] = v
            rows.append(("move, geometry only (rules)", f"{nt} terrain, {nm} models", v))

    print(f"{'query':30s} {'board':28s} {'median µs':>10s}")
    print("-" * 70)
    for q, b, v in rows:
        print(f"{q:30s} {b:28s} {v:10.1f}")
    print()
    print(
        f"pymunk proposals overruled by the exact solver: {move_mod.STATS['pymunk_disagreements']}"
        f" of {move_mod.STATS['moves']} moves"
    )
    print()
    targets = [
        ("visibility, 30 terrain, 100 models", results[("vis", 30, 100)], 200.0),
        ("placement, 30 terrain, 100 models", results[("place", 30, 100)], 50.0),
        ("within over 300 models", results[("within", 300)], 50.0),
        ("one move, 30 terrain, 100 models", results[("move", 30, 100)], 100.0),
        ("one rules move (no pymunk), 30 t, 100 m", results[("sweep", 30, 100)], 100.0),
    ]
    print(f"{'target':40s} {'limit µs':>9s} {'measured':>9s}  result")
    print("-" * 70)
    ok = True
    for name, got, lim in targets:
        res = "PASS" if got <= lim else "MISS"
        ok &= res == "PASS"
        print(f"{name:40s} {lim:9.0f} {got:9.1f}  {res}")
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
