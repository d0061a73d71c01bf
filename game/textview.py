"""Plain-text views of a state, for the terminal (until, and beside, the window)."""

from __future__ import annotations

from game.rules import State


def describe_setup(state: State) -> str:
    """The battle's set-up and its first pending decision."""
    g = state.game
    m = g.battlefield.map
    lines = [
        f"Spellfield: {m.name} ({m.width:g}\" x {m.height:g}\"), "
        f"rules profile {g.profile.name}, {g.rounds} battle rounds",
        "Terrain: " + ", ".join(f"{t.name} [{', '.join(t.traits) or 'open'}]" for t in m.terrain),
        "Objectives: "
        + ", ".join(f"{o.name or '#' + str(i + 1)} at ({o.x:g}, {o.y:g})" for i, o in enumerate(m.objectives)),
    ]
    for player in (1, 2):
        army = g.army(player)
        lores = ", ".join(x for x in (army.spell_lore, army.prayer_lore, army.manifestation_lore) if x)
        lines.append(f"Player {player}: {army.name} (lores: {lores})")
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
            lines.append(
                f"  {u.id:6} {u.name:24} {len(u.models):2} x {ws.base.round_mm:g}mm  at ({x:5.1f}, {y:5.1f})"
                + (f"  {' '.join(power)}" if power else "")
            )
    d = state.pending()
    lines.append(f"First decision: player {d.player} must {d.prompt}.")
    lines.append("Options: " + "; ".join(f"{a.type}{_args(a)}" for a in d.options))
    return "\n".join(lines)


def _args(action) -> str:
    fields = {k: v for k, v in action.to_dict().items() if k not in ("type", "player")}
    return "(" + ", ".join(f"{k}={v}" for k, v in fields.items()) + ")" if fields else ""
