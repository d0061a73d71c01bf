"""The recap after a hand-over or an AI turn (issue 20): a few short lines, in display names,
of what the other side did (game.ui.recap), on the hotseat hand-over screen and in a box after
the AI's turn until the player clicks or acts."""

from __future__ import annotations

from game.ai.random_bot import RandomBot
from game.rules import DamageDealt, Game, ManifestationMoved, ModelSlain, UnbindAttempted, UnitDestroyed
from game.ui.controllers import HumanController
from game.ui.intents import intent
from game.ui.recap import MAX_LINES, recap
from game.ui.scenes.battle import BattleScene
from tests.ui.conftest import frames
from tests.ui.test_no_internal_ids import leaks
from tests.ui.test_ui_hotseat import SCRIPT
from tests.ui.uihelpers import button_for, free_spot, hotseat, scripted_session


def _state():
    return Game.load().new_state(seed=1)


def _spell(state) -> str:
    return next(k for k, a in state.game.content.abilities.items() if a.name)


def test_the_recap_names_the_other_sides_notable_events_in_display_names():
    st = _state()
    c = st.game.content
    spell = _spell(st)
    scroll = next(iter(c.manifestations))
    mine, theirs = "p1u0", "p2u1"
    events = [
        UnbindAttempted(
            unit=theirs, model=0, caster=mine, spell=spell, roll=12, casting_roll=7, unbound=True, distance=10.0
        ),
        ManifestationMoved(
            manifestation="m9",
            scroll=scroll,
            player=2,
            path=((1.0, 1.0), (10.0, 1.0)),
            target=(10.0, 1.0),
            distance=9.0,
            reach=9.0,
            passed_across=(mine,),
            controlled=True,
        ),
        DamageDealt(unit=mine, amount=2, mortal=True, source=scroll),
        ModelSlain(unit=mine, model=0),
        UnitDestroyed(unit=mine),
    ]
    lines = recap(st, events)
    name, sp, ms = st.units[mine].name, c.abilities[spell].name, c.manifestations[scroll].name
    assert lines[0] == f"{st.units[theirs].name} tries to unbind {sp}: 12 vs 7: unbound"
    assert lines[1] == f"{ms} moved 9\" across {name}: 2 mortal damage; {name} is destroyed"
    assert len(lines) == 2
    assert not [w for line in lines for w in leaks(st, line)]


def test_the_recap_keeps_the_most_telling_lines_and_counts_the_rest():
    st = _state()
    # many units destroyed among routine charges: the destroyed ones are kept, in order
    from game.rules import UnitMoved

    events = []
    for k in range(3):
        events.append(UnitMoved(unit=f"p2u{k}", kind="charge", to=((1.0, 1.0),), distance=5.0))
    for k in range(3):
        events.append(UnitDestroyed(unit=f"p1u{k}"))
    lines = recap(st, events)
    assert len(lines) == MAX_LINES + 1 and lines[-1] == "...and 2 more in the event log"
    assert [ln for ln in lines if ln.endswith("is destroyed")] == [
        f"{st.units[f'p1u{k}'].name} is destroyed" for k in range(3)
    ]
    assert recap(st, []) == []


def test_after_a_hand_over_the_recap_says_what_the_other_player_did(app):
    session = scripted_session(SCRIPT)
    st = session.state
    oracle = st.units["p2u0"]
    r = st.game.warscroll(oracle.warscroll).base.radius_in
    oracle.models[0].x, oracle.models[0].y = free_spot(st, r, [25, 23, 27, 21, 29, 19, 31], 33.0, skip=("p2u0",))
    scene = hotseat(app, session)
    frames(app)
    scene.handle(intent("end_phase"))  # deployment: player 1, then player 2
    frames(app)
    scene.handle(intent("continue"))
    scene.handle(intent("end_phase"))
    frames(app)
    scene.handle(intent("continue"))
    frames(app)
    scene.handle(button_for(scene, lambda b, a: a is not None and a.type == "ChooseTurnOrder" and a.first == 1).intent)
    frames(app)
    scene.handle(intent("end_phase"))
    frames(app)
    scene.handle(button_for(scene, lambda b, a: b.label == "Pyre-Magister").intent)
    frames(app)
    scene.handle(
        button_for(scene, lambda b, a: a is not None and a.type == "CastSpell" and a.spell == "heat_haze").intent
    )
    frames(app)
    assert scene.needs_handover() and scene.decision.kind == "unbind"
    scene.handle(intent("continue"))
    frames(app)
    scene.handle(button_for(scene, lambda b, a: a is not None and a.type == "Unbind").intent)
    frames(app)
    # back to player 1: the hand-over screen says what player 2 did with the device
    assert scene.needs_handover() and scene.decision.player == 1
    lines = scene.handover_recap()
    assert any(line.startswith("Heat Haze takes effect") for line in lines), lines
    frames(app)  # drawn on the hand-over screen
    scene.handle(intent("continue"))
    assert scene.handover_recap() == []  # the next recap starts from here


class _SyncBot:
    """A bot controller that answers at once on the main thread (no thinking thread, no timing)."""

    kind = "bot"

    def __init__(self, player: int, seed: int) -> None:
        self.player, self.bot, self.explanation = player, RandomBot(player, seed), ""
        self._session = None

    def begin(self, session) -> None:
        self._session = session

    def poll(self):
        return self.bot.choose(self._session.state)

    def thinking(self) -> bool:
        return False

    def cancel(self) -> None:
        pass


def test_after_the_ai_turn_a_recap_box_shows_until_the_player_acts(app):
    from game.ui.session import Session

    session = Session.new(seed=4)
    scene = BattleScene(app, session, {1: HumanController(1), 2: _SyncBot(2, 4)})
    scene.seen_player = 1
    app.push(scene)
    person = RandomBot(1, 9)
    for _ in range(3000):  # decisions, not time: each frame either the AI or the person acts
        frames(app, 1)
        if scene.recap_box is not None or scene.state.is_over():
            break
        if scene.human_to_act() is not None:
            scene.handle(intent("choose", action=person.choose(scene.state)))
    assert scene.recap_box is not None, "no AI turn was recapped"
    title, lines = scene.recap_box
    assert title.startswith("Player 2 (AI)") and 1 <= len(lines) <= MAX_LINES + 1
    assert not [w for line in lines for w in leaks(scene.state, line)]
    frames(app)
    assert scene.recap_rect is not None and scene.field_rect.contains(scene.recap_rect)
    scene.handle(intent("press", pos=scene.recap_rect.center, button=1))  # a click closes it
    assert scene.recap_box is None
    frames(app, 3)
    assert scene.recap_box is None  # the same turn is not recapped twice
