"""Who is within X" of a shape: a numpy index over round bases (G1).

For fewer than about 1000 bases a flat numpy pass beats an STRtree (DESIGN.md), so
this is just three arrays and exact circle maths, fully vectorised.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from typing import overload

import numpy as np
import shapely

from .measure import TOL
from .shapes import Circle, Shape

__all__ = ["BaseIndex"]


class BaseIndex(Sequence[Circle]):
    """Centres and radii of N round bases in numpy arrays (read-only).

    Behaves as a ``Sequence[Circle]`` so it can be passed wherever bases are
    expected; functions that know it use :meth:`arrays` directly.
    """

    __slots__ = ("x", "y", "r", "_points", "_z", "_rmax")

    def __init__(self, bases: Iterable[Circle] = ()) -> None:
        bases = list(bases)
        n = len(bases)
        self.x = np.fromiter((b.x for b in bases), float, n)
        self.y = np.fromiter((b.y for b in bases), float, n)
        self.r = np.fromiter((b.r for b in bases), float, n)
        self._points: np.ndarray | None = None  # shapely points of the centres, made when first needed
        self._z: np.ndarray | None = None
        self._rmax: float | None = None

    @classmethod
    def from_arrays(cls, x, y, r) -> "BaseIndex":
        """Build from parallel arrays of centre x, centre y and radius (copied)."""
        self = cls.__new__(cls)
        self.x = np.array(x, dtype=float)
        self.y = np.array(y, dtype=float)
        self.r = np.array(r, dtype=float)
        self._points = None
        self._z = None
        self._rmax = None
        return self

    def arrays(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """``(x, y, r)`` arrays (do not mutate)."""
        return self.x, self.y, self.r

    def complex_centres(self) -> np.ndarray:
        """Centres as a complex array ``x + 1j*y`` (cached; do not mutate)."""
        if self._z is None:
            self._z = self.x + 1j * self.y
        return self._z

    def max_radius(self) -> float:
        """The largest radius (0 when empty), cached."""
        if self._rmax is None:
            self._rmax = float(self.r.max()) if len(self.r) else 0.0
        return self._rmax

    def near_segment(self, a: tuple[float, float], b: tuple[float, float], reach: float) -> np.ndarray:
        """Broad phase: indices of bases whose centre is within ``reach + max radius`` of the
        midpoint disc covering segment a-b (a superset of those within ``reach`` of it)."""
        z = self.complex_centres()
        mid = complex((a[0] + b[0]) * 0.5, (a[1] + b[1]) * 0.5)
        half = 0.5 * ((b[0] - a[0]) ** 2 + (b[1] - a[1]) ** 2) ** 0.5
        return np.flatnonzero(np.abs(z - mid) <= half + reach + self.max_radius())

    def __len__(self) -> int:
        return len(self.x)

    @overload
    def __getitem__(self, i: int) -> Circle: ...

    @overload
    def __getitem__(self, i: slice) -> list[Circle]: ...

    def __getitem__(self, i: int | slice) -> Circle | list[Circle]:
        if isinstance(i, slice):
            return [self[j] for j in range(*i.indices(len(self)))]
        return Circle(float(self.x[i]), float(self.y[i]), float(self.r[i]))

    def __iter__(self) -> Iterator[Circle]:
        for i in range(len(self.x)):
            yield Circle(float(self.x[i]), float(self.y[i]), float(self.r[i]))

    def distances(self, shape: Shape) -> np.ndarray:
        """G1 distance from ``shape`` to every base (0 when touching or overlapping)."""
        if isinstance(shape, Circle):
            d = np.hypot(self.x - shape.x, self.y - shape.y) - self.r - shape.r
        else:
            if self._points is None:
                self._points = shapely.points(np.column_stack([self.x, self.y]))
            d = shapely.distance(shape, self._points) - self.r
        return np.maximum(d, 0.0)

    def within(self, shape: Shape, x: float) -> np.ndarray:
        """G1: indices of bases whose distance to ``shape`` is at most ``x`` (``TOL`` slack)."""
        if isinstance(shape, Circle):
            d = np.abs(self.complex_centres() - complex(shape.x, shape.y))
            return np.flatnonzero(d <= self.r + (x + TOL + shape.r))
        return np.flatnonzero(self.distances(shape) <= x + TOL)

    def overlapping(self, shape: Shape) -> tuple[np.ndarray, np.ndarray]:
        """G4: ``(indices, overlap_depths)`` of bases that ``shape`` overlaps (touching is allowed)."""
        if isinstance(shape, Circle):
            d = np.abs(self.complex_centres() - complex(shape.x, shape.y))
            idx = np.flatnonzero(d < self.r + (shape.r - TOL))
            depth = (self.r[idx] + shape.r) - d[idx]
            return idx, depth
        if self._points is None:
            self._points = shapely.points(np.column_stack([self.x, self.y]))
        minx, miny, maxx, maxy = shape.bounds
        m = (self.x + self.r > minx) & (self.x - self.r < maxx) & (self.y + self.r > miny) & (self.y - self.r < maxy)
        cand = np.flatnonzero(m)
        if len(cand) == 0:
            return cand, np.empty(0)
        d = shapely.distance(shape, self._points[cand])
        hit = d < self.r[cand] - TOL
        return cand[hit], (self.r[cand] - d)[hit]
