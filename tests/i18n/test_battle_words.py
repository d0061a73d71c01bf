"""The battle screen in Korean and Japanese (issue 22): a hotseat battle driven through intents
under the dummy driver (deployment -> hero phase -> a caster -> a declared spell -> a unit's
card) shows no English words in the header, the panel's titles, lines, buttons and sub-lines,
the status hints, the footer and the cards.

Allowed: content names (units, spells, armies, terrain: the "rules" domain translates them),
rule IDs (M7, E5), dice (2D6), keys (Enter, Esc) and words of two letters (P1, A3). The option
labels of labels.describe belong to the "log" domain and engine messages to the "engine" domain:
this test replaces describe's labels with a neutral mark, so that it judges this domain only.
"""

from __future__ import annotations

import os
import re

os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ["SDL_AUDIODRIVER"] = "dummy"
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

import pytest  # noqa: E402

from game import i18n  # noqa: E402

KEYS = {"Enter", "Esc", "WASD", "PgDn", "PgUp", "Space", "Spellfield"}
WORD = re.compile(r"[A-Za-z]{3,}")


@pytest.fixture
def battle_app(tmp_path, monkeypatch):
    monkeypatch.setenv("SPELLFIELD_HOME", str(tmp_path / "home"))
    from game.ui import decisions, labels, panel
    from game.ui.app import App, init_pygame
    from game.ui.labels import OptionLabel

    # the log domain's option labels (labels.describe) are not this domain's: a neutral mark
    def neutral(state, action, decision=None):
        return OptionLabel("〈〉", "〈〉", "〈〉")

    monkeypatch.setattr(panel, "describe", neutral)
    monkeypatch.setattr(decisions, "describe", neutral)
    monkeypatch.setattr(labels, "describe", neutral)  # the undo button's label, by way of the scene
    import game.ui.scenes.battle as battle_scene

    monkeypatch.setattr(battle_scene, "event_line", lambda state, ev: "〈〉")  # the log's words (log domain)
    init_pygame(True)
    a = App((1280, 800), headless=True)
    yield a
    while a.scenes:
        a.pop()
    i18n.set_language("en")


def _names(state) -> set[str]:
    """Every English word of a content name the battle can show (units, abilities, armies...)."""
    g = state.game
    names = [u.name for u in state.units.values()]
    names += [a.name for a in g.content.abilities.values()]
    names += [m.name for m in g.content.manifestations.values()]
    names += [g.army(1).name, g.army(2).name]
    names += [t.name for t in g.battlefield.map.terrain] + [o.name or "" for o in g.battlefield.map.objectives]
    for ws in (g.warscroll(u.warscroll) for u in state.units.values()):
        names += [w.name for w in ws.weapons] + list(ws.keywords)
    return {w for n in names for w in WORD.findall(n)}


def english(texts, allowed: set[str]) -> list[tuple[str, str]]:
    out = []
    for t in texts:
        for w in WORD.findall(t or ""):
            if w not in allowed and w not in KEYS:
                out.append((w, t))
    return out


def _screen_texts(scene) -> list[str]:
    from game.ui import widgets
    from game.ui.render import hud

    st, v = scene.state, scene.view
    texts = list(hud._phase_texts(st)) + [v.title] + list(v.lines)
    for b in v.buttons + ([v.back] if v.back else []):
        texts += [b.label, b.odds]
    texts += [scene.hint[0] if scene.hint else "", scene.message]
    texts += [el.text for el in widgets.INTENTS if el.alive() and getattr(el, "text", None)]
    return texts


def _frames(app, n: int = 2) -> None:
    for _ in range(n):
        app.frame(1 / 60)


@pytest.mark.parametrize("lang", ["ko", "ja"])
def test_battle_screen_has_no_english_words(battle_app, lang, monkeypatch):
    from game.rules import SeededDice
    from game.ui import cards
    from game.ui.controls import declare
    from game.ui.intents import intent
    from game.ui.session import Session
    from tests.ui.uihelpers import hotseat, to_hero_phase

    app = battle_app
    i18n.set_language(lang)
    monkeypatch.setattr(declare, "enabled", lambda: True)  # declare, then roll: the footer's Confirm
    session = Session.new(seed=11, dice=SeededDice(11))
    scene = hotseat(app, session)
    _frames(app)
    allowed = _names(scene.state)
    seen: list[str] = []
    # deployment: the panel, the header, the drag hint; a unit's hover card
    st = scene.state
    uid = next(k for k, u in st.units.items() if u.player == scene.decision.player)
    scene.hover = uid
    _frames(app)
    seen += _screen_texts(scene) + cards.unit_card(st, uid).text().splitlines()
    # the hand-over screen between the players
    scene.handle(intent("end_phase"))
    _frames(app)
    if scene.needs_handover():
        seen += [scene.handover_title()] + list(scene.view.lines)
    to_hero_phase(app, scene)
    _frames(app)
    seen += _screen_texts(scene)
    # a caster, then its spells (and a model first when it has several)
    caster = next(b for b in scene.view.buttons if b.intent.kind == "select" and b.enabled)
    scene.handle(caster.intent)
    _frames(app)
    seen += _screen_texts(scene)
    models = [b for b in scene.view.buttons if b.intent.kind == "select" and b.intent.get("model") is not None]
    if models and not any(b.intent.get("ability") for b in models):
        scene.handle(models[0].intent)
        _frames(app)
        seen += _screen_texts(scene)
    choose = [b for b in scene.view.buttons if b.intent.kind == "choose" and b.enabled]
    pick = [b for b in scene.view.buttons if b.intent.kind == "select" and b.intent.get("ability") and b.enabled]
    if pick and not choose:
        scene.handle(pick[0].intent)
        _frames(app)
        seen += _screen_texts(scene)
        choose = [
            b for b in scene.view.buttons if b.intent.kind == "choose" and b.intent.get("action").type == "CastSpell"
        ]
    cast = next(b for b in choose if getattr(b.intent.get("action"), "type", "") in ("CastSpell", "ChantPrayer"))
    scene.handle(cast.intent)  # declared: the footer's Confirm and Cancel, the declared roll's words
    _frames(app)
    assert scene.declared is not None
    act = scene.declared
    seen += _screen_texts(scene) + [declare.declare_text(scene.state, act)]
    ability = getattr(act, "spell", None) or getattr(act, "prayer", None)
    seen += cards.ability_card(scene.state, ability, act.unit).text().splitlines()
    seen += cards.unit_card(scene.state, act.unit).text().splitlines()
    content_texts = {a.text for a in scene.state.game.content.abilities.values() if a.text}  # rules domain
    bad = english([s for s in seen if s not in content_texts], allowed)
    assert not bad, bad[:10]
    # and in English the same screen reads as before (the msgids are today's texts)
    i18n.set_language("en")
    _frames(app)
    assert scene.view.title.startswith("Player ")


def test_phase_words_are_shared_and_switch_with_the_language():
    from game.ui import phase_words as w

    try:
        assert (w.phase_title("hero"), w.phase_noun("hero"), w.phase_short("hero")) == (
            "Hero phase",
            "hero phase",
            "Hero",
        )
        assert w.phase_title("start_of_turn") == "Start of turn phase" and w.player(2) == "Player 2"
        assert w.player_turn(1) == "Player 1's turn" and w.player_short(1) == "P1"
        i18n.set_language("ko")
        assert w.phase_title("hero") == "영웅 단계" and w.player(1) == "플레이어 1"
        i18n.set_language("ja")
        assert w.phase_title("hero") == "ヒーローフェイズ" and w.player_turn(2) == "プレイヤー2のターン"
        assert w.phase_title("some_new_phase") == "Some new phase phase"  # an unknown phase still reads
    finally:
        i18n.set_language("en")


def test_english_battle_texts_are_unchanged():
    """The msgids are today's English: a few texts other tests compare, built through _()."""
    from game.ui.controls.move_words import KIND_WORD
    from game.ui.decisions import spent_words

    assert spent_words("once_per_turn", "M7", "") == "used this turn (M7)"
    assert spent_words(None, None, "x") == "not possible now"
    assert KIND_WORD["charge"] == "charge roll"


def test_m9_a_summon_that_failed_its_roll_reads_as_tried_not_summoned():
    """M9: the army's one attempt a turn at a manifestation counts whatever the casting roll; the
    other wizard's button says it was tried this turn, not that it was summoned (it was not)."""
    from game.rules import query
    from game.rules.actions import CastSpell
    from game.ui.decisions import spent_words
    from tests.helpers import P1_WIZ1, P1_WIZ2, P2_WARDENS, battle

    s = battle(
        {"w2": (1, P1_WIZ2, [(15, 15)]), "w1": (1, P1_WIZ1, [(15, 25)]), "enemy": (2, P2_WARDENS, [(50, 40)])},
        [1, 2],  # the Rolling Pyre's casting roll, 3: failed (no double 1: no miscast)
    )
    s.apply(CastSpell(player=1, unit="w2", spell="summon_rolling_pyre"))
    assert not s.manifestations
    why = query.ability_unavailable(s, "w1", "summon_rolling_pyre")
    assert (why.code, why.rule) == ("summoned_this_turn", "M9")
    assert spent_words(why.code, why.rule, str(why)) == "tried this turn (M9)"
    try:
        i18n.set_language("ja")
        assert spent_words(why.code, why.rule, str(why)) == "このターンに召喚を試みた（M9）"
        i18n.set_language("ko")
        assert spent_words(why.code, why.rule, str(why)) == "이번 턴에 소환을 시도함 (M9)"
    finally:
        i18n.set_language("en")
