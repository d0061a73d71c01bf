"""G2 for many (observer, unit) pairs at once: `any_visible` per pair, in single numpy passes
(issue 24).

`visible_many(observers, targets_per_pair, terrain, blockers_per_pair)[p]` is exactly
``any_visible(observers[p], targets_per_pair[p], terrain, blockers_per_pair[p])``. It takes the
same tiers per (pair, target base) row - touching bases, the centre-to-centre line, the wall
proof, then the sampled candidate lines - but each tier is one pass over every row still
open, not one small pass per row. Why that is the same answer: every test is element-wise
(a distance per (line, base), a Cyrus-Beck clip per (line, piece), the same formulas in the
same order as `visible` and `any_visible`), and each row only counts the terrain pieces and
bases its own broad phase kept, exactly as `visible` restricts its own test; a pair is seen
when one of its rows is, whichever tier settles it. The centre line and the wall proof use
the scalar clip's rules (`terrain.clip1`: a parallel plane excludes when ``num <= 0``), the
sampled lines the matrix clip's (`TerrainIndex.blocked_matrix`), as `visible` does.

Only the yes/no: no line, no blocker names (ask `visible` for those).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import shapely

from .measure import TOL
from .nearby import BaseIndex
from .shapes import Circle, Shape
from .terrain import TerrainIndex
from .visibility import _blocker_arrays, _lin, circle_arcs, enter_bases, outer_tangents, visible

__all__ = ["SharedBlockers", "visible_many"]


@dataclass(frozen=True)
class SharedBlockers:
    """Blocking bases for many pairs at once: one set of bases ``(x, y, r)`` and, per pair,
    which of them block it (``keep[p, m]``; G2: not the observer's or the target's unit)."""

    x: np.ndarray
    y: np.ndarray
    r: np.ndarray
    keep: np.ndarray  # (pairs, bases) bool


def shared_blockers(blockers_per_pair: Sequence) -> SharedBlockers:
    """One `SharedBlockers` from a blocker set per pair (BaseIndex or circles), each distinct
    set stored once."""
    cols: dict[int, tuple[int, int]] = {}
    xs: list[np.ndarray] = []
    ys: list[np.ndarray] = []
    rs: list[np.ndarray] = []
    n = 0
    for b in blockers_per_pair:
        if id(b) not in cols:
            x, y, r = _blocker_arrays(b) if len(b) else (np.empty(0), np.empty(0), np.empty(0))
            cols[id(b)] = (n, n + len(x))
            xs.append(x)
            ys.append(y)
            rs.append(r)
            n += len(x)
    keep = np.zeros((len(blockers_per_pair), n), dtype=bool)
    for p, b in enumerate(blockers_per_pair):
        a, e = cols[id(b)]
        keep[p, a:e] = True
    cat = lambda v: np.concatenate(v) if v else np.empty(0)  # noqa: E731
    return SharedBlockers(cat(xs), cat(ys), cat(rs), keep)


def visible_many(
    observers: Sequence[Circle],
    targets_per_pair: Sequence[Sequence[Shape]],
    terrain: TerrainIndex,
    blockers_per_pair: SharedBlockers | Sequence,
    *,
    samples: int = 8,
) -> np.ndarray:
    """G2 per pair: can ``observers[p]`` see at least one of ``targets_per_pair[p]``, past the
    blocking bases ``blockers_per_pair[p]``? ``any_visible``'s answer, for every pair at once."""
    n_pairs = len(observers)
    seen = np.zeros(n_pairs, dtype=bool)
    if not n_pairs:
        return seen
    sb = blockers_per_pair if isinstance(blockers_per_pair, SharedBlockers) else shared_blockers(blockers_per_pair)
    # one row per (pair, round target base); polygon footprints are asked of `visible` at the end
    ro: list[int] = []
    rows_t: list[Circle] = []
    polys: list[tuple[int, Shape]] = []
    for p, targets in enumerate(targets_per_pair):
        for t in targets:
            if isinstance(t, Circle):
                ro.append(p)
                rows_t.append(t)
            else:
                polys.append((p, t))
    if rows_t:
        _rows(observers, ro, rows_t, terrain, sb, samples, seen)
    for p, t in polys:
        if not seen[p]:
            walls = BaseIndex.from_arrays(sb.x[sb.keep[p]], sb.y[sb.keep[p]], sb.r[sb.keep[p]])
            seen[p] = visible(observers[p], t, terrain, walls, samples=samples).visible
    return seen


def _rows(
    observers: Sequence[Circle],
    ro_l: list[int],
    rows_t: list[Circle],
    terrain: TerrainIndex,
    sb: SharedBlockers,
    samples: int,
    seen: np.ndarray,
) -> None:
    """The round target bases' tiers, each one pass over the rows still open; marks `seen`."""
    ro = np.array(ro_l, dtype=np.intp)
    eyes = [observers[p] for p in ro_l]
    ox = np.array([e.x for e in eyes])
    oy = np.array([e.y for e in eyes])
    r1 = np.array([e.r for e in eyes])
    tx = np.array([t.x for t in rows_t])
    ty = np.array([t.y for t in rows_t])
    r2 = np.array([t.r for t in rows_t])
    # touching bases (as `visible`: math.hypot, not numpy's, for the same last bit)
    touch = np.array([math.hypot(t.x - e.x, t.y - e.y) - e.r - t.r <= TOL for e, t in zip(eyes, rows_t)])
    seen[ro[touch]] = True
    reach = np.maximum(r1, r2)

    # broad phase, terrain: `obscuring_near_segment` per row, minus the pieces either centre
    # stands in (`containing_ids`); near[row, j] for obscuring piece j of the trait tree
    tt = terrain._trees["obscuring"]
    n_t = len(tt.piece_ids)
    near = np.zeros((len(ro), n_t), dtype=bool)
    if n_t:
        dx, dy = tx - ox, ty - oy
        ll = dx * dx + dy * dy
        ll = np.where(ll == 0.0, 1.0, ll)
        px = tt.bcx[None, :] - ox[:, None]
        py = tt.bcy[None, :] - oy[:, None]
        t = (px * dx[:, None] + py * dy[:, None]) / ll[:, None]
        np.clip(t, 0.0, 1.0, out=t)
        ex = px - t * dx[:, None]
        ey = py - t * dy[:, None]
        lim = tt.bcr[None, :] + (reach + TOL)[:, None]
        near = ex * ex + ey * ey <= lim * lim
        ri, kj = np.nonzero(near)
        if len(ri):
            inside = shapely.intersects_xy(tt.geoms[kj], ox[ri], oy[ri]) | shapely.intersects_xy(
                tt.geoms[kj], tx[ri], ty[ri]
            )
            near[ri[inside], kj[inside]] = False

    # broad phase, bases: each base's distance to each row's centre line (`any_visible`'s sums),
    # for the bases in the pair's box (the box around its centre lines, grown by the farthest a
    # base can reach from them, so no base the test would keep is left out)
    n_b = len(sb.x)
    bnear = np.zeros((len(ro), n_b), dtype=bool)
    cc_blocked = np.zeros(len(ro), dtype=bool)
    if n_b:
        n_p = len(sb.keep)
        grow = np.zeros(n_p)
        np.maximum.at(grow, ro, reach)
        grow += float(sb.r.max()) + BOX_SLACK
        lo_x, hi_x = np.full(n_p, np.inf), np.full(n_p, -np.inf)
        lo_y, hi_y = np.full(n_p, np.inf), np.full(n_p, -np.inf)
        for v, lo, hi in ((ox, lo_x, hi_x), (tx, lo_x, hi_x), (oy, lo_y, hi_y), (ty, lo_y, hi_y)):
            np.minimum.at(lo, ro, v)
            np.maximum.at(hi, ro, v)
        inbox = (
            (sb.x[None, :] >= (lo_x - grow)[:, None])
            & (sb.x[None, :] <= (hi_x + grow)[:, None])
            & (sb.y[None, :] >= (lo_y - grow)[:, None])
            & (sb.y[None, :] <= (hi_y + grow)[:, None])
            & sb.keep
        )
        ri, bj = np.nonzero(inbox[ro])
        for c in _chunks(len(ri), CHUNK):
            i, j = ri[c], bj[c]
            ddx, ddy = tx[i] - ox[i], ty[i] - oy[i]
            bpx, bpy = sb.x[j] - ox[i], sb.y[j] - oy[i]
            with np.errstate(divide="ignore", invalid="ignore"):  # a shared centre: touching, row unused
                tb = (bpx * ddx + bpy * ddy) / (ddx * ddx + ddy * ddy)
            np.clip(tb, 0.0, 1.0, out=tb)
            bex = bpx - tb * ddx
            bey = bpy - tb * ddy
            d2 = bex * bex + bey * bey
            blim = sb.r[j] + reach[i]
            bn = d2 < blim * blim
            bnear[i[bn], j[bn]] = True
            inner = np.maximum(sb.r[j] - TOL, 0.0)
            cc_blocked[i[bn & (d2 < inner * inner)]] = True

    # tier 0: the centre-to-centre line against the row's pieces (`segment_enters`)
    ri, kj = np.nonzero(near & ~seen[ro][:, None] & ~cc_blocked[:, None])
    cc_t = np.zeros(len(ro), dtype=bool)
    if len(ri):
        hit = _enter_strict(terrain, tt, kj, ox[ri], oy[ri], tx[ri], ty[ri])
        cc_t[ri[hit]] = True
    clear = ~cc_blocked & ~cc_t & ~touch
    seen[ro[clear]] = True

    # wall proof: one convex piece separating the bases blocks every line of the row (`_wall`)
    open_ = ~seen[ro] & ~clear & ~touch
    walled = np.zeros(len(ro), dtype=bool)
    wr = np.flatnonzero(open_ & near.any(axis=1))
    if len(wr):
        walled[wr] = _walled(terrain, tt, wr, near, ox, oy, r1, tx, ty, r2)
    # the sampled candidate lines of every row still open, in one pass
    open_ &= ~walled
    open_ &= ~seen[ro]
    rows = np.flatnonzero(open_)
    if len(rows):
        vis = _sampled(terrain, tt, sb, rows, near, bnear, ox, oy, r1, tx, ty, r2, samples)
        seen[ro[rows[vis]]] = True


def _enter_strict(terrain: TerrainIndex, tt, kj: np.ndarray, ax, ay, bx, by) -> np.ndarray:
    """Per (segment, piece) pair: the segment enters obscuring piece ``kj`` (the trait tree's
    local index), by `TerrainIndex.segment_enters`' rules: `clip1` for a convex piece (a
    parallel plane excludes when ``num <= 0``), shapely's intersects-and-not-touches else
    (`_concave_enters`)."""
    out = np.zeros(len(kj), dtype=bool)
    conv = np.array([tt.planes[k] is not None for k in kj.tolist()], dtype=bool)
    ci = np.flatnonzero(conv)
    if len(ci):
        k = kj[ci]
        nx, ny, c = tt.N[k, :, 0], tt.N[k, :, 1], tt.C[k]
        a_x, a_y = ax[ci, None], ay[ci, None]
        dx, dy = bx[ci, None] - a_x, by[ci, None] - a_y
        num = (c - TOL) - (nx * a_x + ny * a_y)
        den = nx * dx + ny * dy
        par = den == 0.0
        ratio = num / np.where(par, 1.0, den)
        lo = np.maximum(np.where(den < 0.0, ratio, -np.inf).max(axis=1), 0.0)
        hi = np.minimum(np.where(den > 0.0, ratio, np.inf).min(axis=1), 1.0)
        out[ci] = (hi > lo) & ~(par & (num <= 0.0)).any(axis=1)
    oi = np.flatnonzero(~conv)
    if len(oi):
        segs = np.stack([np.column_stack([ax[oi], ay[oi]]), np.column_stack([bx[oi], by[oi]])], axis=1)
        for k in np.unique(kj[oi]).tolist():
            at = np.flatnonzero(kj[oi] == k)
            out[oi[at]] = _concave_enters(terrain, tt, k, segs[at])
    return out


def _concave_enters(terrain: TerrainIndex, tt, k: int, lines: np.ndarray) -> np.ndarray:
    """Per line ``(n, 2, 2)``: it enters non-convex obscuring piece ``k`` (the trait tree's
    index): `TerrainIndex.concave_enters`, the sure answers first and shapely for the rest, a
    chunk of lines at a time."""
    per = CHUNK // tt.concave[k][0][0].size
    return np.concatenate([terrain.concave_enters(k, lines[c]) for c in _chunks(len(lines), per)])


def _walled(terrain: TerrainIndex, tt, wr: np.ndarray, near: np.ndarray, ox, oy, r1, tx, ty, r2) -> np.ndarray:
    """Per row of ``wr``: some convex piece of its broad phase separates the two bases
    (`visibility._wall` via `TerrainIndex.separates`: clear of both discs by the half-plane
    bound, entered by both outer tangents)."""
    pr: list[int] = []  # (row position, piece) pairs to test, two tangent segments each
    pk: list[int] = []
    seg: list[list] = []
    convex = np.array([h is not None for h in tt.planes], dtype=bool)
    wi, wk = np.nonzero(near[wr] & convex[None, :])
    tans: dict[int, list | None] = {}
    for w, k in zip(wi.tolist(), wk.tolist()):
        if w not in tans:
            i = int(wr[w])
            tans[w] = outer_tangents(float(ox[i]), float(oy[i]), float(r1[i]), float(tx[i]), float(ty[i]), float(r2[i]))
        tan = tans[w]
        if tan is not None:
            pr.append(w)
            pk.append(k)
            seg.append(tan)
    out = np.zeros(len(wr), dtype=bool)
    if not pr:
        return out
    w_ = np.array(pr, dtype=np.intp)
    k_ = np.array(pk, dtype=np.intp)
    rows = wr[w_]
    nx, ny, c = tt.N[k_, :, 0], tt.N[k_, :, 1], tt.C[k_]
    # clear of both discs: max over planes of (n . centre - c) > r + TOL (`separates`)
    clear_o = (nx * ox[rows, None] + ny * oy[rows, None] - c).max(axis=1) > r1[rows] + TOL
    clear_t = (nx * tx[rows, None] + ny * ty[rows, None] - c).max(axis=1) > r2[rows] + TOL
    s = np.array(seg, dtype=float)  # (pairs, 2 tangents, 2 ends, 2)
    both = np.ones(len(pr), dtype=bool)
    for j in (0, 1):
        both &= _enter_strict(terrain, tt, k_, s[:, j, 0, 0], s[:, j, 0, 1], s[:, j, 1, 0], s[:, j, 1, 1])
    hit = clear_o & clear_t & both
    out[np.unique(w_[hit])] = True
    return out


def _sampled(terrain, tt, sb, rows, near, bnear, ox, oy, r1, tx, ty, r2, samples) -> np.ndarray:
    """Per row of ``rows``: some candidate line (`candidate_segments` for 3, then ``samples``
    points per arc) enters none of the row's pieces nor bases. One array of lines for all
    rows; a line is blocked when ONE test says so, so the tests run cheapest first, each on
    the lines still free: the convex pieces (`blocked_matrix`, once per piece over the rows
    that kept it), the bases (one pass over (free line, base of its row) pairs,
    `enter_bases`), then the other pieces: their sure answers (`terrain.concave_parts`), and
    shapely, as `blocked_matrix` asks it, for the lines still undecided."""
    arcs = [
        circle_arcs(float(ox[i]), float(oy[i]), float(r1[i]), float(tx[i]), float(ty[i]), float(r2[i]))
        for i in rows.tolist()
    ]
    ks = (3, samples) if samples > 3 else (samples,)
    segs = _circle_segments(rows, arcs, ox, oy, r1, tx, ty, r2, ks)
    n_r, n_s = segs.shape[0], segs.shape[1]
    blocked = np.zeros((n_r, n_s), dtype=bool)
    sub = near[rows]
    used = np.flatnonzero(sub.any(axis=0)).tolist()
    for k in used:
        if tt.planes[k] is not None:
            which = np.flatnonzero(sub[:, k])
            lines = segs[which].reshape(-1, 2, 2)
            hit = np.concatenate(
                [terrain.blocked_matrix(lines[c], [tt.piece_ids[k]])[:, 0] for c in _chunks(len(lines), CHUNK // 8)]
            )
            blocked[which] |= hit.reshape(len(which), n_s)
    if bnear.shape[1]:
        _bases_block(segs, blocked, bnear[rows], sb)
    for k in (k for k in used if tt.planes[k] is None):
        fr, fs = np.nonzero(~blocked & sub[:, k][:, None])
        if len(fr):
            hit = _concave_enters(terrain, tt, k, segs[fr, fs])
            blocked[fr[hit], fs[hit]] = True
    return np.asarray((~blocked).any(axis=1))


def _bases_block(segs: np.ndarray, blocked: np.ndarray, bnear: np.ndarray, sb: SharedBlockers) -> None:
    """Marks in ``blocked`` the free lines that enter a base their row kept (``bnear``).

    In rounds: round r tests each row's r-th base, nearest its centre line first, on the
    row's lines still free, so the bases that block the most lines take them out early and
    later rounds test few lines. The order changes no answer (a line is blocked when one
    base blocks it), only the work."""
    pi, bj = np.nonzero(bnear)
    if not len(pi):
        return
    cc = segs[pi, 0]  # each row's centre line
    ax, ay = cc[:, 0, 0], cc[:, 0, 1]
    dx, dy = cc[:, 1, 0] - ax, cc[:, 1, 1] - ay
    px, py = sb.x[bj] - ax, sb.y[bj] - ay
    with np.errstate(divide="ignore", invalid="ignore"):
        t = np.clip((px * dx + py * dy) / (dx * dx + dy * dy), 0.0, 1.0)
    order = np.lexsort((np.hypot(px - t * dx, py - t * dy) - sb.r[bj], pi))
    pi, bj = pi[order], bj[order]
    count = np.bincount(pi, minlength=len(bnear))
    rank = np.arange(len(pi)) - (np.cumsum(count) - count)[pi]
    n_s = segs.shape[1]
    flat = segs.reshape(-1, 4)  # ax, ay, bx, by per line
    mark = blocked.reshape(-1)
    for r in range(int(count.max())):
        sel = rank == r
        rows_r, b_r = pi[sel], bj[sel]
        li, ls = np.nonzero(~blocked[rows_r])
        if not len(li):
            continue
        at = rows_r[li] * n_s + ls
        b = b_r[li]
        for c in _chunks(len(at), CHUNK):
            ac, bc = at[c], b[c]
            hit = enter_bases(flat[ac, 0], flat[ac, 1], flat[ac, 2], flat[ac, 3], sb.x[bc], sb.y[bc], sb.r[bc])
            mark[ac[hit]] = True


#: Inches of slack on the box of bases a pair's broad phase looks at: far more than rounding.
BOX_SLACK = 1e-6

#: Elements per numpy pass: past some 6,000 float64 elements per temporary, a pass of element-wise
#: sums gets several times slower per element here (the temporaries leave the fast caches), so
#: the big passes go in slices of this size; slicing changes no element.
CHUNK = 4096


def _chunks(n: int, per: int) -> list[slice]:
    """Slices covering ``range(n)``, ``per`` at a time (at least one)."""
    per = max(1, per)
    return [slice(a, min(a + per, n)) for a in range(0, n, per)] or [slice(0, 0)]


def _circle_segments(rows: np.ndarray, arcs: list, ox, oy, r1, tx, ty, r2, ks: tuple[int, ...]) -> np.ndarray:
    """`candidate_segments(observer, target, k)` for each k of ``ks``, for each round row of
    ``rows``, side by side ``(rows, lines, 2, 2)``: the scalar angles per row (``arcs``,
    `circle_arcs`), the arcs' points for every row in one pass of the same element-wise sums,
    then every line's ends picked from them in one gather (`_layout`)."""
    n_r = len(rows)
    theta = np.array([a[0] for a in arcs])
    phi = np.array([a[1] for a in arcs])
    if any(len(a[2]) != 2 for a in arcs):  # not apart: cannot happen past the touching tier (gap > TOL)
        raise AssertionError("open row without inner tangents")
    lin = np.concatenate([_lin(k) for k in ks])  # the observer's arcs, then the target's
    ang = np.concatenate(
        [theta[:, None] + phi[:, None] * lin, (theta + math.pi)[:, None] + (math.pi - phi)[:, None] * lin], axis=1
    )
    cs, sn = np.cos(ang), np.sin(ang)
    m = len(lin)
    o_x, o_y, o_r = ox[rows, None], oy[rows, None], r1[rows, None]
    t_x, t_y, t_r = tx[rows, None], ty[rows, None], r2[rows, None]
    src = np.concatenate(
        [
            o_x,
            o_y,
            t_x,
            t_y,
            np.array([a[2] for a in arcs], dtype=float).reshape(n_r, 8),
            o_x + o_r * cs[:, :m],
            o_y + o_r * sn[:, :m],
            t_x + t_r * cs[:, m:],
            t_y + t_r * sn[:, m:],
        ],
        axis=1,
    )
    idx = _layout(ks)
    return src[:, idx].reshape(n_r, len(idx) // 4, 2, 2)


_LAYOUTS: dict[tuple[int, ...], np.ndarray] = {}


def _layout(ks: tuple[int, ...]) -> np.ndarray:
    """Where each coordinate of `_circle_segments`' lines comes from in its per-row source
    columns: 0-3 the observer's and the target's centres (x, y, x, y), 4-11 the two inner
    tangents (as `circle_arcs` gives them), then the observer's arc points' x, their y, the
    target's x, their y, for every k of ``ks`` in turn. The rows per k as `candidate_segments`:
    centre-centre; the inner tangents; every (observer point, target point); observer centre
    to each target point; each observer point to the target centre."""
    found = _LAYOUTS.get(ks)
    if found is None:
        m = sum(ks)
        pax, pay, pbx, pby = 12, 12 + m, 12 + 2 * m, 12 + 3 * m
        out: list[tuple[int, int, int, int]] = []
        off = 0
        for k in ks:
            out.append((0, 1, 2, 3))
            out += [(4, 5, 6, 7), (8, 9, 10, 11)]
            out += [(pax + off + i, pay + off + i, pbx + off + j, pby + off + j) for i in range(k) for j in range(k)]
            out += [(0, 1, pbx + off + j, pby + off + j) for j in range(k)]
            out += [(pax + off + i, pay + off + i, 2, 3) for i in range(k)]
            off += k
        found = _LAYOUTS[ks] = np.array(out, dtype=np.intp).reshape(-1)
    return found
