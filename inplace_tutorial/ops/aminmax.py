"""aminmax: the smallest and the largest value in one call, over all dims or one dim.

Both outputs are differentiable and come from one node, AminmaxBackward0, which saves self and
both results (as outputs 0 and 1), the dim as passed and keepdim. Its backward is amin's and
amax's together: each output's gradient is shared evenly by the elements equal to it (a NaN
result makes every share NaN, as 0/0), and an output without a gradient adds nothing.
"""
from __future__ import annotations

import numpy as np

from ..arg_parser import binding
from ..autograd.derivatives import derivative
from ..autograd.record import record
from ..layout import wrap_dim
from ..tensor import Tensor, tensor_method
from .arg_checks import argument_error, is_index, saved
from .reduce import _reduce, _regrow


def _return_type(name: str) -> type:
    """torch.return_types.<name>: a (min, max) tuple with names."""
    def __repr__(self) -> str:
        return f"torch.return_types.{name}(\nmin={self[0]!r},\nmax={self[1]!r})"

    return type(name, (tuple,), {"__slots__": (), "__repr__": __repr__,
                                 "min": property(lambda self: self[0]),
                                 "max": property(lambda self: self[1])})


AminmaxResult = _return_type("aminmax")


def check_aminmax(self: Tensor, dim, keepdim) -> tuple:
    """aminmax's checks in PyTorch's order; the dims to reduce."""
    if dim is not None and not is_index(dim):
        raise argument_error("aminmax", "dim", None, "int", dim)
    if not isinstance(keepdim, (bool, np.bool_)):
        raise argument_error("aminmax", "keepdim", None, "bool", keepdim)
    if dim is None:
        if self.numel() == 0:
            raise RuntimeError("aminmax(): cannot compute aminmax over an empty dimension as the "
                               "operation has no identity.")
        return tuple(range(self.dim()))
    d = wrap_dim(int(dim), max(self.dim(), 1))
    if self.dim() == 0:
        return ()
    if self.numel() == 0 and self._shape[d] == 0:
        raise IndexError(f"aminmax: Expected reduction dim {d} to have non-zero size.")
    return (d,)


@binding()
@tensor_method
def aminmax(self, *, dim=None, keepdim: bool = False):
    """(min, max) over every dim, or over ``dim`` (keyword-only, as in PyTorch)."""
    dims = check_aminmax(self, dim, keepdim)
    keep = bool(keepdim) and self.dim() > 0
    mn, _ = _reduce(self, "aminmax (min)", np.min, dims, keep, self.dtype)
    mx, _ = _reduce(self, "aminmax (max)", np.max, dims, keep, self.dtype)
    record("aminmax", (mn, mx), {"self": self}, dim=None if dim is None else saved(int(dim)),
           keepdim=bool(keepdim), _dims=dims, _keep=keep)
    return AminmaxResult((mn, mx))


@derivative("aminmax", "AminmaxBackward0", multi_output=True, outputs=("min", "max"),
            saves={"self": None, "min": None, "max": None})
def _aminmax_bw(ctx, grads):
    x, dims, keep = ctx.saved("self"), ctx.attr("_dims"), ctx.attr("_keep")
    total = None
    for g, key in zip(grads, ("min", "max"), strict=True):
        if g is None:
            continue
        mask = (x == _regrow(ctx.saved(key), x.shape, dims, keep)).to(g.dtype)
        share = _regrow(g, x.shape, dims, keep) * mask / mask.sum(dim=dims, keepdim=True)
        total = share if total is None else total + share
    return (total,)
