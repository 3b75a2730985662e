"""addbmm_ as one fused pass: what a custom kernel does, written with NumPy (notebook 08).

``fused_addbmm_(out, batch1, batch2, beta=, alpha=)`` computes
out <- beta * out + alpha * sum_i batch1[i] @ batch2[i] tile by tile: for each block of out's
rows, one ``einsum`` call contracts the batch and inner dimensions straight into a slice of the
core's shared workspace (the "shared memory" of this kernel), and the tile is scaled and added
into out. No (n, p) product buffer and no (b, n, p) products exist: it allocates nothing.
It is a teaching kernel: no autograd (like an ``out=`` call), float dtypes only.
"""
from __future__ import annotations

from collections.abc import Callable

import numpy as np

from .autograd import grad_mode
from .ops.addmm import as_scalar, check_out_shape
from .ops.linalg import check_addbmm, check_same_dtype
from .ops.workspace import Scratch
from .tensor import Tensor


def fused_addbmm_(out: Tensor, batch1: Tensor, batch2: Tensor, *, beta=1, alpha=1) -> Tensor:
    """In-place ``out.addbmm_(batch1, batch2, beta=beta, alpha=alpha)`` in one pass per tile."""
    beta = as_scalar("fused_addbmm_", "beta", beta)
    alpha = as_scalar("fused_addbmm_", "alpha", alpha)
    check_addbmm(batch1, batch2)
    check_same_dtype("addbmm", out, batch1, batch2)
    check_out_shape(out, (batch1.shape[1], batch2.shape[2]), True)
    if out._storage is batch1._storage or out._storage is batch2._storage:
        raise RuntimeError("fused_addbmm_(): out shares memory with a batch; it would read "
                           "values it has already overwritten")
    if grad_mode.is_grad_enabled() and any(t.requires_grad for t in (out, batch1, batch2)):
        raise RuntimeError("fused_addbmm_(): a teaching kernel without autograd; call it under "
                           "no_grad() or on tensors that don't require grad")
    o, x, y = out._array(), batch1._array(), batch2._array()
    n, p = o.shape
    def tiles() -> None:
        with Scratch(o.dtype, "fused_addbmm_", n * p) as scratch:
            rows = max(1, min(n, scratch.capacity // max(p, 1)))
            for r in range(0, n, rows):
                block = slice(r, min(r + rows, n))
                tile = scratch.view((block.stop - block.start, p))
                # one pass: sum over the batch b and the inner dim j, for these rows of out
                np.einsum("bij,bjk->ik", x[:, block, :], y, out=tile)
                target = o[block]
                if beta == 0:
                    target.fill(0)  # as addbmm_: out is ignored (even NaN) when beta is 0
                elif beta != 1:
                    np.multiply(target, beta, out=target)
                if alpha != 1:
                    np.multiply(tile, alpha, out=tile)
                np.add(target, tile, out=target)
    out._vc.write(tiles, "fused_addbmm_")  # counted even if interrupted between tiles
    return out


def addbmm_ways(batch1: Tensor, batch2: Tensor) -> dict[str, Callable[[Tensor], Tensor]]:
    """The four ways notebook 08 compares to do ``out += sum_i batch1[i] @ batch2[i]``."""
    from .ops.einsum import einsum
    from .ops.linalg import bmm

    return {
        "out.addbmm_(b1, b2)": lambda o: o.addbmm_(batch1, batch2),
        "out + bmm(b1, b2).sum(0)": lambda o: o + bmm(batch1, batch2).sum(0),
        "out.add_(einsum('bij,bjk->ik'))": lambda o: o.add_(einsum("bij,bjk->ik", batch1, batch2)),
        "fused_addbmm_(out, b1, b2)": lambda o: fused_addbmm_(o, batch1, batch2),
    }
