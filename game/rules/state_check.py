"""Is this saved state one the game could be in? Checked before a state read from a file is used.

`State.from_dict` calls `state_problems(d, game)` and refuses a state with problems, so every way
in (a save, an autosave, an editor, a test) is covered; `game.rules.saves.load_game` turns the
refusal into a `SaveError` naming the file. Two layers, the second run only when the first passes:

1. **Shape** (pydantic, like the data files): every field present with the right type, no unknown
   keys; ints are JSON integers (not true/false, not 2.5), coordinates are finite numbers. The
   open dicts of the state are typed too: unit and manifestation `flags` (a new flag is declared
   here, and `test_rules_file_decoding` plays random games in every profile to catch one that is
   not); the decision frames per `kind` and the use counters in `phase_uses` and `turn_uses` are
   typed records (`game.rules.frames`, `game.rules.allowances`) whose schemas are derived from
   their classes (`doc_model`), so a new decision kind or counter is declared once, in its class.
   The schemas of the parts live in `game.rules.state_schema` (the records use them too).
2. **Meaning**, against the `Game`: known warscroll, manifestation and ability ids; players 1 or
   2; `stage` one of `flow.STAGES`, `phase` one of the turn table's phases (or "deployment"); round within
   the game's rounds and the turn number consistent with the round and who went first; damage
   0..health-1 on a model still standing (health on a slain one), ritual points >= 0; decisions of
   a kind in the turn table's decisions naming things that exist, queued steps in the table; the dice
   state; and the battlefield (G3, G4, with the engine's own geometry): every model still standing
   clear of the edge, of impassable terrain, of every other base and of every manifestation, and
   every manifestation with its centre on the battlefield, clear of bases, impassable terrain and
   the other manifestations.

Messages name the field path, e.g. ``units.p1u0.models[2]: at (1000, 5) lies off the 60x44
battlefield (G3)``. The engine's own states always pass (a conformance test plays random games).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Any, Union

from pydantic import (
    ConfigDict,
    Discriminator,
    Field,
    Tag,
)

from game.geometry.measure import overlaps
from game.geometry.nearby import BaseIndex
from game.geometry.placement import edge_problem
from game.geometry.shapes import Circle, Shape
from game.rules import flow
from game.rules.allowances import BANISH, ArmyUses, PlayerUses, UnitUses
from game.rules.effects import BUFF_KINDS
from game.rules.frames import FRAME_TYPES
from game.rules.space import scroll_footprint
from game.rules.state_schema import (
    MAX_SHOWN,
    STATE_FORMAT,
    Bool,
    DiceDoc,
    Int,
    ManifestationDoc,
    Str,
    UnitDoc,
    _Doc,
    doc_model,
    shape_problems,
)

if TYPE_CHECKING:
    from game.rules.game import Game


def _frame_docs() -> tuple[type[_Doc], ...]:
    return tuple(doc_model(f) for f in FRAME_TYPES.values())


def _uses_docs() -> tuple[type[_Doc], type[_Doc], type[_Doc]]:
    return doc_model(UnitUses), doc_model(PlayerUses), doc_model(ArmyUses)


_UnitUsesDoc, _PlayerUsesDoc, _ArmyUsesDoc = _uses_docs()

if TYPE_CHECKING:  # built at run time from the record classes; mypy sees their dicts as Any
    FrameDoc = Any
    PhaseUsesDoc = Any
    ArmyUsesDoc = Any
else:
    # decision frames (the stack in State.decisions, one class per kind: game.rules.frames)
    FrameDoc = Annotated[Union[_frame_docs()], Field(discriminator="kind")]  # noqa: UP007  (a Union of a runtime tuple)
    # allowances (game.rules.allowances): a unit's uses by its id, a player's under "player1" / "player2"
    PhaseUsesDoc = Annotated[
        Annotated[_UnitUsesDoc, Tag("unit")] | Annotated[_PlayerUsesDoc, Tag("player")],
        Discriminator(lambda v: "player" if isinstance(v, dict) and "dispel_targets" in v else "unit"),
    ]
    ArmyUsesDoc = _ArmyUsesDoc


class TurnUsesDoc(_Doc):
    model_config = ConfigDict(extra="forbid", frozen=True, populate_by_name=True)
    one: ArmyUsesDoc = Field(alias="1")
    two: ArmyUsesDoc = Field(alias="2")


class BattleFlagsDoc(_Doc):
    general1_slain: Bool | None = None  # R2: the bonus for slaying a general is paid once
    general2_slain: Bool | None = None


class OutcomeDoc(_Doc):
    winner: Int | None
    reason: Str
    score: tuple[Int, Int]


class StateDoc(_Doc):
    format: Int
    game: dict[Str, Any]
    dice: DiceDoc
    round: Int
    turn: Int
    first_player: Int
    active: Int
    stage: Str
    phase: Str
    priority_winner: Int
    units: dict[Str, UnitDoc]
    manifestations: dict[Str, ManifestationDoc]
    decisions: list[FrameDoc]
    steps: list[Str]
    phase_uses: dict[Str, PhaseUsesDoc]
    turn_uses: TurnUsesDoc
    score: tuple[Int, Int]
    objectives: list[Int | None]
    flags: BattleFlagsDoc
    outcome: OutcomeDoc | None
    counter: Int


def _g(v: float) -> str:
    return f"{v:.3f}".rstrip("0").rstrip(".")


def state_problems(d: Any, game: "Game") -> list[str]:
    """Every reason `d` (a `State.to_dict()` read back) is not a state of `game`; empty if none."""
    if not isinstance(d, dict):
        return [f"state: must be an object, got {type(d).__name__}"]
    problems = shape_problems(StateDoc, d, "state")
    if problems:
        return [p.removeprefix("state: ") for p in problems]
    return _Checker(d, game).run()[:MAX_SHOWN]


class _Checker:
    def __init__(self, d: dict[str, Any], game: "Game") -> None:
        self.d, self.game = d, game
        self.out: list[str] = []

    def bad(self, where: str, why: str) -> None:
        self.out.append(f"{where}: {why}")

    def player(self, where: str, p: Any, allow: tuple = (1, 2)) -> None:
        if p not in allow:
            self.bad(where, f"must be {' or '.join(map(str, allow))}, got {p}")

    def run(self) -> list[str]:
        d = self.d
        if d["format"] != STATE_FORMAT:
            self.bad("format", f"must be {STATE_FORMAT}, got {d['format']}")
        if d["game"] != self.game.header():
            self.bad("game", "the state was saved for a different game configuration (content, map, armies or profile)")
        self.dice(d["dice"])
        self.flow()
        self.units()
        self.manifestations()
        self.decisions()
        self.uses()
        self.score()
        if not self.out:
            self.battlefield()  # geometry last: it needs known warscrolls and scrolls
        return self.out

    # --- the dice ---------------------------------------------------------------------------

    def dice(self, dice: dict[str, Any]) -> None:
        if dice["kind"] != "scripted":
            return
        for i, e in enumerate(dice["script"]):
            for j, v in enumerate(e["dice"] if isinstance(e, dict) else [e]):
                if not 1 <= v <= 6:
                    where = f"dice.script[{i}]" + (f".dice[{j}]" if isinstance(e, dict) else "")
                    self.bad(where, f"a die shows 1 to 6, got {v}")

    # --- the turn skeleton (R2) -------------------------------------------------------------

    def flow(self) -> None:
        d, rounds = self.d, self.game.rounds
        stage, phase, rnd, turn = d["stage"], d["phase"], d["round"], d["turn"]
        if stage not in flow.STAGES:
            self.bad("stage", f"must be one of {', '.join(flow.STAGES)}, got {stage!r}")
            return
        table = flow.table()
        phases = ("deployment",) + table.phase_names
        if phase not in phases:
            self.bad("phase", f"must be one of {', '.join(phases)}, got {phase!r}")
            return
        self.player("active", d["active"])
        self.player("first_player", d["first_player"], (0, 1, 2))
        self.player("priority_winner", d["priority_winner"], (0, 1, 2))
        low = 1 if stage in ("turn_order", "battle") else 0
        high = 0 if stage == "deployment" else rounds
        if not low <= rnd <= high:
            self.bad("round", f"must be {low} to {high} in the {stage} stage of a {rounds}-round game, got {rnd}")
            return
        if stage == "deployment":
            if phase != "deployment":
                self.bad("phase", f"must be 'deployment' in the deployment stage, got {phase!r}")
            if turn != 0:
                self.bad("turn", f"must be 0 before the first battle round, got {turn}")
        elif stage == "turn_order":
            if d["priority_winner"] not in (1, 2):
                self.bad(
                    "priority_winner", f"must be 1 or 2 while the turn order is chosen, got {d['priority_winner']}"
                )
            if turn != 2 * (rnd - 1):
                self.bad("turn", f"must be {2 * (rnd - 1)} before battle round {rnd} begins, got {turn}")
        elif stage == "battle":
            if phase not in table.phase_names:
                self.bad("phase", f"must be a battle phase ({', '.join(table.phase_names)}), got {phase!r}")
            self.player("first_player", d["first_player"])
            if d["first_player"] in (1, 2) and d["active"] in (1, 2):
                want = 2 * (rnd - 1) + (1 if d["active"] == d["first_player"] else 2)
                if turn != want:
                    self.bad(
                        "turn",
                        f"must be {want} in round {rnd} with player {d['active']} active "
                        f"and player {d['first_player']} first, got {turn}",
                    )
        else:  # over
            if d["outcome"] is None:
                self.bad("outcome", "a finished game must have an outcome")
            if not 0 <= turn <= 2 * rounds:
                self.bad("turn", f"must be 0 to {2 * rounds}, got {turn}")
        if stage != "over" and d["outcome"] is not None:
            self.bad("outcome", f"must be null while the game runs (stage {stage!r})")
        if d["outcome"] is not None and d["outcome"]["winner"] is not None:
            self.player("outcome.winner", d["outcome"]["winner"])
        if d["counter"] < 0:
            self.bad("counter", f"must be 0 or more, got {d['counter']}")
        known = table.step_names()
        for i, name in enumerate(d["steps"]):
            if name not in known:
                self.bad(f"steps[{i}]", f"unknown step {name!r}")
        if d["steps"] and stage in ("deployment", "over"):
            self.bad("steps", f"no step is queued in the {stage} stage")

    # --- units and manifestations -----------------------------------------------------------

    def units(self) -> None:
        content = self.game.content
        for uid, u in self.d["units"].items():
            at = f"units.{uid}"
            if u["id"] != uid:
                self.bad(f"{at}.id", f"must be {uid!r} (its key), got {u['id']!r}")
            self.player(f"{at}.player", u["player"])
            ws = content.warscrolls.get(u["warscroll"])
            if ws is None:
                self.bad(f"{at}.warscroll", f"unknown warscroll {u['warscroll']!r}")
                continue
            for j, m in enumerate(u["models"]):
                top = ws.health if m["slain"] else ws.health - 1
                if not 0 <= m["damage"] <= top:
                    state = "a slain model" if m["slain"] else f"a model still standing (Health {ws.health})"
                    self.bad(f"{at}.models[{j}].damage", f"must be 0 to {top} for {state}, got {m['damage']}")
            if u["ritual_points"] < 0:
                self.bad(f"{at}.ritual_points", f"must be 0 or more (M5), got {u['ritual_points']}")
            for j, b in enumerate(u["buffs"]):
                self.buff(f"{at}.buffs[{j}]", b)
            self.flags(at, u["flags"])

    def buff(self, at: str, b: dict[str, Any]) -> None:
        content = self.game.content
        if b["kind"] not in BUFF_KINDS:
            self.bad(f"{at}.kind", f"must be one of {', '.join(BUFF_KINDS)}, got {b['kind']!r}")
        if b["source"] not in content.abilities and b["source"] not in content.manifestations:
            self.bad(f"{at}.source", f"unknown ability or manifestation {b['source']!r}")
        self.player(f"{at}.until_hero_of", b["until_hero_of"])
        if not 0 <= b["set_turn"] <= self.d["turn"]:
            self.bad(f"{at}.set_turn", f"must be 0 to the current turn {self.d['turn']}, got {b['set_turn']}")

    def flags(self, at: str, flags: dict[str, Any]) -> None:
        c = flags.get("controlled_by")
        if c is not None and c[0] not in self.d["units"]:
            self.bad(f"{at}.flags.controlled_by", f"unknown unit {c[0]!r}")

    def manifestations(self) -> None:
        content, units = self.game.content, self.d["units"]
        for mid, m in self.d["manifestations"].items():
            at = f"manifestations.{mid}"
            if m["id"] != mid:
                self.bad(f"{at}.id", f"must be {mid!r} (its key), got {m['id']!r}")
            if mid in units:
                self.bad(at, f"{mid!r} is also a unit's id")
            self.player(f"{at}.player", m["player"])
            self.player(f"{at}.commander", m["commander"], (0, 1, 2))
            scroll = content.manifestations.get(m["scroll"])
            if scroll is None:
                self.bad(f"{at}.scroll", f"unknown manifestation {m['scroll']!r}")
            elif not 0 <= m["damage"] < scroll.health:
                self.bad(
                    f"{at}.damage", f"must be 0 to {scroll.health - 1} (Health {scroll.health}), got {m['damage']}"
                )
            u = units.get(m["summoner"])
            if u is None:
                self.bad(f"{at}.summoner", f"unknown unit {m['summoner']!r}")
            else:
                if u["player"] != m["player"]:
                    self.bad(f"{at}.player", f"must be its summoner's player {u['player']}, got {m['player']}")
                if not 0 <= m["summoner_model"] < len(u["models"]):
                    self.bad(
                        f"{at}.summoner_model",
                        f"{m['summoner']} has models 0 to {len(u['models']) - 1}, got {m['summoner_model']}",
                    )
            if m["moves_made"] < 0:
                self.bad(f"{at}.moves_made", f"must be 0 or more, got {m['moves_made']}")
            self.flags(at, m["flags"])

    # --- decisions and allowances -----------------------------------------------------------

    def decisions(self) -> None:
        d, content = self.d, self.game.content
        if d["decisions"] and d["stage"] != "battle":
            self.bad("decisions", f"no decision is open in the {d['stage']} stage")
        things = set(d["units"]) | set(d["manifestations"])
        for i, f in enumerate(d["decisions"]):
            at = f"decisions[{i}]"
            if f["kind"] not in flow.table().decisions:
                self.bad(f"{at}.kind", f"unknown decision kind {f['kind']!r}")
            self.player(f"{at}.player", f["player"])
            unit = f.get("caster", f.get("unit"))
            if unit is not None:
                key = "caster" if "caster" in f else "unit"
                if unit not in (things if f["kind"] == "charge_move" else d["units"]):
                    self.bad(f"{at}.{key}", f"unknown unit {unit!r}")
                elif "model" in f and not 0 <= f["model"] < len(d["units"][unit]["models"]):
                    self.bad(
                        f"{at}.model", f"{unit} has models 0 to {len(d['units'][unit]['models']) - 1}, got {f['model']}"
                    )
            for key, table in (
                ("spell", content.abilities),
                ("prayer", content.abilities),
                ("scroll", content.manifestations),
            ):
                if key in f and f[key] not in table:
                    self.bad(f"{at}.{key}", f"unknown {'manifestation' if key == 'scroll' else key} {f[key]!r}")
            if f.get("target") is not None and f["target"] not in things:
                self.bad(f"{at}.target", f"unknown unit or manifestation {f['target']!r}")
            for j, mid in enumerate(f.get("candidates", ())):
                if mid not in d["manifestations"]:
                    self.bad(f"{at}.candidates[{j}]", f"unknown manifestation {mid!r}")
            for j, p in enumerate(f.get("passed", ())):
                self.player(f"{at}.passed[{j}]", p)
            if "next_wild" in f:
                self.player(f"{at}.next_wild", f["next_wild"])

    def uses(self) -> None:
        d = self.d
        abilities = set(self.game.content.abilities) | {BANISH}  # R1 counts Banish as an ability
        for key, u in d["phase_uses"].items():
            at = f"phase_uses.{key}"
            if "dispel_targets" in u:
                if key not in ("player1", "player2"):
                    self.bad(at, "dispel targets are kept under player1 or player2 (E3)")
                continue
            if key not in d["units"]:
                self.bad(at, f"unknown unit {key!r}")
            for name in ("power", "unbinds", "summons", "penalty"):
                if u[name] < 0:
                    self.bad(f"{at}.{name}", f"must be 0 or more, got {u[name]}")
            for j, a in enumerate(u["used"]):
                if a not in abilities:
                    self.bad(f"{at}.used[{j}]", f"unknown ability {a!r}")
        for p in ("1", "2"):
            t = d["turn_uses"][p]
            for j, a in enumerate(t.get("abilities") or ()):
                if a not in abilities:
                    self.bad(f"turn_uses.{p}.abilities[{j}]", f"unknown ability {a!r}")
            for j, s in enumerate(t.get("summon_attempts") or ()):
                if s not in self.game.content.manifestations:
                    self.bad(f"turn_uses.{p}.summon_attempts[{j}]", f"unknown manifestation {s!r}")

    def score(self) -> None:
        d = self.d
        for i, s in enumerate(d["score"]):
            if s < 0:
                self.bad(f"score[{i}]", f"must be 0 or more, got {s}")
        n = len(self.game.battlefield.map.objectives)
        if len(d["objectives"]) != n:
            self.bad("objectives", f"the map has {n} objectives, got {len(d['objectives'])} entries")
        for i, o in enumerate(d["objectives"]):
            if o is not None:
                self.player(f"objectives[{i}]", o)

    # --- the battlefield (G3, G4) -----------------------------------------------------------

    def battlefield(self) -> None:
        game, bf = self.game, self.game.battlefield
        w, h = bf.width, bf.height
        size = f"{_g(w)}x{_g(h)}"
        bases: list[Circle] = []
        names: list[str] = []
        for uid, u in self.d["units"].items():
            r = game.warscroll(u["warscroll"]).base.radius_in or 0.5
            for j, m in enumerate(u["models"]):
                if not m["slain"]:
                    bases.append(Circle(m["x"], m["y"], r))
                    names.append(f"units.{uid}.models[{j}]")
        shapes: list[Shape] = []
        mnames: list[str] = []
        for mid, m in self.d["manifestations"].items():
            at = f"manifestations.{mid}"
            if not (0 <= m["x"] <= w and 0 <= m["y"] <= h):
                self.bad(at, f"its centre ({_g(m['x'])}, {_g(m['y'])}) lies off the {size} battlefield (E9)")
                continue
            shapes.append(scroll_footprint(game.content.manifestations[m["scroll"]], m["x"], m["y"]))
            mnames.append(at)
        index = BaseIndex(bases)
        for k, c in enumerate(bases):
            at = names[k]
            if not (0 <= c.x <= w and 0 <= c.y <= h):
                self.bad(at, f"at ({_g(c.x)}, {_g(c.y)}) lies off the {size} battlefield (G3)")
                continue
            edge = edge_problem(c, w, h)
            if edge:
                self.bad(at, f"at ({_g(c.x)}, {_g(c.y)}) {edge} (G3)")
            for piece in bf.terrain.impassable_overlapping(c):
                self.bad(at, f"at ({_g(c.x)}, {_g(c.y)}) overlaps impassable terrain {piece.name!r} (G4)")
            idx, depth = index.overlapping(c)
            for j, dep in zip(idx.tolist(), depth.tolist()):
                if j > k:
                    self.bad(at, f"overlaps {names[j]} ({dep:.2f}\" overlap) (G4)")
            for j, s in enumerate(shapes):
                if overlaps(c, s):
                    self.bad(at, f"stands on {mnames[j]} (G4)")
        for k, s in enumerate(shapes):
            at = mnames[k]
            for piece in bf.terrain.impassable_overlapping(s):
                self.bad(at, f"overlaps impassable terrain {piece.name!r} (E9)")
            for j in range(k + 1, len(shapes)):
                if overlaps(s, shapes[j]):
                    self.bad(at, f"overlaps {mnames[j]} (E9)")
