"""E5 on the battlefield: which model of a WIZARD or PRIEST unit of several models casts.

When the hero phase's panel asks for the model (game.ui.decisions.hero_control: unit -> model
-> ability, as `select` intents), this tool puts a number badge on each model that may act,
matching its "Model N" button; hovering a button marks that model and draws the ranges of
what it can cast, chant or banish from its base (the engine's ranges: the abilities' own and
`query.ranges`). A click on a model's base picks it: the panel lists the unit in
`field_picks` with a `select` that names no model, and the scene adds the clicked model, so
the click sends the same intent as the model's button.
"""

from __future__ import annotations

from typing import Any

from game.content_words import content_name as cn
from game.i18n import _, ngettext
from game.ui import theme, widgets
from game.ui.controls.base import FieldTool, phase_is, tool
from game.ui.intents import Intent
from game.ui.render.field import Ring
from game.ui.render.overlays import Band, Label

MAGIC = ("CastSpell", "ChantPrayer", "Banish")


def model_choices(view) -> tuple[str | None, dict[int, Intent]]:
    """(unit, {model: the intent of its button}) when the view asks which model of a unit acts:
    two or more `select` buttons naming the unit and a model but no ability."""
    found: dict[str, dict[int, Intent]] = {}
    for b in view.buttons:
        it = b.intent
        if it.kind == "select" and it.get("unit") and it.get("model") is not None and it.get("ability") is None:
            found.setdefault(it.get("unit"), {})[int(it.get("model"))] = it
    for uid, models in found.items():
        if len(models) >= 2:
            return uid, models
    return None, {}


@tool(phase_is("hero"))
class CasterModelTool(FieldTool):
    """Badges and hover ranges for the E5 model choice; the scene's picks do the rest."""

    def __init__(self, scene: Any) -> None:
        super().__init__(scene)
        self.unit: str | None = None
        self.choices: dict[int, Intent] = {}

    def decorate(self, view) -> None:
        self.unit, self.choices = model_choices(view)

    def hovered_model(self) -> int | None:
        """The model whose button the pointer is on, if any."""
        it = widgets.hovered_intent()
        for m, choice in self.choices.items():
            if it is not None and it == choice:
                return m
        return None

    def overlay(self, ov):
        st = self.state
        hovered_ability = self.ability_ring()
        if hovered_ability is not None:
            ov.rings.append(hovered_ability)
        uid = self.unit
        if uid is None or uid not in st.units:
            return None
        from game.rules.query import model_circle

        u = st.units[uid]
        for m in sorted(self.choices):
            if m < len(u.models) and not u.models[m].slain:
                c = model_circle(st, uid, m)
                # the badge sits on the base (a chip about 18 px high, centred on it)
                ov.marks.append(Label(c.x, c.y, str(m + 1), theme.ACCENT, 12, dy=-9))
        m = self.hovered_model()
        if m is None:
            return (
                _("{unit}: pick the model that acts, on its button or its base (E5)").format(unit=cn(u.name)),
                theme.TEXT,
            )
        c = model_circle(st, uid, m)
        ov.selected = (uid, m)
        ov.marks.append(Band(c.x, c.y, c.r, 0.25, theme.ACCENT))
        ov.rings += self.rings_from(m)
        return (
            _("Model {n} of {unit}: ranges and sight are measured from its base (E5)").format(n=m + 1, unit=cn(u.name)),
            theme.ACCENT,
        )

    def ability_ring(self) -> Ring | None:
        """The range ring of the spell or prayer whose button the pointer is on, from the base of
        the model that would use it (M8, E5)."""
        from game.rules.query import model_circle

        it = widgets.hovered_intent()
        if it is None or it.kind != "select" or not it.get("ability") or it.get("model") is None:
            return None
        st, uid = self.state, it.get("unit")
        ab = st.game.content.abilities.get(it.get("ability"))
        if ab is None or ab.range <= 0 or uid not in st.units:
            return None
        c = model_circle(st, uid, int(it.get("model")))
        return Ring(c.x, c.y, c.r + ab.range, theme.RING_SPELL, f'{ab.range:g}": {cn(ab.name)}')

    def rings_from(self, model: int) -> list[Ring]:
        """The range of each spell, prayer or banish this model may use now, from its base."""
        from game.rules.query import known, model_circle, ranges

        st = self.state
        uid = self.unit
        mine = [o for o in self.decision.options if o.type in MAGIC and o.unit == uid and o.model == model]
        usable = {getattr(o, "spell", None) or getattr(o, "prayer", None) for o in mine} - {None}
        by_range: dict[float, list[str]] = {}
        for kind in ("spell", "prayer"):
            for a in known(st, uid, kind):
                ab = st.game.content.abilities[a]
                if a in usable and ab.range > 0:
                    by_range.setdefault(ab.range, []).append(ab.name)
        c = model_circle(st, uid, model)
        rings = spell_rings(c, by_range)
        if any(o.type == "Banish" for o in mine):
            reach = ranges(st.game).unbind
            rings.append(
                Ring(c.x, c.y, c.r + reach, theme.RING_UNBIND, _('{reach}" banish').format(reach=f"{reach:g}"))
            )
        return rings


def spell_rings(c, by_range: dict[float, list[str]]) -> list[Ring]:
    """One ring per spell or prayer range around the base `c` (M2, M5): labelled with the one
    ability's name in the player's language, or with how many share that range."""
    rings = []
    for rng, names in sorted(by_range.items()):
        label = f'{rng:g}": ' + (
            cn(names[0])
            if len(names) == 1
            else ngettext("{n} spell/prayer", "{n} spells/prayers", len(names)).format(n=len(names))
        )
        rings.append(Ring(c.x, c.y, c.r + rng, theme.RING_SPELL, label))
    return rings
