"""Who a spell or prayer can pick, and from where: range and visibility from the picked model
(E5), enemy manifestations as targets under M10 (aos4) but never under E1 (aos3)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Literal

from game.data.models import Ability
from game.geometry.problem import Named
from game.rules.errors import IllegalActionError
from game.rules.manifest_units import can_be_affected
from game.rules.space import distance_to, model_circle
from game.rules.space import sees as sees_any

if TYPE_CHECKING:
    from game.rules.game import Game
    from game.rules.state import State

EPS = 1e-9  # "within X" is distance <= X; the tolerance only absorbs float noise


def check_caster(state: "State", player: int, unit_id: str, model: int, kinds: tuple[str, ...], verb: str) -> None:
    """The acting unit exists, is the player's, is one of `kinds` (WIZARD, PRIEST) and the picked
    model is on the battlefield (E5)."""
    u = state.units.get(unit_id)
    if u is None:
        raise IllegalActionError("unknown_unit", f"there is no unit {unit_id!r}", unit=unit_id)
    if u.player != player:
        raise IllegalActionError(
            "not_your_unit",
            f"{u.name} ({unit_id}) belongs to player {u.player}",
            unit=Named(f"{u.name} ({unit_id})", unit_id),
            player=u.player,
        )
    ws = state.game.warscroll(u.warscroll)
    have = {"WIZARD": ws.wizard_level, "PRIEST": ws.priest_level}
    if not any(have[k] for k in kinds):
        raise IllegalActionError(
            "not_a_caster",
            f"{u.name} ({unit_id}) is not a {' or '.join(kinds)}, so it cannot {verb} (M8)",
            "M8",
            unit=Named(f"{u.name} ({unit_id})", unit_id),
            kinds=" or ".join(kinds),
            verb=verb,
        )
    if not u.alive:
        raise IllegalActionError(
            "slain", f"{u.name} ({unit_id}) has been destroyed", unit=Named(f"{u.name} ({unit_id})", unit_id)
        )
    if not (0 <= model < len(u.models)) or u.models[model].slain:
        raise IllegalActionError(
            "bad_model",
            f"{u.name} ({unit_id}) has no model {model} on the battlefield to {verb} from (E5)",
            "E5",
            unit=Named(f"{u.name} ({unit_id})", unit_id),
            model=model,
            verb=verb,
        )


def known(state: "State", unit_id: str, kind: str) -> list[str]:
    """M8: the unit's warscroll abilities of `kind` plus its army's chosen lores' ones."""
    u = state.units[unit_id]
    # a pure function of the game's content: kept per game (option lists ask it again and again)
    key = ("known", u.player, u.warscroll, kind)
    return list(state.recall(key, None, lambda: tuple(known_by(state.game, u.player, u.warscroll, kind))))


def known_by(game: "Game", player: int, warscroll_id: str, kind: str) -> list[str]:
    """M8: what a unit of `warscroll_id` in `player`'s army knows of `kind` ("spell" for a
    WIZARD, "prayer" for a PRIEST): its warscroll's, plus its army's chosen lores' ones."""
    ws = game.warscroll(warscroll_id)
    if kind == "spell" and not ws.wizard_level or kind == "prayer" and not ws.priest_level:
        return []
    army = game.army(player)
    out = list(ws.spells if kind == "spell" else ws.prayers)
    lores = game.content.lores
    for lore_id in (army.spell_lore, army.prayer_lore, army.manifestation_lore):
        if lore_id and lore_id in lores:
            out.extend(a for a in lores[lore_id].abilities if game.content.abilities[a].kind == kind)
    return list(dict.fromkeys(out))


def summon_problem(game: "Game", player: int, warscroll_id: str, scroll_id: str) -> str | None:
    """Why a unit of `warscroll_id` in `player`'s army could not have summoned `scroll_id`, or
    None: an endless spell is summoned by a WIZARD's spell, an invocation by a PRIEST's prayer
    (M9), which the unit must know (M8: its warscroll's, or its army's lores')."""
    scroll = game.content.manifestations[scroll_id]
    ws = game.warscroll(warscroll_id)
    caster, kind = ("WIZARD", "spell") if scroll.kind == "endless_spell" else ("PRIEST", "prayer")
    if not (ws.wizard_level if caster == "WIZARD" else ws.priest_level):
        what = "an endless spell" if scroll.kind == "endless_spell" else "an invocation"
        return f"{scroll.name} is {what}: only a {caster} summons it, and {ws.name} is not one (M9)"
    known = known_by(game, player, warscroll_id, kind)
    if not any(game.content.abilities[a].summons == scroll_id for a in known):
        by = [a.name for a in game.content.abilities.values() if a.summons == scroll_id and a.kind == kind]
        army = game.army(player)
        how = f" (it is summoned by {', '.join(by)})" if by else ""
        return f"{ws.name} of {army.name} does not know a {kind} that summons {scroll.name}{how} (M8, M9)"
    return None


def check_known(state: "State", unit_id: str, ability_id: str, kind: str) -> Ability:
    ability = state.game.content.abilities.get(ability_id)
    if ability is None or ability.kind != kind:
        raise IllegalActionError("unknown_ability", f"there is no {kind} {ability_id!r}", kind=kind, ability=ability_id)
    if ability_id not in known(state, unit_id, kind):
        u = state.units[unit_id]
        raise IllegalActionError(
            "not_known",
            f"{u.name} ({unit_id}) does not know {ability.name}: "
            "it is on neither its warscroll nor its army's lores (M8)",
            "M8",
            unit=Named(f"{u.name} ({unit_id})", unit_id),
            ability=Named(ability.name, ability.id),
        )
    return ability


def check_target(
    state: "State",
    player: int,
    unit_id: str,
    model: int,
    ability: Ability,
    target: str | None,
    sees: Callable[[str, int, str], bool] | None = None,
) -> None:
    """Range and visibility are measured from the picked model (E5, G1, G2).

    `sees(unit, model, thing)` may stand in for `sight(...).visible` when it gives the same
    answer (the hero phase's options ask it batched, see `hero_options`)."""
    if check_target_but_sight(state, player, unit_id, model, ability, target):
        assert target is not None  # a sight check always has a target
        check_sight(state, unit_id, model, target, sees)


def check_target_but_sight(
    state: "State", player: int, unit_id: str, model: int, ability: Ability, target: str | None
) -> bool:
    """Every check of `check_target` but the last, visibility (E5, G1, M10, E1), with the same
    errors; True when the target must still be visible to the picked model (`check_sight`,
    G2). Split so that the hero phase's options can ask every sight they need at once."""
    name = check_target_kind(state, player, unit_id, ability, target)
    if name is None:
        return False
    assert target is not None  # a named target
    check_range(state, unit_id, model, ability, target, name)
    return ability.visible and target != unit_id


def check_target_kind(state: "State", player: int, unit_id: str, ability: Ability, target: str | None) -> str | None:
    """The checks of `check_target` that do not depend on the picked model: the kind of target
    the ability takes, the target there (M10, E1). The target's name for the messages, or None
    when the ability takes no target or only its user (then nothing else is checked)."""
    kind = ability.target
    if kind == "none":
        if target is not None:
            raise IllegalActionError(
                "no_target", f"{ability.name} takes no target", ability=Named(ability.name, ability.id)
            )
        return None
    if kind == "self":
        if target not in (None, unit_id):
            raise IllegalActionError(
                "self_only", f"{ability.name} can only affect its user", ability=Named(ability.name, ability.id)
            )
        return None
    if target is None:
        raise IllegalActionError(
            "needs_target", f"{ability.name} needs a target", ability=Named(ability.name, ability.id)
        )
    if target in state.manifestations:
        man = state.manifestations[target]
        if not can_be_affected(state, target):
            raise IllegalActionError(
                "manifestation_immune", "endless spells cannot be picked by abilities in this profile (E1)", "E1"
            )
        if kind != "enemy" or man.player == player:
            raise IllegalActionError(
                "bad_target",
                f"{ability.name} cannot pick manifestation {target}",
                "M10",
                ability=Named(ability.name, ability.id),
                target=Named(target, target),
            )
        name = state.game.content.manifestations[man.scroll].name
    elif target in state.units and state.units[target].alive:
        tu = state.units[target]
        if (kind == "enemy") != (tu.player != player):
            side = "an enemy" if kind == "enemy" else "a friendly"
            raise IllegalActionError(
                "bad_target",
                f"{ability.name} must target {side} unit; {tu.name} ({target}) is not",
                ability=Named(ability.name, ability.id),
                side=side,
                target=Named(f"{tu.name} ({target})", target),
            )
        name = f"{tu.name} ({target})"
    else:
        raise IllegalActionError("unknown_target", f"there is no target {target!r} on the battlefield", target=target)
    return name


def check_range(state: "State", unit_id: str, model: int, ability: Ability, target: str, name: str) -> None:
    """G1, E5: the target is within the ability's range of the picked model."""
    eye = model_circle(state, unit_id, model)
    d = distance_to(state, eye, target)
    if d > ability.range + EPS:
        caster = state.units[unit_id].name
        raise IllegalActionError(
            "out_of_range",
            f"{name} is {d:.2f}\" from {caster} model {model}; {ability.name} reaches {ability.range:g}\" (G1)",
            "G1",
            target=Named(name, target),
            distance=d,
            unit=Named(caster, unit_id),
            model=model,
            ability=Named(ability.name, ability.id),
            reach=ability.range,
        )


def check_sight(
    state: "State", unit_id: str, model: int, target: str, sees: Callable[[str, int, str], bool] | None = None
) -> None:
    """G2: the target (a unit or a manifestation) is visible to the picked model (E5)."""
    if not (sees(unit_id, model, target) if sees else sees_any(state, unit_id, model, target)):
        if target in state.manifestations:
            name = state.game.content.manifestations[state.manifestations[target].scroll].name
        else:
            name = f"{state.units[target].name} ({target})"
        raise IllegalActionError(
            "not_visible",
            f"{name} is not visible to {state.units[unit_id].name} model {model} (G2)",
            "G2",
            target=Named(name, target),
            unit=Named(state.units[unit_id].name, unit_id),
            model=model,
        )


def target_candidates(
    state: "State",
    player: int,
    ability: Ability,
    *,
    with_slain: bool = False,
    which: Literal["all", "units", "manifestations"] = "all",
) -> list[str | None]:
    """Every id the ability could name before range and sight are checked: the units, then
    the manifestations (None alone for an ability with no target). `with_slain` keeps the
    units with no model left too, in their places, for a caller that drops them by range (no
    model is in range of anything) and wants a list that stays the same as units die. `which`
    asks for one of the two parts alone (None counts with the units)."""
    if ability.target in ("none", "self"):
        return [] if which == "manifestations" else [None]
    enemy = ability.target == "enemy"
    out: list[str | None] = []
    if which != "manifestations":
        out += [uid for uid, u in state.units.items() if (with_slain or u.alive) and (u.player != player) == enemy]
    if enemy and which != "units":
        out.extend(mid for mid, m in state.manifestations.items() if m.player != player and can_be_affected(state, mid))
    return out
