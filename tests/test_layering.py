"""The package's layers only point down: no import cycle, no private name across packages.

Reads ``inplace_tutorial/`` with ``ast`` (nothing is imported). Every import counts, including
one inside a function; only imports under ``if TYPE_CHECKING:`` are left out, because they
never run. Importing ``a.b.c`` runs ``a/b/__init__.py`` first, so it depends on the package
``a.b`` too, unless that package is one of the importer's own parents (Python has already
started those).
"""
from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1] / "inplace_tutorial"
PKG = "inplace_tutorial"


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def all_modules() -> dict[str, Path]:
    return {module_name(p): p for p in sorted(ROOT.rglob("*.py"))}


def is_package(name: str, modules: dict[str, Path]) -> bool:
    return name in modules and modules[name].name == "__init__.py"


def package_of(name: str, modules: dict[str, Path]) -> str:
    return name if is_package(name, modules) else name.rpartition(".")[0]


def _type_checking_block(node: ast.AST) -> bool:
    test = getattr(node, "test", None)
    return isinstance(node, ast.If) and (
        (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING")
        or (isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"))


def _walk(tree: ast.AST):
    """ast.walk, minus the bodies of ``if TYPE_CHECKING:`` blocks."""
    todo = [tree]
    while todo:
        node = todo.pop()
        yield node
        for child in ast.iter_child_nodes(node):
            if _type_checking_block(child):
                todo.extend(child.orelse)
                continue
            todo.append(child)


def _resolve(importer: str, level: int, target: str | None, modules) -> str:
    if level == 0:
        return target or ""
    base = package_of(importer, modules).split(".")
    base = base[: len(base) - (level - 1)]
    return ".".join(base + ([target] if target else []))


def imports_of(name: str, modules: dict[str, Path]):
    """(imported module, [(name imported from it, lineno)]) for each import statement, and
    the module objects bound to local names (for ``module._private`` attribute reads)."""
    tree = ast.parse(modules[name].read_text(), str(modules[name]))
    found: list[tuple[str, list[tuple[str, int]]]] = []
    bound: dict[str, str] = {}
    for node in _walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.startswith(PKG):
                    found.append((alias.name, []))
                    if alias.asname:
                        bound[alias.asname] = alias.name
        elif isinstance(node, ast.ImportFrom):
            src = _resolve(name, node.level, node.module, modules)
            if not src.startswith(PKG):
                continue
            names = []
            for alias in node.names:
                sub = f"{src}.{alias.name}"
                if sub in modules:  # `from . import memory` imports a module
                    found.append((sub, []))
                    bound[alias.asname or alias.name] = sub
                else:
                    names.append((alias.name, node.lineno))
            found.append((src, names))
    return found, bound, tree


def dependencies(name: str, modules: dict[str, Path]) -> set[str]:
    deps = set()
    parents = {".".join(name.split(".")[:i]) for i in range(1, name.count(".") + 1)}
    if is_package(name, modules):
        parents.add(name)
    for target, _ in imports_of(name, modules)[0]:
        parts = target.split(".")
        for i in range(1, len(parts) + 1):
            prefix = ".".join(parts[:i])
            if prefix in modules and prefix not in parents and prefix != name:
                deps.add(prefix)
    return deps


def import_graph() -> dict[str, set[str]]:
    modules = all_modules()
    return {name: dependencies(name, modules) for name in modules}


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components with more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    out: list[list[str]] = []
    counter = [0]

    def visit(v: str) -> None:
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on_stack.add(v)
        for w in graph.get(v, ()):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1 or v in graph.get(v, ()):
                out.append(sorted(comp))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return out


def private_imports() -> list[str]:
    """`from other_package.mod import _name`, `from other_package import _module`, or
    `mod._name` on a module from another package."""
    modules = all_modules()
    bad = []
    for name in modules:
        here = package_of(name, modules) if not is_package(name, modules) else name
        found, bound, tree = imports_of(name, modules)
        for src, names in found:
            src_pkg = package_of(src, modules) if src in modules else src.rpartition(".")[0]
            if src_pkg == here:
                continue
            last = src.rpartition(".")[2]
            if src in modules and last.startswith("_") and not last.startswith("__"):
                bad.append(f"{name} imports the private module {src}")
            for imported, line in names:
                if imported.startswith("_") and not imported.startswith("__"):
                    bad.append(f"{name}:{line} imports {imported} from {src}")
        for node in _walk(tree):
            if (isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name)
                    and node.value.id in bound and node.attr.startswith("_")
                    and not node.attr.startswith("__")):
                mod = bound[node.value.id]
                mod_pkg = mod if is_package(mod, modules) else package_of(mod, modules)
                if mod_pkg != here:
                    bad.append(f"{name}:{node.lineno} reads {node.value.id}.{node.attr} "
                               f"from {mod}")
    return sorted(set(bad))


def test_no_import_cycles():
    found = cycles(import_graph())
    assert not found, "import cycles:\n" + "\n".join(" <-> ".join(c) for c in found)


def test_no_private_names_across_packages():
    bad = private_imports()
    assert not bad, "private names used outside their package:\n" + "\n".join(bad)


# --------------------------------------------------------------------------- the checker itself
def _graph_from(sources: dict[str, str], tmp_path: Path, monkeypatch) -> dict[str, set[str]]:
    root = tmp_path / PKG
    for rel, text in sources.items():
        p = root / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(text)
    monkeypatch.setitem(globals(), "ROOT", root)
    return import_graph()


@pytest.mark.parametrize("b_source, cyclic", [
    ("def f():\n    from . import a\n", True),                     # inside a function counts
    ("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from . import a\n", False),
    ("x = 1\n", False),
])
def test_checker_sees_function_imports_and_ignores_type_checking(b_source, cyclic, tmp_path,
                                                                 monkeypatch):
    graph = _graph_from({"__init__.py": "", "a.py": "from . import b\n", "b.py": b_source},
                        tmp_path, monkeypatch)
    assert bool(cycles(graph)) == cyclic


def test_checker_counts_the_package_init_it_runs(tmp_path, monkeypatch):
    graph = _graph_from({"__init__.py": "", "low.py": "from .sub.leaf import x\n",
                         "sub/__init__.py": "from .mid import y\n",
                         "sub/mid.py": "from ..low import z\n", "sub/leaf.py": "x = 1\n"},
                        tmp_path, monkeypatch)
    assert cycles(graph) == [["inplace_tutorial.low", "inplace_tutorial.sub",
                              "inplace_tutorial.sub.mid"]]


def test_checker_finds_private_names(tmp_path, monkeypatch):
    _graph_from({"__init__.py": "", "low.py": "_hidden = 1\n",
                 "sub/__init__.py": "", "sub/a.py": "from ..low import _hidden\n",
                 "sub/b.py": "from .. import low\ny = low._hidden\n",
                 "c.py": "from .low import _hidden\n"},  # same package: fine
                tmp_path, monkeypatch)
    assert private_imports() == [
        "inplace_tutorial.sub.a:1 imports _hidden from inplace_tutorial.low",
        "inplace_tutorial.sub.b:2 reads low._hidden from inplace_tutorial.low"]
