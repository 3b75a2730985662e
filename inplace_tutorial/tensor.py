"""Tensor: a shape, strides and an offset over a Storage, plus autograd state.

This module holds the metadata API (size, stride, data_ptr, _version, _base ...), the
autograd state a tensor carries (requires_grad, .grad, .data, detach()) and its hash. It
imports only the layers below it (layout, storage, dtypes, modes, the version counter): item()
and the scalar conversions (tensor_conversions.py), repr/len/iter/``in``/format
(tensor_protocols.py), the ops (``ops/``) and autograd's ``grad_fn``/``backward``
(``autograd/tensor_methods.py``) attach themselves as methods when the package is imported,
so this file stays about what a tensor *is*, not what it can do.
"""
from __future__ import annotations

import weakref
from typing import Any

import numpy as np

from . import dtypes
from . import layout as layouts
from .layout import (  # noqa: F401  (contiguous_strides ... stay importable from here)
    contiguous_format,
    contiguous_strides,
    is_contiguous,
    is_contiguous_as,
    non_overlapping_and_dense,
    storage_extent,
    strided,
    wrap_dim,
)
from .method_flags import (  # noqa: F401  (KEYWORD_ONLY_METHODS stays importable from here)
    KEYWORD_ONLY_METHODS,
    as_method,
    bool_argument,
    check_memory_format,
    dim_argument,
    keyword_only,
    no_arguments,
)
from .modes import STATE
from .size import Size, size_of
from .storage import UntypedStorage
from .type_names import grad_dtype_message, grad_size_message
from .version_counter import (
    INFERENCE_VERSION,
    DetachedInferenceCounter,
    NoVersionCounter,
    VersionCounter,
)

INFERENCE_REQUIRES_GRAD = (
    "Setting requires_grad=True on inference tensor outside InferenceMode is not allowed.")


class Tensor:
    __slots__ = ("_storage", "_shape", "_stride", "_offset", "dtype", "_np", "_np_generation",
                 "_vc", "_requires_grad", "_grad", "_grad_fn", "_output_nr", "_base", "_creation",
                 "_attr_version", "_accumulator", "_inference", "_shared_grad", "_hooks",
                 "_retains_grad", "__weakref__")

    # ------------------------------------------------------------------ construction
    @classmethod
    def _make(cls, storage: UntypedStorage, shape: tuple, stride: tuple, offset: int,
              dtype: dtypes.dtype, vc: VersionCounter | None = None) -> Tensor:
        t = object.__new__(cls)
        t._storage, t._shape, t._stride, t._offset, t.dtype = storage, shape, stride, offset, dtype
        t._np = None
        if vc is None:  # a new tensor: made in inference mode, it is an inference tensor
            inference = STATE.inference
            vc = NoVersionCounter() if inference else VersionCounter()
        else:  # a view (or detach) shares the counter, and with it inference-ness
            inference = vc.inference
            if inference and vc.tracked:  # a view of a detached inference tensor
                vc = NoVersionCounter()
        t._vc = vc
        t._requires_grad = False
        t._grad = None
        t._grad_fn = None
        t._output_nr = 0
        t._base = None
        t._creation = None
        t._attr_version = 0
        t._accumulator = None
        t._inference = inference
        t._shared_grad = False
        t._hooks = None  # a leaf's gradient hooks (autograd/hooks.py); a non-leaf's: its node
        t._retains_grad = False
        return t

    @classmethod
    def _empty(cls, shape: tuple, dtype: dtypes.dtype, op: str = "empty") -> Tensor:
        if type(shape) is not tuple:
            shape = tuple(shape)
        n = 1
        for s in shape:
            n *= s
        storage = UntypedStorage(n, dtype.np, op)
        t = cls._make(storage, shape, contiguous_strides(shape), 0, dtype)
        # its NumPy window at once: the whole new buffer, reshaped (what _array() would build)
        t._np, t._np_generation = storage._array.reshape(shape), 0
        return t

    def __init__(self, *args, **kwargs):
        raise TypeError("create tensors with inplace_tutorial.tensor(...), zeros(...) etc.")

    # ------------------------------------------------------------------ the NumPy window
    def _array(self) -> np.ndarray:
        """A NumPy view onto exactly the cells this tensor addresses (no copy)."""
        a = self._np
        storage = self._storage
        if a is None or self._np_generation != storage._generation:  # none yet, or onto a
            buf = storage._array  # buffer the storage has since replaced (it grew: out=)
            self._np_generation = storage._generation
            np_dtype = self.dtype.np
            if buf.dtype is not np_dtype and buf.dtype != np_dtype:
                buf = storage.typed(np_dtype)  # a view(dtype): other bytes' reading
            shape = self._shape
            # contiguous (most tensors): a slice of the buffer, reshaped, costs a fifth of
            # building the strided view below (no stride arithmetic in Python)
            n = 1
            for size, st in zip(reversed(shape), reversed(self._stride)):
                if size != 1 and st != n:
                    break
                n *= size
            else:
                off = self._offset
                a = (buf if off == 0 and n == buf.size else buf[off:off + n]).reshape(shape)
                self._np = a
                return a
            isz = buf.itemsize
            if 0 in shape:  # nothing is addressed: NumPy must not bounds-check the geometry
                a = np.ndarray(shape, buf.dtype, buf, 0, (0,) * len(shape))
            elif len(shape) == 2 and self._stride == (1, shape[0]):
                # a transposed contiguous matrix (weight.t(), a gradient's .t()): its block of
                # the buffer as the (cols, rows) matrix it is, transposed; the same cells at a
                # third of the strided view's cost below
                off = self._offset
                a = buf[off:off + shape[0] * shape[1]].reshape(shape[1], shape[0]).T
            else:  # a size-1 dim's stride addresses nothing either (PyTorch allows any value)
                a = np.ndarray(shape, buf.dtype, buf, self._offset * isz,
                               tuple(0 if n == 1 else st * isz
                                     for n, st in zip(shape, self._stride)))
            self._np = a
        return a

    def _set_geometry(self, shape: tuple, stride: tuple, offset: int) -> None:
        self._shape, self._stride, self._offset = tuple(shape), tuple(stride), offset
        self._np = None

    def _resize_contiguous(self, shape: tuple) -> None:
        """PyTorch's ``resize_`` as ``resize_output`` calls it: contiguous strides from the
        same storage offset. A storage too small for them grows IN PLACE (the same storage
        object gets a larger buffer: UntypedStorage._resize_bytes), so every other tensor
        that looks into it reads the new buffer too, and all their data_ptr() move."""
        numel = 1
        for n in shape:
            numel *= n
        self._np = None
        need = (self._offset + numel) * self.dtype.itemsize if numel else 0
        if need > self._storage.nbytes():
            # every tensor on this storage had its NumPy window (_np) cached on the old buffer:
            # the storage's generation moves on, and each of them rebuilds its window at its
            # next _array()
            self._storage._resize_bytes(need, "resize_ (out=)")
        self._set_geometry(shape, contiguous_strides(tuple(shape)), self._offset)

    # ------------------------------------------------------------------ metadata
    @property
    def shape(self) -> Size:
        return size_of(self._shape)

    def size(self, dim: int | None = None):
        if dim is None:
            return size_of(self._shape)
        return self._shape[wrap_dim(dim_argument("size", dim), len(self._shape))]

    @no_arguments
    def dim(self) -> int:
        return len(self._shape)

    @property
    def ndim(self) -> int:
        """The same as dim()."""
        return len(self._shape)

    @no_arguments
    def numel(self) -> int:
        n = 1
        for s in self._shape:
            n *= s
        return n

    @no_arguments
    def element_size(self) -> int:
        return self.dtype.itemsize

    def stride(self, dim: int | None = None):
        if dim is None:
            return self._stride
        return self._stride[wrap_dim(dim_argument("stride", dim), len(self._shape))]

    @no_arguments
    def storage_offset(self) -> int:
        return self._offset

    @keyword_only
    def is_contiguous(self, *, memory_format=contiguous_format) -> bool:
        """Row-major (``memory_format=torch.channels_last``: NHWC, layout.py)."""
        if memory_format is contiguous_format:
            return is_contiguous(self._shape, self._stride)
        check_memory_format("is_contiguous", memory_format)
        return is_contiguous_as(memory_format, self._shape, self._stride)

    @no_arguments
    def data_ptr(self) -> int:
        if 0 in self._shape:  # PyTorch: a tensor with no elements points nowhere
            return 0
        return self._storage.data_ptr() + self._offset * self.dtype.itemsize

    @no_arguments
    def untyped_storage(self) -> UntypedStorage:
        return self._storage

    @no_arguments
    def is_floating_point(self) -> bool:
        return self.dtype.is_floating_point

    @no_arguments
    def is_inference(self) -> bool:
        return self._inference

    @property
    def _version(self) -> int:
        vc = self._vc
        if not vc.tracked:
            raise RuntimeError(INFERENCE_VERSION)
        return vc.value

    @property
    def layout(self) -> layouts.layout:  # module imported as `layouts`: `layout` is this
        return strided

    # ------------------------------------------------------------------ autograd state
    @property
    def requires_grad(self) -> bool:
        return self._needs_grad()

    def _needs_grad(self) -> bool:
        """requires_grad, including a view whose base became differentiable after an
        in-place op (PyTorch regenerates the view's grad_fn then)."""
        if self._requires_grad:
            return True
        if self._base is None or not self._base._requires_grad:
            return False
        try:
            return self.grad_fn is not None
        except RuntimeError:  # a no_grad view whose base changed: it requires grad in PyTorch,
            return True  # though reading its grad_fn raises

    @requires_grad.setter
    def requires_grad(self, value: bool) -> None:
        if type(value) is not bool:  # THPVariable_set_requires_grad: a Python bool only
            raise RuntimeError("requires_grad must be a bool")
        self.requires_grad_(value)

    def requires_grad_(self, requires_grad: bool = True) -> Tensor:
        bool_argument("requires_grad_", "requires_grad", requires_grad)
        if not self.is_leaf and not requires_grad:
            raise RuntimeError(
                "you can only change requires_grad flags of leaf variables. If you want to use "
                "a computed variable in a subgraph that doesn't require differentiation use "
                "var_no_grad = var.detach().")
        if requires_grad and not self.dtype.is_floating_point:
            raise RuntimeError("only Tensors of floating point dtype can require gradients")
        if requires_grad and self._inference and not STATE.inference:
            raise RuntimeError(INFERENCE_REQUIRES_GRAD)
        self._requires_grad = bool(requires_grad) or self._grad_fn is not None
        return self

    # grad_fn (which regenerates a stale view's node) and backward() belong to autograd:
    # autograd/tensor_methods.py attaches them, since this layer may not import autograd.

    @property
    def is_leaf(self) -> bool:
        return self._grad_fn is None

    @no_arguments
    def retain_grad(self) -> None:
        if not self.requires_grad:
            raise RuntimeError("can't retain_grad on Tensor that has requires_grad=False")
        if self.is_leaf or self._retains_grad:  # a second call changes nothing, as in PyTorch
            return
        fn = self.grad_fn
        fn._retained.append((self._output_nr, weakref.ref(self)))
        self._retains_grad = True

    @property
    def retains_grad(self) -> bool:
        """True after retain_grad() on a non-leaf; stays True through in-place ops (the
        retained .grad follows the tensor's new grad_fn: autograd/hooks.py move_retained)."""
        return self._retains_grad

    @no_arguments
    def detach(self) -> Tensor:
        """Same storage AND same version counter, no history.

        PyTorch's one exception: detach() of an inference tensor *outside* inference mode is
        still an inference tensor but gets a counter of its own (it may then be written in
        place, where a view of the same tensor may not)."""
        t = Tensor._make(self._storage, self._shape, self._stride, self._offset, self.dtype,
                         vc=self._vc)
        if self._inference and not STATE.inference:
            t._vc = DetachedInferenceCounter()
        return t

    @no_arguments
    def detach_(self) -> Tensor:
        if self._base is not None:
            raise RuntimeError(
                "Can't detach views in-place. Use detach() instead. If you are using "
                "DistributedDataParallel (DDP) for training, and gradient_as_bucket_view is set "
                "as True, gradients are views of DDP buckets, and hence detach_() cannot be "
                "called on these gradients. To fix this error, please refer to the "
                "Optimizer.zero_grad() function in torch/optim/optimizer.py as the solution.")
        self._grad_fn, self._requires_grad = None, False
        return self

    @property
    def data(self) -> Tensor:
        """Same storage, a NEW version counter: in-place through it is invisible to autograd.
        (Of an inference tensor, inside inference mode: an inference tensor with no counter.)"""
        t = Tensor._make(self._storage, self._shape, self._stride, self._offset, self.dtype,
                         vc=VersionCounter())
        if self._inference:
            t._inference = True
            t._vc = NoVersionCounter() if STATE.inference else DetachedInferenceCounter()
        return t

    @data.setter
    def data(self, other: Tensor) -> None:
        """PyTorch's set_data: the tensor now looks at ``other``'s cells, same object."""
        if not isinstance(other, Tensor):
            raise TypeError(f"Variable data has to be a tensor, but got {type(other).__name__}")
        if self.requires_grad and not other.dtype.is_floating_point:
            raise RuntimeError("data set to a tensor that requires gradients must be floating "
                               "point or complex dtype")
        self._storage, self.dtype = other._storage, other.dtype
        self._set_geometry(other._shape, other._stride, other._offset)

    @property
    def grad(self) -> Tensor | None:
        """The gradient accumulated by backward() (or assigned): None until then."""
        return self._grad

    @grad.setter
    def grad(self, value: Tensor | None) -> None:
        if value is not None:
            check_grad_assignment(self, value)
        self._grad = value

    @property
    def output_nr(self) -> int:
        return self._output_nr

    @no_arguments
    def _is_view(self) -> bool:
        return self._base is not None

    # ------------------------------------------------------------------ Python's protocols
    # A tensor hashes by identity from birth; the other protocols torch/_tensor.py writes in
    # Python (repr, len, iter, reversed, in, format, __array__) are tensor_protocols.py's;
    # item(), bool(x), float(x), int(x), operator.index(x): tensor_conversions.py.
    def __hash__(self) -> int:
        return id(self)


def check_grad_assignment(t: Tensor, value: Any) -> None:
    """PyTorch's checks on ``t.grad = value`` (THPVariable_set_grad), in its order and words."""
    if not isinstance(value, Tensor):
        raise TypeError("assigned grad expected to be a Tensor or None but got grad of type "
                        f"{type(value).__name__}")
    if value.dtype is not t.dtype:
        raise RuntimeError(grad_dtype_message(value.dtype, t.dtype))
    if value._shape != t._shape:
        raise RuntimeError(grad_size_message(value._shape, t._shape))


def tensor_method(fn: Any) -> Any:
    """Attach an op function to Tensor under its own name (the registration step of ops/),
    wrapped as PyTorch refuses its extra arguments (method_flags.py:as_method). The module
    keeps the plain function, so calls inside ops/ pay nothing."""
    setattr(Tensor, fn.__name__, as_method(fn))
    return fn
