"""How PyTorch's C class TensorBase refuses extra arguments, before an op runs.

Most zero-argument methods (``x.abs_()``, ``x.dim()``, ``x.t()`` ...) are CPython METH_NOARGS
functions there, so ``x.dim(1)`` fails in CPython's words; the casts and copies whose only
parameter is keyword-only (``x.float(*, memory_format)``) fail in its argument parser's.
tensor.py wraps its own methods with these, and ``tensor.py:tensor_method`` wraps the ops'
(``as_method`` picks the wrapper).
"""
from __future__ import annotations

import functools
import operator
from typing import Any

import numpy as np

from .dtypes import INTEGER
from .layout import memory_format

# The operator dunders are the named methods themselves (x.__neg__ is neg).
_NOARGS_NAME = {"__abs__": "abs", "__neg__": "neg"}


def no_arguments(fn: Any) -> Any:
    """A METH_NOARGS method: ``x.abs_(1)`` is ``TypeError: TensorBase.abs_() takes no
    arguments (1 given)``, ``x.abs_(a=1)`` ``... takes no keyword arguments``."""
    label = f"TensorBase.{_NOARGS_NAME.get(fn.__name__, fn.__name__)}()"

    @functools.wraps(fn)
    def method(self, *args, **kwargs):
        if kwargs:  # CPython checks the keywords first
            raise TypeError(f"{label} takes no keyword arguments")
        if args:
            raise TypeError(f"{label} takes no arguments ({len(args)} given)")
        return fn(self)
    return method


def keyword_only(fn: Any) -> Any:
    """A method whose parameters are all keyword-only in PyTorch's signature (``float(*,
    memory_format)``, ``clone(*, memory_format)``, ``numpy(*, force)``): its argument parser
    refuses positional ones as ``float() takes 0 positional arguments but 1 was given``."""
    name = fn.__name__

    @functools.wraps(fn)
    def method(self, *args, **kwargs):
        if args:
            n = len(args)
            raise TypeError(f"{name}() takes 0 positional arguments but {n} "
                            f"{'was' if n == 1 else 'were'} given")
        return fn(self, **kwargs)
    return method


# The casts and copies whose only parameter in PyTorch is keyword-only (memory_format=).
KEYWORD_ONLY_METHODS = frozenset(
    "bfloat16 bool byte char double float half int long short clone contiguous".split())
_VARARGS, _VARKEYWORDS = 0x04, 0x08  # inspect.CO_VARARGS, inspect.CO_VARKEYWORDS


def as_method(fn: Any) -> Any:
    """``fn`` as the Tensor method PyTorch's binding makes of it: a public ``def op(self)``
    with no other parameter as a METH_NOARGS method (``no_arguments``), a name of
    KEYWORD_ONLY_METHODS as ``keyword_only``, any other as it is (its own parameters bind)."""
    name, code = fn.__name__, fn.__code__
    if name in KEYWORD_ONLY_METHODS:
        return keyword_only(fn)
    if (code.co_argcount == 1 and not code.co_kwonlyargcount
            and not code.co_flags & (_VARARGS | _VARKEYWORDS)
            and (not name.startswith("_") or name.endswith("__"))):
        return no_arguments(fn)
    return fn


def check_memory_format(op: str, value, optional: bool = False) -> None:
    """A ``memory_format=`` argument: a torch.memory_format (``optional``: or None)."""
    if not (isinstance(value, memory_format) or (optional and value is None)):
        raise TypeError(f"{op}(): argument 'memory_format' must be torch.memory_format, not "
                        f"{type(value).__name__}")


def _type_name(value: Any) -> str:
    """The name torch's parser prints: ``float``, ``Tensor``, ``numpy.bool`` ..."""
    t = type(value)
    if t.__module__ == "builtins" or hasattr(value, "_shape"):  # (a Tensor: this layer is below)
        return t.__name__
    return f"{t.__module__}.{t.__qualname__}"


def dim_argument(op: str, dim: Any) -> int:
    """``x.size(dim)``, ``x.stride(dim)``: the parser's ``int dim``, a Python or NumPy integer
    or a 0-dim integer tensor, never a bool (``x.size(1.0)`` is ``TypeError: size(): argument
    'dim' (position 1) must be int, not float``)."""
    shape = getattr(dim, "_shape", None)
    if shape is not None:
        fits = shape == () and dim.dtype.category == INTEGER
    else:
        fits = not isinstance(dim, (bool, np.bool_)) and hasattr(type(dim), "__index__")
    if not fits:
        raise TypeError(f"{op}(): argument 'dim' (position 1) must be int, not {_type_name(dim)}")
    return operator.index(dim)


def bool_argument(op: str, arg: str, value: Any, position: int = 1) -> bool:
    """A ``bool`` parameter of TensorBase's parser: a Python bool only (``requires_grad_(1)``
    is ``TypeError: requires_grad_(): argument 'requires_grad' (position 1) must be bool, not
    int``)."""
    if type(value) is not bool:
        raise TypeError(f"{op}(): argument '{arg}' (position {position}) must be bool, not "
                        f"{_type_name(value)}")
    return value
