"""Label layout for the battlefield: every label gets a place where it overlaps no other.

One job: given label requests (a priority, the sizes it may take, the places it may sit) and
the free area, choose a rectangle for each, most important first. A label that cannot sit
at its preferred place tries the other places, then small nudges around each, then its
smaller variants (a shorter text, a smaller font); with no room left it is hidden. Pure
geometry on pygame.Rect: no drawing, no game state (the renderer turns requests into pixels).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

import pygame

# how far a label may be nudged from each place, in multiples of its own size plus a gap
_NUDGES: tuple[tuple[float, float], ...] = (
    (0, 0),
    (0, -1),
    (0, 1),
    (0.55, 0),
    (-0.55, 0),
    (0.55, -1),
    (-0.55, -1),
    (0.55, 1),
    (-0.55, 1),
    (0, -2),
    (0, 2),
)
GAP = 2  # pixels between two labels nudged apart


@dataclass
class LabelRequest:
    """One label the renderer wants on screen.

    sizes:  (w, h) of each variant, best first (the renderer keeps what each one looks like)
    places: (pygame.Rect attribute, screen point) in order of preference, e.g.
            ("midbottom", (x, top_of_base)) puts the label just above a base
    within: the area this label must stay inside besides the viewport (e.g. the board)
    anchor: the point the label describes (a leader line is drawn when it moves away)
    """

    kind: str
    priority: int
    sizes: Sequence[tuple[int, int]]
    places: Sequence[tuple[str, tuple[float, float]]]
    within: pygame.Rect | None = None
    anchor: tuple[float, float] | None = None
    payload: Any = None
    nudge: bool = True
    shy: bool = False  # keeps off the soft obstacles (e.g. bases) while it can

    def signature(self) -> tuple:
        """What decides where it goes (a layout is reused while these stay the same)."""
        return (
            self.kind,
            self.priority,
            tuple(self.sizes),
            tuple((a, (round(p[0]), round(p[1]))) for a, p in self.places),
            tuple(self.within) if self.within is not None else None,
            self.nudge,
            self.shy,
        )


@dataclass
class Placed:
    request: LabelRequest
    rect: pygame.Rect
    variant: int  # index into request.sizes
    moved: bool = False  # nudged off its places (the renderer draws a leader line)
    index: int = 0  # the request's position in the list given to `layout`


@dataclass
class Layout:
    placed: list[Placed] = field(default_factory=list)
    hidden: list[LabelRequest] = field(default_factory=list)


def _candidates(req: LabelRequest, w: int, h: int, area: pygame.Rect) -> Iterable[tuple[int, pygame.Rect]]:
    """(nudge number, rect): each place as given, then nudged, then pushed inside `area`."""
    nudges = _NUDGES if req.nudge else _NUDGES[:1]
    for k, (fx, fy) in enumerate(nudges):
        for attr, (px, py) in req.places:
            r = pygame.Rect(0, 0, w, h)
            setattr(r, attr, (round(px), round(py)))
            if fx or fy:
                r.move_ip(round(fx * (w + GAP)), round(fy * (h + GAP)))
            yield k, r
    for attr, (px, py) in req.places:  # by the edge: whole, just inside, rather than cut or gone
        r = pygame.Rect(0, 0, w, h)
        setattr(r, attr, (round(px), round(py)))
        yield len(nudges), r.clamp(area)


def layout(
    requests: Sequence[LabelRequest],
    bounds: pygame.Rect,
    obstacles: Sequence[pygame.Rect] = (),
    soft: Sequence[pygame.Rect] = (),
) -> Layout:
    """Place `requests` inside `bounds`, off `obstacles`, no two overlapping; a `shy` label
    also keeps off `soft` obstacles when it can (it may cover them rather than hide).

    Higher priority is placed first and so keeps its preferred place; equal priorities keep
    the order given. Each label takes the first candidate that fits: its places, then the
    nudges around them, for its first size, then for each smaller variant."""
    out = Layout()
    taken: list[pygame.Rect] = [pygame.Rect(o) for o in obstacles]
    soft_list = [pygame.Rect(o) for o in soft]
    order = sorted(range(len(requests)), key=lambda i: -requests[i].priority)
    for i in order:
        req = requests[i]
        area = bounds.clip(req.within) if req.within is not None else bounds
        spot = None
        for avoid in (taken + soft_list, taken) if req.shy and soft_list else (taken,):
            for v, (w, h) in enumerate(req.sizes):
                if w > area.w or h > area.h or w <= 0 or h <= 0:
                    continue
                for k, r in _candidates(req, w, h, area):
                    if area.contains(r) and r.collidelist(avoid) < 0:
                        spot = Placed(req, r, v, moved=k > 0, index=i)
                        break
                if spot is not None:
                    break
            if spot is not None:
                break
        if spot is None:
            out.hidden.append(req)
            continue
        out.placed.append(spot)
        taken.append(spot.rect)
    return out
