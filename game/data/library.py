"""The content a player can play: the built-in content and maps, plus their own (issue 23).

Three places add to the built-in content, each read leniently and checked as a whole:

- content packs: every folder in `<data>/packs/`, and every folder given with `--content DIR`;
  a pack is any number of TOML files (warscrolls, abilities, lores, manifestations, armies and
  maps, in any sub-folder), laid over the built-in content;
- army lists saved by the army builder: `<data>/armies/*.toml`, each a content file with one army;
- maps: `<data>/maps/*.toml`, each a map file (made by hand or imported from Tiled).

`<data>` is the user data folder (`game.rules.saves.data_dir()`; this layer is given it).

A definition never silently replaces another: an id that the built-in content or an earlier
pack already has is a clash, named with both files. A group (a pack, a list, a map file) with
any problem is left out whole, never half-loaded, and its problems are kept in
`Library.problems`; `load_library(..., strict=True)` raises the named packs' problems all at once
instead (for `--content DIR` and `spellfield check DIR`, where the player asked for that pack).

    lib = load_library(data_dir, content_dirs=[Path("my_pack")])
    lib.content.armies["ashen_host"], lib.maps["sunken_ford"]
    game_content = lib.content_for(("emberward", "ashen_host"))
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from game.data.content import (
    KINDS,
    Content,
    build_content,
    default_content,
    list_maps,
    load_map,
)
from game.data.errors import DataError
from game.data.loader import detect_kind, load_content_data, load_map_data, read_toml
from game.data.models import BattleMap, ContentFile

#: Sub-folders of the user data folder.
PACKS_FOLDER = "packs"
ARMIES_FOLDER = "armies"
MAPS_FOLDER = "maps"

#: Most TOML files read from one pack (a real pack has a handful).
MAX_PACK_FILES = 200


@dataclass
class PackFiles:
    """What one group of files holds: content files and maps by label, and their problems."""

    name: str
    content: dict[str, ContentFile] = field(default_factory=dict)
    maps: dict[str, BattleMap] = field(default_factory=dict)
    problems: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class Library:
    """The built-in content and maps with the player's own laid over them."""

    content: Content
    maps: dict[str, BattleMap]  # id -> map, the shipped ones first
    map_sources: dict[str, str]  # id -> the file it came from
    problems: tuple[str, ...] = ()  # left-out groups' problems, each naming its file
    groups: tuple[str, ...] = ()  # names of the groups taken in, in order

    def is_builtin_army(self, army_id: str) -> bool:
        return army_id in default_content().armies

    def content_for(self, armies: Sequence[str]) -> Content:
        """The content a game between `armies` is played with: the built-in content when both are
        built-in (so that its saves and replays stay those of an install without any pack), else
        exactly what the two armies use (`content_subset`): what a save or replay of the game
        carries, so that the game's `content_hash` is the hash of the carried content."""
        if all(self.is_builtin_army(a) for a in armies):
            return default_content()
        from game.data.subset import content_subset

        return content_subset(self.content, armies)

    def battle_map(self, map_id: str) -> BattleMap:
        try:
            return self.maps[map_id]
        except KeyError:
            raise DataError(f"unknown map {map_id!r}; known maps: {', '.join(self.maps)}") from None


def _label(path: Path, root: Path | None) -> str:
    if root is not None:
        try:
            return path.relative_to(root).as_posix()
        except ValueError:
            pass
    return os.fspath(path)


def _toml_files(folder: Path) -> list[Path]:
    """Every regular *.toml file under `folder`, sorted; symbolic links are not followed."""
    found: list[Path] = []
    for dirpath, dirnames, filenames in os.walk(folder, followlinks=False):
        dirnames.sort()
        for name in sorted(filenames):
            p = Path(dirpath) / name
            if name.endswith(".toml") and p.is_file() and not p.is_symlink():
                found.append(p)
    return found


def read_files(name: str, paths: Sequence[Path], root: Path | None = None) -> PackFiles:
    """Read and validate each file (schema and geometry); a file that is neither content nor a
    map is a problem naming it."""
    pack = PackFiles(name)
    if len(paths) > MAX_PACK_FILES:
        pack.problems.append(f"{name}: {len(paths)} TOML files is over the limit of {MAX_PACK_FILES}")
        return pack
    for p in paths:
        label = _label(p, root)
        try:
            data = read_toml(p, label)
            kind = detect_kind(data)
            if kind == "map":
                pack.maps[label] = load_map_data(data, label)
            elif kind == "content":
                pack.content[label] = load_content_data(data, label)
            else:
                pack.problems.append(
                    f"{label}: not a content file ([[warscroll]], [[ability]], [[lore]], [[manifestation]] or "
                    "[[army]] arrays) or a map file (a [map] table)"
                )
        except DataError as exc:
            pack.problems += exc.problems
    return pack


def read_pack(folder: Path, root: Path | None = None) -> PackFiles:
    """One content pack: every TOML file under `folder`."""
    name = _label(folder, root)
    if not folder.is_dir():
        return PackFiles(name, problems=[f"{name}: not a folder"])
    return read_files(name, _toml_files(folder), root)


def _user_groups(data_dir: Path) -> list[PackFiles]:
    groups: list[PackFiles] = []
    packs = data_dir / PACKS_FOLDER
    if packs.is_dir():
        for sub in sorted(p for p in packs.iterdir() if p.is_dir() and not p.is_symlink()):
            groups.append(read_pack(sub, data_dir))
    for folder in (ARMIES_FOLDER, MAPS_FOLDER):
        d = data_dir / folder
        if d.is_dir():
            for f in sorted(p for p in d.glob("*.toml") if p.is_file() and not p.is_symlink()):
                groups.append(read_files(_label(f, data_dir), [f], data_dir))
    return groups


def _clashes(group: PackFiles, content_sources: Mapping[str, str], map_sources: Mapping[str, str]) -> list[str]:
    out: list[str] = []
    seen: dict[str, str] = {}
    for label, cf in group.content.items():
        for section, _attr in KINDS:
            for m in getattr(cf, section):
                key = f"{section}:{m.id}"
                if key in content_sources:
                    out.append(
                        f"{label}: {section} id {m.id!r} is already defined in {content_sources[key]}; "
                        "give it an id of its own"
                    )
                seen.setdefault(key, label)
    for label, bm in group.maps.items():
        if bm.id in map_sources:
            out.append(f"{label}: map id {bm.id!r} is already used by {map_sources[bm.id]}; give it an id of its own")
    return out


def load_library(data_dir: Path | None = None, content_dirs: Sequence[Path] = (), *, strict: bool = False) -> Library:
    """The built-in content and maps, each `content_dirs` pack and the player's own folders in
    `data_dir`, in that order. A group with a problem is left out whole; with `strict`, every
    problem of the `content_dirs` packs (the ones the player named) is raised at once as one
    `DataError`, and the user folders' problems stay in `Library.problems`."""
    base = default_content()
    map_sources: dict[str, str] = {i: f"the built-in map {i!r}" for i in list_maps()}
    maps: dict[str, BattleMap] = {i: load_map(i) for i in list_maps()}
    groups = [read_pack(Path(d)) for d in content_dirs]
    asked = len(groups)  # the packs the player named: strict applies to these
    if data_dir is not None:
        groups += _user_groups(Path(data_dir))
    accepted: dict[str, ContentFile] = {}
    content = base
    problems: list[str] = []
    asked_problems: list[str] = []
    taken: list[str] = []
    for n, g in enumerate(groups):
        found = list(g.problems) + _clashes(g, content.sources, map_sources)
        trial = content
        if g.content:  # with clashes and unreadable files too: every problem of the pack at once
            try:
                trial = build_content({**accepted, **g.content}, base=base)
            except DataError as exc:
                found += exc.problems
        if found:
            problems += found
            if n < asked:
                asked_problems += found
            continue
        accepted.update(g.content)
        content = trial
        for label, bm in g.maps.items():
            maps[bm.id] = bm
            map_sources[bm.id] = label
        taken.append(g.name)
    if strict and asked_problems:
        raise DataError(asked_problems)
    return Library(content, maps, map_sources, tuple(problems), tuple(taken))


# --- the library the front end plays with ------------------------------------------------------

_active: Library | None = None
_active_args: tuple[Path | None, tuple[Path, ...]] = (None, ())


def set_active(library: Library | None, data_dir: Path | None = None, content_dirs: Sequence[Path] = ()) -> None:
    """Make `library` the one the menus offer and games are built from (None: built-in only);
    `data_dir` and `content_dirs` are what it was loaded from, for `reload`."""
    global _active, _active_args
    _active = library
    _active_args = (data_dir, tuple(content_dirs))


def reload() -> Library:
    """Read the active library's folders again (after the army builder saves a list or a map is
    imported), leniently: a broken file is left out and named in `problems`."""
    data_dir, dirs = _active_args
    lib = load_library(data_dir, dirs)
    set_active(lib, data_dir, dirs)
    return lib


def active() -> Library:
    """The library set by `set_active`, else the built-in content and maps alone."""
    global _active
    if _active is None:
        _active = load_library()
    return _active
