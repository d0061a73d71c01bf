"""`spellfield check FILE|DIR...`: validate map and content files, and whole content packs.

A folder is a content pack (issue 23, `game.data.library`): every TOML file in it is read, its
definitions are laid over the built-in content, and every problem is reported at once: a file
that does not parse or is neither content nor a map, a field that breaks the schema, an id that
the built-in content already has (a clash), a reference to nothing, a map whose geometry fails.
Files and folders may be mixed in one call; each folder is checked on its own.

Content files are checked in context: their cross references are resolved against the game's
embedded content, with the checked files' own definitions laid over it (so a single lore file
can be checked, and a lore naming a missing spell is reported, M8). Map files get geometric
checks too: valid terrain polygons, objectives clear of impassable terrain, one valid
deployment zone per player with every anchor inside its zone. These are the loaders' own checks
(`game.data.geocheck`, run by `load_map_data`, `load_content_data` and `load_demo`), so a file
check passes is a file every command can use, and one it refuses is refused everywhere.

Problems are errors (exit status 1). Warnings are advice and do not fail a check.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path

from game.data.content import build_content, content_warnings, default_content
from game.data.errors import DataError
from game.data.geocheck import (  # noqa: F401  (re-exported: the checks live with the loaders)
    BLOCK_BASE_MM,
    BLOCK_GAP,
    BLOCK_MODELS,
    BLOCK_ROWS,
    MIN_ANCHOR_SPACING,
    RECOMMENDED_ANCHORS,
    RECOMMENDED_OBJECTIVES,
    footprint_problems,
    map_problems,
)
from game.data.loader import (
    CONTENT_KEYS,
    detect_kind,
    label_for,
    load_content_data,
    load_map_data,
    read_toml,
)
from game.data.models import ContentFile

Checker = Callable[[Path], object]  # reads one file of its kind; raises DataError if it is bad


def check_files(
    paths: Sequence[str | os.PathLike[str]],
    warnings: list[str] | None = None,
    checkers: Mapping[str, Checker] | None = None,
) -> list[str]:
    """Every problem in the given map and content files (empty if all are fine).

    If `warnings` is given, advice that is not an error is appended to it. `checkers` read the
    kinds of file whose checks live above the data layer: `{"demo": load_demo}` (the CLI passes
    it; the data layer never imports the demonstrations).
    """
    checkers = checkers or {}
    problems: list[str] = []
    warn: list[str] = warnings if warnings is not None else []
    content_files: dict[str, ContentFile] = {}
    for path in paths:
        label = label_for(path)
        if Path(path).is_dir():
            problems += pack_problems(Path(path), warn)
            continue
        try:
            data = read_toml(path, label)
            # a demonstration has [[manifestation]] tables as content files do: recognise it first
            kind = "demo" if "demo" in data and "step" in data else detect_kind(data)
            if kind == "map":
                bm = load_map_data(data, label, warn)  # schema and geometry: the loaders' own checks
                stem = Path(label).stem
                if bm.id != stem:
                    warn.append(
                        f"{label}: map.id {bm.id!r} differs from the file name; embedded maps are found by file name"
                    )
            elif kind == "content":
                content_files[label] = load_content_data(data, label, warn)
            elif kind == "demo":
                # a rule demonstration: its schema and cross-references live with the demos
                if "demo" not in checkers:
                    problems.append(
                        f"{label}: a rule demonstration; check it with `spellfield check`, which knows them"
                    )
                else:
                    checkers["demo"](Path(path))
            elif kind == "replay":
                problems.append(
                    f"{label}: this is a replay, not a map or content file; verify it with the replay tools"
                )
            else:
                problems.append(
                    f"{label}: not a map file (no [map] table), a demonstration ([demo] and [[step]]) "
                    "or a content file (no " + ", ".join(f"[[{k}]]" for k in CONTENT_KEYS) + ")"
                )
        except DataError as e:
            problems += e.problems
        except RecursionError:
            problems.append(f"{label}: nesting too deep to check")
        except Exception as e:  # a bug, not bad data: still one line naming the file, never a traceback
            problems.append(f"{label}: internal error while checking this file: {type(e).__name__}: {e}")
    if content_files:
        problems += _content_problems(content_files, warn)
    return problems


def pack_problems(folder: Path, warn: list[str] | None = None) -> list[str]:
    """Every problem of the content pack in `folder`, checked as `--content DIR` loads it (over
    the built-in content and maps), each naming its file and field; advice goes to `warn`."""
    from game.data.library import load_library, read_pack

    found = read_pack(folder)
    if not (found.content or found.maps or found.problems):
        name = os.fspath(folder)
        return [f"{name}: is a directory with no .toml files in it (a content pack is a folder of TOML files)"]
    try:
        lib = load_library(None, [folder], strict=True)
    except DataError as e:
        return e.problems
    except RecursionError:
        return [f"{os.fspath(folder)}: nesting too deep to check"]
    if warn is not None:
        mine = {src for key, src in lib.content.sources.items() if key not in default_content().sources}
        warn.extend(w for w in content_warnings(lib.content) if any(w.startswith(f"{src}:") for src in mine))
    return []


def labels_for(paths: Sequence[str | os.PathLike[str]]) -> list[str]:
    """How each argument is named: a file as given, a folder without a trailing separator."""
    return [os.fspath(Path(p)) if Path(p).is_dir() else label_for(p) for p in paths]


def belongs(problem: str, label: str) -> bool:
    """Whether a problem line is about the file `label`, or a file in the folder `label`."""
    return problem.startswith(f"{label}:") or problem.startswith(f"{label}{os.sep}") or problem.startswith(f"{label}/")


def _content_problems(files: dict[str, ContentFile], warn: list[str]) -> list[str]:
    try:
        base = default_content()
    except DataError as e:
        base = None
        warn.append("embedded content does not load, so cross references are checked among the given files only:")
        warn.extend("  " + p for p in e.problems)
    try:
        merged = build_content(files, base=base)
    except DataError as e:
        return e.problems
    warn.extend(w for w in content_warnings(merged) if any(w.startswith(f"{label}:") for label in files))
    return []


def main(argv: list[str], checkers: Mapping[str, Checker] | None = None) -> int:
    """Check files; print "OK <file>" for each good file, else its problems. 0 if all good, else 1."""
    if not argv:
        print("usage: spellfield check FILE|DIR...", file=sys.stderr)
        return 2
    warnings: list[str] = []
    problems = check_files(argv, warnings, checkers)
    labels = labels_for(argv)
    for label in labels:
        mine = [p for p in problems if belongs(p, label)]
        if mine:
            for p in mine:
                print(p)
        else:
            print(f"OK {label}")
    for p in problems:
        if not any(belongs(p, label) for label in labels):
            print(p)
    for w in warnings:
        print(f"warning: {w}")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
