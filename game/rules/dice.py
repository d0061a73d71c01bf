"""Injected dice. Every random number in a game comes from here.

`SeededDice` is a small splitmix64 generator whose whole state is one integer, so it travels
inside `State.to_dict()` and a save, a clone or a replay continues exactly. `ScriptedDice`
serves tests and demos: it hands out the given dice and fails loudly when a roll is not the
one the script expects, or when the script runs out.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Protocol

from game.rules.errors import DiceScriptError

_MASK = (1 << 64) - 1


class Dice(Protocol):
    """Something that rolls dice for a stated purpose."""

    def roll(self, count: int, sides: int, purpose: str) -> tuple[int, ...]: ...

    def to_dict(self) -> dict[str, Any]: ...

    def clone(self) -> "Dice": ...


@dataclass
class SeededDice:
    """Deterministic dice from a seed (splitmix64; unbiased by rejection sampling)."""

    state: int

    @classmethod
    def from_seed(cls, seed: int) -> "SeededDice":
        return cls(state=(seed * 0x9E3779B97F4A7C15 + 0x632BE59BD9B4E019) & _MASK)

    def _next(self) -> int:
        self.state = (self.state + 0x9E3779B97F4A7C15) & _MASK
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        return z ^ (z >> 31)

    def _die(self, sides: int) -> int:
        limit = (1 << 64) - ((1 << 64) % sides)
        while True:
            v = self._next()
            if v < limit:
                return v % sides + 1

    def roll(self, count: int, sides: int, purpose: str) -> tuple[int, ...]:
        return tuple(self._die(sides) for _ in range(count))

    def to_dict(self) -> dict[str, Any]:
        return {"kind": "seeded", "state": self.state}

    def clone(self) -> "SeededDice":
        return SeededDice(self.state)


@dataclass
class ScriptedDice:
    """Dice that follow a script; for tests and demos.

    Each script entry is either a single die value (int), or a dict
    ``{"purpose": "casting", "dice": [1, 1]}`` that must match the next roll's purpose and
    die count exactly. A D3 is rolled as a D3 here: script it as 1-3.
    """

    script: list[Any] = field(default_factory=list)

    def roll(self, count: int, sides: int, purpose: str) -> tuple[int, ...]:
        if self.script and isinstance(self.script[0], dict):
            entry = self.script.pop(0)
            if entry.get("purpose") not in (None, purpose):
                raise DiceScriptError(
                    f"scripted dice expected a {entry['purpose']!r} roll but the engine rolled "
                    f"{count}D{sides} for {purpose!r}"
                )
            dice = tuple(int(d) for d in entry["dice"])
            if len(dice) != count:
                raise DiceScriptError(
                    f"scripted {purpose!r} roll has {len(dice)} dice but the engine rolled {count}D{sides}"
                )
        else:
            if len(self.script) < count or any(isinstance(d, dict) for d in self.script[:count]):
                raise DiceScriptError(
                    f"dice script ran out: the engine rolled {count}D{sides} for {purpose!r} with {self.script!r} left"
                )
            dice = tuple(int(d) for d in self.script[:count])
            del self.script[:count]
        for d in dice:
            if not 1 <= d <= sides:
                raise DiceScriptError(f"scripted die {d} is not a D{sides} result ({purpose!r})")
        return dice

    def remaining(self) -> int:
        return len(self.script)

    def assert_exhausted(self) -> None:
        if self.script:
            raise DiceScriptError(f"dice script has unused entries: {self.script!r}")

    def to_dict(self) -> dict[str, Any]:
        return {"kind": "scripted", "script": [dict(e) if isinstance(e, dict) else e for e in self.script]}

    def clone(self) -> "ScriptedDice":
        return ScriptedDice([dict(e) if isinstance(e, dict) else e for e in self.script])


def dice_from_dict(d: dict[str, Any]) -> SeededDice | ScriptedDice:
    """Rebuild dice from `to_dict()` output. Raises ValueError naming the field when it is not a
    dice state: a seeded state is a whole number 0 <= state < 2**64; a script holds die values
    1-6 or ``{"purpose": str | None, "dice": [1-6, ...]}`` entries."""
    if not isinstance(d, dict):
        raise ValueError(f"dice: must be an object, got {type(d).__name__}")
    kind = d.get("kind")
    if kind == "seeded":
        extra = sorted(set(d) - {"kind", "state"})
        if extra:
            raise ValueError(f"dice: unknown field(s) {', '.join(map(str, extra))}")
        state = d.get("state")
        if type(state) is not int or not 0 <= state <= _MASK:
            raise ValueError(f"dice.state: must be a whole number from 0 to 2**64 - 1, got {state!r}")
        return SeededDice(state)
    if kind == "scripted":
        extra = sorted(set(d) - {"kind", "script"})
        if extra:
            raise ValueError(f"dice: unknown field(s) {', '.join(map(str, extra))}")
        script = d.get("script")
        if not isinstance(script, list):
            raise ValueError(f"dice.script: must be a list, got {type(script).__name__}")
        for i, e in enumerate(script):
            _check_script_entry(f"dice.script[{i}]", e)
        return ScriptedDice([dict(e) if isinstance(e, dict) else e for e in script])
    raise ValueError(f"dice.kind: must be 'seeded' or 'scripted', got {kind!r}")


def _die(v: Any) -> bool:
    return type(v) is int and 1 <= v <= 6


def _check_script_entry(where: str, e: Any) -> None:
    if isinstance(e, dict):
        extra = sorted(set(e) - {"purpose", "dice"})
        if extra:
            raise ValueError(f"{where}: unknown field(s) {', '.join(map(str, extra))}")
        if e.get("purpose") is not None and not isinstance(e["purpose"], str):
            raise ValueError(f"{where}.purpose: must be a string or null, got {e['purpose']!r}")
        dice = e.get("dice")
        if not (isinstance(dice, list) and all(_die(v) for v in dice)):
            raise ValueError(f"{where}.dice: must be a list of die values 1 to 6, got {dice!r}")
    elif not _die(e):
        raise ValueError(f"{where}: must be a die value 1 to 6 or a {{purpose, dice}} object, got {e!r}")
