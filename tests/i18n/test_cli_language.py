"""Issue 22, domain "cli": the command line speaks the language of SPELLFIELD_LANG or the locale;
JSON stays English."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from i18n_rulewords import english_words

from game import cli, i18n

ROOT = Path(__file__).resolve().parents[2]
LOCALE_VARS = ("SPELLFIELD_LANG", "LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG")


@pytest.fixture
def env(monkeypatch):
    for var in LOCALE_VARS:
        monkeypatch.delenv(var, raising=False)
    yield monkeypatch
    i18n.set_language("en")


def _has_kana(text: str) -> bool:
    return any("\u3040" <= ch <= "\u30ff" or "\u4e00" <= ch <= "\u9fff" for ch in text)


def test_demo_list_in_japanese(env, capsys):
    env.setenv("LANG", "ja_JP.UTF-8")
    assert cli.main(["demo", "--list"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) >= 30
    for line in lines:
        name, _rules_and_title = line.split(" ", 1)
        title = line[58:]  # name (34) + rules (22) + two spaces
        assert _has_kana(title) and not english_words(title), line


def test_check_maps_in_japanese(env, capsys):
    env.setenv("LANG", "ja_JP.UTF-8")
    files = [str(p.relative_to(ROOT)) for p in sorted((ROOT / "maps").glob("*.toml"))]
    assert cli.main(["check", *files]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out == [f"問題なし {f}" for f in files]


def test_spellfield_lang_wins_over_the_locale(env, capsys):
    env.setenv("LANG", "ja_JP.UTF-8")
    env.setenv("SPELLFIELD_LANG", "ko")
    assert cli.main(["check", "maps/drowned_fen.toml"]) == 0
    assert capsys.readouterr().out.startswith("정상 ")


def test_unknown_spellfield_lang_falls_back_to_the_locale(env, capsys):
    env.setenv("SPELLFIELD_LANG", "xx")
    env.setenv("LANG", "ko_KR.UTF-8")
    assert cli.start_language() == "ko"


def test_english_by_default(env, capsys):
    assert cli.main(["check", "maps/drowned_fen.toml"]) == 0
    assert capsys.readouterr().out == "OK maps/drowned_fen.toml\n"


@pytest.mark.parametrize("code", ["ko_KR.UTF-8", "ja_JP.UTF-8"])
def test_simulate_table_words_translated_json_english(env, capsys, code):
    env.setenv("LANG", code)
    assert cli.main(["simulate", "--games", "1"]) == 0
    table = capsys.readouterr().out
    left = [w for w in english_words(table) if w != "random"]  # the bot's name is an option value
    assert not left, left
    assert cli.main(["simulate", "--games", "1", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert "p1_win_rate" in data and data["p1_by_army"]  # keys and army ids stay English


def test_demo_run_in_korean_prints_korean(env, capsys):
    env.setenv("SPELLFIELD_LANG", "ko")
    assert cli.main(["demo", "m6_unbind_beats"]) == 0
    out = capsys.readouterr().out
    assert "[배치]" in out and "정상: 엔진 결과가 시연과 일치합니다" in out
    for line in out.splitlines():
        assert not english_words(line), line


def test_bad_value_error_in_japanese(env, capsys):
    env.setenv("SPELLFIELD_LANG", "ja")
    assert cli.main(["simulate", "--games", "0"]) == 2
    err = capsys.readouterr().err
    assert "範囲外" in err


@pytest.mark.parametrize(
    "lang, words, said",
    [
        ("ja", ["demo", "no_such_demo"], "'no_such_demo' という実演はありません。既知の実演: e1_aos3_untouchable"),
        ("ko", ["play", "--map", "no_such_map", "--headless", "--frames", "1"], "알 수 없는 지도입니다: 'no_such_map'. 내장 지도: ashfall_crossing"),
        ("en", ["demo", "no_such_demo"], "no demonstration named 'no_such_demo'; known: e1_aos3_untouchable"),
    ],
)
def test_a_name_that_is_not_there_is_refused_in_the_players_language(env, capsys, lang, words, said):
    # bad input gets a clear message in the language in use, naming what was asked for (the
    # name stays as typed; the shipped names stay ids, as `demo --list` and `check` print them)
    env.setenv("SPELLFIELD_LANG", lang)
    assert cli.main(words) == 2
    err = capsys.readouterr().err
    assert said in err and "Traceback" not in err
