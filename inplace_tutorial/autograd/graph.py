"""The graph: Node (a backward function), AccumulateGrad (a leaf's sink) and edges.

An op records a Node when grad mode is on and an input requires grad (record.py). A node
holds its SavedTensors (saved_tensor.py) and its formula from the derivative table
(derivatives.py); ``next_functions`` are the edges to the nodes of its inputs.
"""
from __future__ import annotations

import itertools
import math
import weakref
from typing import Any

import numpy as np

from .. import dtypes
from ..creation import empty_like
from ..layout import contiguous_strides, dense_strides
from ..modes import STATE, user_location
from ..tensor import Tensor
from ..tensor_new import tensor
from .errors import FREED
from .saved_tensor import SavedTensor

_seq = itertools.count()


class Node:
    """A backward function. Subclasses are named like PyTorch's (MulBackward0 ...)."""

    __slots__ = ("next_functions", "_saved", "_attrs", "_input_meta", "_num_outputs",
                 "_retained", "_released", "_saved_scalar", "_seq", "_trace", "_pre_hooks",
                 "__weakref__")
    _formula: Any = None  # set on table-generated subclasses

    def __init__(self, next_functions: tuple = (), num_outputs: int = 1):
        self.next_functions = next_functions
        self._saved: dict[str, SavedTensor] = {}
        self._attrs: dict[str, Any] = {}
        self._input_meta: list = []  # (shape, dtype) per input, to sum/cast grads back
        self._num_outputs = num_outputs
        self._retained: list = []  # (output_nr, weakref to tensor) for retain_grad()
        self._pre_hooks: dict | None = None  # output_nr -> {id: hook}: register_hook (hooks.py)
        self._released = False
        self._saved_scalar = False  # a saved wrapped scalar also makes a 2nd backward fail
        self._seq = next(_seq)
        self._trace = user_location() if STATE.anomaly else None

    def name(self) -> str:
        return type(self).__name__

    def __repr__(self) -> str:
        # Python's default repr, as torch's nodes have: the class, not name() (CopySlices,
        # whose name() is "torch::autograd::CopySlices"), and the address
        return f"<{type(self).__name__} object at {id(self):#x}>"

    # --- saved values, as grad_fn._saved_self etc. ---
    def __getattr__(self, attr: str):
        if attr.startswith("_saved_") and not attr.startswith("_saved__"):
            key = attr[len("_saved_"):]  # a key starting with "_" is the core's own, not shown
            saved = object.__getattribute__(self, "_saved")
            if key in saved:
                return saved[key].unpack_saved()  # the tensor itself, for a saved input
            attrs = object.__getattribute__(self, "_attrs")
            formula = type(self)._formula
            if key in attrs:
                value = attrs[key]
                if formula is not None and key in formula.inputs and not hasattr(value, "_array"):
                    return _wrapped_number(value)  # PyTorch wraps Python scalars as 0-dim tensors
                return value
            if formula is not None and key in formula.saves:
                return None  # declared but not needed this time (its partner needs no grad)
        raise AttributeError(f"'{type(self).__name__}' object has no attribute '{attr}'")

    def __dir__(self):
        # PyTorch lists every field its node declares, saved this time or not (then None)
        declared = dict.fromkeys(self._formula.saves) if self._formula is not None else {}
        return [n for n in super().__dir__() if n != "_saved_scalar"] + [  # a flag, not saved
            f"_saved_{k}" for k in {**self._attrs, **self._saved, **declared}
            if not k.startswith("_")]

    def saved(self, key: str) -> Tensor:
        return self._saved[key].unpack()

    def attr(self, key: str) -> Any:
        return self._attrs[key]

    def needs(self, i: int) -> bool:
        return self.next_functions[i][0] is not None

    def saved_tensors_info(self) -> list[SavedTensor]:
        return list(self._saved.values())

    def release(self) -> None:
        for s in self._saved.values():
            s.release()
        self._released = True

    def apply(self, grads: list) -> tuple:
        if self._released and (self._saved or self._saved_scalar):
            raise RuntimeError(FREED)
        saved = self._saved
        if len(saved) > 1:  # PyTorch unpacks inputs (name order), then outputs
            for key in sorted(saved):
                if key != "result":
                    saved[key].check()
            if "result" in saved:
                saved["result"].check()
        formula = self._formula
        out = formula.backward(self, grads if formula.multi_output else grads[0])
        if type(out) is not tuple:
            out = tuple(out)
        # Most gradients already have their input's shape and dtype: then the formula's tuple
        # is the node's output as it is. Otherwise each one is fitted to its input (_fit).
        metas = self._input_meta
        for g, meta in zip(out, metas):
            if g is not None and meta is not None and (g._shape != meta[0]
                                                       or g.dtype is not meta[1]):
                return tuple([_fit(g, meta, self, i)
                              for i, (g, meta) in enumerate(zip(out, metas))])
        return out


def _wrapped_number(value):
    return tensor(value, dtype=dtypes.float64 if isinstance(value, float) else None)


def _fit(g, meta, node=None, i: int = 0):
    """Sum a broadcast gradient back to the input's shape and cast it to its dtype. A
    gradient the input's shape can't be expanded to is PyTorch's validate_outputs error
    (scatter_add with a src larger than its index, for one)."""
    if g is None or meta is None:
        return g
    shape, dtype = meta
    if g._shape == shape and g.dtype is dtype:
        return g
    gshape = g._shape
    lead = len(gshape) - len(shape)
    if lead > 0 and gshape[lead:] == shape:
        # broadcast over leading dims only (a bias): what the general case below concludes
        # (valid, summed over dims 0 .. lead-1 into a fresh buffer), without working it out
        g = _sum_to(g, shape, (1,) * lead + shape, tuple(range(lead)))
    elif gshape != shape:
        if node is not None and math.prod(gshape) != math.prod(shape) and not _expandable(
                shape, gshape):
            raise RuntimeError(f"Function {node.name()} returned an invalid gradient at index "
                               f"{i} - got {list(gshape)} but expected shape compatible with "
                               f"{list(shape)}")
        dims = tuple(range(lead)) + tuple(
            lead + i for i, s in enumerate(shape) if s == 1 and gshape[lead + i] != 1)
        summed = _summed_shape(gshape, dims)
        if dims and summed == (1,) * lead + shape:
            g = _sum_to(g, shape, summed, dims)
        else:
            if dims:
                g = g.sum(dim=dims, keepdim=True)
            if lead or g.shape != shape:
                g = g.reshape(shape)
    if g.dtype is not dtype and dtype.is_floating_point:
        g = g.to(dtype)
    return g


def _summed_shape(shape: tuple, dims: tuple) -> tuple:
    return tuple(1 if d in dims else n for d, n in enumerate(shape))


def _sum_to(g: Tensor, shape: tuple, summed: tuple, dims: tuple) -> Tensor:
    """``g.sum(dims, keepdim=True).reshape(shape)`` (PyTorch's sum_to) as one NumPy sum into
    a fresh "sum" buffer of ``shape``, the buffer that call makes, without two method calls
    (every bias gradient of a training step comes here). ``summed``: g's shape with ``dims``
    made 1, the same cells as ``shape``."""
    out = Tensor._empty(shape, g.dtype, "sum")
    with np.errstate(invalid="ignore", over="ignore"):  # as the sum kernel (inf + -inf)
        # np.add.reduce is what np.sum calls, without its Python wrapper
        np.add.reduce(g._array(), axis=dims, keepdims=True, out=out._array().reshape(summed))
    return out


def _expandable(shape: tuple, to: tuple) -> bool:
    """PyTorch's is_expandable_to: ``shape`` broadcasts to ``to`` without changing ``to``."""
    if len(shape) > len(to):
        return False
    return all(a == b or a == 1 for a, b in zip(reversed(shape), reversed(to), strict=False))


class AccumulateGrad(Node):
    """The sink for a leaf: adds the incoming gradient into ``leaf.grad``."""

    def __init__(self, leaf: Tensor):
        super().__init__(())
        self._variable = weakref.ref(leaf)

    @property
    def variable(self):
        return self._variable()

    def name(self) -> str:
        return "torch::autograd::AccumulateGrad"

    def apply(self, grads: list) -> tuple:
        leaf, g = self._variable(), grads[0]
        if leaf is None or g is None:
            return ()
        if leaf._grad is None:
            # Keep the incoming gradient only if nothing else holds it and it already has the
            # leaf's layout (PyTorch's grad layout contract); otherwise copy into that layout.
            # (_shared_grad: True if shared; a backward run's token only marks it as sent)
            if g._shared_grad is True or g._stride != _layout_of(leaf):
                g = empty_like(leaf).copy_(g)
            elif g._base is not None:
                # a view made during backward (Linear's weight gradient comes through
                # TBackward0): PyTorch keeps it, and to PyTorch it is no view (backward's
                # views carry no view record) but still shares storage and version counter
                g = Tensor._make(g._storage, g._shape, g._stride, g._offset, g.dtype, g._vc)
            leaf._grad = g  # shape and dtype are the leaf's: no need for the checked setter
        else:
            leaf._grad.add_(g)
        return ()


def _layout_of(t) -> tuple:
    """The strides of a leaf's .grad: its own if dense, else row-major in its memory order."""
    if t._stride == contiguous_strides(t._shape):
        return t._stride  # a contiguous leaf (most are): what the line below would say
    return dense_strides(t._shape, t._stride) or contiguous_strides(t._shape)


def edge(t) -> tuple:
    """Where a gradient for ``t`` flows: its grad_fn, its AccumulateGrad, or nowhere."""
    if not isinstance(t, Tensor):
        return (None, 0)
    if t._base is None:  # no view: requires_grad and grad_fn are what it holds
        if not t._requires_grad:
            return (None, 0)
        fn = t._grad_fn
    else:
        if not t._needs_grad():
            return (None, 0)
        fn = t.grad_fn  # may regenerate the view's node (its base changed in place)
        if fn is None and t._creation is not None and t._base._requires_grad:
            return (None, 0)  # a view made under no_grad: it requires grad (its base does)
            # but is no leaf of its own, so PyTorch gives it no gradient accumulator
    if fn is not None:
        return (fn, t._output_nr)
    acc = t._accumulator() if t._accumulator is not None else None
    if acc is None:
        acc = AccumulateGrad(t)
        t._accumulator = weakref.ref(acc)
    return (acc, 0)


def any_requires_grad(values) -> bool:
    for v in values:  # (a loop, not any(...): this runs for every op, and a generator costs)
        if isinstance(v, Tensor) and (v._requires_grad or (v._base is not None
                                                           and v._needs_grad())):
            return True
    return False


