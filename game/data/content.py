"""Merge content files into one `Content` and check every cross reference (M8, M9).

`load_content()` with no arguments reads the game's embedded `game/content/*.toml` through
`importlib.resources`, so it works from a source tree and from a plain `pip install .`.
Maps ship the same way as package `game.maps` (the top-level `maps/` directory).
"""

from __future__ import annotations

import functools
import hashlib
import json
import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from importlib import resources
from importlib.resources.abc import Traversable
from pathlib import Path

from pydantic import BaseModel

from game.data.errors import DataError
from game.data.loader import load_content_file, load_map_file
from game.data.models import Ability, Army, BattleMap, ContentFile, Lore, ManifestationScroll, Warscroll

#: The map used when none is chosen.
DEFAULT_MAP = "ashfall_crossing"
#: The armies used when none are chosen: player 1, player 2.
DEFAULT_ARMIES = ("emberward", "mirecourt")

CONTENT_PACKAGE = "game.content"
MAPS_PACKAGE = "game.maps"

# Section name in a content file -> Content attribute.
KINDS = (
    ("warscroll", "warscrolls"),
    ("ability", "abilities"),
    ("lore", "lores"),
    ("manifestation", "manifestations"),
    ("army", "armies"),
)


@dataclass(frozen=True)
class Content:
    """All game content, by id. Equality and hashing use `content_hash` only.

    `sources` maps "kind:id" (e.g. "lore:lore_of_cinders") to the file that defined it.
    """

    warscrolls: dict[str, Warscroll] = field(compare=False)
    abilities: dict[str, Ability] = field(compare=False)
    lores: dict[str, Lore] = field(compare=False)
    manifestations: dict[str, ManifestationScroll] = field(compare=False)
    armies: dict[str, Army] = field(compare=False)
    content_hash: str = ""
    sources: dict[str, str] = field(default_factory=dict, compare=False, repr=False)

    def __hash__(self) -> int:
        return hash(self.content_hash)

    def known_abilities(self, army: Army, warscroll: Warscroll) -> list[Ability]:
        """What a unit of `army` knows (M8): its warscroll's spells (if a WIZARD) and prayers
        (if a PRIEST), plus matching abilities of the army's spell/prayer/manifestation lores."""
        ids: list[str] = []
        if warscroll.wizard_level:
            ids += warscroll.spells
        if warscroll.priest_level:
            ids += warscroll.prayers
        for lore_id in (army.spell_lore, army.prayer_lore, army.manifestation_lore):
            if lore_id and lore_id in self.lores:
                ids += self.lores[lore_id].abilities
        out: list[Ability] = []
        for i in dict.fromkeys(ids):
            a = self.abilities.get(i)
            if a is None:
                continue
            if (a.kind == "spell" and warscroll.wizard_level) or (a.kind == "prayer" and warscroll.priest_level):
                out.append(a)
        return out


def content_hash(parts: Mapping[str, Mapping[str, BaseModel]]) -> str:
    """sha256 of the canonical JSON (sorted keys, compact) of every model, by kind and id."""
    canonical = {
        kind: {i: m.model_dump(mode="json") for i, m in sorted(models.items())}
        for kind, models in sorted(parts.items())
    }
    text = json.dumps(canonical, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def build_content(files: Mapping[str, ContentFile], base: Content | None = None) -> Content:
    """Merge content files (label -> parsed file) and check all cross references.

    Every problem is collected before raising one `DataError`. With `base`, the files are laid
    over it: a definition in `files` replaces the base's definition with the same id, and the
    merged whole is checked (used by `spellfield check` to check one file in context).
    """
    problems: list[str] = []
    merged: dict[str, dict[str, BaseModel]] = {attr: {} for _, attr in KINDS}
    sources: dict[str, str] = {}
    if base is not None:
        for section, attr in KINDS:
            for i, m in getattr(base, attr).items():
                merged[attr][i] = m
                sources[f"{section}:{i}"] = base.sources.get(f"{section}:{i}", "embedded content")
    seen: dict[str, str] = {}
    for label, cf in files.items():
        for section, attr in KINDS:
            for m in getattr(cf, section):
                key = f"{section}:{m.id}"
                if key in seen:
                    where = "twice in that file" if seen[key] == label else f"first in {seen[key]}"
                    problems.append(f"{label}: duplicate {section} id {m.id!r} (defined {where})")
                    continue
                seen[key] = label
                merged[attr][m.id] = m
                sources[key] = label
    problems += cross_reference_problems(merged, sources)
    if problems:
        raise DataError(problems)
    return Content(
        warscrolls=merged["warscrolls"],  # type: ignore[arg-type]
        abilities=merged["abilities"],  # type: ignore[arg-type]
        lores=merged["lores"],  # type: ignore[arg-type]
        manifestations=merged["manifestations"],  # type: ignore[arg-type]
        armies=merged["armies"],  # type: ignore[arg-type]
        content_hash=content_hash(merged),
        sources=sources,
    )


def cross_reference_problems(merged: Mapping[str, Mapping[str, BaseModel]], sources: Mapping[str, str]) -> list[str]:
    """Every broken reference between warscrolls, abilities, lores, manifestations and armies."""
    warscrolls: Mapping[str, Warscroll] = merged["warscrolls"]  # type: ignore[assignment]
    abilities: Mapping[str, Ability] = merged["abilities"]  # type: ignore[assignment]
    lores: Mapping[str, Lore] = merged["lores"]  # type: ignore[assignment]
    manifestations: Mapping[str, ManifestationScroll] = merged["manifestations"]  # type: ignore[assignment]
    armies: Mapping[str, Army] = merged["armies"]  # type: ignore[assignment]
    problems: list[str] = []

    def at(section: str, i: str) -> str:
        return f"{sources.get(f'{section}:{i}', '<content>')}: {section} {i!r}"

    # Abilities: summon effects name a manifestation of the right kind (M9).
    for a in abilities.values():
        for j, e in enumerate(a.effects):
            if e.handler != "summon":
                continue
            m = manifestations.get(e.manifestation or "")
            if m is None:
                problems.append(
                    f"{at('ability', a.id)}: effects[{j}]: summons unknown manifestation {e.manifestation!r}"
                )
            elif a.kind == "spell" and m.kind != "endless_spell":
                problems.append(
                    f"{at('ability', a.id)}: effects[{j}]: a spell summons endless spells, "
                    f"but {m.id!r} is an {m.kind} (M9)"
                )
            elif a.kind == "prayer" and m.kind != "invocation":
                problems.append(
                    f"{at('ability', a.id)}: effects[{j}]: a prayer summons invocations, "
                    f"but {m.id!r} is an {m.kind} (M9)"
                )

    # Lores (M8): abilities exist, match the lore's kind; manifestation lores summon.
    for lore in lores.values():
        if len(set(lore.abilities)) != len(lore.abilities):
            dup = sorted({x for x in lore.abilities if lore.abilities.count(x) > 1})
            problems.append(f"{at('lore', lore.id)}: abilities lists {', '.join(map(repr, dup))} more than once")
        for j, aid in enumerate(lore.abilities):
            held = abilities.get(aid)
            if held is None:
                problems.append(f"{at('lore', lore.id)}: abilities[{j}]: no spell or prayer has id {aid!r} (M8)")
            elif lore.kind == "manifestation":
                if held.summons is None:
                    problems.append(
                        f"{at('lore', lore.id)}: abilities[{j}]: {aid!r} has no summon effect; "
                        "a manifestation lore holds only summoning spells and prayers (M9)"
                    )
            elif held.kind != lore.kind:
                problems.append(
                    f"{at('lore', lore.id)}: abilities[{j}]: {aid!r} is a {held.kind}, "
                    f"but this is a {lore.kind} lore (M8)"
                )

    # Warscrolls: their own spells and prayers exist and have the right kind (M8).
    for w in warscrolls.values():
        for field_name, kind in (("spells", "spell"), ("prayers", "prayer")):
            for j, aid in enumerate(getattr(w, field_name)):
                known = abilities.get(aid)
                if known is None:
                    problems.append(f"{at('warscroll', w.id)}: {field_name}[{j}]: no {kind} has id {aid!r} (M8)")
                elif known.kind != kind:
                    problems.append(
                        f"{at('warscroll', w.id)}: {field_name}[{j}]: {aid!r} is a {known.kind}, not a {kind} (M8)"
                    )

    # Manifestations: passing across may not summon.
    for m in manifestations.values():
        for j, e in enumerate(m.pass_across):
            if e.handler == "summon":
                problems.append(
                    f"{at('manifestation', m.id)}: pass_across[{j}]: "
                    "a manifestation cannot summon when it passes across a unit"
                )

    # Armies: units exist; one lore of each kind, of that kind (M8).
    for army in armies.values():
        for j, u in enumerate(army.units):
            if u.warscroll not in warscrolls:
                problems.append(f"{at('army', army.id)}: units[{j}]: unknown warscroll {u.warscroll!r}")
        for field_name, kind in (
            ("spell_lore", "spell"),
            ("prayer_lore", "prayer"),
            ("manifestation_lore", "manifestation"),
        ):
            lid = getattr(army, field_name)
            if lid is None:
                continue
            chosen = lores.get(lid)
            if chosen is None:
                problems.append(f"{at('army', army.id)}: {field_name}: unknown lore {lid!r} (M8)")
            elif chosen.kind != kind:
                problems.append(
                    f"{at('army', army.id)}: {field_name}: {lid!r} is a {chosen.kind} lore, not a {kind} lore (M8)"
                )
    return problems


def content_warnings(content: Content) -> list[str]:
    """Things that are legal but probably mistakes (reported by `spellfield check`, not errors)."""
    out: list[str] = []
    src = content.sources
    for army in content.armies.values():
        label = f"{src.get(f'army:{army.id}', '<content>')}: army {army.id!r}"
        g = content.warscrolls.get(army.units[army.general].warscroll)
        if g is not None and not g.has("HERO"):
            out.append(f"{label}: general: unit {army.general} ({g.id!r}) is not a HERO")
    return out


# --- embedded files -------------------------------------------------------------------------


def _toml_resources(package: str) -> list[Traversable]:
    root = resources.files(package)
    return sorted((r for r in root.iterdir() if r.name.endswith(".toml") and r.is_file()), key=lambda r: r.name)


def embedded_content_files() -> dict[str, ContentFile]:
    """Parse every embedded game/content/*.toml (label -> file); all problems at once."""
    files: dict[str, ContentFile] = {}
    problems: list[str] = []
    for r in _toml_resources(CONTENT_PACKAGE):
        label = f"game/content/{r.name}"
        try:
            files[label] = load_content_file(r, label)
        except DataError as e:
            problems += e.problems
    if problems:
        raise DataError(problems)
    return files


def load_content(paths: Sequence[str | os.PathLike[str]] | None = None) -> Content:
    """Load and check content. No paths: the embedded game/content/*.toml. With paths: exactly
    those files (not merged with the embedded content). Raises `DataError` listing every problem."""
    if paths is None:
        return build_content(embedded_content_files())
    files: dict[str, ContentFile] = {}
    problems: list[str] = []
    for p in paths:
        label = os.fspath(p)
        try:
            files[label] = load_content_file(p, label)
        except DataError as e:
            problems += e.problems
    if problems:
        raise DataError(problems)
    return build_content(files)


@functools.cache
def default_content() -> Content:
    """The embedded content, loaded once."""
    return load_content()


# --- maps -----------------------------------------------------------------------------------


def list_maps() -> list[str]:
    """Ids of the embedded maps (a map's file is `<id>.toml`)."""
    return [r.name[: -len(".toml")] for r in _toml_resources(MAPS_PACKAGE)]


def load_map(name_or_path: str | os.PathLike[str]) -> BattleMap:
    """Load an embedded map by id (e.g. DEFAULT_MAP), or a map file by path."""
    if isinstance(name_or_path, str) and name_or_path in list_maps():
        return _embedded_map(name_or_path)
    looks_like_path = (
        not isinstance(name_or_path, str) or any(c in name_or_path for c in "/\\") or name_or_path.endswith(".toml")
    )
    if looks_like_path or Path(name_or_path).is_file():
        return load_map_file(name_or_path)
    raise DataError(f"unknown map {name_or_path!r}; embedded maps: {', '.join(list_maps()) or 'none'}")


@functools.cache
def _embedded_map(name: str) -> BattleMap:
    r = resources.files(MAPS_PACKAGE) / f"{name}.toml"
    return load_map_file(r, f"maps/{name}.toml")
