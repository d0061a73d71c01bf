"""G2 to many footprints from one base (M9, E2; issue 24): footprints_seen answers exactly what
`visible` answers per footprint."""

import numpy as np
import shapely
from hypothesis import given, settings
from hypothesis import strategies as st

from game.geometry import BaseIndex, Circle, TerrainIndex, TerrainPiece
from game.geometry.shapes import polygon_at
from game.geometry.sight_footprints import footprints_seen
from game.geometry.visibility import visible

from ._boards import board

#: a long oval footprint as the content's serpents have (a polygon around its centre)
OVAL = [(3.0 * np.cos(a), 1.0 * np.sin(a)) for a in np.linspace(0, 2 * np.pi, 20, endpoint=False)]


def _setup(seed: int, n_terrain: int, n_models: int, concave: bool, polygons: bool):
    """A random board, an eye among its bases, and footprints round it: some overlapping
    obscuring terrain (a centre in a piece is seen through it), some behind blocking bases."""
    terrain, models = board(seed, n_terrain=n_terrain, n_models=n_models)
    rng = np.random.default_rng(seed + 7)
    if concave:  # an L-shaped (non-convex) obscuring piece: the shapely path
        x, y = rng.uniform(4, 26), rng.uniform(4, 16)
        ell = shapely.Polygon([(x, y), (x + 4, y), (x + 4, y + 1), (x + 1, y + 1), (x + 1, y + 4), (x, y + 4)])
        terrain = TerrainIndex([*terrain.pieces, TerrainPiece("L", ell, frozenset({"obscuring"}))])
    eye = Circle(models[0].x, models[0].y, float(rng.choice([0.5, 0.63, 1.0])))
    walls = BaseIndex(models[1:])
    feet: list = []
    for _ in range(int(rng.integers(1, 40))):
        cx, cy = float(rng.uniform(0, 30)), float(rng.uniform(0, 20))
        if terrain.pieces and rng.random() < 0.2:  # a centre inside a piece
            c = terrain.pieces[int(rng.integers(0, len(terrain.pieces)))].polygon.representative_point()
            cx, cy = float(c.x), float(c.y)
        if polygons and rng.random() < 0.3:
            feet.append(polygon_at(OVAL, cx, cy))
        else:
            feet.append(Circle(cx, cy, float(rng.choice([0.79, 0.98, 1.18, 1.57]))))
    return terrain, eye, feet, walls


@settings(max_examples=150, deadline=None)
@given(
    seed=st.integers(0, 10**6),
    n_terrain=st.integers(0, 12),
    n_models=st.integers(2, 60),
    concave=st.booleans(),
    polygons=st.booleans(),
)
def test_g2_footprints_seen_equals_visible_per_footprint(seed, n_terrain, n_models, concave, polygons):
    terrain, eye, feet, walls = _setup(seed, n_terrain, n_models, concave, polygons)
    want = [visible(eye, f, terrain, walls).visible for f in feet]
    assert footprints_seen(eye, feet, terrain, walls).tolist() == want


def test_g2_footprints_seen_exercises_both_answers_and_terrain_centres():
    """The boards give seen and hidden footprints, including hidden behind bases only, and
    footprints whose centre is inside an obscuring piece (seen through it, G2)."""
    answers: list[bool] = []
    inside = 0
    for seed in range(30):
        terrain, eye, feet, walls = _setup(seed, 10, 40, seed % 2 == 0, True)
        got = footprints_seen(eye, feet, terrain, walls).tolist()
        assert got == [visible(eye, f, terrain, walls).visible for f in feet], seed
        answers += got
        for f in feet:
            c = f.centre if isinstance(f, Circle) else (f.centroid.x, f.centroid.y)
            inside += bool(terrain.containing_ids(c, "obscuring"))
    assert any(answers) and not all(answers)
    assert inside > 0
    # bases alone hide some footprints that the open board shows
    terrain, eye, feet, walls = _setup(3, 0, 60, False, False)
    assert footprints_seen(eye, feet, terrain, walls).tolist() != footprints_seen(eye, feet, terrain, ()).tolist()


def test_g2_footprints_seen_of_nothing():
    terrain, models = board(1)
    assert footprints_seen(models[0], [], terrain, BaseIndex(models[1:])).tolist() == []
    assert footprints_seen(models[0], [Circle(5.0, 5.0, 1.0)], TerrainIndex(), ()).tolist() == [True]
