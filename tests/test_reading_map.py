"""inplace_tutorial/README.md names files and functions; every one of them must exist.

A ``file.py:name`` or ``file.py:Class.method`` reference is looked up with ``ast`` in that
file (a def, a class, or a module-level assignment); a bare ``file.py`` or ``dir/`` must
exist, in the package or else in the repository.
"""
from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

PKG = Path(__file__).resolve().parents[1] / "inplace_tutorial"
MAP = PKG / "README.md"
REF = re.compile(r"`([\w/]+\.py):([\w.]+)`")
FILE = re.compile(r"`([\w/]+\.py|[\w]+/)`")


def references() -> list[tuple[str, str]]:
    return sorted(set(REF.findall(MAP.read_text())))


def defined_names(body) -> dict[str, ast.AST]:
    names: dict[str, ast.AST] = {}
    for node in body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names[node.name] = node
        elif isinstance(node, (ast.Assign, ast.AnnAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            for t in targets:
                if isinstance(t, ast.Name):
                    names[t.id] = node
    return names


def resolves(path: Path, dotted: str) -> bool:
    scope = ast.parse(path.read_text()).body
    for part in dotted.split("."):
        node = defined_names(scope).get(part)
        if node is None:
            return False
        scope = getattr(node, "body", [])
    return True


def test_the_map_names_many_places():
    assert len(references()) >= 25


@pytest.mark.parametrize("file, name", references())
def test_reference_exists(file, name):
    path = PKG / file
    assert path.is_file(), f"{file} does not exist"
    assert resolves(path, name), f"{file} defines no {name}"


def test_named_files_and_folders_exist():
    missing = [f for f in set(FILE.findall(MAP.read_text()))
               if not (PKG / f).exists() and not (PKG.parent / f).exists()]
    assert not missing, f"the reading map names missing files: {missing}"


def test_checker_rejects_a_wrong_name(tmp_path):
    p = tmp_path / "m.py"
    p.write_text("class A:\n    def b(self):\n        pass\n\nX = 1\n")
    assert resolves(p, "A.b") and resolves(p, "X")
    assert not resolves(p, "A.c") and not resolves(p, "b")


NOTEBOOKS = PKG.parent / "notebooks" / "src"
LINK = re.compile(r"\]\((\.\./inplace_tutorial/[^)\s]*)\)")


def test_notebook_pointers_link_to_existing_files():
    """Each lesson's "Under the hood" pointer names files of the package that exist."""
    found = 0
    for src in sorted(NOTEBOOKS.glob("0[1-9]_*.py")):
        text = src.read_text()
        assert "**Under the hood:**" in text, f"{src.name} has no 'Under the hood' pointer"
        for target in LINK.findall(text):
            found += 1
            assert (NOTEBOOKS.parent / target).exists(), f"{src.name} links to missing {target}"
    assert found >= 20
