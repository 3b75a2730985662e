"""torch 2.13's signatures of each Tensor method, as its argument parser prints them.

``data/torch_signatures.json`` (tools/gen_torch_signatures.py reads it out of torch) lists, per
method, the overloads PyTorch's binding shows in an "invalid combination of arguments" error
(``add``: ``Tensor other, *, Number alpha = 1``) and the hidden ones it still accepts
(deprecated forms such as ``add(2, y)``). This module knows no tensor: it reads the table and
the parameters of a printed signature; arg_parser.py binds calls and words refusals with it.
"""
from __future__ import annotations

import functools
import json
import re
from pathlib import Path

from .warn_once import warn_once

DATA = Path(__file__).parent / "data" / "torch_signatures.json"
FUNCTIONS = Path(__file__).parent / "data" / "torch_function_signatures.json"

# FunctionParameter::type_name: the parser's C++ type -> the name its messages print
PRINTED_TYPE = {
    "Tensor": "Tensor", "Scalar": "Number", "int64_t": "int", "SymInt": "int",
    "double": "float", "complex": "complex", "TensorList": "tuple of Tensors",
    "c10::List<::std::optional<Tensor>>": "tuple of Tensors", "IntArrayRef": "tuple of ints",
    "SymIntArrayRef": "tuple of ints", "ArrayRef<double>": "tuple of floats",
    "Generator": "torch.Generator", "bool": "bool", "Storage": "torch.Storage",
    "PyObject*": "object", "ScalarType": "torch.dtype", "Layout": "torch.layout",
    "MemoryFormat": "torch.memory_format", "QScheme": "torch.qscheme", "Device": "torch.device",
    "Stream": "torch.Stream", "std::string": "str", "c10::string_view": "str",
    "Dimname": "name", "DimnameList": "tuple of names", "ScalarList": "tuple of Scalars",
    "DispatchKeySet": "DispatchKeySet",
}


def printed(signature: str) -> str:
    """``add(Tensor other, *, Scalar alpha=1)`` as FunctionSignature::toString prints it,
    without the parentheses: ``Tensor other, *, Number alpha = 1`` (a ``|deprecated`` tail
    is left out)."""
    inner = signature[signature.index("(") + 1:signature.rindex(")")]
    out = []
    for piece in filter(None, inner.split(", ")):
        if piece == "*":
            out.append("*")
            continue
        kind, _, rest = piece.partition(" ")
        kind = re.sub(r"\[\d*\]", "", kind.rstrip("?")).rstrip("?")
        name, eq, default = rest.partition("=")
        out.append(f"{PRINTED_TYPE[kind]} {name}" + (f" = {default}" if eq else ""))
    return ", ".join(out)


def warn_deprecated(name: str, used: str, forms: list[str]) -> None:
    """A call bound to a deprecated (hidden) signature: PythonArgParser::raw_parse's
    TORCH_WARN_ONCE. One flag for the whole parser, so the first deprecated call of the
    process warns, whatever its op (``x.add_(2, y)`` then ``torch.addmm(0.5, m, a, b)``: one
    warning), and none after it."""
    msg = f"This overload of {name} is deprecated:\n\t{name}({used})"
    if forms:
        msg += "\nConsider using one of the following signatures instead:" + "".join(
            f"\n\t{name}({form})" for form in forms)
    warn_once(msg, flag="a deprecated signature")


class Param:
    """One parameter of a printed signature: ``tuple of ints dim = None`` (kwonly after ``*``)."""
    __slots__ = ("kind", "name", "optional", "kwonly")

    def __init__(self, kind: str, name: str, optional: bool, kwonly: bool):
        self.kind, self.name, self.optional, self.kwonly = kind, name, optional, kwonly


@functools.lru_cache(maxsize=1024)
def form_params(form: str) -> tuple[Param, ...]:
    """A signature as PyTorch prints it (``int dim, *, torch.dtype dtype = None``)."""
    params, kwonly = [], False
    for piece in filter(None, form.split(", ")):
        if piece == "*":
            kwonly = True
            continue
        decl, eq, _ = piece.partition(" = ")
        kind, _, name = decl.rpartition(" ")
        params.append(Param(kind, name, bool(eq), kwonly))
    return tuple(params)


def takes_varargs(params: tuple[Param, ...]) -> bool:
    """FunctionSignature::parse: a lone positional ``tuple of ints`` takes every positional
    argument (``x.view(2, 3)`` is ``x.view((2, 3))``)."""
    positional = [p for p in params if not p.kwonly]
    return len(positional) == 1 and positional[0].kind == "tuple of ints"


class Overloads:
    """What the parser of one method holds: the ``forms`` it lists, in its order, and the
    ``hidden`` ones (None: written by hand in torch's C++, not known). With a single signature
    in all (``direct``), a refusal names the argument instead of listing forms."""
    __slots__ = ("forms", "hidden", "direct", "max_positional")

    def __init__(self, forms: list[str], hidden: list[str] | None = ()):
        self.forms, self.hidden = forms, hidden
        self.direct = len(forms) == 1 and hidden is not None and not hidden
        every = [form_params(f) for f in [*forms, *(hidden or ())]]
        # more positional arguments than any form takes fit none (None: no such bound). A
        # hand-written method's hidden forms are unknown; they are taken to take no more than
        # its visible ones (to, type, nonzero, view: the deprecated spellings of a keyword).
        self.max_positional = None if any(map(takes_varargs, every)) else max(
            sum(not p.kwonly for p in params) for params in every)

    def binds(self, args: tuple, kwargs: dict) -> bool:
        """Whether some form takes these arguments by count and name (types aside)."""
        return binds([*self.forms, *(self.hidden or ())], args, kwargs)


@functools.lru_cache(maxsize=1)
def _entries() -> dict[str, dict]:
    return json.loads(DATA.read_text(encoding="utf-8"))["methods"]


@functools.cache
def overloads(method: str) -> Overloads | None:
    """torch's signatures of ``Tensor.method`` (None when its binding is written in Python or
    takes a single signature written by hand in C++, whose parameters the table can't see)."""
    entry = _entries().get(method)
    return None if entry is None else Overloads(entry["forms"], entry.get("hidden", ()))


@functools.cache
def function_signatures(module: str) -> dict[str, dict]:
    """The functions of one of torch's modules ("functions": torch.*, "nn": torch._C._nn,
    "linalg": torch._C._linalg): per name, ``raw`` (torchgen's signatures, as its parser is
    given them) or ``forms`` (a listing torch prints, for one written by hand). Read on first
    use: only a refused call, or a keyword call's first check, needs it."""
    return json.loads(FUNCTIONS.read_text(encoding="utf-8"))[module]


def _table() -> dict[str, Overloads]:
    """Every method of the table (for tests)."""
    return {name: overloads(name) for name in _entries()}


def binds(forms: list[str], args: tuple, kwargs: dict) -> bool:
    """Whether some form takes these arguments by count and name (types aside): a keyword
    PyTorch doesn't know, or a required argument left out, fits no form."""
    for form in forms:
        params = form_params(form)
        names = [p.name for p in params]
        if (len(args) <= sum(not p.kwonly for p in params) or takes_varargs(params)) and all(
                k in names[len(args):] for k in kwargs) and all(
                p.optional or p.name in kwargs for p in params[len(args):]):
            return True
    return False


def forms_fitting(forms: list[str], count: int) -> list[str]:
    """The ``forms`` that take ``count`` arguments (PyTorch's "plausible" signatures): with
    exactly one, its parser names the bad argument; otherwise it lists every form."""
    return [f for f in forms
            if sum(not p.optional for p in form_params(f)) <= count <= len(form_params(f))]


# ------------------------------------------------------------------ one signature's refusals
# python_arg_parser.cpp tries NumPy's names for some parameters (``x.sum(axis=0)``)
NUMPY_NAMES = {"dim": ("axis",), "keepdim": ("keepdims",), "input": ("x", "a", "x1"),
               "other": ("x2",)}
_TORCH_NAMES = {alias: name for name, aliases in NUMPY_NAMES.items() for alias in aliases}


def numpy_aliases(kwargs: dict) -> dict:
    """``axis=``/``keepdims=``/``x2=`` under PyTorch's names (unless those are given too)."""
    if all(k not in _TORCH_NAMES or _TORCH_NAMES[k] in kwargs for k in kwargs):
        return kwargs
    return {(_TORCH_NAMES[k] if k in _TORCH_NAMES and _TORCH_NAMES[k] not in kwargs else k): v
            for k, v in kwargs.items()}


def binding_error(op: str, params: tuple[Param, ...] | list[Param], args: tuple, kwargs: dict
                  ) -> TypeError | None:
    """PyTorch's words for a call one signature can't bind (FunctionSignature::parse), in its
    order: too many positional arguments, then the first missing one, then, if a keyword was
    left over, the first keyword (in call order) that names no parameter or one already given
    by position. None: the call binds, by count and name."""
    positional = sum(not p.kwonly for p in params)
    if len(args) > positional and not takes_varargs(params):
        n, least = len(args), sum(not p.optional for p in params)
        if least != positional:
            return TypeError(f"{op}() takes from {least} to {positional} positional arguments "
                             f"but {n} were given")
        return TypeError(f"{op}() takes {positional} positional argument"
                         f"{'' if positional == 1 else 's'} but {n} "
                         f"{'was' if n == 1 else 'were'} given")
    taken = len(args) if not takes_varargs(params) or not args else 1
    used = 0
    for i, p in enumerate(params):
        if i < taken and not p.kwonly:
            continue
        given = [k for k in (p.name, *NUMPY_NAMES.get(p.name, ())) if k in kwargs]
        used += bool(given)
        if not given and not p.optional:  # the count's missing "s" is PyTorch's
            missing = [f'"{q.name}"' for q in params[i:] if not q.optional]
            return TypeError(f"{op}() missing {len(missing)} required positional argument"
                             f"{'s' if len(missing) == 1 else ''}: {', '.join(missing)}")
    if used < len(kwargs):
        names = [p.name for p in params]
        for k in kwargs:
            if k not in names:
                return TypeError(f"{op}() got an unexpected keyword argument '{k}'")
            if names.index(k) < len(args):
                return TypeError(f"{op}() got multiple values for argument '{k}'")
    return None
