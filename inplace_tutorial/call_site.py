"""How the call being refused was written: which of its arguments were given by keyword, read
from the caller's own bytecode on the error path only. PyTorch's binding words an error by it
(``argument 'other' (position 1)`` against ``argument 'other'``); a Python function can't tell
the two calls apart otherwise. arg_parser.py, above, words the errors.
"""
from __future__ import annotations

import dis
import functools
import inspect
import os
import sys

_PACKAGE = os.path.dirname(os.path.abspath(__file__)) + os.sep
_PYTHON_LAYER = _PACKAGE + "nn" + os.sep  # torch.nn is Python: it calls the ops positionally
# ... except these nn.functional names, which in torch are the C++ bindings themselves
# (F.linear is torch._C._nn.linear, F.conv2d is torch.conv2d): the user's call reaches the
# binding directly, so its keywords count. nn/checks.py and nn/conv_utils.py hold their
# argument checks.
_BINDINGS = {"linear", "conv2d", "avg_pool2d"}
_FUNCTIONAL = _PYTHON_LAYER + "functional.py"
_CHECKS = {_PYTHON_LAYER + "checks.py", _PYTHON_LAYER + "conv_utils.py"}


_PYTHON_METHODS: set = set()  # code objects of the methods torch writes in Python
# ... of which torch's function form is a C++ binding: torch.unflatten(x, dim=None, sizes=...)
# names 'dim' as given, where Tensor.unflatten hands its arguments on by position
_C_FUNCTIONS = {"unflatten"}
_TORCH_FUNCTIONS = _PACKAGE + "functional.py"


def python_method(fn):
    """A Tensor method PyTorch writes in Python (``Tensor.split``, ``Tensor.unflatten``): Python
    binds its arguments (``Tensor.unflatten() takes 3 positional arguments but 4 were given``)
    and it hands them on by position, so its argument errors always name one."""
    fn.__qualname__ = f"Tensor.{fn.__name__}"
    _PYTHON_METHODS.add(fn.__code__)
    return fn


def call_keywords() -> tuple[str, ...]:
    """The keyword names of the call being refused, as PyTorch's binding sees them.

    ``x.add_(None)`` reads ``argument 'other' (position 1)``, ``x.add_(other=None)`` only
    ``argument 'other'``. A Python function can't tell the two calls apart, so, on the error
    path only, this reads the caller's own instruction: the first frame outside the package is
    the call that reached the binding, and its CALL names its keywords (KW_NAMES on Python
    3.11/3.12, a constant before CALL_KW / CALL_FUNCTION_KW on 3.13/3.10). A call that passes
    through torch.nn's Python layer (nn/) or a python_method counts as positional: torch.nn and
    torch's Python methods call the ops so (unless torch's function form of that method is C++,
    _C_FUNCTIONS, and the call came through it).
    """
    f = entry = sys._getframe(1)
    while f is not None and f.f_code.co_filename.startswith(_PACKAGE):
        entry, name = f, f.f_code.co_filename
        if f.f_code in _PYTHON_METHODS and not (
                f.f_code.co_name in _C_FUNCTIONS and f.f_back is not None
                and f.f_back.f_code.co_filename == _TORCH_FUNCTIONS):
            return ()
        if (name.startswith(_PYTHON_LAYER) and name not in _CHECKS
                and not (name == _FUNCTIONAL and f.f_code.co_name in _BINDINGS)):
            return ()
        f = f.f_back
    if f is None:
        return ()
    names = _keywords_at(f.f_code, f.f_lasti)
    return _unpacked_keywords(entry) if names is None else names


def _unpacked_keywords(frame) -> tuple[str, ...]:
    """``x.add_(**{'other': None})``: the names came in a dict, not in the bytecode; the
    binding that received them (the package's first frame) holds them in its ``**kwargs``."""
    code = frame.f_code
    if not code.co_flags & inspect.CO_VARKEYWORDS:
        return ()
    at = code.co_argcount + code.co_kwonlyargcount + bool(code.co_flags & inspect.CO_VARARGS)
    return tuple(frame.f_locals.get(code.co_varnames[at], ()))


@functools.lru_cache(maxsize=256)
def _keywords_at(code, lasti: int) -> tuple[str, ...] | None:
    """The keyword names the CALL at ``lasti`` spells out; None for ``f(*a, **d)``."""
    done = [ins for ins in dis.get_instructions(code) if ins.offset <= lasti]
    call = done.pop() if done else None  # lasti may point into the call's inline caches
    if call is not None and call.opname == "CALL_FUNCTION_EX":
        return None
    if call is None or call.opname not in ("CALL", "CALL_KW", "CALL_FUNCTION_KW"):
        return ()
    if done and done[-1].opname == "PRECALL":
        done.pop()  # Python 3.11: KW_NAMES, PRECALL, CALL
    if not done or done[-1].opname not in ("KW_NAMES", "LOAD_CONST"):
        return ()
    names = code.co_consts[done[-1].arg]
    return names if isinstance(names, tuple) else ()
