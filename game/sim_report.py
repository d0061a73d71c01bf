"""`spellfield simulate --report DIR` (issue 24): the results as JSON and as plots a designer reads.

Files written into DIR, each atomically (game.data.safe_io):

- `report.json`: the summary (`game.sim.summary`, unchanged) plus the figures the plots show:
  each bot's win rate with its 95% Wilson interval by army and by seat, the victory-point margins,
  game lengths, and per game the spells each bot cast, unbound and miscast and the
  manifestations it summoned and banished.
- `win_rates.png`, `vp_margins.png`, `game_length.png`, `magic.png`: 900x600 pictures.

matplotlib is imported only here, and this module only for --report, so `simulate` without it
starts as fast as before. The words on the plots go through game.i18n; Korean and Japanese use
the Noto Sans KR / JP faces pygame-gui ships (the same files as game/ui/theme.py), so no glyph
is a box. Bots are named by their level names and armies by their display names, never ids.
"""

from __future__ import annotations

import importlib.util
import io
import json
import os
import statistics
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from game.data.safe_io import (
    OutputError,
    check_output_path,
    has_magic,
    json_with_format,
    output_folder,
    write_file_atomic,
)
from game.i18n import N_, _
from game.stats import wilson

if TYPE_CHECKING:
    from matplotlib.figure import Figure

    from game.sim import GameResult

FORMAT = "spellfield-sim-report"
VERSION = 1
JSON_NAME = "report.json"
PNG_NAMES = ("win_rates.png", "vp_margins.png", "game_length.png", "magic.png")
PNG_MAGIC = b"\x89PNG\r\n\x1a\n"
#: Each picture: 9 x 6 inches at 100 DPI, 900 x 600 pixels.
FIG_SIZE, DPI = (9.0, 6.0), 100

#: The Noto faces pygame-gui ships, per language (the same files as game.ui.theme, which this
#: module does not import: it would start pygame). tests/cli/test_simulate_report.py compares them.
FONT_FILES = {
    "en": ("NotoSans-Regular.ttf", "NotoSans-Bold.ttf"),
    "ko": ("NotoSansKR-Regular.ttf", "NotoSansKR-Bold.ttf"),
    "ja": ("NotoSansJP-Regular.otf", "NotoSansJP-Bold.otf"),
}

#: The magic counted per game and per bot: (label, key in GameResult.counts after "player<n>_").
MAGIC = (
    (N_("spells cast"), "spells_cast"),
    (N_("unbound"), "spells_unbound"),
    (N_("miscasts"), "miscasts"),
    (N_("summoned"), "summoned"),
    (N_("banished"), "banished"),
    (N_("dispelled"), "dispelled"),  # E3 (classic endless spells); plotted only where some were
)
#: Always plotted, even at zero (the issue's list); the others only when a game had any.
MAGIC_ALWAYS = frozenset({"spells_cast", "spells_unbound", "miscasts", "summoned", "banished"})

#: The bots by the names the menus give their levels (game.ui.choices.LEVELS, which the engine's
#: side may not import; tests/cli/test_simulate_report.py keeps the two the same).
LEVEL_NAMES = {"random": N_("Random"), "normal": N_("Normal"), "hard": N_("Hard")}

#: The two bots' colours (Okabe-Ito blue and orange: told apart with any colour vision).
COLOURS = ("#0072B2", "#E69F00")
#: Whole games (not one bot's): grey-blue, so it is not read as either bot's colour.
NEUTRAL = "#6C7A89"


# --- the folder ---------------------------------------------------------------------------------


def prepare(folder: str | os.PathLike[str], force: bool = False) -> Path:
    """The report folder, created if missing, and every file to be written checked, before any
    game is played. Raises ValueError naming the folder: a file, a device, a part of the path that
    is not a folder, a place we cannot create or write in, a file there that is not ours."""
    raw = os.fspath(folder)
    try:
        out = output_folder(raw, "report")
        for name in (JSON_NAME, *PNG_NAMES):
            check_output_path(out / name, force=force, is_ours=_is_ours(name), what=_what(name))
    except OutputError as exc:
        shown = exc.path if exc.path != raw else ""
        reason = f"{shown}: {exc.reason}" if shown else exc.reason
        raise ValueError(_("--report {dir}: {reason}").format(dir=raw or repr(raw), reason=reason)) from None
    return out


def _is_ours(name: str) -> Callable[[Path], bool]:
    return json_with_format(FORMAT) if name.endswith(".json") else has_magic(PNG_MAGIC)


def _what(name: str) -> str:
    return "simulation report" if name.endswith(".json") else "report plot"


# --- names --------------------------------------------------------------------------------------


def bot_name(bot: str) -> str:
    """A bot by its level name ("Normal"; "Hard (0.3 s)" for hard@0.3), in the language in use."""
    from game.ai.registry import parse_bot

    try:
        base, budget = parse_bot(bot)
    except ValueError:
        return bot
    name = _(LEVEL_NAMES.get(base, base))
    return name if budget is None else _("{bot} ({seconds} s)").format(bot=name, seconds=f"{budget:g}")


def profile_name(profile: str | None) -> str | None:
    """A rules profile by its title ("Current rules"), in the language in use."""
    if profile is None:
        return None
    from game.content_words import content_name
    from game.rules import query

    titles = {name: title for name, title, _desc in query.profile_choices()}
    return content_name(titles[profile]) if profile in titles else profile


def army_name(army_id: str) -> str:
    """An army by its display name in the language in use (its id only if no content knows it)."""
    from game.content_words import content_name

    try:
        from game.data import library

        armies = library.active().content.armies
        if army_id in armies:
            return content_name(armies[army_id].name)
    except Exception:  # the player's folders cannot be read: the built-in content still names ours
        pass
    try:
        from game.data.content import default_content

        return content_name(default_content().armies[army_id].name)
    except Exception:
        return army_id


# --- the figures ----------------------------------------------------------------------------------


def _rate(wins: int, draws: int, games: int) -> dict[str, Any]:
    lo, hi = wilson(wins + 0.5 * draws, games)
    return {
        "games": games,
        "wins": wins,
        "losses": games - wins - draws,
        "draws": draws,
        "win_rate": round((wins + 0.5 * draws) / games, 4) if games else 0.0,
        "ci95": [round(lo, 4), round(hi, 4)],
    }


def _bot_record(results: Sequence[GameResult], bot: int) -> dict[str, Any]:
    wins = sum(1 for r in results if r.winner_bot == bot)
    draws = sum(1 for r in results if r.winner_bot is None)
    return _rate(wins, draws, len(results))


def _side_of(r: GameResult, bot: int) -> int:
    """The player (1 or 2) bot 1 (the first) or 2 (the second) played in game r."""
    return r.p1_side if bot == 1 else 3 - r.p1_side


def _magic(r: GameResult, bot: int) -> dict[str, int]:
    side = _side_of(r, bot)
    return {key: int(r.counts.get(f"player{side}_{key}", 0)) for _label, key in MAGIC}


def _margin(r: GameResult) -> int:
    """Victory points, the first bot's minus the second's."""
    return int(r.score[r.p1_side - 1]) - int(r.score[2 - r.p1_side])


def _stats(values: Sequence[float]) -> dict[str, float]:
    if not values:
        return {"mean": 0.0, "median": 0.0, "min": 0, "max": 0}
    return {
        "mean": round(statistics.fmean(values), 3),
        "median": statistics.median(values),
        "min": min(values),
        "max": max(values),
    }


def figures(results: Sequence[GameResult], p1: str, p2: str, profile: str | None = None) -> dict[str, Any]:
    """The report's JSON (everything but the English-only summary is computed here)."""
    from game import i18n

    results = sorted(results, key=lambda r: r.index)
    bots = {"first": p1, "second": p2}
    armies = sorted({a for r in results for a in r.armies})
    by_army = []
    for army in armies:
        row: dict[str, Any] = {"army": army, "army_name": army_name(army)}
        for which, bot in (("first", 1), ("second", 2)):
            rs = [r for r in results if r.armies[_side_of(r, bot) - 1] == army]
            row[which] = _bot_record(rs, bot)
        by_army.append(row)
    by_seat = []
    for side in (1, 2):
        row = {"seat": side, "seat_name": _("player {n}").format(n=side)}
        for which, bot in (("first", 1), ("second", 2)):
            row[which] = _bot_record([r for r in results if _side_of(r, bot) == side], bot)
        by_seat.append(row)
    per_game: list[dict[str, Any]] = [
        {
            "game": r.index,
            "seed": r.seed,
            "p1_side": r.p1_side,
            "armies": list(r.armies),
            "winner": r.winner_bot,
            "reason": r.reason,
            "score": list(r.score),
            "margin": _margin(r),
            "rounds": r.rounds,
            "actions": r.actions,
            "magic": {"first": _magic(r, 1), "second": _magic(r, 2)},
        }
        for r in results
    ]
    return {
        "format": FORMAT,
        "version": VERSION,
        "language": i18n.language(),
        "profile": profile,
        "profile_name": profile_name(profile),
        "bots": {k: {"id": v, "name": bot_name(v)} for k, v in bots.items()},
        "overall": {"first": _bot_record(results, 1), "second": _bot_record(results, 2)},
        "by_army": by_army,
        "by_seat": by_seat,
        "margins": _stats([g["margin"] for g in per_game]),
        "rounds": _stats([r.rounds for r in results]),
        "actions": _stats([r.actions for r in results]),
        "magic_mean": {
            which: {key: round(statistics.fmean(g["magic"][which][key] for g in per_game), 3) for _label, key in MAGIC}
            if per_game
            else {}
            for which in bots
        },
        "per_game": per_game,
    }


# --- the plots ----------------------------------------------------------------------------------------


@dataclass
class Plot:
    name: str
    figure: "Figure"


def font_file(lang: str, bold: bool = False) -> str:
    """The path of pygame-gui's Noto face, found without importing pygame-gui (that would
    start pygame, whose greeting would land in `--json` output)."""
    spec = importlib.util.find_spec("pygame_gui")
    if spec is None or not spec.submodule_search_locations:
        raise ValueError("pygame-gui is not installed: its Noto fonts draw the report's words")
    files = FONT_FILES.get(lang, FONT_FILES["en"])
    return str(Path(list(spec.submodule_search_locations)[0]) / "data" / files[bold])


def _style(lang: str) -> Any:  # matplotlib types the keys as literals
    """matplotlib settings: the language's Noto face, sizes readable at 900x600."""
    from matplotlib import font_manager

    path = font_file(lang)
    for bold in (False, True):
        font_manager.fontManager.addfont(font_file(lang, bold))
    family = font_manager.FontProperties(fname=path).get_name()
    return {
        "font.family": [family, "DejaVu Sans"],
        "font.size": 12,
        "axes.titlesize": 14,
        "axes.labelsize": 12,
        "xtick.labelsize": 11,
        "ytick.labelsize": 11,
        "legend.fontsize": 11,
        "figure.titlesize": 16,
        "axes.spines.top": False,
        "axes.spines.right": False,
        "axes.unicode_minus": False,  # Noto Sans KR / JP lack U+2212 in places: plain hyphen-minus
    }


def plots(report: dict[str, Any]) -> list[Plot]:
    """The four figures, not yet saved (tests read their texts)."""
    import matplotlib

    matplotlib.use("Agg", force=False)  # no display: the pictures are files
    from matplotlib import rc_context

    with rc_context(_style(report["language"])):
        return [
            Plot("win_rates.png", _win_rates(report)),
            Plot("vp_margins.png", _margins(report)),
            Plot("game_length.png", _length(report)),
            Plot("magic.png", _magic_plot(report)),
        ]


def rate_label(percent: float) -> str:
    """A win rate as the plot writes it: whole percents, but one decimal where rounding would
    show 0% or 100% for a rate that is neither (one game of 200 is 0.5%, not 0%)."""
    whole = f"{percent:.0f}%"
    if whole in ("0%", "100%") and percent not in (0.0, 100.0):
        return f"{percent:.1f}%"
    return whole


def _new_figure(ncols: int = 1):
    from matplotlib.figure import Figure

    fig = Figure(figsize=FIG_SIZE, dpi=DPI, layout="constrained")
    axes = fig.subplots(1, ncols, squeeze=False)[0]
    return fig, list(axes)


def _names(report: dict[str, Any]) -> tuple[str, str]:
    first, second = report["bots"]["first"]["name"], report["bots"]["second"]["name"]
    if first == second:  # the same level on both sides: tell them apart by order
        first = _("{bot} (first)").format(bot=first)
        second = _("{bot} (second)").format(bot=second)
    return first, second


def _subtitle(report: dict[str, Any]) -> str:
    n = report["overall"]["first"]["games"]
    rules = report.get("profile_name")
    if not rules:
        return _("{games} games, sides and armies alternated").format(games=n)
    return _("{games} games, {rules}, sides and armies alternated").format(games=n, rules=rules)


def _wrap(text: str, width: int = 22) -> str:
    """Long army names on two lines under their bars (no overlapping tick labels)."""
    import textwrap

    if " " not in text:  # Korean / Japanese names without spaces: leave them to the font size
        return text
    return "\n".join(textwrap.wrap(text, width)) or text


def _win_rates(report: dict[str, Any]):
    fig, (by_army, by_seat) = _new_figure(2)
    names = _names(report)
    for ax, rows, label_key, title in (
        (by_army, report["by_army"], "army_name", _("By army played")),
        (by_seat, report["by_seat"], "seat_name", _("By seat")),
    ):
        width = 0.38
        for k, which in enumerate(("first", "second")):
            xs = [i + (k - 0.5) * width for i in range(len(rows))]
            rates = [row[which]["win_rate"] * 100 for row in rows]
            lows = [max(0.0, r - row[which]["ci95"][0] * 100) for r, row in zip(rates, rows)]
            highs = [max(0.0, row[which]["ci95"][1] * 100 - r) for r, row in zip(rates, rows)]
            ax.bar(xs, rates, width * 0.92, color=COLOURS[k], label=names[k], zorder=2)
            ax.errorbar(xs, rates, yerr=[lows, highs], fmt="none", ecolor="#222222", capsize=5, lw=1.4, zorder=3)
            for x, r, row in zip(xs, rates, rows):  # above the interval, where a 0% bar still shows it
                ax.text(
                    x,
                    row[which]["ci95"][1] * 100 + 1.5,
                    f"{rate_label(r)}\nn={row[which]['games']}",
                    ha="center",
                    va="bottom",
                    fontsize=10,
                    color="#222222",
                    zorder=4,
                    bbox={"facecolor": "white", "edgecolor": "none", "pad": 1, "alpha": 0.85},  # over the 50% line
                )
        ax.axhline(50, color="#555555", ls="--", lw=1.2, zorder=1)
        ax.set_xticks(range(len(rows)), [_wrap(row[label_key]) for row in rows])
        ax.set_ylim(0, 118)
        ax.set_yticks(range(0, 101, 25), [f"{v}%" for v in range(0, 101, 25)])
        ax.set_title(title)
        ax.grid(axis="y", alpha=0.3, zorder=0)
    by_army.set_ylabel(_("win rate (draws count half)"))
    handles, labels = by_army.get_legend_handles_labels()
    from matplotlib.lines import Line2D

    handles.append(Line2D([], [], color="#222222", lw=1.4, marker="|", markersize=10))
    labels.append(_("95% interval (Wilson)"))
    handles.append(Line2D([], [], color="#555555", ls="--", lw=1.2))
    labels.append(_("even (50%)"))
    fig.legend(handles, labels, loc="outside lower center", ncols=4, frameon=False)
    fig.suptitle(_("Win rate of each bot") + "\n" + _subtitle(report), fontsize=15)
    return fig


def _margins(report: dict[str, Any]):
    fig, (ax,) = _new_figure()
    first, second = _names(report)
    margins = [g["margin"] for g in report["per_game"]]
    lo, hi = (min(margins), max(margins)) if margins else (0, 0)
    lo, hi = min(lo, -1), max(hi, 1)
    step = max(1, (hi - lo + 1) // 30)  # at most about 30 bars
    bins = [b - 0.5 for b in range(lo, hi + step + 1, step)]
    groups = [  # each colour only where it has games (an empty one would crowd the legend)
        (g, c, label)
        for g, c, label in (
            ([m for m in margins if m > 0], COLOURS[0], _("{bot} ahead").format(bot=first)),
            ([m for m in margins if m == 0], "#999999", _("equal points")),
            ([m for m in margins if m < 0], COLOURS[1], _("{bot} ahead").format(bot=second)),
        )
        if g
    ]
    if groups:
        ax.hist(
            [g for g, _c, _l in groups],
            bins=bins,
            stacked=True,
            color=[c for _g, c, _l in groups],
            edgecolor="white",
            label=[label for _g, _c, label in groups],
            zorder=2,
        )
    mean = report["margins"]["mean"]
    ax.axvline(0, color="#333333", lw=1.2, zorder=3)
    ax.axvline(mean, color="#CC0000", ls="--", lw=1.6, zorder=3, label=_("mean {value}").format(value=f"{mean:+.1f}"))
    ax.set_xlabel(_("victory points: {first} minus {second}").format(first=first, second=second))
    ax.set_ylabel(_("games"))
    ax.yaxis.get_major_locator().set_params(integer=True)
    ax.grid(axis="y", alpha=0.3, zorder=0)
    ax.legend(frameon=False, loc="best")
    ax.set_title(_("Victory-point margins") + "\n" + _subtitle(report))
    return fig


def _length(report: dict[str, Any]):
    fig, (rounds_ax, actions_ax) = _new_figure(2)
    games = report["per_game"]
    rounds = [g["rounds"] for g in games]
    top = max(rounds, default=1)
    counts = [rounds.count(n) for n in range(1, top + 1)]
    rounds_ax.bar(range(1, top + 1), counts, 0.7, color=NEUTRAL, zorder=2)
    for n, c in zip(range(1, top + 1), counts):
        if c:
            rounds_ax.text(n, c, str(c), ha="center", va="bottom", fontsize=11)
    rounds_ax.set_xticks(range(1, top + 1))
    rounds_ax.set_xlabel(_("battle rounds played"))
    rounds_ax.set_ylabel(_("games"))
    rounds_ax.set_ylim(0, max(counts, default=1) * 1.15 + 0.5)
    rounds_ax.set_title(_("Rounds"))
    actions = [g["actions"] for g in games]
    actions_ax.hist(actions, bins=min(15, max(1, len(set(actions)))), color=NEUTRAL, edgecolor="white", zorder=2)
    mean = report["actions"]["mean"]
    actions_ax.axvline(mean, color="#CC0000", ls="--", lw=1.6, label=_("mean {value}").format(value=f"{mean:.0f}"))
    actions_ax.set_xlabel(_("actions (decisions) per game"))
    actions_ax.set_ylabel(_("games"))
    actions_ax.set_title(_("Actions"))
    actions_ax.set_ylim(0, actions_ax.get_ylim()[1] * 1.15)  # headroom: the legend clear of the bars
    actions_ax.legend(frameon=False, loc="upper right")
    for ax in (rounds_ax, actions_ax):
        ax.yaxis.get_major_locator().set_params(integer=True)
        ax.grid(axis="y", alpha=0.3, zorder=0)
    fig.suptitle(_("Game length") + "\n" + _subtitle(report), fontsize=15)
    return fig


def _magic_plot(report: dict[str, Any]):
    fig, (ax,) = _new_figure()
    names = _names(report)
    games = report["per_game"]
    shown = [
        (label, key)
        for label, key in MAGIC
        if key in MAGIC_ALWAYS or any(g["magic"][w][key] for g in games for w in ("first", "second"))
    ]
    width = 0.36
    for k, which in enumerate(("first", "second")):
        data = [[g["magic"][which][key] for g in games] for _label, key in shown]
        xs = [i + (k - 0.5) * width * 1.1 for i in range(len(shown))]
        box = ax.boxplot(
            data,
            positions=xs,
            widths=width,
            patch_artist=True,
            showmeans=True,
            meanprops={"marker": "D", "markerfacecolor": "white", "markeredgecolor": "black", "markersize": 6},
            medianprops={"color": "black", "lw": 1.6},
            flierprops={"marker": "o", "markersize": 4, "markerfacecolor": COLOURS[k], "alpha": 0.6},
            manage_ticks=False,
        )
        for patch in box["boxes"]:
            patch.set_facecolor(COLOURS[k])
            patch.set_alpha(0.85)
        box["boxes"][0].set_label(names[k])
        for x, values in zip(xs, data):
            mean = statistics.fmean(values) if values else 0.0
            ax.text(
                x,
                -0.015,
                f"{mean:.1f}",
                transform=ax.get_xaxis_transform(),
                ha="center",
                va="top",
                fontsize=10,
                color=COLOURS[k],
                fontweight="bold",
                clip_on=False,
            )
    ax.set_xticks(range(len(shown)), [_(label) for label, _key in shown])
    ax.tick_params(axis="x", length=0, pad=22)  # room for the means printed under the boxes
    ax.set_ylabel(_("times per game, by the bot that did it"))
    ax.yaxis.get_major_locator().set_params(integer=True)
    ax.set_ylim(bottom=-0.5)
    ax.grid(axis="y", alpha=0.3, zorder=0)
    from matplotlib.lines import Line2D

    handles, labels = ax.get_legend_handles_labels()
    handles.append(Line2D([], [], ls="none", marker="D", markerfacecolor="white", markeredgecolor="black"))
    labels.append(_("mean (also the number under each box)"))
    fig.legend(handles, labels, loc="outside lower center", ncols=3, frameon=False)  # clear of the boxes
    ax.set_title(_("Magic per game") + "\n" + _subtitle(report))
    return fig


def _png(fig) -> bytes:
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    FigureCanvasAgg(fig)
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=DPI)
    return buf.getvalue()


# --- writing ------------------------------------------------------------------------------------------


def write_report(
    results: Sequence[GameResult],
    p1: str,
    p2: str,
    out_dir: str | os.PathLike[str],
    *,
    summary: dict[str, Any],
    profile: str | None = None,
    force: bool = False,
) -> list[Path]:
    """Write report.json (with `summary`, game.sim.summary of the same results) and the PNG
    plots into `out_dir` (created if missing); the paths written. Raises ValueError naming the
    folder or the file."""
    out = prepare(out_dir, force=force)
    report = figures(results, p1, p2, profile)
    data = {"format": FORMAT, **report, "summary": summary}
    blobs = [(JSON_NAME, (json.dumps(data, indent=1, ensure_ascii=False) + "\n").encode("utf-8"))]
    blobs += [(p.name, _png(p.figure)) for p in plots(report)]
    written = []
    for name, blob in blobs:
        try:
            written.append(write_file_atomic(out / name, blob, force=force, is_ours=_is_ours(name), what=_what(name)))
        except OutputError as exc:
            raise ValueError(_("--report {dir}: {reason}").format(dir=os.fspath(out_dir), reason=str(exc))) from None
    return written
