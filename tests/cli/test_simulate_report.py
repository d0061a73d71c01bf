"""Issue 24: `spellfield simulate --report DIR` writes report.json and PNG plots a designer reads."""

from __future__ import annotations

import contextlib
import io
import json
import os
import subprocess
import sys
import warnings
from pathlib import Path

import pytest
from PIL import Image

from game import cli, i18n, sim_report
from game.sim import GameResult, wilson

ROOT = Path(__file__).resolve().parents[2]
GAMES = 6


@pytest.fixture(scope="module")
def sample(tmp_path_factory):
    """One real run: six random-bot games, --json on stdout and the report in a folder."""
    out = tmp_path_factory.mktemp("report") / "new" / "folder"  # created, parents too
    stdout, stderr = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(stdout), contextlib.redirect_stderr(stderr):
        code = cli.main(["simulate", "--games", str(GAMES), "--seed", "3", "--json", "--report", str(out)])
    assert code == 0, stderr.getvalue()
    return out, json.loads(stdout.getvalue()), stderr.getvalue()


def _report(folder: Path) -> dict:
    return json.loads((folder / "report.json").read_text(encoding="utf-8"))


def test_the_report_json_holds_the_summary_and_each_game(sample):
    out, summary, stderr = sample
    rep = _report(out)
    assert rep["format"] == "spellfield-sim-report" and rep["version"] == 1
    assert rep["summary"] == summary  # the summary itself, field for field
    assert str(out) in stderr and str(out) not in json.dumps(summary)  # where it went: stderr only
    games = rep["per_game"]
    assert [g["game"] for g in games] == [r["game"] for r in summary["results"]]
    for g, r in zip(games, summary["results"]):
        assert (g["seed"], g["p1_side"], g["winner"], g["score"], g["reason"]) == (
            r["seed"],
            r["p1_side"],
            r["winner"],
            r["score"],
            r["reason"],
        )
        mine, theirs = g["score"][g["p1_side"] - 1], g["score"][2 - g["p1_side"]]
        assert g["margin"] == mine - theirs  # the first bot's points minus the second's
        assert g["rounds"] >= 1 and g["actions"] > 0
    assert rep["rounds"]["mean"] == pytest.approx(summary["average_rounds"], abs=1e-3)
    assert rep["actions"]["mean"] == pytest.approx(summary["average_actions"], abs=0.06)
    # each bot's magic adds up to the game's totals (summary per_game: totals per game)
    per_game = summary["per_game"]
    for key, total in (
        ("spells_cast", "spells_cast"),
        ("spells_unbound", "spells_unbound"),
        ("miscasts", "miscasts"),
        ("summoned", "summoned"),
        ("banished", "removed_banished"),
        ("dispelled", "removed_dispelled"),
    ):
        both = sum(g["magic"]["first"][key] + g["magic"]["second"][key] for g in games)
        assert both / GAMES == pytest.approx(per_game.get(total, 0), abs=1e-3), key
    assert sum(g["magic"]["first"]["spells_cast"] for g in games) > 0


def test_the_win_rates_by_army_and_seat_have_wilson_intervals(sample):
    out, summary, _err = sample
    rep = _report(out)
    assert rep["bots"] == {"first": {"id": "random", "name": "Random"}, "second": {"id": "random", "name": "Random"}}
    for row in rep["by_seat"]:
        first = summary["p1_by_side"][f"player {row['seat']}"]
        assert {k: row["first"][k] for k in first} == first  # the summary's record, same numbers
    for row in rep["by_army"]:
        assert row["army_name"].startswith("The ")  # a display name, not the id
        first = summary["p1_by_army"][row["army"]]
        assert {k: row["first"][k] for k in first} == first
    for row in [*rep["by_army"], *rep["by_seat"], rep["overall"]]:
        for which in ("first", "second"):
            v = row[which] if which in row else row
            lo, hi = wilson(v["wins"] + 0.5 * v["draws"], v["games"])
            assert v["ci95"] == [round(lo, 4), round(hi, 4)]
    o = rep["overall"]
    assert o["first"]["wins"] == summary["p1_wins"] and o["second"]["wins"] == summary["p2_wins"]
    assert o["first"]["ci95"] == summary["p1_win_rate_ci95"]


def test_wilson_interval_by_hand():
    # 7 wins in 10: p = 0.7, z = 1.96: centre 0.89208 / 1.38416 = 0.64449,
    # half-width 1.96 * sqrt(0.021 + 0.009604) / 1.38416 = 0.24772 -> 0.3968 .. 0.8922
    assert sim_report._rate(7, 0, 10)["ci95"] == [0.3968, 0.8922]
    # no wins in 20: 0 .. z^2/(n + z^2) = 3.8416 / 23.8416 = 0.1611
    assert sim_report._rate(0, 0, 20)["ci95"] == [0.0, 0.1611]
    # draws count half: 6 wins and 2 draws of 10 is 7 of 10
    assert sim_report._rate(6, 2, 10) == {
        "games": 10,
        "wins": 6,
        "losses": 2,
        "draws": 2,
        "win_rate": 0.7,
        "ci95": [0.3968, 0.8922],
    }


def test_each_plot_is_a_900_by_600_png(sample):
    out, _summary, _err = sample
    for name in sim_report.PNG_NAMES:
        with Image.open(out / name) as im:
            assert im.format == "PNG" and im.size == (900, 600), name
    assert not [p for p in out.iterdir() if p.name.endswith(".tmp")]


def test_a_second_report_replaces_the_first(sample, tmp_path):
    out, _summary, _err = sample
    before = (out / "report.json").read_bytes()
    assert cli.main(["simulate", "--games", "1", "--report", str(out)]) == 0
    assert _report(out)["summary"]["games"] == 1 and (out / "report.json").read_bytes() != before


def _bad(capsys, folder: str, *more: str) -> str:
    assert cli.main(["simulate", "--games", "1", "--report", folder, *more]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""  # refused before any game was played or printed
    err = captured.err.strip()
    assert err.startswith("spellfield: error: --report ") and folder in err and "Traceback" not in err
    return err


def test_a_file_a_device_or_a_path_through_a_file_is_a_clear_error(tmp_path, capsys):
    f = tmp_path / "notes.txt"
    f.write_text("mine")
    assert "is a regular file, not a folder" in _bad(capsys, str(f))
    assert "not a folder" in _bad(capsys, str(f / "report"))
    if os.path.exists("/dev/null"):
        assert "is a character device, not a folder" in _bad(capsys, "/dev/null")
    assert f.read_text() == "mine"


def test_a_file_there_that_is_not_ours_is_kept_unless_force(tmp_path, capsys):
    (tmp_path / "report.json").write_text('{"my": "own"}')
    err = _bad(capsys, str(tmp_path))
    assert "report.json" in err and "--force" in err
    assert (tmp_path / "report.json").read_text() == '{"my": "own"}'
    assert not list(tmp_path.glob("*.png"))
    assert cli.main(["simulate", "--games", "1", "--report", str(tmp_path), "--force"]) == 0
    assert _report(tmp_path)["format"] == "spellfield-sim-report"


def _result(i: int, p1_side: int, winner: int | None, score: tuple[int, int]) -> GameResult:
    armies = ("emberward", "mirecourt") if (i // 2) % 2 == 0 else ("mirecourt", "emberward")
    counts = {"player1_spells_cast": 3 + i, "player2_spells_cast": 2, "player1_summoned": 1, "player2_banished": i % 2}
    return GameResult(i, i, p1_side, armies, winner, 5, "all 5 battle rounds played", score, 300 + i, counts)


@pytest.fixture
def korean():
    i18n.set_language("ko")
    yield
    i18n.set_language("en")


def _texts(fig) -> list:
    from matplotlib.text import Text

    return [t for t in fig.findobj(Text) if t.get_text().strip()]


def test_korean_plots_name_bots_and_armies_in_korean_in_noto_sans_kr(korean):
    from matplotlib import font_manager

    results = [_result(i, 1 if i % 2 == 0 else 2, [1, 2, None, 1][i % 4], (10 + i, 12)) for i in range(8)]
    rep = sim_report.figures(results, "normal", "random", "aos4")
    assert rep["language"] == "ko"
    assert rep["bots"]["first"]["name"] == "보통" and rep["bots"]["second"]["name"] == "무작위"
    assert {row["army_name"] for row in rep["by_army"]} == {"엠버워드 서약단", "미어코트 서클"}
    drawn = {p.name: _texts(p.figure) for p in sim_report.plots(rep)}
    words = " ".join(t.get_text() for texts in drawn.values() for t in texts)
    for korean_word in ("보통", "무작위", "엠버워드 서약단", "플레이어 1", "주문 시전", "소환", "봇별 승률", "승점 차"):
        assert korean_word in words, korean_word
    assert "emberward" not in words and "normal" not in words  # no ids
    for texts in drawn.values():
        for t in texts:
            assert Path(font_manager.findfont(t.get_fontproperties())).name.startswith("NotoSansKR"), t.get_text()
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # "Glyph ... missing from font(s)" would be a box
        for p in sim_report.plots(rep):
            assert sim_report._png(p.figure).startswith(sim_report.PNG_MAGIC)


def test_simulate_report_in_korean_from_the_command_line(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("SPELLFIELD_LANG", "ko")
    try:
        assert cli.main(["simulate", "--games", "1", "--p1", "normal", "--report", str(tmp_path)]) == 0
    finally:
        i18n.set_language("en")
    rep = _report(tmp_path)
    assert rep["language"] == "ko" and rep["bots"]["first"]["name"] == "보통"
    assert {row["seat_name"] for row in rep["by_seat"]} == {"플레이어 1", "플레이어 2"}
    assert str(tmp_path) in capsys.readouterr().err


def test_the_bots_are_named_as_the_menus_name_their_levels():
    from game.ai.registry import BOTS
    from game.ui.choices import LEVELS

    assert sim_report.LEVEL_NAMES == {c.id: c.name for c in LEVELS} and set(sim_report.LEVEL_NAMES) == set(BOTS)
    assert sim_report.bot_name("hard@0.3") == "Hard (0.3 s)"


def test_the_report_fonts_are_the_themes():
    from game.ui import theme

    assert sim_report.FONT_FILES["en"] == (theme.FONT_FILES[False], theme.FONT_FILES[True])
    for lang, files in theme.LANG_FONT_FILES.items():
        assert sim_report.FONT_FILES[lang] == (files[False], files[True])
        assert Path(sim_report.font_file(lang)).is_file()


def test_simulate_without_report_does_not_import_matplotlib():
    code = (
        "import sys; from game import cli; assert cli.main(['simulate', '--games', '1']) == 0; "
        "assert 'matplotlib' not in sys.modules and 'game.sim_report' not in sys.modules"
    )
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    done = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr


def test_a_rate_near_the_ends_shows_a_decimal_instead_of_rounding_to_0_or_100():
    from game.sim_report import rate_label

    assert rate_label(0.0) == "0%" and rate_label(100.0) == "100%"
    assert rate_label(0.5) == "0.5%" and rate_label(99.5) == "99.5%"
    assert rate_label(61.8) == "62%" and rate_label(0.4) == "0.4%"
