"""Import a battlefield drawn in the Tiled map editor (a .tmx file) as a Spellfield map (issue 23).

The convention (docs/maps.md tells it step by step):

* **Size.** The map's tile grid is the battlefield: `width x tilewidth` by `height x tileheight`
  pixels. One tile is one inch, unless the map has a `pixels_per_inch` property (a number),
  e.g. 32x32-pixel tiles with `pixels_per_inch = 16` make each tile 2". Without the property the
  tiles must be square. Orthogonal, finite maps only.
* **Map properties** (all optional): `id` (else made from the file name), `name` (else the file
  name in words), `description` (one line for the set-up screens), `pixels_per_inch`.
* **Layer "terrain"**: polygons, rectangles and ellipses (an ellipse becomes a
  `ELLIPSE_SIDES`-sided polygon). The object's Name is the terrain's name; its traits are
  boolean custom properties named `obscuring`, `impassable`, `cover` (every trait that
  `game.data.models.Terrain` allows; any other property is refused by name).
* **Layer "objectives"**: points (the objective is at the point), or ellipses and rectangles
  (at their centre). The Name is the objective's name.
* **Layer "deployment"**: one polygon or rectangle per player, with an integer property
  `player` (1 or 2); points in this layer are that zone's default unit anchors, in the layer's
  order (the first point is where the army's first unit is set up), each in the zone it lies in.
* Tiled's y axis points down the screen, the battlefield's up the table (player 1's edge, y = 0,
  is drawn at the bottom): y is flipped, so the battlefield looks in the game as it was drawn.
  Layer offsets and object rotation are applied. Layer names are matched without regard to
  case; other layers (tiles, images, notes) are ignored. Hidden objects count like the others.

What is read, and how safely:

* The file is read through `game.data.safe_io` with a cap of `MAX_TMX_BYTES` before any parsing.
* XML entities: a Tiled file never has a document type, so a file with `<!DOCTYPE` or `<!ENTITY`
  is refused before it is parsed; no entity is ever expanded (no "billion laughs", no external
  entity). Behind that check, this Python's expat (2.4.1 and later; 2.5.0 here) has its own
  amplification limits, and `xml.etree` never fetches external entities or DTDs.
* Only the object layers matter, so tilesets, tile layers and image layers are removed from the
  parsed tree before pytmx (the maintained Tiled reader) sees it: no image or external tileset
  file is opened and no compressed tile data is inflated.
* Every problem becomes one line of a `DataError` naming the .tmx file, the layer, the object
  (its id and name), the field, the value and the reason; all problems come at once.
* The result is checked like every map (`game.data.loader.load_map_data`: the schema and the
  geometric checks of `spellfield check`), and those messages name the Tiled objects too.

    bm = read_tmx("examples/maps/thornwall_pass.tmx")
    Path("thornwall_pass.toml").write_bytes(map_toml(bm))
"""

from __future__ import annotations

import math
import os
import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from xml.etree import ElementTree

from game.data.errors import DataError
from game.data.geocheck import polygon_problem
from game.data.loader import MAX_PROBLEMS, label_for, load_map_data, short_value
from game.data.models import BattleMap
from game.data.safe_io import read_regular_bytes

#: Largest .tmx file read (a battlefield of object layers is a few KiB; tile layers add more).
MAX_TMX_BYTES = 4 << 20
#: Sides of the polygon an ellipse of terrain or a zone becomes.
ELLIPSE_SIDES = 24
#: Decimal places of inches kept (a ten-thousandth of an inch).
PLACES = 4
#: The terrain traits, each a boolean property of a terrain object.
TRAITS = ("obscuring", "impassable", "cover")
#: Map properties the convention knows.
MAP_PROPERTIES = ("id", "name", "description", "pixels_per_inch")
#: The object layers read, in the order of the map file.
LAYERS = ("terrain", "objectives", "deployment")
#: Elements dropped before pytmx reads the tree (see the module docstring).
_DROPPED = ("tileset", "layer", "imagelayer")
_DOCTYPE = re.compile(rb"<!\s*(?:DOCTYPE|ENTITY)", re.IGNORECASE)
_FIELD = re.compile(r"map\.(terrain|objectives|deployment)\[(\d+)\]")


@dataclass(frozen=True)
class _Obj:
    """One Tiled object with what the XML says about its kind (pytmx does not keep it)."""

    layer: str
    kind: str  # rectangle, polygon, ellipse, point, polyline, text, tile
    tiled: Any  # the pytmx TiledObject

    @property
    def where(self) -> str:
        name = f" {self.tiled.name!r}" if self.tiled.name else ""
        return f'layer "{self.layer}", object {self.tiled.id}{name}'


def _kind(node: ElementTree.Element) -> str:
    if node.get("gid"):
        return "tile"
    for child in ("polygon", "polyline", "ellipse", "point", "text"):
        if node.find(child) is not None:
            return child
    return "rectangle"


def _parse_xml(raw: bytes, label: str) -> ElementTree.Element:
    if _DOCTYPE.search(raw):
        raise DataError(
            f"{label}: has a <!DOCTYPE> or <!ENTITY> declaration; Tiled never writes one, and entities are "
            "not expanded: save the map from Tiled again"
        )
    try:
        root = ElementTree.fromstring(raw)
    except ElementTree.ParseError as exc:
        line, col = getattr(exc, "position", (0, 0))
        reason = str(exc).split(":")[0]
        raise DataError(f"{label}: not a Tiled map: malformed XML at line {line}, column {col + 1}: {reason}") from None
    if root.tag != "map":
        raise DataError(f"{label}: not a Tiled map: the document is <{root.tag[:40]}>, not <map>")
    if root.get("orientation", "orthogonal") != "orthogonal":
        raise DataError(
            f"{label}: map orientation: {short_value(root.get('orientation'))} is not supported; use orthogonal"
        )
    if root.get("infinite", "0") not in ("0", ""):
        raise DataError(f"{label}: map infinite: an infinite map has no size; untick Infinite in the map properties")
    for parent in [root, *root.iter("group")]:
        for child in list(parent):
            if child.tag in _DROPPED:
                parent.remove(child)
    return root


def _pytmx_map(root: ElementTree.Element, label: str) -> Any:
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")  # pytmx imports pygame if it is there
    import pytmx

    tm = pytmx.TiledMap(image_loader=lambda *a, **k: lambda *a2, **k2: None)
    tm.filename = label
    try:
        tm.parse_xml(root)
    except Exception as exc:  # pytmx's own errors (a bad number, a reserved property name)
        text = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        raise DataError(f"{label}: Tiled's reader (pytmx) cannot read this map: {text[:200]}") from None
    return tm


def _bool(value: object) -> bool | None:
    if isinstance(value, bool):
        return value
    if isinstance(value, str) and value.strip().lower() in ("true", "false"):
        return value.strip().lower() == "true"
    return None


class _Converter:
    """Pixels of one Tiled map to inches of the battlefield, collecting problems."""

    def __init__(self, tm: Any, label: str) -> None:
        self.label = label
        self.problems: list[str] = []
        props = dict(tm.properties)
        for key in props:
            if key not in MAP_PROPERTIES:
                self.problem(f"map property {key!r}: unknown; the map properties are {', '.join(MAP_PROPERTIES)}")
        tw, th = int(tm.tilewidth), int(tm.tileheight)
        self.px_w, self.px_h = int(tm.width) * tw, int(tm.height) * th
        ppi = props.get("pixels_per_inch")
        if ppi is None:
            if tw != th or tw <= 0:
                raise DataError(
                    f"{label}: map tile size: {tw}x{th} pixels is not square; give the map a pixels_per_inch property"
                )
            self.ppi = float(tw)
        else:
            try:
                self.ppi = float(ppi)
            except (TypeError, ValueError):
                self.ppi = math.nan
            if not (math.isfinite(self.ppi) and self.ppi > 0):
                raise DataError(f"{label}: map property pixels_per_inch: {short_value(ppi)} is not a number above 0")
        self.width = round(self.px_w / self.ppi, PLACES)
        self.height = round(self.px_h / self.ppi, PLACES)
        if not (0 < self.width <= 120 and 0 < self.height <= 120):
            raise DataError(
                f"{label}: map size: {self.px_w}x{self.px_h} pixels at {self.ppi:g} pixels per inch is "
                f"{self.width:g}x{self.height:g} inches; a battlefield is at most 120x120 inches "
                "(change the map size or pixels_per_inch)"
            )
        self.props = props
        self.sources: dict[str, list[_Obj]] = {}  # the objects each terrain piece, objective, zone came from

    def problem(self, text: str, obj: _Obj | None = None) -> None:
        self.problems.append(f"{self.label}: {obj.where + ': ' if obj else ''}{text}")

    def inches(self, x_px: float, y_px: float) -> tuple[float, float]:
        """A pixel position (y down) as inches on the battlefield (y up)."""
        return round(x_px / self.ppi, PLACES), round(self.height - y_px / self.ppi, PLACES)

    def on_map(self, obj: _Obj, pts: Sequence[tuple[float, float]], strict: bool = False) -> bool:
        for x, y in pts:
            inside = (
                (0 < x < self.width and 0 < y < self.height)
                if strict
                else (-1e-9 <= x <= self.width + 1e-9 and -1e-9 <= y <= self.height + 1e-9)
            )
            if not inside:
                px = (round(x * self.ppi, 1), round((self.height - y) * self.ppi, 1))
                self.problem(
                    f"position: ({px[0]:g}, {px[1]:g}) pixels lies off the {self.px_w}x{self.px_h}-pixel map "
                    f"({x:g}, {y:g} inches on a {self.width:g}x{self.height:g} battlefield)",
                    obj,
                )
                return False
        return True


def _outline(c: _Converter, obj: _Obj, offset: tuple[float, float]) -> list[tuple[float, float]] | None:
    """The area an object covers as a polygon in inches, or None after naming the problem."""
    import pytmx

    o = obj.tiled
    if obj.kind in ("point", "polyline", "text", "tile"):
        hint = {"polyline": "close it into a polygon", "tile": "draw a polygon or rectangle instead"}
        c.problem(f"shape: a {obj.kind} has no area; {hint.get(obj.kind, 'draw a polygon or rectangle')}", obj)
        return None
    if obj.kind == "polygon":
        pts = list(o.points)
        if len(pts) < 3:
            c.problem(f"points: a polygon needs at least 3 points, got {len(pts)}", obj)
            return None
    else:
        w, h = float(o.width), float(o.height)
        if w <= 0 or h <= 0:
            c.problem(f"size: a {obj.kind} of {w:g}x{h:g} pixels has no area", obj)
            return None
        if obj.kind == "ellipse":
            cx, cy = o.x + w / 2, o.y + h / 2
            pts = [
                pytmx.pytmx.Point(
                    cx + w / 2 * math.cos(2 * math.pi * k / ELLIPSE_SIDES),
                    cy + h / 2 * math.sin(2 * math.pi * k / ELLIPSE_SIDES),
                )
                for k in range(ELLIPSE_SIDES)
            ]
        else:
            pts = list(o.as_points)
    if o.rotation:  # Tiled rotates an object about its (x, y)
        pts = pytmx.pytmx.rotate(pts, pytmx.pytmx.Point(o.x, o.y), o.rotation)
    out = [c.inches(x + offset[0], y + offset[1]) for x, y in pts]
    if not c.on_map(obj, out):
        return None
    why = polygon_problem(out)
    if why:
        c.problem(f"points: not a simple polygon: {why}", obj)
        return None
    return out


def _centre(c: _Converter, obj: _Obj, offset: tuple[float, float]) -> tuple[float, float] | None:
    import pytmx

    o = obj.tiled
    if obj.kind == "point":
        x, y = o.x, o.y
    elif obj.kind in ("ellipse", "rectangle"):
        x, y = o.x + float(o.width) / 2, o.y + float(o.height) / 2
        if o.rotation:
            ((x, y),) = pytmx.pytmx.rotate([pytmx.pytmx.Point(x, y)], pytmx.pytmx.Point(o.x, o.y), o.rotation)
    else:
        c.problem(f"shape: an objective is a point (or an ellipse or rectangle at its centre), not a {obj.kind}", obj)
        return None
    p = c.inches(x + offset[0], y + offset[1])
    return p if c.on_map(obj, [p], strict=True) else None


def _no_other_properties(c: _Converter, obj: _Obj, known: Sequence[str], what: str) -> None:
    for key in obj.tiled.properties:
        if key not in known:
            allowed = f"the {what} properties are {', '.join(known)}" if known else f"{what} take no properties"
            c.problem(f"property {key!r}: unknown; {allowed}", obj)


def _terrain(c: _Converter, obj: _Obj, offset: tuple[float, float]) -> dict[str, Any] | None:
    o = obj.tiled
    traits: list[str] = []
    for key, value in o.properties.items():
        if key not in TRAITS:
            c.problem(
                f"property {key!r}: unknown trait; the terrain traits are {', '.join(TRAITS)} (true or false)", obj
            )
            continue
        on = _bool(value)
        if on is None:
            c.problem(f"property {key!r}: {short_value(value)} is not true or false", obj)
        elif on:
            traits.append(key)
    if not o.name:
        c.problem("name: a terrain piece needs a name (the Name field in Tiled)", obj)
    points = _outline(c, obj, offset)
    if points is None or not o.name:
        return None
    return {"name": str(o.name), "traits": sorted(traits, key=TRAITS.index), "points": [list(p) for p in points]}


def _read(c: _Converter, layers: dict[str, list[_Obj]], offsets: dict[str, tuple[float, float]]) -> dict[str, Any]:
    terrain, t_objs = [], []
    for obj in layers["terrain"]:
        t = _terrain(c, obj, offsets["terrain"])
        if t is not None:
            terrain.append(t)
            t_objs.append(obj)
    objectives, o_objs = [], []
    for obj in layers["objectives"]:
        _no_other_properties(c, obj, (), "objectives")
        p = _centre(c, obj, offsets["objectives"])
        if p is not None:
            objectives.append({"name": str(obj.tiled.name or ""), "x": p[0], "y": p[1]})
            o_objs.append(obj)
    zones, z_objs, anchors = [], [], []
    for obj in layers["deployment"]:
        if obj.kind == "point":
            _no_other_properties(c, obj, (), "anchor points")
            p = c.inches(obj.tiled.x + offsets["deployment"][0], obj.tiled.y + offsets["deployment"][1])
            if c.on_map(obj, [p]):
                anchors.append((obj, p))
            continue
        _no_other_properties(c, obj, ("player",), "deployment zone")
        raw = obj.tiled.properties.get("player")
        player = raw if isinstance(raw, int) and not isinstance(raw, bool) else None
        if isinstance(raw, str) and raw.strip() in ("1", "2"):
            player = int(raw.strip())
        if player not in (1, 2):
            got = "none" if raw is None else short_value(raw)
            c.problem(f"property 'player': {got}; a deployment zone needs a player property of 1 or 2", obj)
        points = _outline(c, obj, offsets["deployment"])
        if points is not None and player in (1, 2):
            zones.append({"player": player, "points": [list(p) for p in points], "anchors": []})
            z_objs.append(obj)
    if anchors:
        from shapely.geometry import Point, Polygon

        polys = [Polygon(z["points"]) for z in zones]
        for obj, (x, y) in anchors:
            home = next((z for z, poly in zip(zones, polys) if poly.covers(Point(x, y))), None)
            if home is None:
                c.problem(f"position: the anchor point at ({x:g}, {y:g}) inches lies in no deployment zone", obj)
            else:
                home["anchors"].append([x, y])
    for z in zones:
        if not z["anchors"]:
            del z["anchors"]
    c.sources = {"terrain": t_objs, "objectives": o_objs, "deployment": z_objs}
    return {"terrain": terrain, "objectives": objectives, "deployment": zones}


def _slug(stem: str) -> str:
    s = re.sub(r"[^a-z0-9_]+", "_", stem.lower()).strip("_")[:50] or "map"
    return s if s[0].isalpha() else f"map_{s}"


def tmx_map_data(raw: bytes, label: str, stem: str = "map") -> tuple[dict[str, Any], dict[str, list[_Obj]]]:
    """The map TOML's data (`{"map": {...}}`) for the bytes of a .tmx file, and the Tiled objects
    each terrain piece, objective and zone came from (for naming them in later messages).
    Raises `DataError` with every problem found."""
    root = _parse_xml(raw, label)
    tm = _pytmx_map(root, label)
    c = _Converter(tm, label)
    xml_groups = list(root.iter("objectgroup"))  # pytmx reads them in this same order
    groups = [g for g in tm.layers if type(g).__name__ == "TiledObjectGroup"]
    layers: dict[str, list[_Obj]] = {}
    offsets: dict[str, tuple[float, float]] = {}
    for node, g in zip(xml_groups, groups):
        key = str(g.name or "").strip().lower()
        if key not in LAYERS:
            continue
        if key in layers:
            c.problem(f'layer "{g.name}": a second object layer named {key!r}; merge the two')
            continue
        kinds = [_kind(n) for n in node.findall("object")]
        layers[key] = [_Obj(str(g.name), k, o) for k, o in zip(kinds, g)]
        offsets[key] = (float(g.offsetx), float(g.offsety))
    missing = [name for name in LAYERS if name not in layers]
    if missing:
        have = ", ".join(repr(str(g.name)) for g in groups) or "none"
        raise DataError(
            [
                f'{label}: layer "{name}": missing; add an object layer named {name} (object layers: {have})'
                for name in missing
            ]
        )
    body = _read(c, layers, offsets)
    map_id = c.props.get("id")
    head: dict[str, Any] = {
        "id": _slug(stem) if map_id is None else map_id,
        "name": c.props.get("name") or stem.replace("_", " ").replace("-", " ").strip().title()[:60] or "My Map",
    }
    if c.props.get("description"):
        head["description"] = c.props["description"]
    head |= {"width": c.width, "height": c.height}
    if c.problems:
        raise DataError(
            c.problems[:MAX_PROBLEMS]
            + (
                [f"{label}: ... and {len(c.problems) - MAX_PROBLEMS} more problems"]
                if len(c.problems) > MAX_PROBLEMS
                else []
            )
        )
    return {"map": head | body}, c.sources


def _name_objects(problems: list[str], label: str, sources: dict[str, list[_Obj]]) -> list[str]:
    """Add the Tiled layer and object to each `map.terrain[i]`-style field a message names."""

    def where(m: re.Match[str]) -> str:
        objs = sources.get(m.group(1), [])
        i = int(m.group(2))
        return f"{m.group(0)} ({objs[i].where})" if i < len(objs) else m.group(0)

    out = []
    for p in problems:
        p = p.replace("map.id", 'the map property "id"', 1) if ": map.id" in p else p
        p = p.replace("map.name", 'the map property "name"', 1) if ": map.name" in p else p
        out.append(_FIELD.sub(where, p))
    return out


def read_tmx(path: str | os.PathLike[str], label: str | None = None) -> BattleMap:
    """Read a Tiled .tmx file as a checked `BattleMap` (the checks of every map file)."""
    label = label or label_for(path)
    raw = read_regular_bytes(path, MAX_TMX_BYTES, label, DataError)
    data, sources = tmx_map_data(raw, label, Path(os.fspath(path)).stem)
    try:
        return load_map_data(data, label)
    except DataError as exc:
        raise DataError(_name_objects(exc.problems, label, sources)) from None


def _num(v: float) -> str:
    return str(int(v)) if float(v).is_integer() and abs(v) < 1e15 else repr(float(v))


def _value(v: Any) -> str:
    """One TOML value: strings through tomli-w (its escaping), numbers and point lists on one line."""
    import tomli_w

    if isinstance(v, str):
        return tomli_w.dumps({"v": v})[4:].rstrip("\n")
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, (int, float)):
        return _num(v)
    return "[" + ", ".join(_value(x) for x in v) + "]"


def map_toml(bm: BattleMap, source: str | None = None) -> bytes:
    """A map file (TOML) for `bm` that `spellfield check` accepts, laid out like the shipped maps
    (one line per point list); `source` is named in a comment. Read back, it is `bm` again."""
    import tomllib

    d = bm.model_dump(mode="json")
    head = {k: d[k] for k in ("id", "name")}
    if bm.description:  # kept out of model_dump (models.BattleMap): written here
        head["description"] = bm.description
    head |= {k: d[k] for k in ("width", "height")}
    lines = [f"# Imported from {Path(source).name} by spellfield import-map.", ""] if source else []
    lines += ["[map]", *(f"{k} = {_value(v)}" for k, v in head.items())]
    for section in ("terrain", "objectives", "deployment"):
        for item in d[section]:
            lines += ["", f"[[map.{section}]]"]
            lines += [f"{k} = {_value(v)}" for k, v in item.items() if not (k == "anchors" and not v)]
    text = "\n".join(lines) + "\n"
    back = tomllib.loads(text)["map"]
    if BattleMap.model_validate(back) != bm or back.get("description", "") != bm.description:
        raise DataError(f"{bm.id}: the map file written for it does not read back the same (a bug)")
    return text.encode("utf-8")
