"""Builders for rule tests: a small battlefield, inline positions and scripted dice."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Iterable

from game.data.models import BattleMap
from game.rules import Game, ScriptedDice, State
from game.rules.actions import Action
from game.rules.position import UnitSpec, build_position
from game.rules.saves import load_game, state_checksum

# Unit ids used across the tests, with the default content's warscrolls.
P1_WIZ2 = "pyre_magister"  # WIZARD (2), 40mm
P1_WIZ1 = "cinder_adept"  # WIZARD (1), 32mm
P1_PRI2 = "ashen_abbess"  # PRIEST (2), 40mm
P1_PRI1 = "hearth_chaplain"  # PRIEST (1), 32mm
P1_COVEN = "coven_of_the_kindled"  # WIZARD (1), 3 x 25mm (E5)
P1_SPEARS = "emberward_spears"
P2_WIZ2 = "fen_oracle"  # WIZARD (2), 40mm
P2_WIZ1 = "reed_witch"  # WIZARD (1), 32mm
P2_PRI2 = "moon_hierophant"  # PRIEST (2), 40mm, ward 5+
P2_PRI1 = "tide_caller"  # PRIEST (1), 32mm
P2_WARDENS = "mire_wardens"  # 10 x 32mm, health 1
P2_BEHEMOTH = "bog_behemoth"  # 1 x 90mm, health 12

R40 = 40 / 25.4 / 2  # radius of a 40mm base in inches
R32 = 32 / 25.4 / 2
R25 = 25 / 25.4 / 2


def small_map(terrain: Iterable[dict[str, Any]] = (), width: float = 60, height: float = 44) -> BattleMap:
    return BattleMap(id="test_field", name="Test Field", width=width, height=height, terrain=list(terrain))


def battle(
    units: dict[str, tuple[int, str, list[tuple[float, float]]]],
    dice: Iterable[Any] = (),
    *,
    profile: str = "aos4",
    terrain: Iterable[dict[str, Any]] = (),
    active: int = 1,
    phase: str = "hero",
    width: float = 60,
    height: float = 44,
    check: bool = True,
    first_player: int | None = None,
    round: int = 1,
) -> State:
    """A state in battle round 1, `active`'s `phase`, holding exactly `units`:
    {unit_id: (player, warscroll_id, [(x, y), ...])}. Dice are scripted. Built with the engine's
    position builder, so it is a position the engine could be in (on the board, no overlaps)."""
    game = Game.load(profile=profile, battlefield=small_map(terrain, width, height))
    specs = [UnitSpec(uid, player, ws, [tuple(p) for p in spots]) for uid, (player, ws, spots) in units.items()]
    return build_position(game, specs, phase=phase, active=active, dice=ScriptedDice(list(dice)), check=check,
                          first_player=first_player, round=round)


def kinds(events: list) -> list[str]:
    return [e.type for e in events]


def only(events: list, kind: str):
    found = [e for e in events if e.type == kind]
    assert len(found) == 1, f"expected one {kind}, got {kinds(events)}"
    return found[0]


def at_gap(x: float, r_from: float, r_to: float, gap: float) -> float:
    """The x of a base of radius `r_to` whose edge is `gap` inches from a base at `x` (G1)."""
    return x + r_from + r_to + gap


def assert_save_replays(path: str | Path, loaded: tuple[Game, State, dict] | None = None) -> tuple[Game, State, dict]:
    """Load the save at `path` with the engine's loader (or take what it `loaded` from it), then
    re-apply its history from its seed here, apart from the loader's own check, and require the
    result to be exactly the saved state: the checksum written in the file, and the loaded
    state field for field. Returns (game, state, meta)."""
    written = json.loads(Path(path).read_bytes())
    game, state, meta = load_game(path) if loaded is None else loaded
    assert type(meta["seed"]) is int and meta["verified"], f"{path}: a save without a seed cannot be re-applied"
    assert meta["history"] == written["history"] and meta["checksum"] == written["checksum"]
    fresh = game.new_state(seed=meta["seed"])
    for h in meta["history"]:
        fresh.apply(Action.from_dict(h))  # an illegal one raises IllegalActionError, naming it
    assert state_checksum(fresh.to_dict()) == written["checksum"], (
        f"{path}: its {len(meta['history'])} actions from seed {meta['seed']} do not lead to the saved state")
    assert fresh.to_dict() == state.to_dict() and fresh.checksum() == state.checksum()
    return game, state, meta


def play_legally(state: State, bots: dict, limit: int | None = None) -> list:
    """Play `state` with `bots` (player -> bot) to the end, or for `limit` actions, asserting
    that every action a bot chooses is legal and that its explanation is text; the actions."""
    actions = []
    while not state.is_over() and (limit is None or len(actions) < limit):
        bot = bots[state.pending().player]
        action = bot.choose(state)
        assert state.legal(action), f"{bot.name} chose an illegal action: {state.explain(action)}"
        assert isinstance(getattr(bot, "last_explanation", ""), str)
        state.apply(action)
        actions.append(action)
    return actions
