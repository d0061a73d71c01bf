"""The AI's reasons in the log name units and spells in the player's language too (issue 22):
a Reason keeps the bots' English names as fields; words() says them through content_name."""

from __future__ import annotations

import re

import pytest

from game import i18n
from game.ai.registry import make_bot
from game.rules import Game
from game.ui.labels import bot_note, note_words


@pytest.mark.parametrize("lang", ["ko", "ja"])
def test_the_ais_reasons_hold_no_english_word(lang):
    game = Game.load()
    state = game.new_state(seed=5)
    bots = {1: make_bot("normal", 1, 5), 2: make_bot("normal", 2, 6)}
    notes = []
    try:
        i18n.set_language(lang)
        for _ in range(80):
            if state.is_over():
                break
            d = state.pending()
            action = bots[d.player].choose(state)
            why = getattr(bots[d.player], "last_explanation", "")
            if why:
                notes.append(note_words(bot_note(d.player, why)))
            state.apply(action)
    finally:
        i18n.set_language("en")
    assert len(notes) > 20
    english = [n for n in notes if re.search(r"[A-Za-z]{4,}", re.sub(r"\b(WIZARD|PRIEST)\b", "", n))]
    assert not english, english[:3]
