"""`simulate --scheduler`: the games on a Dask distributed cluster (issue 24).

`--scheduler tcp://host:8786` connects to a running scheduler (`dask scheduler`, with
`dask worker tcp://host:8786` on each machine, every one with Spellfield installed);
`--scheduler local` starts a local cluster of worker processes for the run and closes it after.

The work items are `game.sim.play_one`'s, so a game plays the same wherever it runs, and the
results are handed on in game order: the summary and the `--log` lines are those of `--jobs`.
A worker that dies takes its running games with it; the scheduler runs them again elsewhere (up
to `distributed.scheduler.allowed-failures` times), and each game is counted once, by its index.
"""

from __future__ import annotations

import logging
import os
import sys
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import TypeVar

from game.i18n import _

#: Seconds to wait for a scheduler before giving up with a message.
CONNECT_TIMEOUT = 10.0
#: Tries again of a game that raised on a worker (a worker that died is re-run by the scheduler
#: itself). Games are deterministic, so more tries only help a fault of one worker (a full disk,
#: an out-of-memory kill), and each try of a `hard` game costs tens of seconds.
RETRIES = 2

Work = tuple[int, int, str, str, str]  # game.sim.play_one's: (index, base seed, p1, p2, profile)
R = TypeVar("R")


@contextmanager
def client_for(scheduler: str, jobs: int) -> Iterator[object]:
    """A `distributed.Client` on `scheduler` ("local": a fresh local cluster, closed afterwards).
    An address that cannot be reached is a ValueError naming it."""
    from distributed import Client, LocalCluster

    if scheduler == "local":
        # one thread per worker: a game is pure Python, so threads would only share one GIL
        with (
            LocalCluster(
                n_workers=jobs if jobs > 1 else (os.cpu_count() or 1),
                threads_per_worker=1,
                processes=True,
                dashboard_address=":0",  # any free port: 8787 may be another cluster's (and it warns)
                silence_logs=logging.CRITICAL,  # a failed game or a dead worker is reported by us, in one line
            ) as cluster,
            Client(cluster) as client,
        ):
            yield client
        return
    try:
        client = Client(scheduler, timeout=CONNECT_TIMEOUT)
    except ValueError as exc:  # a malformed address
        raise ValueError(
            _("--scheduler {address}: not a scheduler address ({reason}); give tcp://HOST:PORT or local").format(
                address=scheduler, reason=_short(exc, named=False)
            )
        ) from None
    except Exception as exc:  # OSError (refused, timed out), ...
        raise ValueError(
            _("--scheduler {address}: cannot reach a Dask scheduler there within {seconds} seconds ({reason})").format(
                address=scheduler, seconds=f"{CONNECT_TIMEOUT:g}", reason=_short(exc)
            )
        ) from None
    try:
        if not client.scheduler_info().get("workers"):
            print(_("waiting for Dask workers to join {address}").format(address=scheduler), file=sys.stderr)
        yield client
    finally:
        client.close()


def played(
    play: Callable[[Work], R],
    work: Sequence[Work],
    seeds: Sequence[int],
    scheduler: str,
    jobs: int,
    tick: Callable[[], None],
) -> Iterator[R]:
    """`play` (game.sim.play_one, passed in so that game.sim alone imports this module) of each
    game of `work` on the cluster, yielded in game order; `tick()` as each ends. `seeds` are the
    games' seeds, for the message of a game that fails."""
    from distributed import as_completed

    with client_for(scheduler, jobs) as client:
        # one key per game and its settings: a game is one task, whichever worker ends up playing it
        keys = [f"spellfield-game-{w[0]}-{_token(w)}" for w in work]
        futures = client.map(play, work, key=keys, retries=RETRIES)  # type: ignore[attr-defined]
        where = {f.key: n for n, f in enumerate(futures)}
        ready: dict[int, R] = {}
        handed = 0
        for fut in as_completed(futures):
            n = where[fut.key]
            if n < handed or n in ready:
                continue  # already counted (a game is counted once, by its index)
            ready[n] = _result(fut, work[n][0], seeds[n])
            tick()
            while handed in ready:
                yield ready.pop(handed)
                handed += 1
            fut.release()  # its result is ours now; the cluster need not keep it


def _result(fut, index: int, seed: int):
    """The game's result, or a ValueError naming the game and its seed (never a traceback)."""
    from distributed.scheduler import KilledWorker

    try:
        return fut.result()
    except KilledWorker:
        reason = _("the workers playing it died every time")
    except ImportError as exc:
        reason = _("a worker cannot import the game ({reason}): install Spellfield on every worker").format(
            reason=_short(exc)
        )
    except Exception as exc:
        reason = _short(exc)
    raise ValueError(
        _("game {index} (seed {seed}) failed on every try: {reason}").format(index=index, seed=seed, reason=reason)
    )


def _token(w: Work) -> str:
    from dask.base import tokenize

    return tokenize(*w)


def _short(exc: BaseException, named: bool = True) -> str:
    """An exception in one line (no traceback), by default after its type's name."""
    text = str(exc).strip().splitlines()[0][:300] if str(exc).strip() else ""
    if not named and text:
        return text
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__
