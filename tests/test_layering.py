"""No import cycles and no layer leaks in game/ (DESIGN.md, "Layout").

Every module under game/ is parsed with `ast`, and every import in it is read: top-level ones,
function-local ones (a local import still makes a dependency; it only delays it) and those in
class bodies or `try` blocks. Imports under `if TYPE_CHECKING:` never run; they are left out of
the cycle graph but still count as dependencies for the layer rules.

- No cycles: the graph of game.* modules has no cycle. A failure prints, for each group of
  modules caught in a loop, its shortest cycle as a chain of modules, with the file, line and
  import statement of every link.
- Layers, as DESIGN.md draws them: `ui -> ai -> rules -> geometry, data` and
  `physics -> geometry`; nothing imports ui (the CLI starts it); rules never needs physics;
  a whole game (rules and ai) runs with pygame and pymunk absent. A failure names the file, the
  line, the import and the rule it breaks.
- At run time: each game.* module is imported as the first game module of a clean interpreter
  (in a subprocess, with SDL_VIDEODRIVER=dummy), so an import cycle that only bites from one
  entry point shows as the ImportError it is.

Two short lists record what is known to be wrong and is not fixed here (each entry says why and
what would fix it). They only shrink: an entry that no longer applies fails the test, so that it
is taken out when the code is fixed.
"""

from __future__ import annotations

import ast
import json
import os
import subprocess
import sys
import textwrap
from collections import deque
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
GAME = ROOT / "game"


# --- what is known and not yet fixed ---------------------------------------------------------

# Function-local imports in game.rules that hide a cycle: hoisting any of them to the top of its
# module makes `import game.rules` fail with an ImportError (tried when this list was written).
# Left out of the graph, they leave it without a cycle. Breaking them changes the engine's insides
# (who owns the turn table, where STATE_FORMAT and BUFF_KINDS live, which module checks a
# summon): engine work, not a UI fix.
KNOWN_CYCLE_EDGES: dict[tuple[str, str], str] = {}

# Imports that break a layer rule and are not small to fix here.
KNOWN_LAYER_EXCEPTIONS: dict[tuple[str, str], str] = {}


# --- the layer rules (DESIGN.md, "Layout") ---------------------------------------------------

# The command-line side: game/cli.py, __main__.py and the modules only it uses.
APP = ("game.cli", "game.__main__", "game.argtypes", "game.sim", "game.textview")
PYGAME = ("pygame", "pygame_gui")


@dataclass(frozen=True)
class Rule:
    importer: str  # a package or module prefix
    forbidden: tuple[str, ...]  # prefixes it must not import
    why: str
    unless: tuple[str, ...] = ()  # importers the rule does not cover (prefixes)


RULES: tuple[Rule, ...] = (
    Rule("game.geometry", ("game.rules", "game.ai", "game.ui", "game.physics", "game.demos", *APP, *PYGAME, "pymunk"),
         "geometry/ is pure functions on inches, below rules and physics (rules -> geometry, physics -> geometry)"),
    Rule("game.data", ("game.rules", "game.ai", "game.ui", "game.physics", "game.demos", *APP, *PYGAME, "pymunk"),
         "data/ is below the engine (rules -> data); the data checker takes the demo checker from its caller"),
    Rule("game.physics", ("game.rules", "game.ai", "game.ui", "game.demos", *APP),
         "physics/ is a pymunk adapter on geometry (physics -> geometry); rules never needs physics"),
    Rule("game.rules", ("game.ui", "game.ai", "game.physics", "game.demos", *APP, *PYGAME, "pymunk"),
         "rules/ is pure Python: no pygame or pymunk import, ever, and it never needs physics"),
    Rule("game.ai", ("game.ui", "game.demos", "game.physics", "game.geometry", "game.data", *APP, *PYGAME, "pymunk"),
         "ai/ bots depend on rules only, and run with pygame and pymunk absent"),
    Rule("game.demos", ("game.ui", *APP),
         "demos are data and a runner on the engine; the UI shows them and exports their frames"),
    Rule("game", ("game.ui",),
         "nothing imports ui (the CLI starts it; exporters that draw frames live in ui)",
         unless=("game.ui", "game.cli")),
)

# The closure of every import (function-local ones included) from these never reaches those:
# "a whole game runs with sys.modules['pymunk'] = None, and with sys.modules['pygame'] = None for
# game.rules and game.ai".
HEADLESS = ("game.rules", "game.ai")
NEVER_REACHED = ("game.ui", "game.physics", *PYGAME, "pymunk")


# --- reading the imports ---------------------------------------------------------------------


@dataclass(frozen=True)
class Import:
    importer: str  # the module that imports
    target: str  # a game.* module of this tree, or the imported name for anything else
    path: str  # the importer's file, relative to the repository
    line: int
    text: str  # the import statement
    local: bool  # inside a function
    type_only: bool  # under `if TYPE_CHECKING:`

    def where(self) -> str:
        return f"{self.path}:{self.line}: `{self.text}`" + (" (function-local)" if self.local else "")


def _modules() -> dict[str, tuple[Path, bool]]:
    """Every module under game/ (symlinked package data included): name -> (file, is a package)."""
    mods: dict[str, tuple[Path, bool]] = {}
    for dirpath, dirnames, filenames in os.walk(GAME, followlinks=True):
        dirnames[:] = sorted(d for d in dirnames if d != "__pycache__")
        for fn in sorted(filenames):
            if not fn.endswith(".py"):
                continue
            rel = (Path(dirpath) / fn).relative_to(ROOT).with_suffix("")
            parts = list(rel.parts)
            is_pkg = parts[-1] == "__init__"
            if is_pkg:
                parts.pop()
            mods[".".join(parts)] = (Path(dirpath) / fn, is_pkg)
    return mods


MODULES = _modules()


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _known(name: str) -> str:
    """The longest prefix of a dotted game.* name that is a module of this tree."""
    parts = name.split(".")
    while parts:
        if ".".join(parts) in MODULES:
            return ".".join(parts)
        parts.pop()
    return name


def _targets(module: str, is_pkg: bool, node: ast.Import | ast.ImportFrom) -> list[str]:
    if isinstance(node, ast.Import):
        return [_known(a.name) if a.name.split(".")[0] == "game" else a.name for a in node.names]
    if node.level:
        base = module.split(".") if is_pkg else module.split(".")[:-1]
        base = base[: len(base) - (node.level - 1)]
        source = ".".join(base + ([node.module] if node.module else []))
    else:
        source = node.module or ""
    if source.split(".")[0] != "game":
        return [source]
    out = []
    for a in node.names:
        sub = f"{source}.{a.name}"
        out.append(sub if sub in MODULES else _known(source))
    return out


def _imports_of(module: str) -> list[Import]:
    path, is_pkg = MODULES[module]
    source = path.read_text(encoding="utf-8")
    tree = ast.parse(source, filename=str(path))
    found: list[Import] = []

    def visit(node: ast.AST, local: bool, type_only: bool) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.If) and _is_type_checking(child.test):
                for n in child.body:
                    visit_one(n, local, True)
                for n in child.orelse:
                    visit_one(n, local, type_only)
                continue
            visit_one(child, local, type_only)

    def visit_one(child: ast.AST, local: bool, type_only: bool) -> None:
        if isinstance(child, (ast.Import, ast.ImportFrom)):
            text = " ".join((ast.get_source_segment(source, child) or ast.unparse(child)).split())
            rel = path.relative_to(ROOT).as_posix()
            for target in _targets(module, is_pkg, child):
                if target != module:
                    found.append(Import(module, target, rel, child.lineno, text, local, type_only))
            return
        inner = local or isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda))
        visit(child, inner, type_only)

    visit(tree, False, False)
    return found


IMPORTS: list[Import] = [imp for m in MODULES for imp in _imports_of(m)]


def _under(name: str, prefix: str) -> bool:
    return name == prefix or name.startswith(prefix + ".")


def _graph(skip: frozenset[tuple[str, str]] | set[tuple[str, str]] = frozenset()) -> dict[str, dict[str, Import]]:
    """game.* module -> game.* module it imports at run time -> the first such import."""
    graph: dict[str, dict[str, Import]] = {m: {} for m in MODULES}
    for imp in IMPORTS:
        if imp.type_only or imp.target not in MODULES or (imp.importer, imp.target) in skip:
            continue
        graph[imp.importer].setdefault(imp.target, imp)
    return graph


def _path(graph: dict[str, dict[str, Import]], start: str, goal: str) -> list[Import] | None:
    """The shortest chain of imports from `start` to `goal` (breadth first), or None."""
    prev: dict[str, Import | None] = {start: None}
    queue = deque([start])
    while queue:
        m = queue.popleft()
        for target, imp in sorted(graph[m].items()):
            if target == goal:
                chain = [imp]
                while prev[m] is not None:
                    chain.append(prev[m])
                    m = prev[m].importer
                return chain[::-1]
            if target not in prev:
                prev[target] = imp
                queue.append(target)
    return None


def _cycles(graph: dict[str, dict[str, Import]]) -> list[list[Import]]:
    """One shortest cycle per strongly connected group of modules (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    groups: list[list[str]] = []
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            v, children = work[-1]
            for w in children:
                if w not in index:
                    index[w] = low[w] = len(index)
                    stack.append(w)
                    on_stack.add(w)
                    work.append((w, iter(sorted(graph[w]))))
                    break
                if w in on_stack:
                    low[v] = min(low[v], index[w])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[v])
                if low[v] == index[v]:
                    group = []
                    while True:
                        w = stack.pop()
                        on_stack.discard(w)
                        group.append(w)
                        if w == v:
                            break
                    if len(group) > 1:
                        groups.append(sorted(group))
    cycles = []
    for group in groups:
        members = set(group)
        sub = {m: {t: i for t, i in graph[m].items() if t in members} for m in group}
        best = min((c for m in group if (c := _path(sub, m, m)) is not None), key=len)
        cycles.append(best)
    return cycles


def _show_chain(chain: list[Import]) -> str:
    names = " -> ".join([chain[0].importer] + [imp.target for imp in chain])
    links = "\n".join(f"    {imp.importer} -> {imp.target}   {imp.where()}" for imp in chain)
    return f"  {names}\n{links}"


# --- the tests -------------------------------------------------------------------------------


def test_the_parser_sees_the_whole_package():
    """Guards the checks below against reading nothing: the tree, its packages and the kinds of
    import they must see (relative, function-local, type-only) are all there."""
    for pkg in ("game.rules", "game.geometry", "game.physics", "game.data", "game.ai", "game.ui", "game.demos"):
        assert pkg in MODULES and MODULES[pkg][1], f"{pkg} is not a package under {GAME}"
    assert len(MODULES) > 100, sorted(MODULES)
    assert any(imp.local and imp.target in MODULES for imp in IMPORTS)
    assert any(imp.type_only for imp in IMPORTS)
    # game/geometry/__init__.py imports its modules relatively: they resolve to game.geometry.*
    assert any(imp.importer == "game.geometry" and imp.target == "game.geometry.measure" for imp in IMPORTS)


def test_the_game_modules_import_no_cycle():
    graph = _graph(skip=set(KNOWN_CYCLE_EDGES))
    cycles = _cycles(graph)
    assert not cycles, (
        f"{len(cycles)} import cycle(s) among game modules (function-local imports count; a local import "
        "that only dodges a cycle hides it). Move the piece both sides need into its own module:\n"
        + "\n".join(_show_chain(c) for c in cycles)
    )


def test_the_known_cycles_are_still_there():
    """The KNOWN_CYCLE_EDGES list only shrinks: an edge that is gone, or that closes no loop once
    the other known edges are left out, is taken off it."""
    known = set(KNOWN_CYCLE_EDGES)
    stale = []
    for (a, b), why in sorted(KNOWN_CYCLE_EDGES.items()):
        graph = _graph(skip=known - {(a, b)})
        if b not in graph.get(a, {}):
            stale.append(f"  {a} -> {b}: {a} no longer imports {b}")
        elif _path(graph, b, a) is None:
            stale.append(f"  {a} -> {b}: {graph[a][b].where()} no longer closes a cycle")
    assert not stale, "fixed, so take these out of KNOWN_CYCLE_EDGES in tests/test_layering.py:\n" + "\n".join(stale)


def _breaks(imp: Import) -> Rule | None:
    for rule in RULES:
        if not _under(imp.importer, rule.importer) or any(_under(imp.importer, u) for u in rule.unless):
            continue
        if any(_under(imp.target, f) for f in rule.forbidden):
            return rule
    return None


def test_every_import_keeps_to_its_layer():
    leaks = []
    for imp in IMPORTS:
        rule = _breaks(imp)
        if rule is not None and (imp.importer, imp.target) not in KNOWN_LAYER_EXCEPTIONS:
            kind = " (type-only)" if imp.type_only else ""
            leaks.append(f"  {imp.where()}{kind}: {imp.importer} imports {imp.target}; {rule.why}")
    assert not leaks, "layer leaks (DESIGN.md, Layout):\n" + "\n".join(leaks)


def test_the_known_layer_exceptions_are_still_there():
    stale = []
    for (a, b), why in sorted(KNOWN_LAYER_EXCEPTIONS.items()):
        hits = [imp for imp in IMPORTS if imp.importer == a and imp.target == b and _breaks(imp)]
        if not hits:
            stale.append(f"  {a} -> {b}")
    assert not stale, "fixed, so take these out of KNOWN_LAYER_EXCEPTIONS in tests/test_layering.py:\n" + "\n".join(stale)


def test_rules_and_ai_never_reach_pygame_pymunk_physics_or_ui():
    """Through any chain of run-time imports, function-local ones included: each import that
    leads there is shown once, with the shortest chain to it from a game.rules or game.ai module."""
    graph = _graph()
    leads_out: dict[str, list[Import]] = {}
    for imp in IMPORTS:
        if not imp.type_only and any(_under(imp.target, n) for n in NEVER_REACHED):
            leads_out.setdefault(imp.importer, []).append(imp)
    starts = sorted(m for m in MODULES if any(_under(m, h) for h in HEADLESS))
    prev: dict[str, Import | None] = dict.fromkeys(starts)
    queue = deque(starts)
    leaks = []
    while queue:
        m = queue.popleft()
        for bad in leads_out.get(m, []):
            chain, at = [bad], m
            while prev[at] is not None:
                chain.append(prev[at])
                at = prev[at].importer
            leaks.append(_show_chain(chain[::-1]))
        for t, imp in sorted(graph[m].items()):
            if t not in prev and not any(_under(t, n) for n in NEVER_REACHED):
                prev[t] = imp
                queue.append(t)
    assert not leaks, (
        "game.rules or game.ai reaches pygame, pymunk, game.physics or game.ui "
        "(DESIGN: a whole game runs without them):\n" + "\n".join(leaks)
    )


# Imported on its own, game/__main__.py runs the command line and exits; its one import
# (game.cli) is imported here like every other module.
NOT_IMPORTED = {"game.__main__": "runs the CLI on import"}

_IMPORT_EACH = textwrap.dedent(
    """
    import importlib, json, sys, traceback
    root, names = sys.argv[1], json.loads(sys.stdin.read())
    failed = []
    for name in names:
        for loaded in [m for m in sys.modules if m == "game" or m.startswith("game.")]:
            del sys.modules[loaded]
        try:
            module = importlib.import_module(name)
            assert (getattr(module, "__file__", None) or "").startswith(root), (
                f"imported {module.__file__}, not the tree under test")
        except BaseException as exc:
            tb = traceback.format_exception(type(exc), exc, exc.__traceback__)
            failed.append({"module": name, "error": f"{type(exc).__name__}: {exc}",
                           "trace": "".join(tb[-6:])})
    print(json.dumps(failed))
    """
)


def test_every_game_module_imports_first_in_a_clean_interpreter():
    """Each module is imported with no game module loaded: in a fresh subprocess, and with every
    game.* module dropped from sys.modules before the next one, so that each module is the entry
    point of its own import, as in its own interpreter. Third-party packages (pygame, numpy,
    shapely, pydantic) stay loaded between modules: they cannot be part of a game.* cycle, and
    starting a new interpreter for each of some 120 modules would cost a minute."""
    names = sorted(m for m in MODULES if m not in NOT_IMPORTED)
    env = dict(os.environ, SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy",
               PYTHONPATH=os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]).rstrip(os.pathsep),
               PYGAME_HIDE_SUPPORT_PROMPT="1")
    jobs = max(1, min(4, os.cpu_count() or 1))
    chunks = [names[i::jobs] for i in range(jobs)]
    procs = [
        subprocess.Popen([sys.executable, "-c", _IMPORT_EACH, str(ROOT)], cwd=ROOT, env=env, text=True,
                         stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        for _ in chunks
    ]
    failed = []
    for proc, chunk in zip(procs, chunks):
        out, err = proc.communicate(json.dumps(chunk), timeout=600)
        assert proc.returncode == 0, f"the importing subprocess died ({proc.returncode}):\n{err[-2000:]}"
        failed += json.loads(out.strip().splitlines()[-1])
    shown = [f"  {f['module']}: {f['error']}\n{textwrap.indent(f['trace'], '      ')}" for f in failed[:3]]
    shown += [f"  {f['module']}: {f['error']}" for f in failed[3:]]
    assert not failed, f"{len(failed)} game module(s) fail to import as the first game module:\n" + "\n".join(shown)
