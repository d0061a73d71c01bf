"""The battlefield, drawn to scale: one inch is `camera.scale` pixels, bases from millimetres.

Two layers:
- a static layer (cloth, deployment zones, 1" and 6" grid, terrain by trait, objectives with
  their 3" rings, edge rulers), rendered into a cached surface only when the camera or the
  viewport changes;
- a dynamic layer drawn every frame: manifestations, bases with role icons, badges, health
  bars, and the overlays the scene asks for (rings, sight line, ruler, ghost, highlights).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

import pygame
import shapely
from shapely.geometry import LineString, Polygon

from game.rules import query
from game.ui import theme
from game.ui.camera import Camera
from game.ui.render.icons import icon, main_role, roles_of
from game.ui.render.overlays import draw_marks
from game.ui.render.primitives import circle

OBJECTIVE_RANGE = query.OBJECTIVE_RANGE  # R2: an objective's control ring (the engine's range)


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
            fill, edge, _ = theme.TERRAIN[kind]
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
            if s >= 9:
                tags = ", ".join(sorted(traits)) or "open ground"
                lab = theme.text(p["name"], 12, theme.TEXT)
                tag = theme.text(tags, 11, theme.ACCENT)
                lx, ly = cam.to_screen(*p["label"])
                surf.blit(lab, (lx - lab.get_width() / 2, ly - lab.get_height()))
                surf.blit(tag, (lx - tag.get_width() / 2, ly))
        # objectives with their 3" control rings
        for o in bmap.objectives:
            cx, cy = cam.to_screen(o.x, o.y)
            circle(surf, theme.OBJECTIVE_RING, (cx, cy), OBJECTIVE_RANGE * s, 2)
            r = max(4, round(0.8 * s))
            circle(surf, (40, 36, 20), (cx, cy), r)
            circle(surf, theme.OBJECTIVE, (cx, cy), r, 2)
            circle(surf, theme.OBJECTIVE, (cx, cy), max(2, r // 3))
            if s >= 9 and o.name:
                lab = theme.text(o.name, 11, theme.OBJECTIVE)
                surf.blit(lab, (cx - lab.get_width() / 2, cy + OBJECTIVE_RANGE * s + 2))
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
        unit = theme.text('inches', 10, theme.TEXT_DIM)
        surf.blit(unit, (max(0, left.x - 8), by + 10))
        return bottom, left

    # --- dynamic layer ---------------------------------------------------------------------

    def draw(self, surf: pygame.Surface, state, ov: Overlays | None = None, version: Any = None) -> None:
        """Draw the battlefield into `surf` (viewport-sized). `version` names the state's
        revision: the cached board layer is redrawn when it changes (None: every frame)."""
        ov = ov or Overlays()
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
            # keep only the two opaque strips: cheap plain blits every frame
            self._rulers_surf = [
                (r.topleft, rs.subsurface(r.clip(vp)).copy())
                for r in strips
                if r.clip(vp).size[0] > 0 and r.clip(vp).size[1] > 0
            ]
            self._rulers_key = key
        for at, strip in self._rulers_surf:
            surf.blit(strip, at)
        self._blocked_terrain(surf, state, ov)
        self._marks(surf, state, ov)
        self._overlays(surf, state, ov)

    def _marks(self, surf, state, ov: Overlays) -> None:
        """Per-frame marks on bases: legal-target halos, selection, hover, the name label."""
        cam = self.camera
        for uid, u in state.units.items():
            hl = ov.highlight_units.get(uid)
            sel = ov.selected is not None and ov.selected[0] == uid
            hov = ov.hovered == uid
            if not (hl or sel or hov) or not u.alive:
                continue
            r = (state.game.warscroll(u.warscroll).base.radius_in or 0.5) * cam.scale
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
                t = theme.text(u.name, 13, theme.TEXT, bold=True)
                bg = pygame.Rect(0, 0, t.get_width() + 6, t.get_height() + 2)
                bg.midtop = (first[0], first[1] + r + 8)
                bg.clamp_ip(surf.get_rect())  # whole by the field's edge, not cut by the panel
                surf.fill((0, 0, 0), bg)
                surf.blit(t, (bg.x + 3, bg.y + 1))
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
        return [self.camera.to_screen(x, y) for x, y in list(shape.exterior.coords)[:-1]]

    def _draw_shape(self, surf, shape, fill_rgba, edge, width=2) -> pygame.Rect:
        """A Circle or Polygon (inches) with a translucent fill; returns its screen box."""
        cam = self.camera
        from game.geometry.shapes import Circle

        if isinstance(shape, Circle):
            cx, cy = cam.to_screen(shape.x, shape.y)
            r = shape.r * cam.scale
            box = pygame.Rect(0, 0, 2 * r + 4, 2 * r + 4)
            box.center = (round(cx), round(cy))
            if box.w < 2000:
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
        if box.w < 2000 and box.h < 2000:
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
        label = scroll.name + (" [PREDATORY]" if scroll.predatory else "")
        t = theme.text(label, 12, theme.PREDATORY if scroll.predatory else theme.TEXT, bold=scroll.predatory)
        surf.blit(t, (cx - t.get_width() / 2, box.top - t.get_height()))
        if scroll.predatory:
            s = max(8, min(18, box.h // 3))
            pygame.draw.polygon(
                surf, theme.PREDATORY, [(cx - s / 2, cy - s / 2), (cx + s / 2, cy - s / 2), (cx, cy + s / 2)]
            )
        info = []
        if m.commander and m.commander != m.player:
            info.append(f"commanded by P{m.commander}")
        ctrl = m.flags.get("controlled_by") if isinstance(m.flags, dict) else None
        if ctrl:  # [unit, model] (E7)
            uid = ctrl[0] if isinstance(ctrl, (list, tuple)) else ctrl
            info.append(f"controlled by {state.units[uid].name if uid in state.units else uid}")
        elif scroll.predatory and m.flags.get("wild"):
            info.append("wild")
        if info:
            t2 = theme.text(", ".join(info), 11, theme.lighter(commander))
            surf.blit(t2, (cx - t2.get_width() / 2, box.bottom))

    def _unit(self, surf, state, uid: str, u) -> None:
        cam = self.camera
        ws = state.game.warscroll(u.warscroll)
        r_in = ws.base.radius_in or 0.5
        r = r_in * cam.scale
        col = theme.player_colour(state, u.player)
        roles = roles_of(ws)
        role = main_role(roles)
        isz = int(r * 1.3)
        ic = icon(role, isz, (250, 250, 245)) if role and isz >= 6 else None
        first = None
        for _i, m in u.live_models():
            cx, cy = cam.to_screen(m.x, m.y)
            if first is None:
                first = (cx, cy)
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
        if first is not None:
            self._badge(surf, state, uid, u, ws, first, r)

    def _badge(self, surf, state, uid, u, ws, at, r) -> None:
        """WIZARD / PRIEST badge: power level, what is left this phase, unbinds, ritual points."""
        wl, pl = ws.wizard_level, ws.priest_level
        if not (wl or pl):
            return
        try:
            left = query.power_left(state, uid)
            unb = query.unbinds_left(state, uid) if wl else 0
        except Exception:
            left, unb = max(wl, pl), wl
        parts = []
        if wl:
            parts.append((f"W{wl}", theme.WIZARD))
        if pl:
            parts.append((f"P{pl}", theme.PRIEST))
        x = at[0] - r
        y = at[1] - r - 16
        for label, col in parts:
            t = theme.text(label, 12, (20, 20, 20), bold=True)
            box = pygame.Rect(x, y, t.get_width() + 6, 14)
            pygame.draw.rect(surf, col, box, border_radius=4)
            surf.blit(t, (box.x + 3, box.y + (14 - t.get_height()) / 2))
            x = box.right + 2
        n = max(wl, pl)
        for k in range(n):  # one pip per use: filled = still available this phase
            c = (x + 5 + k * 9, y + 7)
            circle(surf, theme.TEXT, c, 3.5, 0 if k < left else 1)
        x += 4 + n * 9
        extra = []
        if wl:
            extra.append(f"U{max(0, unb)}")
        if pl:
            extra.append(f"RP{u.ritual_points}")
        if extra:
            t = theme.text(" ".join(extra), 11, theme.TEXT)
            bg = pygame.Rect(x, y, t.get_width() + 4, 14)
            surf.fill((0, 0, 0), bg)
            surf.blit(t, (x + 2, y + (14 - t.get_height()) / 2))

    def _overlays(self, surf, state, ov: Overlays) -> None:
        cam = self.camera
        for ring in ov.rings:
            c = cam.to_screen(ring.x, ring.y)
            rad = ring.radius * cam.scale
            if rad > 1:
                circle(surf, ring.colour, c, rad, ring.width)
                if ring.label:
                    t = theme.text(ring.label, 12, ring.colour, bold=True)
                    # label at the ring's top-right, on a dark chip for readability
                    ang = -math.pi / 4
                    lx, ly = c[0] + rad * math.cos(ang), c[1] + rad * math.sin(ang)
                    bg = pygame.Rect(lx + 2, ly - t.get_height(), t.get_width() + 4, t.get_height())
                    surf.fill((0, 0, 0), bg)
                    surf.blit(t, (bg.x + 2, bg.y))
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
            draw_marks(self, surf, ov.marks)
        if ov.ghost is not None:
            col = theme.GHOST_OK if ov.ghost_ok else theme.GHOST_BAD
            self._draw_shape(surf, ov.ghost, (*col, 80), col, 2)
        if ov.ruler is not None:
            a, b, label = ov.ruler
            pa, pb = cam.to_screen(*a), cam.to_screen(*b)
            pygame.draw.line(surf, (0, 0, 0), pa, pb, 5)
            pygame.draw.line(surf, theme.RULER, pa, pb, 2)
            for p in (pa, pb):
                circle(surf, theme.RULER, p, 4)
            t = theme.text(label, 15, theme.ACCENT, bold=True)
            mx, my = (pa[0] + pb[0]) / 2, (pa[1] + pb[1]) / 2
            bg = pygame.Rect(mx + 8, my - 10, t.get_width() + 8, t.get_height() + 4)
            surf.fill((0, 0, 0), bg)
            surf.blit(t, (bg.x + 4, bg.y + 2))


class _LayerView:
    """A camera for drawing into the cached whole-board layer (same scale, board-local origin)."""

    def __init__(self, scale: float, ox: float, oy: float, margin: int) -> None:
        self.scale, self.ox, self.oy, self.margin = scale, ox, oy, margin

    def to_screen(self, x: float, y: float) -> tuple[float, float]:
        return self.ox + x * self.scale, self.oy - y * self.scale
