"""Summoning manifestations (M9, E2): who may try, where it may be set up, and setting it up.

Set-up constraints come from the manifestation's warscroll (`SetupRule`): wholly within X" of
the summoning model (E5), visible to it, more than Y" from every enemy unit, and legal under
G4 (no overlap with bases, impassable terrain, other manifestations or the edge).
If no legal set-up exists when the spell or prayer resolves, the attempt fails (E2).
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

import numpy as np
from shapely.geometry import Point

from game.data.models import Ability
from game.geometry.measure import distance, wholly_within
from game.geometry.placement import placement_problems
from game.rules.actions import PlaceManifestation
from game.rules.allowances import army_uses, record_army_uses, record_uses, uses
from game.rules.decisions import Decision, handles
from game.rules.errors import IllegalActionError
from game.rules.events import ManifestationSummoned, SummonFailed
from game.rules.flow import DECISION_VIEWS
from game.rules.manifest_units import enemy_manifestation_shapes
from game.rules.space import all_bases, can_see_shape, footprint_at, manifestation_shape, model_circle
from game.rules.units import ManifestationState

if TYPE_CHECKING:
    from game.rules.effects import EffectContext
    from game.rules.state import State

GRID_STEP = 1.0  # inches between candidate set-up points
MAX_OPTIONS = 4  # set-up points offered as options; any legal point may be chosen
RAYS = 16  # directions searched for spread-out set-up candidates


def check_may_summon(state: "State", player: int, unit_id: str, ability: Ability) -> None:
    """M9 and E2: one attempt per manifestation per turn per army; not if removed this turn;
    not while the army already has it on the battlefield [ruling]; aos3 caps summons per wizard."""
    scroll_id = ability.summons
    if scroll_id is None:
        return
    name = state.game.content.manifestations[scroll_id].name
    t = army_uses(state, player)
    if scroll_id in t["summon_attempts"]:
        raise IllegalActionError(
            "summoned_this_turn", f"player {player}'s army has already tried to summon {name} this turn (M9)", "M9"
        )
    if scroll_id in t["removed"]:
        raise IllegalActionError(
            "removed_this_turn", f"{name} was removed this turn and cannot be summoned again this turn (M9)", "M9"
        )
    if any(m.scroll == scroll_id and m.player == player for m in state.manifestations.values()):
        raise IllegalActionError("already_summoned", f"{name} is already on the battlefield (M9)", "M9")
    cap = state.game.profile.summons_per_wizard_per_phase
    if cap is not None and ability.kind == "spell" and uses(state, unit_id)["summons"] >= cap:
        raise IllegalActionError(
            "summon_cap", f"{state.units[unit_id].name} ({unit_id}) has already summoned {cap} endless spell this hero phase (E2)", "E2"
        )


def record_attempt(state: "State", player: int, unit_id: str, ability: Ability) -> None:
    if ability.summons is not None:
        record_army_uses(state, player)["summon_attempts"].append(ability.summons)
        record_uses(state, unit_id)["summons"] += 1


class SetupCheck:
    """Exact set-up checks for one manifestation summoned by one model (M9, G4).

    Everything that does not depend on the point is gathered once, so candidate searches
    can test many points cheaply.
    """

    def __init__(self, state: "State", player: int, unit_id: str, model: int, scroll_id: str) -> None:
        self.state, self.player, self.unit, self.model, self.scroll_id = state, player, unit_id, model, scroll_id
        self.rule = state.game.content.manifestations[scroll_id].setup
        self.source = model_circle(state, unit_id, model)
        self.bases = all_bases(state)
        self.others = [manifestation_shape(state, mid) for mid in state.manifestations]
        enemy_units = [uid for uid, u in state.units.items() if u.player != player]
        mine = [uid for uid, u in state.units.items() if u.player == player]
        self.enemy_bases = all_bases(state, mine)
        # M10: enemy manifestations count as units for set-up, Move 0" ones in the combat phase only
        self.enemy_shapes = enemy_manifestation_shapes(state, player)
        self.has_enemies = bool(enemy_units or self.enemy_shapes)

    def problems(self, x: float, y: float) -> list[str]:
        """Why the manifestation cannot be set up with its centre at (x, y); empty when it can."""
        state, rule = self.state, self.rule
        shape = footprint_at(state, self.scroll_id, x, y)
        if not wholly_within(shape, self.source, rule.wholly_within):
            return [f"not wholly within {rule.wholly_within:g}\" of the summoning model (M9)"]
        bf = state.game.battlefield
        problems = [
            p + " (G4)"
            for p in placement_problems(
                shape, width=bf.width, height=bf.height, terrain=bf.terrain, bases=self.bases, manifestations=self.others
            )
        ]
        if problems:
            return problems
        if rule.min_enemy_distance > 0 and self.has_enemies:
            gaps = [distance(shape, e) for e in self.enemy_shapes]
            if len(self.enemy_bases):
                gaps.append(float(self.enemy_bases.distances(shape).min()))
            near = min(gaps, default=math.inf)
            if near <= rule.min_enemy_distance:
                return [f"{near:.2f}\" from an enemy; must be more than {rule.min_enemy_distance:g}\" (M9)"]
        if rule.visible and not can_see_shape(state, self.unit, self.model, shape):
            return ["not visible to the summoning model (M9, G2)"]
        return []


def setup_check(state: "State", player: int, unit_id: str, model: int, scroll_id: str) -> SetupCheck:
    """The SetupCheck for this summoning, kept with the state's other derived geometry (M9).

    Summoning builds it when the spell resolves (does a set-up exist?) and again when the
    point is placed; nothing moves in between, so the second build is saved."""
    key = ("setup_check", player, unit_id, model, scroll_id, tuple(state.manifestations))
    found = state._cache.get(key)
    if found is None or found.state is not state:  # a clone inherits the cache, not its parent's check
        found = state._cache[key] = SetupCheck(state, player, unit_id, model, scroll_id)
    return found


def setup_problems(state: "State", player: int, unit_id: str, model: int, scroll_id: str, x: float, y: float) -> list[str]:
    """Why a manifestation cannot be set up with its centre at (x, y); empty when it can (M9, G4)."""
    return setup_check(state, player, unit_id, model, scroll_id).problems(x, y)


def footprint_radii(state: "State", scroll_id: str) -> tuple[float, float]:
    """(inner, outer): the footprint lies outside a circle of `inner` and inside one of `outer`
    around its centre. Equal for round footprints."""
    fp = state.game.content.manifestations[scroll_id].footprint
    if fp.radius_in is not None:
        return fp.radius_in, fp.radius_in
    shape = footprint_at(state, scroll_id, 0.0, 0.0)
    outer = max(math.hypot(x, y) for x, y in shape.exterior.coords)
    inner = shape.exterior.distance(Point(0.0, 0.0))
    return inner, outer


def _grid(cx: float, cy: float, reach: float) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Points of a GRID_STEP grid within `reach` of (cx, cy): xs, ys and their distances."""
    n = int(reach // GRID_STEP)
    ij = np.arange(-n, n + 1) * GRID_STEP
    dx, dy = (a.ravel() for a in np.meshgrid(ij, ij))
    d = np.hypot(dx, dy)
    keep = d <= reach
    return np.round(cx + dx[keep], 3), np.round(cy + dy[keep], 3), d[keep]


def _rays(cx: float, cy: float, reach: float, count: int = RAYS) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Points along `count` rays from (cx, cy), every GRID_STEP out to `reach`, ray by ray,
    farthest first on each ray."""
    steps = np.arange(int(reach // GRID_STEP), 0, -1) * GRID_STEP
    ang = np.arange(count) * (2 * math.pi / count)
    xs = np.round(cx + np.outer(np.cos(ang), steps), 3).ravel()
    ys = np.round(cy + np.outer(np.sin(ang), steps), 3).ravel()
    return xs, ys, np.tile(steps, count)


def _near(arrays: tuple[np.ndarray, np.ndarray, np.ndarray], cx: float, cy: float, reach: float):
    """Only the bases that can matter within `reach` of (cx, cy)."""
    x, y, r = arrays
    keep = np.hypot(x - cx, y - cy) - r <= reach
    return x[keep], y[keep], r[keep]


def _plausible(check: "SetupCheck", xs: np.ndarray, ys: np.ndarray, d: np.ndarray, inner: float, reach: float) -> np.ndarray:
    """A mask of points that pass necessary conditions of every set-up rule, vectorised.

    Uses the circle of radius `inner` inside the footprint, so it never drops a legal point.
    """
    rule, bf, src = check.rule, check.state.game.battlefield, check.source
    ok = (d + inner <= reach + 1e-9) & (xs - inner > 0) & (ys - inner > 0) & (xs + inner < bf.width) & (ys + inner < bf.height)
    xs, ys = xs[ok], ys[ok]
    idx = np.flatnonzero(ok)
    if len(check.bases):
        bx, by, br = _near(check.bases.arrays(), src.x, src.y, reach + inner)
        if len(bx):
            gap = np.hypot(xs[:, None] - bx[None, :], ys[:, None] - by[None, :]) - br[None, :]
            keep = (gap >= inner - 1e-9).all(axis=1)
            xs, ys, idx = xs[keep], ys[keep], idx[keep]
    if rule.min_enemy_distance > 0 and len(check.enemy_bases):
        ex, ey, er = _near(check.enemy_bases.arrays(), src.x, src.y, reach + inner + rule.min_enemy_distance)
        if len(ex):
            gap = np.hypot(xs[:, None] - ex[None, :], ys[:, None] - ey[None, :]) - er[None, :] - inner
            keep = (gap > rule.min_enemy_distance).all(axis=1)
            idx = idx[keep]
    mask = np.zeros(len(ok), dtype=bool)
    mask[idx] = True
    return mask


def candidate_points(state: "State", player: int, unit_id: str, model: int, scroll_id: str, limit: int = MAX_OPTIONS) -> list[tuple[float, float]]:
    """Up to `limit` legal set-up points, spread round the summoning model.

    Candidate generation for bots and UI hints; `SetupCheck.problems` is the exact check. First
    the farthest legal point along each of RAYS rays; if the rays find nothing, a full 1" grid
    decides whether any legal set-up exists (E2). Vectorised necessary conditions run first so
    the exact check sees few points.
    """
    check = setup_check(state, player, unit_id, model, scroll_id)
    inner, _ = footprint_radii(state, scroll_id)
    src = check.source
    reach = check.rule.wholly_within + src.r
    found: list[tuple[float, float]] = []
    searches = ((lambda: _rays(src.x, src.y, reach), True), (lambda: _grid(src.x, src.y, reach), False))
    for points, by_ray in searches:
        xs, ys, d = points()
        per_ray = len(xs) // RAYS if by_ray else 0
        ok = _plausible(check, xs, ys, d, inner, reach)
        done_rays: set[int] = set()
        for k in np.flatnonzero(ok):
            ray = int(k) // per_ray if per_ray else -1
            if ray in done_rays:
                continue
            x, y = float(xs[k]), float(ys[k])
            if any(math.hypot(x - fx, y - fy) < 3.0 for fx, fy in found) or check.problems(x, y):
                continue
            found.append((x, y))
            done_rays.add(ray)
            if len(found) >= limit:
                return found
        if found:
            return found
    return found


def open_setup(state: "State", ctx: "EffectContext", scroll_id: str) -> None:
    """The summoning resolved: ask for a set-up point, or fail if none is legal (E2)."""
    points = candidate_points(state, ctx.player, ctx.unit, ctx.model, scroll_id, limit=1)  # does one exist?
    if not points:
        state.emit(SummonFailed(scroll=scroll_id, unit=ctx.unit, reason="no legal set-up exists"))
        return
    state.decisions.append(
        {
            "kind": "summon_setup",
            "player": ctx.player,
            "unit": ctx.unit,
            "model": ctx.model,
            "scroll": scroll_id,
        }
    )


def _view(state: "State", d: dict) -> Decision:
    name = state.game.content.manifestations[d["scroll"]].name
    return Decision(
        player=d["player"],
        kind="summon_setup",
        prompt=f"set up {name}: pick its centre (M9)",
        options=state.lazily(
            lambda: [
                PlaceManifestation(player=d["player"], x=x, y=y)
                for x, y in candidate_points(state, d["player"], d["unit"], d["model"], d["scroll"])
            ]
        ),
        data={
            "scroll": d["scroll"],
            "unit": d["unit"],
            "model": d["model"],
            # A continuous choice: any point may be picked, not only the listed options.
            "point_action": "PlaceManifestation",
            "centre": list(model_circle(state, d["unit"], d["model"]).centre),
            "reach": state.game.content.manifestations[d["scroll"]].setup.wholly_within,
        },
    )


DECISION_VIEWS["summon_setup"] = _view


def _check_place(state: "State", action: PlaceManifestation) -> None:
    d = state.decisions[-1]
    problems = setup_problems(state, action.player, d["unit"], d["model"], d["scroll"], action.x, action.y)
    if problems:
        name = state.game.content.manifestations[d["scroll"]].name
        raise IllegalActionError(
            "bad_setup", f"{name} cannot be set up at ({action.x:.2f}, {action.y:.2f}): " + "; ".join(problems), "M9"
        )


@handles(PlaceManifestation, kinds=("summon_setup",), check=_check_place)
def _place(state: "State", action: PlaceManifestation) -> None:
    d = state.decisions.pop()
    mid = state.fresh_id("m")
    state.manifestations[mid] = ManifestationState(
        id=mid,
        scroll=d["scroll"],
        player=action.player,
        summoner=d["unit"],
        summoner_model=d["model"],
        x=float(action.x),
        y=float(action.y),
        commander=action.player,
    )
    state.emit(
        ManifestationSummoned(
            manifestation=mid, scroll=d["scroll"], player=action.player, summoner=d["unit"], model=d["model"],
            x=float(action.x), y=float(action.y),
        )
    )
