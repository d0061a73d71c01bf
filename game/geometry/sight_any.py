"""G2 for a whole unit at once: does some line reach ANY of these bases? (issue 24)

`any_visible(eye, targets, terrain, blockers)` answers exactly
``any(visible(eye, t, terrain, blockers).visible for t in targets)``, but only the yes/no: no
line, no blocker names. It takes the same steps as :func:`game.geometry.visibility.visible`
per target (touching bases, the centre-to-centre line, the wall proof), and then tests the
candidate lines of every target still open in ONE vectorised pass instead of two passes per
target. Why that is the same answer: each (line, terrain piece) and (line, base) test is an
element-wise computation (Cyrus-Beck per pair, distance per pair), so batching the rows
changes no element; each target's row only counts the pieces and bases its own broad phase
kept (masks), exactly as `visible` restricts its own test.

A blocked unit of ten models costs `visible` twenty sampled passes; here it costs one, and
the open targets' candidate lines are built in one pass too (`_circle_segments`, the rows
`candidate_segments` gives per target, bit for bit).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

from .measure import TOL
from .shapes import Circle, Shape
from .sight_many import _circle_segments
from .terrain import TerrainIndex
from .visibility import _blocker_arrays, _reach, _wall, circle_arcs, segments_enter_bases, visible

__all__ = ["any_visible"]


def any_visible(
    observer: Circle,
    targets: Sequence[Shape],
    terrain: TerrainIndex,
    blockers=(),
    *,
    samples: int = 8,
) -> bool:
    """G2: can ``observer`` see at least one of ``targets``? Same answer as `visible` per target."""
    if not targets:
        return False
    has_walls = bool(len(blockers))
    x, y, r = _blocker_arrays(blockers) if has_walls else (np.empty(0), np.empty(0), np.empty(0))
    ox, oy = observer.x, observer.y
    eye_in: set[int] | None = None
    open_: list[tuple[Circle, list[int], np.ndarray]] = []  # targets left for the sampled lines
    # the bases' distances to every centre-to-centre line at once: the same element-wise sums
    # `visible` makes per target, one row per target
    circ = [t for t in targets if isinstance(t, Circle)]
    rows: dict[int, np.ndarray] = {}
    if has_walls and circ:
        ddx = np.array([t.x for t in circ]) - ox
        ddy = np.array([t.y for t in circ]) - oy
        px, py = x - ox, y - oy
        with np.errstate(divide="ignore", invalid="ignore"):  # a shared centre: touching, row unused
            tt = (px[None, :] * ddx[:, None] + py[None, :] * ddy[:, None]) / (ddx * ddx + ddy * ddy)[:, None]
        np.clip(tt, 0.0, 1.0, out=tt)
        ex = px[None, :] - tt * ddx[:, None]
        ey = py[None, :] - tt * ddy[:, None]
        d2m = ex * ex + ey * ey
        rows = {id(t): d2m[j] for j, t in enumerate(circ)}
    for target in targets:
        if not isinstance(target, Circle):
            if visible(observer, target, terrain, blockers, samples=samples).visible:
                return True
            continue
        tc = (target.x, target.y)
        gap = math.hypot(target.x - ox, target.y - oy) - observer.r - target.r
        if gap <= TOL:
            return True  # touching bases (as `visible`)
        reach, _box = _reach(observer, target, tc)
        near_t: list[int] = []
        if len(terrain):
            cand = terrain.obscuring_near_segment((ox, oy), tc, reach)
            if cand:
                if eye_in is None:
                    eye_in = set(terrain.containing_ids((ox, oy), "obscuring"))
                exclude = set(eye_in)
                exclude.update(terrain.containing_ids(tc, "obscuring"))
                near_t = [k for k in cand if k not in exclude]
        bidx = np.empty(0, dtype=np.intp)
        cc_blocked = False
        if has_walls:
            d2 = rows[id(target)]
            lim = r + reach
            bidx = np.flatnonzero(d2 < lim * lim)
            if len(bidx):
                inner = np.maximum(r[bidx] - TOL, 0.0)
                cc_blocked = bool((d2[bidx] < inner * inner).any())
        cc_seg = ((ox, oy), tc)
        if not cc_blocked and not any(terrain.segment_enters(cc_seg, k) for k in near_t):
            return True  # the centre-to-centre line is clear (as `visible`'s tier 0)
        if near_t and _wall(terrain, near_t, observer, target) is not None:
            continue  # one piece separates the bases: every line blocked (as `visible`)
        open_.append((target, near_t, bidx))
    if not open_:
        return False
    ks = (3, samples) if samples > 3 else (samples,)
    # every open target's candidate lines in one pass: `candidate_segments` per target and k,
    # bit for bit (`_circle_segments`, the same element-wise sums), in the same order
    n_open = len(open_)
    row = np.arange(n_open)
    tx = np.array([t.x for t, _n, _b in open_])
    ty = np.array([t.y for t, _n, _b in open_])
    tr = np.array([t.r for t, _n, _b in open_])
    ox_, oy_, or_ = np.full(n_open, ox), np.full(n_open, oy), np.full(n_open, observer.r)
    arcs = [circle_arcs(ox, oy, observer.r, t.x, t.y, t.r) for t, _n, _b in open_]
    stacked = _circle_segments(row, arcs, ox_, oy_, or_, tx, ty, tr, ks)
    segs = stacked.reshape(-1, 2, 2)
    owner = np.repeat(row, stacked.shape[1])
    blocked = np.zeros(len(segs), dtype=bool)
    pieces = sorted({k for _t, nt, _b in open_ for k in nt})
    if pieces:
        col = {k: c for c, k in enumerate(pieces)}
        allowed = np.zeros((len(open_), len(pieces)), dtype=bool)
        for j, (_t, nt, _b) in enumerate(open_):
            allowed[j, [col[k] for k in nt]] = True
        blocked |= (terrain.blocked_matrix(segs, pieces) & allowed[owner]).any(axis=1)
    bases = np.unique(np.concatenate([b for _t, _n, b in open_]))
    if len(bases) and has_walls:
        pos = {int(b): c for c, b in enumerate(bases.tolist())}
        allowed_b = np.zeros((len(open_), len(bases)), dtype=bool)
        for j, (_t, _n, bi) in enumerate(open_):
            allowed_b[j, [pos[int(b)] for b in bi.tolist()]] = True
        free = np.flatnonzero(~blocked)
        if len(free):
            hits = segments_enter_bases(segs[free], x[bases], y[bases], r[bases]) & allowed_b[owner[free]]
            blocked[free] |= hits.any(axis=1)
    return bool((~blocked).any())
