"""The shape of the house, read from the source: no circle of imports, no Python file over 800 lines.

The import graph of `tgfake` and `llmstub` is built with `ast` from every .py file, so a module never has to be
imported (or its imports run) to be checked. An edge is any import that runs: at module level, inside a function
(a local import hides a circle, it does not remove one), inside `try` or `if`. An import under
`if TYPE_CHECKING:` never runs, but a type-only circle still ties two modules together, so it is an edge too and
counted in the same graph: a layer names the types of the layers below it, never of those above.

`from package import name` is an edge to `package.name` when that is a module, else to `package` (its
`__init__`). Importing a submodule runs its package's `__init__` too; that implicit edge is not drawn, because a
package whose `__init__` gathers its own submodules would otherwise be a circle by construction.

docs/architecture.md names the layers this graph must respect.
"""

from __future__ import annotations

import ast
import os
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from types import FrameType

from tests.conftest import Wire

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("tgfake", "llmstub")
MAX_LINES = 800

# Known circles and long files, allowed only while they are being taken apart; both lists end empty. A circle is
# known by a module it passes through, a long file by its path.
KNOWN_CIRCLES: frozenset[str] = frozenset()
KNOWN_LONG_FILES: frozenset[str] = frozenset(
    {
        "benchmarks/harness.py",  # 959 lines; the benchmarks' harness, being reworked on its own branch (speed)
    }
)
# The length rule reads every Python file of the repository, not only the packages; these directories hold none of
# ours (dependencies, caches, build output) and are not walked.
NOT_OURS = frozenset({"node_modules", "__pycache__", "build", "dist", "site-packages"})


@dataclass(frozen=True)
class Edge:
    source: str
    target: str
    line: int
    kind: str  # "module", "local" (inside a function) or "typing" (under TYPE_CHECKING)


def module_files() -> dict[str, Path]:
    """Every module of the packages, by dotted name (a package by its own name)."""
    modules: dict[str, Path] = {}
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            parts = list(path.relative_to(ROOT).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            modules[".".join(parts)] = path
    return modules


def python_files() -> list[Path]:
    """Every Python file of the repository (tgfake, llmstub, tests, tools, benchmarks, examples and any directory
    added later), skipping hidden directories (.git, .venv...) and those in NOT_OURS."""
    found: list[Path] = []
    for folder, dirs, files in os.walk(ROOT):
        dirs[:] = sorted(d for d in dirs if not d.startswith(".") and d not in NOT_OURS and not d.endswith(".egg-info"))
        found.extend(Path(folder) / f for f in sorted(files) if f.endswith(".py"))
    return found


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _imports(tree: ast.AST) -> Iterator[tuple[ast.Import | ast.ImportFrom, str]]:
    """Each import statement with its kind, walking into functions, classes and branches."""

    def walk(node: ast.AST, kind: str) -> Iterator[tuple[ast.Import | ast.ImportFrom, str]]:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.Import | ast.ImportFrom):
                yield child, kind
            elif isinstance(child, ast.If) and _is_type_checking(child.test):
                for inner in child.body:
                    yield from walk(ast.Module(body=[inner], type_ignores=[]), "typing")
                for inner in child.orelse:
                    yield from walk(ast.Module(body=[inner], type_ignores=[]), kind)
            elif isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda):
                yield from walk(child, "typing" if kind == "typing" else "local")
            else:
                yield from walk(child, kind)

    yield from walk(tree, "module")


def _resolve(name: str, is_package: bool, node: ast.ImportFrom) -> str:
    """The absolute module an ImportFrom reads from."""
    if node.level == 0:
        return node.module or ""
    base = name.split(".") if is_package else name.split(".")[:-1]
    if node.level > 1:
        base = base[: len(base) - (node.level - 1)]
    return ".".join([*base, *([node.module] if node.module else [])])


def import_graph() -> tuple[dict[str, Path], list[Edge]]:
    modules = module_files()
    edges: list[Edge] = []

    def target_of(dotted: str) -> str | None:
        while dotted and dotted not in modules:
            dotted = dotted.rpartition(".")[0]
        return dotted or None

    for name, path in modules.items():
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        is_package = path.name == "__init__.py"
        for node, kind in _imports(tree):
            targets: list[str | None] = []
            if isinstance(node, ast.Import):
                targets = [target_of(alias.name) for alias in node.names]
            else:
                base = _resolve(name, is_package, node)
                for alias in node.names:
                    sub = f"{base}.{alias.name}"
                    targets.append(sub if sub in modules else target_of(base))
            for target in targets:
                if target is not None and target != name:
                    edges.append(Edge(name, target, node.lineno, kind))
    return modules, edges


def strongly_connected(nodes: list[str], edges: list[Edge]) -> list[list[str]]:
    """Tarjan's components of more than one module, iteratively (no recursion limit to meet)."""
    succ: dict[str, list[str]] = {n: [] for n in nodes}
    for e in edges:
        succ[e.source].append(e.target)
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    on_stack: set[str] = set()
    stack: list[str] = []
    components: list[list[str]] = []
    counter = 0
    for root in nodes:
        if root in index:
            continue
        work: list[tuple[str, int]] = [(root, 0)]
        while work:
            node, i = work.pop()
            if i == 0:
                index[node] = low[node] = counter
                counter += 1
                stack.append(node)
                on_stack.add(node)
            if i < len(succ[node]):
                work.append((node, i + 1))
                nxt = succ[node][i]
                if nxt not in index:
                    work.append((nxt, 0))
                elif nxt in on_stack:
                    low[node] = min(low[node], index[nxt])
                continue
            if low[node] == index[node]:
                component: list[str] = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    components.append(sorted(component))
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
    return sorted(components)


def shortest_circle(start: str, members: set[str], edges: list[Edge]) -> list[Edge]:
    """The shortest circle through `start` inside one component, as its edges (breadth first)."""
    succ: dict[str, list[Edge]] = {}
    for e in edges:
        if e.source in members and e.target in members:
            succ.setdefault(e.source, []).append(e)
    came: dict[str, Edge] = {}
    frontier = [start]
    while frontier:
        following: list[str] = []
        for node in frontier:
            for e in succ.get(node, []):
                if e.target == start:
                    path = [e]
                    while path[0].source != start:
                        path.insert(0, came[path[0].source])
                    return path
                if e.target not in came:
                    came[e.target] = e
                    following.append(e.target)
        frontier = following
    return []


def describe(component: list[str], edges: list[Edge], modules: dict[str, Path], shown: int = 8) -> str:
    """A component named by its members and its shortest circles, each edge with its file and line."""
    members = set(component)
    circles: list[list[Edge]] = []
    seen: set[frozenset[str]] = set()
    for start in component:
        circle = shortest_circle(start, members, edges)
        key = frozenset(e.source for e in circle)
        if circle and key not in seen:
            seen.add(key)
            circles.append(circle)
    circles.sort(key=len)
    lines = [f"circle of {len(component)} modules: {', '.join(component)}"]
    for circle in circles[:shown]:
        lines.append("  " + " -> ".join([circle[0].source, *(e.target for e in circle)]))
        lines.extend(
            f"      {modules[e.source].relative_to(ROOT)}:{e.line} imports {e.target} ({e.kind})" for e in circle
        )
    if len(circles) > shown:
        lines.append(f"  ... and {len(circles) - shown} more circles through these modules")
    return "\n".join(lines)


def test_graph_is_read_from_every_module() -> None:
    """The reader sees the imports it must: a guard that the graph is not empty or half-built."""
    modules, edges = import_graph()
    assert {"tgfake.stand", "tgfake.app", "tgfake.botapi", "llmstub.model"} <= set(modules)
    sources = {e.source for e in edges}
    assert "tgfake.app" in sources
    assert any(e.source == "tgfake.app" and e.target == "tgfake.stand" for e in edges)


def test_cycle_finder_names_a_circle() -> None:
    """The finder itself: a three-module ring and a self-standing pair are found, a chain is not."""
    ring = [Edge("a", "b", 1, "module"), Edge("b", "c", 1, "local"), Edge("c", "a", 1, "typing")]
    chain = [Edge("x", "y", 1, "module"), Edge("y", "z", 1, "module")]
    pair = [Edge("p", "q", 1, "module"), Edge("q", "p", 2, "module")]
    nodes = ["a", "b", "c", "x", "y", "z", "p", "q"]
    assert strongly_connected(nodes, ring + chain + pair) == [["a", "b", "c"], ["p", "q"]]


def test_relative_and_local_imports_are_edges() -> None:
    source = (
        "from typing import TYPE_CHECKING\n"
        "from . import sibling\n"
        "from ..up import thing\n"
        "if TYPE_CHECKING:\n"
        "    from pkg.types import T\n"
        "def f():\n"
        "    import pkg.lazy\n"
    )
    found = [
        (_resolve("pkg.sub.mod", False, n) if isinstance(n, ast.ImportFrom) else n.names[0].name, kind)
        for n, kind in _imports(ast.parse(source))
    ]
    assert found == [
        ("typing", "module"),
        ("pkg.sub", "module"),
        ("pkg.up", "module"),
        ("pkg.types", "typing"),
        ("pkg.lazy", "local"),
    ]


def test_no_circular_imports() -> None:
    modules, edges = import_graph()
    components = strongly_connected(sorted(modules), edges)
    unexpected = [c for c in components if not KNOWN_CIRCLES & set(c)]
    assert not unexpected, "import circles:\n" + "\n".join(describe(c, edges, modules) for c in unexpected)
    gone = {m for m in KNOWN_CIRCLES if not any(m in c for c in components)}
    assert not gone, f"no circle passes through these now; take them off KNOWN_CIRCLES: {sorted(gone)}"


def test_every_python_file_is_read_for_its_length() -> None:
    """The walk reaches every directory of ours and none of the dependencies: a guard that the length rule is not
    checking a half-empty list."""
    files = {path.relative_to(ROOT).as_posix() for path in python_files()}
    tops = {name.split("/")[0] for name in files}
    assert {"tgfake", "llmstub", "tests", "tools", "benchmarks", "examples"} <= tops
    assert {"tests/test_architecture.py", "tgfake/stand.py", "benchmarks/harness.py"} <= files
    assert {path.relative_to(ROOT).as_posix() for path in module_files().values()} <= files
    assert not [name for name in files if "node_modules" in name.split("/") or name.startswith(".")]


def test_no_source_file_over_800_lines() -> None:
    long_files = {
        path.relative_to(ROOT).as_posix(): n
        for path in python_files()
        if (n := len(path.read_text(encoding="utf-8").splitlines())) > MAX_LINES
    }
    unexpected = {p: n for p, n in long_files.items() if p not in KNOWN_LONG_FILES}
    assert not unexpected, f"files over {MAX_LINES} lines: {unexpected}"
    gone = KNOWN_LONG_FILES - set(long_files)
    assert not gone, f"these files are short now; take them off KNOWN_LONG_FILES: {sorted(gone)}"


# The layers' rule (docs/architecture.md): a module never imports one of a layer above its own.
SURFACES = ("tgfake.botapi", "tgfake.sim", "llmstub")
FACADE_AND_SERVING = (
    "tgfake.stand",
    "tgfake.app",
    "tgfake.views",
    "tgfake.outbox",
    "tgfake.sessions",
    "tgfake.delivery",
    "tgfake.server",
    "tgfake.page",
    "tgfake.testing",
    "tgfake.pytest_plugin",
    "tgfake.bdd",
    "tgfake.cli",
)
FORBIDDEN: dict[str, tuple[str, ...]] = {
    "tgfake.world": SURFACES + FACADE_AND_SERVING + ("tgfake.urlfiles", "tgfake.launches"),
    "tgfake.botapi": (
        "tgfake.sim",
        "llmstub",
        *(m for m in FACADE_AND_SERVING if m != "tgfake.outbox"),
        "tgfake.launches",
    ),
    "tgfake.stand": ("tgfake.sim", "tgfake.app", "tgfake.sessions", "tgfake.delivery", "tgfake.server"),
}


def _under(module: str, package: str) -> bool:
    return module == package or module.startswith(package + ".")


def test_no_layer_imports_one_above_it() -> None:
    """The world never imports a surface or the facade; the Bot API never the stand or the sim; the stand never the
    app that serves it. Type-only imports count (a layer names the types of the layers below it only)."""
    modules, edges = import_graph()
    wrong = [
        f"{modules[e.source].relative_to(ROOT)}:{e.line} {e.source} imports {e.target} ({e.kind})"
        for e in edges
        for layer, above in FORBIDDEN.items()
        if _under(e.source, layer) and any(_under(e.target, m) for m in above)
    ]
    assert not wrong, "imports from a layer above:\n" + "\n".join(wrong)


def _reach(edges: list[Edge]) -> dict[str, set[str]]:
    """Every module each module imports, directly or through others."""
    succ: dict[str, set[str]] = {}
    for e in edges:
        succ.setdefault(e.source, set()).add(e.target)
    reach: dict[str, set[str]] = {}
    for start in succ:
        seen: set[str] = set()
        todo = [start]
        while todo:
            for nxt in succ.get(todo.pop(), ()):
                if nxt not in seen:
                    seen.add(nxt)
                    todo.append(nxt)
        reach[start] = seen
    return reach


TRANSPORT = frozenset({"tgfake.app", "tgfake.wire", "tgfake.server"})
"""The HTTP edge: it calls the handlers registered with it, which is where a walk starts."""


async def test_a_persons_message_walks_down_to_the_bots_queue(wire: Wire) -> None:
    """``POST /sim/message`` to the bot's queue (the update pushed), as the rooms its code runs in one after the
    other, calls and returns alike: from the sim's handler on, every call goes to the caller's own module or to one
    it imports (never back up to a layer it came down from), and the stand is entered once: it hands the person's
    message to the world (tgfake/world/person.py), and the walk comes back neither to it nor to the sim before the
    bot has the update. Errands to lower rooms (a lookup, a constructor, the entity detector) return to the room
    that sent them."""
    modules, edges = import_graph()
    reach = _reach(edges)
    calls: list[tuple[str, str, str]] = []
    rooms: list[str] = []  # the module whose code runs, from the stand's entry until the update is pushed
    pushed: list[bool] = []

    def profile(frame: FrameType, event: str, arg: object) -> None:
        if event not in ("call", "return") or pushed:
            return
        here = str(frame.f_globals.get("__name__", ""))
        back = str(frame.f_back.f_globals.get("__name__", "")) if frame.f_back is not None else ""
        if event == "call" and here in modules and back in modules and here != back and back not in TRANSPORT:
            calls.append((back, here, frame.f_code.co_name))
        if (event == "call" and here == "tgfake.stand") or rooms:
            now = here if event == "call" else back
            if now in modules and now not in TRANSPORT and (not rooms or rooms[-1] != now):
                rooms.append(now)
        if event == "call" and here == "tgfake.world.bots" and frame.f_code.co_name == "push":
            pushed.append(True)

    await wire.say("warm up")  # first-use work (imports, caches) out of the walk
    sys.setprofile(profile)
    try:
        reply = await wire.say("/start", mention=True, chat_type="group")
    finally:
        sys.setprofile(None)
    assert reply["update_id"] > 0  # it reached the bot's queue
    assert pushed
    upward = [f"{caller} -> {callee}.{name}" for caller, callee, name in calls if callee not in reach.get(caller, ())]
    assert not upward, "calls back up the layers:\n" + "\n".join(upward)
    walk = " -> ".join(rooms)
    assert rooms[0] == "tgfake.stand"
    assert rooms.count("tgfake.stand") == 1, walk  # the facade hands over once (it was entered 17 times)
    assert not [room for room in rooms if room.startswith("tgfake.sim")], walk
