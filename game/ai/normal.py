"""The `normal` bot: a heuristic player for every decision the rules ask.

It weighs its choices with the exact odds of game.rules.odds, the expected damage of weapons and
spells (game.ai.knowledge), the threat ranges of enemy units and manifestations, and the value of
objectives. It never rolls the game's dice and never changes the state it is given: it only reads
it and asks `state.legal` about the actions it considers.

`ranked(state)` lists the bot's candidate actions with their scores, best first; `choose` takes
the first. The `hard` bot searches among the first few of that list. After each choice
`last_explanation` says why, in a line for the battle log.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from dataclasses import dataclass

from game.ai import hero_safety as H
from game.ai import knowledge as K
from game.ai import magic_plan as MP
from game.ai.random_bot import draw_legal
from game.ai.reason import Reason
from game.i18n import N_, PHASE_WORDS
from game.rules import (
    Action,
    Banish,
    BankRitual,
    CastSpell,
    ChantPrayer,
    Charge,
    ChooseTurnOrder,
    Decision,
    DeclineUnbind,
    Dispel,
    EndPhase,
    FailCharge,
    MovePredatory,
    MoveUnit,
    PassDispel,
    PassFight,
    PlaceManifestation,
    Retreat,
    Run,
    Shoot,
    SpendRitual,
    State,
    Unbind,
    query,
)
from game.rules.query import CHARGE_REACH, COMBAT_RANGE, can_be_affected, flags_of, movers, radius_of, walkers

Scored = tuple[float, Action, str]  # (score, action, explanation: a Reason, English as a str)

# issue 25: a hero's move is its gain less its weighted risk (game.ai.hero_safety)
# the risk counts every enemy unit as if it picked this hero; it has other targets too, so the
# risk weighs half (the general's 0.75)
HERO_RISK_WEIGHT = 0.5  # per point of the enemy's expected damage value (x1.5 for the general)
HERO_PROGRESS = 0.25  # per inch nearer its goal
HERO_SPELL_GAIN = 0.6  # an enemy within its spells' range (plus 3") from there
HERO_COVER = 2.5  # per enemy caster our unbinders would leave out of unbinding range (M6)
HERO_COVER_PER_INCH = 0.2  # and per inch it stands beyond that range (so it closes in over turns)


@dataclass
class Plan:
    """Per-turn memory: units the bot has finished with in a phase (it decides one unit at a time)."""

    turn: int = -1
    phase: str = ""
    done: set[str] | None = None

    def reset_if(self, turn: int, phase: str) -> set[str]:
        if self.turn != turn or self.phase != phase or self.done is None:
            self.turn, self.phase, self.done = turn, phase, set()
        return self.done


class NormalBot:
    name = "normal"

    def __init__(self, player: int, seed: int = 0, budget: float | None = None, fast: bool = False) -> None:
        self.player = player
        self.fast = fast  # fewer candidate points (the hard bot's rollout policy)
        self.rng = random.Random(seed * 7919 + player * 31 + 5)
        self.budget = budget
        self.last_explanation = ""
        self.plan = Plan()
        self.memo: dict[tuple, object] = {}

    # --- the protocol ---------------------------------------------------------------------------

    def choose(self, state: State) -> Action:
        d = state.pending()
        if d.player != self.player:
            raise ValueError(f"it is player {d.player}'s decision, not {self.player}'s")
        ranked = self.ranked(state, d)
        score, action, text = ranked[0]
        self.last_explanation = text
        return action

    def ranked(self, state: State, d: Decision | None = None) -> list[Scored]:
        """Candidate actions for the open decision with scores, best first (never empty)."""
        d = d or state.pending()
        self.memo = {}  # what one decision's scorers share (never kept longer)
        with state.query(), K.decision_scope(state):
            fn: Callable[[State, Decision], list[Scored]] = getattr(self, f"_d_{d.kind}", None) or self._d_fallback
            if d.kind == "phase":
                fn = getattr(self, f"_p_{d.data.get('phase')}", None) or self._end_phase
            out = fn(state, d)
            if not out:
                out = self._d_fallback(state, d)
        out.sort(key=lambda s: -s[0])
        return out

    # --- helpers ----------------------------------------------------------------------------------

    def _name(self, state: State, thing: str | None) -> str:
        if thing is None:
            return Reason(N_("no target"))
        if thing in state.units:
            return state.units[thing].name
        if thing in state.manifestations:
            return state.game.content.manifestations[state.manifestations[thing].scroll].name
        return thing

    def _d_fallback(self, state: State, d: Decision) -> list[Scored]:
        """Any legal action (a uniform choice among the unchecked candidates)."""
        a = draw_legal(state, d.candidates, self.rng)
        if a is None:
            raise RuntimeError(f"no legal option for {d.kind}: {d.prompt}")
        return [(0.0, a, Reason(N_("{kind}: no preference, picked a legal option"), kind=d.kind))]

    def _end_phase(self, state: State, d: Decision, why: str = "") -> list[Scored]:
        ph = d.data.get("phase", state.phase)
        word = Reason(PHASE_WORDS[ph]) if ph in PHASE_WORDS else ph.replace("_", " ")
        return [(0.0, EndPhase(player=self.player), why or Reason(N_("ends the {phase} phase"), phase=word))]

    # --- deployment and turn order ---------------------------------------------------------------

    def _d_deploy(self, state: State, d: Decision) -> list[Scored]:
        return [(0.0, EndPhase(player=self.player), Reason(N_("keeps the standard deployment")))]

    def _d_turn_order(self, state: State, d: Decision) -> list[Scored]:
        me = self.player
        # going first seizes objectives first; after a round in which we went second, it is a
        # double turn
        return [
            (
                1.0,
                ChooseTurnOrder(player=me, first=me),
                Reason(N_("takes the first turn to reach the objectives first")),
            ),
            (0.0, ChooseTurnOrder(player=me, first=3 - me), Reason(N_("gives the first turn away"))),
        ]

    # --- the hero phase: casting, chanting, banishing (M1-M12) ---------------------------------

    def cast_score(self, state: State, a: Action) -> tuple[float, str]:
        me, opp = self.player, 3 - self.player
        if isinstance(a, CastSpell):
            sp = state.game.content.abilities[a.spell]
            near = K.unbinder_near(state, a.unit, a.model, opp)
            p_land = query.odds.lands_chance(sp.value, near)
            value = K.ability_value(state, me, a.unit, a.spell, a.target)
            miscast = float(query.odds.miscast_fraction())
            cost = miscast * 2.0 * K.wound_value(state, a.unit) + 0.05
            score = p_land * value - cost
            kw = dict(spell=sp.name, unit=state.units[a.unit].name, p=p_land, value=value)
            if a.target:
                kw["target"] = self._name(state, a.target)
                template = (
                    N_(
                        "casts {spell} with {unit} at {target}: "
                        "{p:.0%} to land after the best unbind, worth {value:.1f}"
                    )
                    if near
                    else N_(
                        "casts {spell} with {unit} at {target}: "
                        "{p:.0%} to land (no unbinder in range), worth {value:.1f}"
                    )
                )
            else:
                template = (
                    N_("casts {spell} with {unit}: {p:.0%} to land after the best unbind, worth {value:.1f}")
                    if near
                    else N_("casts {spell} with {unit}: {p:.0%} to land (no unbinder in range), worth {value:.1f}")
                )
            return score, Reason(template, **kw)
        if isinstance(a, ChantPrayer):
            pr = state.game.content.abilities[a.prayer]
            pts = state.units[a.unit].ritual_points
            value = K.ability_value(state, me, a.unit, a.prayer, a.target)
            later = self._points_later(state, a.unit)
            # M5: the gain over the chanting roll, spent or banked (game.ai.magic_plan)
            gain, p = MP.chant_value(state, a.prayer, pts, value, later)
            score = gain + 0.05
            kw = dict(prayer=pr.name, unit=state.units[a.unit].name, p=p, points=pts, value=value)
            if p < 1 / 3:
                # answered rarely now (or not worth spending): the chant is for the points
                return score, Reason(
                    N_("chants {prayer} with {unit} to bank ritual points ({points} now): {p:.0%} to spend now"), **kw
                )
            if a.target:
                txt = Reason(
                    N_(
                        "chants {prayer} with {unit} at {target}: "
                        "{p:.0%} to be answered ({points} ritual points), worth {value:.1f}"
                    ),
                    target=self._name(state, a.target),
                    **kw,
                )
            else:
                txt = Reason(
                    N_(
                        "chants {prayer} with {unit}: "
                        "{p:.0%} to be answered ({points} ritual points), worth {value:.1f}"
                    ),
                    **kw,
                )
            return score, txt
        if isinstance(a, Banish):
            m = state.manifestations[a.manifestation]
            if m.player == me:
                return -1.0, Reason(N_("would banish its own manifestation"))
            from game.rules.query import banish_bonus

            s = state.game.content.manifestations[m.scroll]
            p = query.odds.banish_chance(s.banishment, banish_bonus(state, me, a.manifestation))
            v = K.manifestation_value(state, a.manifestation)
            return p * v - 0.1, Reason(
                N_("banishes {name} with {unit}: {p:.0%} to succeed"), name=s.name, unit=state.units[a.unit].name, p=p
            )
        return 0.0, ""

    def _p_hero(self, state: State, d: Decision) -> list[Scored]:
        out: list[Scored] = []
        best_per: dict[tuple, Scored] = {}
        for a in d.options:
            if isinstance(a, EndPhase):
                continue
            score, txt = self.cast_score(state, a)
            # one entry per (unit, ability, target): the best model (E5)
            key = (
                type(a).__name__,
                getattr(a, "unit", ""),
                getattr(a, "spell", getattr(a, "prayer", getattr(a, "manifestation", ""))),
                getattr(a, "target", None),
            )
            if key not in best_per or score > best_per[key][0]:
                best_per[key] = (score, a, txt)
        out = [s for s in best_per.values() if s[0] > 0.02]
        out = self._cast_order(state, out)
        out.append(
            (0.02, EndPhase(player=self.player), Reason(N_("nothing more worth casting, chanting or banishing")))
        )
        return out

    def _cast_order(self, state: State, out: list[Scored]) -> list[Scored]:
        """M3, M6: which cast goes first. The casts this phase can still bring (one per spell,
        M2, within each caster's power, M1) are valued in every order against the enemy's
        unbinds left (game.ai.magic_plan); the first of the best order is ranked above the
        other casts. Prayers and banishes keep their scores: no unbind reaches them."""
        from game.rules.query import power_left

        casts = sorted((s for s in out if isinstance(s[1], CastSpell)), key=lambda s: -s[0])
        if len(casts) < 2:
            return out
        opp = 3 - self.player
        power: dict[str, int] = {}
        taken: set[str] = set()
        plan: list[MP.Cast] = []
        for _score, a, _txt in casts:
            assert isinstance(a, CastSpell)
            if a.spell in taken:
                continue
            left = power.setdefault(a.unit, power_left(state, a.unit))
            if left <= 0:
                continue
            power[a.unit] = left - 1
            taken.add(a.spell)
            value = K.ability_value(state, self.player, a.unit, a.spell, a.target)
            near = K.unbinder_near(state, a.unit, a.model, opp)
            plan.append(MP.make_cast(state, a, a.unit, a.spell, value, near))
            if len(plan) >= MP.MAX_ORDERED:
                break
        if len(plan) < 2:
            return out
        unbinds = MP.enemy_unbinds(state, opp, [(c.key.unit, c.key.model) for c in plan])  # type: ignore[attr-defined]
        order, _value, _plain = MP.best_order(plan, unbinds)
        first = order[0].key
        top = casts[0][0]
        biggest = max(plan, key=lambda c: c.value)
        res: list[Scored] = []
        for score, a, txt in out:
            if a is first:
                if first is not biggest.key:
                    # not the obvious order, so it is said: a bait if the enemy is expected to
                    # unbind it, else a cast the enemy lets through, keeping its unbind
                    rest = [c.p_cast * c.unbound * c.value for c in order[1:] if c.exposed]
                    bait = order[0].exposed and not MP.keeps_unbind(order[0].unbound * order[0].value, rest, unbinds)
                    txt = Reason.join(
                        txt,
                        Reason(
                            N_(" (first, to draw the unbind before {spell})")
                            if bait
                            else N_(" (first, while the enemy keeps its unbind for {spell})"),
                            spell=state.game.content.abilities[biggest.key.spell].name,  # type: ignore[attr-defined]
                        ),
                    )
                res.append((max(score, top) + 0.01, a, txt))
            else:
                res.append((score, a, txt))
        return res

    def _points_later(self, state: State, priest: str) -> Callable[[int], float]:
        """Ritual points -> what they are worth for the priest's next hero phase (M5): the best
        of its prayers at their best target now, times the chance those points give it."""
        from game.rules.query import known

        shared = self.memo
        key = ("prayer values", priest)
        values = shared.get(key)
        if not isinstance(values, dict):
            values = {pid: self.best_ability_value(state, priest, pid) for pid in known(state, priest, "prayer")}
            shared[key] = values
        memo: dict[int, float] = {}

        def later(points: int) -> float:
            if points not in memo:
                memo[points] = MP.points_value(state, self.player, priest, points, values)
            return memo[points]

        return later

    def best_ability_value(self, state: State, uid: str, aid: str, by: int | None = None) -> float:
        """The most the ability is worth resolved by `uid` at any target in its range now."""
        by = self.player if by is None else by
        ab = state.game.content.abilities[aid]
        cx, cy = K.centre(state, uid)
        targets: list[str | None]
        if ab.target == "enemy":
            pool = K.live_units(state, 3 - by)
        elif ab.target in ("self", "none"):
            pool = []
        else:
            pool = K.live_units(state, by)
        targets = [t for t in pool if _centre_gap(state, t, cx, cy) <= ab.range + 1.5] if pool else [None]
        return max((K.ability_value(state, by, uid, aid, t) for t in targets), default=0.0)

    def _d_ritual_choice(self, state: State, d: Decision) -> list[Scored]:
        roll, pts = d.data["roll"], d.data["ritual_points"]
        pr = state.game.content.abilities[d.data["prayer"]]
        me = self.player
        kw = dict(roll=roll, points=pts, prayer=pr.name, value=pr.value)
        if roll + pts >= pr.value:
            # M5: spending answers the prayer and empties the points; banking makes the next
            # chant likelier (game.ai.magic_plan)
            priest = d.data["unit"]
            # the decision does not name the target: the prayer at its best target in range
            now = self.best_ability_value(state, priest, d.data["prayer"])
            later = self._points_later(state, priest)
            spend, bank = MP.spend_or_bank(now, pts, roll, {0: later(0), pts + roll: later(pts + roll)})
            spend_r = (
                spend,
                SpendRitual(player=me),
                Reason(N_("spends: {roll} + {points} ritual points reaches {prayer}'s {value} (M5)"), **kw),
            )
            if bank > spend:
                return [
                    (
                        bank + 1.0,
                        BankRitual(player=me),
                        Reason(N_("banks the {roll}: {prayer} is worth less now than the points next turn (M5)"), **kw),
                    ),
                    spend_r,
                ]
            return [
                (spend + 2.0, *spend_r[1:]),
                (bank, BankRitual(player=me), Reason(N_("banks the {roll}"), roll=roll)),
            ]
        return [
            (
                1.0,
                BankRitual(player=me),
                Reason(N_("banks the {roll}: {roll} + {points} is short of {prayer}'s {value} (M5)"), **kw),
            ),
            (0.0, SpendRitual(player=me), Reason(N_("spends in vain"))),
        ]

    def _d_unbind(self, state: State, d: Decision) -> list[Scored]:
        from game.rules.query import unbinds_left

        me, opp = self.player, 3 - self.player
        caster, spell_id, roll, target = d.data["caster"], d.data["spell"], d.data["roll"], d.data["target"]
        sp = state.game.content.abilities[spell_id]
        threat, p, gain = self.unbind_gain(state, d)
        unbinds = [a for a in d.options if isinstance(a, Unbind)]
        decline = DeclineUnbind(player=me)
        if not unbinds:
            return [(0.0, decline, Reason(N_("has no unbinder in range")))]
        units = {a.unit for a in unbinds}
        left = sum(unbinds_left(state, u) for u in units)
        lethal = target in state.units and state.units[target].player == me and K.is_general(state, target)
        # M6: the enemy's casts still to come this phase, each as the unbind could gain on it
        future = self.future_gains(state, opp, exclude_caster_spell=(caster, spell_id))
        keep = MP.keeps_unbind(gain, future, left)
        bigger = sorted(future, reverse=True)[left - 1] if keep else 0.0
        # the unbinder with the most unbinds left, so that coverage lasts
        best = max(
            unbinds, key=lambda a: (unbinds_left(state, a.unit), -int(a.unit[-1]) if a.unit[-1].isdigit() else 0)
        )
        who = state.units[best.unit].name
        # the spell and its target in words: "Heat Haze on Mire Wardens"
        what = Reason(N_("{spell} on {target}"), spell=sp.name, target=self._name(state, target)) if target else sp.name
        if gain <= 0.05:
            return [
                (
                    1.0,
                    decline,
                    Reason(N_("lets {spell} through: it does little (threat {threat:.1f})"), spell=what, threat=threat),
                ),
                (0.0, best, ""),
            ]
        if keep and not (lethal and gain > 0.5 * bigger):
            return [
                (
                    1.0,
                    decline,
                    Reason(
                        N_("keeps its unbinds: {spell} threatens {threat:.1f}, bigger spells can still come"),
                        spell=what,
                        threat=threat,
                    ),
                ),
                (0.0, best, ""),
            ]
        why = (
            Reason(N_("a lethal spell on its general")) if lethal else Reason(N_("threat {threat:.1f}"), threat=threat)
        )
        return [
            (
                1.0 + gain,
                best,
                Reason(
                    N_("unbinds {spell} with {unit}: {p:.0%} to beat {roll}, {why}"),
                    spell=what,
                    unit=who,
                    p=p,
                    roll=roll,
                    why=why,
                ),
            ),
            (0.0, decline, Reason(N_("lets {spell} through"), spell=sp.name)),
        ]

    def unbind_gain(self, state: State, d: Decision) -> tuple[float, float, float]:
        """An open unbind decision (M6) weighed: the spell's threat to us, the chance an unbind
        beats its casting roll (the engine's odds), and their product, what unbinding gains."""
        threat = K.ability_value(state, 3 - self.player, d.data["caster"], d.data["spell"], d.data["target"])
        p = query.odds.unbind_chance(d.data["roll"])
        return threat, p, p * threat

    def future_gains(self, state: State, by: int, exclude_caster_spell: tuple[str, str] | None = None) -> list[float]:
        """What an unbind could gain on each cast `by` may still make this phase (M1, M2, M7):
        per WIZARD its best spells within its power left, each spell once, each gain the
        spell's value at its best target x the chance it is cast x the chance an unbind
        stops it (the engine's odds)."""
        from game.rules.query import army_uses, known, power_left, uses

        used = set(army_uses(state, by).abilities)
        if exclude_caster_spell:
            used.add(exclude_caster_spell[1])
        offers: list[tuple[float, str, str]] = []
        power: dict[str, int] = {}
        for uid in K.live_units(state, by):
            ws = K.ws_of(state, uid)
            if not ws.wizard_level or power_left(state, uid) <= 0 or uses(state, uid).no_cast:
                continue
            power[uid] = power_left(state, uid)
            for sid in known(state, uid, "spell"):
                sp = state.game.content.abilities[sid]
                if sid in uses(state, uid).used or (sid in used and not sp.unlimited):
                    continue
                v = self.best_ability_value(state, uid, sid, by)
                g = v * query.odds.cast_chance(sp.value) * MP.unbind_share(sp.value)
                if g > 0:
                    offers.append((g, uid, sid))
        out: list[float] = []
        taken: set[str] = set()
        for g, uid, sid in sorted(offers, key=lambda o: (-o[0], o[1], o[2])):
            if power[uid] <= 0 or (sid in taken and not state.game.content.abilities[sid].unlimited):
                continue
            power[uid] -= 1
            taken.add(sid)
            out.append(g)
        return out

    def _d_summon_setup(self, state: State, d: Decision) -> list[Scored]:
        scroll = d.data["scroll"]
        s = state.game.content.manifestations[scroll]
        cx, cy = d.data["centre"]
        reach = float(d.data["reach"])
        from game.rules.query import footprint_radii

        _, outer = footprint_radii(state, scroll)
        pts = [(a.x, a.y) for a in d.options]
        enemies = K.live_units(state, 3 - self.player)
        ecent = sorted((K.centre(state, e) for e in enemies), key=lambda p: math.hypot(p[0] - cx, p[1] - cy))[:3]
        src_r = radius_of(state, d.data["unit"])
        for ex, ey in ecent:
            dd = math.hypot(ex - cx, ey - cy) or 1.0
            ux, uy = (ex - cx) / dd, (ey - cy) / dd
            for ang in (0.0, 0.35, -0.35):
                vx, vy = ux * math.cos(ang) - uy * math.sin(ang), ux * math.sin(ang) + uy * math.cos(ang)
                for L in (reach + src_r - outer - 0.05, reach + src_r - outer - 2.0, reach * 0.5):
                    if L > 0:
                        pts.append((round(cx + vx * L, 3), round(cy + vy * L, 3)))
        mine = [K.centre(state, k) for k in K.live_units(state, self.player)]
        # E7: a predator is controlled next hero phase only wholly within control range of its
        # summoning model; M12, E3: enemy WIZARDs and PRIESTs in range may banish or dispel it
        control = state.game.profile.control_range - 3.0  # room for the summoner to move
        removers = [
            K.centre(state, e) for e in enemies if K.ws_of(state, e).wizard_level or K.ws_of(state, e).priest_level
        ]
        reach_off = max(state.game.profile.banish_range, state.game.profile.dispel_range)

        def score(p: tuple[float, float]) -> float:
            near = min(
                (math.hypot(p[0] - ex, p[1] - ey) for ex, ey in (K.centre(state, e) for e in enemies)), default=30.0
            )
            pen = 0.0
            if s.predatory and ecent:
                ex, ey = ecent[0]
                for mx, my in mine:
                    if K.seg_dist(p, (ex, ey), (mx, my)) < 2.5:
                        pen += 3.0
                if math.hypot(p[0] - cx, p[1] - cy) + outer > control:
                    pen += 4.0  # it would go wild: the enemy may pick it up (E8)
            pen += 1.5 * sum(1 for rx, ry in removers if math.hypot(p[0] - rx, p[1] - ry) <= reach_off)
            return -near - pen

        ranked = sorted(dict.fromkeys(pts), key=score, reverse=True)
        out: list[Scored] = []
        checked = 0
        for p in ranked:
            a = PlaceManifestation(player=self.player, x=p[0], y=p[1])
            checked += 1
            if state.legal(a):
                out.append(
                    (
                        score(p) + 100,
                        a,
                        Reason(N_("sets up {name} toward the enemy"), name=s.name),
                    )
                )
                if len(out) >= 3:
                    break
            if checked > 14 and out:
                break
        if not out:
            out = [(0.0, a, Reason(N_("sets up {name}"), name=s.name)) for a in d.options[:1]]
        return out

    def _d_dispel(self, state: State, d: Decision) -> list[Scored]:
        out: list[Scored] = [(0.0, PassDispel(player=self.player), Reason(N_("makes no (more) dispel attempts")))]
        for a in d.options:
            if not isinstance(a, Dispel):
                continue
            m = state.manifestations[a.manifestation]
            if m.player == self.player:
                continue
            from game.rules.query import summoning_value

            p = query.odds.dispel_chance(summoning_value(state, m.scroll))
            v = K.manifestation_value(state, a.manifestation)
            cost = 0.6
            out.append(
                (
                    p * v - cost,
                    a,
                    Reason(N_("tries to dispel {name}: {p:.0%}"), name=self._name(state, a.manifestation), p=p),
                )
            )
        return out

    # --- the predatory procedure (E7-E10) ------------------------------------------------------

    def _d_predatory_control(self, state: State, d: Decision) -> list[Scored]:
        out: list[Scored] = []
        for a in d.options:
            mine_best = self.best_predatory(state, a.manifestation, self.player)
            theirs_best = self.best_predatory(state, a.manifestation, 3 - self.player)
            v = (mine_best[0] if mine_best else 0.0) + (theirs_best[0] if theirs_best else 0.0)
            out.append(
                (
                    v,
                    a,
                    Reason(
                        N_("controls {name}: it can do the most ({v:.1f}) and the enemy cannot turn it on us (E7)"),
                        name=self._name(state, a.manifestation),
                        v=v,
                    ),
                )
            )
        if not self.fast and len(out) > 1:
            # E7, E8: the choice's effect two moves ahead (ours, then the opponent's reply)
            out = MP.lookahead(self, state, out, _fast_policy, own_score=False)
        return out

    def predatory_points(self, state: State, mid: str) -> list[tuple[float, float]]:
        """Points worth weighing for a predatory move; the engine measures the reach from the
        footprint (E9, E10) and decides which points may be picked (`point_problem`)."""
        from game.rules.query import candidate_points, point_problem, ray_reach

        m = state.manifestations[mid]
        bf = state.game.battlefield
        pts = list(candidate_points(state, mid, self.player, directions=8 if self.fast else 16))
        for uid, u in state.units.items():
            if not u.alive:
                continue
            ux, uy = K.centre(state, uid)
            dd = math.hypot(ux - m.x, uy - m.y)
            if dd < 1e-6:
                continue
            dx, dy = (ux - m.x) / dd, (uy - m.y) / dd
            reach = ray_reach(state, mid, dx, dy) - 0.01
            if dd > reach + 8:
                continue
            for L in (dd + 2.5, reach) if self.fast else (dd + 2.5, dd + 5, dd, reach):
                L = min(L, reach)
                pts.append((m.x + dx * L, m.y + dy * L))
        # the edges, to remove a manifestation on purpose (E4b)
        for (ex, ey), (dx, dy) in (
            ((m.x, 0.0), (0, -1)),
            ((m.x, bf.height), (0, 1)),
            ((0.0, m.y), (-1, 0)),
            ((bf.width, m.y), (1, 0)),
        ):
            if math.hypot(ex - m.x, ey - m.y) <= ray_reach(state, mid, dx, dy) - 0.01:
                pts.append((ex, ey))
        out = []
        for x, y in pts:
            x, y = round(min(max(x, 0.0), bf.width), 3), round(min(max(y, 0.0), bf.height), 3)
            if point_problem(state, mid, x, y) is None:
                out.append((x, y))
        return list(dict.fromkeys(out))

    def predatory_move_value(self, state: State, mid: str, x: float, y: float, commander: int) -> tuple[float, str]:
        from game.rules.query import blocked_reason, passed_across, removed_at_edge, summoning_model

        m = state.manifestations[mid]
        s = state.game.content.manifestations[m.scroll]
        start = (m.x, m.y)
        end = start if blocked_reason(state, mid, x, y) else (x, y)
        crossed = passed_across(state, mid, start, end)
        v = 0.0
        hit_enemy, hit_own = [], []
        for uid in crossed:
            dmg = 0.0
            for spec in s.pass_across:
                if spec.handler in ("mortal_damage", "mortal_damage_on_roll"):
                    on = (spec.on or 7) if spec.handler == "mortal_damage_on_roll" else None
                    dist = query.odds.mortal_damage_distribution(spec.amount or 0, on)
                    dmg += K.damage_value(state, uid, query.odds.after_ward(dist, K.ward_of(state, uid)))
            if state.units[uid].player == commander:
                v -= 1.3 * dmg
                hit_own.append(state.units[uid].name)
            else:
                v += dmg
                hit_enemy.append(state.units[uid].name)
        mv = K.manifestation_value(state, mid)
        gone = end != start and removed_at_edge(state, mid, *end)  # E4b, the engine's test
        caps = [r.value for r in s.removal if r.kind == "after_moves"]
        if caps and m.moves_made + 1 >= caps[0]:
            gone = True
        if gone:
            v += mv if m.player != commander else -mv * (0.3 if caps and m.moves_made + 1 >= caps[0] else 1.0)
        else:
            # where it ends: near the enemies of whoever will command it next, away from our own
            enemy_of_owner = 3 - m.player
            near_e = min(
                (
                    math.hypot(end[0] - ex, end[1] - ey)
                    for ex, ey in (K.centre(state, u) for u in K.live_units(state, enemy_of_owner))
                ),
                default=40.0,
            )
            pos = -0.04 * near_e
            if s.pass_across:
                pos += 0.6 if near_e < move_reach_of(state, mid) else 0.0
            if m.player == commander:
                model = summoning_model(state, mid)
                if model is not None:
                    sx, sy = state.units[m.summoner].models[model].x, state.units[m.summoner].models[model].y
                    if math.hypot(end[0] - sx, end[1] - sy) > state.game.profile.control_range - 3:
                        pos -= 0.5  # it would go wild next time (E7)
                v += pos
            else:
                v -= pos  # an enemy one: leave it far from its targets
        if end == start:  # a move it cannot make, or none: the log then says it stays where it is
            return v, Reason.join(Reason(N_("keeps {name} where it is"), name=s.name), " (E9)")
        parts = [Reason(N_("moves {name}"), name=s.name)]
        if hit_enemy:
            parts.append(Reason(N_(" across {units}"), units=", ".join(hit_enemy)))
        if hit_own:
            parts.append(Reason(N_(" (also across our {units})"), units=", ".join(hit_own)))
        if gone and end != start and m.player != commander and not (caps and m.moves_made + 1 >= caps[0]):
            parts.append(Reason(N_(" and off the battlefield edge to remove it (E4b)")))
        elif not hit_enemy:
            parts.append(Reason(N_(" into position")))
        return v, Reason.join(*parts, " (E9)")

    def best_predatory(self, state: State, mid: str, commander: int) -> Scored | None:
        best: Scored | None = None
        for x, y in self.predatory_points(state, mid):
            v, txt = self.predatory_move_value(state, mid, x, y, commander)
            if best is None or v > best[0]:
                best = (v, MovePredatory(player=commander, manifestation=mid, x=x, y=y), txt)
        return best

    def _d_predatory_move(self, state: State, d: Decision) -> list[Scored]:
        out: list[Scored] = []
        for mid in d.data.get("manifestations", {}):
            cands = []
            for x, y in self.predatory_points(state, mid):
                v, txt = self.predatory_move_value(state, mid, x, y, self.player)
                cands.append((v, MovePredatory(player=self.player, manifestation=mid, x=x, y=y), txt))
            cands.sort(key=lambda s: -s[0])
            n = 0
            for c in cands:
                if state.legal(c[1]):
                    out.append(c)
                    n += 1
                    if n >= 4:
                        break
        if not self.fast and len(out) > 1:
            # E8, E9: which one to move and where, two moves ahead (ours, then the opponent's reply)
            out = MP.lookahead(self, state, out, _fast_policy)
        return out

    # --- movement ---------------------------------------------------------------------------------

    def objective_plan(self, state: State) -> dict[str, int]:
        """Which objective each of our units heads for (greedy: nearest where control is needed)."""
        from game.rules.query import control_scores

        objs = state.game.battlefield.map.objectives
        me = self.player
        need = []
        for i, o in enumerate(objs):
            a, b = control_scores(state, i)
            theirs = b if me == 1 else a
            # enemy control that could arrive
            for e in K.live_units(state, 3 - me):
                ex, ey = K.centre(state, e)
                ws = K.ws_of(state, e)
                if math.hypot(ex - o.x, ey - o.y) <= ws.move + 6 and not K.within_objective(state, e, i):
                    theirs += ws.control * len(state.units[e].live_models()) * 0.5
            need.append(theirs + 1.0)
        pairs = []
        for uid in K.live_units(state, me):
            cx, cy = K.centre(state, uid)
            for i, o in enumerate(objs):
                pairs.append((math.hypot(cx - o.x, cy - o.y), uid, i))
        # our non-HERO units claim the objectives first; heroes (casters, the general) only the
        # control still needed after them (issue 25: they stay behind the line that holds)
        pairs.sort(key=lambda p: (H.is_hero(state, p[1]), p[0]))
        plan: dict[str, int] = {}
        for _dist, uid, i in pairs:
            if uid in plan or need[i] <= 0:
                continue
            ws = K.ws_of(state, uid)
            plan[uid] = i
            need[i] -= ws.control * len(state.units[uid].live_models())
        return plan

    def _p_movement(self, state: State, d: Decision) -> list[Scored]:
        from game.rules.query import declared, moved_this_phase

        done = self.plan.reset_if(state.turn, "movement")
        me = self.player
        mine = [u for u in K.live_units(state, me) if not moved_this_phase(state, u) and u not in done]
        plan = self.objective_plan(state) if mine else {}
        enemies = K.live_units(state, 3 - me)

        def front(uid: str) -> float:
            cx, cy = K.centre(state, uid)
            return min((math.hypot(cx - ex, cy - ey) for ex, ey in (K.centre(state, e) for e in enemies)), default=0.0)

        # heroes move after the units that screen them (issue 25)
        mine.sort(key=lambda u: (declared(state, u) is None, H.is_hero(state, u), front(u)))
        for uid in mine:
            res = self.plan_move(state, uid, plan)
            if res is not None:
                return [res]
            done.add(uid)
        for mid in walkers(state, me):  # M10: manifestations that move like units
            if mid in done or moved_this_phase(state, mid):
                continue
            res = self.plan_walker_move(state, mid)
            if res is not None:
                return [res]
            done.add(mid)
        return self._end_phase(state, d, Reason(N_("has moved every unit it wants to")))

    def plan_walker_move(self, state: State, mid: str) -> Scored | None:
        """M10: a walker closes on the enemy unit it can hurt most, stopping just outside combat
        range so that it can charge; it runs when the enemy is far and it has nothing to shoot."""
        from game.rules.query import allowance, declared, in_combat, ranged

        me = self.player
        kind, reach = allowance(state, mid)
        if in_combat(state, mid) and kind != "retreat":
            return None  # it stays and fights
        enemies = K.live_units(state, 3 - me)
        if not enemies:
            return None
        target = max(
            enemies,
            key=lambda e: (
                K.expected_damage_value(state, e, K.attack_output(state, mid, e, "combat"))
                - 0.05 * K.gap(state, mid, e)
            ),
        )
        gap = K.gap(state, mid, target)
        shots = max((w.range for w in ranged(state, mid)), default=0.0)
        name = self._name(state, mid)
        if not declared(state, mid) and kind == "normal" and gap > reach + CHARGE_REACH and gap > shots + reach:
            return (
                1.0,
                Run(player=me, unit=mid),
                Reason(
                    N_("{unit} runs toward {target}: {gap:.0f}\" away (M10)"),
                    unit=name,
                    target=self._name(state, target),
                    gap=gap,
                ),
            )
        cx, cy = K.centre(state, mid)
        tx, ty = K.centre(state, target)
        radii = math.hypot(tx - cx, ty - cy) - gap  # from centre to centre, less the gap between edges
        return self._move_toward(
            state,
            mid,
            (tx, ty),
            reach,
            3.4 + radii,
            Reason(N_("closes on {target} (M10)"), target=self._name(state, target)),
        )

    def plan_move(self, state: State, uid: str, plan: dict[str, int]) -> Scored | None:
        from game.rules.query import allowance, declared, in_combat

        me = self.player
        u = state.units[uid]
        ws = K.ws_of(state, uid)
        kind, reach = allowance(state, uid)
        fighting = in_combat(state, uid)
        enemies = K.live_units(state, 3 - me)
        if not enemies:
            return None
        cx, cy = K.centre(state, uid)
        if fighting and not declared(state, uid):
            foes = [e for e in enemies if K.gap(state, uid, e) <= COMBAT_RANGE + 0.05]
            out_v = max(
                (K.expected_damage_value(state, e, K.attack_output(state, uid, e, "combat")) for e in foes), default=0.0
            )
            in_v = sum(K.expected_damage_value(state, uid, K.attack_output(state, e, uid, "combat")) for e in foes)
            fragile = ws.has("HERO") or ws.wizard_level or ws.priest_level
            if foes and in_v > (1.2 if fragile else 2.5) * out_v + 1.0 and K.wounds_left(state, uid) > 2:
                return (
                    1.0,
                    Retreat(player=me, unit=uid),
                    Reason(
                        N_("{unit} retreats: it would lose the fight ({theirs:.1f} against {ours:.1f})"),
                        unit=u.name,
                        theirs=in_v,
                        ours=out_v,
                    ),
                )
            return None
        if kind == "retreat":
            ex, ey = min((K.centre(state, e) for e in enemies), key=lambda p: math.hypot(p[0] - cx, p[1] - cy))
            goal = (cx + (cx - ex) * 10, cy + (cy - ey) * 10)
            return self._move_toward(state, uid, goal, reach, 0.0, Reason(N_("retreats away from the fight")))
        # the goal: an objective, or the nearest enemy for units that fight well and have none
        goal_txt: str = ""
        nearest = min(enemies, key=lambda e: K.gap(state, uid, e))
        ngap = K.gap(state, uid, nearest)
        melee_good = K.attack_output(state, uid, nearest, "combat") >= 1.2 and not (ws.wizard_level or ws.priest_level)
        is_gen = K.is_general(state, uid)
        objs = state.game.battlefield.map.objectives
        if uid in plan:
            o = objs[plan[uid]]
            goal = (o.x, o.y)
            stop = 0.0
            goal_txt = Reason(N_("heads for {objective}"), objective=o.name)
            if K.within_objective(state, uid, plan[uid]) and math.hypot(cx - o.x, cy - o.y) < 1.5:
                return None
        elif melee_good and not is_gen:
            goal = K.centre(state, nearest)
            stop = 3.4
            goal_txt = Reason(N_("closes on {target}"), target=state.units[nearest].name)
        else:
            o = min(objs, key=lambda o: math.hypot(o.x - cx, o.y - cy)) if objs else None
            if o is None:
                return None
            goal = (o.x, o.y)
            stop = 2.0
            goal_txt = Reason(N_("supports {objective}"), objective=o.name)
        dist = math.hypot(goal[0] - cx, goal[1] - cy)
        hero = H.is_hero(state, uid) and not (melee_good and not is_gen and uid not in plan)
        has_shot = any(w.range > 0 for w in ws.weapons) and any(
            K.gap(state, uid, e) <= max(w.range for w in ws.weapons) + ws.move for e in enemies
        )
        if (
            not declared(state, uid)
            and kind == "normal"
            and dist - stop > reach + 1.5
            and not has_shot
            and ngap > reach + 10
            and not fighting
            and not hero  # a hero keeps pace with its line (issue 25)
        ):
            return (
                1.0,
                Run(player=me, unit=uid),
                Reason(
                    N_("{unit} runs: its goal is {dist:.0f}\" away ({goal})"), unit=u.name, dist=dist, goal=goal_txt
                ),
            )
        if hero:
            return self._hero_move(state, uid, goal, reach, stop, goal_txt, plan.get(uid))
        return self._move_toward(state, uid, goal, reach, stop, goal_txt)

    def end_at_stake(self, state: State) -> bool:
        """The game's end is at stake: the last battle round (R2) and we are not ahead, so the
        general may risk itself to turn the result."""
        me = self.player
        return state.round >= state.game.rounds and state.score[me - 1] <= state.score[2 - me]

    def _hero_move(
        self, state: State, uid: str, goal, reach: float, stop: float, why: str, objective: int | None
    ) -> Scored | None:
        """Issue 25: a hero's move, scored by what the position gains (its objective, getting
        on toward its goal, enemies in its spells' range) less the weighted risk of standing
        there through the enemy's turn (game.ai.hero_safety: charges, shooting, spells,
        predatory manifestations; a charge screened by our other units counts less). A WIZARD
        that is our only unbinder in reach keeps within unbinding range of the enemy casters
        (M6); the general never ends where the expected damage would slay it, unless the
        game's end is at stake. None: it stays where it is."""
        from game.rules.query import ranges, translated

        me = self.player
        risk = H.hero_risk(state, uid)
        cx, cy = K.centre(state, uid)
        r = radius_of(state, uid)
        rng = ranges(state.game)
        objs = state.game.battlefield.map.objectives
        general = K.is_general(state, uid)
        weight = HERO_RISK_WEIGHT * (1.5 if general else 1.0)
        careless = general and self.end_at_stake(state)
        # enemy casters no other unbinder of ours covers from where it stands (M6)
        # (the general leaves the duty to another unbinder that can still move there)
        uncovered: list[str] = []
        if H.unbinder(state, uid):
            from game.rules.query import allowance, moved_this_phase

            others = [o for o in K.live_units(state, me) if o != uid and H.unbinder(state, o)]

            def can_cover(o: str, c: str) -> bool:
                slack = 0.0 if not general or moved_this_phase(state, o) else allowance(state, o)[1]
                return H.cover_gap(state, o, *K.centre(state, o), c) <= slack

            for c in H.casters(state, 3 - me):
                if not any(can_cover(o, c) for o in others):
                    uncovered.append(c)
        spell_range = max(
            (
                state.game.content.abilities[a].range
                for k in ("spell", "prayer")
                for a in query.known(state, uid, k)
                if state.game.content.abilities[a].target == "enemy"
            ),
            default=0.0,
        )
        enemies = K.live_units(state, 3 - me)

        def gain(x: float, y: float) -> float:
            g = -HERO_PROGRESS * max(0.0, math.hypot(goal[0] - x, goal[1] - y) - stop)
            if objective is not None:
                o = objs[objective]
                if math.hypot(o.x - x, o.y - y) - r <= rng.objective:
                    g += K.VP_WEIGHT
            if spell_range and any(
                math.hypot(ex - x, ey - y) - r <= spell_range + 3.0 for ex, ey in (K.centre(state, e) for e in enemies)
            ):
                g += HERO_SPELL_GAIN
            for c in uncovered:
                short = H.cover_gap(state, uid, x, y, c)
                if short > 0:
                    g -= HERO_COVER + HERO_COVER_PER_INCH * short
            return g

        def score(x: float, y: float) -> float:
            if general and not careless and risk.lethal_at(x, y):
                return -1e6 - risk.damage_at(x, y)
            return gain(x, y) - weight * risk.value_at(x, y)

        # candidate points: a fan toward the goal, and spots behind our other units
        pts: list[tuple[float, float, str | None]] = []
        dx, dy = goal[0] - cx, goal[1] - cy
        dist = math.hypot(dx, dy)
        if reach > 0.05:
            base = math.atan2(dy, dx) if dist > 1e-6 else 0.0
            step = min(reach - 0.01, max(dist - stop, 0.0)) if dist - stop >= 0.3 else reach - 0.01
            for ang in (0.0, 0.4, -0.4, 0.8, -0.8, 1.6, -1.6):
                for f in (1.0, 0.7, 0.4):
                    L = step * f
                    if L >= 0.25:
                        pts.append((cx + math.cos(base + ang) * L, cy + math.sin(base + ang) * L, None))
            threat = self._threat_centre(state, risk, cx, cy)
            if threat is not None:
                tx, ty = threat
                for s in K.live_units(state, me):
                    if s == uid or H.is_hero(state, s):
                        continue
                    sx, sy = K.centre(state, s)
                    if math.hypot(sx - cx, sy - cy) > reach + 8:
                        continue
                    d = math.hypot(sx - tx, sy - ty) or 1.0
                    ux, uy = (sx - tx) / d, (sy - ty) / d
                    depth = max(math.hypot(m.x - sx, m.y - sy) for _, m in state.units[s].live_models())
                    back = depth + radius_of(state, s) + r + 1.0
                    for side in (0.0, 0.6, -0.6):
                        vx = ux * math.cos(side) - uy * math.sin(side)
                        vy = ux * math.sin(side) + uy * math.cos(side)
                        px, py = sx + vx * back, sy + vy * back
                        L = math.hypot(px - cx, py - cy)
                        if L > reach - 0.01:  # as far toward it as the move allows
                            px, py = cx + (px - cx) * (reach - 0.01) / L, cy + (py - cy) * (reach - 0.01) / L
                        pts.append((px, py, s))
        here = score(cx, cy)
        ranked_pts = sorted(((score(x, y), x, y, s) for x, y, s in pts), key=lambda t: -t[0])
        tries = 0
        for sc, x, y, screen in ranked_pts:
            if sc <= here + 0.05:
                break  # staying is as good
            L = math.hypot(x - cx, y - cy)
            if L < 0.25:
                continue
            to = tuple(translated(state, uid, x - cx, y - cy))
            a = MoveUnit(player=me, unit=uid, to=to)
            tries += 1
            if state.legal(a):
                dmg = risk.damage_at(x, y)
                if dmg < 0.05:  # nothing to fear there: the plain words
                    text = Reason(
                        N_("{unit} {why} ({distance:.1f}\")"), unit=self._name(state, uid), why=why, distance=L
                    )
                elif screen is not None and risk.screened_any(x, y):
                    text = Reason(
                        N_("{unit} keeps behind {screen} ({distance:.1f}\"): {risk:.1f} damage to fear there"),
                        unit=self._name(state, uid),
                        screen=self._name(state, screen),
                        distance=L,
                        risk=dmg,
                    )
                else:
                    text = Reason(
                        N_("{unit} {why} ({distance:.1f}\"): {risk:.1f} damage to fear there"),
                        unit=self._name(state, uid),
                        why=why,
                        distance=L,
                        risk=dmg,
                    )
                return (1.0, a, text)
            if tries >= 10:
                break
        return None

    def _threat_centre(self, state: State, risk: "H.HeroRisk", cx: float, cy: float) -> tuple[float, float] | None:
        """Where the danger to a hero comes from: the damage-weighted centre of the enemy units
        that may charge or shoot it from near where it stands."""
        wx = wy = wt = 0.0
        for s in risk.sources:
            if s.kind not in ("charge", "shooting"):
                continue
            w = s.damage / (1.0 + max(0.0, math.hypot(s.x - cx, s.y - cy) - s.reach - 12.0))
            wx, wy, wt = wx + w * s.x, wy + w * s.y, wt + w
        return (wx / wt, wy / wt) if wt > 0 else None

    def _move_toward(self, state: State, uid: str, goal, reach: float, stop: float, why: str) -> Scored | None:
        from game.rules.query import translated

        me = self.player
        cx, cy = K.centre(state, uid)
        dx, dy = goal[0] - cx, goal[1] - cy
        dist = math.hypot(dx, dy)
        if dist - stop < 0.3 or reach <= 0.05:
            return None
        base = math.atan2(dy, dx)
        step = min(reach - 0.01, dist - stop)
        cands = []
        for ang in (0.0, 0.4, -0.4, 0.8, -0.8):
            for f in (1.0, 0.7, 0.4):
                L = step * f
                nx, ny = cx + math.cos(base + ang) * L, cy + math.sin(base + ang) * L
                cands.append((math.hypot(goal[0] - nx, goal[1] - ny) + 0.2 * abs(ang), L, ang))
        cands.sort()
        tries = 0
        for _, L, ang in cands:
            if L < 0.25:
                continue
            to = tuple(translated(state, uid, math.cos(base + ang) * L, math.sin(base + ang) * L))
            a = MoveUnit(player=me, unit=uid, to=to)
            tries += 1
            if state.legal(a):
                return (
                    1.0,
                    a,
                    Reason(N_("{unit} {why} ({distance:.1f}\")"), unit=self._name(state, uid), why=why, distance=L),
                )
            if tries >= 8:
                break
        return None

    # --- shooting ---------------------------------------------------------------------------------

    def _p_shooting(self, state: State, d: Decision) -> list[Scored]:
        from game.rules.query import ranged

        done = self.plan.reset_if(state.turn, "shooting")
        me = self.player
        enemies = K.live_units(state, 3 - me)
        enemies += [k for k, m in state.manifestations.items() if m.player != me and can_be_affected(state, k)]
        out: list[Scored] = []
        shooters = K.live_units(state, me) + [k for k, m in state.manifestations.items() if m.commander == me]
        for uid in shooters:
            flags = flags_of(state, uid)
            if uid in done or not ranged(state, uid) or flags.get("shot_turn") == state.turn:
                continue
            if flags.get("ran_turn") == state.turn or flags.get("retreated_turn") == state.turn:
                continue
            reach = max(w.range for w in ranged(state, uid))
            opts = []
            for t in enemies:
                if K.gap(state, uid, t) > reach + 0.01:
                    continue
                mv = K.shot_mean(state, uid, t)  # the very shot, as the target panel shows it
                if t in state.manifestations:
                    v = K.damage_value(state, t, ((int(round(mv)), 1.0),))
                else:
                    v = K.expected_damage_value(state, t, mv)
                opts.append((v, t))
            opts.sort(reverse=True)
            found = False
            for v, t in opts[:4]:
                a = Shoot(player=me, unit=uid, target=t)
                if state.legal(a):
                    out.append(
                        (
                            v + 0.01,
                            a,
                            Reason(
                                N_("{unit} shoots {target}: expected value {v:.1f}"),
                                unit=self._name(state, uid),
                                target=self._name(state, t),
                                v=v,
                            ),
                        )
                    )
                    found = True
                    break
            if not found:
                done.add(uid)
        if not out:
            return self._end_phase(state, d, Reason(N_("has nothing more to shoot at")))
        return out

    # --- charges ----------------------------------------------------------------------------------

    def charge_value(self, state: State, uid: str, target: str) -> float:
        mine = K.expected_damage_value(state, target, K.attack_output(state, uid, target, "combat", charged=True))
        back = (
            K.expected_damage_value(state, uid, K.attack_output(state, target, uid, "combat"))
            if target in state.units
            else 0.0
        )
        w = 1.6 if K.is_general(state, uid) else 0.7
        return mine - w * back

    def may_charge(self, state: State, uid: str) -> bool:
        """R1-R4: `uid` has not charged or tried to this turn, did not run or retreat, and is
        not in combat (the engine's flags; `legal` still decides the Charge itself)."""
        from game.rules.query import in_combat

        flags = flags_of(state, uid)
        if flags.get("charged_turn") == state.turn or flags.get("charge_tried_turn") == state.turn:
            return False
        if flags.get("ran_turn") == state.turn or flags.get("retreated_turn") == state.turn:
            return False
        return not in_combat(state, uid)

    def best_charge(self, state: State, uid: str) -> tuple[float, float, float, str] | None:
        """The enemy within CHARGE_REACH worth most to charge: (chance x value, chance, value,
        target), the chance the engine's 2D6 odds of ending within 1/2" (R4)."""
        best = None
        for e in K.live_units(state, 3 - self.player):
            g = K.gap(state, uid, e)
            if g > CHARGE_REACH:
                continue
            p = query.odds.charge_chance(g - 0.45)  # R4: 2D6 reaching it, with a 0.05" margin
            v = self.charge_value(state, uid, e)
            if best is None or p * v > best[0]:
                best = (p * v, p, v, e)
        return best

    def _p_charge(self, state: State, d: Decision) -> list[Scored]:
        done = self.plan.reset_if(state.turn, "charge")
        me = self.player
        out: list[Scored] = []
        for uid in movers(state, me):  # units, and manifestations that charge like them (M10)
            if uid in done or not self.may_charge(state, uid):
                continue
            best = self.best_charge(state, uid)
            if (
                best is None
                or best[1] < 0.25
                or best[0] < 0.4
                or (uid in state.units and self._holds_objective_alone(state, uid))
                or (K.is_general(state, uid) and self._general_would_fall(state, uid, best[3]))
            ):
                done.add(uid)
                continue
            a = Charge(player=me, unit=uid)
            if not state.legal(a):
                done.add(uid)
                continue
            out.append(
                (
                    best[0],
                    a,
                    Reason(
                        N_("{unit} charges toward {target}: {p:.0%} to make it, worth {value:.1f}"),
                        unit=self._name(state, uid),
                        target=self._name(state, best[3]),
                        p=best[1],
                        value=best[2],
                    ),
                )
            )
        if not out:
            return self._end_phase(state, d, Reason(N_("sees no charge worth making")))
        return out

    def _general_would_fall(self, state: State, uid: str, target: str) -> bool:
        """Issue 25: would the general, once in combat with `target`, expect to take enough
        damage before its next turn to be slain (the target's blows and every other enemy that
        may reach it there, game.ai.hero_safety)? It does not charge then, unless the game's end
        is at stake."""
        if self.end_at_stake(state):
            return False
        cx, cy = K.centre(state, uid)
        tx, ty = K.centre(state, target)
        d = math.hypot(tx - cx, ty - cy) or 1.0
        g = K.gap(state, uid, target)
        # where the charge ends: in base contact on the near side of the target
        x, y = cx + (tx - cx) * g / d, cy + (ty - cy) * g / d
        return H.hero_risk(state, uid).lethal_at(x, y)

    def _holds_objective_alone(self, state: State, uid: str) -> bool:
        for i in range(len(state.game.battlefield.map.objectives)):
            if K.within_objective(state, uid, i) and not any(
                K.within_objective(state, o, i) for o in K.live_units(state, self.player) if o != uid
            ):
                return True
        return False

    def _d_charge_move(self, state: State, d: Decision) -> list[Scored]:
        from game.rules.query import translated

        me = self.player
        uid, roll = d.data["unit"], d.data["roll"]
        out: list[Scored] = []
        for a in d.options:
            if isinstance(a, FailCharge):
                continue
            tgt = self._charge_target_of(state, uid, a)
            v = self.charge_value(state, uid, tgt) if tgt else 0.0
            out.append(
                (
                    v + 5,
                    a,
                    Reason(
                        N_("{unit} completes its charge ({roll}\") into {target}"),
                        unit=self._name(state, uid),
                        roll=roll,
                        target=self._name(state, tgt),
                    ),
                )
            )
        if not out:
            cx, cy = K.centre(state, uid)
            tries = 0
            for e in sorted(K.live_units(state, 3 - me), key=lambda e: K.gap(state, uid, e)):
                g = K.gap(state, uid, e)
                if g - 0.5 > roll:
                    break
                ex, ey = K.centre(state, e)
                base = math.atan2(ey - cy, ex - cx)
                for ang in (0.25, -0.25, 0.5, -0.5):
                    for L in (min(roll - 0.01, g - 0.1), min(roll - 0.01, g + 0.3)):
                        to = tuple(translated(state, uid, math.cos(base + ang) * L, math.sin(base + ang) * L))
                        a = MoveUnit(player=me, unit=uid, to=to)
                        tries += 1
                        if state.legal(a):
                            out.append(
                                (
                                    self.charge_value(state, uid, e) + 5,
                                    a,
                                    Reason(
                                        N_("{unit} charges into {target}"),
                                        unit=self._name(state, uid),
                                        target=state.units[e].name,
                                    ),
                                )
                            )
                            break
                    if out or tries > 10:
                        break
                if out or tries > 10:
                    break
        out.append(
            (
                0.0,
                FailCharge(player=me),
                Reason(
                    N_("{unit} cannot reach with {roll}\": the charge fails"), unit=self._name(state, uid), roll=roll
                ),
            )
        )
        return out

    def _charge_target_of(self, state: State, uid: str, a: MoveUnit) -> str | None:
        cx, cy = K.centre(state, uid)
        n = len(a.to)
        nx, ny = sum(p[0] for p in a.to) / n, sum(p[1] for p in a.to) / n
        best, bd = None, 1e9
        for e in K.live_units(state, 3 - self.player):
            ex, ey = K.centre(state, e)
            dd = math.hypot(ex - nx, ey - ny)
            if dd < bd:
                best, bd = e, dd
        return best

    # --- combat -------------------------------------------------------------------------------

    def _d_fight(self, state: State, d: Decision) -> list[Scored]:
        me = self.player
        out: list[Scored] = []
        for a in d.options:
            if isinstance(a, PassFight):
                continue
            t = a.target
            mean = K.fight_mean(state, a.unit, t)  # the fight, as the fight panel shows it
            if a.unit in state.manifestations:
                v = (
                    K.expected_damage_value(state, t, mean)
                    if t in state.units
                    else K.damage_value(state, t, ((int(round(mean)), 1.0),))
                )
                out.append(
                    (
                        v + 0.01,
                        a,
                        Reason(
                            N_("{unit} fights {target}: expected value {v:.1f} (M10)"),
                            unit=self._name(state, a.unit),
                            target=self._name(state, t),
                            v=v,
                        ),
                    )
                )
                continue
            if t in state.manifestations:
                v = K.damage_value(state, t, ((int(round(mean)), 1.0),))
            else:
                v = K.expected_damage_value(state, t, mean)
            # best trades first: units that may not survive to fight later go early
            danger = 0.0
            for e in K.live_units(state, 3 - me):
                if K.gap(state, a.unit, e) <= COMBAT_RANGE + 0.05:
                    danger += K.attack_output(state, e, a.unit, "combat")
            risk = min(1.0, danger / max(1, K.wounds_left(state, a.unit)))
            score = v * (1 + 0.5 * risk)
            out.append(
                (
                    score + 0.01,
                    a,
                    Reason(
                        N_("{unit} fights {target}: expected value {v:.1f}"),
                        unit=state.units[a.unit].name,
                        target=self._name(state, t),
                        v=v,
                    ),
                )
            )
        out.append((0.0, PassFight(player=me), Reason(N_("has no fight worth taking"))))
        return out

    def _p_start_of_turn(self, state: State, d: Decision) -> list[Scored]:
        return self._end_phase(state, d)

    def _p_end_of_turn(self, state: State, d: Decision) -> list[Scored]:
        return self._end_phase(state, d)

    def _p_combat(self, state: State, d: Decision) -> list[Scored]:
        return self._end_phase(state, d)


def _fast_policy(player: int, seed: int) -> NormalBot:
    """The one-move policy that plays the replies in a lookahead (no lookahead of its own)."""
    return NormalBot(player, seed, fast=True)


def move_reach_of(state: State, mid: str) -> float:
    from game.rules.query import move_reach

    return move_reach(state, mid)


def _centre_gap(state: State, uid: str, x: float, y: float) -> float:
    cx, cy = K.centre(state, uid)
    r = radius_of(state, uid)
    return math.hypot(cx - x, cy - y) - r
