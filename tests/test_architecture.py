"""The tree is the architecture: layers as packages, imports only go down, no cycles.

Every ``duetbot`` import in the package (top-level and inside functions; not those under
``if TYPE_CHECKING:``) is an edge of the module graph. A module may import its own package's
modules and any module of a lower layer, never one of a higher layer; and the module graph has
no cycle, lazy imports included (a lazy import still ties two modules together), nor has it
once the imports under ``if TYPE_CHECKING:`` are added (a type a module only names still
makes it depend on the module that defines it).
"""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "src" / "duetbot"

#: Lowest first. Layer 0 knows nothing of the others; the CLI is the only top.
LAYERS: tuple[tuple[str, ...], ...] = (
    ("", "jsonio", "lru", "words"),
    ("wordpool", "rules"),
    ("views", "records", "embeddings"),
    ("bots", "build"),
    ("harness",),
    ("simulation", "suggest", "saves", "photo"),
    ("web",),
    ("cli",),
    ("__main__",),
)
RANK = {name: i for i, layer in enumerate(LAYERS) for name in layer}


def module_name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _nodes(tree: ast.AST, type_checking: bool):
    """Every node; without ``type_checking``, not those under ``if TYPE_CHECKING:``."""
    stack = [tree]
    while stack:
        node = stack.pop()
        if (not type_checking and isinstance(node, ast.If)
                and getattr(node.test, "id", getattr(node.test, "attr", None)) == "TYPE_CHECKING"):
            stack.extend(node.orelse)
            continue
        yield node
        stack.extend(ast.iter_child_nodes(node))


def import_graph(type_checking: bool = False) -> dict[str, set[str]]:
    """Module -> the package's modules it imports (with ``type_checking``, also those it
    imports only under ``if TYPE_CHECKING:``)."""
    files = {module_name(p): p for p in PACKAGE.rglob("*.py")}
    graph: dict[str, set[str]] = {}
    for mod, path in files.items():
        package = mod if path.name == "__init__.py" else mod.rpartition(".")[0]
        out: set[str] = set()
        for node in _nodes(ast.parse(path.read_text(encoding="utf-8")), type_checking):
            if isinstance(node, ast.ImportFrom):
                if node.level:
                    base = package.split(".")[: len(package.split(".")) - node.level + 1]
                    target = ".".join(base + ([node.module] if node.module else []))
                else:
                    target = node.module or ""
                names = [f"{target}.{a.name}" for a in node.names]
                hits = [n for n in names if n in files]
                if hits:
                    out.update(hits)  # `from . import store` imports the module store
                if target in files and len(hits) < len(names):
                    out.add(target)
            elif isinstance(node, ast.Import):
                out.update(a.name for a in node.names if a.name in files)
        out.discard(mod)
        graph[mod] = out
    return graph


def layer_of(mod: str) -> tuple[str, int]:
    top = mod.split(".")[1] if "." in mod else ""
    if top not in RANK:
        pytest.fail(f"module {mod} is in no layer; add its package {top!r} to LAYERS")
    return top, RANK[top]


def test_imports_only_go_down_the_layers():
    upward = []
    for mod, targets in sorted(import_graph().items()):
        pkg, rank = layer_of(mod)
        for t in sorted(targets):
            tpkg, trank = layer_of(t)
            if tpkg != pkg and trank >= rank:
                upward.append(f"{mod} -> {t}")
    assert not upward, "imports that do not go down a layer:\n" + "\n".join(upward)


def find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """A cycle of ``graph`` as a path that ends where it starts, or ``None``."""
    state: dict[str, int] = {}
    path: list[str] = []

    def visit(m: str) -> list[str] | None:
        state[m] = 1
        path.append(m)
        for t in sorted(graph[m]):
            if state.get(t) == 1:
                return path[path.index(t):] + [t]
            if t not in state and (cycle := visit(t)):
                return cycle
        state[m] = 2
        path.pop()
        return None

    for m in sorted(graph):
        if m not in state and (cycle := visit(m)):
            return cycle
    return None


def test_the_module_graph_has_no_cycle():
    cycle = find_cycle(import_graph())
    assert cycle is None, "import cycle: " + " -> ".join(cycle)


def test_no_cycle_through_type_checking_imports():
    cycle = find_cycle(import_graph(type_checking=True))
    assert cycle is None, "import cycle (type-checking imports included): " + " -> ".join(cycle)


def test_find_cycle_finds_one():
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == ["a", "b", "c", "a"]
    assert find_cycle({"a": {"b"}, "b": set(), "c": {"a", "b"}}) is None


def test_the_graph_sees_lazy_and_relative_imports():
    """The checker itself: a lazy import inside a function and ``from . import x`` are edges."""
    graph = import_graph()
    assert "duetbot.simulation" in graph["duetbot.cli.common"]  # imported inside a function
    assert "duetbot.embeddings.store" in graph["duetbot.embeddings.model"]  # from . import store
    assert "duetbot.bots" not in graph["duetbot.saves"]  # TYPE_CHECKING only
    assert "duetbot.bots" in import_graph(type_checking=True)["duetbot.saves"]


def test_nothing_at_run_time_imports_the_builds():
    """Building and importing models is maintainer work in ``duetbot.build``: only the
    ``models build`` / ``models import`` commands import it (inside the command)."""
    importers = sorted(f"{mod} -> {t}" for mod, targets in import_graph().items() for t in targets
                       if (t == "duetbot.build" or t.startswith("duetbot.build."))
                       and not mod.startswith("duetbot.build") and mod != "duetbot.cli.models")
    assert not importers, "run-time modules that import the builds:\n" + "\n".join(importers)
    assert "duetbot.build.targets" in import_graph()["duetbot.cli.models"]


#: What would load code or data past the import graph: a module found by name or by file, the
#: repository's scripts, the data beside the checkout.
HIDDEN_REACH = ("import_module(", "spec_from_file_location", "__import__(", "exec_module", "run_path(",
                "\"scripts\"", "scripts/", "\"shared\"", "../shared")


def test_no_module_reaches_past_the_import_graph():
    """The layer check reads import statements; a module loaded through importlib, a script
    of the checkout or a file beside it would be an edge it cannot see."""
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            found += [f"{path.relative_to(PACKAGE.parent)}:{n}: {hit}" for hit in HIDDEN_REACH if hit in line]
    assert not found, "\n".join(found)


def test_the_command_starts_without_the_bots():
    """``duetbot --help`` and every error before a run need no numpy, no models, no bots:
    the commands import them when they start work (issue 17: start-up)."""
    code = "import sys, duetbot.cli; print(sorted(m for m in ('numpy', 'duetbot.bots.factory', 'msgspec') if m in sys.modules))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"
