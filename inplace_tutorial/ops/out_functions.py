"""``out=`` for the functions that are not element-wise: torch.addmv(..., out=o),
torch.addr, torch.take ... (element-wise ops and mm/bmm/matmul: out_variants.py).

Each entry follows its PyTorch kernel's order: the argument parser, the refusal of autograd,
the op's own checks, then out's checks. Structured kernels (addmv, addmm, cumsum ...) want
out's dtype to be exactly the result's and keep out's strides when its shape is right;
TensorIterator ops (addr) check overlaps first and accept any dtype the result can be cast
to. A wrongly shaped out is resized (out_variants.resize_output: PyTorch's warning unless it
was empty; a new, larger storage when the old one is too small, so its data_ptr changes).
"""
from __future__ import annotations

from collections.abc import Callable

from .. import dtypes
from ..tensor import Tensor
from . import dtype_rules, out_variants, put_take
from . import matrix_vector as mv
from ._args import check_tensor
from ._iter import check_internal_overlap
from .index_ops import check_no_overlap

OUT: dict[str, Callable[..., Tensor]] = {}  # torch function name -> (input, *args, out, **kw)


def out_form(name: str):
    def deco(fn):
        OUT[name] = fn
        return fn
    return deco


def _start(name: str, out, operands: tuple) -> None:
    """Every out= form begins so: out must be a Tensor, and nothing may require grad."""
    if not isinstance(out, Tensor):
        raise TypeError(f"{name}(): argument 'out' must be Tensor, not {type(out).__name__}")
    out_variants._refuse_autograd(name, operands, out)


def structured_out(out: Tensor, shape: tuple, dtype: dtypes.dtype) -> None:
    """A structured kernel's resize_out: the dtype must match exactly, then resize_output."""
    if out.dtype is not dtype:
        raise RuntimeError(f"Expected out tensor to have dtype {dtype.c_name}, but got "
                           f"{out.dtype.c_name} instead")
    out_variants.resize_output(out, tuple(shape))


def _write(out: Tensor, name: str, compute: Callable[[], None]) -> Tensor:
    out._vc.write(compute, name)
    return out


# --------------------------------------------------------------------------- addmv, addr
@out_form("addmv")
def addmv_out(self: Tensor, mat, vec, *, beta=1, alpha=1, out=None) -> Tensor:
    beta, alpha = mv.addmv_args("addmv", mat, vec, beta, alpha)
    _start("addmv", out, (self, mat, vec))
    mv.addmv_checks(self, mat, vec)
    shape = (mat._shape[0],)
    if mat.numel() == 0 and beta != 0:
        shape = self._shape  # PyTorch's self * beta resizes the result to self's shape
    structured_out(out, shape, vec.dtype)
    dtype_rules.check("mv", vec.dtype)
    if mat.numel():
        check_internal_overlap(out)  # (its copy of self into out refuses this)
    return _write(out, "addmv", lambda: mv.compute_addmv(out, self, mat, vec, beta, alpha))


@out_form("addr")
def addr_out(self: Tensor, vec1, vec2, *, beta=1, alpha=1, out=None) -> Tensor:
    beta, alpha = mv.addr_args("addr", vec1, vec2, beta, alpha)
    _start("addr", out, (self, vec1, vec2))
    s = mv.addr_checks(self, vec1, vec2, out)
    mv.check_addr_out(out, s, vec1, vec2)
    rd = dtypes.result_type(self, vec1, vec2)
    if not dtypes.can_cast(rd, out.dtype):
        raise RuntimeError(f"result type {rd.short} can't be cast to the desired output type "
                           f"{out.dtype.short}")
    out_variants.resize_output(out, s._shape)
    rd = mv.addr_dtype(self, vec1, vec2, beta, alpha)
    return _write(out, "addr", lambda: mv.addr_kernel(out, s, vec1, vec2, beta, alpha, rd))


# --------------------------------------------------------------------------- take
@out_form("take")
def take_out(self: Tensor, index, *, out=None) -> Tensor:
    check_tensor("take", "index", index, position=1)
    _start("take", out, (self, index))
    put_take.take_checks(self, index, out)
    check_internal_overlap(out)
    check_no_overlap(out, index)
    check_no_overlap(out, self)
    out_variants.resize_output(out, index._shape)
    put_take.check_range(index._array(), self.numel())
    return _write(out, "take", lambda: put_take.take_into(self, index, out))


__all__ = ["OUT", "addmv_out", "addr_out", "out_form", "structured_out", "take_out"]
