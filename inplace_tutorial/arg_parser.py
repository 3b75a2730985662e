"""PyTorch's Python argument parser, the part every layer needs: what counts as a Number or an
int, how it unpacks a ``tuple of ints``, and how a Tensor method binds its call (``binding``).
Its words for a refused call (type names, "invalid combination of arguments") are in
invalid_arguments.py, below it.

It sits below creation.py and ops/ (both parse sizes: ``zeros(2, 3)``, ``view(2, 3)``);
ops/arg_checks.py adds the per-op checks on top. ``view(2, 3)`` and ``view((2, 3))`` are the same
call, each element must be an integer, and a failure reads as PyTorch's binding words it.
"""
from __future__ import annotations

import functools
import inspect
import numbers
import operator
import sys

import numpy as np

from . import dtypes
from .call_site import _PACKAGE, call_keywords
from .invalid_arguments import invalid_combination, type_name  # (ops/ import them from here)
from .signatures import (  # noqa: F401 - functional.py takes these from here
    Overloads,
    Param,
    binding_error,
    binds,
    form_params,
    forms_fitting,
    numpy_aliases,
    overloads,
    takes_varargs,
    warn_deprecated,
)
from .tensor import Tensor


def is_number(v) -> bool:
    """A Number (Scalar) argument: a Python or NumPy bool, int, float or complex, not a Tensor
    nor an array. A Python int is unpacked as 64 bits, signed, else unsigned (PythonArgs::
    scalar); beyond that PyTorch raises OverflowError before the op runs, and so does this."""
    if type(v) is float:  # the common cases, before the slow ABC check
        return True
    if type(v) is int:
        return _INT64_MIN <= v < _UINT64_END or _unpack_overflow(v)
    if isinstance(v, (Tensor, np.ndarray)):
        return False
    return isinstance(v, (numbers.Number, np.bool_))


_INT64_MIN, _UINT64_END = -(1 << 63), 1 << 64


def scalar_int(v: int) -> int:
    """A Python int unpacked into a Scalar (PythonArgs::scalar), for the calls that take one
    without the parser's type check (``2**70 - x`` is rsub's), or after it: 64 bits, signed,
    else unsigned; beyond, torch's OverflowError."""
    return v if _INT64_MIN <= v < _UINT64_END else _unpack_overflow(v)


def _unpack_overflow(v: int) -> bool:
    """PyLong_AsUnsignedLongLong's refusal, once PyLong_AsLongLongAndOverflow overflowed."""
    raise OverflowError("can't convert negative int to unsigned" if v < 0 else
                        "int too big to convert")


def _where(arg: str, position: int | None) -> str:
    """`` (position n)`` for an argument given by position; nothing for a keyword."""
    if position is None or arg in call_keywords():
        return ""
    return f" (position {position})"


def argument_error(op: str, arg: str, position: int | None, expected: str, value) -> TypeError:
    """The one-overload message: ``add_(): argument 'other' (position 1) must be Tensor, not
    NoneType``; an argument given by keyword has no position (``argument 'other' must ...``)."""
    where = _where(arg, position)
    return TypeError(f"{op}(): argument '{arg}'{where} must be {expected}, not "
                     f"{type_name(value)}")


def is_index(v) -> bool:
    """PyTorch's THPUtils_checkIndex: a Python or NumPy integer, a one-element integer tensor,
    anything with ``__index__``; never a bool (``view(True, 6)`` is not a size)."""
    if isinstance(v, (bool, np.bool_)):
        return False
    if isinstance(v, (int, np.integer)):
        return True
    if isinstance(v, Tensor):
        return v.numel() == 1 and v.dtype.category == dtypes.INTEGER
    return hasattr(type(v), "__index__")


def check_int(op: str, arg: str, value, position: int | None = None) -> int:
    """An ``int`` argument (a dim, chunks, an index); returns it as a Python int."""
    if not is_index(value):
        raise argument_error(op, arg, position, "int", value)
    value = operator.index(value)
    if not -2**63 <= value < 2**63:  # PyTorch's parser unpacks every int as an int64_t
        raise ValueError("Overflow when unpacking long long")
    return value


def int_list(op: str, arg: str, args: tuple, position: int = 1, varargs: bool = True,
             forms: list[str] | None = None) -> tuple[int, ...]:
    """A ``tuple of ints`` parameter. ``args`` are the positional arguments as received: with
    ``varargs`` an integer first argument packs them all (``view(2, 3)``), otherwise the one
    argument must be a list or tuple whose first element is an integer. ``forms`` are the
    overloads to list when nothing matches (view also takes a dtype)."""
    if varargs and args and is_index(args[0]):
        seq = args
    else:
        if len(args) != 1:
            if forms:
                raise invalid_combination(op, args, forms)
            if not args:
                raise TypeError(f'{op}() missing 1 required positional arguments: "{arg}"')
            raise TypeError(f"{op}() takes 1 positional argument but {len(args)} were given")
        seq = args[0]
        if not (isinstance(seq, (tuple, list)) and (not seq or is_index(seq[0]))):
            if forms:
                raise invalid_combination(op, args, forms)
            if isinstance(seq, (tuple, list)):
                raise TypeError(f"{op}(): argument '{arg}'{_where(arg, position)} must be tuple "
                                f"of ints, but found element of type {type_name(seq[0])} at pos 0")
            raise argument_error(op, arg, position, "tuple of ints", seq)
    return tuple(_unpack_int(op, arg, v, k + 1) for k, v in enumerate(seq))


def size_arg(op: str, arg: str, args: tuple, kwargs: dict, forms: list[str] | None = None
             ) -> tuple[int, ...]:
    """The lone ``tuple of ints`` parameter of permute, view, reshape, expand, flip, repeat:
    varargs (``x.permute(1, 0)``), one sequence (``x.permute((1, 0))``) or the keyword
    (``x.permute(dims=(1, 0))``). ``kwargs`` are the call's keywords (the op's own keyword-only
    ones taken out). PyTorch's parser checks, in its order: a missing argument, the keyword's
    type (by keyword, a sequence whose first element is no int is "not list"), then the
    keywords left over. With ``forms`` (view also takes a dtype) any mismatch lists them."""
    if not kwargs:
        return int_list(op, arg, args, forms=forms)
    value = kwargs.get(arg)
    if forms and (len(kwargs) > 1 or args or not _ints_first(value)):
        raise invalid_combination(op, args, forms, kwargs)
    if arg not in kwargs and not args:
        raise TypeError(f'{op}() missing 1 required positional arguments: "{arg}"')
    for k in kwargs:
        if k != arg:
            raise TypeError(f"{op}() got an unexpected keyword argument '{k}'")
        if args:
            raise TypeError(f"{op}() got multiple values for argument '{arg}'")
    if not _ints_first(value):
        raise TypeError(f"{op}(): argument '{arg}' must be tuple of ints, not {type_name(value)}")
    return tuple(_unpack_int(op, arg, v, k + 1) for k, v in enumerate(value))


def _ints_first(seq) -> bool:
    """PyTorch's quick test of a ``tuple of ints``: a list or tuple, empty or led by an int."""
    return isinstance(seq, (tuple, list)) and (not seq or is_index(seq[0]))


def _unpack_int(op: str, arg: str, v, pos: int) -> int:
    def fail(why: str) -> TypeError:
        return TypeError(f"{op}(): argument '{arg}' failed to unpack the object at pos {pos} "
                         f'with error "{why}"')
    if isinstance(v, (bool, np.bool_)) or is_index(v):
        value = operator.index(v)
    else:
        raise fail(f"type must be tuple of ints,but got {type_name(v)}")
    if not -2**63 <= value < 2**63:  # PyTorch appends its C++ stack to this one
        raise fail("Overflow when unpacking long long")
    return value


# ------------------------------------------------------------------ ints in a node
# A node keeps its int64 arguments as typed (``x.flip(-1)`` saves dims (-1,), not (1,)), and
# ``grad_fn._saved_dims`` reads them back as unsigned 64-bit numbers: (18446744073709551615,).
_WRAP = 1 << 64


def saved(v):
    """An int (or a tuple of ints) as PyTorch's node shows it."""
    if isinstance(v, tuple):
        return tuple(saved(x) for x in v)
    return v + _WRAP if v < 0 else v


def signed(v):
    """The int (or tuple) a node saved, as the signed number that was typed."""
    if isinstance(v, tuple):
        return tuple(signed(x) for x in v)
    return v - _WRAP if v >= 1 << 63 else v


def as_called(names: list[str], values: tuple, optional: bool = False,
              defaults: tuple = ()) -> tuple[tuple, dict]:
    """Split an op's arguments (``names``/``values`` in signature order; names after "*" are
    keyword-only) into the positional and the keyword ones of the user's call
    (call_keywords). A trailing positional value that is its default (``optional``: None;
    else the matching entry of ``defaults``, aligned to the end of the positional names) is
    taken as not given."""
    keywords = call_keywords()
    star = names.index("*") if "*" in names else len(names)
    given = dict(zip(names[:star] + names[star + 1:], values))
    fallback = dict(zip(names[star - len(defaults):star], defaults))
    args = [(n, given[n]) for n in names[:star] if n not in keywords]
    while args and ((optional and args[-1][1] is None) or (
            args[-1][0] in fallback and type(args[-1][1]) is type(fallback[args[-1][0]])
            and args[-1][1] == fallback[args[-1][0]])):
        args.pop()
    return tuple(v for _, v in args), {k: given[k] for k in keywords if k in given}


# ------------------------------------------------------------------ binding a method's call
_VARARGS = inspect.CO_VARARGS


@functools.lru_cache(maxsize=64)
def _def_params(fn) -> tuple[Param, ...] | None:
    """The op's own ``def`` (self left out), when it is a plain signature."""
    kinds = inspect.Parameter
    params = []
    for p in list(inspect.signature(fn).parameters.values())[1:]:
        if p.kind in (kinds.VAR_POSITIONAL, kinds.VAR_KEYWORD):
            return None
        params.append(Param("", p.name, p.default is not kinds.empty, p.kind is kinds.KEYWORD_ONLY))
    return tuple(params)


def parser_error(op: str, table: Overloads | None, params: tuple[Param, ...] | None,
                 args: tuple, kwargs: dict, failed: TypeError | None) -> TypeError:
    """What PyTorch's parser raises for a call none of its signatures took (raw_parse, then
    print_error): a method with one signature names the argument (``cumsum() takes 1
    positional argument but 7 were given``); otherwise, if exactly one visible signature takes
    that many arguments, that one names it; else every visible signature is listed. Without a
    table (``params``: the op's def) only the first kind is known; ``failed`` is the op's own
    TypeError, for a call that binds by count and name but not by type."""
    if table is None:
        return (None if params is None else binding_error(op, params, args, kwargs)) or failed
    if table.direct:
        fits = table.forms
    else:
        fits = forms_fitting(table.forms, len(args) + len(kwargs))
    error = binding_error(op, form_params(fits[0]), args, kwargs) if len(fits) == 1 else None
    return error or (failed if table.direct and failed else
                     invalid_combination(op, args, table.forms, kwargs))


def _deprecated_form(op: str, table: Overloads | None, args: tuple, kwargs: dict
                     ) -> dict | None:
    """``x.add_(2, y)``, ``x.addmm_(0.5, a, b)``: a call no visible signature takes that fits
    one of torch's hidden (deprecated) ones, by position and type. Its arguments by name (the
    def's names are torch's), after torch's one-time warning; None if none fits."""
    numbers_as_tensors = op in ("add", "add_", "sub", "sub_")  # x.add_(2, 3): other is 3
    for form in (table.hidden or ()) if table is not None else ():
        params = form_params(form)
        rest = [p.name for p in params[len(args):]]  # what keywords may still name
        if len(args) > len(params) or any(k not in rest for k in kwargs):
            continue
        values = {**dict(zip((p.name for p in params), args)), **kwargs}
        if len(values) == len(params) and all(
                _fits(p.kind, values[p.name], numbers_as_tensors) for p in params):
            warn_deprecated(op, form, table.forms)
            return {k: v.item() if isinstance(v, Tensor) and p.kind == "Number" else v
                    for p, (k, v) in zip(params, ((p.name, values[p.name]) for p in params))}
    return None


def _fits(kind: str, v, numbers_as_tensors: bool) -> bool:
    if kind == "Tensor":
        return isinstance(v, Tensor) or numbers_as_tensors and isinstance(v, numbers.Number)
    if kind == "Number":  # a Python number, or a 0-dim tensor that needs no gradient
        return isinstance(v, numbers.Number) or (
            isinstance(v, Tensor) and v.dim() == 0 and not v.requires_grad)
    return False


def binding(forms: list[str] | None = None):
    """Over ``@tensor_method``: the method binds its arguments as PyTorch's parser does, with
    torch's own signatures (signatures.py: ``x.add(1, 2, 3)`` is refused with add's overload
    list, ``x.addmm(foo=1)`` with "unrecognized keyword arguments: foo"). NumPy's names are
    taken (``x.sum(axis=0, keepdims=True)``). ``forms`` replaces the table's signatures for an
    op it lacks. Keywords no signature takes, and more positional arguments than any takes, are
    refused before the op runs (the def may take more than one signature does: ``x.sum(
    keepdim=True)`` fits neither of sum's forms); the package's own calls, which may pass every
    parameter of the def, are not held to that.

    The happy path costs one call (and, with keywords, one dictionary look-up). A failed
    binding is told from the op's own TypeError by its traceback: a call that couldn't be
    bound never entered the op."""
    def attach(fn):
        method, op = getattr(Tensor, fn.__name__), fn.__name__
        table = overloads(op) if forms is None else Overloads(list(forms), None)
        code = inspect.unwrap(fn).__code__  # the def's own positional count (self left out)
        positional = None if code.co_flags & _VARARGS else code.co_argcount - 1
        limit = None  # where the def takes more positional arguments than torch
        if table is not None and table.max_positional is not None and (
                positional is None or positional > table.max_positional):
            limit = table.max_positional
        # a def with one positional parameter where torch's is a lone ``tuple of ints``: the
        # parser packs ``x.squeeze(0, 1)`` into ``dim=(0, 1)``
        pack = table is not None and positional == 1 and any(
            takes_varargs(form_params(f)) for f in table.forms)

        fitting: dict[tuple, bool] = {}  # (number of positionals, *keywords) -> some form fits

        def refused(args: tuple, kwargs: dict) -> bool:
            """A call that fits none of torch's forms, from outside the package."""
            if kwargs and table is not None:
                key = (len(args), *kwargs)
                fits = fitting.get(key)
                if fits is None:
                    fits = fitting[key] = table.binds(args, kwargs)
            else:
                fits = True
            return ((not fits or (limit is not None and len(args) > limit))
                    and not sys._getframe(2).f_code.co_filename.startswith(_PACKAGE))

        @functools.wraps(method)
        def bound(self, *args, **kwargs):
            failed = None
            if pack and len(args) > 1 and all(map(is_index, args)):
                args = (args,)
            if not ((kwargs or limit is not None) and refused(args, kwargs)):
                try:
                    return method(self, *args, **kwargs)
                except TypeError as e:
                    if e.__traceback__.tb_next is not None:
                        raise
                    failed = e
            renamed = numpy_aliases(kwargs)
            if renamed is not kwargs and (table is None or table.binds(args, renamed)):
                return bound(self, *args, **renamed)
            # (torch.add(x, 2, y) reaches here from functional.py: the function's parser
            # binds it, and warns in the function's words)
            deprecated = None if sys._getframe(1).f_code.co_filename.startswith(
                _PACKAGE) else _deprecated_form(op, table, args, kwargs)
            if deprecated is not None:
                return method(self, **deprecated)
            raise parser_error(op, table, _def_params(fn), args, kwargs, failed) from None
        setattr(Tensor, op, bound)
        return fn
    return attach


# Tensor's own metadata methods (tensor.py, below this layer) are C++ bindings in PyTorch, with
# a single signature each: their refusals name no class (``size() takes from 0 to 1 positional
# arguments but 7 were given``, where Python would say ``Tensor.size() takes from 1 to 2``).
# is_contiguous(*, memory_format) loses tensor.keyword_only's wrapper: its refusal of a
# positional argument (``is_contiguous() takes 0 positional arguments but 1 was given``) is the
# binding's own, and a keyword it lacks must be refused at the binding.
Tensor.is_contiguous = getattr(Tensor.is_contiguous, "__wrapped__", Tensor.is_contiguous)
for _name in ("size", "stride", "requires_grad_", "is_contiguous"):
    binding()(getattr(Tensor, _name))
