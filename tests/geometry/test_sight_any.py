"""G2 for a whole unit (issue 24): any_visible answers exactly what visible() answers per base."""

import numpy as np

from game.geometry import BaseIndex, Circle, visible
from game.geometry.sight_any import any_visible

from ._boards import board


def test_g2_any_visible_matches_visible_per_base_on_random_boards():
    mixed = 0
    for seed in range(300):
        terrain, models = board(seed, n_terrain=10, n_models=30)
        rng = np.random.default_rng(seed)
        eye = models[0]
        # a "unit": a clump of bases around one point, the rest block
        cx, cy = models[1].x, models[1].y
        unit = [
            Circle(cx + float(dx), cy + float(dy), 0.63)
            for dx, dy in rng.uniform(-2.5, 2.5, (int(rng.integers(1, 11)), 2))
        ]
        walls = BaseIndex(models[2:])
        per = [visible(eye, t, terrain, walls).visible for t in unit]
        assert any_visible(eye, unit, terrain, walls) == any(per), seed
        for t in unit:  # and base by base
            assert any_visible(eye, [t], terrain, walls) == visible(eye, t, terrain, walls).visible, seed
        mixed += any(per) and not all(per)
    assert mixed > 10  # the boards exercise partly hidden units, not only all-or-nothing ones


def test_g2_any_visible_of_nothing_is_false():
    terrain, models = board(1)
    assert any_visible(models[0], [], terrain, BaseIndex(models[1:])) is False
