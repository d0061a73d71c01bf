"""The battlefield as the rules see it: size, terrain index, objectives and deployment zones.

Built once per `Game` from a validated `BattleMap`; immutable afterwards.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from shapely.geometry import Polygon

from game.data.models import BattleMap
from game.geometry.terrain import TerrainIndex, TerrainPiece


@dataclass(frozen=True)
class Battlefield:
    map: BattleMap
    terrain: TerrainIndex = field(repr=False)
    impassable: tuple[Polygon, ...] = field(repr=False)
    zones: dict[int, Polygon] = field(repr=False)

    @classmethod
    def from_map(cls, m: BattleMap) -> "Battlefield":
        pieces = [TerrainPiece(t.name, Polygon(t.points), frozenset(t.traits)) for t in m.terrain]
        return cls(
            map=m,
            terrain=TerrainIndex(pieces),
            impassable=tuple(p.polygon for p in pieces if "impassable" in p.traits),
            zones={z.player: Polygon(z.points) for z in m.deployment},
        )

    @property
    def width(self) -> float:
        return self.map.width

    @property
    def height(self) -> float:
        return self.map.height
