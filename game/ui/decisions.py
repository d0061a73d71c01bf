"""The decision panel's content: any `pending()` decision turned into buttons, hints and a
point choice. A registry maps decision kinds to controls; anything unregistered gets the
generic control, so a decision kind added to the engine tomorrow is playable at once.

A control is `fn(ctx) -> PanelView`. It never changes the state: buttons carry intents
(`choose` with an engine action, or `select` to narrow a staged choice). The records
(`PanelView`, `ButtonSpec`, `PointSpec`, `PanelContext`) and the registry (`control`) live in
game.ui.panel, which the field-tool modules (game.ui.controls) also import to register theirs;
the scenes take the records from here.
"""

from __future__ import annotations

import re
from dataclasses import fields as dc_fields
from typing import Any

from game.content_words import content_name as cn
from game.i18n import N_, _, ngettext
from game.rules import Action
from game.ui import controls  # noqa: F401  (loads the field-tool modules: they register their controls)
from game.ui import phase_words as words
from game.ui.engine_words import engine_text, prompt_text
from game.ui.intents import intent
from game.ui.labels import describe, name_of
from game.ui.panel import CONTROLS, ButtonSpec, PanelContext, PanelView, PointSpec, control, option_button, spent_button


def build_view(ctx: PanelContext) -> PanelView:
    """The panel for the open decision: a registered control (by kind, or "phase:<phase>" for
    the phase decision), else the generic one; then the tool's and the undo buttons."""
    d = ctx.decision
    fn = CONTROLS.get(d.kind)
    if d.kind == "phase":
        fn = CONTROLS.get(f"phase:{d.data.get('phase')}", hero_control if d.data.get("phase") == "hero" else None)
    view = (fn or generic_control)(ctx)
    if view.point is None and not view.custom_point and d.data.get("point_action"):
        view.point = point_spec(d)
    if ctx.tool is not None:
        ctx.tool.decorate(view)
    top = ctx.undo.available() if ctx.undo is not None else None
    if top is not None:
        view.buttons.append(
            ButtonSpec(
                _("Undo: {action} (U)").format(action=top.label),
                intent("tool", name="undo"),
                tip=_("No dice were rolled since: it can be taken back"),
                role="nav",
                numbered=False,  # its key is U: it must not take a number from the options
            )
        )
    return view


def point_spec(d) -> PointSpec:
    data = d.data
    centre = tuple(data["centre"]) if data.get("centre") is not None else None
    cands = []
    for o in d.options:
        if getattr(o, "type", "") == data["point_action"] and hasattr(o, "x"):
            cands.append((o.x, o.y))
    return PointSpec(
        action=data["point_action"],
        player=d.player,
        fields=dict(data.get("point_fields") or {}),
        centre=centre,
        reach=data.get("reach"),
        scroll=data.get("scroll"),
        candidates=cands,
    )


def _field(action: Action, name: str) -> Any:
    return getattr(action, name, None)


# --- the generic control ----------------------------------------------------------------


def generic_control(ctx: PanelContext) -> PanelView:
    """Every option as a button. With many options that name a unit, pick the unit first."""
    d = ctx.decision
    prompt = prompt_text(d.prompt, ctx.state)
    view = PanelView(title=_("{player}: {prompt}").format(player=words.player(d.player), prompt=prompt))
    opts = list(d.options)
    point_type = d.data.get("point_action")
    if point_type:
        view.lines.append(_("Click the battlefield to choose a point (green: legal, red: why not)."))
        opts_shown = [o for o in opts if o.type != point_type]
        if len(opts_shown) != len(opts):
            first = next(o for o in opts if o.type == point_type)
            view.buttons.append(option_button(ctx, first, _("Use the suggested point")))
        opts = opts_shown
    with_unit = [o for o in opts if isinstance(_field(o, "unit"), str) and _field(o, "unit") in ctx.state.units]
    unit = ctx.selection.get("unit")
    if len(opts) > 12 and len(with_unit) > 6 and unit is None:
        units: dict[str, int] = {}
        for o in with_unit:
            units[o.unit] = units.get(o.unit, 0) + 1
        for uid, n in units.items():
            view.buttons.append(
                ButtonSpec(
                    ngettext("{unit} ({n} option)", "{unit} ({n} options)", n).format(
                        unit=name_of(ctx.state, uid), n=n
                    ),
                    intent("select", unit=uid),
                    role="nav",
                )
            )
            view.field_picks[uid] = intent("select", unit=uid)
        rest = [o for o in opts if o not in with_unit]
        view.buttons += [option_button(ctx, o) for o in rest]
        return view
    if unit is not None:
        view.back = ButtonSpec(_("Back to all options"), intent("select", unit=None), role="nav")
        opts = [o for o in opts if _field(o, "unit") in (unit, None)]
    for o in opts:
        view.buttons.append(option_button(ctx, o))
        tgt = _field(o, "target")
        if isinstance(tgt, str):
            view.field_picks.setdefault(tgt, intent("choose", action=o))
    return view


# --- magic controls -----------------------------------------------------------------------


@control("turn_order")
def turn_order_control(ctx: PanelContext) -> PanelView:
    d = ctx.decision
    view = PanelView(
        title=_("{player} won the priority roll-off").format(player=words.player(d.player)),
        lines=[_("Who takes the first turn? (R2)")],
    )
    view.buttons = [option_button(ctx, o) for o in d.options]
    return view


# Short words for why a spell or prayer is not offered, by the engine's reason code; the rule
# ID and the engine's full message come from the engine (query.ability_unavailable).
SPENT_WORDS = {
    "once_per_turn": N_("used this turn"),
    "rule_of_one": N_("used by this caster this phase"),
    "power_spent": N_("no uses left this phase"),
    "miscast": N_("miscast: casts no more this phase"),
    "no_target": N_("no target now"),
    "out_of_range": N_("no target in range"),
    "not_visible": N_("no target in sight"),
    "already_summoned": N_("already on the battlefield"),
    "summoned_this_turn": N_("tried this turn"),  # M9: an attempt counts, whatever its roll
    "removed_this_turn": N_("removed this turn"),
    "summon_cap": N_("no more summons this phase"),
}


def _rule_of(message: str) -> str | None:
    m = re.search(r"\(([A-Z][0-9]+[a-z]?)\)\s*$", message)
    return m.group(1) if m else None


def spent_words(code: str | None, rule: str | None, message: str) -> str:
    """E.g. "used this turn (M7)": the short reason under a greyed slot."""
    rule = rule or _rule_of(message)
    text = _(SPENT_WORDS.get(code or "", N_("not possible now")))
    return _("{why} ({rule})").format(why=text, rule=rule) if rule else text


def _roster(st, player: int) -> list[str]:
    """The player's WIZARDs and PRIESTs on the battlefield, in the army's order (stable slots)."""
    out = []
    for uid, u in st.units.items():
        if u.player != player or not u.alive:
            continue
        ws = st.game.warscroll(u.warscroll)
        if ws.wizard_level or ws.priest_level:
            out.append(uid)
    return out


def _known(st, uid: str) -> list[str]:
    from game.rules import query

    return query.known(st, uid, "spell") + query.known(st, uid, "prayer")


def _caster_reason(st, uid: str) -> tuple[str, str]:
    """(short, full) why a caster has nothing to use now: its first known ability's reason."""
    from game.rules import query

    if query.power_left(st, uid) <= 0:
        for a in _known(st, uid):
            why = query.ability_unavailable(st, uid, a)
            if why is not None and why.code == "power_spent":
                return spent_words(why.code, why.rule, why.message), engine_text(why.message, st)
        return _("no uses left this phase (M1)"), ""
    for a in _known(st, uid):
        why = query.ability_unavailable(st, uid, a)
        if why is not None:
            return _("nothing it can use now"), engine_text(why.message, st)
    return _("nothing it can use now"), ""


def hero_control(ctx: PanelContext) -> PanelView:
    """Hero phase: pick a caster, then (E5) a model, then a spell/prayer/banish, then a target.

    Stable slots: every WIZARD and PRIEST of the army, and every spell and prayer a caster
    knows (M8), keep their place in the roster order; one not offered now is greyed with the
    engine's reason (query.ability_unavailable: e.g. "used this turn (M7)")."""
    from game.rules import query

    d = ctx.decision
    st = ctx.state
    sel = ctx.selection
    magic = [o for o in d.options if o.type in ("CastSpell", "ChantPrayer", "Banish")]
    other = [o for o in d.options if o not in magic]
    view = PanelView(title=_("{player}: {phase}").format(player=words.player(d.player), phase=words.phase_noun("hero")))
    unit = sel.get("unit")
    if unit is not None and not any(o.unit == unit for o in magic):
        unit = None
    if unit is None:
        view.lines.append(_("Pick a WIZARD or PRIEST (here or on the battlefield)."))
        usable = {o.unit for o in magic}
        for uid in _roster(st, d.player):
            ws = st.game.warscroll(st.units[uid].warscroll)
            if uid not in usable:
                short, full = _caster_reason(st, uid)
                view.buttons.append(spent_button(cn(st.units[uid].name), short, full))
                continue
            kinds = "/".join(k for k, lv in ((_("WIZARD"), ws.wizard_level), (_("PRIEST"), ws.priest_level)) if lv)
            left = query.power_left(st, uid)
            view.buttons.append(
                ButtonSpec(
                    f"{cn(st.units[uid].name)}",
                    intent("select", unit=uid),
                    odds=_("{kinds}: {left} of {total} uses left this phase").format(
                        kinds=kinds, left=left, total=max(ws.wizard_level, ws.priest_level)
                    ),
                    role="nav",
                )
            )
            view.field_picks[uid] = intent("select", unit=uid)
        view.buttons += [option_button(ctx, o) for o in other]
        return view
    mine = [o for o in magic if o.unit == unit]
    view.title = _("{player}: {unit}").format(player=words.player(d.player), unit=cn(st.units[unit].name))
    view.back = ButtonSpec(_("Back to the casters"), intent("select", unit=None), role="nav")
    models = sorted({o.model for o in mine})
    model = sel.get("model")
    if model not in models:
        model = models[0] if len(models) == 1 else None
    if model is None:
        if sel.get("model") is not None and sel.get("unit") == unit:  # a click on a model with nothing to use
            view.lines.append(_("Model {n} has no spell, prayer or banish it can use now.").format(n=sel["model"] + 1))
        view.lines.append(
            _(
                "E5: pick the model that casts (its button, or its numbered base on the battlefield); "
                "range and sight are measured from it."
            )
        )
        for i in models:
            view.buttons.append(
                ButtonSpec(_("Model {n}").format(n=i + 1), intent("select", unit=unit, model=i), role="nav")
            )
        # a click on one of the unit's bases: the scene adds the clicked model to this select,
        # the same intent as that model's button (a model not listed above is refused above)
        view.field_picks[unit] = intent("select", unit=unit)
        return view
    mine = [o for o in mine if o.model == model]
    if len(models) > 1:
        view.lines.append(_("Casting from model {n} (E5).").format(n=model + 1))
        # Back from the spells of one model: to the model choice
        view.back = ButtonSpec(_("Back to the models"), intent("select", unit=unit), role="nav")
    ability = sel.get("ability")
    key = lambda o: getattr(o, "spell", None) or getattr(o, "prayer", None) or f"banish:{o.manifestation}"  # noqa: E731
    groups: dict[str, list] = {}
    for o in mine:
        groups.setdefault(key(o), []).append(o)
    if ability not in groups:
        ability = None
    if ability is None:
        view.lines.append(_("Pick a spell, prayer or banish:"))
        slots = list(dict.fromkeys(_known(st, unit)))
        banishable = [
            mid
            for mid, m in st.manifestations.items()
            if f"banish:{mid}" in groups or (st.game.profile.banishes and m.player != d.player)
        ]
        for k in slots + [f"banish:{mid}" for mid in banishable]:
            opts = groups.get(k)
            if not opts:
                view.buttons.append(_spent_slot(st, d.player, unit, model, k, len(models) > 1))
                continue
            o = opts[0]
            if o.type == "Banish" or (len(opts) == 1 and getattr(o, "target", None) is None):
                view.buttons.append(option_button(ctx, o))
                continue
            lab = describe(st, o, d)
            name = lab.text.split(" -> ")[0]
            view.buttons.append(
                ButtonSpec(
                    ngettext("{name}: {n} target", "{name}: {n} targets", len(opts)).format(name=name, n=len(opts)),
                    intent("select", unit=unit, model=model, ability=k),
                    lab.odds.split(" (")[0],
                    lab.tip,
                    role="nav",
                )
            )
        return view
    opts = groups[ability]
    ab = st.game.content.abilities.get(ability)
    view.back = ButtonSpec(_("Back to the spells"), intent("select", unit=unit, model=model), role="nav")
    view.lines.append(
        _("{ability}: pick a target (highlighted on the battlefield).").format(ability=ab.name if ab else ability)
    )
    for o in opts:
        view.buttons.append(option_button(ctx, o))
        if isinstance(o.target, str):
            view.field_picks[o.target] = intent("choose", action=o)
    if ab is not None and opts and opts[0].type in ("CastSpell", "ChantPrayer"):
        o0 = opts[0]

        def probe(thing: str, o0=o0) -> Action:
            vals = {f.name: getattr(o0, f.name) for f in dc_fields(o0)}
            vals["target"] = thing
            return o0.__class__(**vals)

        view.probe = probe
    return view


def _spent_slot(st, player: int, unit: str, model: int, key: str, several: bool) -> ButtonSpec:
    """The greyed slot of a spell, prayer or banish not offered now, with the engine's reason."""
    from game.rules import Banish, query

    if key.startswith("banish:"):
        mid = key.split(":", 1)[1]
        reasons = st.explain(Banish(player=player, unit=unit, manifestation=mid, model=model))
        full = engine_text(reasons[0], st) if reasons else ""
        return spent_button(_("Banish {name}").format(name=name_of(st, mid)), spent_words(None, None, full), full)
    ab = st.game.content.abilities[key]
    label = f"{cn(ab.name)} ({ab.value}+)"
    why = query.ability_unavailable(st, unit, key)
    if why is None:  # usable by another model of the unit, not by this one (E5)
        return spent_button(
            label, _("not from model {n} (E5)").format(n=model + 1) if several else _("not possible now")
        )
    return spent_button(label, spent_words(why.code, why.rule, why.message), engine_text(why.message, st))


@control("unbind")
def unbind_control(ctx: PanelContext) -> PanelView:
    d = ctx.decision
    st = ctx.state
    sp = st.game.content.abilities[d.data["spell"]]
    view = PanelView(
        title=_("Player {p}: unbind?").format(p=d.player),
        lines=[
            _(
                "{caster} cast {spell} with a roll of {roll} (needed {value}). Unbind: 2D6 must beat {roll} (M6)."
            ).format(caster=cn(st.units[d.data["caster"]].name), spell=cn(sp.name), roll=d.data["roll"], value=sp.value)
        ],
    )
    view.buttons = [option_button(ctx, o) for o in d.options]
    return view


@control("ritual_choice")
def ritual_control(ctx: PanelContext) -> PanelView:
    d = ctx.decision
    st = ctx.state
    pr = st.game.content.abilities[d.data["prayer"]]
    view = PanelView(
        title=_("Player {p}: bank or spend?").format(p=d.player),
        lines=[
            _("{unit} rolled {roll} chanting {prayer} (needs {value}); ritual points {points} (M5).").format(
                unit=cn(st.units[d.data["unit"]].name),
                roll=d.data["roll"],
                prayer=cn(pr.name),
                value=pr.value,
                points=d.data["ritual_points"],
            )
        ],
    )
    view.buttons = [option_button(ctx, o) for o in d.options]
    return view


@control("summon_setup")
def summon_control(ctx: PanelContext) -> PanelView:
    d = ctx.decision
    st = ctx.state
    scroll = st.game.content.manifestations[d.data["scroll"]]
    setup = scroll.setup
    view = PanelView(
        title=_("Player {p}: set up {name}").format(p=d.player, name=cn(scroll.name)),
        lines=[
            (
                _(
                    'Click its centre: wholly within {within}" of the caster, visible to it, '
                    'more than {away}" from enemy units (M9).'
                )
                if setup.visible
                else _(
                    'Click its centre: wholly within {within}" of the caster, more than {away}" from enemy units (M9).'
                )
            ).format(within=f"{setup.wholly_within:g}", away=f"{setup.min_enemy_distance:g}"),
            _("The ghost is green where it is legal, red with the reason where not."),
        ],
    )
    view.point = point_spec(d)
    if d.options:
        view.buttons.append(option_button(ctx, d.options[0], _("Use a suggested spot")))
    return view


@control("dispel")
def dispel_control(ctx: PanelContext) -> PanelView:
    d = ctx.decision
    view = PanelView(
        title=_("Player {p}: dispel endless spells?").format(p=d.player),
        lines=[_("Each WIZARD and PRIEST may try one; it costs a cast or prayer this phase (E3).")],
    )
    view.buttons = [option_button(ctx, o) for o in d.options]
    for o in d.options:
        m = getattr(o, "manifestation", None)
        if m:
            view.field_picks.setdefault(m, intent("choose", action=o))
    return view
