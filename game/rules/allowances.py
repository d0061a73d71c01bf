"""Magic allowances: power level (M1), once per turn per army (M2, M7), the Rule of One (R1),
unbind counts (M6), E2's one summon per wizard per phase and E3's dispel penalty (aos3).

Usage is recorded in `state.phase_uses` (reset every phase): a `UnitUses` per unit id, and a
`PlayerUses` under "player1" / "player2" for E3's dispel targets; and in `state.turn_uses`
(reset every turn): an `ArmyUses` per player ("1", "2"). An attempt counts as a use whatever its
result. The records are saved with the state exactly as format 1's dicts (game.rules.stored).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar

from game.data.models import Ability
from game.geometry.problem import Named
from game.rules.errors import IllegalActionError
from game.rules.stored import Stored

if TYPE_CHECKING:
    from game.rules.state import State

BANISH = "banish"  # the Banish Manifestation ability's id for R1


@dataclass
class UnitUses(Stored):
    """A unit's uses this phase."""

    power: int = 0  # M1: SPELL, PRAYER and BANISH abilities used
    unbinds: int = 0  # M6
    used: list[str] = field(default_factory=list)  # R1: the abilities used, in order
    no_cast: bool = False  # M3: it miscast and casts no more this phase
    summons: int = 0  # E2 (aos3): endless spells it tried to summon
    penalty: int = 0  # E3: 1 once it has tried to dispel
    dispelled: bool = False  # E3: it has tried to dispel (saved only once true)

    SPARSE: ClassVar[tuple[str, ...]] = ("dispelled",)


@dataclass
class PlayerUses(Stored):
    """A player's uses this phase, kept under "player1" / "player2" in `state.phase_uses`."""

    dispel_targets: list[str] = field(default_factory=list)  # E3: one attempt per endless spell


ARMY_LISTS = ("abilities", "summon_attempts", "removed")


@dataclass
class ArmyUses(Stored):
    """An army's uses this turn (M2, M7, M9).

    A list is saved once it has been recorded this turn, in the order the lists were first
    recorded (format 1 wrote the keys it had set, in the order it set them): `recorded` keeps that
    order, so a saved state stays byte for byte what it was. Record through `mark()` (or
    `record_army_uses`); a list given when the record is made, or filled without `mark()`, is
    saved all the same, after the recorded ones."""

    abilities: list[str] = field(default_factory=list)  # M2, M7: spells and prayers attempted
    summon_attempts: list[str] = field(default_factory=list)  # M9: manifestations it tried to summon
    removed: list[str] = field(default_factory=list)  # M9: its manifestations removed this turn
    recorded: list[str] = field(default_factory=list, metadata={"saved": False})

    SPARSE: ClassVar[tuple[str, ...]] = ARMY_LISTS

    def __post_init__(self) -> None:
        self.mark(*(name for name in ARMY_LISTS if getattr(self, name)))

    def mark(self, *names: str) -> "ArmyUses":
        """Note that these lists are recorded this turn (they are saved from now on)."""
        for name in names:
            if name not in ARMY_LISTS:
                raise ValueError(f"an army's uses are {', '.join(ARMY_LISTS)}, not {name!r}")
            if name not in self.recorded:
                self.recorded.append(name)
        return self

    def to_dict(self) -> dict[str, Any]:
        names = self.recorded + [n for n in ARMY_LISTS if n not in self.recorded and getattr(self, n)]
        return {name: list(getattr(self, name)) for name in names}

    @classmethod
    def from_checked(cls, d: dict[str, Any]) -> "ArmyUses":
        lists = {name: list(d[name]) for name in ARMY_LISTS if name in d}
        return cls(**lists, recorded=[name for name in d if name in ARMY_LISTS])


def fresh_turn_uses() -> dict[str, ArmyUses]:
    """`state.turn_uses` at the start of a turn: nothing used by either army."""
    return {"1": ArmyUses(), "2": ArmyUses()}


def phase_uses_from_checked(d: dict[str, Any]) -> dict[str, UnitUses | PlayerUses]:
    """`state.phase_uses` from its saved dict (checked by state_check): a player's uses are the
    entries holding dispel targets, as the schema tells them apart."""
    return {k: PlayerUses.from_checked(u) if "dispel_targets" in u else UnitUses.from_checked(u) for k, u in d.items()}


def uses(state: "State", unit_id: str) -> UnitUses:
    """A unit's uses this phase, for reading. Checks must not change the state."""
    u = state.phase_uses.get(unit_id)
    return u if isinstance(u, UnitUses) else UnitUses()


def record_uses(state: "State", unit_id: str) -> UnitUses:
    """A unit's uses this phase, for recording a use."""
    u = state.phase_uses.get(unit_id)
    if not isinstance(u, UnitUses):
        u = state.phase_uses[unit_id] = UnitUses()
    return u


def player_key(player: int) -> str:
    """Where a player's own uses this phase are kept in `state.phase_uses` (E3)."""
    return f"player{player}"


def dispel_targets(state: "State", player: int) -> list[str]:
    """The endless spells `player` has tried to dispel this phase (E3), for reading."""
    p = state.phase_uses.get(player_key(player))
    return p.dispel_targets if isinstance(p, PlayerUses) else []


def record_dispel_target(state: "State", player: int, mid: str) -> None:
    p = state.phase_uses.get(player_key(player))
    if not isinstance(p, PlayerUses):
        p = state.phase_uses[player_key(player)] = PlayerUses()
    p.dispel_targets.append(mid)


def army_uses(state: "State", player: int) -> ArmyUses:
    """An army's uses this turn (M2, M7, M9), for reading."""
    return state.turn_uses[str(player)]


def record_army_uses(state: "State", player: int) -> ArmyUses:
    """An army's uses this turn, for recording an ability or a summoning attempt."""
    return state.turn_uses[str(player)].mark(*ARMY_LISTS)


def levels(state: "State", unit_id: str) -> tuple[int, int]:
    ws = state.game.warscroll(state.units[unit_id].warscroll)
    return ws.wizard_level, ws.priest_level


def label(state: "State", unit_id: str) -> str:
    """A unit's or a manifestation's name with its id, for messages."""
    if unit_id in state.manifestations:
        return f"{state.game.content.manifestations[state.manifestations[unit_id].scroll].name} ({unit_id})"
    return f"{state.units[unit_id].name} ({unit_id})"


def named(state: "State", unit_id: str) -> Named:
    """`label` carrying the id it names, as a message's field (issue 22: the front end shows
    its own display name instead)."""
    return Named(label(state, unit_id), unit_id)


def power_left(state: "State", unit_id: str) -> int:
    """Uses of SPELL, PRAYER and BANISH left this phase (M1), less any dispel penalty (E3)."""
    u = uses(state, unit_id)
    return max(levels(state, unit_id)) - u.power - u.penalty


def unbinds_left(state: "State", unit_id: str) -> int:
    """UNBINDs left this phase: the WIZARD's power level (M6), less any dispel penalty (E3)."""
    u = uses(state, unit_id)
    return levels(state, unit_id)[0] - u.unbinds - u.penalty


def check_power(state: "State", unit_id: str, ability_id: str) -> None:
    """M1 and R1: an allowance left, and this ability not yet used by this unit this phase."""
    u = uses(state, unit_id)
    n = max(levels(state, unit_id))
    if power_left(state, unit_id) <= 0:
        extra = f", less {u.penalty} for dispelling (E3)" if u.penalty else ""
        raise IllegalActionError(
            "power_spent",
            f"{label(state, unit_id)} has used {u.power} of its {n} spells, prayers and banishes "
            f"this phase{extra} (M1)",
            "M1",
            unit=named(state, unit_id),
            used=u.power,
            allowed=n,
            penalty=u.penalty,
        )
    if ability_id in u.used:
        raise IllegalActionError(
            "rule_of_one",
            f"{label(state, unit_id)} has already used {ability_id} this phase (R1)",
            "R1",
            unit=named(state, unit_id),
            ability=Named(ability_id, ability_id),
        )


def check_army_once(state: "State", player: int, ability: Ability) -> None:
    """M2, M7: each spell or prayer once per turn per army, unless UNLIMITED."""
    if ability.unlimited:
        return
    if ability.id in army_uses(state, player).abilities:
        kind = "WIZARD" if ability.kind == "spell" else "PRIEST"
        raise IllegalActionError(
            "once_per_turn",
            f"{ability.name} has already been attempted by a {kind} of player {player}'s army this turn (M7)",
            "M7",
            ability=Named(ability.name, ability.id),
            kind=kind,
            player=player,
        )


def spend(state: "State", unit_id: str, ability_id: str, player: int, per_army: bool = True) -> None:
    """Record one use of an ability (the attempt counts, whatever its result) [ruling under M3]."""
    u = record_uses(state, unit_id)
    u.power += 1
    u.used.append(ability_id)
    if per_army:
        record_army_uses(state, player).abilities.append(ability_id)
