"""`Game`: the immutable configuration of one battle (profile, content, battlefield, armies).

game = Game.load(profile="aos4")            # the default battle
state = game.new_state(seed=7)              # a fresh State, ready for deployment
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from dataclasses import dataclass, field
from typing import Any

from game.data.content import DEFAULT_ARMIES, DEFAULT_MAP, Content, default_content, load_map
from game.data.errors import DataError
from game.data.geocheck import map_problems
from game.data.models import Army, BattleMap, Warscroll
from game.rules.battlefield import Battlefield
from game.rules.dice import Dice, SeededDice
from game.rules.profile import Profile, get_profile
from game.rules.state import State


@dataclass(frozen=True)
class Game:
    profile: Profile
    content: Content
    battlefield: Battlefield
    armies: tuple[Army, Army]
    rounds: int = 5
    # answers derived from this configuration alone (`derived`); never compared or saved
    _derived: dict[Hashable, Any] = field(default_factory=dict, init=False, repr=False, compare=False)

    @classmethod
    def load(
        cls,
        profile: str = "aos4",
        armies: tuple[str, str] | None = None,
        battlefield: str | BattleMap | None = None,
        content: Content | None = None,
        rounds: int | None = None,
    ) -> "Game":
        """Build a game from ids of embedded content (or given models). Raises ValueError if unknown.

        A map comes in checked: by id or path through `load_map` (the schema and the geometric
        checks of `spellfield check`), and a `BattleMap` built in code is put through the same
        geometric checks (`map_problems`; a battlefield without deployment zones is allowed
        here, as demonstrations and tests set models up directly). Bad maps raise `DataError`.
        """
        content = content or default_content()
        prof = get_profile(profile)
        ids = armies or DEFAULT_ARMIES
        missing = [a for a in ids if a not in content.armies]
        if missing:
            raise ValueError(f"unknown army {missing[0]!r}; known armies: {', '.join(sorted(content.armies))}")
        if isinstance(battlefield, BattleMap):
            bmap = battlefield
            problems = map_problems(bmap, f"map {bmap.id!r}", require_deployment=False)
            if problems:
                raise DataError(problems)
        else:
            bmap = load_map(battlefield or DEFAULT_MAP)
        n = rounds if rounds is not None else prof.rounds
        if n < 1:
            raise ValueError(f"rounds must be 1 or more, got {n}")
        return cls(
            profile=prof,
            content=content,
            battlefield=Battlefield.from_map(bmap),
            armies=(content.armies[ids[0]], content.armies[ids[1]]),
            rounds=n,
        )

    def army(self, player: int) -> Army:
        return self.armies[player - 1]

    def warscroll(self, warscroll_id: str) -> Warscroll:
        return self.content.warscrolls[warscroll_id]

    def derived(self, name: Hashable, make: Callable[[], Any]) -> Any:
        """`make()` once per game: an answer that depends on this configuration alone (the
        battlefield, the armies), such as the default deployment, which every state of the game
        starts from (issue 24: a simulation of many games deploys once), or on it and what
        `name` itself holds (every other input, as `State.recall`'s inputs). The answer must be
        immutable; a changed configuration is a new `Game`, with nothing kept."""
        if name not in self._derived:
            self._derived[name] = make()
        return self._derived[name]

    def header(self) -> dict:
        """What identifies this configuration in saves and replays."""
        return {
            "content_hash": self.content.content_hash,
            "profile": self.profile.name,
            "map": self.battlefield.map.id,
            "armies": [a.id for a in self.armies],
            "rounds": self.rounds,
        }

    def new_state(self, seed: int = 0, dice: Dice | None = None) -> "State":
        """A fresh state with both armies at their default deployment positions."""
        return State.new(self, dice or SeededDice.from_seed(seed))
