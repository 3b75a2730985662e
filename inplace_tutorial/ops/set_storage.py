"""set_: a tensor made to look into another storage (or a fresh, empty one).

``x.set_(y)`` makes ``x`` share ``y``'s storage, offset, shape and strides: writes through one
are seen by the other, but each keeps its own version counter and history.
``x.set_(storage, offset, size, stride)`` places ``x`` anywhere in a storage, growing it in
place when the geometry reaches past its end (as resize_ does: ops/resize.py), and ``x.set_()``
gives ``x`` a new storage of no bytes. PyTorch has no derivative for any of them: a tensor that
needs a graph gets a ``NotImplemented`` node, and backward through it raises.
"""
from __future__ import annotations

from ..autograd.derivatives import derivative
from ..autograd.errors import INFERENCE_INPLACE
from ..autograd.record import record_inplace
from ..function_parser import PythonArgParser
from ..layout import contiguous_strides, numel_overflows, storage_nbytes
from ..modes import STATE
from ..storage import UntypedStorage
from ..tensor import Tensor, tensor_method
from .resize import _storage_nbytes_contiguous

# python_variable_methods.cpp's parser for Tensor.set_, its five forms in its order
_SET = PythonArgParser("set_", [
    "()",
    "(Storage source)",
    "(Storage source, SymInt storage_offset, SymIntArrayRef size, SymIntArrayRef stride=None)",
    "(Tensor source)",
    "(Tensor source, SymInt storage_offset, SymIntArrayRef size, SymIntArrayRef stride=None)",
], False)


def _not_implemented(ctx, g):
    raise RuntimeError("derivative for set_ is not implemented")


# derivatives.yaml: every set_ overload's self is not_implemented; set_.source_Tensor's source
# too (so a graph reaches it), the other overloads' sources are not differentiable
derivative("set_", "NotImplemented", qualified=True)(_not_implemented)
derivative("set_source_Tensor", "NotImplemented", inputs=("self", "source"),
           qualified=True)(_not_implemented)


def _checked_geometry(self: Tensor, storage: UntypedStorage, offset: int, size: tuple,
                      stride: tuple | None) -> tuple[tuple, int]:
    """checkSetStorage and resize_impl_cpu_'s checks, all before anything is set: the strides
    the tensor will get and the bytes its storage must hold. (PyTorch sets the storage and
    offset before the overflow and resizable checks and leaves them set when one fails.)"""
    if stride is not None and len(size) != len(stride):
        raise RuntimeError(f"unequal size length ({len(size)}) and stride length "
                           f"({len(stride)})")
    if offset < 0:
        raise RuntimeError(f"Tensor: invalid storage offset {offset}")
    if numel_overflows(size):
        raise RuntimeError("numel: integer multiplication overflow")
    itemsize = self.dtype.itemsize
    if stride is None:
        need = _storage_nbytes_contiguous(size, itemsize, offset)
        if need is None:
            raise RuntimeError(f"Storage size calculation overflowed with sizes={list(size)}")
        stride = contiguous_strides(size)
    else:
        need = storage_nbytes(size, stride, itemsize, offset)
        if need is None:
            raise RuntimeError(f"Storage size calculation overflowed with sizes={list(size)} "
                               f"and strides={list(stride)}")
    if 0 in size:
        need = 0  # maybe_resize_storage_cpu: no element, no resize
    if need > storage.nbytes() and not storage._resizable:
        raise RuntimeError("Trying to resize storage that is not resizable")
    return stride, need


def _place(self: Tensor, storage: UntypedStorage, offset: int, size: tuple, stride: tuple,
           need: int) -> None:
    """The write: the storage grown if the geometry reaches past its end, then the tensor's
    storage, offset, shape and strides replaced."""
    if need > storage.nbytes():
        storage._resize_bytes(need, "set_")
    self._storage = storage
    self._set_geometry(size, stride, offset)


@tensor_method
def set_(self, *args, **kwargs) -> Tensor:
    """x.set_(), x.set_(y), x.set_(storage), x.set_(storage or y, offset, size, stride)."""
    _, v = _SET.parse(args, kwargs)
    source = v.get("source")
    op, inputs = "set_", {"self": self}
    if source is None:  # set_(): a storage of no bytes, of x's own
        storage, offset, size, stride = UntypedStorage(0, self.dtype.np, "set_"), 0, (0,), None
    elif "storage_offset" in v:  # the four-argument forms (no dtype check: bytes are bytes)
        storage = source if isinstance(source, UntypedStorage) else source._storage
        offset, size = int(v["storage_offset"]), tuple(int(n) for n in v["size"])
        stride = v["stride"]
        # an empty stride list is no stride list: C++ gets a null ArrayRef, contiguous strides
        stride = tuple(int(n) for n in stride) if stride else None
    elif isinstance(source, UntypedStorage):  # set_(storage): all its whole elements, 1-D
        storage, offset, size, stride = source, 0, (source.nbytes() // self.dtype.itemsize,), None
    else:  # set_(y): the Python binding checks the dtype before anything else
        if source._storage is not self._storage and source.dtype is not self.dtype:
            raise RuntimeError(f"Could not set tensor of type {source.dtype.c_name} to a tensor "
                               f"of type {self.dtype.c_name}")
        storage, offset, size, stride = source._storage, source._offset, source._shape, \
            source._stride
        op, inputs = "set_source_Tensor", {"self": self, "source": source}
    plan: list = []

    def check() -> None:
        plan.extend(_checked_geometry(self, storage, offset, size, stride))

    def compute() -> None:
        if source is not self:  # set_tensor_: a tensor set to itself is left as it is
            _place(self, storage, offset, size, *plan)

    if not self._vc.tracked and not STATE.inference:
        # PyTorch's kernel runs, then the version bump finds no counter and raises
        check()
        compute()
        raise RuntimeError(INFERENCE_INPLACE)
    return record_inplace(op, self, inputs, compute, check)


# share_memory_ and is_shared are Python methods of torch.Tensor (torch/_tensor.py), not
# TensorBase's: an extra argument is refused in Python's words ("Tensor.share_memory_() takes
# 1 positional argument but 2 were given"), so they are attached as they are.
def share_memory_(self) -> Tensor:
    """x.share_memory_(): x's storage moves to a new buffer (storage.py:share_memory_), every
    tensor on it with it; no version step, allowed on tensors that require grad."""
    self._storage.share_memory_()
    self._np = None  # (its window on the old buffer would keep that buffer alive)
    return self


def is_shared(self) -> bool:
    """x.is_shared(): has x's storage been moved by share_memory_?"""
    return self._storage.is_shared()


for _method in (share_memory_, is_shared):
    _method.__qualname__ = f"Tensor.{_method.__name__}"
    setattr(Tensor, _method.__name__, _method)
