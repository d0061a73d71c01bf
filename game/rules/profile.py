"""Rule profiles: the seeds disagree in places, so each game picks a profile (RULES.md).

A profile is a set of data switches. Engine code reads switches, never the profile's name.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal


@dataclass(frozen=True)
class Profile:
    name: str
    # M12 banish (aos4) or E3 dispel (aos3).
    banish_mode: Literal["banish", "dispel"]
    # M10: manifestations can be targeted, attacked and damaged; E1 (aos3): they cannot.
    manifestations_attackable: bool
    # M10: manifestations count as units for movement, combat range and set-up.
    manifestations_are_units: bool
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


PROFILES: dict[str, Profile] = {
    "aos4": Profile(
        name="aos4",
        banish_mode="banish",
        manifestations_attackable=True,
        manifestations_are_units=True,
        summons_per_wizard_per_phase=None,
    ),
    "aos3": Profile(
        name="aos3",
        banish_mode="dispel",
        manifestations_attackable=False,
        manifestations_are_units=False,
        summons_per_wizard_per_phase=1,
    ),
}


def get_profile(name: str) -> Profile:
    try:
        return PROFILES[name]
    except KeyError:
        raise ValueError(f"unknown rules profile {name!r}; choose one of {', '.join(PROFILES)}") from None
