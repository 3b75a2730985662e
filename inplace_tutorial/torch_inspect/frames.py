"""Call sites: which line of *your* code ran an op, and which line inside torch did it.

An op is reported at the innermost frame outside torch and this package (your model, your
training loop, a notebook cell) and, when the op ran inside torch (``nn.ReLU(inplace=True)``,
an optimizer's step), at the innermost torch frame that is not dispatch plumbing. Frames are
kept as (code, line) pairs and turned into text only when a report is written.
"""
from __future__ import annotations

import linecache
import os
import sys
from dataclasses import dataclass
from types import CodeType

from ..modes import cell_name

_PKG_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__))) + os.sep
# Files inside torch that only route a call (torch-function handling, module __call__,
# decorators): never the line that "did" an op.
_PLUMBING = ("overrides.py", "_tensor.py", os.path.join("utils", "_python_dispatch.py"),
             os.path.join("utils", "_contextlib.py"), os.path.join("nn", "modules", "module.py"),
             os.path.join("autograd", "__init__.py"), os.path.join("autograd", "graph.py"),
             "_compile.py")
USER, LIBRARY, SKIP = 0, 1, 2
_kinds: dict[CodeType, int] = {}
_torch_dir: list[str] = []  # filled on first use, so importing this module never imports torch


def _torch_root() -> str:
    if not _torch_dir:
        spec_dir = os.path.dirname(os.path.abspath(sys.modules["torch"].__file__))
        _torch_dir.append(spec_dir + os.sep)
    return _torch_dir[0]


def _kind(code: CodeType) -> int:
    kind = _kinds.get(code)
    if kind is None:
        path = os.path.abspath(code.co_filename)
        root = _torch_root()
        if path.startswith(_PKG_DIR):
            kind = SKIP
        elif path.startswith(root):
            kind = SKIP if path[len(root):].startswith(_PLUMBING) else LIBRARY
        else:
            kind = USER
        _kinds[code] = kind
    return kind


@dataclass(slots=True)  # built on every recorded call: slots make that cheap
class Site:
    """One frame: where it is and how to print it."""

    code: CodeType
    line: int
    module: str | None = None  # the nn.Module whose forward this frame runs, e.g. ReLU(...)

    @property
    def filename(self) -> str:
        """``model.py`` for your files, ``torch/nn/functional.py`` inside torch, ``Cell In[3]``."""
        path = self.code.co_filename
        cell = cell_name(path)
        if cell is not None:
            return cell
        root = _torch_root() if "torch" in sys.modules else None
        if root and os.path.abspath(path).startswith(root):
            return "torch/" + os.path.relpath(os.path.abspath(path), root).replace(os.sep, "/")
        return os.path.basename(path)

    @property
    def where(self) -> str:
        return f"{self.filename}:{self.line}"

    @property
    def label(self) -> str:
        """``activation.py:143`` plus the module it belongs to, when there is one."""
        return self.where + (f" in {self.module}.forward" if self.module else "")

    @property
    def source(self) -> str:
        return linecache.getline(self.code.co_filename, self.line).strip()


def _module_of(frame) -> str | None:
    """``ReLU(inplace=True)`` when ``frame`` runs an nn.Module's forward (else None)."""
    if frame.f_code.co_name != "forward":
        return None
    mod = frame.f_locals.get("self")
    extra = getattr(mod, "extra_repr", None)
    return f"{type(mod).__name__}({extra()})" if callable(extra) else None


def call_sites(func=None, depth: int = 1) -> tuple[Site | None, Site | None]:
    """(innermost user frame, innermost torch frame below it) above the caller.

    Frames of this package are skipped.
    ``func`` is the torch function being dispatched: when it is written in Python
    (``F.relu``), its own frame only hands the call to the mode and is skipped, so the
    library frame is the line that called it (``nn.ReLU.forward``).
    """
    f = sys._getframe(depth)
    own = getattr(func, "__code__", None)
    lib = None
    kinds = _kinds
    while f is not None:
        kind = kinds.get(f.f_code)
        if kind is None:
            kind = _kind(f.f_code)
        if kind == USER:
            return Site(f.f_code, f.f_lineno), lib
        if kind == LIBRARY and lib is None and f.f_code is not own:
            lib = Site(f.f_code, f.f_lineno, _module_of(f))
        f = f.f_back
    return None, lib
