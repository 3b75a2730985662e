"""The add*mm family (PyTorch's Blas.cpp/LinearAlgebra.cpp): ``beta * self + alpha * (a @ b)``
for addmm (matrices), addbmm (a batch summed into one matrix) and baddbmm (batch by batch),
out of place and in place, with their backward rows (a gradient laid out as PyTorch's
mm_mat1/mm_mat2_backward lay it out).

``addbmm_`` sums over the batch straight into self, one (n, p) product at a time, so its
transient is one (n, p) buffer; ``bmm(...).sum(0)`` materialises all b of them. The product
checks and kernels are linalg.py's.
"""
from __future__ import annotations

import numpy as np

from .. import dtypes
from ..arg_parser import binding
from ..autograd.derivatives import derivative
from ..autograd.record import record, record_inplace
from ..tensor import Tensor, tensor_method
from ._blas import matmul_into
from .arg_checks import check_tensor
from .linalg import (
    _bmm_check,
    _layout,
    _mat1_grad,
    _mat2_grad,
    _mm_check,
    check_addbmm,
    check_same_dtype,
    fused_extras,
)
from .tensor_iterator import check_internal_overlap
from .workspace import axpy_


def _pairs(name: str, a: Tensor, b: Tensor) -> list:
    """(left, right, where-in-out) for each (n, p) product the op adds into its output."""
    x, y = a._array(), b._array()
    if name == "addmm":
        return [(x, y, ...)]
    if name == "addbmm":
        return [(x[i], y[i], ...) for i in range(a._shape[0])]
    return [(x[i], y[i], i) for i in range(a._shape[0])]  # baddbmm: one product per batch


def _run(name: str, out: Tensor, self: Tensor, a: Tensor, b: Tensor, beta, alpha) -> None:
    """out = beta * self + alpha * products, using a single (n, p) buffer. A factor that
    shares out's storage (``x.addmm_(x, m)``) is read from a copy: scaling out first would
    change it, and PyTorch's result is the product of the factors as given."""
    if a._storage is out._storage:
        a = a.clone()
    if b._storage is out._storage:
        b = b.clone()
    o = out._array()
    if beta == 0:
        o.fill(0)  # as in PyTorch, self is ignored (even NaN) when beta is 0
    else:
        if self is not out:
            np.copyto(o, np.broadcast_to(self._array(), o.shape), casting="unsafe")
        if beta != 1:
            np.multiply(o, beta, out=o, casting="unsafe")
    tmp = Tensor._empty((a._shape[-2], b._shape[-1]), out.dtype, name + " (product)")
    t = tmp._array()
    for x, y, where in _pairs(name, a, b):
        matmul_into(x, y, t, name)
        target = o[where]
        if alpha == 1:
            np.add(target, t, out=target)
        else:
            axpy_(target, t, alpha, name, o.dtype)


def check_out_shape(self: Tensor, shape: tuple, inplace: bool) -> None:
    """self must broadcast to ``shape`` (PyTorch's expand errors); in place, equal it."""
    self.expand(*shape)  # raises PyTorch's expand errors for a self that can't broadcast
    if inplace and self._shape != tuple(shape):
        raise RuntimeError(f"output with shape [{', '.join(map(str, self._shape))}] doesn't "
                           f"match the broadcast shape [{', '.join(map(str, shape))}]")


def as_scalar(fn: str, arg: str, v):
    """beta/alpha are Scalars in PyTorch: a Python number, or a 0-dim tensor without grad."""
    if isinstance(v, Tensor) and v.dim() == 0 and not v.requires_grad:
        return v.item()
    if isinstance(v, (bool, int, float, complex, np.number)):
        return v
    raise TypeError(f"{fn}(): argument '{arg}' must be Number, not {type(v).__name__}")


def _check_operands(op: str, a, b) -> None:
    first, second = ("mat1", "mat2") if op.startswith("addmm") else ("batch1", "batch2")
    check_tensor(op, first, a, position=1)
    check_tensor(op, second, b, position=2)


# name -> (argument check, result shape, input names in the derivative table)
_FAMILY = {
    "addmm": (_mm_check, lambda a, b: (a._shape[0], b._shape[1]), ("self", "mat1", "mat2")),
    "addbmm": (check_addbmm, lambda a, b: (a._shape[1], b._shape[2]),
               ("self", "batch1", "batch2")),
    "baddbmm": (_bmm_check, lambda a, b: (a._shape[0], a._shape[1], b._shape[2]),
                ("self", "batch1", "batch2")),
}


def _fused_product(name: str, self: Tensor, a: Tensor, b: Tensor, beta, alpha) -> Tensor:
    """beta * self + alpha * (products of a and b) into a new tensor."""
    _check_operands(name, a, b)
    beta, alpha = as_scalar(name, "beta", beta), as_scalar(name, "alpha", alpha)
    check, shape_of, names = _FAMILY[name]
    check(a, b)
    check_same_dtype(name, self, a, b)
    shape = shape_of(a, b)
    check_out_shape(self, shape, False)
    out = Tensor._empty(shape, dtypes.result_type(self, a, b), name)
    _run(name, out, self, a, b, beta, alpha)
    return record(name, out, dict(zip(names, (self, a, b))), beta=beta, alpha=alpha,
                  **fused_extras(name, a, b))


def _fused_product_(name: str, self: Tensor, a: Tensor, b: Tensor, beta, alpha) -> Tensor:
    """The same, written into self: no (b, n, p) intermediate, one (n, p) buffer."""
    _check_operands(name + "_", a, b)
    beta, alpha = as_scalar(name + "_", "beta", beta), as_scalar(name + "_", "alpha", alpha)
    check, shape_of, names = _FAMILY[name]

    def checks():
        check(a, b)
        check_same_dtype(name, self, a, b)
        shape = tuple(shape_of(a, b))
        if name == "addbmm":
            check_out_shape(self, shape, True)
            shape = self._shape
        elif name == "baddbmm":
            self.expand(*shape)  # its meta broadcasts self first (PyTorch's expand errors)
        if self._shape != shape:  # addmm_ and baddbmm_ are structured: meta's in-place check
            raise RuntimeError(f"Bad in-place call: input tensor size {list(self._shape)} and "
                               f"output tensor size {list(shape)} should match")
        if name != "baddbmm":  # (PyTorch's baddbmm_ writes an expanded self without asking)
            check_internal_overlap(self)
    return record_inplace(name, self, dict(zip(names, (self, a, b))),
                          compute=lambda: _run(name, self, self, a, b, beta, alpha),
                          check=checks, beta=beta, alpha=alpha, **fused_extras(name, a, b))


@binding()
@tensor_method
def addmm(self, mat1: Tensor, mat2: Tensor, *, beta=1, alpha=1) -> Tensor:
    return _fused_product("addmm", self, mat1, mat2, beta, alpha)


@binding()
@tensor_method
def addmm_(self, mat1: Tensor, mat2: Tensor, *, beta=1, alpha=1) -> Tensor:
    return _fused_product_("addmm", self, mat1, mat2, beta, alpha)


@binding()
@tensor_method
def addbmm(self, batch1: Tensor, batch2: Tensor, *, beta=1, alpha=1) -> Tensor:
    return _fused_product("addbmm", self, batch1, batch2, beta, alpha)


@binding()
@tensor_method
def addbmm_(self, batch1: Tensor, batch2: Tensor, *, beta=1, alpha=1) -> Tensor:
    return _fused_product_("addbmm", self, batch1, batch2, beta, alpha)


@binding()
@tensor_method
def baddbmm(self, batch1: Tensor, batch2: Tensor, *, beta=1, alpha=1) -> Tensor:
    return _fused_product("baddbmm", self, batch1, batch2, beta, alpha)


@binding()
@tensor_method
def baddbmm_(self, batch1: Tensor, batch2: Tensor, *, beta=1, alpha=1) -> Tensor:
    return _fused_product_("baddbmm", self, batch1, batch2, beta, alpha)


def _scaled(g, s):
    return g if s == 1 else g * s


@derivative("addmm", "AddmmBackward0", inputs=("self", "mat1", "mat2"),
            saves={"mat1": "mat2", "mat2": "mat1"})
def _addmm_bw(ctx, g):
    a = ctx.attr("alpha")
    return (_scaled(g, ctx.attr("beta")) if ctx.needs(0) else None,
            _scaled(_mat1_grad(g, ctx.saved("mat2"), _layout(ctx, "mat1")), a)
            if ctx.needs(1) else None,
            _scaled(_mat2_grad(g, ctx.saved("mat1"), _layout(ctx, "mat2")), a)
            if ctx.needs(2) else None)


@derivative("addbmm", "AddbmmBackward0", inputs=("self", "batch1", "batch2"),
            saves={"batch1": "batch2", "batch2": "batch1"})
def _addbmm_bw(ctx, g):
    a = ctx.attr("alpha")
    b1 = ctx.saved("batch1") if ctx.needs(2) else None
    b2 = ctx.saved("batch2") if ctx.needs(1) else None
    nb = (b1 if b1 is not None else b2).shape[0]
    ge = g.unsqueeze(0).expand(nb, *g.shape)
    return (_scaled(g, ctx.attr("beta")) if ctx.needs(0) else None,
            _scaled(ge.bmm(b2.transpose(1, 2)), a) if ctx.needs(1) else None,
            _scaled(b1.transpose(1, 2).bmm(ge), a) if ctx.needs(2) else None)


@derivative("baddbmm", "BaddbmmBackward0", inputs=("self", "batch1", "batch2"),
            saves={"batch1": "batch2", "batch2": "batch1"})
def _baddbmm_bw(ctx, g):
    a = ctx.attr("alpha")
    return (_scaled(g, ctx.attr("beta")) if ctx.needs(0) else None,
            _scaled(g.bmm(ctx.saved("batch2").transpose(1, 2)), a) if ctx.needs(1) else None,
            _scaled(ctx.saved("batch1").transpose(1, 2).bmm(g), a) if ctx.needs(2) else None)
