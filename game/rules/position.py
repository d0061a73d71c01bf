"""Building a position by hand: for tests, demonstrations, tools and scenario files.

    state = build_position(
        game,
        units=[UnitSpec("w1", 1, "pyre_magister", [(10, 22)]), UnitSpec("foe", 2, "mire_wardens", [(40, 22)])],
        manifestations=[ManifestationSpec("pyre", "rolling_pyre", "w1", x=20, y=22)],
        phase="hero", active=1, dice=ScriptedDice([3, 4]),
    )

`Game.new_state()` deploys both default armies first, so it cannot make a small position; this
builds exactly what it is given, on any battlefield, without the caller touching the state's
fields, and checks the result as a loaded state is checked (`state_check`: known ids, players,
phase, every base and footprint on the battlefield and clear of terrain and each other, damage
below health): a position the engine could not reach is refused with every reason. Ids given
stay ids; the engine's fresh ids never collide with them (`State.fresh_id`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from game.rules.dice import Dice, SeededDice
from game.rules.space import invalidate
from game.rules.state import State
from game.rules.state_check import state_problems
from game.rules.units import ManifestationState, ModelState, UnitState

if TYPE_CHECKING:
    from game.rules.game import Game
Point = tuple[float, float]


@dataclass(frozen=True)
class UnitSpec:
    """A unit of `warscroll` for `player`, one centre per model; `damage` on the first model or
    one value per model; `ritual_points` for a PRIEST (M5)."""

    id: str
    player: int
    warscroll: str
    models: Sequence[Point]
    name: str | None = None
    damage: int | Sequence[int] = 0
    ritual_points: int = 0


@dataclass(frozen=True)
class ManifestationSpec:
    """A manifestation set up at (x, y), summoned by model `model` of unit `summoner` (E5); it
    belongs to the summoner's army unless `player` says otherwise, and is commanded by its
    player unless `commander` does (E8)."""

    id: str
    scroll: str
    summoner: str
    x: float
    y: float
    model: int = 0
    player: int | None = None
    commander: int | None = None
    damage: int = 0
    moves_made: int = 0
    flags: dict = field(default_factory=dict)


class PositionError(ValueError):
    """A position the engine could not be in; the message lists every reason."""


def build_position(
    game: "Game",
    units: Sequence[UnitSpec],
    manifestations: Sequence[ManifestationSpec] = (),
    *,
    phase: str = "hero",
    active: int = 1,
    first_player: int | None = None,
    round: int = 1,
    dice: Dice | None = None,
    seed: int = 0,
    check: bool = True,
) -> "State":
    """A state in battle round `round`, `active`'s `phase`, holding exactly `units` and
    `manifestations`. Raises PositionError (with every reason) unless it is a state the engine
    could be in; `check=False` skips the check for a test that needs an unreachable position."""
    from game.rules.state import State

    state = State(game, dice or SeededDice.from_seed(seed))
    for u in units:
        if u.id in state.units:
            raise PositionError(f"unit id {u.id!r} is given twice")
        if u.warscroll not in game.content.warscrolls:
            raise PositionError(f"unit {u.id!r}: unknown warscroll {u.warscroll!r}")
        per_model = list(u.damage) if not isinstance(u.damage, int) else [u.damage] + [0] * (len(u.models) - 1)
        if len(per_model) != len(u.models):
            raise PositionError(f"unit {u.id!r}: {len(per_model)} damage values for {len(u.models)} models")
        health = game.warscroll(u.warscroll).health
        models = [ModelState(float(x), float(y), damage=d, slain=d >= health) for (x, y), d in zip(u.models, per_model)]
        state.units[u.id] = UnitState(
            u.id,
            u.player,
            u.warscroll,
            u.name or game.warscroll(u.warscroll).name,
            models,
            ritual_points=u.ritual_points,
        )
    _put_manifestations(state, manifestations)
    first = first_player or active
    state.stage, state.round = "battle", round
    state.first_player, state.active = first, active
    state.turn = 2 * (round - 1) + (1 if active == first else 2)
    state.phase = phase
    state.objectives = [None] * len(game.battlefield.map.objectives)
    if check:
        problems = state_problems(state.to_dict(), game)
        if problems:
            raise PositionError("not a position the engine could be in: " + "; ".join(problems))
    return state


def _put_manifestations(state: "State", manifestations: Sequence[ManifestationSpec]) -> None:
    game = state.game
    given: set[str] = set()
    for m in manifestations:
        if m.id in state.units or m.id in state.manifestations or m.id in given:
            raise PositionError(f"manifestation id {m.id!r} is already used")
        if m.summoner not in state.units:
            raise PositionError(f"manifestation {m.id!r}: its summoner {m.summoner!r} is not a unit of this position")
        if m.scroll not in game.content.manifestations:
            raise PositionError(f"manifestation {m.id!r}: unknown manifestation {m.scroll!r}")
        given.add(m.id)
    for m in manifestations:
        player = m.player or state.units[m.summoner].player
        state.manifestations[m.id] = ManifestationState(
            m.id,
            m.scroll,
            player,
            m.summoner,
            m.model,
            float(m.x),
            float(m.y),
            damage=m.damage,
            commander=m.commander or player,
            moves_made=m.moves_made,
            flags=dict(m.flags),
        )
    invalidate(state)  # the board changed under any cached geometry


def remove_manifestations(state: "State", ids: Sequence[str]) -> None:
    """Take manifestations off a built position, as a position editor does: no event and no rule
    (a rule's removal is `manifestations.remove_manifestation`, which the log records)."""
    for mid in ids:
        if mid not in state.manifestations:
            raise PositionError(f"no manifestation {mid!r} in this position")
    for mid in ids:
        del state.manifestations[mid]
    invalidate(state)


def add_manifestations(state: "State", manifestations: Sequence[ManifestationSpec], *, check: bool = True) -> None:
    """Set up `manifestations` in a built position (E5: each with its summoner and summoning
    model), checked as `build_position` checks (on the battlefield, clear of bases, terrain and
    each other). On a refusal nothing is added and PositionError lists every reason. Ids given
    stay; the engine's fresh ids never collide with them (game.rules.ids)."""
    _put_manifestations(state, manifestations)
    if check:
        problems = state_problems(state.to_dict(), state.game)
        if problems:
            remove_manifestations(state, [m.id for m in manifestations])
            raise PositionError("not a position the engine could be in: " + "; ".join(problems))
