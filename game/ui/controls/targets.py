"""Shooting (R3, G1, G2) and combat (R4): pick one of your units, then a target.

Shooting: pick a shooter (panel or battlefield); its legal targets are highlighted and labelled
with their distance and the expected hits from the weapon profiles; hovering any enemy draws
the sight line from the shooter's nearest model, green or red, and an illegal one says why
(`State.explain`). Click a highlighted target (or its button) to shoot.

Combat: the units that can fight are highlighted; pick one, then a highlighted target; or pass.

The expected hits and damage are the engine's exact odds of the very attack (game.rules.odds,
through `shooting_odds` and `fight_odds`): every modifier, ward and critical effect the attack
itself applies; the bots weigh the same numbers.

M10: a manifestation with weapons shoots and fights like a unit of one model, measured and
seen from its footprint: it is listed, picked and labelled by name like a unit, and its
expected hits and damage come from the same odds as a unit's. One that moves like a unit
piles in before it fights; a PREDATORY one fights where it stands.
"""

from __future__ import annotations

from typing import Any

from game.content_words import content_name as cn
from game.i18n import _, ngettext
from game.rules import Action, EndPhase, Fight, PassFight, Shoot, query
from game.ui import phase_words as words
from game.ui import theme
from game.ui.controls.base import FieldTool, kind_is, phase_is, tool
from game.ui.engine_words import engine_text
from game.ui.intents import intent
from game.ui.labels import name_of
from game.ui.panel import ButtonSpec, PanelContext, PanelView, control, option_button, spent_button
from game.ui.render.field import Ring
from game.ui.render.overlays import Label, Shape


def shooters(state, player: int) -> dict[str, list[Action]]:
    """Own units and manifestations (M10) with at least one legal Shoot, and those shots."""
    from game.rules.query import shooting_options

    out: dict[str, list[Action]] = {}
    with state.query():
        for a in shooting_options(state):
            if a.player == player and not state.explain(a):
                out.setdefault(a.unit, []).append(a)
    return out


def _shooter_roster(state, player: int) -> list[str]:
    """Every own unit and manifestation (M10) with ranged weapons, in the army's order: the
    shooting panel's stable slots."""
    from game.rules.query import shooting_options

    with state.query():
        return list(dict.fromkeys(a.unit for a in shooting_options(state) if a.player == player))


def _why_no_shot(state, player: int, uid: str) -> tuple[str, str]:
    """(short, full): the engine's reason when every shot of `uid` gets the same one (it has
    shot, ran, retreated: R1, R4), else "no target in range and sight"."""
    from game.rules.query import shooting_options

    with state.query():
        reasons = {tuple(state.explain(a)[:1]) for a in shooting_options(state) if a.unit == uid}
    if len(reasons) == 1:
        (one,) = reasons
        if one:
            said = engine_text(one[0], state)
            return said, said
    return _("no target in range and sight (G1, G2)"), ""


@control("phase:shooting")
def shooting_control(ctx: PanelContext) -> PanelView:
    from game.rules.query import (  # bases, or a footprint (M10)
        distance_to,
        ranged,
        shooting_odds,
        shooting_volleys,
        thing_shapes,
    )

    d = ctx.decision
    st = ctx.state
    view = PanelView(
        title=_("{player}: {phase}").format(player=words.player(d.player), phase=words.phase_noun("shooting"))
    )
    shots = shooters(st, d.player)
    uid = ctx.selection.get("unit")
    if uid not in shots:
        uid = None
    if uid is None:
        view.lines.append(_("Pick a unit to shoot with (here or on the battlefield)."))
        for k in _shooter_roster(st, d.player):
            if k not in shots:  # it keeps its slot, greyed with the engine's reason
                view.buttons.append(spent_button(name_of(st, k), *_why_no_shot(st, d.player, k)))
                continue
            acts = shots[k]
            rng = max(w.range for w in ranged(st, k))
            view.buttons.append(
                ButtonSpec(
                    name_of(st, k),
                    intent("select", unit=k),
                    ngettext(
                        '{n} target in range and sight; range {range}"',
                        '{n} targets in range and sight; range {range}"',
                        len(acts),
                    ).format(n=len(acts), range=f"{rng:g}"),
                    role="nav",
                )
            )
            view.field_picks[k] = intent("select", unit=k)
        if not shots:
            view.lines.append(_("No unit has a target in range and in sight."))
        view.buttons.append(option_button(ctx, EndPhase(player=d.player)))
        return view
    view.title = _("Player {p}: {unit} shoots").format(p=d.player, unit=name_of(st, uid))
    view.back = ButtonSpec(_("Back to the shooters"), intent("select", unit=None), role="nav")
    ws = ranged(st, uid)
    view.lines.append(
        _("Weapons: {list}").format(
            list="; ".join(
                f'{cn(w.name)} {w.range:g}" A{w.attacks} {w.hit}+/{w.wound}+ R{w.rend} D{w.damage}' for w in ws
            )
        )
    )
    if uid in st.manifestations:
        view.lines.append(
            _("{name} shoots like a unit of one model, measured and seen from its footprint (M10).").format(
                name=name_of(st, uid)
            )
        )
    view.lines.append(_("Click a highlighted target; hover others to see the sight line and why not."))
    with st.query():
        for a in shots[uid]:
            vol = shooting_volleys(st, uid, a.target)
            h, dmg = shooting_odds(st, uid, a.target)
            dist = min(distance_to(st, c, a.target) for c in thing_shapes(st, uid))
            models = sum(v.models for v in vol) // max(1, len(vol))
            view.buttons.append(
                ButtonSpec(
                    _("Shoot {target}").format(target=name_of(st, a.target)),
                    intent("choose", action=a),
                    _('{dist}" away, ~{models}: expect {hits} hits, {damage} damage').format(
                        dist=f"{dist:.1f}",
                        models=ngettext("{n} model", "{n} models", models).format(n=models),
                        hits=f"{h:.1f}",
                        damage=f"{dmg:.1f}",
                    ),
                )
            )
            view.field_picks[a.target] = intent("choose", action=a)
    a0 = Shoot(player=d.player, unit=uid, target="")

    def probe(thing: str) -> Action:
        return Shoot(player=a0.player, unit=a0.unit, target=thing)

    view.probe = probe
    view.buttons.append(option_button(ctx, EndPhase(player=d.player)))
    return view


@tool(phase_is("shooting"))
class ShootTool(FieldTool):
    """Range ring from the selected shooter and distance/expected-hits labels on its targets."""

    def __init__(self, scene: Any) -> None:
        super().__init__(scene)
        self._labels: dict = {}

    def overlay(self, ov):
        from game.geometry.shapes import Circle
        from game.rules.query import (
            commander_of,
            distance_to,
            manifestation_shape,
            model_circle,
            ranged,
            shooting_odds,
            thing_shapes,
        )
        from game.ui.controls.units import bounds_of, grown

        st = self.state
        uid = self.scene.selection.get("unit")
        if uid in st.manifestations:  # M10: a manifestation that shoots (E8: its commander picks)
            if commander_of(st, uid) != self.player:
                return None
        elif uid not in st.units or st.units[uid].player != self.player:
            return None
        ws = ranged(st, uid)
        if not ws:
            return None
        if uid in st.manifestations:
            c = manifestation_shape(st, uid)
        else:
            model = self.scene.selected[1] if self.scene.selected and self.scene.selected[0] == uid else 0
            if model >= len(st.units[uid].models) or st.units[uid].models[model].slain:
                model = st.units[uid].live_models()[0][0]
            c = model_circle(st, uid, model)
        for rng in sorted({w.range for w in ws}):
            if isinstance(c, Circle):
                ov.rings.append(
                    Ring(c.x, c.y, c.r + rng, theme.RING_SPELL, _('{range}" shooting').format(range=f"{rng:g}"), 1)
                )
            else:  # a polygon footprint: its outline grown by the range
                env = grown(c, rng)
                b = bounds_of(env)
                ov.marks.append(Shape(env, (0, 0, 0, 0), theme.RING_SPELL, 1))
                ov.marks.append(
                    Label(
                        (b[0] + b[2]) / 2,
                        b[3],
                        _('{range}" shooting').format(range=f"{rng:g}"),
                        theme.RING_SPELL,
                        12,
                        dy=-18,
                    )
                )
        view = self.scene.view
        key = (self.scene.session.version, uid)
        if key not in self._labels:
            labels = []
            with st.query():
                for t in view.field_picks if view else {}:
                    if t == uid:
                        continue
                    h, _dmg = shooting_odds(st, uid, t)
                    dist = min(distance_to(st, cc, t) for cc in thing_shapes(st, uid))
                    if t in st.units:
                        m = st.units[t].live_models()[0][1]
                        x, y = m.x, m.y
                    else:
                        x, y = st.manifestations[t].x, st.manifestations[t].y
                    labels.append(
                        Label(
                            x,
                            y,
                            _('{dist}"  ~{hits} hits').format(dist=f"{dist:.1f}", hits=f"{h:.1f}"),
                            theme.LEGAL_TARGET,
                            12,
                            dy=14,
                        )
                    )
            self._labels = {key: labels}
        ov.marks += self._labels[key]
        return None


def _melee_of(state, thing: str):
    """A unit's or a manifestation's melee weapons, from the engine (M10: none for E1 kinds)."""
    from game.rules.query import melee

    return melee(state, thing)


def pile_in_text(state, thing: str) -> str:
    """What a fighter does before it attacks (R4, M10)."""
    from game.rules.query import PILE_IN, moves_like_unit

    name = name_of(state, thing)
    if thing in state.manifestations and not moves_like_unit(state, thing):
        return _("{name} fights where it stands: a PREDATORY manifestation makes no pile-in (M10).").format(name=name)
    return _('{name} piles in first: up to {pile_in}" straight towards its target, then attacks (R4).').format(
        name=name, pile_in=f"{PILE_IN:g}"
    )


@control("fight")
def fight_control(ctx: PanelContext) -> PanelView:
    from game.rules.query import fight_odds

    d = ctx.decision
    st = ctx.state
    opts = [o for o in d.options if isinstance(o, Fight)]
    view = PanelView(title=_("Player {p}: combat - pick a unit to fight").format(p=d.player))
    units: dict[str, list[Fight]] = {}
    for o in opts:
        units.setdefault(o.unit, []).append(o)
    uid = ctx.selection.get("unit")
    if uid not in units:
        uid = next(iter(units)) if len(units) == 1 else None
    if uid is None:
        view.lines.append(
            _(
                "Highlighted: your units (and manifestations) that can fight. Pick one (it piles in up to "
                '{pile_in}" towards its target; a PREDATORY manifestation fights where it stands).'
            ).format(pile_in=f"{query.PILE_IN:g}")
        )
        for k, acts in units.items():
            view.buttons.append(
                ButtonSpec(
                    name_of(st, k),
                    intent("select", unit=k),
                    ngettext('{n} target within {range}"', '{n} targets within {range}"', len(acts)).format(
                        n=len(acts), range=f"{query.COMBAT_RANGE:g}"
                    ),
                    role="nav",
                )
            )
            view.field_picks[k] = intent("select", unit=k)
    else:
        view.title = _("Player {p}: {unit} fights").format(p=d.player, unit=name_of(st, uid))
        if len(units) > 1:
            view.back = ButtonSpec(_("Back to the units"), intent("select", unit=None), role="nav")
        weapons = _melee_of(st, uid)
        view.lines.append(
            _("Weapons: {list}").format(
                list="; ".join(f"{cn(w.name)} A{w.attacks} {w.hit}+/{w.wound}+ R{w.rend} D{w.damage}" for w in weapons)
            )
        )
        view.lines.append(pile_in_text(st, uid))
        view.lines.append(_('Click a highlighted target within {range}".').format(range=f"{query.COMBAT_RANGE:g}"))
        for a in units[uid]:
            try:
                h, dmg, n = fight_odds(st, uid, a.target)
                odds = ngettext(
                    "at most {n} model: up to ~{hits} hits, {damage} damage",
                    "at most {n} models: up to ~{hits} hits, {damage} damage",
                    n,
                ).format(n=n, hits=f"{h:.1f}", damage=f"{dmg:.1f}")
            except Exception:
                odds = ""
            view.buttons.append(
                ButtonSpec(_("Fight {target}").format(target=name_of(st, a.target)), intent("choose", action=a), odds)
            )
            view.field_picks[a.target] = intent("choose", action=a)

        def probe(thing: str) -> Action:
            return Fight(player=d.player, unit=uid, target=thing)

        view.probe = probe
    for o in d.options:
        if isinstance(o, PassFight):
            view.buttons.append(
                ButtonSpec(
                    _("Pass: fight with no more units"),
                    intent("choose", action=o),
                    tip=_("Give up the rest of your fights this phase (R4)"),
                    role="end",
                )
            )
    return view


@tool(kind_is("fight"))
class FightTool(FieldTool):
    """Highlights who can fight; for the picked fighter (a unit or a manifestation, M10) its 3"
    combat range and what it does first (pile in, or fight where it stands)."""

    def overlay(self, ov):
        from game.geometry.shapes import Circle
        from game.rules.query import COMBAT_RANGE, manifestation_shape, model_circle

        uid = self.scene.selection.get("unit")
        st = self.state
        view = self.scene.view
        if view is not None and uid is None:
            for o in self.decision.options:
                if isinstance(o, Fight) and (o.unit in st.units or o.unit in st.manifestations):
                    ov.highlight_units[o.unit] = theme.SELECT
        fights = uid is not None and any(isinstance(o, Fight) and o.unit == uid for o in self.decision.options)
        if uid in st.units:
            for i, _m in st.units[uid].live_models()[:1]:
                c = model_circle(st, uid, i)
                ov.rings.append(Ring(c.x, c.y, c.r + COMBAT_RANGE, theme.RING_CONTROL, _('3" combat'), 1))
        elif uid in st.manifestations and fights:
            c = manifestation_shape(st, uid)
            if isinstance(c, Circle):
                ov.rings.append(Ring(c.x, c.y, c.r + COMBAT_RANGE, theme.RING_CONTROL, _('3" combat'), 1))
            else:
                ov.marks.append(Shape(c.buffer(COMBAT_RANGE), (0, 0, 0, 0), theme.RING_CONTROL, 1))
        if fights and self.scene.hover is None:  # hovering keeps the scene's sight and "why not" hints
            return (pile_in_text(st, uid) + " " + _("Click a highlighted target."), theme.TEXT)
        return None
