"""Shared builders for the UI tests."""

from __future__ import annotations

import math

from game.rules import ScriptedDice
from game.ui.controllers import HumanController
from game.ui.scenes.battle import BattleScene
from game.ui.session import Session


def hotseat(app, session: Session, seen: int | None = None) -> BattleScene:
    scene = BattleScene(app, session, {1: HumanController(1), 2: HumanController(2)})
    scene.seen_player = session.decision.player if seen is None else seen
    app.push(scene)
    return scene


def scripted_session(script, **kw) -> Session:
    return Session.new(dice=ScriptedDice(list(script)), **kw)


def screen_pos(scene, x: float, y: float) -> tuple[int, int]:
    sx, sy = scene.camera.to_screen(x, y)
    return int(round(sx + scene.field_rect.x)), int(round(sy + scene.field_rect.y))


def free_spot(state, r: float, xs, y: float, skip=()) -> tuple[float, float]:
    """The first (x, y) whose base of radius r overlaps no other base."""
    for x in xs:
        ok = True
        for uid, u in state.units.items():
            if uid in skip:
                continue
            ur = state.game.warscroll(u.warscroll).base.radius_in
            for _, m in u.live_models():
                if math.hypot(m.x - x, m.y - y) < r + ur + 0.05:
                    ok = False
        if ok:
            return x, y
    raise AssertionError("no free spot")


def button_for(scene, pred):
    for b in scene.view.buttons:
        act = b.intent.get("action")
        if pred(b, act):
            return b
    raise AssertionError(f"no such button in {[b.label for b in scene.view.buttons]}")


def to_hero_phase(app, scene, limit: int = 20) -> None:
    """Drive intents until the first player's hero phase: deploy, roll off, go first, start of turn."""
    from game.ui.intents import intent

    for _ in range(limit):
        st, d = scene.state, scene.decision
        if st.stage == "battle" and st.phase == "hero" and not scene.needs_handover():
            return
        if scene.needs_handover():
            scene.handle(intent("continue"))
        elif d.kind == "turn_order":
            scene.handle(intent("choose", action=next(o for o in d.options if o.first == d.player)))
        else:
            scene.handle(intent("end_phase"))
        for _ in range(2):
            app.frame(1 / 60)
    raise AssertionError("never reached the hero phase")
