"""The graph: Node, SavedTensor, AccumulateGrad, CopySlices, and how ops record into it.

An op records a Node when grad mode is on and an input requires grad. What a node saves
comes from the derivative table (derivatives.py); each SavedTensor remembers the version
of its tensor at save time and refuses to unpack if an in-place op bumped it since.
SavedTensors keep the *storage*, not the Tensor, so output -> node -> saved never cycles.
"""
from __future__ import annotations

import itertools
import re
import weakref
from typing import TYPE_CHECKING, Any

from . import anomaly

if TYPE_CHECKING:
    from ..tensor import Tensor

_seq = itertools.count()
Tensor = None  # bound by tensor.py once the class exists (tensor.py imports this package first)

FREED = (
    "Trying to backward through the graph a second time (or directly access saved tensors "
    "after they have already been freed). Saved intermediate values of the graph are freed "
    "when you call .backward() or autograd.grad(). Specify retain_graph=True if you need to "
    "backward through the graph a second time or if you need to access saved tensors after "
    "calling backward."
)
VERSION_HINT = (
    " Hint: enable anomaly detection to find the operation that failed to compute its "
    "gradient, with torch.autograd.set_detect_anomaly(True, check_nan=False)."
)
ANOMALY_HINT = (
    " Hint: the backtrace further above shows the operation that failed to compute its "
    "gradient. The variable in question was changed in there or anywhere later. Good luck!"
)


def short_name(node_name: str) -> str:
    """PyTorch 2.13's error texts drop "Backward0" and keep other digits: PowBackward1 -> Pow1."""
    return re.sub(r"Backward(\d*)$", lambda m: "" if m.group(1) == "0" else m.group(1), node_name)


def _shape_str(shape) -> str:
    return "[" + ", ".join(str(s) for s in shape) + "]"


class SavedTensor:
    """A tensor saved for backward: its storage and geometry, plus the version it had."""

    __slots__ = ("_storage", "_shape", "_stride", "_offset", "_dtype", "_vc", "version",
                 "_producer", "field", "_node", "_released", "_requires_grad", "_is_output",
                 "_tensor", "_weak_fn", "__weakref__")

    def __init__(self, t: Tensor, field: str, node: Node, producer: str | None,
                 is_output: bool = False, requires_grad: bool | None = None):
        if t._inference:
            raise RuntimeError(
                "Inference tensors cannot be saved for backward. Please do not use Tensors "
                "created in inference mode in computation tracked by autograd. To work around "
                "this, you can make a clone to get a normal tensor and use it in autograd, or use "
                "`torch.no_grad()` instead of `torch.inference_mode()`.")
        self._storage = t._storage
        self._requires_grad = t._requires_grad if requires_grad is None else requires_grad
        self._is_output = is_output
        # PyTorch names a saved *input* by its grad_fn at the time of the error (after any
        # rebase): keep a weak handle on the tensor. The output of an in-place op on a view
        # is named by the view's regenerated grad_fn while that node is still alive.
        self._tensor = None if is_output else weakref.ref(t)
        self._weak_fn = weakref.ref(t._grad_fn) if is_output and t._base is not None \
            and t._grad_fn is not None else None
        self._shape, self._stride, self._offset = t._shape, t._stride, t._offset
        self._dtype, self._vc, self.version = t.dtype, t._vc, t._vc.value
        self._producer = producer  # "output 0 of Sigmoid", or None for a leaf
        self.field = field
        self._node = weakref.ref(node)
        self._released = False
        saved = t._storage._saved
        if saved is None:
            saved = t._storage._saved = weakref.WeakSet()
        saved.add(self)

    @property
    def current_version(self) -> int:
        return self._vc.value

    @property
    def is_stale(self) -> bool:
        return not self._released and self._vc.value != self.version

    def release(self) -> None:
        self._storage = None
        self._released = True

    def check(self) -> None:
        if self._released:
            raise RuntimeError(FREED)
        if self._vc.value != self.version:
            raise RuntimeError(self._version_message())

    def unpack(self) -> Tensor:
        self.check()
        t = Tensor._make(self._storage, self._shape, self._stride, self._offset, self._dtype,
                         vc=self._vc)
        t._requires_grad = self._requires_grad
        return t

    def _producer_now(self) -> str | None:
        fn = self._weak_fn() if self._weak_fn is not None else None
        if fn is not None:
            return f"output 0 of {short_name(fn.name())}"
        t = self._tensor() if self._tensor is not None else None
        if t is None:
            return _format_producer(self._producer)
        try:
            fn = t.grad_fn  # may regenerate a view's grad_fn, exactly as PyTorch's message does
        except RuntimeError:
            fn = t._grad_fn
        return f"output {t._output_nr} of {short_name(fn.name())}" if fn is not None else None

    def _version_message(self) -> str:
        producer = self._producer_now()
        which = f", which is {producer}," if producer else ""
        t = self._tensor() if self._tensor is not None else None
        shape = t._shape if t is not None else self._shape  # the tensor as it is now
        msg = (
            "one of the variables needed for gradient computation has been modified by an "
            f"inplace operation: [torch.{self._dtype.tensor_type} {_shape_str(shape)}]"
            f"{which} is at version {self._vc.value}; expected version {self.version} instead."
            + (ANOMALY_HINT if anomaly.is_anomaly_enabled() else VERSION_HINT)
        )
        node = self._node()
        if anomaly.is_anomaly_enabled() or self._vc.history:
            msg += "\n\n" + self.culprit_report(node)
        return msg

    def culprit_report(self, node: Node | None) -> str:
        """Anomaly mode's extra: where the node came from and which in-place ops hit it."""
        lines = []
        name = node.name() if node is not None else "?"
        where = getattr(node, "_trace", None) or "(created before anomaly mode was on)"
        lines.append(f"The tensor was saved as {self.field} by {name}, created at {where}.")
        hits = [h for h in self._vc.history if h[0] > self.version]
        if hits:
            lines.append("It was modified in place since by:")
            for version, op, loc in hits:
                lines.append(f"  - {op} at {loc} (version {version - 1} -> {version})")
        else:
            lines.append("No in-place op was recorded; was anomaly mode on when it ran?")
        return "\n".join(lines)


class Node:
    """A backward function. Subclasses are named like PyTorch's (MulBackward0 ...)."""

    __slots__ = ("next_functions", "_saved", "_attrs", "_input_meta", "_num_outputs",
                 "_retained", "_released", "_saved_scalar", "_seq", "_trace", "__weakref__")
    _formula: Any = None  # set on table-generated subclasses

    def __init__(self, next_functions: tuple = (), num_outputs: int = 1):
        self.next_functions = next_functions
        self._saved: dict[str, SavedTensor] = {}
        self._attrs: dict[str, Any] = {}
        self._input_meta: list = []  # (shape, dtype) per input, to sum/cast grads back
        self._num_outputs = num_outputs
        self._retained: list = []  # (output_nr, weakref to tensor) for retain_grad()
        self._released = False
        self._saved_scalar = False  # a saved wrapped scalar also makes a 2nd backward fail
        self._seq = next(_seq)
        self._trace = anomaly.user_location() if anomaly._state["enabled"] else None

    def name(self) -> str:
        return type(self).__name__

    def __repr__(self) -> str:
        return f"<{self.name()} object>"

    # --- saved values, as grad_fn._saved_self etc. ---
    def __getattr__(self, attr: str):
        if attr.startswith("_saved_"):
            key = attr[len("_saved_"):]
            saved = object.__getattribute__(self, "_saved")
            if key in saved:
                return saved[key].unpack()
            attrs = object.__getattribute__(self, "_attrs")
            formula = type(self)._formula
            if key in attrs:
                value = attrs[key]
                if formula is not None and key in formula.inputs and not hasattr(value, "_array"):
                    return _wrapped_number(value)  # PyTorch wraps Python scalars as 0-dim tensors
                return value
            if formula is not None and key in formula.saves:
                return None  # declared but not needed this time (its partner needs no grad)
        raise AttributeError(attr)

    def __dir__(self):
        return list(super().__dir__()) + [f"_saved_{k}" for k in (*self._saved, *self._attrs)]

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
        if len(self._saved) > 1:  # PyTorch unpacks inputs (name order), then outputs
            for key in sorted(self._saved, key=lambda k: (k == "result", k)):
                self._saved[key].check()
        formula = self._formula
        grad = grads if formula.multi_output else grads[0]
        out = formula.backward(self, grad)
        return tuple(_fit(g, meta) for g, meta in zip(out, self._input_meta))


def _wrapped_number(value):
    from .. import dtypes
    from ..creation import tensor

    return tensor(value, dtype=dtypes.float64 if isinstance(value, float) else None)


def _fit(g, meta):
    """Sum a broadcast gradient back to the input's shape and cast it to its dtype."""
    if g is None or meta is None:
        return g
    shape, dtype = meta
    if g._shape == shape and g.dtype is dtype:
        return g
    if g._shape != shape:
        lead = g.dim() - len(shape)
        dims = tuple(range(lead)) + tuple(
            lead + i for i, s in enumerate(shape) if s == 1 and g.shape[lead + i] != 1)
        if dims:
            g = g.sum(dim=dims, keepdim=True)
        if lead or g.shape != shape:
            g = g.reshape(shape)
    if g.dtype is not dtype and dtype.is_floating_point:
        g = g.to(dtype)
    return g


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
        if leaf.grad is None:
            # Keep the incoming buffer only if nothing else can see it and it already has the
            # leaf's layout (PyTorch's grad layout contract); otherwise copy into that layout.
            if g._shared_grad or g._base is not None or g._stride != _layout_of(leaf):
                from ..creation import empty_like

                g = empty_like(leaf).copy_(g)
            leaf.grad = g
        else:
            leaf.grad.add_(g)
        return ()


def _layout_of(t) -> tuple:
    from ..ops import indexing  # the ops package imports autograd: bind on use

    return indexing._dense_strides(t) or indexing.contiguous_strides(t._shape)


def edge(t) -> tuple:
    """Where a gradient for ``t`` flows: its grad_fn, its AccumulateGrad, or nowhere."""
    if not isinstance(t, Tensor) or not t._needs_grad():
        return (None, 0)
    fn = t.grad_fn
    if fn is not None:
        return (fn, t._output_nr)
    acc = t._accumulator() if t._accumulator is not None else None
    if acc is None:
        acc = AccumulateGrad(t)
        t._accumulator = weakref.ref(acc)
    return (acc, 0)


def any_requires_grad(values) -> bool:
    return any(isinstance(v, Tensor) and (v._requires_grad or (v._base is not None
               and v._needs_grad())) for v in values)


def _producer_text(t: Tensor, node: Node | None = None, output_nr: int = 0):
    """Who produced a saved tensor, as (node, output_nr); formatted only for an error text."""
    if node is not None:
        return (weakref.ref(node), output_nr)  # the saving node itself: never keep it alive
    fn = t._grad_fn
    return None if fn is None else (weakref.ref(fn), t._output_nr)


def _format_producer(producer) -> str | None:
    if producer is None:
        return None
    fn = producer[0]()
    return None if fn is None else f"output {producer[1]} of {short_name(fn.name())}"
