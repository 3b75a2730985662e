"""Every public Tensor method can be found with ``grep -rn "def NAME(" inplace_tutorial/``.

For each public attribute of Tensor (and each operator dunder the package defines), the
function behind it must be named like the attribute and be defined by a ``def NAME(`` line in
the file its code object comes from, inside inplace_tutorial/. Aliases made by assignment
(``clip = clamp``) or lambdas fail this test: write a one-line ``def`` instead.
"""
from __future__ import annotations

import inspect
import re
from pathlib import Path

import pytest

import inplace_tutorial as ipt

ROOT = Path(ipt.__file__).resolve().parent
DATA = {"dtype", "grad"}  # slots holding values, not methods
# Class bookkeeping, not methods (Python 3.13 adds __firstlineno__ and __static_attributes__).
OBJECT_PROTOCOL = {"__slots__", "__module__", "__doc__", "__weakref__", "__dict__",
                   "__firstlineno__", "__static_attributes__"}


def _function(name: str):
    attr = inspect.getattr_static(ipt.Tensor, name)
    if isinstance(attr, property):
        return attr.fget
    if isinstance(attr, (classmethod, staticmethod)):
        return attr.__func__
    return inspect.unwrap(attr)  # method_flags.py's no_arguments/keyword_only wrap the def


def public_names() -> list[str]:
    names = [n for n in dir(ipt.Tensor) if not n.startswith("_") and n not in DATA]
    dunders = [n for n in vars(ipt.Tensor) if n.startswith("__") and n.endswith("__")
               and n not in OBJECT_PROTOCOL]
    return sorted(set(names) | set(dunders))


def test_there_are_many_methods():
    assert len(public_names()) > 150  # guards against enumerating nothing


@pytest.mark.parametrize("name", public_names())
def test_method_has_a_greppable_def(name):
    fn = _function(name)
    code = getattr(fn, "__code__", None)
    assert code is not None, f"Tensor.{name} is not a Python function: {fn!r}"
    path = Path(code.co_filename).resolve()
    assert ROOT in path.parents, f"Tensor.{name} is defined outside the package: {path}"
    assert fn.__name__ == name, f"Tensor.{name} is an alias of {fn.__name__}: write a def"
    source = path.read_text()
    assert re.search(rf"^\s*def {re.escape(name)}\(", source, re.M), \
        f"no 'def {name}(' in {path.relative_to(ROOT.parent)}"
