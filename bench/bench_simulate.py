"""Benchmark `simulate`'s ways of playing the same games (issue 24): one process, `--jobs 2`,
`--scheduler local` (2 workers, the cluster's start and close included) and a running 2-worker
cluster reached by its address (what `--scheduler tcp://...` costs once the cluster is up).
Prints each mode's median wall time over the repeats, its ratio to one process, and checks that
every mode gave the same summary.

    python bench/bench_simulate.py [--games 8] [--repeats 3] [--p1 random] [--p2 random] [--seed 1]
"""

from __future__ import annotations

import argparse
import json
import logging
import statistics
import sys
import time
from pathlib import Path

# run as a script, Python would put bench/ first on the path and import an installed (possibly
# stale) copy of the game; the working tree is what we mean to measure
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from game.sim import run, summary


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=8)
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--p1", default="random")
    ap.add_argument("--p2", default="random")
    ap.add_argument("--seed", type=int, default=1)
    a = ap.parse_args()

    from distributed import LocalCluster

    # the "running cluster" mode: started once, outside the timings
    with LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, dashboard_address=":0", silence_logs=logging.CRITICAL
    ) as cluster:
        modes = {
            "--jobs 1": dict(jobs=1),
            "--jobs 2": dict(jobs=2),
            "--scheduler local (2 workers)": dict(jobs=2, scheduler="local"),
            "running cluster (2 workers)": dict(jobs=2, scheduler=cluster.scheduler_address),
        }
        times: dict[str, list[float]] = {m: [] for m in modes}
        summaries: dict[str, str] = {}
        for _ in range(a.repeats):
            for mode, kw in modes.items():  # interleaved, so that a busy spell of the machine hits every mode
                t = time.perf_counter()
                results = run(a.games, a.p1, a.p2, a.seed, progress=False, **kw)  # type: ignore[arg-type]
                times[mode].append(time.perf_counter() - t)
                summaries[mode] = json.dumps(summary(results, a.p1, a.p2), sort_keys=True)

    print(f"{a.games} games {a.p1} vs {a.p2}, seed {a.seed}, median of {a.repeats}:")
    base = statistics.median(times["--jobs 1"])
    for mode, ts in times.items():
        m = statistics.median(ts)
        print(f"  {mode:32s} {m:8.2f} s   {base / m:5.2f}x one process   ({', '.join(f'{t:.2f}' for t in ts)})")
    same = len(set(summaries.values())) == 1
    print("  same summary in every mode:", "yes" if same else "NO")
    return 0 if same else 1


if __name__ == "__main__":
    sys.exit(main())
