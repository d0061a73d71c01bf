"""The engine's public surface: the UI, the AI, the simulator, the CLI and the demonstrations ask
the rules through `game.rules` and `game.rules.query` only, never a rule module (one source of
rules truth: a second copy of a rule cannot hide behind a private import)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import game.rules as rules
from game.rules import query

GAME = Path(rules.__file__).resolve().parent.parent
SURFACE = {"game.rules", "game.rules.query"}
CALLERS = [GAME / "ui", GAME / "ai", GAME / "demos", GAME / "sim.py", GAME / "cli.py", GAME / "textview.py"]


def _files() -> list[Path]:
    out: list[Path] = []
    for c in CALLERS:
        out.extend(sorted(c.rglob("*.py")) if c.is_dir() else [c])
    return out


def private_rule_imports(path: Path) -> list[str]:
    """Every import of a `game.rules` module other than the surface in `path`, function-local
    ones included, as "file:line: module"."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.ImportFrom) and node.module == "game.rules":
            # `from game.rules import turn` names a rule module too
            mods = [f"game.rules.{a.name}" for a in node.names if a.name in _private_modules()]
        elif isinstance(node, ast.ImportFrom) and node.module:
            mods = [node.module]
        elif isinstance(node, ast.Import):
            mods = [a.name for a in node.names]
        else:
            continue
        for m in mods:
            if m.startswith("game.rules.") and m not in SURFACE:
                found.append(f"{path.relative_to(GAME.parent)}:{node.lineno}: {m}")
    return found


def _private_modules() -> set[str]:
    return {p.stem for p in (GAME / "rules").glob("*.py")} - {"__init__", "query"}


def test_callers_import_only_the_public_surface():
    bad = [hit for f in _files() for hit in private_rule_imports(f)]
    assert not bad, "import these through game.rules or game.rules.query:\n" + "\n".join(bad)


def test_the_surface_check_catches_a_private_import(tmp_path):
    # the check itself can fail: a module-level and a function-local private import are found
    f = GAME / "ui" / "_probe_for_test.py"
    try:
        f.write_text("from game.rules.space import model_circle\n\ndef f():\n    import game.rules.formation\n"
                     "    from game.rules import turn\n")
        hits = private_rule_imports(f)
    finally:
        f.unlink()
    assert [h.rsplit(": ", 1)[1] for h in hits] == ["game.rules.space", "game.rules.formation", "game.rules.turn"]


@pytest.mark.parametrize("module", [rules, query], ids=["game.rules", "game.rules.query"])
def test_every_exported_name_exists(module):
    missing = [n for n in module.__all__ if not hasattr(module, n)]
    assert not missing


@pytest.mark.parametrize("gap,reason", [(24.0, None), (24.01, "out_of_range")])
def test_e7_control_zone_is_the_engines_answer_at_the_boundary(gap, reason):
    # E7: a Rolling Pyre wholly within 24" of its summoning model's base qualifies, 0.01" beyond
    # it does not; the query reports that with the base the zone is measured from.
    from game.rules import Game, ManifestationSpec, UnitSpec, build_position
    from tests.helpers import P1_WIZ2, R40, small_map

    r60 = 60 / 25.4 / 2
    st = build_position(Game.load(battlefield=small_map()), [UnitSpec("w1", 1, P1_WIZ2, [(10, 22)])],
                        [ManifestationSpec("m", "rolling_pyre", "w1", 10 + R40 + gap - r60, 22)])
    cz = query.control_zone(st, "m")
    assert (cz.reason, cz.qualifies, cz.range, cz.summoner, cz.model) == (reason, reason is None, 24.0, "w1", 0)
    assert (cz.zone.x, cz.zone.y, cz.zone.r) == pytest.approx((10, 22, R40))
    assert cz.reason == query.wild_reason(st, "m")


def test_e5_control_zone_of_a_slain_summoning_model_has_no_zone():
    # E5: the summoning model is slain while its unit lives: wild, and no zone to draw.
    from game.rules import Game, ManifestationSpec, UnitSpec, build_position
    from tests.helpers import P1_COVEN, small_map

    st = build_position(Game.load(battlefield=small_map()), [UnitSpec("c", 1, P1_COVEN, [(10, 10), (12, 10), (14, 10)])],
                        [ManifestationSpec("m", "rolling_pyre", "c", 20, 10, model=2)])
    st.units["c"].models[2].slain = True
    cz = query.control_zone(st, "m")
    assert (cz.reason, cz.zone, cz.summoner, cz.qualifies) == ("summoner_slain", None, "c", False)


def test_ranges_follow_the_profile():
    # E7: 24" control in aos4, the profile's own in aos3 (RULES.md, profile table); M6: 30" unbind
    from game.rules import Game

    for profile in ("aos4", "aos3"):
        g = Game.load(profile=profile)
        r = query.ranges(g)
        assert (r.control, r.unbind, r.banishes, r.dispels) == (
            g.profile.control_range, g.profile.unbind_range, g.profile.banishes, g.profile.dispels)
    assert query.ranges(Game.load(profile="aos4")).control == 24.0
