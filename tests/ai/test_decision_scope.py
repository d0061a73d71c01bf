"""The answers one decision's scorers share (`knowledge.decision_scope`, issue 25): the same
answers as asked afresh, for the scoped state object only, only while the scope lasts, and
only in its own thread."""

from __future__ import annotations

import threading

from game.ai import knowledge as K
from tests.helpers import battle

SPEARS, WARDENS = "emberward_spears", "mire_wardens"


def _board():
    return battle({"a": (1, SPEARS, [(10, 10), (11.5, 10)]), "b": (2, WARDENS, [(10, 14), (11.5, 14)])}, phase="hero")


def test_inside_the_scope_the_answers_are_those_asked_afresh():
    s = _board()
    fresh = (K.attack_output(s, "a", "b", "combat"), K.threat_to(s, "a", 2))
    with s.query(), K.decision_scope(s):
        first = (K.attack_output(s, "a", "b", "combat"), K.threat_to(s, "a", 2))
        again = (K.attack_output(s, "a", "b", "combat"), K.threat_to(s, "a", 2))
    assert first == again == fresh


def test_a_clone_changed_inside_the_scope_is_never_answered_from_it():
    s = _board()
    with s.query(), K.decision_scope(s):
        whole = K.attack_output(s, "a", "b", "combat")
        twin = s.clone()
        twin.units["a"].models[1].slain = True  # half the attackers gone on the clone
        assert K.attack_output(twin, "a", "b", "combat") < whole
        assert K.attack_output(s, "a", "b", "combat") == whole


def test_after_the_scope_a_changed_state_is_asked_afresh():
    s = _board()
    with s.query(), K.decision_scope(s):
        whole = K.attack_output(s, "a", "b", "combat")
    s.units["a"].models[1].slain = True
    with s.query(), K.decision_scope(s):
        assert K.attack_output(s, "a", "b", "combat") < whole


def test_a_scope_serves_its_own_thread_only():
    s = _board()
    seen: list[float] = []
    with s.query(), K.decision_scope(s):
        whole = K.attack_output(s, "a", "b", "combat")
        s.units["a"].models[1].slain = True  # (a scorer never does this: here it shows who answers)
        worker = threading.Thread(target=lambda: seen.append(K.attack_output(s, "a", "b", "combat")))
        worker.start()
        worker.join()
        assert K.attack_output(s, "a", "b", "combat") == whole  # this thread: from the scope
    assert seen and seen[0] < whole  # the other thread: worked out afresh
