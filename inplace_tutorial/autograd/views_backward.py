"""What autograd does when an in-place op hits a view: CopySlices and AsStridedBackward0.

After ``v.mul_(2)`` on a view ``v`` of ``base``, the base's history is rebased onto a
CopySlices node: its backward passes the gradient through unchanged except on the
view's cells, where it applies mul's backward. The view's own grad_fn is regenerated
as AsStridedBackward0 pointing at the base, exactly as PyTorch does.
"""
from __future__ import annotations

import numpy as np

from ..creation import empty_strided, zeros
from ..layout import storage_extent
from .derivatives import DERIVATIVES
from .errors import FREED
from .graph import Node, edge


def scatter_strided(g, base_geom, view_geom):
    """Gradient w.r.t. a base, given the gradient of an as_strided view of it."""
    (bshape, bstride, boff), (vshape, vstride, voff) = base_geom, view_geom
    lo = min(boff, voff)
    hi = max(boff + storage_extent(bshape, bstride), voff + storage_extent(vshape, vstride))
    buf = zeros(max(hi - lo, 1), dtype=g.dtype)
    if _no_cell_twice(vshape, vstride):  # add straight through a strided view: no index array
        b = buf._array()
        target = np.lib.stride_tricks.as_strided(
            b[voff - lo:], tuple(vshape), tuple(st * b.itemsize for st in vstride))
        np.add(target, g._array(), out=target)
        return buf.as_strided(tuple(bshape), tuple(bstride), boff - lo)
    idx = np.full(tuple(vshape), voff - lo, dtype=np.int64)
    for d, st in enumerate(vstride):
        shape = [1] * len(vshape)
        shape[d] = vshape[d]
        idx = idx + (np.arange(vshape[d]) * st).reshape(shape)
    # add.at accumulates correctly even when the view hits a cell twice (stride 0)
    np.add.at(buf._array(), idx.reshape(-1), np.asarray(g._array()).reshape(-1))
    return buf.as_strided(tuple(bshape), tuple(bstride), boff - lo)


def _no_cell_twice(shape, stride) -> bool:
    """No two elements of the view share a cell (then ``+=`` through it can't lose a sum)."""
    reach = 0
    for st, n in sorted((abs(st), n) for n, st in zip(shape, stride) if n > 1):
        if st <= reach:
            return False
        reach += (n - 1) * st
    return True


def _geometry(t) -> tuple:
    return (t._shape, t._stride, t._offset)


def as_strided_node(view, base) -> Node:
    """The regenerated grad_fn of a view whose base changed: AsStridedBackward0 on the base.

    Its formula is registered by ops/strided.py (``as_strided``), looked up when it runs."""
    node = DERIVATIVES["as_strided"].node_cls((edge(base),), 1)
    node._input_meta = [(base._shape, base.dtype)]
    node._attrs.update(size=view._shape, stride=view._stride, storage_offset=view._offset,
                       _geometry=(_geometry(base), _geometry(view)))
    return node


_VIEW_SLOT = "the view written in place"  # a placeholder edge, never traversed


class CopySlices(Node):
    """The base's new grad_fn after an in-place op on one of its views."""

    def __init__(self, base, view, fn: Node):
        super().__init__((edge(base),) + tuple(fn.next_functions[1:]))
        # The base's edge replaces the view's: fn must not keep the view's old grad_fn alive
        # (PyTorch's error texts depend on it dying). The slot stays "needed" for fn if the
        # view had a gradient edge: a view of a base that needed no grad asks fn for no
        # gradient of self (igamma_'s, not implemented, is then never asked for).
        had_edge = fn.next_functions[0][0] is not None
        fn.next_functions = (((_VIEW_SLOT if had_edge else None), 0),) + tuple(
            fn.next_functions[1:])
        self.fn = fn
        self._base_geom = _geometry(base)
        self._view_geom = _geometry(view)
        self._dtype = base.dtype
        self._input_meta = [None] * len(self.next_functions)
        self._saved = fn._saved  # what the wrapped op saved is what this node holds

    def name(self) -> str:
        return "torch::autograd::CopySlices"

    def __dir__(self):
        # PyTorch's CopySlices is written by hand and declares no _saved_* fields: what the
        # wrapped op saved is listed on that op's node
        return [n for n in super().__dir__() if not n.startswith("_saved_")]

    def apply(self, grads: list) -> tuple:
        if self._released:  # PyTorch drops the wrapped fn on release: a 2nd backward fails
            raise RuntimeError(FREED)
        g = grads[0]
        (bshape, bstride, boff), (vshape, vstride, voff) = self._base_geom, self._view_geom
        result = empty_strided(bshape, bstride, self._dtype)
        result.copy_(g)
        part = result.as_strided(vshape, vstride, voff - boff)
        res = self.fn.apply([part.clone()])
        if res and res[0] is not None:
            part.copy_(res[0])
        else:
            part.zero_()
        return (result,) + tuple(res[1:])

    def release(self) -> None:
        self.fn.release()
        self._released = True
