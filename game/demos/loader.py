"""Find, read and validate demonstration files (maps/demos/*.toml, shipped as game.maps/demos).

Every problem is a `DataError` naming the file and the field, e.g.
``maps/demos/m3_miscast.toml: step[1].action: CastSpell: unknown field(s) spel``.
"""

from __future__ import annotations

import dataclasses
import os
from importlib import resources
from pathlib import Path
from typing import Any

from game.data.errors import DataError
from game.data.loader import Source, label_for, read_toml, validate
from game.demos.schema import DemoFile

PACKAGE = "game.maps"
FOLDER = "demos"


def _folder():
    return resources.files(PACKAGE) / FOLDER


def demo_sources() -> dict[str, Any]:
    """Shipped demonstration files by name (the file name without .toml), sorted."""
    try:
        entries = [e for e in _folder().iterdir() if e.name.endswith(".toml")]
    except (FileNotFoundError, NotADirectoryError, OSError):
        return {}
    return {e.name[:-5]: e for e in sorted(entries, key=lambda e: e.name)}


def list_demos() -> list[str]:
    return list(demo_sources())


def load_demo(name_or_path: str | os.PathLike[str] | Source) -> DemoFile:
    """A demonstration by shipped name (e.g. "m3_miscast") or by path. Raises `DataError`."""
    src: Any = name_or_path
    label: str
    if isinstance(name_or_path, str) and not name_or_path.endswith(".toml") and os.sep not in name_or_path:
        found = demo_sources().get(name_or_path)
        if found is None:
            known = ", ".join(list_demos()) or "none"
            raise DataError(f"no demonstration named {name_or_path!r}; known: {known}")
        src, label = found, f"maps/demos/{name_or_path}.toml"
    else:
        label = label_for(name_or_path)
        if isinstance(name_or_path, (str, os.PathLike)):
            src = Path(name_or_path)
    demo = validate(DemoFile, read_toml(src, label), label)
    problems = cross_check(demo, label)
    if problems:
        raise DataError(problems)
    return demo


def load_all() -> dict[str, DemoFile]:
    """Every shipped demonstration; all problems of all files in one DataError."""
    out, problems = {}, []
    for name in list_demos():
        try:
            out[name] = load_demo(name)
        except DataError as exc:
            problems.extend(exc.problems)
    if problems:
        raise DataError(problems)
    return out


def cross_check(demo: DemoFile, label: str) -> list[str]:
    """What pydantic cannot see: ids of content, actions and events, and ids named in facts."""
    from game.data.content import default_content, list_maps
    from game.rules import Action, Event

    content = default_content()
    out: list[str] = []
    if demo.battlefield.map is not None and demo.battlefield.map not in list_maps():
        out.append(f"{label}: battlefield.map: unknown map {demo.battlefield.map!r}; known: {', '.join(list_maps())}")
    if demo.demo.armies:
        for i, a in enumerate(demo.demo.armies):
            if a not in content.armies:
                out.append(f"{label}: demo.armies[{i}]: unknown army {a!r}; known: {', '.join(sorted(content.armies))}")
    for i, u in enumerate(demo.unit):
        if u.warscroll not in content.warscrolls:
            out.append(f"{label}: unit[{i}].warscroll: unknown warscroll {u.warscroll!r}")
    for i, m in enumerate(demo.manifestation):
        if m.scroll not in content.manifestations:
            out.append(
                f"{label}: manifestation[{i}].scroll: unknown manifestation {m.scroll!r}; "
                f"known: {', '.join(sorted(content.manifestations))}"
            )
    if not out:
        out.extend(battlefield_problems(demo, label))
    if not out:
        out.extend(_summonable(demo, label))
    if not out:
        out.extend(position_problems(demo, label))
    things = {u.id for u in demo.unit} | {m.id for m in demo.manifestation}

    def facts(f, where: str) -> None:
        for key in ("damage", "ritual_points", "alive", "commander", "controlled_by", "at", "power_left"):
            for thing in getattr(f, key):
                if thing not in things and not thing.startswith("m"):  # summoned ones get fresh ids (m1, m2...)
                    out.append(f"{label}: {where}.{key}: {thing!r} is not a unit or manifestation of this demo")

    for i, st in enumerate(demo.step):
        where = f"step[{i}]"
        try:
            Action.from_dict(st.action)
        except ValueError as exc:
            out.append(f"{label}: {where}.action: {exc}")
        for j, e in enumerate(st.expect.events):
            kind = Event.registry.get(e["type"])
            if kind is None:
                out.append(f"{label}: {where}.expect.events[{j}].type: unknown event type {e['type']!r}")
                continue
            names = {f.name for f in dataclasses.fields(kind)}
            extra = sorted(set(e) - names - {"type"})
            if extra:
                out.append(
                    f"{label}: {where}.expect.events[{j}]: {e['type']} has no field(s) {', '.join(extra)}; "
                    f"fields: {', '.join(sorted(names))}"
                )
        for j, t in enumerate(st.expect.absent):
            if t not in Event.registry:
                out.append(f"{label}: {where}.expect.absent[{j}]: unknown event type {t!r}")
        facts(st.expect, f"{where}.expect")
        for j, r in enumerate(st.show.rings):
            if r.around not in things:
                out.append(f"{label}: {where}.show.rings[{j}].around: unknown id {r.around!r}")
    facts(demo.expect, "expect")
    return out


def _summonable(demo: DemoFile, label: str) -> list[str]:
    """Every manifestation a demo places could have been summoned by its summoner (M8, M9): a
    WIZARD for an endless spell, a PRIEST for an invocation, knowing a spell or prayer that
    summons it, in its summoner's army; and no army has two of the same on the battlefield (M9)."""
    from game.demos.runner import build_game
    from game.rules.query import summon_problem

    try:
        game = build_game(demo)
    except ValueError as exc:
        return [f"{label}: battlefield: {exc}"]
    units = {u.id: u for u in demo.unit}
    out: list[str] = []
    seen: dict[tuple[int, str], int] = {}
    for i, m in enumerate(demo.manifestation):
        u = units[m.summoner]
        if m.player is not None and m.player != u.player:
            out.append(
                f"{label}: manifestation[{i}].player: a manifestation belongs to its summoner's army (player "
                f"{u.player}), not player {m.player} (M9)"
            )
        if m.model >= len(u.models):
            out.append(
                f"{label}: manifestation[{i}].model: {m.summoner!r} has {len(u.models)} model(s); "
                f"there is no model {m.model} (E5)"
            )
        why = summon_problem(game, u.player, u.warscroll, m.scroll)
        if why:
            out.append(f"{label}: manifestation[{i}] ({m.id!r}): {why}")
        key = (u.player, m.scroll)
        if key in seen:
            out.append(
                f"{label}: manifestation[{i}] ({m.id!r}): player {u.player}'s army already has "
                f"{game.content.manifestations[m.scroll].name} on the battlefield (manifestation[{seen[key]}]); "
                "an army cannot have two of the same (M9)"
            )
        seen.setdefault(key, i)
    return out


def battlefield_problems(demo: DemoFile, label: str) -> list[str]:
    """The inline battlefield gets the map checks every map gets (`game.data.geocheck`):
    simple terrain polygons with area, objectives clear of impassable terrain."""
    from game.data.geocheck import map_problems
    from game.data.models import BattleMap

    bf = demo.battlefield
    if bf.map is not None:
        return []  # an embedded map, checked when it loads
    bm = BattleMap.model_construct(
        id="demo",
        name="demo",
        width=bf.width,
        height=bf.height,
        terrain=list(bf.terrain),
        objectives=list(bf.objectives),
        deployment=[],
    )
    return map_problems(bm, label, require_deployment=False, field="battlefield")


#: Slack for authored positions (written to 4 decimals): bases may overlap, or reach past the
#: battlefield edge, by this much before the position is refused. m.e7_e5's coven stands
#: 0.00005" closer than touching.
POSITION_TOL = 1e-3


def position_problems(demo: DemoFile, label: str) -> list[str]:
    """Whether the demonstration's position can be played: it is built exactly as the runner
    builds it (`build_state`) and every model and manifestation is checked where it stands:
    on the battlefield (G3), clear of impassable terrain and of other bases (G4), no more models
    than the warscroll's unit size and no model carrying the damage that would have slain it."""
    from game.demos.runner import build_game, build_state
    from game.geometry.nearby import BaseIndex
    from game.geometry.shapes import Circle
    from game.rules.query import manifestation_shape, model_circle

    try:
        game = build_game(demo)
        state = build_state(demo, game)
    except (ValueError, KeyError, IndexError, DataError) as exc:  # what the checks above do not foresee
        return [f"{label}: the position cannot be built: {exc}"]
    out: list[str] = []
    W, H = game.battlefield.width, game.battlefield.height
    terrain = game.battlefield.terrain
    size = f"{W:g}x{H:g}"
    flat: list[tuple[int, int]] = []  # (unit index, model index) per base
    circles = []
    for i, u in enumerate(demo.unit):
        ws = game.warscroll(u.warscroll)
        if len(u.models) > ws.models:
            out.append(
                f"{label}: unit[{i}].models: {len(u.models)} models, but a unit of {ws.name} has {ws.models} "
                f"(warscroll {ws.id!r})"
            )
        dmg = u.damage if isinstance(u.damage, list) else [u.damage] + [0] * (len(u.models) - 1)
        for k, d in enumerate(dmg):
            if d < 0 or d >= ws.health:
                field = f"damage[{k}]" if isinstance(u.damage, list) else "damage"
                out.append(
                    f"{label}: unit[{i}].{field}: {d} damage on a model with {ws.health} health; "
                    f"it must be 0 to {ws.health - 1} (a model with {ws.health} is slain)"
                )
        for k in range(len(u.models)):
            c = model_circle(state, u.id, k)
            where = f"{label}: unit[{i}].models[{k}] ({u.id!r}, ({c.x:g}, {c.y:g}))"
            if (
                c.x - c.r < -POSITION_TOL
                or c.y - c.r < -POSITION_TOL
                or c.x + c.r > W + POSITION_TOL
                or c.y + c.r > H + POSITION_TOL
            ):
                out.append(f"{where}: the base ({c.r:.2f}\" radius) lies off the {size} battlefield (G3)")
            for piece in terrain.impassable_overlapping(c):
                out.append(f"{where}: overlaps impassable terrain {piece.name!r} (G4)")
            flat.append((i, k))
            circles.append(c)
    if circles:
        index = BaseIndex(circles)
        for n, c in enumerate(circles):
            idx, depth = index.overlapping(c)
            for j, dep in zip(idx.tolist(), depth.tolist()):
                if j <= n or dep <= POSITION_TOL:
                    continue
                (ui, mi), (uj, mj) = flat[n], flat[j]
                out.append(
                    f"{label}: unit[{uj}].models[{mj}] ({demo.unit[uj].id!r}): overlaps unit[{ui}].models[{mi}] "
                    f"({demo.unit[ui].id!r}) by {dep:.2f}\" (G4)"
                )
    for i, m in enumerate(demo.manifestation):
        scroll = game.content.manifestations[m.scroll]
        if m.damage >= scroll.health:
            out.append(
                f"{label}: manifestation[{i}].damage: {m.damage} damage on a manifestation with {scroll.health} "
                f"health; it must be 0 to {scroll.health - 1}"
            )
        shape = manifestation_shape(state, m.id)
        if isinstance(shape, Circle):
            minx, miny, maxx, maxy = shape.x - shape.r, shape.y - shape.r, shape.x + shape.r, shape.y + shape.r
        else:
            minx, miny, maxx, maxy = shape.bounds
        where = f"{label}: manifestation[{i}] ({m.id!r}, ({m.x:g}, {m.y:g}))"
        if minx < -POSITION_TOL or miny < -POSITION_TOL or maxx > W + POSITION_TOL or maxy > H + POSITION_TOL:
            out.append(f"{where}: its footprint lies off the {size} battlefield (G3)")
    return out
