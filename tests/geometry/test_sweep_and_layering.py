"""G4 exact swept-circle solver (vectorised vs scalar) and the layering rule."""

import math
import subprocess
import sys

import numpy as np
import shapely
from hypothesis import given, settings
from hypothesis import strategies as st

from game.geometry.sweep import circle_toi, circle_toi1, edge_toi, first_contact, polygon_edges, segment_toi1

f = st.floats(-20, 20, allow_nan=False)


@settings(deadline=None, max_examples=150)
@given(f, f, f, f, st.lists(st.tuples(f, f, f, f), min_size=1, max_size=6), st.floats(0.1, 2))
def test_g4_sweep_vectorised_matches_scalar(sx, sy, ex, ey, edges, r):
    dx, dy = ex - sx, ey - sy
    segs = np.array([[[a, b], [c, d]] for a, b, c, d in edges], dtype=float)
    vec = edge_toi(sx, sy, dx, dy, r, segs)
    for k, (a, b, c, d) in enumerate(edges):
        sc = segment_toi1(sx, sy, dx, dy, r, a, b, c, d)
        assert (math.isinf(sc) and math.isinf(vec[k])) or abs(sc - vec[k]) < 1e-9
    cx = segs[:, 0, 0]
    cy = segs[:, 0, 1]
    R = np.full(len(cx), r + 0.5)
    vc = circle_toi(sx, sy, dx, dy, cx, cy, R)
    for k in range(len(cx)):
        sc = circle_toi1(sx, sy, dx, dy, cx[k], cy[k], r + 0.5)
        assert (math.isinf(sc) and math.isinf(vc[k])) or abs(sc - vc[k]) < 1e-9


@settings(deadline=None, max_examples=100)
@given(f, f, f, f, st.floats(0.1, 2))
def test_g4_first_contact_is_touching_and_path_before_is_clear(sx, sy, ex, ey, r):
    poly = shapely.box(-3, -3, 3, 3)
    if poly.distance(shapely.Point(sx, sy)) < r + 1e-6:
        return
    edges, _ = polygon_edges([poly])
    c = first_contact((sx, sy), (ex, ey), r, bx=np.empty(0), by=np.empty(0), br=np.empty(0),
                      edges=edges, width=None, height=None)
    path = shapely.LineString([(sx, sy), (ex, ey)])
    if math.isinf(c.t):
        assert poly.distance(path) >= r - 1e-7
    else:
        p = (sx + c.t * (ex - sx), sy + c.t * (ey - sy))
        assert abs(poly.distance(shapely.Point(p)) - r) < 1e-7
        if c.t > 0:
            assert poly.distance(shapely.LineString([(sx, sy), p])) >= r - 1e-7


def test_geometry_never_imports_pymunk_or_pygame():
    code = (
        "import sys; sys.modules['pymunk'] = None; sys.modules['pygame'] = None\n"
        "import game.geometry, game.geometry.sweep, game.geometry.path\n"
        "assert 'game.rules' not in sys.modules and 'game.data' not in sys.modules\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True, timeout=120)


def test_g4_sweep_move_conventions_without_pymunk():
    """The rules' path check (`game.geometry.path.sweep_move`): touching allowed, grazing clear,
    overlapped-at-start ignored, enemy bases and impassable terrain block unless flying,
    passable (friendly) bases crossed, the battlefield edge stops the base before it."""
    from game.geometry.path import sweep_move
    from game.geometry.shapes import Circle

    R, W, H = 0.63, 60.0, 44.0
    wall = shapely.box(30, 5, 32, 20)

    def mv(s, e, bases=(), walls=(), **kw):
        return sweep_move(s, e, R, bases=list(bases), impassable=list(walls), width=W, height=H, **kw)

    b = Circle(10, 5, R)
    assert mv((2, 5), (10 - 2 * R, 5), [b]).end == (10 - 2 * R, 5.0)  # ends touching: clear
    r = mv((2, 5), (20, 5), [b])
    assert r.blocked and r.touched == ("base:0",) and 0 <= math.hypot(r.end[0] - 10, r.end[1] - 5) - 2 * R < 1e-5
    assert not mv((2, 5), (20, 5), [Circle(10, 5 + 2 * R, R)]).blocked  # grazes exactly
    assert not mv((2, 5), (20, 5), [Circle(10, 5 + 2 * R - 5e-10, R)]).blocked  # within TOL (1e-9") of grazing
    assert mv((2, 5), (20, 5), [Circle(10, 5 + 2 * R - 1e-6, R)]).blocked  # 1e-6" into it
    assert not mv((10.5, 5), (20, 5), [b]).blocked  # overlapped at the start: ignored
    assert not mv((2, 5), (20, 5), [b], passable={0}).blocked  # a friendly base is crossed
    assert not mv((2, 5), (20, 5), [b], fly=True).blocked
    r = mv((20, 12), (40, 12), walls=[wall], impassable_names=["Basalt Spire"])
    assert r.touched == ("terrain:Basalt Spire",) and 30 - R - 1e-5 < r.end[0] <= 30 - R
    assert not mv((20, 12), (40, 12), walls=[wall], fly=True).blocked
    r = mv((50, 10), (70, 10), fly=True)
    assert r.touched == ("edge",) and W - R - 1e-5 < r.end[0] < W - R
