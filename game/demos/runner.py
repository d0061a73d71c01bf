"""Play a demonstration through the engine's ordinary `apply()` and check its expected outcome.

    result = run_demo(demo)          # DemoFile -> DemoRun: frames and problems
    result.frames[0]                 # the set-up; then one frame per step
    run_demo(demo, strict=True)      # raises DemoMismatch listing every problem

No code here knows any particular demonstration: a step is an Action dict, an optional expected
refusal, and expectations about the events and the state.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

from game.content_words import content_name
from game.data.models import BattleMap
from game.demos.geometry import Geometry, authored, derive
from game.demos.schema import DemoFile, Facts, StepExpect
from game.i18n import _
from game.rules import Action, DiceScriptError, Event, Game, IllegalActionError, ScriptedDice, State

TOL = 0.01  # inches (and any other float) when comparing expected values


class DemoMismatch(AssertionError):
    """The engine did not do what the demonstration says."""


@dataclass
class Frame:
    index: int  # 0: the set-up; k: after step k
    caption: str
    state: State
    action: Action | None = None
    events: list[Event] = field(default_factory=list)
    refused: str | None = None  # the engine's reason, for an expected refusal
    rules: list[str] = field(default_factory=list)
    geometry: Geometry = field(default_factory=Geometry)
    problems: list[str] = field(default_factory=list)


@dataclass
class DemoRun:
    demo: DemoFile
    frames: list[Frame]
    problems: list[str]

    @property
    def ok(self) -> bool:
        return not self.problems


def build_game(demo: DemoFile) -> Game:
    bf = demo.battlefield
    if bf.map:
        battlefield: Any = bf.map
    else:
        battlefield = BattleMap(
            id=f"demo_{demo.demo.id}",
            name=demo.demo.title[:60],
            width=bf.width,
            height=bf.height,
            terrain=list(bf.terrain),
            objectives=list(bf.objectives),
        )
    return Game.load(profile=demo.demo.profile, battlefield=battlefield, armies=demo.demo.armies)


def build_state(demo: DemoFile, game: Game | None = None) -> State:
    """The demonstration's position, built by the engine's position builder (no default
    deployment: the demo places everything). `load_demo` has checked the position already and
    named the file and field of any problem, so the builder's own check is not repeated."""
    from game.rules import ManifestationSpec, UnitSpec, build_position

    game = game or build_game(demo)
    script = [d if isinstance(d, int) else {"purpose": d.purpose, "dice": list(d.dice)} for d in demo.dice]
    units = [
        UnitSpec(
            u.id,
            u.player,
            u.warscroll,
            [tuple(p) for p in u.models],
            name=u.name,
            damage=u.damage,
            ritual_points=u.ritual_points,
        )
        for u in demo.unit
    ]
    manifestations = [
        ManifestationSpec(
            m.id,
            m.scroll,
            m.summoner,
            m.x,
            m.y,
            model=m.model,
            player=m.player,
            commander=m.commander,
            damage=m.damage,
            moves_made=m.moves_made,
        )
        for m in demo.manifestation
    ]
    st = demo.start
    return build_position(
        game,
        units,
        manifestations,
        phase=st.phase,
        active=st.active,
        first_player=st.first_player,
        round=st.round,
        dice=ScriptedDice(script),
        check=False,
    )


# --- checking ------------------------------------------------------------------------------


def _same(want: Any, got: Any) -> bool:
    if isinstance(want, bool) or isinstance(got, bool):
        return want == got
    if isinstance(want, (int, float)) and isinstance(got, (int, float)):
        return math.isclose(float(want), float(got), abs_tol=TOL)
    if isinstance(want, (list, tuple)) and isinstance(got, (list, tuple)):
        return len(want) == len(got) and all(_same(a, b) for a, b in zip(want, got))
    return want == got


def _event_matches(want: dict[str, Any], ev: Event) -> bool:
    if ev.type != want["type"]:
        return False
    return all(_same(v, getattr(ev, k, None)) for k, v in want.items() if k != "type")


def check_events(expect: StepExpect, events: list[Event], where: str) -> list[str]:
    out = []
    i = 0
    for j, want in enumerate(expect.events):
        k = i
        while k < len(events) and not _event_matches(want, events[k]):
            k += 1
        if k == len(events):
            same = [e.to_dict() for e in events if e.type == want["type"]]
            seen = "; ".join(str({a: b for a, b in d.items() if a != "type"}) for d in same) or "none of that type"
            out.append(
                f"{where}.expect.events[{j}]: no {want['type']} matching "
                f"{ {a: b for a, b in want.items() if a != 'type'} } (in order); the engine emitted: {seen}"
            )
        else:
            i = k + 1
    for t in expect.absent:
        if any(e.type == t for e in events):
            out.append(f"{where}.expect.absent: the engine emitted {t}")
    return out


def check_facts(f: Facts, state: State, where: str) -> list[str]:
    from game.rules.query import power_left

    out: list[str] = []

    def bad(key: str, thing: str, want: Any, got: Any) -> None:
        out.append(f"{where}.{key}.{thing}: expected {want!r}, the engine has {got!r}")

    for thing, want in f.damage.items():
        if thing in state.units:
            got = sum(m.damage for m in state.units[thing].models)
        elif thing in state.manifestations:
            got = state.manifestations[thing].damage
        else:
            got = None
        if got != want:
            bad("damage", thing, want, got)
    for uid, want in f.ritual_points.items():
        got = state.units[uid].ritual_points if uid in state.units else None
        if got != want:
            bad("ritual_points", uid, want, got)
    for thing, want in f.alive.items():
        got = state.units[thing].alive if thing in state.units else thing in state.manifestations
        if got != want:
            bad("alive", thing, want, got)
    if f.manifestations is not None and sorted(f.manifestations) != sorted(state.manifestations):
        out.append(
            f"{where}.manifestations: expected {sorted(f.manifestations)}, "
            f"the engine has {sorted(state.manifestations)}"
        )
    for mid, want in f.commander.items():
        got = state.manifestations[mid].commander if mid in state.manifestations else None
        if got != want:
            bad("commander", mid, want, got)
    for mid, want in f.controlled_by.items():
        m = state.manifestations.get(mid)
        ctrl = m.flags.get("controlled_by") if m is not None else None
        got = (ctrl[0] if ctrl else "") if m is not None else None
        if got != want:
            bad("controlled_by", mid, want, got)
    for thing, want in f.at.items():
        if thing in state.units:
            got = [(m.x, m.y) for m in state.units[thing].models]
        elif thing in state.manifestations:
            got = [(state.manifestations[thing].x, state.manifestations[thing].y)]
        else:
            got = None
        if got is None or not _same([list(p) for p in want], [list(p) for p in got]):
            bad("at", thing, [list(p) for p in want], got)
    for uid, want in f.power_left.items():
        got = power_left(state, uid) if uid in state.units else None
        if got != want:
            bad("power_left", uid, want, got)
    if f.phase is not None and state.phase != f.phase:
        bad("phase", "", f.phase, state.phase)
    if f.active is not None and state.active != f.active:
        bad("active", "", f.active, state.active)
    if f.pending is not None:
        d = state.pending()
        if f.pending.player is not None and d.player != f.pending.player:
            bad("pending", "player", f.pending.player, d.player)
        if f.pending.kind is not None and d.kind != f.pending.kind:
            bad("pending", "kind", f.pending.kind, d.kind)
    return out


# --- running -------------------------------------------------------------------------------


def shown(demo: DemoFile) -> DemoFile:
    """`demo` with its title and summary in the language in use (issue 22), for the screen and
    the GIF; the same object in English. The captions are translated as the frames are made."""
    meta = demo.demo
    title, summary = content_name(meta.title), content_name(meta.summary)
    if (title, summary) == (meta.title, meta.summary):
        return demo
    return demo.model_copy(update={"demo": meta.model_copy(update={"title": title, "summary": summary})})


def run_demo(demo: DemoFile, strict: bool = False, label: str | None = None) -> DemoRun:
    """Play every step; collect frames and every mismatch (raise them together with `strict`)."""
    label = label or f"maps/demos/{demo.demo.id}.toml"
    state = build_state(demo)
    intro = content_name(demo.intro or demo.demo.summary or demo.demo.title)
    frames = [Frame(0, intro, state.clone(), rules=list(demo.demo.rules))]
    g0 = Geometry()
    problems: list[str] = []
    authored(g0, state, demo.intro_show, problems, f"{label}: intro")
    frames[0].geometry = g0
    for n, step in enumerate(demo.step, 1):
        where = f"{label}: step[{n - 1}]"
        action = Action.from_dict(step.action)
        before = state.clone()
        mine: list[str] = []
        events: list[Event] = []
        refused = None
        caption = content_name(step.caption)
        if step.refused is not None:
            reasons = state.explain(action)
            if not reasons:
                mine.append(f"{where}: expected the engine to refuse {action.type}, but it is legal")
            else:
                refused = reasons[0]
                caption = caption + "\n" + _("Refused: {reason}").format(reason=refused)
                if step.refused.rule not in refused:
                    mine.append(f"{where}.refused.rule: the reason does not mention {step.refused.rule}: {refused}")
                for word in step.refused.contains:
                    if word not in refused:
                        mine.append(f"{where}.refused.contains: {word!r} is not in the reason: {refused}")
        else:
            try:
                events = state.apply(action)
            except IllegalActionError as exc:
                mine.append(f"{where}.action: the engine refused {action.type}: {exc.message}")
            except DiceScriptError as exc:
                mine.append(f"{where}: dice: {exc}")
        mine += check_events(step.expect, events, where)
        try:
            mine += check_facts(step.expect, state, f"{where}.expect")
        except Exception as exc:  # a fact about something that is gone, etc.
            mine.append(f"{where}.expect: {exc}")
        geo = derive(before, state, action, events, refused is not None)
        authored(geo, state if refused is None else before, step.show, mine, where)
        if not step.show.auto:
            keep = Geometry()
            authored(keep, state if refused is None else before, step.show, [], where)
            geo = keep
        frames.append(
            Frame(
                n,
                caption,
                state.clone(),
                action,
                list(events),
                refused,
                list(step.rules or demo.demo.rules),
                geo,
                list(mine),
            )
        )
        problems += mine
    problems += check_facts(demo.expect, state, f"{label}: expect")
    if isinstance(state.dice, ScriptedDice) and state.dice.remaining():
        problems.append(
            f"{label}: dice: {state.dice.remaining()} scripted dice were never rolled: {state.dice.script!r}"
        )
    run = DemoRun(shown(demo), frames, problems)
    if strict and problems:
        raise DemoMismatch("\n".join(problems))
    return run
