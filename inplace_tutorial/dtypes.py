"""dtypes: the four element types of the core and PyTorch's type-promotion table.

A dtype wraps a NumPy dtype and prints with PyTorch's name, so lessons read the same.
Promotion follows PyTorch: categories bool < integer < floating, and a dimensioned
tensor outranks a zero-dim tensor, which outranks a Python scalar.
"""
from __future__ import annotations

import numpy as np


class dtype:
    __slots__ = ("name", "np", "category", "itemsize", "tensor_type", "short")

    def __init__(self, name: str, np_dtype: type, category: int, tensor_type: str, short: str):
        self.name = name
        self.np = np.dtype(np_dtype)
        self.category = category  # 0 bool, 1 integer, 2 floating
        self.itemsize = self.np.itemsize
        self.tensor_type = tensor_type  # "FloatTensor": used in autograd error texts
        self.short = short  # "Float": used in cast error texts

    @property
    def is_floating_point(self) -> bool:
        return self.category == 2

    def __repr__(self) -> str:
        return f"torch.{self.name}"

    def __reduce__(self):
        return (_by_name, (self.name,))


float32 = dtype("float32", np.float32, 2, "FloatTensor", "Float")
float64 = dtype("float64", np.float64, 2, "DoubleTensor", "Double")
int64 = dtype("int64", np.int64, 1, "LongTensor", "Long")
bool_ = dtype("bool", np.bool_, 0, "BoolTensor", "Bool")
float = float32  # noqa: A001  (torch.float is float32)
double = float64
long = int64

_ALL = (float32, float64, int64, bool_)
_FROM_NP = {d.np: d for d in _ALL}
_DEFAULT_FOR_CATEGORY = {0: bool_, 1: int64, 2: float32}


def _by_name(name: str) -> dtype:
    return {d.name: d for d in _ALL}[name]


def from_numpy_dtype(np_dtype) -> dtype:
    """Map a NumPy dtype onto the core's; other widths fold onto the nearest of the four."""
    np_dtype = np.dtype(np_dtype)
    if np_dtype in _FROM_NP:
        return _FROM_NP[np_dtype]
    if np_dtype.kind == "f":
        return float32 if np_dtype.itemsize <= 4 else float64
    if np_dtype.kind in "iu":
        return int64
    if np_dtype.kind == "b":
        return bool_
    raise TypeError(f"can't convert np.ndarray of type {np_dtype}")


def scalar_dtype(value) -> dtype:
    """The dtype a Python scalar takes when it stands alone (torch.tensor(3.) is float32)."""
    if isinstance(value, (bool, np.bool_)):
        return bool_
    if isinstance(value, (int, np.integer)):
        return int64
    return float32


def _higher(a: dtype, b: dtype) -> dtype:
    if a.category != b.category:
        return a if a.category > b.category else b
    return a if a.itemsize >= b.itemsize else b


def result_type(*operands) -> dtype:
    """PyTorch's result_type over tensors and Python scalars (three priority tiers)."""
    tiers: list[dtype | None] = [None, None, None]  # dimensioned, zero-dim, scalar
    for op in operands:
        d = getattr(op, "dtype", None)
        if isinstance(d, dtype):
            tier = 0 if op._shape else 1
        else:
            tier, d = 2, scalar_dtype(op)
        tiers[tier] = d if tiers[tier] is None else _higher(tiers[tier], d)
    result = None
    for tier, d in enumerate(tiers):
        if d is None:
            continue
        if result is None:
            result = d if tier < 2 else _DEFAULT_FOR_CATEGORY[d.category]
        elif d.category > result.category:
            result = d if tier < 2 else _DEFAULT_FOR_CATEGORY[d.category]
    return result


def can_cast(src: dtype, dst: dtype) -> bool:
    """In-place results may not move up a category (float into long fails)."""
    return src.category <= dst.category


def float_result(d: dtype) -> dtype:
    """Ops like exp or true division turn integer inputs into the default float."""
    return d if d.category == 2 else float32
