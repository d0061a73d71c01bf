"""Removing manifestations by magic: Banish (M12, aos4) and dispelling (E3, aos3).

Banish: in your hero phase, a WIZARD or PRIEST picks a manifestation within 30" of the picked
model; 2D6 + 1 for each enemy manifestation on the battlefield other than the target must be at
least its banishment value (banishing an enemy one adds enemy - 1, a friendly one adds every
enemy one). It counts towards M1 and, being an ability, is used at most once per phase by a unit
(R1). Only the kinds in the profile's `banish_kinds` can be banished: both under aos4, only
invocations under aos3 **[ruling]**.

Dispel: at the start of each hero phase, each WIZARD and PRIEST of both players may try once,
the active player resolving all its attempts first. The target is an endless spell (the
profile's `dispel_kinds`; never an invocation) within 30" and visible; 2D6 must be higher than
the casting value of the spell that summons it. The attempt lowers the dispeller's spells and
unbinds (WIZARD) or prayers (PRIEST) this phase by 1. A player cannot target the same endless
spell twice in a phase.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from game.geometry.measure import distance
from game.geometry.problem import Named
from game.rules.actions import Action, Banish, Dispel, PassDispel
from game.rules.allowances import (
    BANISH,
    check_power,
    dispel_targets,
    label,
    named,
    record_dispel_target,
    record_uses,
    spend,
    uses,
)
from game.rules.casting import own_hero_phase
from game.rules.decisions import Decision, handles
from game.rules.errors import IllegalActionError
from game.rules.events import BanishAttempted, DispelAttempted, DispelPassed
from game.rules.flow import step
from game.rules.frames import DispelFrame, pop
from game.rules.manifestations import remove_manifestation, scroll_of, summoning_value
from game.rules.space import manifestation_shape, model_circle, sight
from game.rules.targeting import EPS, check_caster

if TYPE_CHECKING:
    from game.rules.state import State


def _reach(state: "State", unit: str, model: int, mid: str, limit: float, rule: str) -> float:
    if mid not in state.manifestations:
        raise IllegalActionError(
            "unknown_manifestation", f"there is no manifestation {mid!r} on the battlefield", rule, target=mid
        )
    d = distance(model_circle(state, unit, model), manifestation_shape(state, mid))
    if d > limit + EPS:
        name = scroll_of(state, mid).name
        raise IllegalActionError(
            "out_of_range",
            f"{name} ({mid}) is {d:.2f}\" from {label(state, unit)} model {model}; the limit is {limit:g}\" ({rule})",
            rule,
            target=Named(f"{name} ({mid})", mid),
            distance=d,
            unit=named(state, unit),
            model=model,
            limit=limit,
        )
    return d


# --- Banish (M12) ---------------------------------------------------------------------------


def _kind_name(kind: str) -> str:
    return kind.replace("_", " ") + "s"


def _check_banish(state: "State", a: Banish) -> None:
    if not state.game.profile.banishes:
        raise IllegalActionError(
            "no_banish", "this profile dispels manifestations instead of banishing them (E3)", "E3"
        )
    own_hero_phase(state, "banish", "M12")
    check_caster(state, a.player, a.unit, a.model, ("WIZARD", "PRIEST"), "banish")
    check_power(state, a.unit, BANISH)
    if (
        a.manifestation in state.manifestations
        and (kind := scroll_of(state, a.manifestation).kind) not in state.game.profile.banish_kinds
    ):
        raise IllegalActionError(
            "not_banishable",
            f"{scroll_of(state, a.manifestation).name} ({a.manifestation}) is an {kind.replace('_', ' ')}: "
            f"in this profile only {', '.join(_kind_name(k) for k in sorted(state.game.profile.banish_kinds))} "
            "can be banished; dispel it instead (E3)",
            "E3",
            target=named(state, a.manifestation),
            kind=kind.replace("_", " "),
            kinds=", ".join(_kind_name(k) for k in sorted(state.game.profile.banish_kinds)),
        )
    _reach(state, a.unit, a.model, a.manifestation, state.game.profile.banish_range, "M12")


def banish_bonus(state: "State", player: int, target: str) -> int:
    """M12: +1 for each enemy manifestation on the battlefield other than the target: banishing
    an enemy one adds (enemy manifestations - 1), a friendly one adds every enemy one."""
    return sum(1 for mid, m in state.manifestations.items() if m.player != player and mid != target)


@handles(Banish, kinds=("phase",), check=_check_banish)
def _banish(state: "State", a: Banish) -> None:
    d = _reach(state, a.unit, a.model, a.manifestation, state.game.profile.banish_range, "M12")
    spend(state, a.unit, BANISH, a.player, per_army=False)
    bonus = banish_bonus(state, a.player, a.manifestation)
    value = scroll_of(state, a.manifestation).banishment
    total = sum(state.roll(2, 6, f"banishment (need {value}, +{bonus})", "M12", a.player))
    banished = total + bonus >= value
    scroll = state.manifestations[a.manifestation].scroll
    state.emit(
        BanishAttempted(a.unit, a.model, a.manifestation, total, bonus, value, banished, round(d, 3), scroll=scroll)
    )
    if banished:
        remove_manifestation(state, a.manifestation, "banished", "M12")


# --- Dispel (E3) ------------------------------------------------------------------------


@step("magic.dispel_window", rule="E3")
def dispel_window(state: "State") -> None:
    """E3: at the start of each hero phase the active player resolves all its dispels first."""
    if dispellable(state):
        state.decisions.append(DispelFrame(player=state.active))


def dispellable(state: "State") -> list[str]:
    """E3: the manifestations on the battlefield that can be dispelled (endless spells only)."""
    kinds = state.game.profile.dispel_kinds
    return [mid for mid in state.manifestations if scroll_of(state, mid).kind in kinds]


def _check_dispel(state: "State", a: Dispel) -> None:
    check_caster(state, a.player, a.unit, a.model, ("WIZARD", "PRIEST"), "dispel")
    if a.manifestation in state.manifestations and a.manifestation not in dispellable(state):
        s = scroll_of(state, a.manifestation)
        raise IllegalActionError(
            "not_dispellable",
            f"{s.name} ({a.manifestation}) is an {s.kind.replace('_', ' ')}: only endless spells can be dispelled (E3)",
            "E3",
            target=named(state, a.manifestation),
            kind=s.kind.replace("_", " "),
        )
    if uses(state, a.unit).dispelled:
        raise IllegalActionError(
            "dispelled",
            f"{label(state, a.unit)} has already tried to dispel this phase (E3)",
            "E3",
            unit=named(state, a.unit),
        )
    _reach(state, a.unit, a.model, a.manifestation, state.game.profile.dispel_range, "E3")
    if a.manifestation in dispel_targets(state, a.player):
        raise IllegalActionError(
            "dispel_twice",
            f"player {a.player} has already tried to dispel {a.manifestation} this phase (E3)",
            "E3",
            player=a.player,
            target=Named(a.manifestation, a.manifestation),
        )
    if not sight(state, a.unit, a.model, a.manifestation).visible:
        raise IllegalActionError(
            "not_visible",
            f"{a.manifestation} is not visible to {label(state, a.unit)} (E3, G2)",
            "E3",
            target=Named(a.manifestation, a.manifestation),
            unit=named(state, a.unit),
        )


@handles(Dispel, kinds=("dispel",), check=_check_dispel)
def _dispel(state: "State", a: Dispel) -> None:
    d = _reach(state, a.unit, a.model, a.manifestation, state.game.profile.dispel_range, "E3")
    u = record_uses(state, a.unit)
    u.dispelled = True
    u.penalty = 1
    record_dispel_target(state, a.player, a.manifestation)
    scroll = state.manifestations[a.manifestation].scroll
    value = summoning_value(state, scroll)
    roll = sum(state.roll(2, 6, f"dispelling (beat {value})", "E3", a.player))
    dispelled = roll > value
    state.emit(DispelAttempted(a.unit, a.model, a.manifestation, roll, value, dispelled, round(d, 3), scroll=scroll))
    if dispelled:
        remove_manifestation(state, a.manifestation, "dispelled", "E3")
    if not dispellable(state):
        pop(state, DispelFrame)


@handles(PassDispel, kinds=("dispel",), check=lambda state, a: None)
def _pass(state: "State", a: PassDispel) -> None:
    pop(state, DispelFrame)
    state.emit(DispelPassed(player=a.player))
    if a.player == state.active and dispellable(state):
        state.decisions.append(DispelFrame(player=state.opponent(a.player)))


def dispel_options(state: "State", player: int) -> list[Action]:
    out: list[Action] = []
    for uid, u in state.units.items():
        if u.player != player or not u.alive:
            continue
        ws = state.game.warscroll(u.warscroll)
        if not (ws.wizard_level or ws.priest_level) or uses(state, uid).dispelled:
            continue
        for i, _ in u.live_models():
            for mid in dispellable(state):
                act = Dispel(player=player, unit=uid, manifestation=mid, model=i)
                try:
                    _check_dispel(state, act)
                except IllegalActionError:
                    continue
                out.append(act)
    return out


def dispel_view(state: "State", d: DispelFrame) -> Decision:
    p = d.player
    return Decision(
        player=p,
        kind="dispel",
        prompt="try to dispel endless spells with your WIZARDs and PRIESTs, or pass (E3)",
        options=tuple(dispel_options(state, p)) + (PassDispel(player=p),),
    )
