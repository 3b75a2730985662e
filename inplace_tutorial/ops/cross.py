"""The cross product of 3-vectors along one dim: torch.linalg.cross, torch.cross, Tensor.cross.

linalg_cross(self, other, dim=-1): both of the same rank, size 3 along ``dim``, the other dims
broadcast; the result is new and contiguous, of self's dtype (other must have it too).
torch.cross without a dim takes self's first dim of size 3 (deprecated: PyTorch warns once).
The node, LinalgCrossBackward0, saves self when other needs a gradient and other when self
does: grad_self = other x grad, grad_other = grad x self (derivatives.yaml).
"""
from __future__ import annotations

import numpy as np

from .. import dtypes
from ..arg_parser import saved, signed
from ..autograd.derivatives import derivative
from ..autograd.record import record
from ..layout import broadcast_shapes, wrap_dim
from ..tensor import Tensor, tensor_method
from ..warn_once import warn_once
from .arg_checks import argument_error, check_int, check_tensor
from .out_functions import computed, exact, start

_MISSING = object()
_DEPRECATED = ("Using torch.cross without specifying the dim arg is deprecated.\nPlease either "
               "pass the dim explicitly or simply use torch.linalg.cross.\nThe default value of "
               "dim will change to agree with that of linalg.cross in a future release.")


def _meta(self: Tensor, other: Tensor, dim: int) -> tuple[tuple, int]:
    """linalg_cross's meta function: the checks in its order; the result's shape and dim."""
    if self.dim() != other.dim():
        raise RuntimeError("linalg.cross: inputs must have the same number of dimensions.")
    if self.dim() == 0:  # (size(dim) wraps no scalar)
        raise IndexError(f"Dimension specified as {dim} but tensor has no dimensions")
    d = wrap_dim(dim, self.dim())
    if self._shape[d] != 3 or other._shape[d] != 3:
        raise RuntimeError(f"linalg.cross: inputs dimension {dim} must have length 3. Got "
                           f"{self._shape[d]} and {other._shape[d]}")
    return broadcast_shapes(self._shape, other._shape), d


def _check_kernel_dtypes(self: Tensor, other: Tensor) -> None:
    """The CPU kernel dispatches on self's dtype and reads other as that type."""
    if self.dtype is dtypes.bool_:
        raise NotImplementedError("\"cross\" not implemented for 'Bool'")
    if other.dtype is not self.dtype:
        raise RuntimeError(f"expected scalar type {self.dtype.short} but found "
                           f"{other.dtype.short}")


def _cross_into(o: np.ndarray, a: np.ndarray, b: np.ndarray, d: int,
                dtype: dtypes.dtype) -> None:
    """o = a x b along axis d (a, b broadcast to o's shape): r0 = a1 b2 - a2 b1, and so on,
    each product in the dtype, through one counted scratch of a component's shape."""
    def part(x: np.ndarray, k: int) -> np.ndarray:  # (a slice: a 1-D vector stays an array)
        return x[(slice(None),) * d + (slice(k, k + 1),)]
    scratch = Tensor._empty(part(o, 0).shape, dtype, "linalg_cross")
    tmp = scratch._array()
    for i, j, k in ((0, 1, 2), (1, 2, 0), (2, 0, 1)):
        r = part(o, i)
        np.multiply(part(a, j), part(b, k), out=r)
        np.multiply(part(a, k), part(b, j), out=tmp)
        np.subtract(r, tmp, out=r)


def _linalg_cross(self: Tensor, other: Tensor, dim: int) -> Tensor:
    shape, d = _meta(self, other, dim)
    _check_kernel_dtypes(self, other)
    out = Tensor._empty(shape, self.dtype, "linalg_cross")
    if out.numel():
        _cross_into(out._array(), self._array(), other._array(), d, self.dtype)
    return record("linalg_cross", out, {"self": self, "other": other}, dim=saved(dim))


@derivative("linalg_cross", "LinalgCrossBackward0", inputs=("self", "other"),
            saves={"self": "other", "other": "self"})
def _linalg_cross_bw(ctx, g):
    dim = signed(ctx.attr("dim"))
    g_self = _linalg_cross(ctx.saved("other"), g, dim) if ctx.needs(0) else None
    g_other = _linalg_cross(g, ctx.saved("self"), dim) if ctx.needs(1) else None
    return (g_self, g_other)


def _default_dim(self: Tensor, dim) -> int:
    """torch.cross's dim: as given, else self's first dim of size 3."""
    if dim is not None:
        return dim
    for i, n in enumerate(self._shape):
        if n == 3:
            return i
    raise RuntimeError("no dimension of size 3 in input")


@tensor_method
def cross(self, other=_MISSING, dim=None) -> Tensor:
    """torch.cross as a method: dim=None (deprecated) is self's first dim of size 3."""
    if other is _MISSING:
        raise TypeError('cross() missing 1 required positional arguments: "other"')
    check_tensor("cross", "other", other, 1)
    if dim is not None:
        dim = check_int("cross", "dim", dim, 2)
    return _cross(self, other, dim)


def _cross(self: Tensor, other: Tensor, dim) -> Tensor:
    if dim is None:
        warn_once(_DEPRECATED)
    return _linalg_cross(self, other, _default_dim(self, dim))


def _function_args(op: str, input, other, dim, out, keyword_dim: bool) -> int | None:
    if not isinstance(input, Tensor):
        raise argument_error(op, "input", 1, "Tensor", input)
    if other is _MISSING:
        raise TypeError(f'{op}() missing 1 required positional arguments: "other"')
    check_tensor(op, "other", other, 2)
    if dim is not None or keyword_dim:  # (linalg.cross's dim is an int, not int?)
        dim = check_int(op, "dim", dim, None if keyword_dim else 3)
    if out is not None and not isinstance(out, Tensor):
        raise TypeError(f"{op}(): argument 'out' must be Tensor, not {type(out).__name__}")
    return dim


def cross_function(input: Tensor, other=_MISSING, dim=None, *extra,  # noqa: A002
                   out: Tensor | None = None) -> Tensor:
    """torch.cross(input, other, dim=None, *, out=None)."""
    if extra:
        raise TypeError(f"cross() takes from 2 to 3 positional arguments but {3 + len(extra)} "
                        "were given")
    dim = _function_args("cross", input, other, dim, out, False)
    if out is None:
        return _cross(input, other, dim)
    return _linalg_cross_out(input, other, _default_dim(input, dim), out)


def linalg_cross(input: Tensor, other=_MISSING, *extra, dim: int = -1,  # noqa: A002
                 out: Tensor | None = None) -> Tensor:
    """torch.linalg.cross(input, other, *, dim=-1, out=None)."""
    if extra:
        raise TypeError(f"linalg_cross() takes 2 positional arguments but {2 + len(extra)} were "
                        "given")
    dim = _function_args("linalg_cross", input, other, dim, out, True)
    if out is None:
        return _linalg_cross(input, other, dim)
    return _linalg_cross_out(input, other, dim, out)


def _linalg_cross_out(self: Tensor, other: Tensor, dim: int, out: Tensor) -> Tensor:
    """The structured out= form: autograd refused, the meta checks, out's dtype exactly
    self's, then the kernel's (after out is resized), out never overlapping an input."""
    start("linalg_cross", out, (self, other))
    _meta(self, other, dim)
    exact(out, self.dtype)
    return computed("linalg_cross", out, (self, other),
                    lambda: _linalg_cross(self, other, dim), lambda o, r: exact(o, r.dtype),
                    inputs_overlap=True)


__all__ = ["cross", "cross_function", "linalg_cross"]
