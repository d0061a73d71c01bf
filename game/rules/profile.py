"""Rule profiles: the seeds disagree in places, so each game picks a profile (RULES.md).

A profile is a set of data switches. Engine code reads switches, never the profile's name.
Switches about manifestations name the manifestation kinds they apply to ("endless_spell",
"invocation"): under `aos3` the endless-spell rules E1-E3 cover endless spells only, and
invocations keep Banish (M12) and M10 **[ruling]**.
"""

from __future__ import annotations

from dataclasses import dataclass

KINDS = frozenset({"endless_spell", "invocation"})


@dataclass(frozen=True)
class Profile:
    name: str
    # M12: kinds a WIZARD or PRIEST may banish (aos4: both; aos3: invocations only [ruling]).
    banish_kinds: frozenset[str]
    # E3: kinds that can be dispelled at the start of a hero phase (aos3: endless spells only).
    dispel_kinds: frozenset[str]
    # E1: kinds that cannot be attacked or picked, ignore abilities and never count as units
    # (aos3: endless spells). The other kinds follow M10.
    untouchable_kinds: frozenset[str]
    # E2 (aos3): endless spells each wizard may summon per hero phase; None means no cap.
    summons_per_wizard_per_phase: int | None
    # E10: added to every predatory manifestation's Move.
    predatory_move_bonus: float = 3.0
    # E4b: removed when touching the battlefield edge after a move.
    edge_removal: bool = True
    unbind_range: float = 30.0  # M6 [core]
    banish_range: float = 30.0  # M12
    dispel_range: float = 30.0  # E3
    control_range: float = 24.0  # E7
    rounds: int = 5  # R2
    # What the set-up screens show (a name and one line; never a rule switch).
    title: str = ""
    description: str = ""

    @property
    def banishes(self) -> bool:
        """M12: does any kind of manifestation follow Banish in this profile?"""
        return bool(self.banish_kinds)

    @property
    def dispels(self) -> bool:
        """E3: does any kind of manifestation follow dispelling in this profile?"""
        return bool(self.dispel_kinds)


PROFILES: dict[str, Profile] = {
    "aos4": Profile(
        name="aos4",
        banish_kinds=KINDS,
        dispel_kinds=frozenset(),
        untouchable_kinds=frozenset(),
        summons_per_wizard_per_phase=None,
        title="Current rules",
        description="Manifestations can be attacked and banished; predatory ones roam each hero phase",
    ),
    "aos3": Profile(
        name="aos3",
        banish_kinds=frozenset({"invocation"}),
        dispel_kinds=frozenset({"endless_spell"}),
        untouchable_kinds=frozenset({"endless_spell"}),
        summons_per_wizard_per_phase=1,
        title="Classic endless spells",
        description="Endless spells cannot be attacked and are dispelled; one summon per wizard a phase",
    ),
}


def profile_choices() -> list[tuple[str, str, str]]:
    """(name, title, description) of every profile, the default first: for the set-up screens."""
    return [(p.name, p.title or p.name, p.description) for p in PROFILES.values()]


def get_profile(name: str) -> Profile:
    try:
        return PROFILES[name]
    except KeyError:
        raise ValueError(f"unknown rules profile {name!r}; choose one of {', '.join(PROFILES)}") from None
