"""Who is within X" of a shape: a numpy index over round bases (G1).

For fewer than about 1000 bases a flat numpy pass beats an STRtree (DESIGN.md), so
this is just three arrays and exact circle maths, fully vectorised.
"""

from __future__ import annotations

from typing import Iterable, Iterator, Sequence

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

    __slots__ = ("x", "y", "r", "_points")

    def __init__(self, bases: Iterable[Circle] = ()) -> None:
        bases = list(bases)
        n = len(bases)
        self.x = np.fromiter((b.x for b in bases), float, n)
        self.y = np.fromiter((b.y for b in bases), float, n)
        self.r = np.fromiter((b.r for b in bases), float, n)
        self._points = None

    @classmethod
    def from_arrays(cls, x, y, r) -> "BaseIndex":
        """Build from parallel arrays of centre x, centre y and radius (copied)."""
        self = cls.__new__(cls)
        self.x = np.array(x, dtype=float)
        self.y = np.array(y, dtype=float)
        self.r = np.array(r, dtype=float)
        self._points = None
        return self

    def arrays(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """``(x, y, r)`` arrays (do not mutate)."""
        return self.x, self.y, self.r

    def __len__(self) -> int:
        return len(self.x)

    def __getitem__(self, i):  # type: ignore[override]
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
            dx = self.x - shape.x
            dy = self.y - shape.y
            lim = x + TOL + self.r + shape.r
            return np.flatnonzero(dx * dx + dy * dy <= lim * lim)
        return np.flatnonzero(self.distances(shape) <= x + TOL)

    def overlapping(self, shape: Shape) -> tuple[np.ndarray, np.ndarray]:
        """G4: ``(indices, overlap_depths)`` of bases that ``shape`` overlaps (touching is allowed)."""
        if isinstance(shape, Circle):
            dx = self.x - shape.x
            dy = self.y - shape.y
            lim = self.r + shape.r - TOL
            idx = np.flatnonzero((dx * dx + dy * dy < lim * lim) & (lim > 0))
            depth = (self.r[idx] + shape.r) - np.hypot(dx[idx], dy[idx])
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
