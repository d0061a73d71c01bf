"""Plain-text views of a state, for the terminal (until, and beside, the window)."""

from __future__ import annotations

from game.content_words import content_name
from game.i18n import _
from game.rules import State


def describe_setup(state: State) -> str:
    """The battle's set-up and its first pending decision."""
    g = state.game
    m = g.battlefield.map
    open_word = _("open")
    # the words in the player's language (issue 22); terrain traits and ids stay as the data says
    lines = [
        _('Spellfield: {map} ({width}" x {height}"), rules profile {profile}, {rounds} battle rounds').format(
            map=content_name(m.name),
            width=f"{m.width:g}",
            height=f"{m.height:g}",
            profile=g.profile.name,
            rounds=g.rounds,
        ),
        _("Terrain: {list}").format(
            list=", ".join(f"{content_name(t.name)} [{', '.join(t.traits) or open_word}]" for t in m.terrain)
        ),
        _("Objectives: {list}").format(
            list=", ".join(
                _("{name} at ({x}, {y})").format(
                    name=content_name(o.name) if o.name else "#" + str(i + 1), x=f"{o.x:g}", y=f"{o.y:g}"
                )
                for i, o in enumerate(m.objectives)
            )
        ),
    ]
    for player in (1, 2):
        army = g.army(player)
        lores = ", ".join(x for x in (army.spell_lore, army.prayer_lore, army.manifestation_lore) if x)
        lines.append(
            _("Player {n}: {army} (lores: {lores})").format(n=player, army=content_name(army.name), lores=lores)
        )
        for u in state.units.values():
            if u.player != player:
                continue
            ws = g.warscroll(u.warscroll)
            power = []
            if ws.wizard_level:
                power.append(f"WIZARD ({ws.wizard_level})")
            if ws.priest_level:
                power.append(f"PRIEST ({ws.priest_level})")
            x = sum(mm.x for mm in u.models) / len(u.models)
            y = sum(mm.y for mm in u.models) / len(u.models)
            name = content_name(u.name)
            lines.append(
                f"  {u.id:6} {name:24} {len(u.models):2} x {ws.base.round_mm:g}mm  at ({x:5.1f}, {y:5.1f})"
                + (f"  {' '.join(power)}" if power else "")
            )
    d = state.pending()
    lines.append(_("First decision: player {n} must {prompt}.").format(n=d.player, prompt=d.prompt))
    lines.append(_("Options: {list}").format(list="; ".join(f"{a.type}{_args(a)}" for a in d.options)))
    return "\n".join(lines)


def _args(action) -> str:
    fields = {k: v for k, v in action.to_dict().items() if k not in ("type", "player")}
    return "(" + ", ".join(f"{k}={v}" for k, v in fields.items()) + ")" if fields else ""
