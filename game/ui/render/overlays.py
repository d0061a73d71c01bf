"""Extra battlefield marks the decision controls ask for (game.ui.controls), in inches.

Each mark is a small record; `draw_marks` turns them into pixels with the renderer's camera.
The scene puts them in `Overlays.marks`; nothing here reads or changes the game state.

    Bases(circles, ok)            a unit's ghost: every model's base at its new place
                                  (an illegal one, ok=False, dashed with a cross: not colour alone)
    Shape(shape, fill, edge)      a Circle or shapely Polygon (a footprint, a swept area);
                                  `dashed` outline, `cross` at its centre for an illegal ghost
    Line(a, b, colour, width)     a path or a sight line (a blocked one `dashed`, `cross` where blocked)
    Cross(x, y, colour)           an X at a world point: "not here", e.g. an illegal set-up spot
    Band(x, y, r, width, colour)  a ring `width` inches wide outside radius r (the ½" band)
    Label(x, y, text, colour)     a chip of text anchored at a world point (laid out by field.py)
    Region(geometry, colour)      a shapely area of any shape (parts, holes) shaded translucent,
                                  e.g. where a summoned manifestation's centre may go (M9)
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import pygame

from game.ui import theme
from game.ui.render.primitives import circle


@dataclass
class Bases:
    circles: list[tuple[float, float, float]]  # x, y, r in inches
    ok: bool = True
    alpha: int = 90

    @property
    def dashed(self) -> bool:
        """An illegal ghost's outline is dashed, and crossed: colour is never the only signal."""
        return not self.ok

    cross = dashed


@dataclass
class Shape:
    shape: Any
    fill: tuple[int, int, int, int]
    edge: tuple[int, int, int]
    width: int = 2
    dashed: bool = False
    cross: bool = False


@dataclass
class Line:
    a: tuple[float, float]
    b: tuple[float, float]
    colour: tuple[int, int, int]
    width: int = 2
    dashed: bool = False
    cross: tuple[float, float] | None = None  # inches: where a blocked sight line is blocked


@dataclass
class Cross:
    x: float
    y: float
    colour: tuple[int, int, int]


@dataclass
class Band:
    x: float
    y: float
    r: float  # inner radius in inches
    width: float  # inches
    colour: tuple[int, int, int]


@dataclass
class Region:
    geometry: Any  # a shapely Polygon or MultiPolygon, inches
    colour: tuple[int, int, int]
    alpha: int = 55


@dataclass
class Label:
    x: float
    y: float
    text: str
    colour: tuple[int, int, int] = theme.TEXT
    size: int = 14
    dy: int = 0  # pixels below the anchor


def _dashed(surf, colour, a, b, width: int, dash: float = 8.0) -> None:
    dx, dy = b[0] - a[0], b[1] - a[1]
    n = math.hypot(dx, dy)
    if n < 1:
        return
    steps = int(n // dash)
    for k in range(0, steps + 1, 2):
        t0, t1 = k * dash / n, min(1.0, (k + 1) * dash / n)
        pygame.draw.line(surf, colour, (a[0] + dx * t0, a[1] + dy * t0), (a[0] + dx * t1, a[1] + dy * t1), width)


def _dashed_ring(surf, colour, pts: list, width: int, dash: float = 7.0) -> None:
    """A closed outline through screen points `pts`, dashed evenly along its whole length."""
    if len(pts) < 2:
        return
    on, run = True, 0.0  # the pattern carries on round corners
    for a, b in zip(pts, pts[1:] + pts[:1]):
        n = math.hypot(b[0] - a[0], b[1] - a[1])
        t = 0.0
        while t < n:
            step = min(dash - run, n - t)
            if on:
                p0 = (a[0] + (b[0] - a[0]) * t / n, a[1] + (b[1] - a[1]) * t / n)
                p1 = (a[0] + (b[0] - a[0]) * (t + step) / n, a[1] + (b[1] - a[1]) * (t + step) / n)
                pygame.draw.line(surf, colour, p0, p1, width)
            t += step
            run += step
            if run >= dash - 1e-9:
                on, run = not on, 0.0


def _circle_points(c, r: float) -> list[tuple[float, float]]:
    k = max(12, min(180, int(r * 0.8)))
    return [(c[0] + r * math.cos(2 * math.pi * i / k), c[1] + r * math.sin(2 * math.pi * i / k)) for i in range(k)]


def draw_cross(surf, colour, at, size: float = 7.0, width: int = 3) -> None:
    """An X at screen point `at` on a dark halo: a shape that says "no" without its colour."""
    x, y = at
    for w, col in ((width + 3, (15, 15, 15)), (width, colour)):
        pygame.draw.line(surf, col, (x - size, y - size), (x + size, y + size), w)
        pygame.draw.line(surf, col, (x - size, y + size), (x + size, y - size), w)


def draw_marks(renderer, surf: pygame.Surface, marks: list) -> list[Label]:
    """Draw `marks` (see the module docstring) in order, on top of the battlefield; return
    the Label marks undrawn: the renderer places them with every other label (field.py)."""
    if not marks:
        return []
    cam = renderer.camera
    s = cam.scale
    labels: list[Label] = []
    for mk in marks:
        if isinstance(mk, Bases):
            _draw_bases(surf, cam, mk)
        elif isinstance(mk, Shape):
            _draw_shape_mark(renderer, surf, mk)
        elif isinstance(mk, Line):
            a, b = cam.to_screen(*mk.a), cam.to_screen(*mk.b)
            if mk.dashed:
                _dashed(surf, mk.colour, a, b, mk.width)
            else:
                pygame.draw.line(surf, mk.colour, a, b, mk.width)
            if mk.cross is not None:
                draw_cross(surf, mk.colour, cam.to_screen(*mk.cross))
        elif isinstance(mk, Cross):
            draw_cross(surf, mk.colour, cam.to_screen(mk.x, mk.y))
        elif isinstance(mk, Band):
            c = cam.to_screen(mk.x, mk.y)
            w = max(1, round(mk.width * s))
            circle(surf, mk.colour, c, (mk.r + mk.width / 2) * s, w)
        elif isinstance(mk, Region):
            _draw_region(surf, cam, mk)
        elif isinstance(mk, Label):
            labels.append(mk)
    return labels


#: Rendered ghosts (fill, outline, cross) by their shape in whole pixels (issue 24: a dragged
#: unit's ghost is the same picture every frame, only moved; drawing 20 dashed rings a frame
#: was most of a drag's overlay cost).
_BASES_CACHE: dict[tuple, tuple[pygame.Surface, int]] = {}
_BASES_CACHE_MAX = 64


def _bases_surface(rel: tuple, ok: bool, alpha: int) -> tuple[pygame.Surface, int]:
    """A ghost drawn on its own transparent surface: `rel` is every base's (x, y, radius) in
    pixels from the ghost's top-left centre (whole pixels: `circle` rounds centres the same).
    Returns the surface and its margin (the drawing's origin sits `pad` pixels in)."""
    col = theme.GHOST_OK if ok else theme.GHOST_BAD
    key = (rel, ok, alpha, col)  # the colour too: the palette may change (Okabe-Ito)
    hit = _BASES_CACHE.get(key)
    if hit is not None:
        return hit
    rmax = max(r for _x, _y, r in rel)
    pad = math.ceil(rmax) + 12  # the outline straddles the radius; the cross has a halo
    w = max(x for x, _y, _r in rel) + 2 * pad + 1
    h = max(y for _x, y, _r in rel) + 2 * pad + 1
    tmp = pygame.Surface((w, h), pygame.SRCALPHA)
    # drawing on a per-pixel-alpha surface sets pixels: the opaque outlines replace the fill
    # beneath them, as they did when drawn over the blitted fill
    for x, y, r in rel:
        circle(tmp, (*col, alpha), (x + pad, y + pad), r)
    for x, y, r in rel:
        if not ok:
            _dashed_ring(tmp, col, _circle_points((x + pad, y + pad), r), 2)
        else:
            circle(tmp, col, (x + pad, y + pad), r, 2 if r >= 6 else 1)
    if not ok:  # an illegal ghost is dashed and crossed: colour is never the only signal
        n = len(rel)
        draw_cross(tmp, col, (sum(x for x, _y, _r in rel) / n + pad, sum(y for _x, y, _r in rel) / n + pad))
    if len(_BASES_CACHE) >= _BASES_CACHE_MAX:
        _BASES_CACHE.clear()
    _BASES_CACHE[key] = (tmp, pad)
    return tmp, pad


def _draw_bases(surf: pygame.Surface, cam, mk: Bases) -> None:
    """A Bases mark: its picture from `_bases_surface` (cached), blitted where it stands."""
    if not mk.circles:
        return
    s = cam.scale
    pts = []
    for x, y, r in mk.circles:
        cx, cy = cam.to_screen(x, y)
        pts.append((round(cx), round(cy), round(r * s, 2)))
    x0 = min(p[0] for p in pts)
    y0 = min(p[1] for p in pts)
    rel = tuple((x - x0, y - y0, r) for x, y, r in pts)
    rmax = max(r for _x, _y, r in rel)
    if max(x for x, _y, _r in rel) + 2 * rmax > 1500 or max(y for _x, y, _r in rel) + 2 * rmax > 1500:
        _draw_bases_direct(surf, cam, mk)  # zoomed far in: a picture that size is not worth keeping
        return
    pic, pad = _bases_surface(rel, mk.ok, mk.alpha)
    surf.blit(pic, (x0 - pad, y0 - pad))


def _draw_bases_direct(surf: pygame.Surface, cam, mk: Bases) -> None:
    """A Bases mark drawn straight onto `surf`, its fill clipped to the view."""
    col = theme.GHOST_OK if mk.ok else theme.GHOST_BAD
    s = cam.scale
    pts = [(cam.to_screen(x, y), r * s) for x, y, r in mk.circles]
    xs = [p[0][0] for p in pts]
    ys = [p[0][1] for p in pts]
    rmax = max(p[1] for p in pts) + 3
    box = pygame.Rect(
        math.floor(min(xs) - rmax),
        math.floor(min(ys) - rmax),
        math.ceil(max(xs) - min(xs) + 2 * rmax) + 2,
        math.ceil(max(ys) - min(ys) + 2 * rmax) + 2,
    )
    box = box.clip(surf.get_rect())
    if box.w > 0 and box.h > 0:
        tmp = pygame.Surface(box.size, pygame.SRCALPHA)
        for (cx, cy), r in pts:
            circle(tmp, (*col, mk.alpha), (cx - box.x, cy - box.y), r)
        surf.blit(tmp, box.topleft)
    for (cx, cy), r in pts:
        if mk.dashed:
            _dashed_ring(surf, col, _circle_points((cx, cy), r), 2)
        else:
            circle(surf, col, (cx, cy), r, 2 if r >= 6 else 1)
    if mk.cross:
        draw_cross(surf, col, (sum(xs) / len(xs), sum(ys) / len(ys)))


def _draw_shape_mark(renderer, surf: pygame.Surface, mk: Shape) -> None:
    """A Shape mark; a dashed one gets a thin dark solid edge under its dashes (so its extent
    still reads between them) and a cross at its centre if asked."""
    from game.geometry.shapes import Circle

    if not mk.dashed:
        box = renderer._draw_shape(surf, mk.shape, mk.fill, mk.edge, mk.width)
    else:
        box = renderer._draw_shape(surf, mk.shape, mk.fill, theme.darker(mk.edge), 1)
        if isinstance(mk.shape, Circle):
            cam = renderer.camera
            pts = _circle_points(cam.to_screen(mk.shape.x, mk.shape.y), mk.shape.r * cam.scale)
        else:
            pts = renderer._shape_points(mk.shape)
        _dashed_ring(surf, mk.edge, list(pts), max(2, mk.width))
    if mk.cross:
        draw_cross(surf, mk.edge, box.center)


def _draw_region(surf: pygame.Surface, cam, mk: Region) -> None:
    """Shade every part of a shapely area, its holes left clear, and outline it."""
    geom = mk.geometry
    if geom is None or geom.is_empty:
        return
    parts = list(getattr(geom, "geoms", [geom]))
    tmp = pygame.Surface(surf.get_size(), pygame.SRCALPHA)
    edges: list[list[tuple[float, float]]] = []
    for part in parts:
        if part.geom_type != "Polygon" or part.is_empty:
            continue
        outer = [cam.to_screen(x, y) for x, y in part.exterior.coords]
        if len(outer) >= 3:
            pygame.draw.polygon(tmp, (*mk.colour, mk.alpha), outer)
            edges.append(outer)
        for hole in part.interiors:
            inner = [cam.to_screen(x, y) for x, y in hole.coords]
            if len(inner) >= 3:
                pygame.draw.polygon(tmp, (0, 0, 0, 0), inner)  # drawing sets pixels: the hole is cleared
                edges.append(inner)
    surf.blit(tmp, (0, 0))
    for ring in edges:
        pygame.draw.lines(surf, mk.colour, True, ring, 1)
