"""SavedTensor: a tensor saved for backward, and the version check that protects it.

A node saves what its backward formula needs (see derivatives.py). Each SavedTensor keeps the
*storage*, geometry and version counter, not the Tensor, so output -> node -> saved never
cycles; it remembers the version at save time and refuses to unpack once an in-place op has
bumped it since, with PyTorch's error text (errors.py) and, in anomaly mode, the culprit.
"""
from __future__ import annotations

import weakref
from typing import TYPE_CHECKING

from ..modes import STATE
from ..tensor import Tensor
from ..type_names import type_string
from .errors import ANOMALY_HINT, FREED, INFERENCE_SAVED, VERSION_HINT, short_name

if TYPE_CHECKING:
    from .graph import Node


def _shape_str(shape) -> str:
    return "[" + ", ".join(str(s) for s in shape) + "]"


class SavedTensor:
    """A tensor saved for backward: its storage and geometry, plus the version it had."""

    __slots__ = ("_storage", "_shape", "_stride", "_offset", "_dtype", "_vc", "version",
                 "_producer", "field", "_node", "_released", "_requires_grad", "_is_output",
                 "_tensor", "_weak_fn", "_view_of", "_unpacked", "__weakref__")

    def __init__(self, t: Tensor, field: str, node: Node, producer: tuple | None,
                 is_output: bool = False, requires_grad: bool | None = None):
        if t._inference:
            raise RuntimeError(INFERENCE_SAVED)
        storage = self._storage = t._storage
        self._requires_grad = t._requires_grad if requires_grad is None else requires_grad
        self._is_output = is_output
        base = t._base
        if is_output:
            # The output of an in-place op on a view is named, in an error, by the view's
            # regenerated grad_fn while that node is still alive.
            self._tensor = self._view_of = None
            fn = t._grad_fn
            self._weak_fn = weakref.ref(fn) if base is not None and fn is not None else None
        else:
            # PyTorch names a saved *input* by its grad_fn at the time of the error (after
            # any rebase): keep a weak handle on the tensor.
            self._tensor, self._weak_fn = weakref.ref(t), None
            # PyTorch's SavedVariable keeps a saved input alive, so the error text can ask a
            # dead view for its grad_fn (regenerated as AsStrided once its base changed: the
            # "output 0 of AsStrided" after Linear's weight changes, whose weight.t() died
            # after forward). We keep only what that question needs: the base, weakly, and
            # the view's version.
            self._view_of = None if base is None else (weakref.ref(base), t._attr_version,
                                                       t._creation)
        self._shape, self._stride, self._offset = t._shape, t._stride, t._offset
        self._dtype, self._vc, self.version = t.dtype, t._vc, t._vc.value
        self._producer = producer  # (weakref to the producing node, output_nr); None: a leaf
        self.field = field
        self._node = weakref.ref(node)
        self._released = False
        self._unpacked = None  # the last tensor _saved_<field> gave out (weakly), see below
        saved = storage._saved
        if saved is None:
            saved = storage._saved = weakref.WeakSet()
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
        if self._released or self._vc.value != self.version:
            self.check()  # raises, with PyTorch's text
        t = Tensor._make(self._storage, self._shape, self._stride, self._offset, self._dtype,
                         vc=self._vc)
        t._requires_grad = self._requires_grad
        return t

    def unpack_saved(self) -> Tensor:
        """``grad_fn._saved_<field>`` as PyTorch's SavedVariable::unpack hands it to Python.

        A saved input is the tensor itself (``(x * y).grad_fn._saved_self is x``): PyTorch
        keeps the original, whose Python object comes back. The core keeps it weakly (a
        strong hold could close a cycle, ``x.mul_(x)`` saving x under its own new node), so
        once it is gone a stand-in is made, with the original's grad_fn, and given out again
        while it lives. A saved output is a new tensor each time, whose grad_fn is the node
        that saved it (``r.grad_fn._saved_result.grad_fn is r.grad_fn``)."""
        self.check()
        if self._is_output:
            t = self.unpack()
            t._grad_fn, t._output_nr = self._producer_node(), self._producer[1]
            return t
        for ref in (self._tensor, self._unpacked):
            t = ref() if ref is not None else None
            if t is not None and t._storage is self._storage:
                return t
        t = self.unpack()
        node = self._producer_node()
        if node is not None:
            t._grad_fn, t._output_nr = node, self._producer[1]
        self._unpacked = weakref.ref(t)
        return t

    def _producer_node(self):
        return self._producer[0]() if self._producer is not None else None

    def _producer_now(self) -> str | None:
        fn = self._weak_fn() if self._weak_fn is not None else None
        if fn is not None:
            return f"output 0 of {short_name(fn.name())}"
        t = self._tensor() if self._tensor is not None else None
        if t is None:
            return self._dead_view_producer() or format_producer(self._producer)
        try:
            fn = t.grad_fn  # may regenerate a view's grad_fn, exactly as PyTorch's message does
        except RuntimeError:
            fn = t._grad_fn
        return f"output {t._output_nr} of {short_name(fn.name())}" if fn is not None else None

    def _dead_view_producer(self) -> str | None:
        """What ``grad_fn`` of the saved view would say now, had it been kept alive."""
        if self._view_of is None:
            return None
        base_ref, attr_version, creation = self._view_of
        base = base_ref()
        if (base is not None and base._requires_grad and creation is None
                and self._vc.value != attr_version):
            return f"output 0 of {short_name('AsStridedBackward0')}"
        return None

    def _version_message(self) -> str:
        producer = self._producer_now()
        which = f", which is {producer}," if producer else ""
        t = self._tensor() if self._tensor is not None else None
        shape = t._shape if t is not None else self._shape  # the tensor as it is now
        msg = (
            "one of the variables needed for gradient computation has been modified by an "
            f"inplace operation: [{type_string(self._dtype)} {_shape_str(shape)}]"
            f"{which} is at version {self._vc.value}; expected version {self.version} instead."
            + (ANOMALY_HINT if STATE.anomaly else VERSION_HINT)
        )
        node = self._node()
        if STATE.anomaly or self._vc.history:
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




class SavedTensorList:
    """A saved ``Tensor?[]`` field (index's and index_put_'s ``indices``): one SavedTensor per
    tensor, ``None`` kept in its place. ``_saved_indices`` unpacks to a tuple, and every
    tensor in it is version-checked, as PyTorch's list of SavedVariables is."""

    __slots__ = ("items", "field")

    def __init__(self, tensors, field: str, node: Node):
        self.field = field
        self.items = tuple(None if t is None else SavedTensor(t, field, node, producer_of(t))
                           for t in tensors)

    def _live(self) -> list[SavedTensor]:
        return [s for s in self.items if s is not None]

    @property
    def _released(self) -> bool:
        return any(s._released for s in self._live())

    @property
    def is_stale(self) -> bool:
        return any(s.is_stale for s in self._live())

    def _first(self) -> SavedTensor | None:
        """The tensor a picture reports: the first stale one, else the first."""
        live = self._live()
        return next((s for s in live if s.is_stale), live[0] if live else None)

    @property
    def version(self) -> int:
        s = self._first()
        return s.version if s is not None else 0

    @property
    def current_version(self) -> int:
        s = self._first()
        return s.current_version if s is not None else 0

    def release(self) -> None:
        for s in self._live():
            s.release()

    def check(self) -> None:
        for s in self._live():
            s.check()

    def unpack(self) -> tuple:
        self.check()
        return tuple(None if s is None else s.unpack() for s in self.items)

    def unpack_saved(self) -> tuple:
        self.check()
        return tuple(None if s is None else s.unpack_saved() for s in self.items)

def producer_of(t: Tensor, node: Node | None = None, output_nr: int = 0):
    """Who produced a saved tensor, as (weakref to node, output_nr); formatted only for an
    error text (format_producer), so saving never builds a string."""
    if node is not None:
        return (weakref.ref(node), output_nr)  # the saving node itself: never keep it alive
    fn = t._grad_fn
    return None if fn is None else (weakref.ref(fn), t._output_nr)


def format_producer(producer) -> str | None:
    if producer is None:
        return None
    fn = producer[0]()
    return None if fn is None else f"output {producer[1]} of {short_name(fn.name())}"
