"""Norms: Tensor.norm (PyTorch's torch.norm), torch.linalg.vector_norm / matrix_norm / norm,
and renorm/renorm_.

The vector orders (p = 2 / 'fro', 1, inf, -inf, 0 and any other number) are one node,
LinalgVectorNormBackward0, as PyTorch names it: it saves self and the result, and ord, dim
and keepdim as they were passed. float16/bfloat16 accumulate in float32. The matrix orders
are compositions, as in PyTorch: 'nuc' is svdvals(A).sum(-1) and 2/-2 its amax/amin
(ops/svd.py: LinalgSvdBackward0), 1/-1/inf/-inf a vector 1-norm then amax/amin. renorm
rescales every slice along ``dim`` whose p-norm exceeds ``maxnorm`` down to it; its node
(RenormBackward0) saves self and recomputes the norms in backward, as PyTorch does.
"""
from __future__ import annotations

import math
import numbers

import numpy as np

from .. import dtypes
from ..arg_parser import binding
from ..autograd.derivatives import derivative
from ..autograd.record import record, record_inplace
from ..call_site import python_method
from ..creation import zeros
from ..layout import wrap_dim
from ..tensor import Tensor, tensor_method
from .arg_checks import (
    argument_error,
    check_int,
    check_number,
    dim_tuple,
    saved,
    signed,
    type_name,
)
from .compare import where
from .reduce import _out_shape
from .svd import svdvals
from .tensor_iterator import check_internal_overlap

_VN = "linalg.vector_norm"
_MN = "linalg.matrix_norm"


def _check_norm_dtype(op: str, self: Tensor, dtype) -> None:
    """PyTorch's check_linalg_norm_dtype: a floating dtype= the input widens to."""
    if dtype is None:
        return
    if dtype.category != dtypes.FLOATING:
        raise RuntimeError(f"{op}: dtype should be floating point or complex, but got "
                           f"{dtype.short}")
    if dtypes.promote_types(self.dtype, dtype) is not dtype:
        raise RuntimeError(f"{op}: the dtype of the input ({self.dtype.short}) should be "
                           f"convertible without narrowing to the specified dtype "
                           f"({dtype.short})")


def _reduce_dims(self: Tensor, dim) -> tuple:
    """The NumPy axes of a reduction over dim: None and () are every dim, as in PyTorch; a
    0-dim tensor takes dim 0 or -1 and has no axis to reduce."""
    if not dim:
        return tuple(range(self.dim()))
    wrapped = [wrap_dim(d, self.dim()) for d in dim]
    for d in wrapped:
        if wrapped.count(d) > 1:
            raise RuntimeError(f"dim {d} appears multiple times in the list of dims")
    return tuple(sorted(wrapped)) if self.dim() else ()


def _check_vector_norm(self: Tensor, ord: float, dims: tuple, dim, dtype) -> None:
    if self.dtype.category != dtypes.FLOATING:
        raise RuntimeError(f"{_VN}: Expected a floating point or complex tensor as input. "
                           f"Got {self.dtype.short}")
    _check_norm_dtype(_VN, self, dtype)
    if self.numel() == 0 and (ord < 0 or ord == math.inf):
        if not dim:
            raise RuntimeError(f"{_VN} cannot compute the {ord:g} norm on an empty tensor "
                               "because the operation does not have an identity")
        for d in dims:
            if self._shape[d] == 0:
                raise RuntimeError(f"{_VN} cannot compute the {ord:g} norm on the dimension "
                                   f"{d}because this dimension is empty and the operation "
                                   "does not have an identity")


def _norm_into(a: np.ndarray, ord: float, dims: tuple, keepdim: bool, out: np.ndarray,
               op: str) -> None:
    """out = the ord-norm of a over dims, through one counted float buffer of a's size."""
    tmp = Tensor._empty(a.shape, dtypes.from_numpy_dtype(out.dtype), op + " (|x|)")._array()
    if ord == 0:
        np.not_equal(a, 0, out=tmp, casting="unsafe")
    else:
        np.abs(a, out=tmp, casting="unsafe")
    if ord == math.inf:
        np.max(tmp, axis=dims, keepdims=keepdim, out=out)
    elif ord == -math.inf:
        np.min(tmp, axis=dims, keepdims=keepdim, out=out)
    elif ord in (0, 1):
        np.sum(tmp, axis=dims, keepdims=keepdim, out=out)
    elif ord == 2:
        np.multiply(tmp, tmp, out=tmp)
        np.sum(tmp, axis=dims, keepdims=keepdim, out=out)
        np.sqrt(out, out=out)
    else:
        np.power(tmp, ord, out=tmp)
        np.sum(tmp, axis=dims, keepdims=keepdim, out=out)
        np.power(out, 1.0 / ord, out=out)


def _vector_norm(self: Tensor, ord, dims: tuple, keepdim: bool, dtype) -> Tensor:
    """The norm's value as a new tensor (no node): float16/bfloat16 accumulate in float32."""
    rd = dtype or self.dtype
    shape = _out_shape(self, dims, keepdim)
    out = Tensor._empty(shape, rd, "linalg_vector_norm")
    acc = dtypes.float32 if rd in (dtypes.float16, dtypes.bfloat16) else rd
    target = out if acc is rd else Tensor._empty(shape, acc, "linalg_vector_norm (float32)")
    _norm_into(self._array(), float(ord), dims, keepdim, target._array(), "linalg_vector_norm")
    if target is not out:
        np.copyto(out._array(), target._array(), casting="unsafe")
    return out


def _dim_list(dim):
    """torch.norm's dim: an int becomes [dim]; anything else goes on as it is."""
    if isinstance(dim, (int, np.integer)) and not isinstance(dim, bool):
        return (int(dim),)
    return dim


def _vector_dims(dim):
    """linalg.vector_norm's dim argument: None or a sequence of ints."""
    if dim is None:
        return None
    if not isinstance(dim, (list, tuple)):
        raise TypeError(f"linalg_vector_norm(): argument 'dim' (position 3) must be tuple of "
                        f"ints, not {type_name(dim)}")
    # each element an int, in the parser's words (the first one, or "failed to unpack")
    return dim_tuple("linalg_vector_norm", dim, position=3)


def _check_keepdim_dtype(op: str, keepdim, dtype, called: bool = False) -> None:
    """``called``: the user called op itself (a keyword has no position); torch.norm is
    Python and passes keepdim on by position."""
    if not isinstance(keepdim, bool):
        if called:
            raise argument_error(op, "keepdim", 4, "bool", keepdim)
        raise TypeError(f"{op}(): argument 'keepdim' (position 4) must be bool, "
                        f"not {type_name(keepdim)}")
    if dtype is not None and not isinstance(dtype, dtypes.dtype):
        raise TypeError(f"{op}(): argument 'dtype' must be torch.dtype, not "
                        f"{type_name(dtype)}")


def _order(op: str, ord, name: str):
    """A Scalar order: a number, or a 0-dim tensor that doesn't require grad (its value)."""
    if isinstance(ord, Tensor) and ord.dim() == 0 and not ord.requires_grad:
        ord = ord.item()
    check_number(op, "ord", ord, 2)
    if isinstance(ord, numbers.Complex) and not isinstance(ord, numbers.Real):
        raise RuntimeError(f"{name}: Expected a non-complex scalar as the order of norm.")
    return ord


def vector_norm(self: Tensor, ord=2, dim=None, keepdim: bool = False, *,
                dtype=None, called: bool = False) -> Tensor:
    """torch.linalg.vector_norm: the ord-norm of self over dim (all dims when None or ()).
    ``called``: torch.linalg.vector_norm itself (linalg.py), not torch.norm's Python."""
    ord = _order("linalg_vector_norm", ord, _VN)
    dims_arg = _vector_dims(_dim_list(dim))  # the binding's order: ord, dim, keepdim, dtype
    _check_keepdim_dtype("linalg_vector_norm", keepdim, dtype, called)
    dims = _reduce_dims(self, dims_arg)
    _check_vector_norm(self, float(ord), dims, dims_arg, dtype)
    out = _vector_norm(self, ord, dims, keepdim, dtype)
    return record("linalg_vector_norm", out, {"self": self}, ord=ord,
                  dim=None if dims_arg is None else saved(dims_arg), keepdim=keepdim)


def _matrix_dims(A: Tensor, dim, dtype, low_precision: bool) -> list:
    """PyTorch's _linalg_matrix_norm_checks: A a matrix (16-bit floats only where allowed),
    dim two different dims, dtype= a widening one."""
    if A.dim() < 2:
        raise RuntimeError(f"{_MN}: The input tensor A must have at least 2 dimensions.")
    if A.dtype.category != dtypes.FLOATING:
        raise RuntimeError(f"{_MN}: Expected a floating point or complex tensor as input. "
                           f"Got {A.dtype.short}")
    if not low_precision and A.dtype in (dtypes.float16, dtypes.bfloat16):
        raise RuntimeError(f"{_MN}: Low precision dtypes not supported. Got {A.dtype.short}")
    dim = list(dim)
    if len(dim) != 2:
        raise RuntimeError(f"{_MN}: dim must be a 2-tuple. Got {' '.join(map(str, dim))}")
    dim = [wrap_dim(d, A.dim()) for d in dim]
    if dim[0] == dim[1]:
        raise RuntimeError(f"{_MN}: dims must be different. Got ({dim[0]}, {dim[1]})")
    _check_norm_dtype(_MN, A, dtype)
    return dim


def _amax_amin(A: Tensor, ord: float, dim: int, keepdim: bool) -> Tensor:
    """amax for a positive order, amin for a negative one; over an empty dim the largest
    value is 0 (a new tensor, outside the graph), as PyTorch answers."""
    if ord > 0 and A._shape[wrap_dim(dim, A.dim())] == 0:
        d = wrap_dim(dim, A.dim())
        return zeros(_out_shape(A, (d,), keepdim), dtype=A.dtype)
    return A.amax(dim, keepdim) if ord > 0 else A.amin(dim, keepdim)


def _singular_values(A: Tensor, dim: list, dtype) -> tuple[Tensor, list]:
    """svdvals of A with the two dims moved to the end (PyTorch's backshift permutation,
    a PermuteBackward0 node even when it changes nothing)."""
    perm = [d for d in range(A.dim()) if d not in dim] + dim
    A_ = A.to(dtype) if dtype is not None else A
    return svdvals(A_.permute(perm)), perm


def _keep_reduced(result: Tensor, perm: list, keepdim: bool) -> Tensor:
    if not keepdim:
        return result
    return result.unsqueeze(-1).permute([perm.index(d) for d in range(len(perm))])


def matrix_norm(A: Tensor, ord="fro", dim=(-2, -1), keepdim: bool = False, *,
                dtype=None) -> Tensor:
    """torch.linalg.matrix_norm: 'fro', 'nuc', 2, -2, 1, -1, inf or -inf over two dims."""
    if isinstance(ord, str):
        if ord not in ("fro", "nuc"):
            raise RuntimeError(f"{_MN}: Order {ord} not supported.")
        dim = _matrix_dims(A, dim, dtype, low_precision=ord == "fro")
        if ord == "fro":
            return vector_norm(A, 2, dim, keepdim, dtype=dtype)
        S, perm = _singular_values(A, dim, dtype)
        return _keep_reduced(S.sum(-1, keepdim), perm, keepdim)
    ord = _order("linalg_matrix_norm", ord, _MN)
    if abs(ord) not in (1, 2, math.inf):
        raise RuntimeError(f"{_MN}: Order {ord:g} not supported.")
    dim = _matrix_dims(A, dim, dtype, low_precision=abs(ord) != 2)
    if abs(ord) == 2:
        S, perm = _singular_values(A, dim, dtype)
        return _keep_reduced(_amax_amin(S, ord, -1, keepdim), perm, keepdim)
    if math.isinf(ord):  # the inf-norm is the 1-norm of the transposed matrix
        dim.reverse()
    if not keepdim and dim[0] < dim[1]:  # the first reduction shifts the second dim down
        dim[1] -= 1
    return _amax_amin(vector_norm(A, 1.0, [dim[0]], keepdim, dtype=dtype), ord, dim[1],
                      keepdim)


def linalg_norm(A: Tensor, ord=None, dim=None, keepdim: bool = False, *,
                dtype=None) -> Tensor:
    """torch.linalg.norm: a matrix norm when ord is given for two dims (or a 2-D input
    without dim), else a vector norm (ord=None is the 2-norm, which is also 'fro')."""
    dim = _dim_list(dim)
    if dim is not None:
        if len(dim) not in (1, 2):
            raise RuntimeError("linalg.norm: If dim is specified, it must be of length 1 or 2. "
                               f"Got [{', '.join(map(str, dim))}]")
    elif ord is not None and A.dim() not in (1, 2):
        raise RuntimeError("linalg.norm: If dim is not specified but ord is, the input must be "
                           f"1D or 2D. Got {A.dim()}D.")
    if isinstance(ord, str) or (ord is not None and len(dim or range(A.dim())) == 2):
        return matrix_norm(A, ord, (0, 1) if dim is None else dim, keepdim, dtype=dtype)
    return vector_norm(A, 2.0 if ord is None else ord, dim, keepdim, dtype=dtype)


@tensor_method
@python_method  # torch's Tensor.norm is Python: it binds its own arguments
def norm(self, p="fro", dim=None, keepdim: bool = False, dtype=None) -> Tensor:
    """torch.norm: p = 'fro' (or None) is the 2-norm, 'nuc' the nuclear norm of a matrix;
    any number is the vector p-norm."""
    dims_arg = _dim_list(dim)
    if isinstance(p, str):  # torch.norm asks len(dim) here, whatever dim is
        if p == "fro" and (dims_arg is None or len(dims_arg) <= 2):
            return vector_norm(self, 2, dims_arg, keepdim, dtype=dtype)
        dims = list(range(self.dim())) if dims_arg is None else dims_arg
        _check_keepdim_dtype("linalg_matrix_norm", keepdim, dtype)
        return matrix_norm(self, p, dims, keepdim, dtype=dtype)
    return vector_norm(self, 2.0 if p is None else p, dims_arg, keepdim, dtype=dtype)


def _norm_backward(g: Tensor, x: Tensor, p: float, norm: Tensor, dims: tuple,
                   keepdim: bool) -> Tensor | None:
    """PyTorch's norm_backward: the gradient of ``norm = |x|_p`` over dims."""
    if not keepdim and x.dim():
        for d in dims:
            g, norm = g.unsqueeze(d), norm.unsqueeze(d)
    if p == 0:
        return None  # PyTorch gives no gradient at all (x.grad stays None)
    if p == 1:
        return x.sgn() * g
    if p == 2:
        return g * (x / norm).masked_fill_(norm == 0, 0)
    if math.isinf(p):  # amax of |x|: the gradient is shared by the cells that reach it
        xa = x.abs()
        mask = (xa == norm).logical_or(xa != xa)
        return x.sgn() * ((g / mask.sum(dims, keepdim=True)) * mask)
    if p < 1:
        scaled = x.sgn() * x.abs().pow_(p - 1).masked_fill_(x == 0, 0)
        return scaled * g * norm.pow(1 - p)
    scaled = x.sgn() * x.abs().pow_(p - 1) if p < 2 else x * x.abs().pow_(p - 2)
    scale = g / norm.pow(p - 1)
    return scaled * scale.masked_fill_(norm == 0, 0)


@derivative("linalg_vector_norm", "LinalgVectorNormBackward0",
            saves={"self": None, "result": None})
def _linalg_vector_norm_bw(ctx, g):
    x, dim = ctx.saved("self"), ctx.attr("dim")
    dims = _reduce_dims(x, None if dim is None else signed(dim))
    return (_norm_backward(g, x, float(ctx.attr("ord")), ctx.saved("result"), dims,
                           ctx.attr("keepdim")),)


# --------------------------------------------------------------------------- renorm
def _renorm_args(op: str, p, dim, maxnorm) -> int:
    if not isinstance(p, numbers.Number) or isinstance(p, Tensor):
        raise argument_error(op, "p", 1, "Number", p)
    dim = check_int(op, "dim", dim, 2)
    if not isinstance(maxnorm, numbers.Number):
        raise argument_error(op, "maxnorm", 3, "Number", maxnorm)
    return dim


def _renorm_check(self: Tensor, p, dim: int, maxnorm) -> tuple:
    """renorm's checks in PyTorch's order; the dims its norms reduce over."""
    if not p > 0:  # (PyTorch's TORCH_CHECKs are written so: NaN fails them)
        raise RuntimeError("renorm: non-positive-norm not supported")
    if not maxnorm >= 0:
        raise RuntimeError(f"renorm: expected maxnorm to be >= 0 but got {float(maxnorm):g}")
    if self.dim() < 2:
        raise RuntimeError(f"renorm: input needs at least 2 dimensions, got {self.dim()} "
                           "dimensions")
    d = wrap_dim(dim, self.dim())
    _check_vector_norm(self, float(p), (), None, None)
    return tuple(i for i in range(self.dim()) if i != d)


def _renorm_factor(self: Tensor, p, reduce: tuple, maxnorm) -> np.ndarray:
    """maxnorm / (norm + 1e-7) for the slices over maxnorm, 1 for the others (small)."""
    norm = _vector_norm(self, p, reduce, True, None)._array()
    acc = norm.astype(np.float32) if norm.dtype.itemsize < 4 else norm
    return np.where(acc > maxnorm, maxnorm / (acc + 1e-7), 1.0).astype(acc.dtype)


@binding()
@tensor_method
def renorm(self, p, dim: int, maxnorm) -> Tensor:
    dim = _renorm_args("renorm", p, dim, maxnorm)
    reduce = _renorm_check(self, p, dim, maxnorm)
    out = Tensor._empty(self._shape, self.dtype, "renorm")
    np.multiply(self._array(), _renorm_factor(self, p, reduce, maxnorm), out=out._array(),
                casting="unsafe")
    return record("renorm", out, {"self": self}, p=p, dim=saved(dim), maxnorm=maxnorm)


@binding()
@tensor_method
def renorm_(self, p, dim: int, maxnorm) -> Tensor:
    dim = _renorm_args("renorm_", p, dim, maxnorm)
    a = self._array()
    plan = {}

    def check():
        plan["reduce"] = _renorm_check(self, p, dim, maxnorm)
        check_internal_overlap(self)

    def compute():
        np.multiply(a, _renorm_factor(self, p, plan["reduce"], maxnorm), out=a,
                    casting="unsafe")

    return record_inplace("renorm", self, {"self": self}, compute=compute, check=check, p=p,
                          dim=saved(dim), maxnorm=maxnorm)


@derivative("renorm", "RenormBackward0", saves={"self": None})
def _renorm_bw(ctx, g):
    x, p, maxnorm = ctx.saved("self"), float(ctx.attr("p")), ctx.attr("maxnorm")
    d = wrap_dim(signed(ctx.attr("dim")), x.dim())
    reduce = tuple(i for i in range(x.dim()) if i != d)
    acc = dtypes.float32 if x.dtype in (dtypes.float16, dtypes.bfloat16) else None
    norm = _vector_norm(x, p, reduce, True, acc)
    grad_output = (x * g).sum(reduce, keepdim=True)
    nb = _norm_backward(grad_output, x, p, norm, reduce, True)
    invnorm = (norm + 1e-7).reciprocal()
    grad_norm = maxnorm * invnorm * (g - invnorm * nb)
    return (where(norm > maxnorm, grad_norm.to(g.dtype), g),)
