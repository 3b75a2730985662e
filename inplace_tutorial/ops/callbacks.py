"""apply_, map_, map2_: a Python function called on every element, in place (CPU only).

PyTorch's torch/csrc/utils/tensor_apply.cpp walks the tensor in row-major order of its shape,
hands each element to the function as a Python number (float, int or bool), and stores the
answer right away, as python_scalars.h's store_scalar converts it. So a later element reads
what an earlier call wrote (overlapping operands, expanded self), and an exception stops the
walk with the cells before it written. These methods bypass the dispatcher: no version step,
no graph; a tensor that requires grad is refused, in every grad mode.
"""
from __future__ import annotations

import numpy as np

from ..dtypes import BOOL, FLOATING
from ..function_parser import PythonArgParser
from ..tensor import Tensor, tensor_method

_MAP = PythonArgParser("map_", ["(Tensor other, PyObject* callable)"], False)
_MAP2 = PythonArgParser("map2_", ["(Tensor x, Tensor y, PyObject* callable)"], False)


def _refuse_grad(name: str, *tensors: Tensor) -> None:
    if any(t.requires_grad for t in tensors):
        raise RuntimeError(f"Can't call {name}() on Variable that requires grad. Use "
                           f"var.detach().{name}() instead.")


def _as_double(obj) -> float:
    """THPUtils_unpackDouble (PyFloat_AsDouble): a float, or anything with __float__ or
    __index__ (a 0-dim tensor, a NumPy number); a str is no real number."""
    if isinstance(obj, float):
        return obj
    kind = type(obj)
    if hasattr(kind, "__float__"):
        return kind.__float__(obj)
    if hasattr(kind, "__index__"):
        return float(kind.__index__(obj))
    raise TypeError(f"must be real number, not {kind.__name__}")


def _as_long(obj) -> int:
    """THPUtils_unpackLong (PyLong_AsLongLongAndOverflow: __index__ only; beyond 64 bits
    torch's own ValueError)."""
    kind = type(obj)
    if not hasattr(kind, "__index__"):
        raise TypeError(f"'{kind.__name__}' object cannot be interpreted as an integer")
    value = kind.__index__(obj)
    if not -2**63 <= value < 2**63:
        raise ValueError("Overflow when unpacking long long")
    return value


def _stored(obj, dtype):
    """store_scalar: the function's answer as a value of ``dtype`` (float64 rounded once to
    float32; float16/bfloat16 built from a float, as c10 builds them)."""
    if dtype.category == FLOATING:
        d = _as_double(obj)
        return d if dtype.itemsize >= 4 else np.float32(d)
    if dtype.category == BOOL:  # unpackNumberAsBool: any nonzero number, however large
        if isinstance(obj, float):
            return bool(obj)
        if not hasattr(type(obj), "__index__"):
            _as_long(obj)  # (raises PyLong's TypeError)
        return bool(type(obj).__index__(obj))
    # unpackIntegral, c10::checked_convert: a float must lie in the type's range (NaN and
    # infinity don't), then is truncated toward zero; an int too, except that uint8 takes
    # -255..255 and wraps (c10's overflows() lets an unsigned type take a negated value)
    info = np.iinfo(dtype.np)
    if isinstance(obj, float):
        fits = info.min <= obj <= info.max
        value = int(obj) if fits else 0
    else:
        value = _as_long(obj)
        fits = (-info.max <= value <= info.max) if info.min == 0 else (
            info.min <= value <= info.max)
    if not fits:
        raise RuntimeError(f"value cannot be converted to type {dtype.name} without overflow")
    return value % (info.max + 1) if info.min == 0 else value


def _loaded(cell):
    """load_scalar: a Python float, int or bool."""
    return cell.item() if cell.dtype.kind in "iub" or cell.dtype.itemsize >= 4 else float(cell)


def _walk(self: Tensor, fn, operands: tuple[Tensor, ...]) -> Tensor:
    """recursive_apply: every index of self's shape in row-major order; each cell read when
    its turn comes, the answer stored before the next call."""
    arrays = [self._array(), *(o._array() for o in operands)]
    dtype = self.dtype
    for idx in np.ndindex(self._shape):
        cell = (*idx, Ellipsis)  # a 0-dim view: the cell itself, writable
        args = [_loaded(a[cell]) for a in arrays]
        arrays[0][cell] = _stored(fn(*args), dtype)
    return self


@tensor_method
def apply_(self, *args, **kwargs) -> Tensor:
    """x.apply_(f): x[i] = f(x[i]) for every element, in row-major order."""
    if kwargs:  # a METH_O method: CPython's own refusals
        raise TypeError("TensorBase.apply_() takes no keyword arguments")
    if len(args) != 1:
        raise TypeError(f"TensorBase.apply_() takes exactly one argument ({len(args)} given)")
    _refuse_grad("apply_", self)
    return _walk(self, args[0], ())


def _same_type(name: str, arg: str, self: Tensor, other: Tensor) -> None:
    if other.dtype is not self.dtype:
        raise TypeError(f"{name}: expected torch.{self.dtype.tensor_type} for {arg} "
                        f"(got torch.{other.dtype.tensor_type})")


@tensor_method
def map_(self, *args, **kwargs) -> Tensor:
    """x.map_(y, f): x[i] = f(x[i], y[i]), y broadcast to x's shape."""
    _, v = _MAP.parse(args, kwargs)
    other = v["other"]
    _refuse_grad("map_", self, other)
    _same_type("map_", "'other'", self, other)
    return _walk(self, v["callable"], (other.expand(self._shape),))


@tensor_method
def map2_(self, *args, **kwargs) -> Tensor:
    """x.map2_(y, z, f): x[i] = f(x[i], y[i], z[i]), y and z broadcast to x's shape."""
    _, v = _MAP2.parse(args, kwargs)
    x, y = v["x"], v["y"]
    _refuse_grad("map2_", self, x, y)
    _same_type("map2_", "argument 'x'", self, x)
    _same_type("map2_", "argument 'y'", self, y)
    return _walk(self, v["callable"], (x.expand(self._shape), y.expand(self._shape)))
