"""Scans: cumsum and cumprod along one dim, out of place and in place.

Integer and bool inputs accumulate into int64 (``dtype=`` picks another result type); the
in-place forms keep self's dtype, so an int8 ``cumsum_`` wraps around as in C. As in
PyTorch's CPU kernel, the running value is wider than the result: float32 accumulates in
float64, float16 and bfloat16 in float32, and each result is rounded once.
cumsum's backward is a reversed cumsum of the gradient; cumprod's divides by self where it
can and treats lines holding a zero exactly, which is why it saves both self and result.
"""
from __future__ import annotations

import numpy as np

from .. import dtypes
from ..arg_parser import binding
from ..autograd.derivatives import derivative
from ..autograd.record import record, record_inplace
from ..layout import wrap_dim
from ..tensor import Tensor, tensor_method
from .arg_checks import check_int, saved, signed, type_name
from .reduced import is_reduced
from .tensor_iterator import check_internal_overlap
from .workspace import Scratch, chunks


def _accumulator(out_dtype: np.dtype) -> np.dtype | None:
    """PyTorch's CPU scan keeps its running value in ``acc_type<scalar_t, /*is_cuda=*/false>``:
    double for float, float for half and bfloat16 (int64 for integers, as NumPy does)."""
    if out_dtype == np.float32:
        return np.dtype(np.float64)
    return np.dtype(np.float32) if is_reduced(out_dtype) else None


def _scan_into(ufunc, a: np.ndarray, dim: int, out: np.ndarray, op: str) -> None:
    """out = ufunc.accumulate(a) along dim, the running value kept in PyTorch's accumulator
    type and each result rounded once. The cast happens first (a copy into out, as PyTorch's
    ``self.to(dtype)``); the widened running values go through the workspace, a block of lines
    at a time (a line longer than the workspace in segments, the last value carried on)."""
    if out is not a:
        np.copyto(out, a, casting="unsafe")
    acc_dtype = _accumulator(out.dtype)
    if out.ndim == 0 or out.size == 0:
        return
    if acc_dtype is None:
        ufunc.accumulate(out, axis=dim, out=out)
        return
    o = np.moveaxis(out, dim, -1)
    n = o.shape[-1]
    with Scratch(acc_dtype, op, o.size) as scratch:
        seg = min(n, scratch.capacity)
        for part in chunks(o.shape[:-1], max(1, scratch.capacity // seg)):
            lines, carry = o[part], None
            for start in range(0, n, seg):
                block = lines[..., start:start + seg]
                acc = scratch.view(block.shape)
                np.copyto(acc, block)
                if carry is not None:
                    ufunc(acc[..., 0], carry, out=acc[..., 0])
                ufunc.accumulate(acc, axis=-1, out=acc)
                if start + seg < n:
                    carry = acc[..., -1].copy()  # one value per line (a single line here)
                np.copyto(block, acc, casting="unsafe")


def _result_dtype(op: str, self: Tensor, dtype) -> dtypes.dtype:
    if dtype is None:
        return self.dtype if self.dtype.category == dtypes.FLOATING else dtypes.int64
    if not isinstance(dtype, dtypes.dtype):
        raise TypeError(f"{op}(): argument 'dtype' must be torch.dtype, not {type_name(dtype)}")
    return dtype


def _kernel_name(op: str) -> str:
    return f'"{op}_out_cpu" not implemented for \'Bool\''


def _dim_arg(op: str, dim) -> int:
    return check_int(op, "dim", dim, 1)


def _scan(op: str, ufunc, self: Tensor, dim, dtype) -> Tensor:
    dim = _dim_arg(op, dim)
    d = wrap_dim(dim, self.dim())
    rd = _result_dtype(op, self, dtype)
    if rd is dtypes.bool_:
        raise NotImplementedError(_kernel_name(op))
    out = Tensor._empty(self._shape, rd, op)
    _scan_into(ufunc, self._array(), d, out._array(), op)
    return record(op, out, {"self": self}, dim=saved(dim))


def _scan_(op: str, ufunc, self: Tensor, dim, dtype) -> Tensor:
    dim = _dim_arg(op + "_", dim)
    d = wrap_dim(dim, self.dim())
    rd = self.dtype if dtype is None else _result_dtype(op + "_", self, dtype)

    def check():
        if rd is not self.dtype:
            raise RuntimeError(f"Bad in-place call: input tensor dtype {self.dtype.c_name} and "
                               f"output tensor dtype {rd.c_name} should match")
        if rd is dtypes.bool_:
            raise NotImplementedError(_kernel_name(op))
        check_internal_overlap(self)

    a = self._array()
    return record_inplace(op, self, {"self": self},
                          compute=lambda: _scan_into(ufunc, a, d, a, op), check=check,
                          dim=saved(dim))


@binding()
@tensor_method
def cumsum(self, dim: int, *, dtype=None) -> Tensor:
    return _scan("cumsum", np.add, self, dim, dtype)


@binding()
@tensor_method
def cumsum_(self, dim: int, *, dtype=None) -> Tensor:
    return _scan_("cumsum", np.add, self, dim, dtype)


@binding()
@tensor_method
def cumprod(self, dim: int, *, dtype=None) -> Tensor:
    return _scan("cumprod", np.multiply, self, dim, dtype)


@binding()
@tensor_method
def cumprod_(self, dim: int, *, dtype=None) -> Tensor:
    return _scan_("cumprod", np.multiply, self, dim, dtype)


def _reversed_cumsum(g: Tensor, dim: int) -> Tensor:
    """out[k] = sum of g[j] for j >= k along dim."""
    return g.flip(dim).cumsum(dim).flip(dim)


@derivative("cumsum", "CumsumBackward0")
def _cumsum_bw(ctx, g):
    if g.dim() == 0:
        return (g,)
    return (_reversed_cumsum(g, wrap_dim(signed(ctx.attr("dim")), g.dim())),)


@derivative("cumprod", "CumprodBackward0", saves={"self": None, "result": None})
def _cumprod_bw(ctx, g):
    x, r = ctx.saved("self"), ctx.saved("result")
    if x.dim() == 0:
        return (g,)
    d = wrap_dim(signed(ctx.attr("dim")), x.dim())
    xa = x._array()
    if np.all(xa):  # no zero: d out[j] / d x[k] = out[j] / x[k] for j >= k
        return (_reversed_cumsum(g * r, d) / x,)
    gx = (g * 0).to(x.dtype) if g.dtype is not x.dtype else g * 0
    _cumprod_bw_exact(np.moveaxis(xa, d, -1), np.moveaxis(g._array(), d, -1),
                      np.moveaxis(r._array(), d, -1), np.moveaxis(gx._array(), d, -1))
    return (gx,)


def _cumprod_bw_exact(x: np.ndarray, g: np.ndarray, r: np.ndarray, out: np.ndarray) -> None:
    """Line by line (along the last axis), with z the first zero of the line:
    k < z: out[k] = sum_{z > j >= k} g[j] r[j] / x[k] (later products hold x[z] = 0);
    k = z: out[z] = prod_{i < z} x[i] * sum_{j >= z} g[j] prod_{z < i <= j} x[i];
    k > z: 0 (every product that holds x[k] also holds x[z])."""
    for idx in np.ndindex(*x.shape[:-1]):
        xl, gl, rl, ol = x[idx], g[idx], r[idx], out[idx]
        zeros = np.flatnonzero(xl == 0)
        if zeros.size == 0:
            ol[...] = np.cumsum((gl * rl)[::-1])[::-1] / xl
            continue
        z = int(zeros[0])
        ol[...] = 0
        if z:
            ol[:z] = np.cumsum((gl[:z] * rl[:z])[::-1])[::-1] / xl[:z]
        before = rl[z - 1] if z else 1
        after = np.cumprod(np.concatenate(([1], xl[z + 1:])))
        ol[z] = before * np.sum(gl[z:] * after)
