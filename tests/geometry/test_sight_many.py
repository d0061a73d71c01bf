"""G2 for many pairs (issue 24): visible_many answers exactly what any_visible answers per pair."""

import numpy as np
import shapely
from hypothesis import given, settings
from hypothesis import strategies as st

from game.geometry import BaseIndex, Circle, TerrainIndex, TerrainPiece
from game.geometry.sight_any import any_visible
from game.geometry.sight_many import SharedBlockers, visible_many
from game.geometry.visibility import candidate_segments

from ._boards import board


def _pairs(seed: int, n_terrain: int, n_models: int, concave: bool = False):
    """A random board, then several (eye, unit, blockers) pairs on it: units are clumps of bases."""
    terrain, models = board(seed, n_terrain=n_terrain, n_models=n_models)
    rng = np.random.default_rng(seed + 10_000)
    if concave:  # an L-shaped (non-convex) obscuring piece too: the shapely path
        x, y = rng.uniform(4, 26), rng.uniform(4, 16)
        ell = shapely.Polygon([(x, y), (x + 4, y), (x + 4, y + 1), (x + 1, y + 1), (x + 1, y + 4), (x, y + 4)])
        terrain = TerrainIndex([*terrain.pieces, TerrainPiece("L", ell, frozenset({"obscuring"}))])
    eyes, units, walls = [], [], []
    for _ in range(int(rng.integers(1, 8))):
        eye = models[int(rng.integers(0, len(models)))]
        cx, cy = rng.uniform(1, 29), rng.uniform(1, 19)
        unit = [
            Circle(float(cx + dx), float(cy + dy), float(rng.choice([0.5, 0.63, 1.25])))
            for dx, dy in rng.uniform(-2.5, 2.5, (int(rng.integers(1, 8)), 2))
        ]
        eyes.append(Circle(eye.x, eye.y, float(rng.choice([0.5, 0.63, 1.0]))))
        units.append(unit)
        walls.append(BaseIndex([m for m in models if m is not eye]))
    return terrain, eyes, units, walls


@settings(max_examples=150, deadline=None)
@given(seed=st.integers(0, 10**6), n_terrain=st.integers(0, 12), n_models=st.integers(2, 40), concave=st.booleans())
def test_g2_visible_many_equals_any_visible_per_pair(seed, n_terrain, n_models, concave):
    terrain, eyes, units, walls = _pairs(seed, n_terrain, n_models, concave)
    want = [any_visible(e, u, terrain, w) for e, u, w in zip(eyes, units, walls)]
    assert visible_many(eyes, units, terrain, walls).tolist() == want


def test_g2_visible_many_mixes_seen_and_hidden_pairs():
    """The boards exercise both answers, and a pair's own blockers only (SharedBlockers masks)."""
    answers = []
    for seed in range(40):
        terrain, eyes, units, walls = _pairs(seed, 10, 30)
        x, y, r = walls[0].arrays()
        keep = np.ones((len(eyes), len(x)), dtype=bool)
        keep[::2, ::3] = False  # even pairs ignore every third base
        sb = SharedBlockers(x, y, r, keep)
        for p, (e, u) in enumerate(zip(eyes, units)):
            own = BaseIndex(
                [Circle(float(a), float(b), float(c)) for a, b, c in zip(x[keep[p]], y[keep[p]], r[keep[p]])]
            )
            answers.append(any_visible(e, u, terrain, own))
        got = visible_many(eyes, units, terrain, sb).tolist()
        assert got == answers[-len(eyes) :], seed
    assert any(answers) and not all(answers)


def test_g2_visible_many_of_nothing():
    terrain, models = board(1)
    assert visible_many([], [], terrain, []).tolist() == []
    assert visible_many([models[0]], [[]], terrain, [BaseIndex(models[1:])]).tolist() == [False]


def test_g2_visible_many_polygon_footprint_falls_back_to_visible():
    terrain, models = board(3, n_terrain=6, n_models=12)
    square = shapely.Polygon([(10, 10), (11, 10), (11, 11), (10, 11)])
    walls = BaseIndex(models[1:])
    want = any_visible(models[0], [square], terrain, walls)
    assert visible_many([models[0]], [[square]], terrain, [walls]).tolist() == [want]


def test_candidate_segments_unchanged_by_the_shared_arcs():
    """`candidate_segments` now takes its scalar angles from `circle_arcs`: rows as before."""
    a, b = Circle(0.0, 0.0, 0.63), Circle(7.0, 3.0, 1.25)
    segs = candidate_segments(a, b, 3)
    assert segs.shape == (1 + 2 + 9 + 3 + 3, 2, 2)
    assert np.allclose(segs[0], [[0.0, 0.0], [7.0, 3.0]])


def test_g2_stacked_candidate_lines_are_candidate_segments_bit_for_bit():
    """visible_many builds every open row's candidate lines in one pass: the very same numbers
    as `candidate_segments` per row (3 then 8 points per arc)."""
    from game.geometry.sight_many import _circle_segments
    from game.geometry.visibility import circle_arcs

    rng = np.random.default_rng(5)
    ox, oy, tx, ty = (rng.uniform(0, 30, 25) for _ in range(4))
    r1, r2 = rng.choice([0.5, 1.0], 25), rng.choice([0.63, 1.25], 25)
    apart = np.hypot(tx - ox, ty - oy) > r1 + r2 + 0.01
    rows = np.flatnonzero(apart)
    arcs = [
        circle_arcs(float(ox[i]), float(oy[i]), float(r1[i]), float(tx[i]), float(ty[i]), float(r2[i])) for i in rows
    ]
    got = _circle_segments(rows, arcs, ox, oy, r1, tx, ty, r2, (3, 8))
    for j, i in enumerate(rows):
        a, b = Circle(float(ox[i]), float(oy[i]), float(r1[i])), Circle(float(tx[i]), float(ty[i]), float(r2[i]))
        want = np.concatenate([candidate_segments(a, b, 3), candidate_segments(a, b, 8)])
        assert np.array_equal(got[j], want)
