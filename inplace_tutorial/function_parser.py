"""PyTorch's argument parser for module-level functions (``torch.div``, ``torch.zeros``,
``torch._C._nn.avg_pool2d``, ``torch.linalg.matrix_norm``): FunctionSignature::parse, then
PythonArgParser::raw_parse and print_error, read from python_arg_parser.cpp.

signatures.py gives each function's signatures as torchgen hands them to the parser
(data/torch_function_signatures.json: C++ types, ``?``, sizes, defaults); this module checks a
call's values against them, type by type, in the parser's order. functional.py and
creation.py use it on their error paths, so a refusal reads as torch's, word for word, and a
call torch takes (``torch.div(2, x)``: a number where a Tensor goes) is told apart from one it
refuses. The happy path never comes here.
"""
from __future__ import annotations

import functools
import numbers
import os
import sys

import numpy as np

from . import dtypes
from .arg_parser import invalid_combination, is_index, type_name
from .arg_parser import is_number as is_scalar_number
from .device import is_device
from .layout import layout, memory_format
from .signatures import PRINTED_TYPE, binds, function_signatures, printed, warn_deprecated
from .storage import UntypedStorage
from .tensor import Tensor

_PYTHON_SCALAR_TYPES = (float, int, bool, complex)  # THPPythonScalarType_Check


def _is_scalar(v) -> bool:
    """THPUtils_checkScalar: a Python or NumPy number (a bool is a Python int)."""
    return isinstance(v, (float, int, complex, np.generic)) and not isinstance(
        v, (np.str_, np.bytes_, np.void, np.datetime64, np.timedelta64))


def _is_long(v) -> bool:
    """THPUtils_checkLong: an int that is not a bool, or a NumPy integer."""
    return (isinstance(v, int) and not isinstance(v, bool)) or isinstance(v, np.integer)


def _is_double(v) -> bool:
    """THPUtils_checkDouble: a Python float or int (bools included), a NumPy number."""
    return isinstance(v, (float, int)) or (isinstance(v, np.generic) and isinstance(
        v, (np.integer, np.floating, np.bool_)))


def _int_list(v, size: int) -> tuple[bool, int]:
    """is_int_or_symint_list: a list or tuple, empty or led by an index (then -1), else
    failed at element 0; a single int where the parameter has a size (``IntArrayRef[2]``)."""
    if isinstance(v, (tuple, list)):
        if not v or is_index(v[0]):
            return True, -1
        return False, 0
    return size > 0 and is_index(v), -1


class FunctionParameter:
    """One parameter as the parser holds it: C++ type, size (``IntArrayRef[2]``: 2), whether
    None is allowed (``?`` or a None default), whether it may be left out (a default)."""
    __slots__ = ("type", "name", "size", "allow_none", "optional", "kwonly", "printed",
                 "numbers")

    def __init__(self, piece: str, kwonly: bool, numbers: bool):
        kind, _, rest = piece.partition(" ")
        self.allow_none = "?" in kind
        kind = kind.replace("?", "")
        self.size = 0
        if "[" in kind:
            kind, _, n = kind.partition("[")
            self.size = int(n[:-1] or 0)
        self.type, self.kwonly, self.numbers = kind, kwonly, numbers
        self.name, eq, default = rest.partition("=")
        self.optional = bool(eq)
        self.allow_none = self.allow_none or default == "None"
        self.printed = PRINTED_TYPE[kind]

    def check(self, v, argnum: int = 0) -> tuple[bool, int]:
        """FunctionParameter::check: (fits, index of the failed element of a list or -1).
        ``argnum``: the parameter's index, which a tensor list's refusal names."""
        kind = self.type
        if kind == "Tensor":
            return isinstance(v, Tensor) or (self.numbers and _is_scalar(v)), -1
        if kind in ("Scalar", "complex", "double"):
            if kind == "Scalar" and _is_scalar(v) or kind != "double" and isinstance(v, complex):
                return True, -1
            if _is_double(v):
                return True, -1
            return isinstance(v, Tensor) and not v.requires_grad and v.dim() == 0, -1
        if kind == "int64_t":
            if _is_long(v):
                return True, -1
            return (isinstance(v, Tensor) and v.dtype.category == dtypes.INTEGER
                    and not v.requires_grad and v.dim() == 0), -1
        if kind == "SymInt":
            return is_index(v), -1
        if kind in ("IntArrayRef", "SymIntArrayRef"):
            return _int_list(v, self.size)
        if kind in ("TensorList", "c10::List<::std::optional<Tensor>>"):
            return _tensor_list(v, kind != "TensorList", argnum), -1
        if kind == "ArrayRef<double>":
            return isinstance(v, (tuple, list)) and all(
                isinstance(x, (float, int, complex)) for x in v), -1
        if kind == "ScalarList":
            return isinstance(v, (tuple, list)) and all(map(_is_scalar, v)), -1
        if kind == "bool":
            return isinstance(v, bool), -1
        if kind == "PyObject*":
            return True, -1
        if kind == "ScalarType":
            return isinstance(v, dtypes.dtype) or v in _PYTHON_SCALAR_TYPES, -1
        if kind == "Layout":
            return isinstance(v, layout), -1
        if kind == "MemoryFormat":
            return isinstance(v, memory_format), -1
        if kind == "Device":
            return is_device(v), -1
        if kind in ("std::string", "c10::string_view"):
            return isinstance(v, str), -1
        if kind == "Dimname":
            return v is None or isinstance(v, str), -1
        if kind == "DimnameList":
            return isinstance(v, (tuple, list)) and all(
                x is None or isinstance(x, str) for x in v), -1
        if kind == "Storage":  # (x.set_(storage, ...): ops/set_storage.py)
            return isinstance(v, UntypedStorage), -1
        return False, -1  # Generator, Stream, QScheme: the core has none


def _tensor_list(v, optional: bool, argnum: int) -> bool:
    """is_tensor_list_and_append_overloaded: a list or tuple of tensors. Another element is
    refused on the spot (throw_error: even while the parser is only trying a signature)."""
    if not isinstance(v, (tuple, list)):
        return False
    for k, x in enumerate(v):
        if not (isinstance(x, Tensor) or (optional and x is None)):
            raise TypeError(f"expected Tensor as element {k} in argument {argnum}, but got "
                            f"{type_name(x)}")
    return True


class FunctionSignature:
    """One signature: its parameters, counts, and whether it is hidden (``|deprecated``: tried
    last, never listed)."""
    __slots__ = ("name", "params", "hidden", "min_args", "max_args", "max_pos_args",
                 "printed")

    def __init__(self, name: str, raw: str, numbers: bool):
        self.name = name
        inner, _, tail = raw[1:].rpartition(")")
        self.hidden = tail in ("|deprecated", "|hidden")
        self.params, kwonly = [], False
        for piece in filter(None, inner.split(", ")):
            if piece == "*":
                kwonly = True
                continue
            self.params.append(FunctionParameter(piece, kwonly, numbers))
        self.min_args = sum(not p.optional for p in self.params)
        self.max_args = len(self.params)
        self.max_pos_args = sum(not p.kwonly for p in self.params)
        self.printed = printed(raw)

    def parse(self, args: tuple, kwargs: dict, raise_exception: bool) -> dict | None:
        """FunctionSignature::parse: the bound values by name, or None (or, raising, the
        parser's TypeError) when the call doesn't fit."""
        params, nargs, name = self.params, len(args), self.name
        varargs = self.max_pos_args == 1 and params[0].type in ("IntArrayRef", "SymIntArrayRef")
        if nargs > self.max_pos_args and not varargs:
            if raise_exception:
                raise _extra_args(self, nargs)
            return None
        remaining, arg_pos, bound = len(kwargs), 0, {}
        for i, p in enumerate(params):
            is_kwd, obj, given = False, None, False
            if arg_pos < nargs:
                if p.kwonly:
                    if raise_exception:
                        raise _extra_args(self, nargs)
                    return None
                obj, given = args[arg_pos], True
            elif kwargs:
                for key in (p.name, *_NUMPY_NAMES.get(p.name, ())):
                    if key in kwargs:
                        obj, given = kwargs[key], True
                        break
                is_kwd = True
            eligible = varargs and arg_pos == 0 and not is_kwd
            fits, failed = p.check(obj, i) if given else (False, -1)
            if (not given and p.optional) or (given and obj is None and p.allow_none):
                bound[p.name] = None
            elif not given:
                if raise_exception:
                    missing = [f'"{q.name}"' for q in params[i:] if not q.optional]
                    raise TypeError(f"{name}() missing {len(missing)} required positional "
                                    f"argument{'s' if len(missing) == 1 else ''}: "
                                    f"{', '.join(missing)}")
                return None
            elif fits:
                bound[p.name] = obj
            else:
                if eligible and _int_list(args, p.size)[0]:
                    bound[p.name] = args  # zeros(2, 3) is zeros((2, 3))
                    arg_pos = nargs
                    continue
                if not raise_exception:
                    return None
                if eligible and nargs > self.max_pos_args:  # zeros(x, 2): torch 2.13's words
                    raise _extra_args(self, nargs)
                if is_kwd:
                    raise TypeError(f"{name}(): argument '{p.name}' must be {p.printed}, not "
                                    f"{type_name(obj)}")
                if failed != -1:
                    seq = obj if isinstance(obj, (tuple, list)) else args
                    raise TypeError(f"{name}(): argument '{p.name}' (position {arg_pos + 1}) "
                                    f"must be {p.printed}, but found element of type "
                                    f"{type_name(seq[failed])} at pos {failed}")
                raise TypeError(f"{name}(): argument '{p.name}' (position {arg_pos + 1}) must "
                                f"be {p.printed}, not {type_name(obj)}")
            if not is_kwd:
                arg_pos += 1
            elif given:
                remaining -= 1
        if remaining > 0:
            if raise_exception:
                raise _extra_kwargs(self, kwargs, nargs)
            return None
        return bound


_NUMPY_NAMES = {"dim": ("axis",), "keepdim": ("keepdims",), "input": ("x", "a", "x1"),
                "other": ("x2",)}


def _extra_args(sig: FunctionSignature, nargs: int) -> TypeError:
    if sig.min_args != sig.max_pos_args:
        return TypeError(f"{sig.name}() takes from {sig.min_args} to {sig.max_pos_args} "
                         f"positional arguments but {nargs} were given")
    n = sig.max_pos_args
    return TypeError(f"{sig.name}() takes {n} positional argument{'' if n == 1 else 's'} but "
                     f"{nargs} {'was' if nargs == 1 else 'were'} given")


def _extra_kwargs(sig: FunctionSignature, kwargs: dict, nargs: int) -> TypeError:
    names = [p.name for p in sig.params]
    for k in kwargs:
        if k not in names:
            return TypeError(f"{sig.name}() got an unexpected keyword argument '{k}'")
        if names.index(k) < nargs:
            return TypeError(f"{sig.name}() got multiple values for argument '{k}'")
    return TypeError("invalid keyword arguments")


class PythonArgParser:
    """A function's parser: its signatures in the binding's order, deprecated ones last."""
    __slots__ = ("name", "signatures", "forms", "all_forms")

    def __init__(self, name: str, raws: list[str], numbers: bool):
        self.name = name
        sigs = [FunctionSignature(name, raw, numbers) for raw in raws]
        self.signatures = [s for s in sigs if not s.hidden] + [s for s in sigs if s.hidden]
        self.forms = [s.printed for s in self.signatures if not s.hidden]
        self.all_forms = [s.printed for s in self.signatures]

    def parse(self, args: tuple, kwargs: dict) -> tuple[FunctionSignature, dict]:
        """raw_parse: the first signature the call fits and its values; else print_error."""
        if len(self.signatures) == 1:
            sig = self.signatures[0]
            return sig, sig.parse(args, kwargs, True)
        for sig in self.signatures:
            bound = sig.parse(args, kwargs, False)
            if bound is not None:
                if sig.hidden:  # torch.add(x, 2, y): it binds, and warns (once a process)
                    warn_deprecated(self.name, sig.printed, self.forms)
                return sig, bound
        n = len(args) + len(kwargs)
        plausible = [s for s in self.signatures
                     if s.min_args <= n <= s.max_args and not s.hidden]
        if len(plausible) == 1:
            plausible[0].parse(args, kwargs, True)
        raise invalid_combination(self.name, args, self.forms, kwargs)


_PARSERS: dict[tuple[str, str], PythonArgParser | None] = {}


def parser(name: str, module: str = "functions") -> PythonArgParser | None:
    """The parser of ``torch.name`` (``module``: "functions", "nn" or "linalg"; linalg's
    names start with ``linalg_``), or None when torch binds it in Python or by hand."""
    key = (module, name)
    if key not in _PARSERS:
        entry = function_signatures(module).get(name)
        _PARSERS[key] = None if entry is None or "raw" not in entry else PythonArgParser(
            name, entry["raw"], entry.get("numbers", False))
    return _PARSERS[key]


def parse(name: str, args: tuple, kwargs: dict, module: str = "functions"
          ) -> tuple[FunctionSignature, dict] | None:
    """Bind a call as torch's parser does: (signature, values) when torch takes it, torch's
    TypeError raised when it doesn't; None when the table has no parser for ``name``."""
    p = parser(name, module)
    return None if p is None else p.parse(args, kwargs)


_SCALAR_TYPES = {float: dtypes.float64, int: dtypes.int64, bool: dtypes.bool_}


def scalar_type(v):
    """A ``ScalarType`` argument: torch also takes Python's float, int and bool there (as
    float64, int64 and bool: THPPythonScalarType); anything else is returned as it is."""
    return _SCALAR_TYPES.get(v, v) if type(v) is type else v


def is_number(v) -> bool:
    """A value torch's parser would wrap into a 0-dim tensor where a Tensor goes (an int
    beyond 64 bits: OverflowError, as arg_parser.is_number unpacks it)."""
    return _is_scalar(v) and isinstance(v, numbers.Number) and is_scalar_number(v)


def max_positional(name: str, module: str = "functions") -> int | None:
    """The most positional arguments any signature of ``name`` takes (None: no parser, or a
    varargs size such as ``torch.zeros(2, 3)``)."""
    p = parser(name, module)
    if p is None or any(s.max_pos_args == 1 and s.params[0].type in (
            "IntArrayRef", "SymIntArrayRef") for s in p.signatures):
        return None
    return max(s.max_pos_args for s in p.signatures)


_PACKAGE = os.path.dirname(os.path.abspath(__file__)) + os.sep


def _internal() -> bool:
    """Whether the call being bound came from the package itself (which may pass torch's
    keyword-only arguments by position: ``empty_strided(size, stride, dtype)``)."""
    return sys._getframe(2).f_code.co_filename.startswith(_PACKAGE)


def torch_function(name: str | None = None, module: str = "functions", strict: bool = False):
    """Over a module-level function the core writes by hand (``zeros``, ``cat``, ``where`` ...):
    a call it refuses, or one with keywords or more positional arguments than torch's
    signatures take, is first put to torch's parser, so a refusal torch's binding makes reads
    as torch's (``zeros_like() missing 1 required positional arguments: "input"``). torch
    parses before anything else, so its parser's refusal wins over any later error. The happy
    path costs one call and, with keywords, one dictionary look-up. ``strict``: every call is
    parsed first (for functions off the hot path, whose def takes more than torch does:
    ``torch.result_type(x, None)``)."""
    def attach(fn):
        op = name or fn.__name__
        fitting: dict[tuple, bool] = {}  # (number of positionals, *keywords) -> torch fits

        def fits(key: tuple, args: tuple, kwargs: dict) -> bool:
            p, limit = parser(op, module), max_positional(op, module)
            fitting[key] = p is None or (limit is None or len(args) <= limit) and binds(
                p.all_forms, args, kwargs)
            return fitting[key]

        @functools.wraps(fn)
        def bound(*args, **kwargs):
            key = (len(args), *kwargs)
            fit = fitting.get(key)
            if (strict or not (fits(key, args, kwargs) if fit is None else fit)) and (
                    not _internal()):
                parse(op, args, kwargs, module)  # raises torch's error
            if "dtype" in kwargs:  # torch.zeros(2, dtype=float)
                kwargs["dtype"] = scalar_type(kwargs["dtype"])
            try:
                return fn(*args, **kwargs)
            except Exception:
                if parser(op, module) is not None and not _internal():
                    try:
                        parse(op, args, kwargs, module)
                    except TypeError as e:
                        raise e from None
                raise
        bound.__wrapped_op__ = op
        return bound
    return attach
