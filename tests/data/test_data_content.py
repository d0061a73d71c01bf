"""Merged content: cross references (M8, M9), duplicate ids, the content hash, and the shipped
armies, lores and manifestations."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from game.data.content import DEFAULT_ARMIES, Content, build_content, default_content, load_content
from game.data.errors import DataError
from game.data.models import ContentFile

REPO = Path(__file__).resolve().parents[2]


def ws(id: str, keywords=(), spells=(), prayers=(), models=1) -> dict:
    return {
        "id": id, "name": id.title(), "models": models, "base": {"round_mm": 32}, "move": 5,
        "health": 2, "save": 4, "keywords": list(keywords), "spells": list(spells), "prayers": list(prayers),
    }


def ability(id: str, kind="spell", effects=None, keywords=()) -> dict:
    return {
        "id": id, "name": id.title(), "kind": kind, "value": 6 if kind == "spell" else 4, "range": 12,
        "keywords": list(keywords), "effects": effects or [{"handler": "mortal_damage", "amount": 1}],
    }


def manifestation(id: str, kind="endless_spell", pass_across=()) -> dict:
    return {
        "id": id, "name": id.title(), "kind": kind, "move": 6, "health": 4, "save": 5, "banishment": 6,
        "footprint": {"round_mm": 60}, "predatory": True, "pass_across": list(pass_across),
    }


def cf(**sections) -> ContentFile:
    return ContentFile.model_validate(sections)


def problems(files: dict[str, ContentFile]) -> list[str]:
    with pytest.raises(DataError) as info:
        build_content(files)
    return info.value.problems


GOOD = dict(
    warscroll=[ws("mage", ["HERO", "WIZARD (1)"]), ws("monk", ["HERO", "PRIEST (1)"])],
    ability=[ability("zap"), ability("bless", "prayer"), ability("call_orb", effects=[{"handler": "summon", "manifestation": "orb"}])],
    manifestation=[manifestation("orb")],
    lore=[
        {"id": "sparks", "name": "Sparks", "kind": "spell", "abilities": ["zap"]},
        {"id": "psalms", "name": "Psalms", "kind": "prayer", "abilities": ["bless"]},
        {"id": "orbs", "name": "Orbs", "kind": "manifestation", "abilities": ["call_orb"]},
    ],
    army=[{
        "id": "host", "name": "Host", "colour": [1, 2, 3], "spell_lore": "sparks", "prayer_lore": "psalms",
        "manifestation_lore": "orbs", "units": [{"warscroll": "mage"}, {"warscroll": "monk"}],
    }],
)


def good(**changes) -> ContentFile:
    return cf(**{**GOOD, **changes})


def test_good_content_builds():
    c = build_content({"a.toml": good()})
    assert set(c.armies) == {"host"} and c.lores["orbs"].kind == "manifestation"
    assert c.sources["lore:sparks"] == "a.toml"


def test_check_rejects_duplicate_id_naming_both_files():
    a = cf(ability=[ability("zap")])
    b = cf(ability=[ability("zap")])
    [msg] = problems({"a.toml": a, "b.toml": b})
    assert msg == "b.toml: duplicate ability id 'zap' (defined first in a.toml)"


def test_check_rejects_duplicate_id_within_one_file():
    [msg] = problems({"a.toml": cf(warscroll=[ws("mage"), ws("mage")])})
    assert msg == "a.toml: duplicate warscroll id 'mage' (defined twice in that file)"


def test_m8_lore_naming_missing_spell_is_reported():
    # RULES.md M8: a wizard knows the spells of its army's lores, so each must exist.
    lores = [{"id": "sparks", "name": "Sparks", "kind": "spell", "abilities": ["zap", "fireball"]}]
    [msg] = problems({"a.toml": good(lore=lores + GOOD["lore"][1:])})
    assert msg == "a.toml: lore 'sparks': abilities[1]: no spell or prayer has id 'fireball' (M8)"


def test_m8_spell_lore_listing_a_prayer_is_reported():
    # RULES.md M8: a spell lore holds spells (known by WIZARDs), a prayer lore prayers (PRIESTs).
    lores = [{"id": "sparks", "name": "Sparks", "kind": "spell", "abilities": ["zap", "bless"]}]
    [msg] = problems({"a.toml": good(lore=lores + GOOD["lore"][1:])})
    assert msg == "a.toml: lore 'sparks': abilities[1]: 'bless' is a prayer, but this is a spell lore (M8)"


def test_m9_manifestation_lore_abilities_must_summon():
    lores = GOOD["lore"][:2] + [{"id": "orbs", "name": "Orbs", "kind": "manifestation", "abilities": ["call_orb", "zap"]}]
    [msg] = problems({"a.toml": good(lore=lores)})
    assert "lore 'orbs': abilities[1]: 'zap' has no summon effect" in msg


def test_m9_summon_naming_unknown_manifestation_is_reported():
    abilities = GOOD["ability"][:2] + [ability("call_orb", effects=[{"handler": "summon", "manifestation": "ghost"}])]
    [msg] = problems({"a.toml": good(ability=abilities)})
    assert msg == "a.toml: ability 'call_orb': effects[0]: summons unknown manifestation 'ghost'"


def test_m9_prayer_must_summon_an_invocation():
    # RULES.md M9: an endless spell is summoned by a spell, an invocation by a prayer.
    abilities = GOOD["ability"][:2] + [ability("call_orb", "prayer", effects=[{"handler": "summon", "manifestation": "orb"}])]
    [msg] = problems({"a.toml": good(ability=abilities)})
    assert "a prayer summons invocations, but 'orb' is an endless_spell (M9)" in msg


def test_m8_warscroll_spell_must_exist_and_be_a_spell():
    scrolls = [ws("mage", ["HERO", "WIZARD (1)"], spells=["bless", "nothing"]), GOOD["warscroll"][1]]
    msgs = problems({"a.toml": good(warscroll=scrolls)})
    assert msgs == [
        "a.toml: warscroll 'mage': spells[0]: 'bless' is a prayer, not a spell (M8)",
        "a.toml: warscroll 'mage': spells[1]: no spell has id 'nothing' (M8)",
    ]


def test_army_naming_unknown_warscroll_is_reported():
    army = {**GOOD["army"][0], "units": [{"warscroll": "mage"}, {"warscroll": "dragon"}]}
    [msg] = problems({"a.toml": good(army=[army])})
    assert msg == "a.toml: army 'host': units[1]: unknown warscroll 'dragon'"


def test_m8_army_lores_must_exist_and_match_their_kind():
    army = {**GOOD["army"][0], "spell_lore": "psalms", "prayer_lore": "hymnal"}
    msgs = problems({"a.toml": good(army=[army])})
    assert msgs == [
        "a.toml: army 'host': spell_lore: 'psalms' is a prayer lore, not a spell lore (M8)",
        "a.toml: army 'host': prayer_lore: unknown lore 'hymnal' (M8)",
    ]


def test_pass_across_may_not_summon():
    m = manifestation("orb", pass_across=[{"handler": "summon", "manifestation": "orb"}])
    [msg] = problems({"a.toml": good(manifestation=[m])})
    assert msg == "a.toml: manifestation 'orb': pass_across[0]: a manifestation cannot summon when it passes across a unit"


def test_all_cross_reference_problems_are_collected():
    army = {**GOOD["army"][0], "units": [{"warscroll": "x"}, {"warscroll": "y"}]}
    lores = [{"id": "sparks", "name": "Sparks", "kind": "spell", "abilities": ["nope"]}] + GOOD["lore"][1:]
    assert len(problems({"a.toml": good(army=[army], lore=lores)})) == 3


def test_files_laid_over_a_base_replace_its_definitions():
    base = build_content({"a.toml": good()})
    c = build_content({"b.toml": cf(ability=[ability("zap", effects=[{"handler": "heal", "amount": 2}])])}, base=base)
    assert c.abilities["zap"].effects[0].handler == "heal" and c.sources["ability:zap"] == "b.toml"
    assert c.sources["lore:sparks"] == "a.toml"
    assert c.content_hash != base.content_hash


def test_load_content_collects_problems_from_every_file(tmp_path: Path):
    (tmp_path / "a.toml").write_text('[[lore]]\nid = "x"\nname = "X"\nkind = "spell"\nabilities = ["nope"]\n')
    (tmp_path / "b.toml").write_text("[[army]]\nid = 3\n")
    with pytest.raises(DataError) as info:
        load_content([tmp_path / "a.toml", tmp_path / "b.toml"])
    text = str(info.value)
    assert f"{tmp_path / 'b.toml'}: army[0].id" in text
    assert f"{tmp_path / 'b.toml'}: army[0].name: missing required field" in text


def test_m8_known_abilities_combine_warscroll_and_army_lores():
    c = build_content({"a.toml": good()})
    army = c.armies["host"]
    assert [a.id for a in c.known_abilities(army, c.warscrolls["mage"])] == ["zap", "call_orb"]
    assert [a.id for a in c.known_abilities(army, c.warscrolls["monk"])] == ["bless"]


# --- the content hash ------------------------------------------------------------------------


def test_content_hash_is_stable():
    a = load_content()
    b = load_content()
    assert a.content_hash == b.content_hash and len(a.content_hash) == 64
    assert a == b and hash(a) == hash(b)
    code = "from game.data.content import load_content; print(load_content().content_hash)"
    for seed in ("1", "2"):
        env = {**os.environ, "PYTHONHASHSEED": seed}
        out = subprocess.run(
            [sys.executable, "-c", code], cwd=REPO, env=env, capture_output=True, text=True, check=True, timeout=120
        )
        assert out.stdout.strip() == a.content_hash


def test_content_hash_does_not_depend_on_file_order():
    f1, f2 = cf(ability=GOOD["ability"]), cf(**{k: v for k, v in GOOD.items() if k != "ability"})
    assert build_content({"1": f1, "2": f2}).content_hash == build_content({"2": f2, "1": f1}).content_hash


def test_default_content_is_cached():
    assert default_content() is default_content()
    assert isinstance(default_content(), Content)


# --- the shipped content ---------------------------------------------------------------------


@pytest.fixture(scope="module")
def content() -> Content:
    return load_content()


def test_default_armies_exist_with_different_lores(content: Content):
    a, b = (content.armies[i] for i in DEFAULT_ARMIES)
    assert a.colour != b.colour
    for kind in ("spell_lore", "prayer_lore", "manifestation_lore"):
        assert getattr(a, kind) and getattr(b, kind) and getattr(a, kind) != getattr(b, kind)


@pytest.mark.parametrize("army_id", DEFAULT_ARMIES)
def test_m1_armies_field_casters_of_power_level_1_and_2(content: Content, army_id: str):
    army = content.armies[army_id]
    units = [content.warscrolls[u.warscroll] for u in army.units]
    assert 8 <= len(units) <= 12
    assert units[army.general].has("HERO")
    assert {1, 2} <= {w.wizard_level for w in units if w.has("HERO")}
    assert {1, 2} <= {w.priest_level for w in units if w.has("HERO")}
    assert any(w.has("INFANTRY") and w.models >= 10 for w in units)
    assert any(any(wp.range > 0 for wp in w.weapons) and w.models >= 5 for w in units)
    assert any(w.has("CAVALRY") or w.has("MONSTER") for w in units)
    assert any(w.has("FLY") for w in units)
    assert all(w.base.round_mm in (25, 32, 40, 50, 60, 80, 90) for w in units)
    assert all(4 <= w.move <= 12 and 1 <= w.health <= 12 and 3 <= w.save <= 6 for w in units)
    assert all(w.ward in (0, 5, 6) and 1 <= w.control <= 5 for w in units)


def test_e5_a_wizard_unit_has_several_models(content: Content):
    # RULES.md E5: a WIZARD unit of several models counts as one wizard.
    assert any(w.wizard_level and w.models >= 3 for w in content.warscrolls.values())


def test_m7_every_spell_and_prayer_lore_has_three_abilities_one_unlimited(content: Content):
    lores = [lore for lore in content.lores.values() if lore.kind != "manifestation"]
    assert len(lores) >= 4
    for lore in lores:
        abilities = [content.abilities[i] for i in lore.abilities]
        assert len(abilities) >= 3, lore.id
        assert any(a.unlimited for a in abilities), lore.id
        for a in abilities:
            assert a.kind == lore.kind
            assert (5 <= a.value <= 8) if a.kind == "spell" else (3 <= a.value <= 6), a.id
            assert 12 <= a.range <= 24 and a.target in ("enemy", "friendly", "self"), a.id
            assert a.text


def test_m9_every_manifestation_lore_summons_predators_and_a_stationary_one(content: Content):
    lores = [lore for lore in content.lores.values() if lore.kind == "manifestation"]
    assert len(lores) >= 2
    for lore in lores:
        summoned = [content.manifestations[content.abilities[i].summons] for i in lore.abilities]
        assert len(summoned) >= 3
        predators = [m for m in summoned if m.predatory]
        assert any(m.footprint.round_mm for m in predators), lore.id
        assert any(m.footprint.polygon and 16 <= len(m.footprint.polygon) <= 24 for m in predators), lore.id
        assert any(m.move == 0 for m in summoned), lore.id
        assert all(6 <= m.move <= 10 for m in predators)
        assert all(6 <= m.banishment <= 8 and m.removal and m.text for m in summoned)
        assert all(m.setup.wholly_within == 12 and m.setup.min_enemy_distance == 9 for m in summoned)
    kinds = {content.abilities[i].kind for lore in lores for i in lore.abilities}
    assert kinds == {"spell", "prayer"}  # endless spells and invocations both ship


def test_e9_a_predator_hurts_what_it_passes_across_on_a_3(content: Content):
    assert any(
        e.handler == "mortal_damage_on_roll" and e.on == 3 and e.amount == "D3"
        for m in content.manifestations.values() if m.predatory
        for e in m.pass_across
    )


def test_embedded_content_is_read_as_package_resources():
    from importlib import resources

    names = sorted(r.name for r in resources.files("game.content").iterdir() if r.name.endswith(".toml"))
    assert names == sorted(p.name for p in (REPO / "game" / "content").glob("*.toml"))
    assert len(names) >= 3
