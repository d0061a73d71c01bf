"""Benchmark: the animated-GIF export of a rule demonstration (issue 24), Pillow's encoder.

    python bench/bench_gif.py [--demo e9_reach] [--repeats 3]

Renders one demonstration's frames at the export size (1280x760; rendering is not timed, it
is the same for any encoder), then times `game.ui.export.gif_bytes` on them: Pillow quantises
each frame to one adaptive palette and writes the GIF. Prints the median CPU time of the whole
encode over `--repeats` and the time per frame. Issue 24's figure for the hand-made GIF89a/LZW
writer that Pillow replaced was about 0.44 s a frame at this size.
"""

from __future__ import annotations

import argparse
import io
import statistics
import sys
import time
from pathlib import Path

# run as a script, Python would put bench/ first on the path and import an installed (possibly
# stale) copy of the game; the working tree is what we mean to measure
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from game.demos.loader import list_demos, load_demo  # noqa: E402
from game.demos.runner import run_demo  # noqa: E402
from game.ui.export import DEFAULT_SIZE, _pygame, gif_bytes, render_frames  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--demo", default=None, help="a demonstration's name (default: the first listed)")
    ap.add_argument("--repeats", type=int, default=3)
    a = ap.parse_args()
    name = a.demo or list_demos()[0]
    run = run_demo(load_demo(name))
    pg = _pygame()
    frames = [pg.surfarray.array3d(s).swapaxes(0, 1).copy() for _, s in render_frames(run, DEFAULT_SIZE)]
    times = []
    for _ in range(a.repeats):
        t = time.process_time()
        data = gif_bytes(frames)
        times.append(time.process_time() - t)
    from PIL import Image

    with Image.open(io.BytesIO(data)) as im:
        assert im.format == "GIF" and im.n_frames == len(frames)
    med = statistics.median(times)
    w, h = DEFAULT_SIZE
    print(f"demo {name}: {len(frames)} frames at {w}x{h}, {len(data) / 1024:.0f} KiB")
    print(f"Pillow encode: {med:.3f} s in all, {med / len(frames) * 1000:.1f} ms a frame (median of {a.repeats})")
    print(f"against the hand-made writer's 0.44 s a frame (issue 24): {0.44 / (med / len(frames)):.0f}x faster")


if __name__ == "__main__":
    main()
