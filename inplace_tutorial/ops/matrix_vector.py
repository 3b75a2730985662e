"""A matrix-vector product and an outer product added to self: addmv(_) and addr(_).

``y.addmv_(A, x, beta=b, alpha=a)`` is ``y = b*y + a*(A @ x)``; ``M.addr_(u, v)`` is
``M = b*M + a*outer(u, v)``. They are the BLAS level-2 siblings of addmm (linalg.py): addmv
checks like a matrix product (one dtype, no promotion), addr like an element-wise op
(TensorIterator: dtypes promote, self broadcasts, overlaps are refused). Both save the *other*
operand for backward, and beta/alpha as plain values. With beta 0 self is ignored, NaN included.

One difference on purpose: addmv_ with ``vec`` sharing memory with self computes the product
first (one vector-sized counted buffer), so the answer is the mathematical one; PyTorch's BLAS
call reads vec while it writes and returns other numbers.
"""
from __future__ import annotations

import numpy as np

from .. import dtypes
from ..arg_parser import binding
from ..autograd.derivatives import derivative
from ..autograd.record import record, record_inplace
from ..creation import empty_strided
from ..layout import out_strides as layout_out_strides
from ..tensor import Tensor, tensor_method
from . import dtype_rules
from .addmm import as_scalar
from .arg_checks import check_tensor
from .tensor_iterator import check_internal_overlap, check_partial_overlap
from .workspace import Scratch


def _dims(shape: tuple) -> str:
    return ", ".join(map(str, shape))


def kernel_scalar(v, dtype: dtypes.dtype):
    """beta/alpha as the kernel sees them: ``Scalar.to<scalar_t>()`` (2.7 is 2 for a long
    tensor, any non-zero is True for bool; float16 rounds)."""
    if isinstance(v, complex) or isinstance(v, np.complexfloating):
        if v.imag != 0:
            raise RuntimeError(f"value cannot be converted to type {dtype.c_name} without "
                               "overflow")
        v = v.real
    if dtype is dtypes.bool_:
        return bool(v)
    if dtype.category == dtypes.INTEGER:
        return np.array(int(v)).astype(dtype.np)[()]  # wraps as a C cast does
    return dtype.np.type(v)


# --------------------------------------------------------------------------- addmv
def addmv_checks(self: Tensor, mat: Tensor, vec: Tensor) -> None:
    """addmv's meta function, in its order: ranks, sizes, then one dtype for all three."""
    if not (mat.dim() == 2 and vec.dim() == 1 and self.dim() <= 1):
        raise RuntimeError(f"vector + matrix @ vector expected, got {self.dim()}, {mat.dim()}, "
                           f"{vec.dim()}")
    n, m = mat._shape
    if not (m == vec._shape[0] and (n == self.numel() or self.numel() == 1)):
        size0 = self._shape[0] if self.dim() else 1
        raise RuntimeError(f"size mismatch, got input ({size0}), mat ({n}x{m}), vec "
                           f"({vec._shape[0]})")
    if not (self.dtype is mat.dtype is vec.dtype):
        raise RuntimeError(f"addmv input tensors must have the same dtype, but got "
                           f"{self.dtype.short}, {mat.dtype.short}, and {vec.dtype.short}")


def addmv_args(name: str, mat, vec, beta, alpha) -> tuple:
    check_tensor(name, "mat", mat, position=1)
    check_tensor(name, "vec", vec, position=2)
    return as_scalar(name, "beta", beta), as_scalar(name, "alpha", alpha)


def _addmv_kernel(out: Tensor, self: Tensor, mat: Tensor, vec: Tensor, beta, alpha) -> None:
    """out = beta*self + alpha*(mat @ vec), a block of rows at a time through the shared
    workspace (no allocation, as PyTorch's BLAS call makes none). A mat or vec sharing memory
    with out is multiplied whole into a counted buffer first, so it is read before any write."""
    dt = out.dtype
    b, a = kernel_scalar(beta, dt), kernel_scalar(alpha, dt)
    cd = dtypes.compute_np(dt)  # float16/bfloat16: the product accumulates in float32
    o, m, v = out._array(), mat._array(), vec._array()
    # self of one element for n rows: a scalar (NumPy buffers a broadcast operand)
    s = self._array() if self._shape == o.shape else self._array().reshape(-1)[0]
    if mat._storage is out._storage or vec._storage is out._storage:
        prod = Tensor._empty(o.shape, dtypes.float32 if cd != dt.np else dt, "addmv (product)")
        np.matmul(m, v, out=prod._array(), dtype=cd, casting="unsafe")
        _combine(o, s, prod._array(), a, b, self is out)
        return
    if cd != dt.np:
        _addmv_widened(o, s, m, v, cd, a, b, self is out)
        return
    with Scratch(cd, "addmv", o.size) as scratch:
        rows = max(1, scratch.capacity)
        for r in range(0, o.shape[0], rows):
            blk = slice(r, min(r + rows, o.shape[0]))
            p = scratch.view((blk.stop - blk.start,))
            np.matmul(m[blk], v, out=p, dtype=cd, casting="unsafe")
            _combine(o[blk], s[blk] if isinstance(s, np.ndarray) else s, p, a, b,
                     self is out)


def _addmv_widened(o: np.ndarray, s, m: np.ndarray, v: np.ndarray, cd, a, b,
                   in_place: bool) -> None:
    """float16/bfloat16: vec and a block of mat's rows widened to float32 in the workspace,
    then one float32 product per block (np.matmul with dtype=float32 would copy the whole
    16-bit matrix behind the count)."""
    k = m.shape[1]
    with Scratch(cd, "addmv", k + o.size * (k + 1)) as scratch:
        rows = min(o.shape[0], (scratch.capacity - k) // (k + 1))
        if rows < 1:  # a row longer than the workspace: widen mat whole, counted
            wide = Tensor._empty(m.shape, dtypes.float32, "addmv (widened mat)")._array()
            np.copyto(wide, m, casting="unsafe")
            prod = Tensor._empty(o.shape, dtypes.float32, "addmv (product)")._array()
            np.matmul(wide, v, out=prod, dtype=cd, casting="unsafe")
            _combine(o, s, prod, a, b, in_place)
            return
        buf = scratch.view((k + rows * (k + 1),))
        vw, mw_all, p_all = buf[:k], buf[k:k + rows * k], buf[k + rows * k:]
        np.copyto(vw, v, casting="unsafe")
        for r in range(0, o.shape[0], rows):
            blk = slice(r, min(r + rows, o.shape[0]))
            n = blk.stop - blk.start
            mw, p = mw_all[: n * k].reshape(n, k), p_all[:n]
            np.copyto(mw, m[blk], casting="unsafe")
            np.matmul(mw, vw, out=p)
            _combine(o[blk], s[blk] if isinstance(s, np.ndarray) else s, p, a, b, in_place)


def _combine(o: np.ndarray, s: np.ndarray, p: np.ndarray, a, b, in_place: bool) -> None:
    """o = b*s + a*p, with p (the product) free to overwrite."""
    if a != 1:
        np.multiply(p, a, out=p, casting="unsafe")
    if b == 0:  # self is ignored, NaN and inf included
        np.copyto(o, p, casting="unsafe")
        return
    if not isinstance(s, np.ndarray):
        o.fill(s * b if b != 1 else s)
    elif b != 1:
        np.multiply(s, b, out=o, casting="unsafe")
    elif not in_place:
        np.copyto(o, s, casting="unsafe")
    np.add(o, p, out=o, casting="unsafe")


def _addmv_empty(out: Tensor, self: Tensor, beta) -> None:
    """mat has no elements: PyTorch writes beta*self (zeros for beta 0) without BLAS."""
    o = out._array()
    if beta == 0:
        o.fill(0)
        return
    np.multiply(np.broadcast_to(self._array(), o.shape), kernel_scalar(beta, out.dtype), out=o,
                casting="unsafe")


@binding()
@tensor_method
def addmv(self, mat: Tensor, vec: Tensor, *, beta=1, alpha=1) -> Tensor:
    beta, alpha = addmv_args("addmv", mat, vec, beta, alpha)
    addmv_checks(self, mat, vec)
    dtype_rules.check("mv", self.dtype)
    out = Tensor._empty((mat._shape[0],), vec.dtype, "addmv")
    if mat.numel() == 0 and beta != 0:
        # PyTorch computes self * beta into the result, which takes self's shape ([1] or [])
        out = Tensor._empty(self._shape, vec.dtype, "addmv")
    compute_addmv(out, self, mat, vec, beta, alpha)
    return record("addmv", out, {"self": self, "mat": mat, "vec": vec}, beta=beta, alpha=alpha)


def compute_addmv(out: Tensor, self: Tensor, mat: Tensor, vec: Tensor, beta, alpha) -> None:
    if mat.numel() == 0:
        _addmv_empty(out, self, beta)
    elif out.numel():
        _addmv_kernel(out, self, mat, vec, beta, alpha)


@binding()
@tensor_method
def addmv_(self, mat: Tensor, vec: Tensor, *, beta=1, alpha=1) -> Tensor:
    beta, alpha = addmv_args("addmv_", mat, vec, beta, alpha)

    def check():
        addmv_checks(self, mat, vec)
        if self._shape != (mat._shape[0],):
            raise RuntimeError(f"Bad in-place call: input tensor size [{_dims(self._shape)}] "
                               f"and output tensor size [{mat._shape[0]}] should match")
        dtype_rules.check("mv", self.dtype)

    return record_inplace("addmv", self, {"self": self, "mat": mat, "vec": vec},
                          compute=lambda: compute_addmv(self, self, mat, vec, beta, alpha),
                          check=check, beta=beta, alpha=alpha)


@derivative("addmv", "AddmvBackward0", inputs=("self", "mat", "vec"),
            saves={"mat": "vec", "vec": "mat"})
def _addmv_bw(ctx, g):
    a = ctx.attr("alpha")
    return (_scaled(g, ctx.attr("beta")) if ctx.needs(0) else None,
            _scaled(g.unsqueeze(1).mm(ctx.saved("vec").unsqueeze(0)), a) if ctx.needs(1)
            else None,
            _scaled(ctx.saved("mat").t().mv(g), a) if ctx.needs(2) else None)


def _scaled(g: Tensor, s) -> Tensor:
    return g if s == 1 else g * s  # PyTorch's maybe_multiply


# --------------------------------------------------------------------------- addr
def addr_args(name: str, vec1, vec2, beta, alpha) -> tuple:
    check_tensor(name, "vec1", vec1, position=1)
    check_tensor(name, "vec2", vec2, position=2)
    return as_scalar(name, "beta", beta), as_scalar(name, "alpha", alpha)


def _check_addr_scalar(dtype: dtypes.dtype, v, name: str) -> None:
    if isinstance(v, (bool, np.bool_)) and dtype is not dtypes.bool_:
        raise RuntimeError(f"Boolean {name} only supported for Boolean results.")
    if dtype.category < dtypes.FLOATING and not isinstance(v, (int, np.integer, bool, np.bool_)):
        raise RuntimeError(f"For integral input tensors, argument {name} must not be a floating "
                           "point number.")


def addr_checks(self: Tensor, vec1: Tensor, vec2: Tensor, out: Tensor | None) -> Tensor:
    """build_addr_iter's checks in its order; returns self as the iterator reads it
    (expanded to (n, m) unless self is the output)."""
    for v, arg in ((vec1, "vec1"), (vec2, "vec2")):
        if v.dim() != 1:
            raise RuntimeError(f"addr: Expected 1-D argument {arg}, but got {v.dim()}-D")
    n, m = vec1._shape[0], vec2._shape[0]
    s = self if out is self else self.expand(n, m)
    if s.dim() != 2:
        raise RuntimeError(f"2D tensor expected, got {s.dim()}D tensor for input")
    if s._shape != (n, m):
        raise RuntimeError(f"size mismatch, input: [{_dims(s._shape)}], v1: [{n}], v2: [{m}]")
    return s


def addr_dtype(self: Tensor, vec1: Tensor, vec2: Tensor, beta, alpha) -> dtypes.dtype:
    rd = dtypes.result_type(self, vec1, vec2)
    _check_addr_scalar(rd, beta, "beta")
    _check_addr_scalar(rd, alpha, "alpha")
    return rd


def addr_kernel(out: Tensor, s: Tensor, vec1: Tensor, vec2: Tensor, beta, alpha,
                 rd: dtypes.dtype) -> None:
    """out = beta*self + (alpha*vec1) * vec2, element by element in the common dtype (float16
    rounds after every step, as PyTorch's kernel), one row at a time through the workspace:
    no (n, m) temporary, and no broadcast operand (NumPy buffers those, 64 KiB a call)."""
    o = out._array()
    b, a = kernel_scalar(beta, rd), kernel_scalar(alpha, rd)
    u, v, x = vec1._array(), vec2._array(), s._array()
    ct = rd.np
    n, m = o.shape
    with Scratch(ct, "addr", 2 * m) as scratch:
        step = max(1, scratch.capacity // 2)
        for i in range(n):
            xi = x[i]
            for c in range(0, m, step):
                cols = slice(c, min(c + step, m))
                t = scratch._buf[:cols.stop - c]
                w = scratch._buf[cols.stop - c:2 * (cols.stop - c)]
                xs = xi[cols] if xi.strides[0] else xi[0]  # (a column self: one value a row)
                if rd is dtypes.bool_:
                    np.logical_and(v[cols], bool(u[i]) and a, out=t)
                    if b:
                        np.logical_or(t, xs, out=t, dtype=np.bool_, casting="unsafe")
                else:
                    au = np.multiply(ct.type(u[i]), a, dtype=ct)
                    np.multiply(v[cols], au, out=t, dtype=ct, casting="unsafe")
                    if b != 0:  # beta 0: self is ignored, NaN and inf included
                        if isinstance(xs, np.ndarray):
                            np.multiply(xs, b, out=w, dtype=ct, casting="unsafe")
                        else:
                            w.fill(np.multiply(ct.type(xs), b, dtype=ct))
                        np.add(w, t, out=t, dtype=ct, casting="unsafe")
                np.copyto(o[i, cols], t, casting="unsafe")


@binding()
@tensor_method
def addr(self, vec1: Tensor, vec2: Tensor, *, beta=1, alpha=1) -> Tensor:
    beta, alpha = addr_args("addr", vec1, vec2, beta, alpha)
    s = addr_checks(self, vec1, vec2, None)
    rd = addr_dtype(self, vec1, vec2, beta, alpha)
    shape = s._shape
    strides = layout_out_strides(shape, _addr_geometry(s, vec1, vec2))
    out = Tensor._empty(shape, rd, "addr") if strides is None else _strided(shape, strides, rd)
    addr_kernel(out, s, vec1, vec2, beta, alpha, rd)
    return record("addr", out, {"self": self, "vec1": vec1, "vec2": vec2}, beta=beta,
                  alpha=alpha)


def _addr_geometry(s: Tensor, vec1: Tensor, vec2: Tensor) -> list:
    """The iterator's operands: self (expanded), vec1 as an (n, 1) column, vec2."""
    return [(s._shape, s._stride), ((vec1._shape[0], 1), (vec1._stride[0], 1)),
            (vec2._shape, vec2._stride)]


def _strided(shape: tuple, strides: tuple, rd: dtypes.dtype) -> Tensor:
    out = empty_strided(shape, strides, rd)
    out._storage.op = "addr"
    return out


def check_addr_out(out: Tensor, s: Tensor, vec1: Tensor, vec2: Tensor) -> None:
    """TensorIterator's overlap checks on the written-to tensor."""
    check_internal_overlap(out)
    for t in (s, vec1, vec2):
        check_partial_overlap(out, t)


@binding()
@tensor_method
def addr_(self, vec1: Tensor, vec2: Tensor, *, beta=1, alpha=1) -> Tensor:
    beta, alpha = addr_args("addr_", vec1, vec2, beta, alpha)
    found = []

    def check():
        addr_checks(self, vec1, vec2, self)
        check_addr_out(self, self, vec1, vec2)
        rd = dtypes.result_type(self, vec1, vec2)
        if not dtypes.can_cast(rd, self.dtype):
            raise RuntimeError(f"result type {rd.short} can't be cast to the desired output "
                               f"type {self.dtype.short}")
        found.append(addr_dtype(self, vec1, vec2, beta, alpha))

    return record_inplace("addr", self, {"self": self, "vec1": vec1, "vec2": vec2},
                          compute=lambda: addr_kernel(self, self, vec1, vec2, beta, alpha,
                                                       found[0]),
                          check=check, beta=beta, alpha=alpha)


@derivative("addr", "AddrBackward0", inputs=("self", "vec1", "vec2"),
            saves={"vec1": "vec2", "vec2": "vec1"})
def _addr_bw(ctx, g):
    a = ctx.attr("alpha")
    return (_scaled(g, ctx.attr("beta")) if ctx.needs(0) else None,
            _scaled(g.mv(ctx.saved("vec2")), a) if ctx.needs(1) else None,
            _scaled(g.t().mv(ctx.saved("vec1")), a) if ctx.needs(2) else None)


__all__ = ["addmv", "addmv_", "addmv_args", "addmv_checks", "addr", "addr_", "addr_args",
           "addr_checks", "addr_dtype", "addr_kernel", "check_addr_out", "compute_addmv",
           "kernel_scalar"]
