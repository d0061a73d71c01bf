"""Summoning manifestations (M9, E2): who may try, where it may be set up, and setting it up.

Set-up constraints come from the manifestation's warscroll (`SetupRule`): wholly within X" of
the summoning model (E5), visible to it, more than Y" from every enemy unit (M10: enemy
manifestations count as units for set-up, those with Move 0" only in the combat phase; never
an E1 kind: endless spells under aos3), and legal under G4 (no overlap with bases, impassable terrain, other
manifestations or the edge). `SetupCheck.problems` is the exact check of one point.

If no legal set-up exists when the spell or prayer resolves, the attempt fails (E2). M9 rules
that "cannot" means none exists anywhere, so existence is not decided by sampling: a point that
passes the exact check proves a set-up exists (found first along rays from the model, cheaply),
and only the region of legal centres built by `game.geometry.setup_region` may conclude that
none does (its guarantee: a legal set-up with 0.01" to spare is always found; sight is as exact
as G2's own sampled check). `setup_region` gives that region to the UI to shade;
`candidate_points` gives bots and hints legal points.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import TYPE_CHECKING

from shapely.geometry import Point

from game.data.models import Ability
from game.geometry.measure import distance, wholly_within
from game.geometry.placement import placement_problems
from game.geometry.problem import Named, Problem
from game.geometry.setup_region import SetupSpace, pick, pick_on_rays, sight_region
from game.geometry.shapes import Shape, polygon_at
from game.rules import summon_sight
from game.rules.actions import PlaceManifestation
from game.rules.allowances import army_uses, record_army_uses, record_uses, uses
from game.rules.decisions import Decision, handles
from game.rules.errors import IllegalActionError
from game.rules.events import ManifestationSummoned, SummonFailed
from game.rules.frames import SummonSetupFrame, pop, top
from game.rules.manifest_units import enemy_manifestation_shapes
from game.rules.space import (
    all_bases,
    blocker_names,
    blockers,
    footprint_at,
    manifestation_shape,
    model_circle,
    sight_to_shape,
)
from game.rules.units import ManifestationState

if TYPE_CHECKING:
    from game.rules.effects import EffectContext
    from game.rules.state import State

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
    if scroll_id in t.summon_attempts:
        raise IllegalActionError(
            "summoned_this_turn",
            f"player {player}'s army has already tried to summon {name} this turn (M9)",
            "M9",
            player=player,
            scroll=Named(name, scroll_id),
        )
    if scroll_id in t.removed:
        raise IllegalActionError(
            "removed_this_turn",
            f"{name} was removed this turn and cannot be summoned again this turn (M9)",
            "M9",
            scroll=Named(name, scroll_id),
        )
    if any(m.scroll == scroll_id and m.player == player for m in state.manifestations.values()):
        raise IllegalActionError(
            "already_summoned", f"{name} is already on the battlefield (M9)", "M9", scroll=Named(name, scroll_id)
        )
    cap = state.game.profile.summons_per_wizard_per_phase
    if cap is not None and ability.kind == "spell" and uses(state, unit_id).summons >= cap:
        raise IllegalActionError(
            "summon_cap",
            f"{state.units[unit_id].name} ({unit_id}) has already summoned {cap} endless spell this hero phase (E2)",
            "E2",
            unit=Named(f"{state.units[unit_id].name} ({unit_id})", unit_id),
            cap=cap,
        )


def summon_cap_applies(state: "State", ability: Ability) -> bool:
    """Whether `check_may_summon` reads the summoning unit for `ability` (E2's cap on the
    summons of a WIZARD per hero phase, aos3): otherwise its answer, and so that of
    `check_army_allowances`, is the army's alone, the same for every caster."""
    return (
        ability.summons is not None
        and ability.kind == "spell"
        and state.game.profile.summons_per_wizard_per_phase is not None
    )


def record_attempt(state: "State", player: int, unit_id: str, ability: Ability) -> None:
    if ability.summons is not None:
        record_army_uses(state, player).summon_attempts.append(ability.summons)
        record_uses(state, unit_id).summons += 1


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
        # M10: enemy manifestations count as units for set-up, those with Move 0" only in the
        # combat phase; E1 kinds (endless spells under aos3) never do. Overlap with any manifestation
        # stays forbidden (G4).
        self.enemy_shapes = enemy_manifestation_shapes(state, player, state.phase)
        self.has_enemies = bool(enemy_units or self.enemy_shapes)

    def problems(self, x: float, y: float, named: bool = True) -> list[str]:
        """Why the manifestation cannot be set up with its centre at (x, y); empty when it can.

        `named=False` leaves the names of what blocks sight out of the words (a search that only
        asks yes or no: naming them costs more than the answer)."""
        shape, problems = self.before_sight(x, y)
        return problems or self.sight_problems(shape, named)

    def before_sight(self, x: float, y: float) -> tuple[Shape, list[str]]:
        """The footprint at (x, y), and the first failing check but sight (M9 reach, G4, M10
        distance), in `problems`' order; no words when only sight is left to decide. Sight comes
        last because it costs the most (a search asks it of many points at once: issue 24)."""
        state, rule = self.state, self.rule
        shape = footprint_at(state, self.scroll_id, x, y)
        if not wholly_within(shape, self.source, rule.wholly_within):
            text = f"not wholly within {rule.wholly_within:g}\" of the summoning model (M9)"
            return shape, [Problem(text, "not_within", "M9", reach=f"{rule.wholly_within:g}")]
        bf = state.game.battlefield
        problems: list[str] = [
            _cited(p, "G4")
            for p in placement_problems(
                shape,
                width=bf.width,
                height=bf.height,
                terrain=bf.terrain,
                bases=self.bases,
                manifestations=self.others,
            )
        ]
        if problems:
            return shape, problems
        if rule.min_enemy_distance > 0 and self.has_enemies:
            gaps = [distance(shape, e) for e in self.enemy_shapes]
            if len(self.enemy_bases):
                gaps.append(float(self.enemy_bases.distances(shape).min()))
            near = min(gaps, default=math.inf)
            if near <= rule.min_enemy_distance:
                text = f"{near:.2f}\" from an enemy; must be more than {rule.min_enemy_distance:g}\" (M9)"
                return shape, [
                    Problem(text, "near_enemy", "M9", near=f"{near:.2f}", limit=f"{rule.min_enemy_distance:g}")
                ]
        return shape, []

    def sight_problems(self, shape: Shape, named: bool = True, seen: bool | None = None) -> list[str]:
        """The sight step of `problems` for a footprint that passed every other check (M9, G2):
        not visible to the summoning model. `seen`, when the caller already knows the answer
        (`game.rules.summon_sight` asks many footprints at once), stands in for asking G2 here;
        the words then name no blockers."""
        if not self.rule.visible:
            return []
        if seen is None:
            sight = sight_to_shape(self.state, self.unit, self.model, shape)
            seen = sight.visible
            names = [] if seen or not named else blocker_names(self.state, sight, [self.unit])
        else:
            names = []
        if seen:
            return []
        by = f": blocked by {', '.join(names)}" if names else ""
        text = f"not visible to the summoning model{by} (M9, G2)"
        return [Problem(text, "unseen_setup", "M9", names=", ".join(names))]


def _cited(p: str, rule: str) -> str:
    """A placement problem with the rule it breaks cited after it, still a `Problem` (issue 22)."""
    text = f"{p} ({rule})"
    return p.worded(text) if isinstance(p, Problem) else text


def _key(kind: str, state: "State", player: int, unit_id: str, model: int, scroll_id: str) -> tuple:
    """A cache key for derived set-up geometry: the state's `_cache` is cleared whenever anything
    moves, is set up or is slain; the phase decides which enemy manifestations count (M10)."""
    return (kind, player, unit_id, model, scroll_id, tuple(state.manifestations), state.phase)


def setup_check(state: "State", player: int, unit_id: str, model: int, scroll_id: str) -> SetupCheck:
    """The SetupCheck for this summoning, kept with the state's other derived geometry (M9).

    Summoning builds it when the spell resolves (does a set-up exist?) and again when the
    point is placed; nothing moves in between, so the second build is saved."""
    key = _key("setup_check", state, player, unit_id, model, scroll_id)
    found = state._cache.get(key)
    if found is None or found.state is not state:  # a clone inherits the cache, not its parent's check
        found = state._cache[key] = SetupCheck(state, player, unit_id, model, scroll_id)
    return found


def setup_problems(
    state: "State", player: int, unit_id: str, model: int, scroll_id: str, x: float, y: float
) -> list[str]:
    """Why a manifestation cannot be set up with its centre at (x, y); empty when it can (M9, G4)."""
    return setup_check(state, player, unit_id, model, scroll_id).problems(x, y)


def footprint_radii(state: "State", scroll_id: str) -> tuple[float, float]:
    """(inner, outer): the footprint lies outside a circle of `inner` and inside one of `outer`
    around its centre. Equal for round footprints."""
    fp = state.game.content.manifestations[scroll_id].footprint
    if fp.radius_in is not None:
        return fp.radius_in, fp.radius_in
    shape = polygon_at(fp.polygon or [], 0.0, 0.0)  # as footprint_at places a polygon footprint
    outer = max(math.hypot(x, y) for x, y in shape.exterior.coords)
    inner = shape.exterior.distance(Point(0.0, 0.0))
    return inner, outer


def _footprint(state: "State", scroll_id: str):
    """The footprint around (0, 0), as `game.geometry.setup_region` takes it."""
    fp = state.game.content.manifestations[scroll_id].footprint
    return fp.radius_in if fp.radius_in is not None else footprint_at(state, scroll_id, 0.0, 0.0)


def _space(state: "State", player: int, unit_id: str, model: int, scroll_id: str) -> SetupSpace:
    """The set-up constraints of this summoning as geometry (M9, M10, G3, G4), gathered once
    and cached like `setup_check`; it builds the region of centres when first asked."""
    key = _key("setup_space", state, player, unit_id, model, scroll_id)
    found = state._cache.get(key)
    if found is None:
        check = setup_check(state, player, unit_id, model, scroll_id)
        bf = state.game.battlefield
        enemies = check.rule.min_enemy_distance > 0 and check.has_enemies
        found = state._cache[key] = SetupSpace(
            check.source,
            check.rule.wholly_within,
            _footprint(state, scroll_id),
            width=bf.width,
            height=bf.height,
            bases=check.bases,
            impassable=bf.terrain.polygons("impassable"),
            manifestations=check.others,
            enemy_bases=check.enemy_bases if enemies else (),
            enemy_shapes=check.enemy_shapes if enemies else (),
            min_enemy_distance=check.rule.min_enemy_distance if enemies else 0.0,
        )
    return found


def _centres(state: "State", player: int, unit_id: str, model: int, scroll_id: str):
    """Every centre meeting the set-up rules but sight: a shapely superset of the legal ones
    (M9, M10, G3, G4), empty only when no legal set-up exists."""
    return _space(state, player, unit_id, model, scroll_id).region()


def _sight(state: "State", player: int, unit_id: str, model: int, scroll_id: str):
    """Where sight from the summoning model to the footprint is likely (G2), inside the region
    of centres; None when the warscroll does not ask for sight. Cached like `setup_check`."""
    check = setup_check(state, player, unit_id, model, scroll_id)
    if not check.rule.visible:
        return None
    key = _key("setup_sight", state, player, unit_id, model, scroll_id)
    found = state._cache.get(key)
    if found is None:
        found = state._cache[key] = sight_region(
            check.source,
            _footprint(state, scroll_id),
            state.game.battlefield.terrain,
            blockers(state, [unit_id]),
            clip=_centres(state, player, unit_id, model, scroll_id),
        )
    return found


def setup_region(state: "State", player: int, unit_id: str, model: int, scroll_id: str):
    """The region of centres where the manifestation may be set up, as a shapely geometry: what
    the UI shades while the player places the ghost (M9, G2-G4).

    Every rule but sight is in it exactly up to 0.0015" (a superset: it never leaves out a legal
    centre); when the warscroll asks for sight, the region is cut to where sight is likely, an
    approximation of G2. The exact check (`setup_problems`) decides any point."""
    centres = _centres(state, player, unit_id, model, scroll_id)
    seen = _sight(state, player, unit_id, model, scroll_id) if not centres.is_empty else None
    return centres if seen is None else seen


def candidate_points(
    state: "State", player: int, unit_id: str, model: int, scroll_id: str, limit: int = MAX_OPTIONS
) -> list[tuple[float, float]]:
    """Up to `limit` legal set-up points, spread round the summoning model (at least 3" apart).

    Candidate generation for bots and UI hints, and (with `limit` 1) the E2 question "does a
    legal set-up exist?". Every point is confirmed by `SetupCheck.problems`, the exact check.
    First the set-up constraints are traced along RAYS rays from the model (the farthest legal
    stretch of each ray, 0.05" short of its end); if no ray point passes, the 2D region of
    legal centres is searched (`game.geometry.setup_region.pick`), which finds a point whenever
    one exists with 0.01" to spare, sight aside. Empty only then: the region is empty, or no
    point of it passed (M9, E2). Cached with the state's geometry."""
    if 0 < limit < MAX_OPTIONS:
        # Why: the search for fewer points is the search for MAX_OPTIONS stopped at its first
        # ones (the same points in the same order, the same checks until then), and a set-up
        # that exists is asked for its options next: one search serves both (issue 24)
        return list(_searched(state, player, unit_id, model, scroll_id, MAX_OPTIONS)[:limit])
    return list(_searched(state, player, unit_id, model, scroll_id, limit))


def _searched(
    state: "State", player: int, unit_id: str, model: int, scroll_id: str, limit: int
) -> list[tuple[float, float]]:
    """`candidate_points`' search for `limit` points, kept with the state's geometry."""
    key = _key("setup_points", state, player, unit_id, model, scroll_id) + (limit,)
    found = state._cache.get(key)
    if found is None:
        check = setup_check(state, player, unit_id, model, scroll_id)
        space = _space(state, player, unit_id, model, scroll_id)

        legal: Callable[[float, float], bool]
        if summon_sight.BATCHED:  # the same answers, sight asked of several points at once (issue 24)
            legal = summon_sight.SightBatches(check)
        else:

            def legal(x: float, y: float) -> bool:
                return not check.problems(x, y, named=False)

        found = pick_on_rays(space, legal, limit=limit, rays=RAYS)
        if not found:
            prefer = (lambda: _sight(state, player, unit_id, model, scroll_id)) if check.rule.visible else None
            found = pick(space.region(), legal, source=check.source.centre, limit=limit, rays=RAYS, prefer=prefer)
        state._cache[key] = found
    return found


def setup_exists(state: "State", player: int, unit_id: str, model: int, scroll_id: str) -> bool:
    """E2, M9: can the manifestation be legally set up anywhere? Yes as soon as a point passes
    the exact check; no only when the region of legal centres holds none that passes
    (`candidate_points` with `limit` 1)."""
    return bool(candidate_points(state, player, unit_id, model, scroll_id, limit=1))


def open_setup(state: "State", ctx: "EffectContext", scroll_id: str) -> None:
    """The summoning resolved: ask for a set-up point, or fail if none is legal (E2)."""
    if not setup_exists(state, ctx.player, ctx.unit, ctx.model, scroll_id):
        state.emit(SummonFailed(scroll=scroll_id, unit=ctx.unit, reason="no legal set-up exists"))
        return
    state.decisions.append(SummonSetupFrame(player=ctx.player, unit=ctx.unit, model=ctx.model, scroll=scroll_id))


def setup_view(state: "State", d: SummonSetupFrame) -> Decision:
    name = state.game.content.manifestations[d.scroll].name
    return Decision(
        player=d.player,
        kind="summon_setup",
        prompt=f"set up {name}: pick its centre (M9)",
        options=state.lazily(
            lambda: [
                PlaceManifestation(player=d.player, x=x, y=y)
                for x, y in candidate_points(state, d.player, d.unit, d.model, d.scroll)
            ]
        ),
        data={
            "scroll": d.scroll,
            "unit": d.unit,
            "model": d.model,
            # A continuous choice: any point may be picked, not only the listed options.
            "point_action": "PlaceManifestation",
            "centre": list(model_circle(state, d.unit, d.model).centre),
            "reach": state.game.content.manifestations[d.scroll].setup.wholly_within,
        },
    )


def _check_place(state: "State", action: PlaceManifestation) -> None:
    d = top(state, SummonSetupFrame)
    problems = setup_problems(state, action.player, d.unit, d.model, d.scroll, action.x, action.y)
    if problems:
        name = state.game.content.manifestations[d.scroll].name
        raise IllegalActionError(
            "bad_setup",
            f"{name} cannot be set up at ({action.x:.2f}, {action.y:.2f}): " + "; ".join(problems),
            "M9",
            scroll=Named(name, d.scroll),
            x=action.x,
            y=action.y,
            problems=tuple(problems),
        )


@handles(PlaceManifestation, kinds=("summon_setup",), check=_check_place)
def _place(state: "State", action: PlaceManifestation) -> None:
    d = pop(state, SummonSetupFrame)
    mid = state.fresh_id("m")
    state.manifestations[mid] = ManifestationState(
        id=mid,
        scroll=d.scroll,
        player=action.player,
        summoner=d.unit,
        summoner_model=d.model,
        x=float(action.x),
        y=float(action.y),
        commander=action.player,
    )
    state.emit(
        ManifestationSummoned(
            manifestation=mid,
            scroll=d.scroll,
            player=action.player,
            summoner=d.unit,
            model=d.model,
            x=float(action.x),
            y=float(action.y),
        )
    )
