"""A whole hotseat turn in Korean and in Japanese (issue 22), under the dummy driver: the hero
phase with casts, their rolls and the other player's unbind decision (M6), movement, shooting,
a charge (R4), combat, the end of the turn and the hand-over screen. At every step no English word
is left on screen: the header, the panel's title, lines and buttons, the status hint and message,
the log, the dice tray, the acting unit's card and the hand-over's title and recap. And no text
is cut off: pygame-gui's "Label Rect is too small" warning fails the test.

Allowed: rule IDs (M6, R4), dice (2D6), keys (Enter, Esc), keywords the seeds keep in capitals
(WIZARD, PRIEST, HERO) and words of two letters (P1, A3). Content names are NOT allowed in
English: they must come in their translated form. The turn is played by the normal bot through
the scene's own intents, after both players' first turn (so that the armies are close)."""

from __future__ import annotations

import os
import re

os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ["SDL_AUDIODRIVER"] = "dummy"
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

import pytest  # noqa: E402

from game import i18n  # noqa: E402

SEED = 1  # its turn has casts, an unbind, a summoning, shooting, a charge and a fight
WORD = re.compile(r"[A-Za-z]{3,}")
KEEP = {"WIZARD", "WIZARDs", "PRIEST", "PRIESTs", "HERO", "FLY", "UNLIMITED", "Enter", "Esc", "Space", "WASD"}
KEEP |= {"PgDn", "PgUp", "Tab", "Shift", "Ctrl", "Spellfield"}


@pytest.fixture
def app(tmp_path, monkeypatch):
    monkeypatch.setenv("SPELLFIELD_HOME", str(tmp_path / "home"))
    from game.ui.app import App, init_pygame
    from game.ui.controls import declare

    monkeypatch.setattr(declare, "enabled", lambda: False)  # a cast rolls at once: the bot's choice
    init_pygame(True)
    a = App((1280, 800), headless=True)
    yield a
    while a.scenes:
        a.pop()
    i18n.set_language("en")


def _on_screen(scene) -> list[str]:
    from game.ui import cards, widgets
    from game.ui.render import hud

    st, v = scene.state, scene.view
    out = list(hud._phase_texts(st)) + [v.title] + list(v.lines)
    for b in v.buttons + ([v.back] if v.back else []):
        out += [b.label, b.odds]
    out += [scene.hint[0] if scene.hint else "", scene.message]
    out += [el.text for el in widgets.INTENTS if el.alive() and getattr(el, "text", None)]
    out += [text for text, _rule in (scene._log_lines or [])[-15:]]  # the log's last lines
    out += [e.text for e in (scene._tray or [])]  # the dice tray
    uid = (scene.decision.data or {}).get("unit")
    if uid in st.units:
        out += cards.unit_card(st, uid).text().splitlines()
    return out


def _english(texts) -> list[tuple[str, str]]:
    return [(w, t) for t in texts for w in WORD.findall(t or "") if w not in KEEP]


# pygame-gui warns when a label's text is larger than its rect: a text cut off on screen
@pytest.mark.filterwarnings("error:Label Rect is too small:UserWarning")
@pytest.mark.parametrize("lang", ["ko", "ja"])
def test_m6_r4_a_whole_hotseat_turn_has_no_english_words(app, lang):
    from game.ai.normal import NormalBot
    from game.rules import SeededDice
    from game.ui.intents import intent
    from game.ui.session import Session
    from tests.ui.uihelpers import hotseat

    i18n.set_language(lang)
    session = Session.new(seed=SEED, dice=SeededDice(SEED))
    bots = {1: NormalBot(1, SEED), 2: NormalBot(2, SEED)}
    st = session.state
    while not (st.stage == "battle" and st.round >= 2 and st.phase == "start_of_turn"):
        session.apply(bots[session.decision.player].choose(st))
    scene = hotseat(app, session)
    first = st.active
    done: set[str] = set()
    bad: list[tuple[str, str]] = []
    for _step in range(400):
        app.frame(1 / 60)
        app.frame(1 / 60)
        st, d = scene.state, scene.decision
        bad += _english(_on_screen(scene))
        if scene.needs_handover():
            done.add(f"handover:{d.kind}")
            bad += _english([scene.handover_title(), *scene.handover_recap()])
            scene.handle(intent("continue"))
            if st.active != first:
                break  # the hand-over to the other player's turn
            continue
        action = bots[d.player].choose(st)
        done.add(f"{d.kind}:{action.type}")
        done.add(f"phase:{st.phase}")
        scene.handle(intent("choose", action=action))
    else:
        raise AssertionError("the turn did not end")
    for step in (
        "phase:CastSpell",
        "handover:unbind",
        "phase:MoveUnit",
        "phase:Shoot",
        "phase:Charge",
        "charge_move:MoveUnit",
        "fight:Fight",
        "phase:end_of_turn",
        "handover:phase",
    ):
        assert step in done, (step, sorted(done))
    assert any(k.startswith("unbind:") for k in done)
    assert not bad, sorted(set(bad))[:15]
