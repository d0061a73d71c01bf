"""One game of a `simulate` run: its plan (seed, side and armies, from its index) and its result.

Shared by the runner (game.sim), the cluster (game.sim_dask) and the log (game.sim_log), so
that none of them imports another for these. Game i uses seed `base * 1_000_003 + i`. Sides
and armies alternate so that neither bot is favoured: in odd games the first bot plays player
2, and every other pair of games swaps the armies.
"""

from __future__ import annotations

from dataclasses import dataclass

from game.data.content import DEFAULT_ARMIES


@dataclass(frozen=True)
class GameResult:
    index: int
    seed: int
    p1_side: int  # which player the first bot played
    armies: tuple[str, str]
    winner_bot: int | None  # 1: the first bot won, 2: the second, None: a draw
    rounds: int
    reason: str
    score: tuple[int, int]
    actions: int
    counts: dict[str, int]
    content: str = ""  # the hash of the content the game was played with (game.sim_log, --resume)


def game_plan(index: int, base_seed: int) -> tuple[int, int, tuple[str, str]]:
    seed = base_seed * 1_000_003 + index
    p1_side = 1 if index % 2 == 0 else 2
    armies = DEFAULT_ARMIES if (index // 2) % 2 == 0 else (DEFAULT_ARMIES[1], DEFAULT_ARMIES[0])
    return seed, p1_side, armies
