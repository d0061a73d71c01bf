"""The battlefield, drawn to scale: one inch is `camera.scale` pixels, bases from millimetres.

Two layers:
- a static layer (cloth, deployment zones, 1" and 6" grid, terrain by trait, objectives with
  their 3" rings, edge rulers), rendered into a cached surface only when the camera or the
  viewport changes;
- a dynamic layer drawn every frame: manifestations, bases with role icons, badges, health
  bars, and the overlays the scene asks for (rings, sight line, ruler, ghost, highlights).

Every text on the battlefield (terrain and objective names, manifestation names and who
controls them, W/P badges, ring labels, the ruler's distance, the decision controls' chips)
is a label request: after the shapes are drawn, one layout pass (label_layout.py) gives each
a place where it overlaps no other and stays inside the viewport, off the rulers; the less
important ones move, shrink or hide. `drawn_labels` records what was drawn, for tests.

Status on the board (issue 19): a unit carrying timed modifiers has a buff token (up-triangle)
and / or a debuff token (down-triangle) by its base, the hovered unit's health
reads as numbers by its bar, and an objective is drawn in its holder's colour (R2).
`drawn_objectives` records each objective's colour, for tests.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

import pygame
import shapely
from shapely.geometry import LineString, Polygon

from game.content_words import content_name as cn
from game.i18n import N_, _
from game.rules import query
from game.ui import phase_words, theme
from game.ui.camera import Camera
from game.ui.render.chips import badge_chip, chip, icon_chip, status_chip, text_chip
from game.ui.render.icons import icon, main_role, roles_of
from game.ui.render.label_layout import LabelRequest, Layout, layout
from game.ui.render.overlays import draw_marks
from game.ui.render.primitives import circle

OBJECTIVE_RANGE = query.OBJECTIVE_RANGE  # R2: an objective's control ring (the engine's range)

# label priorities: the higher is placed first and keeps its spot
PRI_RULER = 100  # the distance the player is measuring
PRI_HOVER = 90  # the name of the unit under the pointer or selected
PRI_MARK = 80  # the open decision's chips (distances, hits, legal limits)
PRI_HEALTH = 85  # the hovered unit's health in numbers
PRI_RING = 70
PRI_MANIFESTATION = 60
PRI_BADGE = 55  # W/P power, unbinds, ritual points
PRI_STATUS = 52  # buff and debuff tokens
PRI_CONTROL = 50  # "controlled by ...", "wild"
PRI_NAME = 45  # unit names (demonstrations)
PRI_OBJECTIVE = 40
PRI_TERRAIN = 30
# below these scales (pixels per inch) the label is not worth its room
MIN_SCALE_TERRAIN = 9.0
MIN_SCALE_TRAITS = 11.0
MIN_SCALE_OBJECTIVE = 9.0
MIN_SCALE_CONTROL = 7.0
MIN_SCALE_NAMES = 7.0  # below it a manifestation's name is its icon
# a timed modifier's short words on its token (the engine's Buff.kind, game.rules.effects)
STATUS_WORDS = {"save_buff": N_("+{v} sv"), "hit_debuff": N_("-{v} hit"), "move_debuff": N_('-{v}" mv')}
# a terrain trait's word on its label (the map's traits are keys)
TRAIT_WORDS = {"obscuring": N_("obscuring"), "impassable": N_("impassable"), "cover": N_("cover")}


@dataclass(frozen=True)
class DrawnLabel:
    """A label as drawn this frame: what it is, its text, its screen box (viewport pixels)."""

    kind: str
    text: str
    rect: pygame.Rect
    icon: bool = False  # collapsed to its icon; `text` is its tool tip


@dataclass
class Ring:
    x: float
    y: float
    radius: float  # inches from the centre
    colour: tuple[int, int, int]
    label: str = ""
    width: int = 2


@dataclass
class Overlays:
    """What the scene wants shown on top of the state. Filled by the scene, read here."""

    rings: list[Ring] = field(default_factory=list)
    selected: tuple[str, int] | None = None  # unit, model
    hovered: str | None = None  # unit or manifestation id
    highlight_units: dict[str, tuple[int, int, int]] = field(default_factory=dict)  # legal targets etc.
    sight_line: tuple[tuple[float, float], tuple[float, float]] | None = None
    sight_ok: bool = True
    blocked_terrain: tuple[str, ...] = ()
    blocked_bases: list[tuple[float, float, float]] = field(default_factory=list)  # x, y, r
    ruler: tuple[tuple[float, float], tuple[float, float], str] | None = None
    ghost: Any = None  # Circle or Polygon (inches)
    ghost_ok: bool = True
    candidates: list[tuple[float, float]] = field(default_factory=list)
    path: list[tuple[float, float]] | None = None
    marks: list = field(default_factory=list)  # decision controls' marks (render/overlays.py)
    pointer: tuple[int, int] | None = None  # the mouse in viewport pixels: ring labels sit near it, icons show tips


def _grown(shape, by: float):
    """A Circle or polygon footprint grown by `by` inches (a halo drawn just outside it)."""
    from game.geometry.shapes import Circle

    if isinstance(shape, Circle):
        return Circle(shape.x, shape.y, shape.r + by)
    return shape.buffer(by, join_style="mitre")


def _hatch(poly: Polygon, spacing: float, angle: float) -> list[tuple[tuple[float, float], tuple[float, float]]]:
    """Pattern lines clipped to a polygon, in inches (computed once per map)."""
    minx, miny, maxx, maxy = poly.bounds
    diag = math.hypot(maxx - minx, maxy - miny)
    cx, cy = (minx + maxx) / 2, (miny + maxy) / 2
    dx, dy = math.cos(angle), math.sin(angle)
    nx, ny = -dy, dx
    out = []
    k = -diag
    while k <= diag:
        ox, oy = cx + nx * k, cy + ny * k
        line = LineString([(ox - dx * diag, oy - dy * diag), (ox + dx * diag, oy + dy * diag)])
        inter = poly.intersection(line)
        for g in getattr(inter, "geoms", [inter]):
            if isinstance(g, LineString) and not g.is_empty:
                (a, b) = g.coords[0], g.coords[-1]
                out.append((a, b))
        k += spacing
    return out


def _dots(poly: Polygon, spacing: float) -> list[tuple[float, float]]:
    minx, miny, maxx, maxy = poly.bounds
    pts = []
    y = miny + spacing / 2
    row = 0
    while y < maxy:
        x = minx + spacing / 2 + (spacing / 2 if row % 2 else 0)
        while x < maxx:
            if poly.contains(shapely.Point(x, y)):
                pts.append((x, y))
            x += spacing
        y += spacing
        row += 1
    return pts


class FieldRenderer:
    def __init__(self, camera: Camera) -> None:
        self.camera = camera
        self._static: pygame.Surface | None = None
        self._static_key: tuple | None = None
        self._patterns: dict[str, Any] = {}
        self._map_id: str | None = None
        self.static_renders = 0  # for tests and the bench
        self._rulers_key = None
        self._rulers_surf = None
        self._rulers_box = None
        self._ruler_strips: list[pygame.Rect] = []
        self._queue: list[LabelRequest] = []  # this frame's label requests
        self._static_labels_key: Any = None
        self._static_labels: list[LabelRequest] = []
        self._static_sig: tuple = ()
        self._board_count = 0  # the queue's first entries are the cached board labels
        self._bases: list[pygame.Rect] = []
        self._layout_key: Any = None
        self._points_cache: dict[int, tuple[Any, tuple, list[tuple[float, float]]]] = {}  # _shape_points
        self._layout: Layout | None = None
        self.drawn_labels: list[DrawnLabel] = []
        self.drawn_tip: DrawnLabel | None = None  # the tool tip of an icon under the pointer
        self._pointer: tuple[int, int] | None = None
        self.drawn_objectives: list[tuple[int, int, int]] = []  # each objective's ring colour

    # --- static layer --------------------------------------------------------------------

    def _terrain_patterns(self, bmap) -> list[dict]:
        if (
            self._map_id == bmap.id
            and self._patterns.get("pieces") is not None
            and len(self._patterns["pieces"]) == len(bmap.terrain)
        ):
            return self._patterns["pieces"]
        pieces = []
        for t in bmap.terrain:
            poly = Polygon(t.points)
            traits = set(t.traits)
            lines, dots = [], []
            if "impassable" in traits:
                lines = _hatch(poly, 0.8, math.pi / 4) + _hatch(poly, 0.8, -math.pi / 4)
            elif "obscuring" in traits:
                lines = _hatch(poly, 0.7, math.pi / 4)
            if "cover" in traits:
                dots = _dots(poly, 1.0)
            c = poly.representative_point()
            pieces.append(
                {
                    "name": t.name,
                    "points": list(t.points),
                    "traits": traits,
                    "lines": lines,
                    "dots": dots,
                    "label": (c.x, c.y),
                }
            )
        self._patterns = {"pieces": pieces}
        self._map_id = bmap.id
        return pieces

    def _layer_camera(self, bmap, pad: int) -> "_LayerView":
        return _LayerView(self.camera.scale, pad, bmap.height * self.camera.scale + pad, self.camera.margin)

    def board_layer(self, state, version: Any, size: tuple[int, int]) -> tuple[pygame.Surface, tuple[float, float]]:
        """The battlefield with terrain, objectives, manifestations and bases, cached.

        At ordinary zoom the layer covers the whole board, so panning only moves where it is
        blitted; it is re-rendered when the scale or the state (`version`) changes. Zoomed far
        in, the layer is the viewport and follows the camera.
        """
        bmap = state.game.battlefield.map
        cam = self.camera
        pad = 80
        bw, bh = bmap.width * cam.scale + 2 * pad, bmap.height * cam.scale + 2 * pad
        whole = bw * bh <= 9_000_000
        if whole:
            key = ("board", round(cam.scale, 6), bmap.id, len(bmap.terrain), version)
            offset = (cam.ox - pad, cam.oy - bmap.height * cam.scale - pad)
        else:
            key = ("view", cam.key(), size, bmap.id, len(bmap.terrain), version)
            offset = (0.0, 0.0)
        if self._static is not None and self._static_key == key:
            return self._static, offset
        if whole:
            surf = pygame.Surface((int(bw) + 1, int(bh) + 1))
            view = self._layer_camera(bmap, pad)
        else:
            surf = pygame.Surface(size)
            view = cam
        real = self.camera
        self.camera = view
        try:
            self._draw_static(surf, state, bmap)
            for mid, m in state.manifestations.items():
                self._manifestation(surf, state, mid, m)
            for uid, u in state.units.items():
                if u.alive:
                    self._unit(surf, state, uid, u)
        finally:
            self.camera = real
        self._static, self._static_key = surf, key
        self.static_renders += 1
        return surf, offset

    def _draw_static(self, surf: pygame.Surface, state, bmap) -> None:
        cam = self.camera
        surf.fill(theme.BG)
        W, H = bmap.width, bmap.height
        x0, y1 = cam.to_screen(0, 0)
        x1, y0 = cam.to_screen(W, H)
        board = pygame.Rect(round(x0), round(y0), round(x1 - x0), round(y1 - y0))
        surf.fill(theme.FIELD, board)
        clip = surf.get_clip()
        surf.set_clip(board.clip(surf.get_rect()))
        # deployment zones, tinted with the army's colour
        for z in bmap.deployment:
            pts = [cam.to_screen(x, y) for x, y in z.points]
            col = theme.player_colour(state, z.player)
            tint = pygame.Surface(surf.get_size(), pygame.SRCALPHA)
            pygame.draw.polygon(tint, (*col, 40), pts)
            surf.blit(tint, (0, 0))
            pygame.draw.polygon(surf, theme.darker(col, 0.8), pts, 2)
        # grid: every inch, stronger every 6"
        s = cam.scale
        if s >= 6:
            for i in range(1, int(W)):
                if i % 6:
                    x = round(x0 + i * s)
                    pygame.draw.line(surf, theme.GRID_1, (x, board.top), (x, board.bottom))
            for j in range(1, int(H)):
                if j % 6:
                    y = round(y1 - j * s)
                    pygame.draw.line(surf, theme.GRID_1, (board.left, y), (board.right, y))
        for i in range(6, int(W), 6):
            x = round(x0 + i * s)
            pygame.draw.line(surf, theme.GRID_6, (x, board.top), (x, board.bottom), 2 if s >= 10 else 1)
        for j in range(6, int(H), 6):
            y = round(y1 - j * s)
            pygame.draw.line(surf, theme.GRID_6, (board.left, y), (board.right, y), 2 if s >= 10 else 1)
        # terrain by trait
        for p in self._terrain_patterns(bmap):
            traits = p["traits"]
            kind = (
                "impassable"
                if "impassable" in traits
                else "obscuring"
                if "obscuring" in traits
                else ("cover" if "cover" in traits else "plain")
            )
            fill, edge, _kind = theme.TERRAIN[kind]
            pts = [cam.to_screen(x, y) for x, y in p["points"]]
            pygame.draw.polygon(surf, fill, pts)
            line_col = theme.lighter(fill, 0.25)
            for a, b in p["lines"]:
                pygame.draw.line(surf, line_col, cam.to_screen(*a), cam.to_screen(*b), 1)
            dot_r = max(1, round(s * 0.09))
            for d in p["dots"]:
                circle(surf, theme.TERRAIN["cover"][1], cam.to_screen(*d), dot_r)
            pygame.draw.polygon(surf, edge, pts, 3 if "obscuring" in traits else 2)
            if "cover" in traits and kind != "cover":
                pygame.draw.polygon(surf, theme.TERRAIN["cover"][0], pts, 1)
        # objectives with their 3" control rings
        self.drawn_objectives = []
        for i, o in enumerate(bmap.objectives):
            cx, cy = cam.to_screen(o.x, o.y)
            ring_col, mark_col = _objective_colours(state, i)
            circle(surf, ring_col, (cx, cy), OBJECTIVE_RANGE * s, 2)
            r = max(4, round(0.8 * s))
            circle(surf, (40, 36, 20), (cx, cy), r)
            circle(surf, mark_col, (cx, cy), r, 2)
            circle(surf, mark_col, (cx, cy), max(2, r // 3))
            self.drawn_objectives.append(mark_col)
        surf.set_clip(clip)
        pygame.draw.rect(surf, theme.FIELD_EDGE, board.inflate(4, 4), 2)

    def _rulers(self, surf: pygame.Surface, bmap, board: pygame.Rect) -> tuple[pygame.Rect, pygame.Rect]:
        """Inch rulers along the bottom and left of the viewport, always matching the camera."""
        cam = self.camera
        vp = surf.get_rect()
        m = cam.margin - 6
        s = cam.scale
        # the rulers hug the battlefield's edges while they are on screen, else the viewport's
        by = max(0, min(board.bottom + 4, vp.bottom - m))
        lx = max(m, min(board.left - 4, vp.w))
        bottom = pygame.Rect(0, by, vp.w, m)
        left = pygame.Rect(lx - m, 0, m, by)
        surf.fill(theme.RULER_BG, bottom)
        surf.fill(theme.RULER_BG, left)
        every = 1 if s >= 24 else 2 if s >= 12 else 6
        for i in range(0, int(bmap.width) + 1):
            x = round(cam.to_screen(i, 0)[0])
            if not 0 <= x <= vp.w:
                continue
            tall = 8 if i % 6 == 0 else 4
            pygame.draw.line(surf, theme.RULER_TEXT, (x, bottom.top), (x, bottom.top + tall))
            if i % every == 0:
                t = theme.text(str(i), 11, theme.RULER_TEXT)
                surf.blit(t, (x - t.get_width() / 2, bottom.top + 8))
        for j in range(0, int(bmap.height) + 1):
            y = round(cam.to_screen(0, j)[1])
            if not 0 <= y <= left.bottom:
                continue
            tall = 8 if j % 6 == 0 else 4
            pygame.draw.line(surf, theme.RULER_TEXT, (left.right - tall, y), (left.right, y))
            if j % every == 0:
                t = theme.text(str(j), 11, theme.RULER_TEXT)
                surf.blit(t, (left.right - 10 - t.get_width(), y - t.get_height() / 2))
        # the unit, in the corner where the two rulers meet (the whole word did not fit: "inche")
        unit = corner_unit(m)
        surf.blit(unit, (max(0, left.x + (left.w - unit.get_width()) / 2), by + (m - unit.get_height()) / 2))
        return bottom, left

    # --- dynamic layer ---------------------------------------------------------------------

    def draw(
        self, surf: pygame.Surface, state, ov: Overlays | None = None, version: Any = None, flush: bool = True
    ) -> None:
        """Draw the battlefield into `surf` (viewport-sized). `version` names the state's
        revision: the cached board layer is redrawn when it changes (None: every frame).

        `flush=False` leaves this frame's labels queued: the caller adds its own
        (`add_label`, `text_label`) and then calls `flush_labels`, so they share one layout."""
        ov = ov or Overlays()
        self._pointer = ov.pointer
        if version is None:
            self._static_key = None
        layer, (ox, oy) = self.board_layer(state, version, surf.get_size())
        vp = surf.get_rect()
        lr = pygame.Rect(round(ox), round(oy), layer.get_width(), layer.get_height())
        if not lr.contains(vp):  # paint only the strips the layer leaves uncovered
            for strip in (
                pygame.Rect(0, 0, vp.w, max(0, lr.top)),
                pygame.Rect(0, lr.bottom, vp.w, vp.h - lr.bottom),
                pygame.Rect(0, 0, max(0, lr.left), vp.h),
                pygame.Rect(lr.right, 0, vp.w - lr.right, vp.h),
            ):
                if strip.w > 0 and strip.h > 0:
                    surf.fill(theme.BG, strip)
        surf.blit(layer, lr.topleft)
        bmap = state.game.battlefield.map
        key = (self.camera.key(), vp.size, bmap.id)
        if self._rulers_key != key:
            x0, y1 = self.camera.to_screen(0, 0)
            x1, y0 = self.camera.to_screen(bmap.width, bmap.height)
            rs = pygame.Surface(vp.size)
            strips = self._rulers(rs, bmap, pygame.Rect(round(x0), round(y0), round(x1 - x0), round(y1 - y0)))
            self._ruler_strips = [r.clip(vp) for r in strips]  # labels keep off the rulers
            # keep only the two opaque strips: cheap plain blits every frame
            self._rulers_surf = [
                (r.topleft, rs.subsurface(r.clip(vp)).copy())
                for r in strips
                if r.clip(vp).size[0] > 0 and r.clip(vp).size[1] > 0
            ]
            self._rulers_key = key
        for at, strip in self._rulers_surf:
            surf.blit(strip, at)
        board = self._board_labels(state, version, vp)
        self._queue = list(board)
        self._board_count = len(board)
        self._blocked_terrain(surf, state, ov)
        self._marks(surf, state, ov)
        self._overlays(surf, state, ov)
        if flush:
            self.flush_labels(surf)

    # --- labels ----------------------------------------------------------------------------

    def add_label(self, req: LabelRequest) -> None:
        """Queue a label for this frame's layout (see `draw(flush=False)`)."""
        self._queue.append(req)

    def text_label(
        self,
        kind: str,
        text: str,
        places: list[tuple[str, tuple[float, float]]],
        colour,
        priority: int,
        size: int = 12,
        bold: bool = False,
        border=None,
        within: pygame.Rect | None = None,
        anchor: tuple[float, float] | None = None,
        smaller: bool = True,
    ) -> LabelRequest:
        """A one-line label; it may shrink two points before it hides (`smaller`)."""
        looks = [(text, text_chip(text, size, colour, bold, border))]
        if smaller and size > 10:
            looks.append((text, text_chip(text, size - 2, colour, bold, border)))
        return LabelRequest(
            kind, priority, [lk[1].get_size() for lk in looks], places, within, anchor, payload=(looks, colour)
        )

    def flush_labels(self, surf: pygame.Surface) -> None:
        """Lay out the queued labels (one pass, by priority) and draw them; record their boxes."""
        vp = surf.get_rect()
        reqs, self._queue = self._queue, []
        n = self._board_count if reqs[: self._board_count] == self._static_labels[: self._board_count] else 0
        # the board labels' signature is computed once per camera and state revision
        head = (self._static_sig if n else (), n)
        key = (head, tuple(r.signature() for r in reqs[n:]), tuple(vp), tuple(tuple(r) for r in self._ruler_strips))
        if self._layout_key != key or self._layout is None:
            self._layout = layout(reqs, vp, self._ruler_strips, self._bases)
            self._layout_key = key
        # the same places as last frame: this frame's requests (their looks) drawn there
        placed = [(reqs[p.index], p) for p in self._layout.placed]
        drawn = []
        tip = None
        self.drawn_tip = None
        for req, p in placed:
            looks, colour = req.payload
            text, look, *flag = looks[p.variant]
            is_icon = bool(flag and flag[0])
            if is_icon and self._pointer is not None and p.rect.collidepoint(self._pointer):
                tip = (text, colour, p.rect)
            if p.moved and req.anchor is not None:  # a leader line back to what it names
                tx = min(max(req.anchor[0], p.rect.left), p.rect.right)
                ty = min(max(req.anchor[1], p.rect.top), p.rect.bottom)
                if math.hypot(tx - req.anchor[0], ty - req.anchor[1]) > 4:
                    pygame.draw.line(surf, theme.darker(colour, 0.8), req.anchor, (tx, ty), 1)
            surf.blit(look, p.rect.topleft)
            drawn.append(DrawnLabel(req.kind, text, pygame.Rect(p.rect), is_icon))
        self.drawn_labels = drawn
        if tip is not None:  # the words of the icon under the pointer, over everything (a tool tip)
            self._draw_tip(surf, *tip)

    def _draw_tip(self, surf: pygame.Surface, text: str, colour, at: pygame.Rect) -> pygame.Rect:
        look = text_chip(text, 12, colour, False, theme.ACCENT)
        box = look.get_rect(midbottom=(at.centerx, at.top - 3))
        if box.top < 0:
            box.midtop = (at.centerx, at.bottom + 3)
        box = box.clamp(surf.get_rect())
        surf.blit(look, box.topleft)
        self.drawn_tip = DrawnLabel("tip", text, pygame.Rect(box))
        return box

    @staticmethod
    def _with_icon(req: LabelRequest, role: str, only: bool = False) -> LabelRequest:
        """`req` with its icon as the last variant (no room for words) or, `only`, the one
        variant (low zoom): the words become the icon's tool tip."""
        looks, colour = req.payload
        look = (looks[0][0], icon_chip(role, colour), True)
        looks = [look] if only else [*looks, look]
        req.payload = (looks, colour)
        req.sizes = [lk[1].get_size() for lk in looks]
        return req

    def _board_labels(self, state, version: Any, vp: pygame.Rect) -> list[LabelRequest]:
        """Terrain, objective, manifestation and badge labels, in screen pixels; cached per
        camera and state revision (None: every frame)."""
        key = (self.camera.key(), tuple(vp), version, id(state) if version is None else None)
        if version is not None and self._static_labels_key == key:
            return self._static_labels
        out: list[LabelRequest] = []
        cam = self.camera
        s = cam.scale
        bmap = state.game.battlefield.map
        board = self.board_rect(bmap)
        for p in self._terrain_patterns(bmap):  # at low zoom its icon, the words as a tool tip
            tags = ", ".join(_(TRAIT_WORDS[t]) if t in TRAIT_WORDS else t for t in sorted(p["traits"])) or _(
                "open ground"
            )
            at = cam.to_screen(*p["label"])
            looks: list[tuple] = []
            if s >= MIN_SCALE_TRAITS:
                looks.append(
                    (
                        f"{p['name']} ({tags})",
                        chip([(cn(p["name"]), 12, theme.TEXT, False), (tags, 11, theme.ACCENT, False)]),
                    )
                )
            if s >= MIN_SCALE_TERRAIN:
                looks.append((cn(p["name"]), text_chip(cn(p["name"]), 12, theme.TEXT)))
                looks.append((cn(p["name"]), text_chip(cn(p["name"]), 10, theme.TEXT)))
            looks.append((f"{p['name']} ({tags})", icon_chip("TERRAIN", theme.TEXT), True))
            out.append(
                LabelRequest(
                    "terrain",
                    PRI_TERRAIN,
                    [lk[1].get_size() for lk in looks],
                    [("center", at)],
                    board,
                    at,
                    payload=(looks, theme.TEXT),
                    shy=True,
                )
            )
        for i, o in enumerate(bmap.objectives):
            if not o.name:
                continue
            cx, cy = cam.to_screen(o.x, o.y)
            ring = OBJECTIVE_RANGE * s
            req = self.text_label(
                "objective",
                cn(o.name),
                [("midtop", (cx, cy + ring + 2)), ("midbottom", (cx, cy - ring - 2))],
                _objective_colours(state, i)[1],
                PRI_OBJECTIVE,
                11,
                within=board,
                anchor=(cx, cy),
            )
            out.append(self._shy(self._with_icon(req, "OBJECTIVE", only=s < MIN_SCALE_OBJECTIVE)))
        for mid, m in state.manifestations.items():
            out.extend(self._manifestation_labels(state, mid, m))
        for uid, u in state.units.items():
            if u.alive:
                req = self._badge(state, uid, u)
                if req is not None:
                    out.append(req)
                out.extend(self._status(state, uid, u))
        self._static_labels, self._static_labels_key = out, key
        self._bases = self._base_boxes(state)
        self._static_sig = tuple(r.signature() for r in out)
        return out

    @staticmethod
    def _shy(req: LabelRequest) -> LabelRequest:
        req.shy = True
        return req

    def _base_boxes(self, state) -> list[pygame.Rect]:
        """Every live model's base on screen: the place labels (terrain, objectives) keep off
        so that they do not hide the army."""
        cam = self.camera
        out = []
        for u in state.units.values():
            r = query.radius_of(state, u.id) * cam.scale
            for _k, m in u.live_models():
                x, y = cam.to_screen(m.x, m.y)
                out.append(pygame.Rect(round(x - r), round(y - r), round(2 * r), round(2 * r)))
        return out

    def board_rect(self, bmap) -> pygame.Rect:
        """The battlefield's box on screen (viewport pixels)."""
        x0, y1 = self.camera.to_screen(0, 0)
        x1, y0 = self.camera.to_screen(bmap.width, bmap.height)
        return pygame.Rect(round(x0), round(y0), round(x1 - x0), round(y1 - y0))

    def _manifestation_labels(self, state, mid: str, m) -> list[LabelRequest]:
        from game.rules.query import manifestation_shape

        cam = self.camera
        scroll = state.game.content.manifestations[m.scroll]
        commander = theme.player_colour(state, m.commander or m.player)
        shape = manifestation_shape(state, mid)
        from game.geometry.shapes import Circle

        if isinstance(shape, Circle):
            minx, miny, maxx, maxy = shape.x - shape.r, shape.y - shape.r, shape.x + shape.r, shape.y + shape.r
        else:
            minx, miny, maxx, maxy = shape.bounds
        cx, cy = cam.to_screen(m.x, m.y)
        top, bottom = cam.to_screen(minx, maxy)[1], cam.to_screen(maxx, miny)[1]
        colour = theme.PREDATORY if scroll.predatory else theme.TEXT
        name = cn(scroll.name) + (" [" + _("PREDATORY") + "]" if scroll.predatory else "")
        looks = [
            (name, text_chip(name, 12, colour, scroll.predatory)),
            (name, text_chip(name, 10, colour, scroll.predatory)),
        ]
        if scroll.predatory:  # the rim and fang still say it: the short name before none
            looks.append((cn(scroll.name), text_chip(cn(scroll.name), 10, colour, True)))
        looks.append((name, icon_chip("MANIFESTATION", colour), True))
        if cam.scale < MIN_SCALE_NAMES:  # low zoom: the icon, its name as a tool tip
            looks = looks[-1:]
        out = [
            LabelRequest(
                "manifestation",
                PRI_MANIFESTATION,
                [lk[1].get_size() for lk in looks],
                [("midbottom", (cx, top - 1)), ("midtop", (cx, bottom + 1))],
                None,
                (cx, cy),
                payload=(looks, colour),
                shy=True,  # off the bases round it while there is room
            )
        ]
        info = []
        if m.commander and m.commander != m.player:
            info.append(_("commanded by {player}").format(player=phase_words.player_short(m.commander)))
        ctrl = m.flags.get("controlled_by") if isinstance(m.flags, dict) else None
        if ctrl:  # [unit, model] (E7)
            uid = ctrl[0] if isinstance(ctrl, (list, tuple)) else ctrl
            info.append(_("controlled by {unit}").format(unit=cn(state.units[uid].name) if uid in state.units else uid))
        elif scroll.predatory and m.flags.get("wild"):
            info.append(_("wild"))
        if info:  # at low zoom its icon, the words as a tool tip
            req = self.text_label(
                "control",
                ", ".join(info),
                [("midtop", (cx, bottom + 1)), ("midbottom", (cx, top - 1))],
                theme.lighter(commander),
                PRI_CONTROL,
                11,
                anchor=(cx, cy),
            )
            out.append(self._shy(self._with_icon(req, "CONTROL", only=cam.scale < MIN_SCALE_CONTROL)))
        return out

    def _marks(self, surf, state, ov: Overlays) -> None:
        """Per-frame marks on bases: legal-target halos, selection, hover, the name label."""
        cam = self.camera
        for uid, u in state.units.items():
            hl = ov.highlight_units.get(uid)
            sel = ov.selected is not None and ov.selected[0] == uid
            hov = ov.hovered == uid
            if not (hl or sel or hov) or not u.alive:
                continue
            r = query.radius_of(state, u.id) * cam.scale
            first = None
            for i, m in u.live_models():
                c = cam.to_screen(m.x, m.y)
                first = first or c
                if hl:
                    circle(surf, hl, c, r + 4, 3)
                if ov.selected == (uid, i):
                    circle(surf, theme.SELECT, c, r + 2, 2)
                elif sel or hov:
                    circle(surf, theme.SELECT, c, r + 1, 1)
            if first is not None and (hov or sel):
                places = [("midtop", (first[0], first[1] + r + 8)), ("midbottom", (first[0], first[1] - r - 18))]
                name = self.text_label("unit", cn(u.name), places, theme.TEXT, PRI_HOVER, 13, True, anchor=first)
                self.add_label(self._shy(name))  # off the unit's own bases while it can
                words = _health_words(state, u) if hov else ""
                if words:  # by the health bar, right of it first (hovered only: a selected
                    # observer's numbers would sit on its own sight lines)
                    bar_y = first[1] + r + 4
                    half = max(5, r)
                    at = [("midleft", (first[0] + half + 3, bar_y)), ("midright", (first[0] - half - 3, bar_y))]
                    self.add_label(self.text_label("health", words, at, theme.TEXT, PRI_HEALTH, 11, anchor=first))
        from game.rules.query import manifestation_shape

        for mid in state.manifestations:  # halos and selection on footprints (M10: walkers are picked like units)
            hl = ov.highlight_units.get(mid)
            sel = ov.selected is not None and ov.selected[0] == mid
            if not (hl or sel):
                continue
            shape = manifestation_shape(state, mid)
            if hl:
                self._draw_shape(surf, _grown(shape, 4 / max(cam.scale, 1e-6)), (0, 0, 0, 0), hl, 3)
            if sel:
                self._draw_shape(surf, _grown(shape, 2 / max(cam.scale, 1e-6)), (0, 0, 0, 0), theme.SELECT, 2)
        if ov.hovered in state.manifestations:
            self._draw_shape(surf, manifestation_shape(state, ov.hovered), (0, 0, 0, 0), theme.SELECT, 3)

    def _blocked_terrain(self, surf, state, ov: Overlays) -> None:
        if not ov.blocked_terrain:
            return
        cam = self.camera
        for t in state.game.battlefield.map.terrain:
            if t.name in ov.blocked_terrain:
                pts = [cam.to_screen(x, y) for x, y in t.points]
                pygame.draw.polygon(surf, theme.SIGHT_BLOCKED, pts, 4)

    def _shape_points(self, shape) -> list[tuple[float, float]]:
        """A polygon's outline in screen points, kept per shape and camera (issue 24: a drag's
        move-limit outline has hundreds of points, the same every frame; reading them from
        shapely was most of its cost). The cache holds the shape, so its id is not reused."""
        key = self.camera.key()
        cache = self._points_cache
        hit = cache.get(id(shape))
        if hit is not None and hit[0] is shape and hit[1] == key:
            return hit[2]
        pts = [self.camera.to_screen(x, y) for x, y in list(shape.exterior.coords)[:-1]]
        if len(cache) > 64:
            cache.clear()
        cache[id(shape)] = (shape, key, pts)
        return pts

    def _draw_shape(self, surf, shape, fill_rgba, edge, width=2) -> pygame.Rect:
        """A Circle or Polygon (inches) with a translucent fill; returns its screen box."""
        cam = self.camera
        from game.geometry.shapes import Circle

        if isinstance(shape, Circle):
            cx, cy = cam.to_screen(shape.x, shape.y)
            r = shape.r * cam.scale
            box = pygame.Rect(0, 0, 2 * r + 4, 2 * r + 4)
            box.center = (round(cx), round(cy))
            if box.w < 2000 and (len(fill_rgba) < 4 or fill_rgba[3] > 0):
                tmp = pygame.Surface(box.size, pygame.SRCALPHA)
                circle(tmp, fill_rgba, (box.w / 2, box.h / 2), r)
                surf.blit(tmp, box.topleft)
            circle(surf, edge, (cx, cy), r, width)
            return box
        pts = self._shape_points(shape)
        xs, ys = [p[0] for p in pts], [p[1] for p in pts]
        box = pygame.Rect(
            math.floor(min(xs)) - 2,
            math.floor(min(ys)) - 2,
            math.ceil(max(xs) - min(xs)) + 5,
            math.ceil(max(ys) - min(ys)) + 5,
        )
        if box.w < 2000 and box.h < 2000 and (len(fill_rgba) < 4 or fill_rgba[3] > 0):  # no pass for no fill
            tmp = pygame.Surface(box.size, pygame.SRCALPHA)
            pygame.draw.polygon(tmp, fill_rgba, [(x - box.x, y - box.y) for x, y in pts])
            surf.blit(tmp, box.topleft)
        pygame.draw.polygon(surf, edge, pts, width)
        return box

    def _manifestation(self, surf, state, mid: str, m) -> None:
        from game.rules.query import manifestation_shape

        scroll = state.game.content.manifestations[m.scroll]
        owner = theme.player_colour(state, m.player)
        commander = theme.player_colour(state, m.commander or m.player)
        shape = manifestation_shape(state, mid)
        box = self._draw_shape(surf, shape, (*owner, 90), commander, 2)
        if scroll.predatory:  # a striped rim and a fang marker
            self._draw_shape(surf, shape, (0, 0, 0, 0), theme.PREDATORY, 1)
        cx, cy = self.camera.to_screen(m.x, m.y)
        if scroll.predatory:
            s = max(8, min(18, box.h // 3))
            pygame.draw.polygon(
                surf, theme.PREDATORY, [(cx - s / 2, cy - s / 2), (cx + s / 2, cy - s / 2), (cx, cy + s / 2)]
            )

    def _unit(self, surf, state, uid: str, u) -> None:
        cam = self.camera
        ws = state.game.warscroll(u.warscroll)
        r_in = query.radius_of(state, uid)
        r = r_in * cam.scale
        col = theme.player_colour(state, u.player)
        roles = roles_of(ws)
        role = main_role(roles)
        isz = int(r * 1.3)
        ic = icon(role, isz, (250, 250, 245)) if role and isz >= 6 else None
        for _i, m in u.live_models():
            cx, cy = cam.to_screen(m.x, m.y)
            circle(surf, col, (cx, cy), r)
            rim = theme.ACCENT if "HERO" in roles else theme.darker(col, 0.45)
            circle(surf, rim, (cx, cy), r, 2 if r >= 6 else 1)
            if ic is not None:
                surf.blit(ic, (cx - isz / 2, cy - isz / 2))
            if "FLY" in roles and r >= 7:
                wing = icon("FLY", max(8, int(r * 0.8)), theme.TEXT)
                surf.blit(wing, (cx + r * 0.5, cy - r * 1.1))
            if ws.health > 1 and r >= 4:  # health bar under the base
                frac = max(0.0, (ws.health - m.damage) / ws.health)
                bw, bh = max(10, 2 * r), 4
                bx, by = cx - bw / 2, cy + r + 2
                pygame.draw.rect(surf, theme.HEALTH_LOST, (bx, by, bw, bh))
                pygame.draw.rect(surf, theme.HEALTH_OK, (bx, by, bw * frac, bh))

    def _badge(self, state, uid: str, u) -> LabelRequest | None:
        """WIZARD / PRIEST badge over the unit's first model: power level, what is left this
        phase, unbinds, ritual points; compact (tags only) when crowded."""
        ws = state.game.warscroll(u.warscroll)
        wl, pl = ws.wizard_level, ws.priest_level
        live = u.live_models()
        if not (wl or pl) or not live:
            return None
        try:
            left = query.power_left(state, uid)
            unb = query.unbinds_left(state, uid) if wl else 0
        except Exception:
            left, unb = max(wl, pl), wl
        tags = []
        if wl:
            tags.append((f"W{wl}", theme.WIZARD))
        if pl:
            tags.append((f"P{pl}", theme.PRIEST))
        extra = []
        if wl:
            extra.append(f"U{max(0, unb)}")
        if pl:
            extra.append(f"RP{u.ritual_points}")
        words = " ".join(t for t, _ in tags)
        looks = [
            (f"{words} {' '.join(extra)}", badge_chip(tags, max(wl, pl), left, " ".join(extra))),
            (words, badge_chip(tags, 0, 0, "")),
        ]
        m = live[0][1]
        cx, cy = self.camera.to_screen(m.x, m.y)
        r = query.radius_of(state, uid) * self.camera.scale
        places = [("bottomleft", (cx - r, cy - r - 2)), ("topleft", (cx - r, cy + r + 7))]
        return LabelRequest(
            "badge", PRI_BADGE, [lk[1].get_size() for lk in looks], places, None, (cx, cy), payload=(looks, theme.TEXT)
        )

    def _status(self, state, uid: str, u) -> list[LabelRequest]:
        """A buff token (up-triangle) and a debuff token (down-triangle) by the unit's first
        model, naming its timed modifiers (M3, M5: the engine's `modifier`, `ward_of`); bare
        triangles when crowded."""
        if not u.buffs:
            return []
        live = u.live_models()
        if not live:
            return []
        kinds = sorted({b.kind for b in u.buffs})
        up, down = [], []
        for k in kinds:
            if k == "ward_buff":
                up.append(_("ward {v}+").format(v=query.ward_of(state, uid)))
            elif k in STATUS_WORDS:
                text = _(STATUS_WORDS[k]).format(v=abs(query.modifier(state, uid, k)))
                (down if k.endswith("debuff") else up).append(text)
        m = live[0][1]
        cx, cy = self.camera.to_screen(m.x, m.y)
        r = query.radius_of(state, u.id) * self.camera.scale
        out = []
        for kind, words, is_up, colour, dy in (
            ("buff", up, True, theme.TEXT_GOOD, -7),
            ("debuff", down, False, theme.TEXT_BAD, 7),
        ):
            if not words:
                continue
            text = " ".join(words)
            looks = [(text, status_chip(is_up, text, colour)), (text, status_chip(is_up, "", colour))]
            places = [("midleft", (cx + r + 2, cy + dy)), ("midright", (cx - r - 2, cy + dy))]
            out.append(
                LabelRequest(
                    kind,
                    PRI_STATUS,
                    [lk[1].get_size() for lk in looks],
                    places,
                    None,
                    (cx, cy),
                    payload=(looks, colour),
                )
            )
        return out

    def _ring_label(self, ring: Ring, c: tuple[float, float], rad: float, board: pygame.Rect) -> LabelRequest:
        """A ring's label on the ring itself, at one of eight points inside the board: the one
        nearest the pointer first (else top-right first); never on the centre row, where the
        ring's pixels are measured."""
        places = []
        for deg, attr in (
            (-45, "bottomleft"),
            (-135, "bottomright"),
            (45, "topleft"),
            (135, "topright"),
            (-90, "midbottom"),
            (90, "midtop"),
            (-20, "bottomleft"),
            (-160, "bottomright"),
        ):
            a = math.radians(deg)
            places.append((attr, (c[0] + rad * math.cos(a), c[1] + rad * math.sin(a))))
        inside = [p for p in places if board.collidepoint(p[1])] or places
        if self._pointer is not None:  # where the player is looking: the point nearest the mouse first
            px, py = self._pointer
            inside.sort(key=lambda p: (p[1][0] - px) ** 2 + (p[1][1] - py) ** 2)
        return self.text_label("ring", ring.label, inside, ring.colour, PRI_RING, 12, True, within=board)

    def _overlays(self, surf, state, ov: Overlays) -> None:
        cam = self.camera
        board = self.board_rect(state.game.battlefield.map)
        for ring in ov.rings:
            c = cam.to_screen(ring.x, ring.y)
            rad = ring.radius * cam.scale
            if rad > 1:
                circle(surf, ring.colour, c, rad, ring.width)
                if ring.label:
                    self.add_label(self._ring_label(ring, c, rad, board))
        for x, y, r in ov.blocked_bases:
            circle(surf, theme.SIGHT_BLOCKED, cam.to_screen(x, y), r * cam.scale + 3, 3)
        if ov.sight_line is not None:
            a, b = ov.sight_line
            col = theme.SIGHT_CLEAR if ov.sight_ok else theme.SIGHT_BLOCKED
            pygame.draw.line(surf, col, cam.to_screen(*a), cam.to_screen(*b), 3)
        for x, y in ov.candidates:
            circle(surf, theme.RING_REACH, cam.to_screen(x, y), 2)
        if ov.path:
            pygame.draw.lines(surf, theme.RULER, False, [cam.to_screen(*p) for p in ov.path], 2)
        if ov.marks:
            for lb in draw_marks(self, surf, ov.marks):  # their chips join the one layout
                x, y = cam.to_screen(lb.x, lb.y)
                places = [("midtop", (x, y + lb.dy)), ("midbottom", (x, y + lb.dy - 4))]
                # shy: a mark's words (a hint's tag, a ghost's distance) keep off the bases they
                # would hide while there is room round their anchor
                self.add_label(
                    self._shy(
                        self.text_label(
                            "mark", lb.text, places, lb.colour, PRI_MARK, lb.size, True, lb.colour, anchor=(x, y)
                        )
                    )
                )
        if ov.ghost is not None:  # an illegal one dashed and crossed: colour is never the only signal
            from game.ui.render.overlays import Shape

            col = theme.GHOST_OK if ov.ghost_ok else theme.GHOST_BAD
            bad = not ov.ghost_ok
            draw_marks(self, surf, [Shape(ov.ghost, (*col, 80), col, 2, dashed=bad, cross=bad)])
        if ov.ruler is not None:
            a, b, label = ov.ruler
            pa, pb = cam.to_screen(*a), cam.to_screen(*b)
            pygame.draw.line(surf, (0, 0, 0), pa, pb, 5)
            pygame.draw.line(surf, theme.RULER, pa, pb, 2)
            for p in (pa, pb):
                circle(surf, theme.RULER, p, 4)
            mx, my = (pa[0] + pb[0]) / 2, (pa[1] + pb[1]) / 2
            places = [("topleft", (mx + 8, my - 10)), ("bottomright", (mx - 8, my + 10))]
            self.add_label(self.text_label("ruler", label, places, theme.ACCENT, PRI_RULER, 15, True, anchor=(mx, my)))


def _objective_colours(state, index: int) -> tuple[tuple[int, int, int], tuple[int, int, int]]:
    """An objective's ring and marker colours: its holder's (R2: `state.objectives`, set at
    the end of each turn) or the neutral objective colours while nobody holds it."""
    holder = state.objectives[index] if index < len(state.objectives) else None
    if holder in (1, 2):
        col = theme.player_colour(state, holder)
        return col, theme.lighter(col, 0.3)
    return theme.OBJECTIVE_RING, theme.OBJECTIVE


def _health_words(state, u) -> str:
    """A unit's health in numbers: "damage 2 of 5" for one model, "7/10 health" for several
    (live models' health left of the whole unit's), "4/5 models" when each model has 1."""
    h = state.game.warscroll(u.warscroll).health
    live = u.live_models()
    if h > 1 and len(u.models) == 1:
        return _("damage {taken} of {health}").format(taken=u.models[0].damage, health=h)
    if h > 1:
        return _("{left}/{total} health").format(left=sum(h - m.damage for _k, m in live), total=h * len(u.models))
    if len(u.models) > 1:
        return _("{live}/{total} models").format(live=len(live), total=len(u.models))
    return ""


def corner_unit(room: int) -> pygame.Surface:
    """The rulers' unit ("in.") drawn to fit the `room`-pixel corner where they meet: in a smaller
    size when the language's word is wider (Japanese インチ), so that it is never cut off."""
    for size in (10, 9, 8, 7):
        unit = theme.text(_("in."), size, theme.TEXT_DIM)
        if unit.get_width() <= room:
            break
    return unit


class _LayerView:
    """A camera for drawing into the cached whole-board layer (same scale, board-local origin)."""

    def __init__(self, scale: float, ox: float, oy: float, margin: int) -> None:
        self.scale, self.ox, self.oy, self.margin = scale, ox, oy, margin

    def key(self) -> tuple:
        """What its `to_screen` depends on (the renderer caches screen points by it)."""
        return ("layer", self.scale, self.ox, self.oy, self.margin)

    def to_screen(self, x: float, y: float) -> tuple[float, float]:
        return self.ox + x * self.scale, self.oy - y * self.scale
