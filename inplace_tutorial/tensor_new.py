"""torch.tensor and torch.from_numpy (PyTorch's tensor_new.cpp and tensor_numpy.cpp): a copy of
nested Python data with torch's dtype inference and element checks, and a tensor sharing a
NumPy array's memory. The factories that take a size are in creation.py, below.
"""
from __future__ import annotations

import numbers
import types

import numpy as np

from . import dtypes, storage
from .arg_parser import argument_error, type_name
from .copy_kernel import cast_into
from .creation import _dense_layout, _empty_preserving, factory_options, finish_factory
from .function_parser import torch_function
from .layout import storage_extent
from .storage import UntypedStorage
from .tensor import Tensor

_PLAIN = (bool, int, float)


def _leaf_dtype(v) -> dtypes.dtype:
    """torch.tensor's infer_scalar_type for one element."""
    if isinstance(v, (np.ndarray, np.generic)):  # before float: np.float64 is a float
        return dtypes.from_numpy_dtype(v.dtype)
    if isinstance(v, bool):
        return dtypes.bool_
    if isinstance(v, int):
        return dtypes.int64
    if isinstance(v, float):
        return dtypes.float32
    if isinstance(v, Tensor):
        return v.dtype
    if isinstance(v, complex):
        raise TypeError("inplace_tutorial has no complex dtypes (PyTorch would make a "
                        "complex64 tensor here)")
    if isinstance(v, str):
        raise TypeError("new(): invalid data type 'str'")
    raise RuntimeError(f"Could not infer dtype of {type(v).__name__}")


def _as_lists(data):
    if isinstance(data, np.ndarray) and data.ndim:
        return [_as_lists(x) for x in data]
    if isinstance(data, (list, tuple)):
        return [_as_lists(x) for x in data]
    return data


def _walk(data, leaves: list) -> None:
    """Collect the leaves of nested lists/tuples, in order."""
    for item in data:
        if isinstance(item, (list, tuple)):
            _walk(item, leaves)
        else:
            leaves.append(item)


def _infer_dtype(leaves: list) -> dtypes.dtype:
    """The promoted dtype of all elements (promote_types, not categories: a list of an int8
    and a uint8 NumPy scalar makes an int16 tensor)."""
    if not leaves:
        return dtypes.float32
    kinds = {type(v) for v in leaves}
    if kinds <= {bool}:
        return dtypes.bool_
    if kinds <= {bool, int}:
        return dtypes.int64
    if kinds <= set(_PLAIN):
        return dtypes.float32
    d = _leaf_dtype(leaves[0])
    for v in leaves[1:]:
        d = dtypes.promote_types(d, _leaf_dtype(v))
    return d


def _check_convertible(leaves: list, dtype: dtypes.dtype) -> None:
    """What PyTorch says when an element can't become a number of the dtype it was given
    (Python's float() and index() words): a float dtype takes anything with __float__ but a
    complex; an integer one a Python int or float, or anything with __index__ but a NumPy
    bool; bool any number."""
    for v in leaves:
        if isinstance(v, (Tensor, np.ndarray)):
            continue  # (their own checks follow)
        if isinstance(v, str) and dtype is dtypes.bool_:  # (read as a sequence there)
            raise ValueError("too many dimensions 'str'")
        # Python names the type as C does: numpy.float16, Fraction
        name = type_name(v) if isinstance(v, np.generic) else type(v).__name__
        if dtype.category == dtypes.FLOATING:
            if isinstance(v, complex) or not hasattr(type(v), "__float__"):
                raise TypeError(f"must be real number, not {name}")
        elif not (isinstance(v, (int, float)) or (
                hasattr(type(v), "__index__") and not isinstance(v, np.bool_))
                or (dtype is dtypes.bool_ and isinstance(v, numbers.Number))):
            raise TypeError(f"'{name}' object cannot be interpreted as an integer")


def _from_sequence(data, dtype: dtypes.dtype | None) -> tuple:
    """(NumPy array of the values, dtype) for a Python scalar or nested sequence, each
    element converted and checked as torch.tensor does (in PyTorch's words)."""
    leaves: list = []
    if isinstance(data, range):  # a sequence, as PyTorch reads any Python sequence
        data = list(data)
    if isinstance(data, (list, tuple)):
        data = _as_lists(data)  # NumPy arrays inside a list are nested sequences too
        _walk(data, leaves)
    else:
        leaves.append(data)
    given = dtype
    if dtype is None or isinstance(data, str):
        inferred = _infer_dtype(leaves)  # raises for None, str, complex ... as PyTorch does
        dtype = dtype or inferred
    shape = _check_nested(data, 0, dtype) if isinstance(data, (list, tuple)) else ()
    if given is not None:
        _check_convertible(leaves, given)  # each element converted to that dtype, as PyTorch
    values = []
    for v in leaves:
        if isinstance(v, (Tensor, np.ndarray)):
            if v.ndim:
                raise ValueError("only one element tensors can be converted to Python scalars")
            v = v.item()
        values.append(dtypes.checked_scalar(v, dtype, "tensor"))
    if dtype.category == dtypes.FLOATING:
        src = np.array(values, dtype=np.float64)
    elif dtype is dtypes.bool_:
        src = np.array(values, dtype=np.bool_)
    else:
        src = np.array(values, dtype=dtype.np)  # already wrapped into range
    return src.reshape(shape), dtype


@torch_function()
def tensor(data, *, dtype: dtypes.dtype | None = None, device=None,
           pin_memory: bool = False, requires_grad: bool = False) -> Tensor:
    """A new tensor holding a copy of ``data`` (nested lists, scalars, NumPy arrays)."""
    if requires_grad is None:  # torch.tensor's requires_grad is a plain bool (no ``?``)
        raise argument_error("tensor", "requires_grad", None, "bool", None)
    factory_options("tensor", dtype, requires_grad, None, device, pin_memory)
    if isinstance(data, Tensor):
        src, inferred = data.detach()._array(), data.dtype
    elif isinstance(data, np.ndarray):
        src, inferred = data, dtypes.from_numpy_dtype(data.dtype)
        if any(st < 0 for st in data.strides):  # torch.tensor reads it through from_numpy
            raise ValueError(_NEGATIVE_STRIDES)
    else:
        src, inferred = _from_sequence(data, dtype)
    dtype = dtype or inferred
    t = _empty_preserving(src.shape, _dense_layout(data), dtype, "tensor")
    cast_into(t._array(), src, dtype, "tensor")
    return finish_factory(t, requires_grad)


@torch_function()
def as_tensor(data, dtype: dtypes.dtype | None = None, device=None) -> Tensor:
    """``data`` as a tensor, without a copy where one isn't needed: a tensor of that dtype is
    returned as it is (another dtype: ``data.to(dtype)``, with its graph), a NumPy array of that
    dtype shares its memory (from_numpy); anything else is copied as torch.tensor copies."""
    if dtype is not None and not isinstance(dtype, dtypes.dtype):
        raise argument_error("as_tensor", "dtype", None, "torch.dtype", dtype)
    factory_options("as_tensor", dtype, False, None, device)
    if isinstance(data, Tensor):
        if device is not None:  # 'cpu:0' is not data's device (cpu, no index): a copy
            return data.to(device, dtype)
        return data if dtype is None or dtype is data.dtype else data.to(dtype)
    if isinstance(data, np.ndarray) and data.dtype.isnative and (
            dtype is None or dtypes.from_numpy_dtype(data.dtype) is dtype):
        try:
            return from_numpy(data)
        except ValueError:  # negative or odd strides: copied instead
            pass
    return tensor(data, dtype=dtype)


_NEGATIVE_STRIDES = ("At least one stride in the given numpy array is negative, and "
                     "tensors with negative strides are not currently supported. (You can "
                     "probably work around this by making a copy of your array  with "
                     "array.copy().) ")


def from_numpy(*args, **kwargs) -> Tensor:
    """A tensor sharing ``ndarray``'s memory (no copy), keeping its dtype and strides.
    Writes through either one show in the other, as in PyTorch. torch binds it without its
    parser (CPython's METH_O: one positional argument), so its refusals are CPython's."""
    if kwargs:
        raise TypeError("torch._VariableFunctionsClass.from_numpy() takes no keyword arguments")
    if len(args) != 1:
        raise TypeError("torch._VariableFunctionsClass.from_numpy() takes exactly one argument "
                        f"({len(args)} given)")
    ndarray = args[0]
    if not isinstance(ndarray, np.ndarray):
        raise TypeError(f"expected np.ndarray (got {_np_type_name(ndarray)})")
    if not ndarray.dtype.isnative:
        raise ValueError("given numpy array has byte order different from the native byte "
                         "order. Conversion between byte orders is currently not supported.")
    dtype = dtypes.from_numpy_dtype(ndarray.dtype)
    if any(st < 0 for st in ndarray.strides):
        raise ValueError(_NEGATIVE_STRIDES)
    isz = ndarray.itemsize
    if any(st % isz for st in ndarray.strides):
        raise ValueError("given numpy array strides not a multiple of the element byte size. "
                         "Copy the numpy array to reallocate the memory.")
    strides = tuple(st // isz for st in ndarray.strides)
    extent = storage_extent(tuple(ndarray.shape), strides)
    flat = np.lib.stride_tricks.as_strided(ndarray, (extent,), (isz,), writeable=True)
    return Tensor._make(_NumPyStorage(flat), tuple(ndarray.shape), strides, 0, dtype)


class _NumPyStorage(UntypedStorage):
    """from_numpy's storage: NumPy's own buffer, shared. The core did not allocate it, so
    memory_allocated() never counts it (PyTorch's allocator does not see it either)."""

    __slots__ = ()

    def __init__(self, flat: np.ndarray):  # deliberately not UntypedStorage.__init__
        self._array, self._nbytes, self._ptr = flat, flat.nbytes, 0
        self._id, self._saved, self._generation = next(storage._labels), None, 0
        # no buffer reference with a callback: nothing was counted, nothing is given back
        self._ref = types.SimpleNamespace(op="from_numpy", nbytes=0, label=f"S{self._id}")

    @property
    def _resizable(self) -> bool:
        return False  # PyTorch's from_numpy storage: an out= on it can't grow


def _np_type_name(v) -> str:
    t = type(v)
    return t.__name__ if t.__module__ == "builtins" else f"{t.__module__}.{t.__name__}"


def _check_nested(data, dim: int, dtype: dtypes.dtype) -> tuple:
    """torch.tensor's own check of ragged nested lists (NumPy's message is less helpful)."""
    if not isinstance(data, (list, tuple)):
        return ()
    shapes = []
    for item in data:
        if isinstance(item, (list, tuple)) != isinstance(data[0], (list, tuple)):
            if isinstance(item, (list, tuple)):  # PyTorch converts it as a scalar, and fails
                raise TypeError(_NOT_A_SCALAR[dtype.category].format(type(item).__name__))
            raise TypeError("not a sequence")
        shapes.append(_check_nested(item, dim + 1, dtype))
    if shapes and isinstance(data[0], (list, tuple)):
        want = len(data[0])
        for item in data:
            if len(item) != want:
                raise ValueError(f"expected sequence of length {want} at dim {dim + 1} "
                                 f"(got {len(item)})")
    return (len(data),) + (shapes[0] if shapes else ())


_NOT_A_SCALAR = {dtypes.BOOL: "'{}' object cannot be interpreted as an integer",
                 dtypes.INTEGER: "'{}' object cannot be interpreted as an integer",
                 dtypes.FLOATING: "must be real number, not {}"}


__all__ = ["as_tensor", "from_numpy", "tensor"]
