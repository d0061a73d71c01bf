"""Batch simulation: whole games between bots, headless (`spellfield simulate`).

Game i uses seed `base * 1_000_003 + i`. Sides and armies alternate so that neither bot is
favoured: in odd games the first bot plays player 2, and every other pair of games swaps the
armies. Results are the same with any number of jobs.
"""

from __future__ import annotations

import functools
import json
import os
import re
import sys
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from typing import TYPE_CHECKING

from game.ai.registry import make_bot
from game.i18n import N_, _
from game.sim_game import GameResult, game_plan
from game.stats import wilson

if TYPE_CHECKING:
    from game.sim_log import Resumed, RunSettings


#: The `--content` packs (folders joined by os.pathsep): `spellfield simulate` sets it, so that
#: worker processes, which start afresh, play with the same content (issue 23).
CONTENT_ENV = "SPELLFIELD_SIM_CONTENT"


def content_hash_of(armies: tuple[str, str]) -> str:
    """The hash of the content a game between `armies` is played with in this process."""
    return _content(armies).content_hash


def _content(armies: tuple[str, str]):
    """The content a game between `armies` is played with (the built-in content for built-in
    armies: the same games as ever)."""
    import os

    from game.data import library

    dirs = os.environ.get(CONTENT_ENV, "")
    return (_packs(dirs) if dirs else library.active()).content_for(armies)


@functools.cache
def _packs(dirs: str):
    from pathlib import Path

    from game.data import library
    from game.rules import data_dir

    return library.load_library(data_dir(), [Path(d) for d in dirs.split(os.pathsep) if d], strict=True)


def play_one(args: tuple[int, int, str, str, str]) -> GameResult:
    """Play game `index` to its end."""
    from game.rules import Game

    index, base_seed, p1, p2, profile = args
    _die_for_a_test(index)
    seed, p1_side, armies = game_plan(index, base_seed)
    content = _content(armies)
    game = Game.load(profile=profile, armies=armies, content=content)
    state = game.new_state(seed=seed)
    bots = {p1_side: make_bot(p1, p1_side, seed), 3 - p1_side: make_bot(p2, 3 - p1_side, seed + 1)}
    counts: Counter[str] = Counter()
    actions = 0
    while not state.is_over():
        for e in state.apply(bots[state.pending().player].choose(state)):
            _count(e, counts)
        actions += 1
    capped = sum(getattr(b, "capped", 0) for b in bots.values())
    if capped:
        counts["searches_capped"] += capped  # searches a time budget cut short
    res = state.result() or {}
    w = res.get("winner")
    winner_bot = None if w is None else (1 if w == p1_side else 2)
    return GameResult(
        index,
        seed,
        p1_side,
        armies,
        winner_bot,
        state.round,
        res.get("reason", ""),
        tuple(res.get("score", (0, 0))),
        actions,
        dict(counts),
        content.content_hash,
    )


#: Tests only (tests/cli/test_simulate_dask.py): "K:FILE" makes the process that first plays
#: game K die at once, leaving FILE behind so that the game's second try plays it. Unset: inert.
DIE_ENV = "SPELLFIELD_TEST_DIE_AT"


def _die_for_a_test(index: int) -> None:
    hook = os.environ.get(DIE_ENV)
    if hook and hook.split(":", 1)[0] == str(index):
        marker = hook.split(":", 1)[1]
        try:
            with open(marker, "x"):
                pass
        except FileExistsError:
            return  # died once already: this try plays
        os._exit(1)  # a lost worker, as a killed machine would lose it


def _count(e, counts: Counter) -> None:
    """Tally one event. The totals (cast_attempts, spells_cast, ...) are the summary's `per_game`;
    the same counts per player ("player1_spells_cast", ...) are for the report (issue 24), which
    turns players into bots by the side each bot played."""
    t = e.type
    if t == "CastAttempted":
        counts["cast_attempts"] += 1
        counts["miscasts"] += e.outcome == "miscast"
        _by_player(counts, e.unit, "miscasts", e.outcome == "miscast")
    elif t == "SpellCast":
        counts["spells_cast"] += 1
        _by_player(counts, e.unit, "spells_cast")
    elif t == "UnbindAttempted":
        counts["unbinds_tried"] += 1
        counts["spells_unbound"] += e.unbound
        _by_player(counts, e.unit, "spells_unbound", e.unbound)  # the unbinder's
    elif t == "ManifestationSummoned":
        counts["summoned"] += 1
        counts[f"player{e.player}_summoned"] += 1
    elif t == "ManifestationRemoved":
        counts[f"removed_{e.reason}"] += 1
    elif t == "BanishAttempted":
        _by_player(counts, e.unit, "banished", e.banished)  # the banisher's (M12)
    elif t == "DispelAttempted":
        _by_player(counts, e.unit, "dispelled", e.dispelled)  # the dispeller's (E3)
    elif t == "PrayerResolved":
        counts["prayers_answered"] += e.answered


_UNIT_PLAYER = re.compile(r"^p([12])u\d+$")  # unit ids are "p<player>u<index>" (State.new)


def _by_player(counts: Counter, unit: str, key: str, add: int = 1) -> None:
    m = _UNIT_PLAYER.match(unit or "")
    if m and add:
        counts[f"player{m.group(1)}_{key}"] += int(add)


def run(
    games: int,
    p1: str,
    p2: str,
    seed: int = 1,
    jobs: int = 1,
    profile: str = "aos4",
    progress: bool = True,
    on_result: Callable[[GameResult], None] | None = None,
    scheduler: str | None = None,
    done: Mapping[int, GameResult] | None = None,
) -> list[GameResult]:
    """Play `games` games; `on_result` hears each one as it ends (in game order). With
    `scheduler` (an address, or "local") they play on a Dask cluster (game.sim_dask). `done`
    holds games already played (a resumed `--log`, by index): they are not played again, and
    the results are all `games`, in game order, as if none had been stopped."""
    from tqdm import tqdm

    make_bot(p1, 1, 0), make_bot(p2, 2, 0)  # fail early on an unknown bot name
    from game.rules.query import profile_choices

    names = [name for name, _title, _desc in profile_choices()]
    if profile not in names:  # here, not after every worker's retries
        raise ValueError(f"unknown rules profile {profile!r}; choose one of {', '.join(names)}")
    done = done or {}
    work = [(i, seed, p1, p2, profile) for i in range(games) if i not in done]
    played: dict[int, GameResult] = {}
    # games done, rate and time left, on stderr only (stdout may be --json)
    bar = tqdm(
        total=games,
        initial=games - len(work),
        unit=_("game"),
        file=sys.stderr,
        disable=not progress,
        dynamic_ncols=True,
    )
    with bar:
        for r in _played(work, jobs, scheduler, lambda: bar.update(1)) if work else ():
            played[r.index] = r
            if on_result:
                on_result(r)
    return [done[i] if i in done else played[i] for i in range(games)]


def _played(
    work: Sequence[tuple[int, int, str, str, str]], jobs: int, scheduler: str | None, tick: Callable[[], None]
) -> Iterator[GameResult]:
    """The games of `work`, in game order, from one process, a pool of `jobs` or a cluster."""
    if scheduler is not None:
        from game.sim_dask import played

        yield from played(play_one, work, [game_plan(w[0], w[1])[0] for w in work], scheduler, jobs, tick)
    elif jobs > 1:
        import multiprocessing as mp

        with mp.get_context("spawn").Pool(jobs) as pool:
            for r in pool.imap(play_one, work):
                tick()
                yield r
    else:
        for w in work:
            r = play_one(w)
            tick()
            yield r


def summary(results: Iterable[GameResult], p1: str, p2: str) -> dict:
    results = list(results)
    n = len(results)
    p1w = sum(1 for r in results if r.winner_bot == 1)
    p2w = sum(1 for r in results if r.winner_bot == 2)
    draws = n - p1w - p2w
    totals: Counter[str] = Counter()
    for r in results:
        totals.update(r.counts)
    lo, hi = wilson(p1w + 0.5 * draws, n)
    return {
        "games": n,
        "p1": p1,
        "p2": p2,
        "p1_wins": p1w,
        "p2_wins": p2w,
        "draws": draws,
        "p1_win_rate": round((p1w + 0.5 * draws) / n, 4) if n else 0.0,
        "p1_win_rate_ci95": [round(lo, 4), round(hi, 4)],
        "all_ended": all(r.reason for r in results),
        "average_rounds": round(sum(r.rounds for r in results) / n, 3) if n else 0.0,
        "average_actions": round(sum(r.actions for r in results) / n, 1) if n else 0.0,
        "per_game": {k: round(v / n, 3) for k, v in sorted(totals.items())} if n else {},
        "p1_by_side": _rates(results, lambda r: f"player {r.p1_side}"),
        "p1_by_army": _rates(results, lambda r: r.armies[r.p1_side - 1]),
        "results": [
            {
                "game": r.index,
                "seed": r.seed,
                "p1_side": r.p1_side,
                "winner": r.winner_bot,
                "score": list(r.score),
                "reason": r.reason,
            }
            for r in results
        ],
    }


def _rates(results: list[GameResult], group: Callable[[GameResult], str]) -> dict[str, dict]:
    """The first bot's record within each group of games (e.g. by the side it played)."""
    out: dict[str, dict] = {}
    for key in sorted({group(r) for r in results}):
        rs = [r for r in results if group(r) == key]
        w = sum(1 for r in rs if r.winner_bot == 1)
        d = sum(1 for r in rs if r.winner_bot is None)
        out[key] = {
            "games": len(rs),
            "wins": w,
            "losses": len(rs) - w - d,
            "draws": d,
            "win_rate": round((w + 0.5 * d) / len(rs), 4),
        }
    return out


def _record(v: dict) -> str:
    return f"{v['wins']}-{v['losses']}-{v['draws']} ({v['win_rate']:.1%})"


def _side(key: str) -> str:
    """ "player 1" (the JSON key) in words."""
    return _("player {n}").format(n=key.split()[-1]) if key.startswith("player ") else key


def _army(army_id: str) -> str:
    """An army id (the JSON key); by its display name in Korean or Japanese (English keeps the id)."""
    from game import i18n

    if i18n.language() == "en":
        return army_id
    try:
        from game.content_words import content_name
        from game.data import library

        # the active library: the built-in armies, the packs' and the saved lists (issue 23)
        return content_name(library.active().content.armies[army_id].name)
    except Exception:  # an army no longer in the library: its id
        return army_id


def table(s: dict) -> str:
    lo, hi = s["p1_win_rate_ci95"]
    pg = s["per_game"]
    # the words are translated (issue 22); the numbers and the bot names are not
    draws = _("draws")
    rows = [
        _("{games} games: {p1} (first bot) vs {p2} (second bot), sides and armies alternated").format(
            games=s["games"], p1=s["p1"], p2=s["p2"]
        ),
        "  "
        + _("{bot} wins {wins}   win rate {rate} (95% CI {lo} - {hi}, draws count half)").format(
            bot=f"{s['p1']:>10}",
            wins=f" {s['p1_wins']:5}",
            rate=f"{s['p1_win_rate']:.1%}",
            lo=f"{lo:.1%}",
            hi=f"{hi:.1%}",
        ),
        "  " + _("{bot} wins {wins}").format(bot=f"{s['p2']:>10}", wins=f" {s['p2_wins']:5}"),
        "  " + _("{label}       {draws}").format(label=f"{draws:>10}", draws=f"{s['draws']:5}"),
        "  "
        + _("average rounds {rounds}, actions {actions}").format(
            rounds=f"{s['average_rounds']:.2f}", actions=f"{s['average_actions']:.0f}"
        ),
        "  "
        + _("{bot} by side: {records}").format(
            bot=s["p1"],
            records=", ".join(
                _("as {side} {record}").format(side=_side(k), record=_record(v)) for k, v in s["p1_by_side"].items()
            ),
        ),
        "  "
        + _("{bot} by army: {records}").format(
            bot=s["p1"],
            records=", ".join(f"{_army(k)} {_record(v)}" for k, v in s["p1_by_army"].items()),
        ),
        "  "
        + _("per game: {counts}").format(
            counts=", ".join(
                f"{_(label)} {pg.get(key, 0):.2f}"
                for label, key in (
                    (N_("spells cast"), "spells_cast"),
                    (N_("unbound"), "spells_unbound"),
                    (N_("miscasts"), "miscasts"),
                    (N_("summoned"), "summoned"),
                    (N_("banished"), "removed_banished"),
                    (N_("dispelled"), "removed_dispelled"),
                )
            )
        ),
    ]
    return "\n".join(rows)


def main(args) -> int:
    report_dir = getattr(args, "report", None)
    if report_dir is not None:  # a bad folder fails before any game is played
        from game.sim_report import prepare

        prepare(report_dir, force=bool(getattr(args, "force", False)))
    from game.sim_log import RunSettings, line, open_log

    path = getattr(args, "log", None)
    resume = bool(getattr(args, "resume", False))
    settings = RunSettings(args.p1, args.p2, args.profile, args.seed)
    found = None
    if resume:
        if path is None:
            raise ValueError(_("--resume goes on with the games of a --log FILE: give the --log of the run to resume"))
        found = _resumed(path, settings, args.games)
    log = open_log(path, force=bool(getattr(args, "force", False))) if path is not None else None
    if log and found:
        from game.sim_log import resume_file

        resume_file(log, found)

    def logged(r: GameResult) -> None:
        if log:
            try:
                log.write(line(r, settings) + "\n")
                log.flush()
            except OSError as exc:
                from game.data.safe_io import describe_os_error

                raise ValueError(
                    _("--log {file}: cannot write to it: {reason}").format(file=args.log, reason=describe_os_error(exc))
                ) from None

    try:
        results = run(
            args.games,
            args.p1,
            args.p2,
            args.seed,
            args.jobs,
            args.profile,
            progress=sys.stderr.isatty() or args.progress,  # stderr: never in --json's stdout
            on_result=logged,
            scheduler=getattr(args, "scheduler", None),
            done=found.done if found else None,
        )
    finally:
        if log:
            try:
                log.close()
            except OSError:
                pass  # the write that failed already said why
    s = summary(results, args.p1, args.p2)
    if args.json:
        print(json.dumps({k: v for k, v in s.items() if k != "results"} | {"results": s["results"]}, sort_keys=True))
    else:
        print(table(s))
    if report_dir is not None:
        from game.sim_report import write_report

        write_report(results, args.p1, args.p2, report_dir, summary=s, profile=args.profile, force=bool(args.force))
        print(_("wrote the report (JSON and plots) to {dir}").format(dir=report_dir), file=sys.stderr)
    return 0


def _resumed(path: str, settings: RunSettings, games: int) -> Resumed:
    """The games a `--log` file already holds for `--resume`, said on stderr (game.sim_log)."""
    from game.sim_log import read_for_resume

    content_of = {a: content_hash_of(a) for a in {game_plan(i, settings.seed)[2] for i in range(min(games, 4))}}
    found = read_for_resume(path, settings, games, content_of)
    if found.torn:
        print(
            _("--log {file}: its last line was cut short; that game is played again").format(file=path), file=sys.stderr
        )
    left = games - len(found.done)
    if left:
        said = _("--resume: {done} of {games} games are in {file}; playing the other {left}").format(
            done=len(found.done), games=games, file=path, left=left
        )
    else:
        said = _("--resume: all {games} games are in {file}; none is played again").format(games=games, file=path)
    print(said, file=sys.stderr)
    if found.beyond:
        print(
            _("--resume: {n} later games in {file} are past --games and left out of this run's results").format(
                n=found.beyond, file=path
            ),
            file=sys.stderr,
        )
    return found
