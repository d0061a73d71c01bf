"""Battlefield geometry (G1-G4): exact measuring, visibility, edge contact, placement.

Pure functions on inches.  No pygame or pymunk here, and no import of game.rules
or game.data: callers pass plain values.
"""

from .measure import TOL, distance, overlaps, swept_hits, touches_edge, wholly_within, within
from .nearby import BaseIndex
from .placement import placement_problems
from .shapes import Circle, Shape, polygon_at, to_shapely
from .terrain import TerrainIndex, TerrainPiece
from .visibility import Sight, visible

__all__ = [
    "TOL",
    "Circle",
    "Shape",
    "polygon_at",
    "to_shapely",
    "distance",
    "within",
    "wholly_within",
    "overlaps",
    "touches_edge",
    "swept_hits",
    "TerrainPiece",
    "TerrainIndex",
    "Sight",
    "visible",
    "BaseIndex",
    "placement_problems",
]
