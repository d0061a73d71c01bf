"""The risk to a hero standing at a point until its next turn (issue 25).

One job: how much damage the enemy can be expected to put on one of our units (a WIZARD, a
PRIEST, the general, any HERO) if it ends its move at (x, y), counting each way the enemy has
to reach it in its next turn:

* charges (R4): an enemy unit (or a manifestation that charges like one, M10) moves, then rolls
  2D6 to get within 1/2"; the chance is the engine's `query.odds.charge_chance`, the damage its
  melee output (`knowledge.attack_output`, the engine's attack sequence). A charge whose straight
  lane runs through one of our non-HERO units is screened: the screen takes it or forces a
  detour, so it counts at `SCREENED` of its chance.
* shooting (R4): ranged weapons within their range after the enemy's move (sight is assumed:
  the shooter can usually move to see); damage as above.
* spells and prayers (M1, M4, M5): the enemy casts in its hero phase, before it moves, so a
  caster reaches what is within the spell's range of where it stands now; the chance to land is
  `query.odds.lands_chance` (our unbinders in range, M6) or `prayer_chance`, the damage the
  engine's mortal-damage distribution after the hero's ward.
* predatory manifestations (E9, E10): the enemy's ones move in its hero phase up to
  `query.move_reach`; a hero within that reach may be passed across, taking the damage of the
  manifestation's pass-across effects.

Each source counts in full (an enemy unit may choose another target; that is the cautious
side). Every range, chance and damage number comes from the engine's public surface
(game.rules.query); nothing here is a second copy of a rule. Read only.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from game.ai import knowledge as K
from game.rules.query import (
    allowance,
    footprint_radii,
    known,
    move_reach,
    movers,
    odds,
    radius_of,
    ranged,
    ranges,
    scroll_of,
)

if TYPE_CHECKING:
    from game.rules import State

SCREENED = 0.25  # a charge whose lane runs through one of our non-HERO units (see above)
_GAP_MARGIN = 0.05  # the bot's margin on the charge's 1/2" (as normal.py's charge scorer)


@dataclass(frozen=True)
class Source:
    """One enemy way to hurt the hero: from (x, y), reaching `reach` inches (edge to edge,
    before the hero's base) with `chance`, dealing `damage` expected points."""

    kind: str  # "charge", "shooting", "spell", "predatory"
    who: str
    x: float
    y: float
    radius: float  # the source's base radius (0 for a point)
    reach: float  # how far past its base it gets (move + range, or move for a charge)
    damage: float
    chance: float = 1.0  # spells and prayers: the chance to land (charges are per distance)


@dataclass
class HeroRisk:
    """The risk to one unit `uid` of `player` at any point, its sources computed once."""

    state: "State"
    uid: str
    sources: list[Source] = field(default_factory=list)
    screens: list[tuple[float, float, float]] = field(default_factory=list)  # (x, y, r) of our models

    def damage_at(self, x: float, y: float) -> float:
        """Expected damage points on the unit next enemy turn if its centre stands at (x, y)."""
        r = radius_of(self.state, self.uid)
        engage = ranges(self.state.game).engage
        total = 0.0
        for s in self.sources:
            gap = math.hypot(x - s.x, y - s.y) - r - s.radius
            if s.kind == "charge":
                # R4: the move, then a 2D6 roll to end within 1/2"
                left = gap - s.reach - engage + _GAP_MARGIN
                p = 1.0 if left <= 0 else odds.charge_chance(left)
                if p > 0 and self.screened(s, x, y, r):
                    p *= SCREENED
                total += p * s.damage
            elif gap <= s.reach + 1e-9:
                total += s.chance * s.damage
        return total

    def value_at(self, x: float, y: float) -> float:
        """What that damage is worth to the enemy (`knowledge.expected_damage_value`: wounds,
        and the kill's bonus: the general's VPs, its manifestations)."""
        return K.expected_damage_value(self.state, self.uid, self.damage_at(x, y))

    def lethal_at(self, x: float, y: float) -> bool:
        """Would the expected damage there slay the unit?"""
        return self.damage_at(x, y) >= K.wounds_left(self.state, self.uid)

    def screened_any(self, x: float, y: float) -> bool:
        """Is some enemy charge lane to (x, y) screened by our units?"""
        r = radius_of(self.state, self.uid)
        return any(s.kind == "charge" and self.screened(s, x, y, r) for s in self.sources)

    def screened(self, s: Source, x: float, y: float, r: float) -> bool:
        """Does the charge lane from the source to (x, y) run through one of our non-HERO units
        standing nearer the source (too close for the charger's base to pass)?"""
        d_hero = math.hypot(x - s.x, y - s.y)
        for sx, sy, sr in self.screens:
            if math.hypot(sx - s.x, sy - s.y) >= d_hero:
                continue
            if K.seg_dist((s.x, s.y), (x, y), (sx, sy)) <= sr + max(r, s.radius) + 0.5:
                return True
        return False


def hero_risk(state: "State", uid: str) -> HeroRisk:
    """The sources of risk to our unit `uid` from its enemies next turn (see the module)."""
    me = state.units[uid].player
    opp = 3 - me
    risk = HeroRisk(state, uid)
    for e in movers(state, opp):
        ex, ey = K.centre(state, e)
        er = _radius(state, e)
        move = allowance(state, e)[1]
        melee = K.attack_output(state, e, uid, "combat", charged=True)
        if melee > 0:
            risk.sources.append(Source("charge", e, ex, ey, er, move, melee))
        guns = ranged(state, e)
        if guns:
            shots = K.attack_output(state, e, uid, "shooting")
            if shots > 0:
                reach = move + max(w.range for w in guns)
                risk.sources.append(Source("shooting", e, ex, ey, er, reach, shots))
        if e in state.units:
            risk.sources.extend(_casting_sources(state, e, uid, ex, ey, er))
    risk.sources.extend(_predatory_sources(state, uid, me))
    for s in K.live_units(state, me):
        if s == uid or K.ws_of(state, s).has("HERO"):
            continue
        sr = radius_of(state, s)
        risk.screens.extend((m.x, m.y, sr) for _, m in state.units[s].live_models())
    return risk


def _casting_sources(state: "State", caster: str, victim: str, x: float, y: float, r: float) -> list[Source]:
    """M4, M5: the enemy's damaging spells and prayers, cast from where the caster stands (the
    hero phase comes before its move); their chance is the engine's, with our unbinders (M6)."""
    out: list[Source] = []
    ward = K.ward_of(state, victim)
    me = state.units[victim].player
    for kind in ("spell", "prayer"):
        for aid in known(state, caster, kind):
            ab = state.game.content.abilities[aid]
            if ab.target != "enemy":
                continue
            dmg = _mortal_mean(ab.effects, ward)
            if dmg <= 0:
                continue
            if kind == "spell":
                best = 0.0
                for i, _ in state.units[caster].live_models():
                    near = K.unbinder_near(state, caster, i, me)
                    best = max(best, odds.lands_chance(ab.value, near))
                chance = best
            else:
                chance = odds.prayer_chance(ab.value, state.units[caster].ritual_points)
            out.append(Source(kind, caster, x, y, r, ab.range, dmg, chance))
    return out


def _predatory_sources(state: "State", victim: str, me: int) -> list[Source]:
    """E9, E10: the enemy's predatory manifestations, which move up to their reach in its hero
    phase and damage what they pass across."""
    out: list[Source] = []
    ward = K.ward_of(state, victim)
    for mid, m in state.manifestations.items():
        s = scroll_of(state, mid)
        if m.player == me or not s.predatory:
            continue
        dmg = _mortal_mean(s.pass_across, ward)
        if dmg > 0:
            out.append(Source("predatory", mid, m.x, m.y, 0.0, move_reach(state, mid), dmg))
    return out


def _radius(state: "State", thing: str) -> float:
    """A unit's base radius; a manifestation's footprint's outer radius (M10 walkers)."""
    if thing in state.manifestations:
        return footprint_radii(state, state.manifestations[thing].scroll)[1]
    return radius_of(state, thing)


def _mortal_mean(effects, ward: int) -> float:
    """Expected mortal damage points of effects after a ward (game.rules.odds)."""
    total = 0.0
    for spec in effects:
        if spec.handler in ("mortal_damage", "mortal_damage_on_roll"):
            on = (spec.on or 7) if spec.handler == "mortal_damage_on_roll" else None
            dist = odds.after_ward(odds.mortal_damage_distribution(spec.amount or 0, on), ward)
            total += sum(d * p for d, p in dist)
    return total


def is_hero(state: "State", uid: str) -> bool:
    """A unit whose safety the bot weighs: a HERO, a WIZARD, a PRIEST or the general."""
    ws = K.ws_of(state, uid)
    return bool(ws.has("HERO") or ws.wizard_level or ws.priest_level or K.is_general(state, uid))


def unbinder(state: "State", uid: str) -> bool:
    """Can the unit unbind at all (M6)? The engine's allowance: a unit with UNBINDs in a phase
    of its own (`levels`' wizard level; a PRIEST has none in any profile)."""
    from game.rules.query import levels

    return levels(state, uid)[0] > 0


def casters(state: "State", player: int) -> list[str]:
    """`player`'s live units that can cast a spell (M1): what an unbinder must cover."""
    return [u for u in K.live_units(state, player) if known(state, u, "spell")]


def covers(state: "State", uid: str, x: float, y: float, caster: str) -> bool:
    """Would our unbinder `uid` standing at (x, y) be within unbinding range (M6) of `caster`,
    which casts from where it stands now (its hero phase comes before its move)?"""
    return cover_gap(state, uid, x, y, caster) <= 1e-9


def cover_gap(state: "State", uid: str, x: float, y: float, caster: str) -> float:
    """How far beyond unbinding range (M6, the profile's range) of `caster`'s nearest model our
    unbinder `uid` would stand at (x, y); 0 or less: within it."""
    r = radius_of(state, uid)
    rng = ranges(state.game).unbind
    cr = radius_of(state, caster)
    return min(math.hypot(m.x - x, m.y - y) - r - cr for _, m in state.units[caster].live_models()) - rng
