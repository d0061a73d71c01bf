"""The `spellfield` command line. `python -m game` does the same.

spellfield [play]             open the window (--headless --frames N --screenshot F; --text)
spellfield check FILE|DIR...  validate data files (maps, content) and whole content packs
spellfield record OUT         play a bot game and write its replay
spellfield replay FILE --verify
spellfield demo --list        rule demonstrations; `spellfield demo NAME --export out.gif`
spellfield import-map F.tmx   turn a map drawn in the Tiled editor into a map file (docs/maps.md)
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterator, Sequence
from contextlib import contextmanager

from game import argparse_words, argtypes, i18n
from game.i18n import _, ngettext

#: Most games one `simulate` plays; most worker processes.
MAX_GAMES, MAX_JOBS = 100_000, 256


class CommandError(Exception):
    """A command failed for a reason already phrased for the player (it names the file)."""


def _reason(exc: BaseException) -> str:
    if isinstance(exc, KeyError):
        return _("missing key {key}").format(key=repr(exc.args[0])) if exc.args else _("missing key")
    if isinstance(exc, OSError):
        return exc.strerror or str(exc)
    text = str(exc).strip().splitlines()[0] if str(exc).strip() else ""
    return text[:300] or type(exc).__name__


@contextmanager
def about(label: object) -> Iterator[None]:
    """Per-file work: any failure that does not already name its file is reported as
    `LABEL: reason` (a DataError, ReplayError or SaveError names its file itself)."""
    from game.data.errors import DataError
    from game.rules import ReplayError, SaveError

    try:
        yield
    except (DataError, ReplayError, SaveError, CommandError, KeyboardInterrupt, BrokenPipeError):
        raise
    except Exception as exc:
        text = _reason(exc)
        raise CommandError(text if str(label) in text else f"{label}: {text}") from None


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="spellfield", description=_("Spellfield: wargame magic on a measured battlefield.")
    )
    sub = p.add_subparsers(dest="command")

    play = sub.add_parser("play", help=_("play in the window (or headless with --headless)"))
    _game_options(play)
    play.add_argument("--text", action="store_true", help=_("print the battle's set-up in the terminal instead"))
    play.add_argument(
        "--force",
        action="store_true",
        help=_("let --screenshot replace an existing file that is not an image, or a symbolic link (the link itself)"),
    )
    _ui_options(play)

    check = sub.add_parser("check", help=_("validate map and content files, and whole content packs (folders)"))
    check.add_argument("files", nargs="+", metavar="FILE|DIR")

    record = sub.add_parser("record", help=_("play a game between bots and write its replay"))
    record.add_argument("out", metavar="OUT")
    record.add_argument(
        "--force",
        action="store_true",
        help=_("replace an existing OUT that is not a Spellfield replay, or a symbolic link (the link itself)"),
    )
    _game_options(record)

    sim = sub.add_parser("simulate", help=_("play many games between bots, headless"))
    sim.add_argument("--games", type=argtypes.int_in(1, MAX_GAMES), default=20)
    sim.add_argument(
        "--p1", type=argtypes.bot, default="random", help=_("the first bot (random, normal, hard; hard@SECONDS)")
    )
    sim.add_argument("--p2", type=argtypes.bot, default="random", help=_("the second bot"))
    sim.add_argument("--seed", type=argtypes.seed, default=1)
    sim.add_argument(
        "--jobs", type=argtypes.int_in(1, MAX_JOBS), default=1, help=_("worker processes (same results as one)")
    )
    sim.add_argument(
        "--scheduler",
        metavar="ADDRESS",
        help=_("play the games on a Dask cluster: its scheduler's address (tcp://host:8786), or local to start one"),
    )
    sim.add_argument("--profile", default="aos4")
    _content_option(sim)
    sim.add_argument("--json", action="store_true", help=_("print one JSON object"))
    sim.add_argument("--progress", action="store_true", help=_("show the progress bar even when not on a terminal"))
    sim.add_argument("--log", metavar="FILE", help=_("append each finished game to FILE as a JSON line, as it ends"))
    sim.add_argument(
        "--resume",
        action="store_true",
        help=_(
            "go on with a stopped run: take the games its --log FILE already has, play only the others, "
            "and report them all as one run"
        ),
    )
    sim.add_argument(
        "--report",
        metavar="DIR",
        help=_(
            "write the results to DIR as report.json and PNG plots (win rates, margins, game length, magic); "
            "--force replaces files there that are not a Spellfield report"
        ),
    )
    sim.add_argument(
        "--force",
        action="store_true",
        help=_("append to a --log FILE that is not a Spellfield game log, or replace a symbolic link there"),
    )

    demo = sub.add_parser("demo", help=_("rule demonstrations: list them, check them, or export one as GIF/PNG"))
    demo.add_argument("name", nargs="?", metavar="NAME", help=_("a demonstration name (see --list) or a .toml path"))
    demo.add_argument("--list", action="store_true", help=_("list the demonstrations with the rule IDs they cover"))
    demo.add_argument("--export", metavar="OUT.gif", help=_("render it headless as an animated GIF"))
    demo.add_argument("--export-frames", metavar="DIR", help=_("render it headless as PNG frames in DIR"))
    demo.add_argument(
        "--size",
        type=argtypes.size((320, 240), (4000, 4000), "1280x760"),
        default=(1280, 760),
        metavar="WxH",
        help=_("frame size for exports (default 1280x760)"),
    )
    demo.add_argument(
        "--force",
        action="store_true",
        help=_(
            "let the exports replace existing files that are not GIF/PNG images, "
            "or symbolic links (the links themselves)"
        ),
    )

    _import_map_options(sub)

    replay = sub.add_parser("replay", help=_("inspect or verify a replay file"))
    replay.add_argument("file", metavar="FILE")
    replay.add_argument("--verify", action="store_true", help=_("re-apply every action and compare checksums"))
    return p


def _import_map_options(sub) -> None:
    imp = sub.add_parser("import-map", help=_("turn a map drawn in the Tiled editor (.tmx) into a map file"))
    imp.add_argument("file", metavar="FILE.tmx")
    imp.add_argument("--out", metavar="FILE.toml", help=_("where to write it (default: your maps folder, as ID.toml)"))
    imp.add_argument("--force", action="store_true", help=_("replace an existing file there"))


def _game_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("--profile", default="aos4", help=_("rules profile: aos4 (default) or aos3"))
    p.add_argument("--map", default=None, help=_("map id or path (default: the embedded default map)"))
    p.add_argument("--armies", nargs=2, default=None, metavar=("P1", "P2"), help=_("army ids"))
    p.add_argument("--seed", type=argtypes.seed, default=1)
    _content_option(p)


def _content_option(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--content",
        action="append",
        default=None,
        metavar="DIR",
        help=_("play with the content pack in DIR too (may be given more than once)"),
    )


def _library(args: argparse.Namespace):
    """The built-in content with the player's packs, saved lists and maps, and the `--content`
    packs, made the active library (issue 23). A broken `--content` pack raises one DataError
    with every problem (exit 2, before any game is played)."""
    from pathlib import Path

    from game.data import library
    from game.data.errors import DataError
    from game.rules import data_dir

    dirs = [Path(d) for d in getattr(args, "content", None) or ()]
    try:
        lib = library.load_library(data_dir(), dirs, strict=True)
    except DataError as exc:
        n = len(exc.problems)
        head = ngettext(
            "--content: {n} problem in the named packs:", "--content: {n} problems in the named packs:", n
        ).format(n=n)
        raise CommandError("\n".join([head, *("  " + p for p in exc.problems)])) from None
    library.set_active(lib, data_dir(), dirs)
    return lib


def _ui_options(play: argparse.ArgumentParser) -> None:
    try:
        from game.ui.app import add_play_arguments
    except ImportError:  # pragma: no cover - pygame missing: the text view still works
        return
    add_play_arguments(play)


def _load_game(args: argparse.Namespace):
    from game.data.content import DEFAULT_ARMIES, load_map
    from game.rules import Game

    lib = _library(args)
    ids = tuple(args.armies) if args.armies else DEFAULT_ARMIES
    battlefield = None
    if args.map is not None:
        with about(args.map):
            battlefield = lib.maps.get(args.map) or load_map(args.map)
    return Game.load(profile=args.profile, armies=ids, battlefield=battlefield, content=lib.content_for(ids))


def cmd_play(args: argparse.Namespace) -> int:
    if not args.text:
        _load_game(args)  # bad ids fail here, with a clear message
        from game.ui.app import run

        return run(args)
    from game.textview import describe_setup

    game = _load_game(args)
    state = game.new_state(seed=args.seed)
    print(describe_setup(state))
    return 0


def cmd_check(args: argparse.Namespace) -> int:
    """Check files; print "OK <file>" for each good file, else its problems (as the data layer
    words them, each reason worded in the player's language by game.check_words); 0 if all good, else 1.
    A folder is checked as a whole content pack (game.data.library)."""
    from game.check_words import check_line
    from game.data.check import belongs, check_files, labels_for
    from game.demos.loader import load_demo

    warnings: list[str] = []
    problems = check_files(list(args.files), warnings, {"demo": load_demo})
    labels = labels_for(args.files)
    for label in labels:
        mine = [p for p in problems if belongs(p, label)]
        for p in mine:
            print(check_line(p, labels))
        if not mine:
            print(_("OK {file}").format(file=label))
    for p in problems:
        if not any(belongs(p, label) for label in labels):
            print(check_line(p, labels))
    for w in warnings:
        print(_("warning: {warning}").format(warning=check_line(w, labels)))
    return 1 if problems else 0


def cmd_record(args: argparse.Namespace) -> int:
    from game.ai.random_bot import RandomBot
    from game.data.safe_io import check_output_path, json_with_format
    from game.rules import REPLAY_FORMAT, Recorder, write_json_atomic

    is_replay = json_with_format(REPLAY_FORMAT)
    check_output_path(args.out, force=args.force, is_ours=is_replay, what="replay")  # before the game is played
    game = _load_game(args)
    rec = Recorder(game, args.seed, game.new_state(seed=args.seed))
    bots = {1: RandomBot(1, args.seed), 2: RandomBot(2, args.seed)}
    while not rec.state.is_over():
        rec.apply(bots[rec.state.pending().player].choose(rec.state))
    write_json_atomic(args.out, rec.to_dict(), force=args.force, is_ours=is_replay, what="replay")
    res = rec.state.result() or {}
    print(
        _("wrote {file}: {actions} actions; result: {reason}, winner {winner}").format(
            file=args.out, actions=len(rec.steps), reason=res.get("reason"), winner=res.get("winner")
        )
    )
    return 0


def replay_names(header: dict) -> dict[str, str]:
    """The display names of a replay's rules, map and armies (issue 23), from the content and map
    the file carries (or the built-in ones), so that a friend without the pack or the map reads
    "Fen Patrol", not "fen_patrol". A header that cannot be built keeps its ids here: `--verify`
    then says why it cannot be played."""
    from game.content_words import content_name
    from game.rules import game_for, query

    titles = {name: title for name, title, _desc in query.profile_choices()}
    out = {
        "profile": content_name(titles.get(str(header.get("profile")), str(header.get("profile")))),
        "map": str(header.get("map")),
        "army1": str(header["armies"][0]),
        "army2": str(header["armies"][1]),
    }
    try:
        game = game_for(header)
    except Exception:  # a broken header: its ids, and --verify names the problem
        return out
    out["map"] = content_name(game.battlefield.map.name)
    out["army1"], out["army2"] = (content_name(game.army(p).name) for p in (1, 2))
    return out


def cmd_replay(args: argparse.Namespace) -> int:
    from game.rules import read_replay, verify

    with about(args.file):
        data = read_replay(args.file)
        h = data["header"]
        names = replay_names(h)
        print(
            _("{file}: {profile} on {map}, {army1} vs {army2}, seed {seed}, {actions} actions").format(
                file=args.file,
                profile=names["profile"],
                map=names["map"],
                army1=names["army1"],
                army2=names["army2"],
                seed=h["seed"],
                actions=len(data["steps"]),
            )
        )
        if not args.verify:
            return 0
        report = verify(data)
    print((_("OK: {message}") if report.ok else _("MISMATCH: {message}")).format(message=report.message))
    return 0 if report.ok else 1


def cmd_simulate(args: argparse.Namespace) -> int:
    import os

    from game.sim import CONTENT_ENV
    from game.sim import main as sim_main

    _library(args)  # a broken --content pack: every problem at once, before any game
    if not getattr(args, "content", None):
        return sim_main(args)
    before = os.environ.get(CONTENT_ENV)
    os.environ[CONTENT_ENV] = os.pathsep.join(args.content)  # worker processes read the same packs
    try:
        return sim_main(args)
    finally:
        if before is None:
            os.environ.pop(CONTENT_ENV, None)
        else:
            os.environ[CONTENT_ENV] = before


def cmd_demo(args: argparse.Namespace) -> int:
    from game.content_words import content_name
    from game.demos import list_demos, load_demo, run_demo

    if args.list or not args.name:
        for name in list_demos():
            with about(f"maps/demos/{name}.toml"):
                d = load_demo(name)
            print(f"{name:34s} {', '.join(d.demo.rules):22s} {content_name(d.demo.title)}")
        return 0
    with about(args.name):
        run = run_demo(load_demo(args.name))
    for line in run.problems:
        print(_("MISMATCH: {message}").format(message=line), file=sys.stderr)
    if args.export is not None or args.export_frames is not None:
        from game.ui.export import export_frames, export_gif

        w, h = args.size
        if args.export is not None:
            with about(args.export):
                out = export_gif(run, args.export, (w, h), force=args.force)
                print(_("wrote {file}: {n} frames").format(file=out, n=len(run.frames)))
        if args.export_frames is not None:
            with about(args.export_frames):
                paths = export_frames(run, args.export_frames, (w, h), force=args.force)
            print(_("wrote {n} frames to {dir}").format(n=len(paths), dir=args.export_frames))
    else:
        for f in run.frames:
            head = _("set-up") if f.index == 0 else _("step {n}").format(n=f.index)
            print(f"[{head}] {f.caption}")
            for note in f.geometry.notes:
                print("    " + _("measured: {note}").format(note=note))
    n = len(run.problems)
    print(_("OK: the engine agrees with the demonstration") if run.ok else _("{n} mismatches").format(n=n))
    return 0 if run.ok else 1


def cmd_import_map(args: argparse.Namespace) -> int:
    """Import a Tiled map (game.data.tiled), write it as a map file that `check` accepts, and say
    where it went and how to play it. Never writes over a file without --force."""
    import os
    from pathlib import Path

    from game.data.content import list_maps
    from game.data.library import MAPS_FOLDER
    from game.data.loader import load_map_file
    from game.data.safe_io import write_file_atomic
    from game.data.tiled import map_toml, read_tmx
    from game.rules import data_dir

    with about(args.file):
        bm = read_tmx(args.file)
    if bm.id in list_maps():
        raise CommandError(
            _("{file}: the map id {id} is a built-in map's; give the map an id property of its own in Tiled").format(
                file=args.file, id=repr(bm.id)
            )
        )
    out = Path(args.out) if args.out else data_dir() / MAPS_FOLDER / f"{bm.id}.toml"
    if os.path.lexists(out) and not args.force:
        raise CommandError(_("{file} already exists; use --force to replace it").format(file=out))
    write_file_atomic(out, map_toml(bm, args.file), force=args.force, is_ours=None, what="map")
    with about(out):
        load_map_file(out)  # what `spellfield check` reads: the file written is a good map
    print(
        _("wrote {file}: {name}, {w} x {h} inches").format(
            file=out, name=bm.name, w=f"{bm.width:g}", h=f"{bm.height:g}"
        )
    )
    if args.out:
        print(_("play it: spellfield play --map {file}").format(file=out))
    else:
        print(
            _("play it: choose {name} as the map in a new game, or: spellfield play --map {file}").format(
                name=bm.name, file=out
            )
        )
    return 0


def start_language() -> str:
    """The language of what the commands print (issue 22): SPELLFIELD_LANG if it names one we
    have, else the system's locale (LANGUAGE, LC_ALL, LC_MESSAGES, LANG), else English."""
    import os

    wanted = os.environ.get(i18n.ENV_LANG)
    try:
        return i18n.set_language(wanted or i18n.system_language())
    except ValueError:  # SPELLFIELD_LANG names a language we do not have: the system's instead
        return i18n.set_language(i18n.system_language())


COMMANDS = {
    "demo": cmd_demo,
    "play": cmd_play,
    "check": cmd_check,
    "record": cmd_record,
    "replay": cmd_replay,
    "simulate": cmd_simulate,
    "import-map": cmd_import_map,
}


def main(argv: Sequence[str] | None = None) -> int:
    """Run one command. Exit status: 0 done, 1 a check or verification failed, 2 bad input (a
    bad file, option or value: one clear message, never a traceback), 70 an internal error (a
    bug: a short message naming the error), 130 interrupted."""
    from game.data.errors import DataError
    from game.rules import ReplayError, SaveError

    start_language()
    words = list(sys.argv[1:] if argv is None else argv)
    if not words or (words[0] not in COMMANDS and words[0] not in ("-h", "--help")):
        words = ["play", *words]  # `spellfield [options]` plays
    try:
        with argparse_words.speaking():  # argparse's own words (usage:, its errors) in our language too
            args = _parser().parse_args(words)
    except SystemExit as exc:  # argparse has printed the usage and the reason (or --help)
        return exc.code if isinstance(exc.code, int) else 2
    try:
        return COMMANDS[args.command](args)
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:  # e.g. `spellfield simulate --json | head`
        sys.stderr.close()
        return 0
    except DataError as exc:  # the data layer's English problems, each worded at display (check_words)
        from game.check_words import check_line

        reason = "\n".join(check_line(line) for line in exc.problems)
        print(_("spellfield: error: {reason}").format(reason=reason), file=sys.stderr)
        return 2
    except (ReplayError, SaveError, CommandError, ValueError) as exc:
        print(_("spellfield: error: {reason}").format(reason=exc), file=sys.stderr)
        return 2
    except OSError as exc:
        where = f"{exc.filename}: " if exc.filename else ""
        print(_("spellfield: error: {reason}").format(reason=f"{where}{exc.strerror or exc}"), file=sys.stderr)
        return 2
    except RecursionError:
        print(_("spellfield: error: input nested too deeply to read"), file=sys.stderr)
        return 2
    except MemoryError:
        print(_("spellfield: error: out of memory (is an input file absurdly large?)"), file=sys.stderr)
        return 2
    except Exception as exc:  # last resort: a bug, reported in one line
        print(
            _("spellfield: internal error: {error}: {reason}").format(error=type(exc).__name__, reason=_reason(exc)),
            file=sys.stderr,
        )
        return 70


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
