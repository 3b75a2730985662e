"""diff: the n-th forward difference along a dim, ``x[1:] - x[:-1]`` repeated n times.

PyTorch builds it from other ops (ReduceOps.cpp: diff_helper), so its graph is theirs: each
step is SubBackward0 over two SliceBackward0 (narrow), after a CatBackward0 when ``prepend``
or ``append`` are given; a bool tensor differs by logical_xor (no gradient); n=0 is a copy
(zeros_like, then copy_: CopyBackwards). ``n`` above the dim's size stops at an empty result.
``out=`` runs the last step as sub's (or logical_xor's) out= form, in their words.
"""
from __future__ import annotations

from .. import dtypes
from ..creation import zeros_like
from ..layout import wrap_dim
from ..tensor import Tensor, tensor_method
from .arg_checks import argument_error, check_int
from .joining import cat
from .out_variants import resize_output, with_out

_NAMES = ("n", "dim", "prepend", "append")


def _args(self: Tensor, n, dim, prepend, append, first: int) -> tuple[int, int]:
    """The binding (``first``: n's position), then diff_check's checks in its order."""
    n = check_int("diff", "n", n, first)
    dim = check_int("diff", "dim", dim, first + 1)
    for k, (name, t) in enumerate((("prepend", prepend), ("append", append))):
        if t is not None and not isinstance(t, Tensor):
            raise argument_error("diff", name, first + 2 + k, "Tensor", t)
    if self.dim() < 1:
        raise RuntimeError("diff expects input to be at least one-dimensional")
    if n < 0:
        raise RuntimeError(f"order must be non-negative but got {n}")
    for other in (prepend, append):
        if other is None:
            continue
        d = wrap_dim(dim, self.dim())
        if other.dim() != self.dim():
            raise RuntimeError("diff expects prepend or append to be the same dimension as "
                               "input")
        for i in range(other.dim()):
            if i != d and other._shape[i] != self._shape[i]:
                raise RuntimeError(
                    "diff expects the shape of tensor to prepend or append to match that of "
                    "input except along the differencing dimension; input.size("
                    f"{i}) = {self._shape[i]}, but got tensor.size({i}) = {other._shape[i]}")
    return n, dim


def _joined(self: Tensor, dim: int, prepend, append) -> Tensor:
    """prepend_append_on_dim: one cat of what is given."""
    if prepend is None and append is None:
        return self
    parts = [t for t in (prepend, self, append) if t is not None]
    return cat(parts, dim)


def _step(x: Tensor, dim: int, length: int) -> tuple[Tensor, Tensor]:
    """The two overlapping windows one difference subtracts: x[1:] and x[:-1] along dim."""
    return x.narrow(dim, 1, length), x.narrow(dim, 0, length)


def _differences(x: Tensor, n: int, dim: int) -> Tensor:
    """diff_helper: n steps (at most the dim's size), each one shorter."""
    if n == 0:
        result = zeros_like(x)
        return result.copy_(x)
    length = x.size(dim) - 1
    n = min(n, x.size(dim))
    for _ in range(n):
        hi, lo = _step(x, dim, length)
        x = hi.logical_xor(lo) if x.dtype is dtypes.bool_ else hi - lo
        length -= 1
    return x


@tensor_method
def diff(self, n=1, dim=-1, prepend=None, append=None) -> Tensor:
    """The n-th difference along dim, with ``prepend``/``append`` joined on first."""
    n, dim = _args(self, n, dim, prepend, append, 1)
    return _differences(_joined(self, dim, prepend, append), n, dim)


def diff_function(input: Tensor, n=1, dim=-1, prepend=None, append=None, *,  # noqa: A002
                  out: Tensor | None = None) -> Tensor:
    """torch.diff(input, n=1, dim=-1, prepend=None, append=None, *, out=None)."""
    if not isinstance(input, Tensor):
        raise argument_error("diff", "input", 1, "Tensor", input)
    if out is not None and not isinstance(out, Tensor):
        raise TypeError(f"diff(): argument 'out' must be Tensor, not {type(out).__name__}")
    n, dim = _args(input, n, dim, prepend, append, 2)
    x = _joined(input, dim, prepend, append)
    if out is None:
        return _differences(x, n, dim)
    return _diff_out(x, n, dim, out)


def _diff_out(x: Tensor, n: int, dim: int, out: Tensor) -> Tensor:
    """diff_out_helper: n=0 resizes out, checks its dtype and copies; otherwise the first n-1
    steps as diff does, the last one as sub's (logical_xor's) out= form."""
    if n == 0:
        resize_output(out, x._shape)
        if out.dtype is not x.dtype:  # (PyTorch names the input's type as expected)
            raise RuntimeError(f"expected scalar_type {x.dtype.short} but found "
                               f"{out.dtype.short}")
        return out.copy_(x)
    n = min(n, x.size(dim))
    length = x.size(dim) - n
    if n > 1:
        x = _differences(x, n - 1, dim)
    hi, lo = _step(x, dim, length)
    return with_out("logical_xor" if x.dtype is dtypes.bool_ else "sub", (hi, lo), out)


__all__ = ["diff", "diff_function"]
