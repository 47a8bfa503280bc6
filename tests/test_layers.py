"""The package's layers, read from its source: every import points down the
declared order (or stays inside its own layer), no modules import each other
in a circle, and ``import solver`` loads none of the heavy libraries."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "solver"

# lowest first; a module may import its own layer and the layers before it
LAYERS = [
    ("solver.deadline", "solver.errors", "solver.files", "solver.options", "solver.version"),
    ("solver.core",),
    ("solver.puzzle",),
    ("solver.formats",),
    ("solver.drawing",),
    ("solver.kernels", "solver.cluster"),
    ("solver.packing", "solver.cpsat"),  # two engines side by side: neither imports the other
    ("solver.hybrid",),
    ("solver.solving", "solver.engine_choice"),
    ("solver.endgame", "solver.generate"),  # endgames and challenge making: neither imports the other
    ("solver.warmup",),  # runs an engine of each kind
    ("solver.cli", "solver.__main__", "solver.terminal"),
]
PEERS_APART = [("solver.packing", "solver.cpsat"), ("solver.kernels", "solver.cluster"), ("solver.endgame", "solver.generate")]
# the notebook hooks: a position or puzzle draws itself in Jupyter, importing drawing when asked to
UPWARD_ALLOWED = {("solver.core.position", "solver.drawing.render"), ("solver.puzzle.definition", "solver.drawing.render")}
HEAVY = ("ortools", "matplotlib", "numba", "dask", "distributed")


def module_name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imports(path: Path, modules: set[str]) -> set[str]:
    """The package modules ``path`` imports, at the top or inside functions
    (``TYPE_CHECKING`` imports included: they are arrows a reader follows).
    ``from solver.x import y`` imports module ``solver.x.y`` where there is
    one, else names of ``solver.x``."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("solver"):
            assert node.level == 0, f"{path}: relative import"
            for alias in node.names:
                child = f"{node.module}.{alias.name}"
                found.add(child if child in modules else node.module)
        elif isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names if alias.name.startswith("solver"))
    return found


def graph() -> dict[str, set[str]]:
    modules = {module_name(p): p for p in PACKAGE.rglob("*.py")}
    return {name: {m for m in imports(path, set(modules)) if m in modules and m != name}
            for name, path in modules.items()}


def layer_of(module: str) -> int:
    for index, prefixes in enumerate(LAYERS):
        if any(module == p or module.startswith(p + ".") for p in prefixes):
            return index
    raise AssertionError(f"{module} is in no layer")


def group_of(module: str) -> str:
    return ".".join(module.split(".")[:2])


def test_every_module_of_the_package_is_in_a_layer():
    for module in graph():
        if module != "solver":  # the package's face, on top of everything
            layer_of(module)


def test_imports_point_down_the_layers():
    upward = []
    for module, targets in graph().items():
        if module == "solver":
            continue
        for target in targets:
            if target == "solver":
                upward.append((module, target))
            elif layer_of(target) > layer_of(module) and (module, target) not in UPWARD_ALLOWED:
                upward.append((module, target))
    assert upward == []


@pytest.mark.parametrize("a, b", PEERS_APART)
def test_peer_layers_do_not_import_each_other(a, b):
    crossing = [(m, t) for m, ts in graph().items() for t in ts
                if {group_of(m), group_of(t)} == {a, b}]
    assert crossing == []


def test_no_modules_import_each_other_in_a_circle():
    edges = {m: {t for t in ts if (m, t) not in UPWARD_ALLOWED and t != "solver"} for m, ts in graph().items()}
    edges = {m: ts - ({m.rsplit(".", 1)[0]} if m.count(".") > 1 else set()) for m, ts in edges.items()}
    state: dict[str, int] = {}
    circles = []

    def visit(node: str, path: list[str]) -> None:
        state[node] = 1
        for nxt in sorted(edges.get(node, ())):
            if state.get(nxt) == 1:
                circles.append(path[path.index(nxt):] + [nxt] if nxt in path else [node, nxt])
            elif nxt not in state:
                visit(nxt, path + [nxt])
        state[node] = 2

    for module in sorted(edges):
        if module not in state:
            visit(module, [module])
    assert circles == []


def test_import_solver_loads_no_engine_library():
    code = f"import sys, solver; print(sorted(m for m in {HEAVY!r} if m in sys.modules))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out == "[]\n"
