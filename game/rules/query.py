"""What the engine says about a position, for the UI and the AI to show or weigh.

The one read-only surface onto the rules (with `game.rules` for the engine API, actions, events
and decisions): the UI and the AI import from here and never from a rule module, so every fact
they show or act on is the engine's own answer. A test (tests/test_public_surface.py) fails if
they import anything else from `game.rules`. Nothing here changes a state.

Groups: ranges; where things are (shapes, distances, sight); moving (movers, allowances, legal
move limits, R4 charges, M10 walkers); magic (what a unit knows and has left, unbinding,
summoning and set-up regions, banishing); predatory manifestations (control zones and who
qualifies, reach, E5-E10); attacks (weapons, targets, saves, cover); odds (game.rules.odds);
scoring.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from game.data.models import Weapon
from game.geometry.measure import wholly_within
from game.geometry.shapes import Circle
from game.rules import odds  # the one exact-odds module, whole: query.odds.cast_chance(...)
from game.rules.allowances import PlayerUses, army_uses, levels, player_key, power_left, unbinds_left, uses
from game.rules.attacks import attack_odds, situation, target_save
from game.rules.banishing import banish_bonus, dispellable
from game.rules.casting import unbinders
from game.rules.charge import CHARGE_REACH, ENGAGE, charge_targets, enemies_within
from game.rules.combat import PILE_IN, fight_odds, fight_targets
from game.rules.damage import ward_of
from game.rules.dicexpr import expr_range
from game.rules.effects import effect_notes, modifier
from game.rules.errors import IllegalActionError
from game.rules.formation import (
    COHERENCY,
    COMBAT_RANGE,
    can_fly,
    centre_of,
    in_combat,
    manifestations_as_units,
    move_problems,
    radius_of,
    thing_move_problems,
    translated,
)
from game.rules.manifest_units import can_be_affected, counts_as_unit, moves_like_unit
from game.rules.manifestations import on_battlefield, scroll_of, summoning_value
from game.rules.movement import allowance, declared, moved_this_phase
from game.rules.movers import check_own_mover, flags_of, movers, player_of, walkers
from game.rules.odds import Situation, Volley, expr_mean
from game.rules.predatory import (
    blocked_reason,
    candidate_points,
    controller,
    move_reach,
    passed_across,
    point_problem,
    qualifies,
    ray_reach,
    reach_area,
    reach_used,
    summoning_model,
    wild_reason,
)
from game.rules.profile import profile_choices
from game.rules.removal import removed_at_edge
from game.rules.scoring import OBJECTIVE_RANGE, control_scores, general_of
from game.rules.shooting import commander_of, in_cover, melee, ranged, shooting_odds, shooting_options, shooting_volleys
from game.rules.space import (
    blocker_names,
    blockers,
    distance_to,
    footprint_at,
    gap_between,
    manifestation_shape,
    model_circle,
    positions,
    sight,
    thing_shapes,
    unit_circles,
    unit_sees,
)
from game.rules.summoning import candidate_points as setup_candidates
from game.rules.summoning import footprint_radii, setup_problems, setup_region
from game.rules.targeting import check_target, known, summon_problem, target_candidates

if TYPE_CHECKING:
    from game.rules.game import Game
    from game.rules.state import State


@dataclass(frozen=True)
class Ranges:
    """The ranges of the game being played, in inches: the profile's magic ranges (M6, E3, E7)
    and the core rules' fixed ones (R4, R2)."""

    control: float  # E7: a predatory manifestation wholly within this of its summoning model
    unbind: float  # M6: unbinding, and banishing (E3) / dispelling (aos3) in reach
    banishes: bool  # the profile has banishing (aos4)
    dispels: bool  # the profile has dispelling (aos3)
    combat: float = COMBAT_RANGE  # R4: in combat within 3"
    charge: float = CHARGE_REACH  # R4: a charge is declared with an enemy within 12"
    engage: float = ENGAGE  # R4: a charge ends within 1/2" of an enemy
    pile_in: float = PILE_IN  # R4
    coherency: float = COHERENCY  # every model within 1" of another of its unit
    objective: float = OBJECTIVE_RANGE  # R2: an objective is contested within 3"


def ranges(game: "Game") -> Ranges:
    """The ranges of `game` (its profile decides the magic ones)."""
    p = game.profile
    return Ranges(control=p.control_range, unbind=p.unbind_range, banishes=p.banishes, dispels=p.dispels)


@dataclass(frozen=True)
class ControlZone:
    """E7 for one predatory manifestation, as the engine decides it this moment.

    `reason` is None when it qualifies to be controlled, else why not: "no_summoner" (its unit
    is gone), "summoner_slain" (the summoning model is slain while its unit lives, E5) or
    "out_of_range" (not wholly within `range` of the summoning model). `zone` is the summoning
    model's base (None when there is none): the zone is everything wholly within `range` of it.
    `controller` is the (unit, model) that controls it now, once E7 has been decided."""

    manifestation: str
    summoner: str | None
    model: int | None
    zone: Circle | None
    range: float
    reason: str | None
    controller: tuple[str, int] | None

    @property
    def qualifies(self) -> bool:
        return self.reason is None


def control_zone(state: "State", mid: str) -> ControlZone:
    """E5, E7: the control zone of predatory manifestation `mid` and whether it qualifies."""
    m = state.manifestations[mid]
    rng = state.game.profile.control_range
    why = wild_reason(state, mid)
    model = None if why == "no_summoner" else summoning_model(state, mid)
    zone = model_circle(state, m.summoner, model) if model is not None else None
    return ControlZone(mid, m.summoner if why != "no_summoner" else None, model, zone, rng, why, controller(state, mid))


# The per-turn marks (game.rules.movers.flags_of) each phase of a turn sets; a phase happens once
# a turn, so a mark dated this turn was set in this phase.
_PHASE_MARKS = {
    "movement": ("moved_turn", "ran_turn", "retreated_turn"),
    "shooting": ("shot_turn",),
    "charge": ("charge_tried_turn", "charged_turn"),
    "combat": ("fought_turn",),
}


def acted_this_phase(state: "State", player: int) -> bool:
    """Whether any unit or manifestation of `player` has acted in the current phase (R2): used a
    spell, prayer, banish or summon (M1, R1, E2), tried a dispel (E3), or moved, ran, retreated,
    shot, tried a charge or fought this turn in the phase that does that (R4). Read only."""
    for key, use in state.phase_uses.items():
        if isinstance(use, PlayerUses):
            if key == player_key(player) and use.dispel_targets:
                return True
        elif (key in state.units or key in state.manifestations) and player_of(state, key) == player:
            if use.power or use.used or use.summons or use.dispelled:
                return True
    marks = _PHASE_MARKS.get(state.phase, ())
    for thing in (*state.units, *state.manifestations):
        if marks and player_of(state, thing) == player:
            flags = flags_of(state, thing)
            if any(flags.get(m) == state.turn for m in marks):
                return True
    return False


@dataclass(frozen=True)
class Unavailable:
    """Why an option is not offered now: the engine's reason code, its rule ID and its message
    (the IllegalActionError the action would raise)."""

    code: str
    rule: str | None
    message: str


def ability_unavailable(state: "State", unit_id: str, ability_id: str) -> Unavailable | None:
    """Why `unit_id` cannot use its spell or prayer `ability_id` now, whatever the target, or
    None when some model of it may use it at some target (M1, M2, M3, M5, M7, M8, M9, R1, E5).

    The engine's own checks, in its order: first what `check_may_cast` / `check_may_chant`
    refuse (spent allowance M1, Rule of One R1, once per army per turn M7, a miscast M3, ...),
    then, when every target is refused, the first target's reason; with no target at all,
    "no_target". Read-only: the state is not changed."""
    from game.rules.casting import check_may_cast
    from game.rules.prayers import check_may_chant

    ability = state.game.content.abilities[ability_id]
    u = state.units[unit_id]
    models = [i for i, _ in u.live_models()]
    may = check_may_cast if ability.kind == "spell" else check_may_chant
    with state.query():
        try:
            may(state, u.player, unit_id, models[0] if models else 0, ability_id)
        except IllegalActionError as exc:
            return Unavailable(exc.code, exc.rule, exc.message)
        first: IllegalActionError | None = None
        for target in target_candidates(state, u.player, ability):
            for i in models:
                try:
                    check_target(state, u.player, unit_id, i, ability, target)
                    return None
                except IllegalActionError as exc:
                    first = first or exc
    if first is not None:
        return Unavailable(first.code, first.rule, first.message)
    return Unavailable("no_target", "M8", f"{ability.name} has no target on the battlefield now (M8)")


__all__ = [
    # ranges
    "Ranges",
    "ranges",
    "COMBAT_RANGE",
    "CHARGE_REACH",
    "ENGAGE",
    "PILE_IN",
    "COHERENCY",
    "OBJECTIVE_RANGE",
    # where things are (G1, G2)
    "model_circle",
    "unit_circles",
    "manifestation_shape",
    "footprint_at",
    "thing_shapes",
    "positions",
    "distance_to",
    "gap_between",
    "blockers",
    "blocker_names",
    "sight",
    "unit_sees",
    "wholly_within",
    "centre_of",
    # moving (R3, R4, M10)
    "movers",
    "walkers",
    "player_of",
    "flags_of",
    "check_own_mover",
    "allowance",
    "declared",
    "moved_this_phase",
    "move_problems",
    "thing_move_problems",
    "translated",
    "radius_of",
    "can_fly",
    "in_combat",
    "manifestations_as_units",
    "charge_targets",
    "enemies_within",
    "moves_like_unit",
    "counts_as_unit",
    "can_be_affected",
    # magic (M1-M9, E2, E3)
    "known",
    "Unavailable",
    "ability_unavailable",
    "levels",
    "uses",
    "army_uses",
    "power_left",
    "unbinds_left",
    "unbinders",
    "summoning_value",
    "summon_problem",
    "scroll_of",
    "on_battlefield",
    "setup_region",
    "setup_problems",
    "setup_candidates",
    "footprint_radii",
    "banish_bonus",
    "dispellable",
    "expr_mean",
    "expr_range",
    # predatory manifestations (E5-E10)
    "ControlZone",
    "control_zone",
    "wild_reason",
    "qualifies",
    "controller",
    "summoning_model",
    "move_reach",
    "reach_area",
    "reach_used",
    "ray_reach",
    "candidate_points",
    "point_problem",
    "blocked_reason",
    "passed_across",
    "removed_at_edge",
    # attacks (R4)
    "Weapon",
    "Volley",
    "ranged",
    "melee",
    "shooting_volleys",
    "shooting_options",
    "fight_targets",
    "target_save",
    "ward_of",
    "in_cover",
    "commander_of",
    # odds: the module itself (game.rules.odds) and the odds of the exact attack the engine makes
    "odds",
    "Situation",
    "situation",
    "attack_odds",
    "shooting_odds",
    "fight_odds",
    "modifier",
    "effect_notes",
    # scoring (R2)
    "control_scores",
    # the turn (R2)
    "acted_this_phase",
    "general_of",
    # the rules profiles' names and one-line descriptions (for the set-up screens)
    "profile_choices",
]
