"""The application: window, scene stack and main loop; the `spellfield play` entry points.

    add_play_arguments(parser)   adds --headless, --frames, --screenshot, --size, --resume, ...
    run(args) -> int             opens the window (or renders headless) and plays

Headless (`--headless`): SDL's dummy video and audio drivers, no display needed; the default
battle is rendered for `--frames N` frames and the last one is saved with `--screenshot PATH`.
"""

from __future__ import annotations

import argparse
import os
import time
import warnings
from pathlib import Path
from typing import Any

from game import argtypes
from game.i18n import _

DEFAULT_SIZE = (1280, 800)
#: Most frames `--frames` renders (an hour at 60 fps is 216,000); most bot decisions `--advance`.
MAX_FRAMES, MAX_ADVANCE = 1_000_000, 100_000


def _add(parser: argparse.ArgumentParser, *flags: str, **kw: Any) -> None:
    """Add an option unless the CLI already defines it (the play parser has --profile etc.)."""
    if any(f in parser._option_string_actions for f in flags):
        return
    parser.add_argument(*flags, **kw)


def _size(text: str) -> tuple[int, int]:
    try:
        w, h = text.lower().split("x")
        size = (int(w), int(h))
    except ValueError:
        raise argparse.ArgumentTypeError(
            _("size must look like 1280x800, got {text}").format(text=repr(text))
        ) from None
    if not (320 <= size[0] <= 8000 and 240 <= size[1] <= 8000):
        raise argparse.ArgumentTypeError(_("size {text} is out of range (320x240 to 8000x8000)").format(text=text))
    return size


def add_play_arguments(parser: argparse.ArgumentParser) -> None:
    """The front end's options for `spellfield play` (existing game options are kept)."""
    _add(parser, "--profile", default="aos4", help=_("rules profile: aos4 (default) or aos3"))
    _add(parser, "--map", default=None, help=_("map id or path (default: the embedded default map)"))
    _add(parser, "--armies", nargs=2, default=None, metavar=("P1", "P2"), help=_("army ids"))
    _add(parser, "--seed", type=argtypes.seed, default=1)
    _add(
        parser,
        "--content",
        action="append",
        default=None,
        metavar="DIR",
        help=_("play with the content pack in DIR too (may be given more than once)"),
    )
    _add(
        parser,
        "--headless",
        action="store_true",
        help=_("render without a display (SDL dummy driver); goes straight to the battle"),
    )
    _add(
        parser,
        "--frames",
        type=argtypes.int_in(1, MAX_FRAMES),
        default=None,
        metavar="N",
        help=_("render N frames, then exit"),
    )
    _add(parser, "--screenshot", default=None, metavar="PATH", help=_("save the last frame as a PNG"))
    _add(
        parser,
        "--size",
        type=_size,
        default=DEFAULT_SIZE,
        metavar="WxH",
        help=_("window size (default 1280x800, at least 1024x640)"),
    )
    _add(parser, "--resume", action="store_true", help=_("continue the most recent saved game"))
    _add(parser, "--demo", action="store_true", help=_("watch two AI players (random bots)"))
    _add(parser, "--replay-file", default=None, metavar="FILE", help=_("open a replay file and step through it"))
    _add(
        parser,
        "--advance",
        type=argtypes.int_in(0, MAX_ADVANCE),
        default=0,
        metavar="K",
        help=_("let bots make the first K decisions before you take over (for demos and screenshots)"),
    )
    _add(parser, "--menu", action="store_true", help=_("start at the main menu even with --headless/--frames"))
    _add(
        parser,
        "--palette",
        default=None,
        metavar="NAME",
        help=_("colours: default or okabe-ito (colour-blind safe); also the SPELLFIELD_PALETTE environment variable"),
    )
    _add(
        parser,
        "--lang",
        default=None,
        metavar="LANG",
        help=_(
            "language: en, ko or ja (default: the SPELLFIELD_LANG environment variable, else the saved setting, "
            "else the system's)"
        ),
    )
    _add(
        parser,
        "--force",
        action="store_true",
        help=_("let --screenshot replace an existing file that is not an image, or a symbolic link (the link itself)"),
    )


class App:
    def __init__(self, size: tuple[int, int], args: argparse.Namespace | None = None, headless: bool = False) -> None:
        import pygame

        self.args = args or argparse.Namespace()
        self.headless = headless
        self.size = fit_size(size)
        pygame.display.set_caption("Spellfield")
        self.screen = pygame.display.set_mode(self.size, pygame.RESIZABLE)
        _set_minimum_size()
        from game.ui.input import InputMapper

        self.input = InputMapper()
        self.scenes: list[Any] = []
        self.running = True
        self.frame_times: list[float] = []
        self.replay_dirs: list[Path] = []

    # --- scenes ----------------------------------------------------------------------------

    @property
    def scene(self):
        return self.scenes[-1] if self.scenes else None

    def push(self, scene) -> None:
        self.scenes.append(scene)

    def pop(self) -> None:
        if self.scenes:
            self.scenes.pop().close()
        if not self.scenes:
            self.running = False

    def replace(self, scene) -> None:
        if self.scenes:
            self.scenes.pop().close()
        self.scenes.append(scene)

    def quit(self) -> None:
        self.running = False

    # --- language (issue 22) -------------------------------------------------------------------

    def set_language(self, lang: str, remember: bool = True) -> str | None:
        """Switch every text to `lang` now: each open scene keeps its state and rebuilds its
        widgets and texts (a battle its panel; its game is untouched). Remembered for the next
        session unless `remember` is False; returns why the setting could not be saved."""
        from game import i18n
        from game.ui import settings

        code = i18n.set_language(lang)
        for scene in self.scenes:
            if scene.manager is not None:
                # pygame-gui's own face for the language; it re-renders the old words in the new
                # face first (too wide for their boxes, for a moment): the rebuild below replaces them
                with warnings.catch_warnings():
                    warnings.filterwarnings("ignore", "Label Rect is too small", UserWarning)
                    scene.manager.set_locale(code)
            rebuild = getattr(scene, "on_language", None)
            if rebuild is not None:
                rebuild()
            else:
                scene.on_resize(self.size)  # every scene rebuilds its widgets and layout here
        return settings.put("language", code) if remember else None

    def cycle_language(self) -> str | None:
        """The next language (English, Korean, Japanese, English ...): the menu's Language button, L."""
        from game import i18n

        codes = list(i18n.LANGUAGES)
        return self.set_language(codes[(codes.index(i18n.language()) + 1) % len(codes)])

    def default_options(self) -> dict:
        a = self.args
        from game.data.content import DEFAULT_ARMIES

        return {
            "map": getattr(a, "map", None),
            "armies": tuple(getattr(a, "armies", None) or DEFAULT_ARMIES),
            "profile": getattr(a, "profile", "aos4"),
            "seed": getattr(a, "seed", 1),
        }

    def start_battle(self, opts: dict, demo: bool = False, replace: bool = False, advance: int = 0) -> str | None:
        from game.ai.random_bot import RandomBot
        from game.ui.controllers import BotController, HumanController
        from game.ui.scenes.battle import BattleScene
        from game.ui.session import Session

        try:
            session = Session.new(
                profile=opts["profile"], armies=tuple(opts["armies"]), battlefield=opts["map"], seed=opts["seed"]
            )
        except Exception as exc:  # bad ids or data: say so in the menu
            return _("cannot start: {problem}").format(problem=exc)
        session.autosaving = not demo and not self.headless
        if advance:
            bots = {1: RandomBot(1, opts["seed"]), 2: RandomBot(2, opts["seed"])}
            for _step in range(advance):
                if session.state.is_over():
                    break
                session.apply(bots[session.decision.player].choose(session.state))
        if demo:
            ctl = {p: BotController(p, RandomBot(p, opts["seed"]), min_delay=0.35) for p in (1, 2)}
            scene = BattleScene(self, session, ctl, mode="demo")
        elif opts.get("ai"):  # solo play: {"level": "normal" | "hard" | "random", "human": 1 | 2}
            from game.ai.registry import make_bot

            human = int(opts["ai"].get("human", 1))
            bot = 3 - human
            ctl = {
                human: HumanController(human),
                bot: BotController(bot, make_bot(opts["ai"].get("level", "normal"), bot, opts["seed"]), min_delay=0.35),
            }
            scene = BattleScene(self, session, ctl)
            scene.seen_player = human
            session.info.update(mode="ai", ai_level=opts["ai"].get("level", "normal"), human=human)  # for resume
        else:
            scene = BattleScene(self, session, {1: HumanController(1), 2: HumanController(2)})
            scene.seen_player = session.decision.player  # whoever starts is already at the screen
        (self.replace if replace else self.push)(scene)
        return None

    def open_save(self, path: Path, replace: bool = False) -> str | None:
        from game.rules import Recorder, SaveError
        from game.ui import storage
        from game.ui.controllers import HumanController
        from game.ui.scenes.battle import BattleScene
        from game.ui.session import Session, new_game_id, safe_game_id

        try:
            game, state, meta = storage.load(path)
        except SaveError as exc:
            return str(exc)
        try:
            # the engine's one recorder, its history's checksums rebuilt; a save without a seed
            # keeps none (its autosaves stay seedless, their history unverified)
            recorder = Recorder.continuing(game, state, meta)
        except SaveError as exc:  # load_game has re-played the history already; a message all the same
            return _("{file}: {problem}").format(file=path, problem=exc)
        info = dict(meta.get("info") or {})
        info.pop("saved_at", None)
        if safe_game_id(info.get("game_id")) is None:
            # a save from before game ids: a slot keeps its file's name, so that leaving rewrites
            # it rather than adding another; anything else gets a new id
            in_slots = Path(path).parent == storage.saves_dir() and safe_game_id(Path(path).stem)
            info["game_id"] = Path(path).stem if in_slots else new_game_id()
        session = Session(game, state, recorder.seed, autosaving=True, info=info)
        session.recorder = recorder
        session.restore_events()  # the log and the dice tray show what happened before
        controllers: dict[int, Any] = {1: HumanController(1), 2: HumanController(2)}
        human = info.get("human") if info.get("human") in (1, 2) else 1
        if info.get("mode") == "ai":  # a game against the AI goes on against the AI
            from game.ai.registry import BOTS, make_bot
            from game.ui.controllers import BotController

            level = info.get("ai_level") if info.get("ai_level") in BOTS else "normal"
            info["ai_level"] = level
            seed = recorder.seed if recorder.seed is not None else 1
            bot = 3 - int(human)
            controllers[bot] = BotController(bot, make_bot(str(level), bot, seed), min_delay=0.35)
        scene = BattleScene(self, session, controllers)
        scene.seen_player = int(human) if info.get("mode") == "ai" else None
        (self.replace if replace else self.push)(scene)
        return None

    def resume(self, include_saves: bool = False) -> tuple[str | None, str | None]:
        """Open the latest autosave, falling back to the previous one (and, from the menu, to the
        newest save) when it will not load: (the problem when none opens, a note when a fallback
        was used). A damaged file never stops the player from continuing what is left."""
        from game.ui import storage

        err = storage.resume_problem() or _("no saved game to resume")
        candidates = list(storage.resume_candidates())
        if include_saves:
            candidates += [p for p in storage.list_saves() if p not in candidates]
        for i, candidate in enumerate(candidates):
            problem = self.open_save(candidate)
            if problem is None:
                if not i:
                    return None, None
                from game.rules import previous_autosave_path

                what = _("the previous autosave") if candidate == previous_autosave_path() else _("the save")
                return None, _("resumed {what} ({file}); the latest: {problem}").format(
                    what=what, file=candidate, problem=err
                )
            err = problem
        return err, None

    def open_replay(self, path: Path, replace: bool = False, name: str | None = None) -> str | None:
        from game.rules import ReplayError, read_replay
        from game.ui.scenes.replay import ReplayScene

        try:
            scene = ReplayScene(self, read_replay(path), name or Path(path).name)
        except (ReplayError, ValueError) as exc:
            return str(exc)
        (self.replace if replace else self.push)(scene)
        return None

    # --- the loop ----------------------------------------------------------------------------

    def resize(self, size: tuple[int, int]) -> None:
        import pygame

        size = fit_size(size)
        self.size = size
        self.screen = pygame.display.set_mode(size, pygame.RESIZABLE)
        _set_minimum_size()
        for s in self.scenes:
            s.on_resize(size)

    def frame(self, dt: float) -> None:
        scene = self.scene
        if scene is None:
            self.running = False
            return
        for it in self.input.poll(scene.manager, dt):
            if it.kind == "resize":
                self.resize(it.get("size"))
                continue
            if it.kind == "language":  # L in any scene: the next language, nothing else changes
                self.cycle_language()
                continue
            self.scene.handle(it) if self.scene is not None else None
            if not self.running or self.scene is None:
                return
        t0 = time.perf_counter()
        self.scene.update(dt)
        self.report_autosave_problem()
        self.scene.draw(self.screen)
        self.frame_times.append(time.perf_counter() - t0)
        if len(self.frame_times) > 1000:
            del self.frame_times[:500]

    def report_autosave_problem(self) -> None:
        """Show a failed autosave on the battle's message line (`game.ui.storage.autosave` keeps
        the reason in `session.autosave_problem`); the game goes on."""
        scene = self.scene
        session = getattr(scene, "session", None)
        problem = getattr(session, "autosave_problem", None)
        if not problem or getattr(session, "autosave_problem_shown", None) == (problem, session.version):
            return
        session.autosave_problem_shown = (problem, session.version)
        say = getattr(scene, "say", None)
        if say is not None:
            from game.ui import theme

            say(problem, theme.TEXT_BAD)

    def run(self, frames: int | None = None, fps: int = 60) -> None:
        import pygame

        clock = pygame.time.Clock()
        n = 0
        while self.running and (frames is None or n < frames):
            dt = 1 / fps if frames is not None else clock.tick(fps) / 1000.0
            self.frame(dt)
            if not self.headless:
                pygame.display.flip()
            n += 1

    def screenshot(self, path: str | os.PathLike | None = None, force: bool = False) -> str:
        """Save the screen as an image (PNG unless the name ends in .jpg, .jpeg, .bmp or .tga)
        atomically, with the guards of `game.data.safe_io.write_file_atomic`: never over a
        directory, device or FIFO, never through a symbolic link, and an existing file that is
        not a PNG, GIF, JPEG or BMP image only with `force` (TGA has no magic bytes to know it
        by). Without a path it goes to the user data folder's "screenshots" folder
        (`screenshot_dir()`), named by the time. Raises `OutputError` naming the path."""
        import io

        import pygame

        from game.data.safe_io import IMAGE_MAGICS, check_output_path, has_magic, write_file_atomic

        if path is None:
            folder = screenshot_dir()
            try:
                folder.mkdir(parents=True, exist_ok=True)
            except OSError as exc:
                from game.data.safe_io import OutputError

                raise OutputError(folder, f"cannot make the folder: {exc.strerror or exc}") from None
            path = _free_name(folder, time.strftime("spellfield-%Y%m%d-%H%M%S"))
        is_ours = has_magic(*IMAGE_MAGICS)
        target = check_output_path(path, force=force, is_ours=is_ours, what="screenshot")
        buf = io.BytesIO()
        suffix = target.path.suffix.lower()
        pygame.image.save(self.screen, buf, suffix[1:] if suffix in (".jpg", ".jpeg", ".bmp", ".tga") else "png")
        return str(write_file_atomic(path, buf.getvalue(), force=force, is_ours=is_ours, what="screenshot"))


def fit_size(size) -> tuple[int, int]:
    """A window size no smaller than `theme.MIN_WINDOW` (below it the panels cannot fit)."""
    from game.ui import theme

    return (max(theme.MIN_WINDOW[0], int(size[0])), max(theme.MIN_WINDOW[1], int(size[1])))


def _set_minimum_size() -> None:
    """Tell the window manager the smallest the window may be dragged to (pygame-ce's Window)."""
    import warnings

    import pygame

    from game.ui import theme

    if pygame.display.get_driver() in ("dummy", "offscreen"):
        return  # no window manager to tell
    try:
        with warnings.catch_warnings():  # pygame-ce warns that display-module windows should flip
            warnings.simplefilter("ignore", DeprecationWarning)  # through Window; we only set a size
            pygame.Window.from_display_module().minimum_size = theme.MIN_WINDOW
    except (AttributeError, pygame.error):  # an older pygame: App.resize still clamps
        pass


def screenshot_dir() -> Path:
    """Where F12's screenshots go: the user data folder (platformdirs, or $SPELLFIELD_DATA_DIR)."""
    from game.rules import data_dir

    return data_dir() / "screenshots"


def _free_name(folder: Path, stem: str) -> Path:
    """`folder/stem.png`, or `stem-2.png`... if two screenshots fall in one second."""
    path, n = folder / f"{stem}.png", 1
    while path.exists():
        n += 1
        path = folder / f"{stem}-{n}.png"
    return path


def init_pygame(headless: bool) -> None:
    if headless:
        os.environ["SDL_VIDEODRIVER"] = "dummy"
        os.environ["SDL_AUDIODRIVER"] = "dummy"
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    import pygame

    pygame.display.init()
    pygame.font.init()
    from game.ui import theme

    theme.forget_fonts()  # fonts of an earlier run in this process died with its pygame.quit()


def run(args: argparse.Namespace) -> int:
    """Run the front end with parsed `spellfield play` arguments; returns an exit code."""
    headless = bool(getattr(args, "headless", False))
    shot = getattr(args, "screenshot", None)
    force = bool(getattr(args, "force", False))
    if shot is not None:  # a bad output path fails at once, before a window opens or a frame renders
        from game.data.safe_io import IMAGE_MAGICS, OutputError, check_output_path, has_magic

        try:
            check_output_path(shot, force=force, is_ours=has_magic(*IMAGE_MAGICS), what="screenshot")
        except OutputError as exc:
            import sys

            print(f"spellfield: error: --screenshot {exc}", file=sys.stderr)
            return 2
    from game.ui import settings, theme

    try:  # --palette, else SPELLFIELD_PALETTE, else the player's saved setting
        chosen = getattr(args, "palette", None) or os.environ.get(theme.ENV_PALETTE)
        theme.use_palette(chosen or _saved_palette(settings.get("palette")))
    except ValueError as exc:
        import sys

        print(f"spellfield: error: {exc}", file=sys.stderr)
        return 2
    from game import i18n

    try:  # --lang, else SPELLFIELD_LANG, else the saved setting, else the system's language
        i18n.set_language(choose_language(getattr(args, "lang", None)))
    except ValueError as exc:
        import sys

        print(f"spellfield: error: --lang: {exc}", file=sys.stderr)
        return 2
    from game.data import library
    from game.data.errors import DataError
    from game.rules import data_dir

    try:  # the built-in content with the player's packs, saved lists and maps (issue 23)
        dirs = [Path(d) for d in getattr(args, "content", None) or ()]
        library.set_active(library.load_library(data_dir(), dirs, strict=True), data_dir(), dirs)
    except DataError as exc:  # --content DIR named a broken pack: every problem at once, no window
        import sys

        print(f"spellfield: error: --content:\n{exc}", file=sys.stderr)
        return 2
    init_pygame(headless)
    size = getattr(args, "size", None) or DEFAULT_SIZE
    if isinstance(size, str):
        size = _size(size)
    app = App(size, args, headless=headless)
    frames = getattr(args, "frames", None)
    from game.ui.scenes.menu import MenuScene

    app.push(MenuScene(app))
    err = None
    if getattr(args, "replay_file", None):
        err = app.open_replay(Path(args.replay_file))
    elif getattr(args, "resume", False):
        err, note = app.resume()
        if note:
            print(f"spellfield: {note}")
    elif getattr(args, "demo", False):
        err = app.start_battle(app.default_options(), demo=True, advance=getattr(args, "advance", 0))
    elif (headless or frames is not None or getattr(args, "advance", 0)) and not getattr(args, "menu", False):
        err = app.start_battle(app.default_options(), advance=getattr(args, "advance", 0))
    if err:
        import sys

        print(f"spellfield: {err}", file=sys.stderr)
        if headless or frames is not None:
            return 2
    if headless and frames is None:
        frames = 1
    app.run(frames)

    if shot is not None:
        from game.data.safe_io import OutputError

        try:
            print(f"screenshot: {app.screenshot(shot, force=force)}")
        except OutputError as exc:
            import sys

            print(f"spellfield: error: --screenshot {exc}", file=sys.stderr)
            _quit()
            return 2
    _quit()
    return 0


def choose_language(flag: str | None = None) -> str:
    """The language to start in: `flag` (--lang), else $SPELLFIELD_LANG, else the settings'
    "language" ("" means the system's), else `i18n.system_language()`. A bad flag or variable
    is returned as it is (set_language names the choices); a bad saved value is ignored."""
    from game import i18n
    from game.ui import settings

    for given in (flag, os.environ.get(i18n.ENV_LANG)):
        if given:
            return given
    saved = settings.get("language")
    if isinstance(saved, str) and saved in i18n.LANGUAGES:
        return saved
    return i18n.system_language()


def _saved_palette(name: object) -> str:
    """The settings file's palette, or the default one if it names none we know."""
    from game.ui import theme

    try:
        return theme.palette_name(str(name))
    except ValueError:
        return "default"


def _quit() -> None:
    """Close pygame, and forget the fonts made with it: they die with it, and anything drawn
    later in this process (a test, an export) must make its own."""
    import pygame

    from game.ui import theme

    pygame.quit()
    theme.forget_fonts()


def main(argv: list[str] | None = None) -> int:
    """`python -m game.ui.app`: the same as `spellfield play` until the CLI is wired."""
    p = argparse.ArgumentParser(prog="spellfield-ui")
    add_play_arguments(p)
    return run(p.parse_args(argv))


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
