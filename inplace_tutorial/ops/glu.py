"""glu, the gated linear unit: the input split in two halves along ``dim``, a * sigmoid(b).
torch._C._nn.glu (F.glu; F's Python first refuses a 0-dim tensor in its own words).

GluBackward0 saves the input and ``dim`` as it was passed (-1 reads back as 2**64 - 1, an
unsigned SymInt); its backward recomputes sigmoid(b) from the saved input.
"""
from __future__ import annotations

import numpy as np

from .. import dtypes
from ..autograd.derivatives import derivative
from ..autograd.record import record
from ..layout import wrap_dim
from ..tensor import Tensor
from . import dtype_rules
from ._chunked import run_chunked
from ._pointwise import new_output
from .arg_checks import check_tensor, check_type
from .joining import saved_dim, symint
from .self_gated import refuse_integers

refuse_integers("glu", "glu_cpu")


def _halves(a: np.ndarray, dim: int) -> tuple:
    """The two halves of ``a`` along ``dim``, as NumPy views."""
    h = a.shape[dim] // 2
    lead = (slice(None),) * dim
    return a[(*lead, slice(0, h))], a[(*lead, slice(h, None))]


def _sigmoid_into(b, s, dtype) -> None:
    """s = 1 / (1 + exp(-b)), in the compute type."""
    np.negative(b, out=s, dtype=dtype)
    with np.errstate(over="ignore"):
        np.exp(s, out=s)
    s += 1
    np.reciprocal(s, out=s)


def _glu_body(a, b, out, dtype, tmp):
    (s,) = tmp
    _sigmoid_into(b, s, dtype)
    np.multiply(a, s, out=out, dtype=dtype, casting="unsafe")


def glu(input: Tensor, dim=-1) -> Tensor:  # noqa: A002
    check_tensor("glu", "input", input)
    if isinstance(dim, Tensor) and dim.dim() == 0 and not dim.dtype.is_floating_point:
        dim = dim.item()  # an int64_t argument takes a 0-dim integer tensor (__index__)
    check_type("glu", "dim", dim, int, position=2)
    dim = int(dim)
    if input.dim() == 0:
        raise RuntimeError("glu does not support 0-dimensional tensors")
    d = wrap_dim(dim, input.dim())
    n = input._shape[d]
    if n % 2:
        raise RuntimeError(f"Halving dimension must be even, but dimension {d} is size {n}")
    dtype_rules.check("glu", input.dtype)
    first, second = input.narrow(d, 0, n // 2), input.narrow(d, n // 2, n // 2)
    out = new_output("glu", first._shape, input.dtype, (first, second))
    a, b = _halves(input._array(), d)
    run_chunked(_glu_body, "glu", (None,), (a, b), out._array(), dtypes.compute_np(input.dtype))
    return record("glu", out, {"self": input}, dim=symint(dim))


def _sigmoid_body(b, out, dtype, tmp):
    (s,) = tmp
    _sigmoid_into(b, s, dtype)
    np.copyto(out, s, casting="unsafe")


def _second_body(s, a, g, out, dtype, tmp):
    """d/db: (1 - s) s a g, s = sigmoid(b) as stored in the first half (rounded to the
    tensor's type), left to right as glu_backward_kernel multiplies."""
    (t, u) = tmp
    np.subtract(1, s, out=t, dtype=dtype)
    np.multiply(t, s, out=t, dtype=dtype)
    np.multiply(t, a, out=t, dtype=dtype)
    np.multiply(t, g, out=u, dtype=dtype)
    np.copyto(out, u, casting="unsafe")


@derivative("glu", "GluBackward0", saves={"self": None})
def _glu_bw(ctx, g):
    """glu_backward: the first half of the gradient gets sigmoid(b) (sigmoid_out, in the
    tensor's type), the second half is computed from it, then the first half is multiplied
    by the incoming gradient in place (mul_)."""
    x = ctx.saved("self")
    d = saved_dim(ctx, x.dim())
    gx = Tensor._empty(x._shape, g.dtype, "glu_backward")
    a, b = _halves(x._array(), d)
    ga, gb = _halves(gx._array(), d)
    cd = dtypes.compute_np(g.dtype)
    run_chunked(_sigmoid_body, "glu_backward", (None,), (b,), ga, cd)
    run_chunked(_second_body, "glu_backward", (None, None), (ga, a, g._array()), gb, cd)
    run_chunked(_times_body, "glu_backward", (None,), (g._array(),), ga, cd)
    return (gx,)


def _times_body(g, out, dtype, tmp):
    (t,) = tmp
    np.multiply(out, g, out=t, dtype=dtype)
    np.copyto(out, t, casting="unsafe")
