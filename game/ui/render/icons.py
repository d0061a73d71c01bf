"""Role icons drawn procedurally (no image files): HERO, WIZARD, PRIEST, INFANTRY, CAVALRY,
MONSTER, FLY, and the board's label icons (TERRAIN, OBJECTIVE, MANIFESTATION, CONTROL) a label
collapses to at low zoom. Each is a small line drawing, cached per role, size and colour."""

from __future__ import annotations

import math
from functools import lru_cache

import pygame

ROLES = ("HERO", "WIZARD", "PRIEST", "INFANTRY", "CAVALRY", "MONSTER", "FLY")


def _star(cx, cy, r_out, r_in, points):
    pts = []
    for i in range(points * 2):
        r = r_out if i % 2 == 0 else r_in
        a = -math.pi / 2 + i * math.pi / points
        pts.append((cx + r * math.cos(a), cy + r * math.sin(a)))
    return pts


@lru_cache(maxsize=512)
def icon(role: str, size: int, colour: tuple[int, int, int]) -> pygame.Surface:
    """A `size` x `size` transparent surface with the role's symbol."""
    s = pygame.Surface((size, size), pygame.SRCALPHA)
    c = size / 2
    w = max(1, size // 9)
    col = colour
    if role == "WIZARD":  # a four-pointed spark
        pygame.draw.polygon(s, col, _star(c, c, size * 0.46, size * 0.14, 4))
    elif role == "PRIEST":  # a sun: disc and rays
        pygame.draw.circle(s, col, (c, c), size * 0.2)
        for i in range(8):
            a = i * math.pi / 4
            pygame.draw.line(
                s,
                col,
                (c + size * 0.28 * math.cos(a), c + size * 0.28 * math.sin(a)),
                (c + size * 0.46 * math.cos(a), c + size * 0.46 * math.sin(a)),
                w,
            )
    elif role == "HERO":  # a crown
        pts = [
            (size * 0.1, size * 0.8),
            (size * 0.1, size * 0.3),
            (size * 0.32, size * 0.55),
            (c, size * 0.15),
            (size * 0.68, size * 0.55),
            (size * 0.9, size * 0.3),
            (size * 0.9, size * 0.8),
        ]
        pygame.draw.polygon(s, col, pts)
    elif role == "INFANTRY":  # crossed blades
        pygame.draw.line(s, col, (size * 0.18, size * 0.18), (size * 0.82, size * 0.82), w + 1)
        pygame.draw.line(s, col, (size * 0.82, size * 0.18), (size * 0.18, size * 0.82), w + 1)
    elif role == "CAVALRY":  # a horseshoe
        rect = pygame.Rect(size * 0.15, size * 0.12, size * 0.7, size * 0.76)
        pygame.draw.arc(s, col, rect, -0.35, math.pi + 0.35, w + 1)
        pygame.draw.line(s, col, (size * 0.2, size * 0.55), (size * 0.2, size * 0.88), w + 1)
        pygame.draw.line(s, col, (size * 0.8, size * 0.55), (size * 0.8, size * 0.88), w + 1)
    elif role == "MONSTER":  # three claw marks
        for k in (-1, 0, 1):
            x = c + k * size * 0.24
            pygame.draw.line(s, col, (x + size * 0.12, size * 0.12), (x - size * 0.12, size * 0.88), w + 1)
    elif role == "FLY":  # wings
        rect_l = pygame.Rect(0, size * 0.25, size * 0.55, size * 0.6)
        rect_r = pygame.Rect(size * 0.45, size * 0.25, size * 0.55, size * 0.6)
        pygame.draw.arc(s, col, rect_l, math.pi * 0.1, math.pi * 0.9, w + 1)
        pygame.draw.arc(s, col, rect_r, math.pi * 0.1, math.pi * 0.9, w + 1)
    elif role == "TERRAIN":  # two peaks
        big = [(size * 0.05, size * 0.85), (size * 0.38, size * 0.2), (size * 0.7, size * 0.85)]
        pygame.draw.polygon(s, col, big)
        small = [(size * 0.45, size * 0.85), (size * 0.7, size * 0.4), (size * 0.95, size * 0.85)]
        pygame.draw.polygon(s, col, small, w)
    elif role == "OBJECTIVE":  # a pennant on a pole
        pygame.draw.line(s, col, (size * 0.25, size * 0.1), (size * 0.25, size * 0.92), w + 1)
        pygame.draw.polygon(s, col, [(size * 0.25, size * 0.12), (size * 0.88, size * 0.3), (size * 0.25, size * 0.5)])
    elif role == "MANIFESTATION":  # a six-pointed burst
        pygame.draw.polygon(s, col, _star(c, c, size * 0.48, size * 0.2, 6))
    elif role == "CONTROL":  # a ring held by a dot: who holds it
        pygame.draw.circle(s, col, (c, c), size * 0.42, w + 1)
        pygame.draw.circle(s, col, (c, c), size * 0.16)
    else:
        pygame.draw.circle(s, col, (c, c), size * 0.2)
    return s


def roles_of(warscroll) -> list[str]:
    """The role keywords of a warscroll, WIZARD (n)/PRIEST (n) as WIZARD/PRIEST."""
    out = []
    for k in warscroll.keywords:
        base = k.split(" (")[0]
        if base in ROLES and base not in out:
            out.append(base)
    return out


def main_role(roles: list[str]) -> str:
    """The symbol drawn in the middle of the base."""
    for r in ("WIZARD", "PRIEST", "MONSTER", "CAVALRY", "HERO", "INFANTRY"):
        if r in roles:
            return r
    return roles[0] if roles else ""
