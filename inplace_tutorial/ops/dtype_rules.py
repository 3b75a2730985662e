"""Which ops refuse which dtypes, with PyTorch's exact exception and text (a table, not ifs).

Checked before any allocation. Keys are (op, dtype short name); values are the exception.
"""
from __future__ import annotations

from .. import dtypes

_MASK_HINT = "If you are trying to invert a mask, use the `~` or `logical_not()` operator instead."


def _not_impl(kernel: str, dtype: str) -> NotImplementedError:
    return NotImplementedError(f'"{kernel}" not implemented for \'{dtype}\'')


UNSUPPORTED = {
    ("neg", "Bool"): lambda: RuntimeError(
        "Negation, the `-` operator, on a bool tensor is not supported. " + _MASK_HINT),
    ("abs", "Bool"): lambda: _not_impl("abs_cpu", "Bool"),
    ("relu", "Bool"): lambda: RuntimeError("Boolean inputs not supported for relu"),
    ("argmax", "Bool"): lambda: RuntimeError("argmax(): does not support bool input"),
    ("argmin", "Bool"): lambda: RuntimeError("argmin(): does not support bool input"),
    ("softmax", "Bool"): lambda: _not_impl("softmax_lastdim_kernel_impl", "Bool"),
    ("log_softmax", "Bool"): lambda: _not_impl("log_softmax_lastdim_kernel_impl", "Bool"),
}
# matrix products have no bool kernels (the name is the kernel PyTorch reports)
for _op, _kernel in (("mm", "addmm_impl_cpu_"), ("addmm", "addmm_impl_cpu_"), ("dot", "dot"),
                     ("mv", "addmv_impl_cpu"), ("bmm", "bmm")):
    UNSUPPORTED[_op, "Bool"] = lambda k=_kernel: _not_impl(k, "Bool")
_INTEGERS = ("Byte", "Char", "Short", "Int", "Long")
for _s in _INTEGERS:  # softmax has no integer kernels (the result would be float)
    UNSUPPORTED["softmax", _s] = lambda s=_s: _not_impl("softmax_lastdim_kernel_impl", s)
    UNSUPPORTED["log_softmax", _s] = lambda s=_s: _not_impl("log_softmax_lastdim_kernel_impl", s)
for _s in ("Bool", *_INTEGERS):
    for _op in ("var", "std"):
        UNSUPPORTED[_op, _s] = lambda: RuntimeError(
            "std and var only support floating point and complex dtypes")


def clamp_result(op: str, self, *bounds, inplace: bool = False):
    """clamp's result type includes its scalar bounds (int tensor, float bound -> float).

    In place with Python-number bounds, PyTorch's clamp kernel words the cast error with
    the C++ type of self ("... desired output type long int"); with tensor bounds the
    shared TensorIterator check words it with the dtype's name ("... type Long")."""
    given = [b for b in bounds if b is not None]
    rd = dtypes.result_type(self, *given)
    if rd is dtypes.bool_:
        raise _not_impl(f"{op}_scalar_cpu", "Bool")
    if inplace and not any(hasattr(b, "dtype") for b in given) and \
            not dtypes.can_cast(rd, self.dtype):
        raise RuntimeError(f"result type {rd.short} can't be cast to the desired output type "
                           f"{self.dtype.c_name}")
    return rd


def check(op: str, dtype) -> None:
    rule = UNSUPPORTED.get((op, dtype.short))
    if rule is not None:
        raise rule()


def check_sub(*operands) -> None:
    """PyTorch forbids `-` on bools (it is ambiguous: xor? not?)."""
    bools = sum(1 for o in operands if getattr(o, "dtype", None) is not None
                and getattr(o.dtype, "short", None) == "Bool" or isinstance(o, bool))
    if bools == len(operands):
        raise RuntimeError("Subtraction, the `-` operator, with two bool tensors is not "
                           "supported. Use the `^` or `logical_xor()` operator instead.")
    if bools:
        raise RuntimeError("Subtraction, the `-` operator, with a bool tensor is not "
                           "supported. " + _MASK_HINT)
