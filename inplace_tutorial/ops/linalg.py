"""Matrix products: mm, bmm, matmul/@, dot, mv, and the dtype and shape checks they share with
the add*mm family (addmm.py) and einsum (einsum.py).

Every buffer comes from the allocator (``_blas.matmul_into``), so the course can measure what a
product costs.
"""
from __future__ import annotations

import math

import numpy as np

from .. import dtypes
from ..arg_parser import binding
from ..autograd.derivatives import derivative
from ..autograd.record import record
from ..layout import broadcast_shapes, contiguous_strides
from ..modes import is_grad_enabled
from ..tensor import Tensor, tensor_method
from . import dtype_rules
from ._blas import matmul_into
from .arg_checks import check_tensor


def _c(t: Tensor) -> str:
    return t.dtype.c_name  # the C++ type PyTorch's kernels print ("long int", "c10::Half")


def check_same_dtype(kind: str, *ts: Tensor) -> None:
    """Matrix products don't promote dtypes; PyTorch's wording differs per kernel."""
    if all(t.dtype is ts[0].dtype for t in ts):
        dtype_rules.check(kind, ts[0].dtype)  # then the kernel's own dtype support (no bool)
        return
    a, b = ts[0], ts[-1]
    if kind == "mm":
        msg = f"expected m1 and m2 to have the same dtype, but got: {_c(a)} != {_c(b)}"
    elif kind == "bmm":
        msg = f"expected scalar type {a.dtype.short} but found {b.dtype.short}"
    elif kind == "mv":
        msg = (f"addmv input tensors must have the same dtype, but got {b.dtype.short}, "
               f"{a.dtype.short}, and {b.dtype.short}")
    elif kind == "dot":
        msg = (f"dot : expected both vectors to have same dtype, but found {a.dtype.short} "
               f"and {b.dtype.short}")
    elif kind == "baddbmm":
        msg = (f"Input dtypes must be the same, got: input {_c(ts[0])}, batch1: {_c(ts[1])}, "
               f"batch2: {_c(ts[2])}")
    else:  # addmm, addbmm: the two matrices first, then self against them
        self_, m1, m2 = ts
        if m1.dtype is not m2.dtype:
            msg = (f"mat1 and mat2 must have the same dtype, but got {m1.dtype.short} and "
                   f"{m2.dtype.short}")
        else:
            msg = (f"self and mat2 must have the same dtype, but got {self_.dtype.short} and "
                   f"{m2.dtype.short}")
    raise RuntimeError(msg)


def _need(t: Tensor, ndim: int, name: str, what: str) -> None:
    if len(t._shape) != ndim:
        raise RuntimeError(f"{name} must be a {what}")


def _mm_check(a: Tensor, b: Tensor) -> None:
    _need(a, 2, "self", "matrix")
    _need(b, 2, "mat2", "matrix")
    if a._shape[1] != b._shape[0]:
        raise RuntimeError(f"mat1 and mat2 shapes cannot be multiplied "
                           f"({a._shape[0]}x{a._shape[1]} and {b._shape[0]}x{b._shape[1]})")


def _bmm_check(a: Tensor, b: Tensor) -> None:
    _need(a, 3, "batch1", "3D tensor")
    _need(b, 3, "batch2", "3D tensor")
    if a._shape[0] != b._shape[0] or a._shape[2] != b._shape[1]:
        raise RuntimeError(
            f"Expected size for first two dimensions of batch2 tensor to be: "
            f"[{a._shape[0]}, {a._shape[2]}] but got: [{b._shape[0]}, {b._shape[1]}].")


def check_addbmm(a: Tensor, b: Tensor) -> None:
    """addbmm checks its batches differently from bmm (and words it differently)."""
    if b.dim() < 3:  # PyTorch reads batch2.size(2) before it checks anything else
        raise IndexError(f"Dimension out of range (expected to be in range of [{-b.dim()}, "
                         f"{b.dim() - 1}], but got 2)")
    _need(a, 3, "batch1", "3D tensor")
    if a._shape[0] != b._shape[0]:
        raise RuntimeError(f"batch1 and batch2 must have same number of batches, got "
                           f"{a._shape[0]} and {b._shape[0]}")
    if a._shape[2] != b._shape[1]:
        raise RuntimeError(f"Incompatible matrix sizes for bmm ({a._shape[1]}x{a._shape[2]} "
                           f"and {b._shape[1]}x{b._shape[2]})")


def _product(a: Tensor, b: Tensor, name: str) -> Tensor:
    out = Tensor._empty(tuple(a._shape[:-1]) + (b._shape[-1],), dtypes.result_type(a, b), name)
    matmul_into(a._array(), b._array(), out._array(), name)
    return out


def geometry(name: str, t: Tensor) -> dict:
    """``_saved_<name>_sym_sizes``/``_sym_strides``: the sizes and strides PyTorch's mm
    backward formulas keep to lay out a gradient like the input."""
    return {f"{name}_sym_sizes": t._shape, f"{name}_sym_strides": t._stride}


def fused_extras(name: str, a: Tensor, b: Tensor) -> dict:
    """What addmm and addbmm keep besides their tensors (derivatives.yaml)."""
    if name == "addmm":
        return {**geometry("mat1", a), **geometry("mat2", b)}
    if name == "addbmm":
        return {"batch1_sym_argsize_0": a._shape[0], "batch1_sym_argsize_1": a._shape[1],
                "batch2_sym_argsize_2": b._shape[2]}
    return {}


@binding()
@tensor_method
def mm(self, mat2: Tensor) -> Tensor:
    check_tensor("mm", "mat2", mat2)
    _mm_check(self, mat2)
    check_same_dtype("mm", self, mat2)
    return record("mm", _product(self, mat2, "mm"), {"self": self, "mat2": mat2},
                  **geometry("self", self), **geometry("mat2", mat2))


# the gradients of a product's operands, laid out as PyTorch's mm_mat1_backward and
# mm_mat2_backward lay them out (shared with the add*mm family)
def _mm_grad(a: np.ndarray, b: np.ndarray, like: Tensor) -> Tensor:
    """``a @ b`` into a fresh "mm" buffer: what ``g.mm(mat2.t())`` allocates and computes, for
    a backward formula whose operands are matrices of one dtype by construction, without
    building t() views and rerunning mm's argument checks (the training step's hot path)."""
    out = Tensor._empty((a.shape[0], b.shape[1]), like.dtype, "mm")
    matmul_into(a, b, out._array(), "mm")
    return out


def _layout(ctx, name: str) -> tuple:
    """(sizes, strides) of a matrix input, as the node keeps them (``geometry`` above)."""
    return ctx.attr(f"{name}_sym_sizes"), ctx.attr(f"{name}_sym_strides")


def _column_major(layout: tuple) -> bool:
    """The test of PyTorch's mm_mat1_backward/mm_mat2_backward: the input was a transposed
    contiguous matrix (strides (1, rows)), as ``weight.t()`` in F.linear is."""
    sizes, strides = layout
    return strides[0] == 1 and strides[1] == sizes[0]


def _mat1_grad(g: Tensor, mat2: Tensor, mat1_layout: tuple) -> Tensor:
    """mm_mat1_backward: ``g @ mat2.T``; for a column-major mat1, ``(mat2 @ g.T).T``, so the
    gradient has mat1's layout (a leaf's AccumulateGrad then keeps it without a copy)."""
    if _column_major(mat1_layout):
        return _mm_grad(mat2._array(), g._array().T, g).t()
    return _mm_grad(g._array(), mat2._array().T, g)


def _mat2_grad(g: Tensor, mat1: Tensor, mat2_layout: tuple) -> Tensor:
    """mm_mat2_backward: ``mat1.T @ g``; for a column-major mat2 (``weight.t()``),
    ``(g.T @ mat1).T``: a transposed view of a buffer laid out like the weight, which
    TBackward0 turns back into the weight's own layout."""
    if _column_major(mat2_layout):
        return _mm_grad(g._array().T, mat1._array(), g).t()
    return _mm_grad(mat1._array().T, g._array(), g)


@derivative("mm", "MmBackward0", inputs=("self", "mat2"), saves={"self": "mat2", "mat2": "self"})
def _mm_bw(ctx, g):
    return (_mat1_grad(g, ctx.saved("mat2"), _layout(ctx, "self")) if ctx.needs(0) else None,
            _mat2_grad(g, ctx.saved("self"), _layout(ctx, "mat2")) if ctx.needs(1) else None)


@binding()
@tensor_method
def bmm(self, mat2: Tensor) -> Tensor:
    check_tensor("bmm", "mat2", mat2)
    _bmm_check(self, mat2)
    check_same_dtype("bmm", self, mat2)
    return record("bmm", _product(self, mat2, "bmm"), {"self": self, "mat2": mat2})


@derivative("bmm", "BmmBackward0", inputs=("self", "mat2"), saves={"self": "mat2", "mat2": "self"})
def _bmm_bw(ctx, g):
    return (g.bmm(ctx.saved("mat2").transpose(1, 2)) if ctx.needs(0) else None,
            ctx.saved("self").transpose(1, 2).bmm(g) if ctx.needs(1) else None)


@binding()
@tensor_method
def dot(self, tensor: Tensor) -> Tensor:
    """PyTorch names dot's argument ``tensor``."""
    check_tensor("dot", "tensor", tensor)
    if self.dim() != 1 or tensor.dim() != 1:
        raise RuntimeError(
            f"1D tensors expected, but got {self.dim()}D and {tensor.dim()}D tensors")
    check_same_dtype("dot", self, tensor)
    if self._shape != tensor._shape:
        n, m = self._shape[0], tensor._shape[0]
        raise RuntimeError(f"inconsistent tensor size, expected tensor [{n}] and src [{m}] to "
                           f"have the same number of elements, but got {n} and {m} elements "
                           "respectively")
    out = Tensor._empty((), dtypes.result_type(self, tensor), "dot")
    out._array()[...] = np.dot(self._array(), tensor._array())
    return record("dot", out, {"self": self, "tensor": tensor})


@derivative("dot", "DotBackward0", inputs=("self", "tensor"),
            saves={"self": "tensor", "tensor": "self"})
def _dot_bw(ctx, g):
    return (g * ctx.saved("tensor") if ctx.needs(0) else None,
            g * ctx.saved("self") if ctx.needs(1) else None)


@binding()
@tensor_method
def mv(self, vec: Tensor) -> Tensor:
    check_tensor("mv", "vec", vec)
    if self.dim() == 0:  # PyTorch sizes the result by self.size(0) before any check
        raise IndexError("Dimension specified as 0 but tensor has no dimensions")
    if self.dim() != 2 or vec.dim() != 1:  # addmv's checks: the result is a vector
        raise RuntimeError(f"vector + matrix @ vector expected, got 1, {self.dim()}, "
                           f"{vec.dim()}")
    if vec._shape[0] != self._shape[1]:
        raise RuntimeError(f"size mismatch, got input ({self._shape[0]}), mat "
                           f"({self._shape[0]}x{self._shape[1]}), vec ({vec._shape[0]})")
    check_same_dtype("mv", self, vec)
    out = Tensor._empty((self._shape[0],), dtypes.result_type(self, vec), "mv")
    np.matmul(self._array(), vec._array(), out=out._array())
    return record("mv", out, {"self": self, "vec": vec})


@derivative("mv", "MvBackward0", inputs=("self", "vec"), saves={"self": "vec", "vec": "self"})
def _mv_bw(ctx, g):
    return (g.unsqueeze(1).mm(ctx.saved("vec").unsqueeze(0)) if ctx.needs(0) else None,
            ctx.saved("self").t().mv(g) if ctx.needs(1) else None)


def _unsafe_view(t: Tensor, shape: tuple) -> Tensor:
    """Reinterpret a fresh contiguous result (no _base): PyTorch's _unsafe_view."""
    out = Tensor._make(t._storage, tuple(shape), contiguous_strides(tuple(shape)), t._offset,
                       t.dtype)
    return record("_unsafe_view", out, {"self": t}, self_sym_sizes=t._shape)


@binding()
@tensor_method
def matmul(self, other: Tensor) -> Tensor:
    """PyTorch's matmul dispatch: dot, mv, mm, folded mm, or broadcast bmm."""
    check_tensor("matmul", "other", other)
    da, db = self.dim(), other.dim()
    if da == 1 and db == 1:
        return self.dot(other)
    if da == 2 and db == 1:
        return self.mv(other)
    if da == 1 and db == 2:
        return self.unsqueeze(0).mm(other).squeeze_(0)  # PyTorch squeezes in place here
    if da == 2 and db == 2:
        return self.mm(other)
    m = self._shape[-1]
    if da >= 3 and db <= 2:  # fold the batch into the rows of one mm
        b2 = other.unsqueeze(-1) if db == 1 else other
        out = self.reshape(-1, m).mm(b2)
        shape = self._shape[:-1] + (() if db == 1 else (other._shape[-1],))
        return _unsafe_view(out, shape)
    a = self.unsqueeze(0) if da == 1 else self
    b = other.unsqueeze(-1) if db == 1 else other
    batch = broadcast_shapes(a._shape[:-2], b._shape[:-2])
    n, p = a._shape[-2], b._shape[-1]
    if b._shape[-2] != m:
        raise RuntimeError(f"Expected size for first two dimensions of batch2 tensor to be: "
                           f"[{batch[0] if batch else 1}, {m}] but got: "
                           f"[{batch[0] if batch else 1}, {b._shape[-2]}].")
    nb = math.prod(batch)  # (not -1: a batch of empty matrices has no size to infer)
    a3 = a.expand(*batch, n, m).reshape(nb, n, m)
    b3 = b.expand(*batch, m, p).reshape(nb, m, p)
    shape = tuple(batch) + ((n,) if da > 1 else ()) + ((p,) if db > 1 else ())
    return _unsafe_view(a3.bmm(b3), shape)


# --------------------------------------------------------------------------- out_dtype=
# torch.mm/bmm/addmm/baddbmm(..., out_dtype) bind to their ``.dtype`` overloads (``.dtype_out``
# with out=), whose kernels torch 2.13 registers for CUDA only: on CPU its dispatcher finds
# none, for every dtype pair, before looking at shapes or dtypes. (The Tensor methods have no
# out_dtype.)
OUT_DTYPE_OPS = {"mm": 2, "bmm": 2, "addmm": 3, "baddbmm": 3}  # arguments before out_dtype
_OVERLOAD_BACKENDS = (
    "Meta, BackendSelect, Python, FuncTorchDynamicLayerBackMode, Functionalize, Conjugate, "
    "Negative, ZeroTensor, ADInplaceOrView, AutogradOther, AutogradCPU, AutogradCUDA, "
    "AutogradHIP, AutogradXLA, AutogradMPS, AutogradIPU, AutogradXPU, AutogradHPU, AutogradVE, "
    "AutogradLazy, AutogradMTIA, AutogradMAIA, AutogradPrivateUse1, AutogradPrivateUse2, "
    "AutogradPrivateUse3, AutogradMeta, AutogradNestedTensor, Tracer, AutocastCPU, AutocastMTIA, "
    "AutocastMAIA, AutocastXPU, AutocastMPS, AutocastCUDA, FuncTorchBatched, "
    "BatchedNestedTensor, FuncTorchVmapMode, Batched, VmapMode, FuncTorchGradWrapper, "
    "PythonTLSSnapshot, FuncTorchDynamicLayerFrontMode, PreDispatch, PythonDispatcher")


def refuse_out_dtype(name: str, out: Tensor | None) -> None:
    """torch.name(..., out_dtype[, out=]) on CPU: the autograd kernel's out= refusal (an out that
    requires grad, grad mode on), else the dispatcher's missing-kernel error. torch's text then
    lists where each backend's kernel is registered (source lines of its build, its install
    path); the core's stops before that listing."""
    if out is not None and out.requires_grad and is_grad_enabled():
        raise RuntimeError(f"aten::{name}(): functions with out=... arguments don't support "
                           "automatic differentiation, but one of the arguments requires grad.")
    op = f"'aten::{name}.{'dtype_out' if out is not None else 'dtype'}'"
    raise NotImplementedError(
        f"Could not run {op} with arguments from the 'CPU' backend. This could be because the "
        "operator doesn't exist for this backend, or was omitted during the selective/custom "
        "build process (if using custom build). If you are a Facebook employee using PyTorch "
        "on mobile, please visit https://fburl.com/ptmfixes for possible resolutions. "
        f"{op} is only available for these backends: [{_OVERLOAD_BACKENDS}].")
