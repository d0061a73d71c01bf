"""The log, the dice tray, the recap and the AI's explanations in Korean and Japanese (issue 22).

Whole bot games (the pattern of tests/ui/test_no_internal_ids.py): every event through the log's
and the tray's words, every turn's recap and every explanation the bots gave, in ko and ja. No
English word is left once the names that come in as fields (units, weapons, spells,
manifestations, objectives, terrain) are taken out; rule IDs and dice (2D6, D3) may stay. The
English lines are the same before and after a language switch.
"""

from __future__ import annotations

import re

import pytest

from game import i18n
from game.ai.reason import Reason, words
from game.ai.registry import make_bot
from game.rules import Game
from game.ui.labels import bot_note, event_line, note_words, tray_entries
from game.ui.recap import recap

GAMES = [("random", "aos4", 1), ("normal", "aos3", 2), ("normal", "aos4", 3)]
ENGLISH = re.compile(r"[A-Za-z]{3,}")
ALLOWED = re.compile(r"\b(?:[A-Z]\d+[a-z]?|\d*D\d+|P\d|AI|VP)\b")  # rule IDs (E4b), dice, P1, AI, VP


def names(state) -> list[str]:
    """Every name that reaches a line as a field, longest first (they are content, not ours)."""
    c, g = state.game.content, state.game
    out = {u.name for u in state.units.values()}
    out |= {a.name for a in c.abilities.values()} | {m.name for m in c.manifestations.values()}
    for ws in c.warscrolls.values():
        out.add(ws.name)
        out |= {w.name for w in ws.weapons}
    for m in c.manifestations.values():
        out |= {w.name for w in m.weapons}
    bf = g.battlefield.map
    out |= {o.name for o in bf.objectives} | {getattr(t, "name", "") for t in getattr(bf, "terrain", [])}
    return sorted((n for n in out if n), key=len, reverse=True)


def english_left(text: str, known: list[str]) -> list[str]:
    for name in known:
        text = text.replace(name, " ")
    text = ALLOWED.sub(" ", text)
    return ENGLISH.findall(text)


def play(bot: str, profile: str, seed: int):
    state = Game.load(profile=profile).new_state(seed=seed)
    bots = {1: make_bot(bot, 1, seed), 2: make_bot(bot, 2, seed + 1)}
    history, notes = [], []
    while not state.is_over():
        d = state.pending()
        action = bots[d.player].choose(state)
        note = getattr(bots[d.player], "last_explanation", "")
        if note:
            notes.append(bot_note(d.player, note))
        history += state.apply(action)
    return state, history, notes


def texts(state, history, notes) -> list[str]:
    """Everything this domain writes for a whole game, in the language in use."""
    out = [event_line(state, ev) for ev in history]
    for start in range(0, len(history), 150):  # the scene shows the last 200 events
        for e in tray_entries(state, history[start : start + 200]):
            out += [e.text, e.folded]
    starts = [i for i, e in enumerate(history) if e.type == "TurnStarted"] + [len(history)]
    for a, b in zip(starts, starts[1:]):
        out += recap(state, history[a:b])
    out += [note_words(n) for n in notes]
    return out


@pytest.fixture(scope="module", params=GAMES, ids=lambda g: "-".join(map(str, g)))
def game(request):
    i18n.set_language("en")
    state, history, notes = play(*request.param)
    return state, history, notes, texts(state, history, notes)


@pytest.mark.parametrize("lang", ["ko", "ja"])
def test_the_log_the_tray_the_recap_and_the_ai_speak_the_language(game, lang):
    state, history, notes, english = game
    try:
        i18n.set_language(lang)
        lines = texts(state, history, notes)
    finally:
        i18n.set_language("en")
    known = names(state)
    assert len(lines) == len(english)
    assert all(line.strip() for line in lines), "an empty line"
    bad = [(en, line, english_left(line, known)) for en, line in zip(english, lines) if english_left(line, known)]
    assert not bad, "\n".join(f"{en!r} -> {line!r}: {w}" for en, line, w in bad[:20])
    assert sum(a != b for a, b in zip(english, lines)) > len(lines) // 2  # translated, not just stripped


def test_the_english_lines_are_the_same_after_a_round_trip(game):
    state, history, notes, english = game
    try:
        i18n.set_language("ja")
        texts(state, history, notes)
    finally:
        i18n.set_language("en")
    assert texts(state, history, notes) == english


def test_an_explanation_is_english_text_and_a_template():
    # the bots' text is what it always was (a str); the template and fields say it in Korean
    r = Reason("{unit} shoots {target}: expected value {v:.1f}", unit="Forge Guard", target="Reed-Witch", v=2.25)
    assert r == "Forge Guard shoots Reed-Witch: expected value 2.2" and isinstance(r, str)
    joined = Reason.join(r, " [plan]")
    assert joined == r + " [plan]"
    try:
        i18n.set_language("ko")
        # the names too: the bots keep English names, words() says them in the language
        assert words(r) == "대장간 수비대이(가) 갈대 마녀 사격: 기대 가치 2.2"
        assert words(bot_note(2, r)).startswith("AI (플레이어 2): 대장간 수비대")
        assert words("plain text") == "plain text"
    finally:
        i18n.set_language("en")
    assert words(bot_note(2, r)) == "AI (player 2): Forge Guard shoots Reed-Witch: expected value 2.2"
