"""How PyTorch's C class TensorBase refuses extra arguments, before an op runs.

Most zero-argument methods (``x.abs_()``, ``x.dim()``, ``x.t()`` ...) are CPython METH_NOARGS
functions there, so ``x.dim(1)`` fails in CPython's words; the casts and copies whose only
parameter is keyword-only (``x.float(*, memory_format)``) fail in its argument parser's.
tensor.py wraps its own methods with these, and ``tensor.py:tensor_method`` wraps the ops'.
"""
from __future__ import annotations

import functools
from typing import Any

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


def check_memory_format(op: str, value, optional: bool = False) -> None:
    """A ``memory_format=`` argument: a torch.memory_format (``optional``: or None)."""
    if not (isinstance(value, memory_format) or (optional and value is None)):
        raise TypeError(f"{op}(): argument 'memory_format' must be torch.memory_format, not "
                        f"{type(value).__name__}")
