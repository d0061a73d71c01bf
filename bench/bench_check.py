"""Benchmark of `spellfield check` on maps with many deployment anchors.

Run:  python bench/bench_check.py [--sizes 2000,8000] [--repeat 3] [--timeout 120] [--mem-gb 6]

Two measurements per anchor count N (N anchors scattered, seeded, over player 1's 60" x 12" zone
of an otherwise small valid map):

* ``cli``: `python -m game check FILE` in a fresh process, the path a player takes. Wall
  seconds, peak RSS of the process (ru_maxrss) and the number of lines printed.
* ``geometry``: the map checks alone (`map_problems`) on a `BattleMap` built with
  `model_construct`, so the schema's cap on anchors is bypassed and the anchor checks
  themselves are timed at that size. Run in a fresh process too; wall seconds of the call and
  the process's peak RSS.

Two layouts (`--layouts`): ``dense`` puts every anchor within a 2.5" square (each pair is
closer than the advised 4", the reliability run's worst case) and ``spread`` scatters them over
the zone.

Each process runs under an address-space limit (`--mem-gb`) and a timeout, so the quadratic
"before" code is measured without taking the machine down. Prints the median of `--repeat` runs.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]

HEAD = """\
[map]
id = "{id}"
name = "Many anchors"
width = 60
height = 44

[[map.terrain]]
name = "Rock"
traits = ["impassable"]
points = [[28, 20], [32, 20], [32, 24], [28, 24]]

[[map.objectives]]
x = 20
y = 22

[[map.deployment]]
player = 1
points = [[0, 0], [60, 0], [60, 12], [0, 12]]
anchors = [{anchors}]

[[map.deployment]]
player = 2
points = [[0, 32], [60, 32], [60, 44], [0, 44]]
anchors = [[10, 38]]
"""


def anchors(n: int, layout: str = "dense", seed: int = 1) -> list[tuple[float, float]]:
    """`dense`: all within a 2.5" square, so every pair is closer than the advised 4" (the
    reliability run's case: n(n-1)/2 spacing warnings before). `spread`: over the whole zone."""
    rng = random.Random(seed)
    if layout == "dense":
        return [(round(rng.uniform(20, 22.5), 3), round(rng.uniform(4, 6.5), 3)) for _ in range(n)]
    return [(round(rng.uniform(0.5, 59.5), 2), round(rng.uniform(0.5, 11.5), 2)) for _ in range(n)]


def write_map(folder: Path, n: int, layout: str = "dense") -> Path:
    path = folder / f"anchors_{layout}_{n}.toml"
    text = "\n" + "".join(f"    [{x}, {y}],\n" for x, y in anchors(n, layout))  # one per line, as an editor writes them
    path.write_text(HEAD.format(id=path.stem, anchors=text), encoding="utf-8")
    return path


CLI_CHILD = """
import io, json, resource, sys, time, contextlib
sys.path.insert(0, {repo!r})
from game.cli import main
buf = io.StringIO()
t = time.perf_counter()
with contextlib.redirect_stdout(buf), contextlib.redirect_stderr(buf):
    rc = main(["check", {path!r}])
dt = time.perf_counter() - t
print(json.dumps({{"seconds": dt, "rc": rc, "lines": buf.getvalue().count("\\n"),
                  "peak_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}}))
"""

GEOMETRY_CHILD = """
import json, resource, sys, time
sys.path.insert(0, {repo!r})
sys.path.insert(0, {bench!r})
from bench_check import anchors
from game.data.check import map_problems
from game.data.models import BattleMap, DeploymentZone, Objective, Terrain
pts = anchors({n}, {layout!r})
zones = [DeploymentZone.model_construct(player=1, points=[(0, 0), (60, 0), (60, 12), (0, 12)], anchors=pts),
         DeploymentZone.model_construct(player=2, points=[(0, 32), (60, 32), (60, 44), (0, 44)], anchors=[(10, 38)])]
bm = BattleMap.model_construct(id="bench", name="Bench", width=60.0, height=44.0,
                               terrain=[Terrain(name="Rock", traits=["impassable"], points=[(28, 20), (32, 20), (32, 24), (28, 24)])],
                               objectives=[Objective(x=20, y=22)], deployment=zones)
warn = []
t = time.perf_counter()
problems = map_problems(bm, "bench.toml", warn)
dt = time.perf_counter() - t
print(json.dumps({{"seconds": dt, "problems": len(problems), "warnings": len(warn),
                  "peak_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}}))
"""


def run_child(code: str, timeout: float, mem_gb: float) -> dict:
    def limit() -> None:
        import resource

        b = int(mem_gb * 2**30)
        resource.setrlimit(resource.RLIMIT_AS, (b, b))

    try:
        p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=timeout,
                           preexec_fn=limit, cwd=REPO)
    except subprocess.TimeoutExpired:
        return {"failed": f"timed out after {timeout:g} s"}
    if p.returncode != 0 or not p.stdout.strip():
        tail = (p.stderr.strip().splitlines() or ["no output"])[-1]
        return {"failed": f"exit {p.returncode}: {tail[:100]}"}
    return json.loads(p.stdout.strip().splitlines()[-1])


def median_of(runs: list[dict], key: str) -> float | None:
    vals = [r[key] for r in runs if key in r]
    return statistics.median(vals) if vals else None


def report(kind: str, n: int, runs: list[dict], extra: tuple[str, ...]) -> None:
    failed = [r["failed"] for r in runs if "failed" in r]
    if failed and len(failed) == len(runs):
        print(f"{kind:12s} N={n:6d}  FAILED: {failed[0]}")
        return
    s, mb = median_of(runs, "seconds"), median_of(runs, "peak_mb")
    rest = "  ".join(f"{k}={median_of(runs, k):g}" for k in extra)
    print(f"{kind:12s} N={n:6d}  median {s:8.3f} s  peak {mb:8.1f} MB  {rest}" + (f"  ({len(failed)} failed)" if failed else ""))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--sizes", default="2000,8000")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--timeout", type=float, default=120)
    ap.add_argument("--mem-gb", type=float, default=6)
    ap.add_argument("--only", choices=("cli", "geometry"), default=None)
    ap.add_argument("--layouts", default="dense,spread")
    a = ap.parse_args()
    sizes = [int(s) for s in a.sizes.split(",")]
    with tempfile.TemporaryDirectory() as tmp:
        for layout in a.layouts.split(","):
            for n in sizes:
                path = write_map(Path(tmp), n, layout)
                if a.only in (None, "cli"):
                    code = CLI_CHILD.format(repo=str(REPO), path=str(path))
                    report(f"cli/{layout}", n, [run_child(code, a.timeout, a.mem_gb) for _ in range(a.repeat)], ("rc", "lines"))
                if a.only in (None, "geometry"):
                    code = GEOMETRY_CHILD.format(repo=str(REPO), bench=str(Path(__file__).resolve().parent), n=n, layout=layout)
                    report(f"geom/{layout}", n, [run_child(code, a.timeout, a.mem_gb) for _ in range(a.repeat)],
                           ("problems", "warnings"))


if __name__ == "__main__":
    main()
