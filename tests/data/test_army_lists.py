"""Army list rules and list files (game.data.army_lists, issue 23): each rule allowed and refused
at its boundary, and list files written, read back and refused with the loader's messages."""

from __future__ import annotations

from pathlib import Path

import pytest

from game.data import army_lists as al
from game.data import library
from game.data.content import default_content
from game.data.errors import DataError
from game.data.models import Army, ArmyUnit

C = default_content()


def army(units, general: int = 0, limit: int = 1000, **kw) -> Army:
    """A draft list (model_construct: no checks, as the builder holds one)."""
    fields = dict(id="draft", name="My List", colour=(1, 2, 3), general=general, points_limit=limit, units=units)
    fields.update(kw)
    return Army.model_construct(**fields)


def u(warscroll: str, name: str | None = None) -> ArmyUnit:
    return ArmyUnit(warscroll=warscroll, name=name)


def test_points_are_left_out_of_the_content_hash_and_dumps() -> None:
    ws = C.warscrolls["pyre_magister"]
    assert ws.points == 110 and "points" not in ws.model_dump()
    assert "points_limit" not in C.armies["emberward"].model_dump()


def test_the_shipped_armies_are_legal_lists() -> None:
    for a in C.armies.values():
        assert al.list_problems(C, a) == []
        assert al.points_total(C, a) <= a.points_limit == 1000


def test_points_limit_exactly_at_the_limit_is_allowed_one_over_is_not() -> None:
    units = [u("pyre_magister", "A"), u("emberward_spears", "B")]  # 110 + 70
    assert al.points_total(C, army(units)) == 180
    assert al.list_problems(C, army(units, limit=180)) == []
    problems = al.list_problems(C, army(units, limit=179))
    assert problems == ["The list costs 180 points, 1 over its limit of 179."]


def test_a_list_needs_units() -> None:
    assert "The list has no units: add at least one." in al.list_problems(C, army([]))
    assert al.list_problems(C, army([u("cinder_adept", "A")])) == []


def test_the_general_must_be_a_hero() -> None:
    units = [u("emberward_spears", "Spears"), u("cinder_adept", "Adept")]
    assert al.list_problems(C, army(units, general=1)) == []
    assert al.list_problems(C, army(units, general=0)) == [
        "The general, Spears, is not a HERO: choose one of the list's heroes."
    ]
    assert al.list_problems(C, army(units, general=2)) == ["The list has no general: choose one of its heroes."]


def test_unit_names_present_and_distinct() -> None:
    assert al.list_problems(C, army([u("cinder_adept", "A"), u("emberward_spears", "B")])) == []
    assert al.list_problems(C, army([u("cinder_adept", "A"), u("emberward_spears", " ")])) == ["Unit 2 has no name."]
    dup = al.list_problems(C, army([u("cinder_adept", "Fire"), u("emberward_spears", "fire")]))
    assert dup == ["Units 1 and 2 are both named 'fire': give each its own name."]
    # no name of its own: the warscroll's name, which two units of one warscroll share
    two = al.list_problems(C, army([u("cinder_adept", "A"), u("emberward_spears"), u("emberward_spears")]))
    assert two == ["Units 2 and 3 are both named 'Emberward Spears': give each its own name."]


def test_an_unknown_warscroll_is_named() -> None:
    assert al.list_problems(C, army([u("cinder_adept", "A"), u("no_such", "B")])) == [
        "Unit 2: there is no warscroll 'no_such'."
    ]


def test_M8_lores_known_of_their_kind_and_one_of_each_kind() -> None:
    units = [u("cinder_adept", "A")]
    ok = army(
        units,
        spell_lore="lore_of_cinders",
        prayer_lore="litany_of_the_hearth",
        manifestation_lore="cinder_conjurations",
    )
    assert al.list_problems(C, ok) == []
    assert al.list_problems(C, army(units, spell_lore="nope")) == ["There is no lore 'nope' (M8)."]
    wrong = al.list_problems(C, army(units, spell_lore="litany_of_the_hearth"))
    assert wrong == ["Litany of the Hearth is a prayer lore, so it cannot be the list's spell lore (M8)."]
    two = al.list_problems(C, army(units, spell_lore="litany_of_the_hearth", prayer_lore="hymns_of_the_drowned_moon"))
    assert two[-1] == "The list chooses more than one prayer lore: at most one of each kind (M8)." and len(two) == 2
    assert al.lores_of(C, "spell") == ["lore_of_cinders", "lore_of_the_fen"]


def test_factions_group_warscrolls_by_their_faction_keyword() -> None:
    fs = {f.keyword: f for f in al.factions(C)}
    assert set(fs) == {"EMBERWARD", "MIRECOURT"}
    assert fs["EMBERWARD"].name == "The Emberward Covenant" and fs["EMBERWARD"].colour == (196, 64, 36)
    assert set(fs["MIRECOURT"].warscrolls) == {w for w, ws in C.warscrolls.items() if ws.has("MIRECOURT")}
    assert al.faction_of(C, C.armies["mirecourt"]) == fs["MIRECOURT"]


def test_save_list_writes_a_list_the_library_plays(tmp_path: Path) -> None:
    a = army([u("cinder_adept", "Adept"), u("emberward_spears", "Spears")], spell_lore="lore_of_cinders")
    path = al.save_list(tmp_path, a)
    assert path == tmp_path / "armies" / "my_list.toml"
    back = al.load_list(path)
    assert back.id == "my_list" and back.name == "My List" and back.points_limit == 1000
    assert [x.name for x in back.units] == ["Adept", "Spears"] and back.spell_lore == "lore_of_cinders"
    lib = library.load_library(tmp_path)
    assert lib.problems == () and lib.content.armies["my_list"] == back
    # a second list of the same name gets an id of its own; the edited one keeps its own
    assert al.save_list(tmp_path, a).name == "my_list_2.toml"
    assert al.save_list(tmp_path, a, replacing=path) == path
    # renaming an edited list moves it to its new id
    moved = al.save_list(tmp_path, a.model_copy(update={"name": "Fire Watch"}), replacing=path)
    assert moved.name == "fire_watch.toml" and not path.exists()
    al.delete_list(moved)
    assert not moved.exists()


def test_a_list_never_takes_a_built_in_id(tmp_path: Path) -> None:
    a = army([u("cinder_adept", "A")], name="Emberward")
    assert al.save_list(tmp_path, a).stem == "emberward_2"
    assert al.slug("  Fire & Ash!! ") == "fire_ash" and al.slug("42") == "list_42" and al.slug("") == "list"


def test_a_list_without_units_or_name_is_not_saved(tmp_path: Path) -> None:
    with pytest.raises(DataError, match="Add at least one unit"):
        al.save_list(tmp_path, army([]))
    with pytest.raises(DataError, match="Give the list a name"):
        al.save_list(tmp_path, army([u("cinder_adept", "A")], name="  "))


def test_bad_list_files_get_the_loaders_messages(tmp_path: Path) -> None:
    folder = tmp_path / "armies"
    folder.mkdir()
    (folder / "bad.toml").write_text(
        '[[army]]\nid = "bad"\nname = "Bad"\ncolour = [1, 2, 3]\npoints_limit = "lots"\n'
        'units = [{ warscroll = "cinder_adept" }]\n',
        encoding="utf-8",
    )
    (folder / "broken.toml").write_text("[[army]\n", encoding="utf-8")
    (folder / "two.toml").write_text(
        '[[lore]]\nid = "x"\nname = "X"\nkind = "spell"\nabilities = ["spark_lash"]\n', encoding="utf-8"
    )
    found = {s.path.name: s for s in al.saved_lists(tmp_path)}
    assert found["bad.toml"].army is None
    text = "\n".join(found["bad.toml"].problems)
    assert "armies/bad.toml" in text and "points_limit" in text and "lots" in text
    assert found["broken.toml"].problems[0].startswith("armies/broken.toml")
    assert found["two.toml"].problems == (
        "armies/two.toml: a saved army list holds one [[army]] table and nothing else",
    )
