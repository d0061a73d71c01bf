"""Army lists: the rules a list must keep to be played, and the list files the army builder writes
(issue 23). One job: list rules and list files; the builder scene (game.ui.scenes.builder) and
the set-up forms (game.ui.choices) ask this module, never each other.

A saved list is a content file with one [[army]] in `<data>/armies/<id>.toml`
(game.data.library reads that folder). Its id is made from its name and never clashes with a
built-in army's or another list's id, so the library never refuses it for a clash.

Points are ours (the `points` of each warscroll, `points_limit` of each army, default 1000); they
are not part of the rules of a game (left out of the content hash), only of which lists may start
one. The rules a list keeps (`list_problems`):

- at least one unit, every unit's warscroll known, every unit named, no two with the same name;
- a general (`general`, an index into `units`) who is a HERO;
- the points total at most the points limit (exactly at the limit is allowed);
- each chosen lore known and of its slot's kind, and one lore of each kind at most (M8: the army
  has one slot per kind, so a list cannot hold two of a kind).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import tomli_w

from game.data.content import Content, default_content
from game.data.errors import DataError
from game.data.loader import load_content_file
from game.data.models import MAX_ID, Army, ArmyUnit
from game.data.safe_io import write_file_atomic
from game.i18n import N_

#: The folder, under the user data folder, that holds saved lists (game.data.library reads it).
ARMIES_FOLDER = "armies"
#: The lore slots of an army: field name -> the kind of lore it takes (M8).
LORE_SLOTS = (("spell_lore", "spell"), ("prayer_lore", "prayer"), ("manifestation_lore", "manifestation"))
#: Why a list file cannot be written (the builder shows them in the player's language).
NO_NAME = N_("Give the list a name before saving it.")
NO_UNITS = N_("Add at least one unit before saving the list.")
#: Each lore kind in words.
KIND_WORDS = {"spell": N_("spell"), "prayer": N_("prayer"), "manifestation": N_("manifestation")}
#: Keywords every faction's warscrolls may carry: never a faction's own.
COMMON_KEYWORDS = frozenset({"HERO", "INFANTRY", "CAVALRY", "MONSTER", "FLY", "PREDATORY", "UNLIMITED"})
_POWER = re.compile(r"^(WIZARD|PRIEST) \(\d\)$")
#: A saved list's colour when its faction has no army to take one from.
DEFAULT_COLOUR = (150, 150, 150)


# --- points and rules ---------------------------------------------------------------------------


class Problem(str):
    """One rule a list breaks: the English sentence (this data layer never translates, as the
    engine does not), with its template and fields so that the front end can say it in the
    player's language: `problem.say(_)`. Fields named in `WORDS` are words to translate too."""

    WORDS = frozenset({"kind", "slot", "lore"})

    template: str
    fields: dict[str, Any]

    def __new__(cls, template: str, **fields: Any) -> "Problem":
        self = super().__new__(cls, template.format(**fields))
        self.template, self.fields = template, fields
        return self

    def say(self, translate: Callable[[str], str]) -> str:
        words = {k: translate(v) if k in self.WORDS and isinstance(v, str) else v for k, v in self.fields.items()}
        return translate(self.template).format(**words)


def unit_name(content: Content, unit: ArmyUnit) -> str:
    """The name a unit plays under: its own, else its warscroll's (as game.rules.state names it)."""
    if unit.name is not None:
        return unit.name
    ws = content.warscrolls.get(unit.warscroll)
    return ws.name if ws is not None else unit.warscroll


def points_total(content: Content, army: Army) -> int:
    """What the list's units cost (a warscroll the content does not know costs nothing: it is a
    problem of its own)."""
    return sum(content.warscrolls[u.warscroll].points for u in army.units if u.warscroll in content.warscrolls)


def list_problems(content: Content, army: Army) -> list[Problem]:
    """Every rule `army` breaks, each a short sentence (with the rule's id where it has one); an
    empty list means it may be played. `army` may be a draft made with `Army.model_construct`
    (no units, a general out of range): every rule is checked, never assumed."""
    out: list[Problem] = []
    units = list(army.units)
    if not units:
        out.append(Problem(N_("The list has no units: add at least one.")))
    names: dict[str, int] = {}
    for n, u in enumerate(units, 1):
        ws = content.warscrolls.get(u.warscroll)
        if ws is None:
            out.append(Problem(N_("Unit {n}: there is no warscroll {warscroll!r}."), n=n, warscroll=u.warscroll))
        name = unit_name(content, u).strip()
        if not name:
            out.append(Problem(N_("Unit {n} has no name."), n=n))
        elif name.casefold() in names:
            out.append(
                Problem(
                    N_("Units {first} and {n} are both named {name!r}: give each its own name."),
                    first=names[name.casefold()],
                    n=n,
                    name=name,
                )
            )
        else:
            names[name.casefold()] = n
    if units:
        if not 0 <= army.general < len(units):
            out.append(Problem(N_("The list has no general: choose one of its heroes.")))
        else:
            ws = content.warscrolls.get(units[army.general].warscroll)
            if ws is not None and not ws.has("HERO"):
                out.append(
                    Problem(
                        N_("The general, {name}, is not a HERO: choose one of the list's heroes."),
                        name=unit_name(content, units[army.general]),
                    )
                )
    total, limit = points_total(content, army), army.points_limit
    if total > limit:
        out.append(
            Problem(
                N_("The list costs {total} points, {over} over its limit of {limit}."),
                total=total,
                over=total - limit,
                limit=limit,
            )
        )
    for slot, kind in LORE_SLOTS:
        lore_id = getattr(army, slot)
        if lore_id is None:
            continue
        lore = content.lores.get(lore_id)
        if lore is None:
            out.append(Problem(N_("There is no lore {lore!r} (M8)."), lore=lore_id))
        elif lore.kind != kind:
            out.append(
                Problem(
                    N_("{lore} is a {kind} lore, so it cannot be the list's {slot} lore (M8)."),
                    lore=lore.name,
                    kind=KIND_WORDS[lore.kind],
                    slot=KIND_WORDS[kind],
                )
            )
    chosen = [getattr(army, slot) for slot, _kind in LORE_SLOTS]
    kinds = [content.lores[i].kind for i in chosen if i is not None and i in content.lores]
    for kind in dict.fromkeys(k for k in kinds if kinds.count(k) > 1):
        out.append(
            Problem(
                N_("The list chooses more than one {kind} lore: at most one of each kind (M8)."), kind=KIND_WORDS[kind]
            )
        )
    return out


def lores_of(content: Content, kind: str) -> list[str]:
    """The ids of the lores of `kind` (spell, prayer or manifestation), by name (M8)."""
    return sorted((i for i, lo in content.lores.items() if lo.kind == kind), key=lambda i: content.lores[i].name)


# --- factions -------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Faction:
    """Warscrolls that share a faction keyword (EMBERWARD, MIRECOURT: every shipped warscroll has
    exactly one), named and coloured after the first army whose units all carry it."""

    keyword: str
    name: str
    colour: tuple[int, int, int]
    warscrolls: tuple[str, ...]
    army: str | None = None  # the army it is named after: a new list starts with its lores


def faction_keywords(keywords: Iterable[str]) -> list[str]:
    """The keywords that name a faction: all but the common ones and WIZARD (n) / PRIEST (n)."""
    return [k for k in keywords if k not in COMMON_KEYWORDS and not _POWER.match(k)]


def factions(content: Content) -> list[Faction]:
    """Every faction of the content, by name; a warscroll with no faction keyword is in none."""
    members: dict[str, list[str]] = {}
    for wid, ws in content.warscrolls.items():
        for k in faction_keywords(ws.keywords):
            members.setdefault(k, []).append(wid)
    out: list[Faction] = []
    for k, wids in members.items():
        army = next(
            (
                a
                for a in content.armies.values()
                if all(u.warscroll in content.warscrolls and content.warscrolls[u.warscroll].has(k) for u in a.units)
            ),
            None,
        )
        name = army.name if army is not None else k.title()
        colour = tuple(army.colour) if army is not None else DEFAULT_COLOUR
        # heroes first, then by cost: the order a list is built in
        wids.sort(key=lambda w: (not content.warscrolls[w].has("HERO"), -content.warscrolls[w].points, w))
        out.append(Faction(k, name, colour, tuple(wids), army.id if army else None))  # type: ignore[arg-type]
    return sorted(out, key=lambda f: f.name)


def faction_of(content: Content, army: Army) -> Faction | None:
    """The faction of a list's first unit with a faction keyword (None for a list of none)."""
    by_key = {f.keyword: f for f in factions(content)}
    for u in army.units:
        ws = content.warscrolls.get(u.warscroll)
        for k in faction_keywords(ws.keywords if ws else ()):
            if k in by_key:
                return by_key[k]
    return None


# --- list files -----------------------------------------------------------------------------------


def armies_dir(data_dir: Path) -> Path:
    return Path(data_dir) / ARMIES_FOLDER


def slug(name: str) -> str:
    """An id made from a list's name: lower case, runs of anything else than a-z and 0-9 become
    one underscore; it starts with a letter ("list" when the name gives none)."""
    s = re.sub(r"[^a-z0-9]+", "_", name.lower()).strip("_")
    if not s or not s[0].isalpha():
        s = "list_" + s if s else "list"
    return s[: MAX_ID - 4].rstrip("_")


def taken_ids(data_dir: Path, content: Content | None = None, replacing: Path | None = None) -> set[str]:
    """The army ids a new list may not take: the built-in armies', `content`'s (packs too) and
    every saved list file's (broken ones too), but not the one being replaced."""
    ids = set(default_content().armies) | set(content.armies if content is not None else ())
    folder = armies_dir(data_dir)
    files = {p.stem for p in folder.glob("*.toml")} if folder.is_dir() else set()
    ids |= files
    if replacing is not None and Path(replacing).stem not in default_content().armies:
        ids.discard(Path(replacing).stem)  # the list being edited may keep its id
    return ids


def new_id(name: str, taken: set[str]) -> str:
    """`slug(name)`, or with _2, _3 ... after it when that is taken."""
    base = slug(name)
    if base not in taken:
        return base
    n = 2
    while f"{base}_{n}" in taken:
        n += 1
    return f"{base}_{n}"


def army_table(army: Army) -> dict[str, Any]:
    """The [[army]] table of a list file (TOML has no null: an unchosen lore is left out)."""
    table: dict[str, Any] = {"id": army.id, "name": army.name, "colour": list(army.colour), "general": army.general}
    for slot, _kind in LORE_SLOTS:
        if getattr(army, slot) is not None:
            table[slot] = getattr(army, slot)
    table["points_limit"] = army.points_limit
    table["units"] = [
        {"warscroll": u.warscroll, **({"name": u.name} if u.name is not None else {})} for u in army.units
    ]
    return table


def save_list(data_dir: Path, army: Army, replacing: Path | None = None, content: Content | None = None) -> Path:
    """Write `army` to `<data>/armies/<id>.toml` atomically and return the path; the id is made
    from its name (`new_id`), so the army's own id is not used. `replacing` is the list file being
    edited: it may keep its id, and it is removed when the list's new name gives another one.
    A list with problems is saved (the builder keeps unfinished lists), but one without units or
    without a name cannot be read back as a list, so it is refused with a `DataError`."""
    if not army.name.strip():
        raise DataError(NO_NAME)
    if not army.units:
        raise DataError(NO_UNITS)
    folder = armies_dir(data_dir)
    folder.mkdir(parents=True, exist_ok=True)
    list_id = new_id(army.name, taken_ids(data_dir, content, replacing))
    general = army.general if 0 <= army.general < len(army.units) else 0
    saved = army.model_copy(update={"id": list_id, "name": army.name.strip(), "general": general})
    path = folder / f"{list_id}.toml"
    data = tomli_w.dumps({"army": [army_table(saved)]}).encode("utf-8")
    header = b"# An army list made with the Spellfield army builder.\n"
    write_file_atomic(path, header + data, is_ours=None, what="army list")
    if replacing is not None and Path(replacing) != path and Path(replacing).parent == folder:
        delete_list(Path(replacing))
    return path


def load_list(path: Path, label: str | None = None) -> Army:
    """A list file read back through the loader, so that a bad one is refused with the loader's
    messages naming the file, the field, the value and the reason (a `DataError`)."""
    label = label or f"{ARMIES_FOLDER}/{Path(path).name}"
    cf = load_content_file(Path(path), label)
    if len(cf.army) != 1 or cf.warscroll or cf.ability or cf.lore or cf.manifestation:
        raise DataError(f"{label}: a saved army list holds one [[army]] table and nothing else")
    return cf.army[0]


@dataclass(frozen=True)
class SavedList:
    """One file in the armies folder: its list, or the problems that keep it from being read."""

    path: Path
    army: Army | None
    problems: tuple[str, ...] = ()


def saved_lists(data_dir: Path) -> list[SavedList]:
    """Every list file in `<data>/armies/`, by file name; a broken one with its problems."""
    folder = armies_dir(data_dir)
    if not folder.is_dir():
        return []
    out: list[SavedList] = []
    for p in sorted(folder.glob("*.toml")):
        if not p.is_file() or p.is_symlink():
            continue
        try:
            out.append(SavedList(p, load_list(p)))
        except DataError as exc:
            out.append(SavedList(p, None, tuple(exc.problems)))
    return out


def delete_list(path: Path) -> None:
    """Remove a saved list file (gone already is fine)."""
    Path(path).unlink(missing_ok=True)
