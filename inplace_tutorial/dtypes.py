"""dtypes: the core's ten element types and PyTorch's type-promotion table.

A dtype wraps a NumPy dtype and prints with PyTorch's name, so lessons read the same.
bfloat16 has no NumPy type of its own: it comes from ``ml_dtypes`` (the JAX team's NumPy
extension), imported the first time a bfloat16 buffer is needed, so ``import
inplace_tutorial`` does not pay for it.

Promotion follows PyTorch's ``promoteTypes`` table and its ``result_type`` rules: categories
bool < integer < floating, and a dimensioned tensor outranks a zero-dim tensor, which
outranks a Python scalar (a scalar only decides the result when its category is higher).
"""
from __future__ import annotations

import builtins

import numpy as np

BOOL, INTEGER, FLOATING = 0, 1, 2


class dtype:
    """torch.dtype: ``name`` is PyTorch's (float16), ``short`` is its ScalarType name (Half),
    used in cast errors, ``c_name`` the C++ type that kernel errors print (c10::Half)."""

    __slots__ = ("name", "np", "category", "itemsize", "tensor_type", "short", "c_name",
                 "is_signed")

    def __init__(self, name: str, np_dtype, category: int, short: str, c_name: str,
                 itemsize: int, is_signed: bool):
        self.name = name
        if np_dtype is not None:
            self.np = np.dtype(np_dtype)
        self.category = category  # BOOL, INTEGER or FLOATING
        self.itemsize = itemsize
        self.short = short  # "Float": used in "result type Float can't be cast ..."
        self.tensor_type = short + "Tensor"  # "FloatTensor": autograd errors, Tensor.type()
        self.c_name = c_name  # "float", "long int": used in kernel dtype-mismatch errors
        self.is_signed = is_signed

    @property
    def is_floating_point(self) -> bool:
        return self.category == FLOATING

    @property
    def is_complex(self) -> bool:
        return False

    def __repr__(self) -> str:
        return f"torch.{self.name}"

    def __reduce__(self):
        return (_by_name, (self.name,))


class _LazyNumPyType(dtype):
    """bfloat16: its NumPy type comes from ml_dtypes, imported on first use (the other
    dtypes keep ``np`` as a plain attribute: it is read on every allocation)."""

    __slots__ = ("_loaded",)

    @property
    def np(self) -> np.dtype:
        try:
            return self._loaded
        except AttributeError:
            import ml_dtypes

            self._loaded = np.dtype(ml_dtypes.bfloat16)
            return self._loaded


bool_ = dtype("bool", np.bool_, BOOL, "Bool", "bool", 1, False)
uint8 = dtype("uint8", np.uint8, INTEGER, "Byte", "unsigned char", 1, False)
int8 = dtype("int8", np.int8, INTEGER, "Char", "signed char", 1, True)
int16 = dtype("int16", np.int16, INTEGER, "Short", "short int", 2, True)
int32 = dtype("int32", np.int32, INTEGER, "Int", "int", 4, True)
int64 = dtype("int64", np.int64, INTEGER, "Long", "long int", 8, True)
float16 = dtype("float16", np.float16, FLOATING, "Half", "c10::Half", 2, True)
bfloat16 = _LazyNumPyType("bfloat16", None, FLOATING, "BFloat16", "c10::BFloat16", 2, True)
float32 = dtype("float32", np.float32, FLOATING, "Float", "float", 4, True)
float64 = dtype("float64", np.float64, FLOATING, "Double", "double", 8, True)

# PyTorch's aliases (torch.float is float32, torch.half is float16 ...)
float = float32  # noqa: A001
double = float64
half = float16
short = int16
int = int32  # noqa: A001
long = int64

_ALL = (bool_, uint8, int8, int16, int32, int64, float16, bfloat16, float32, float64)
_BY_NAME = {d.name: d for d in _ALL}
# NumPy dtypes that torch.tensor()/from_numpy keep as they are (bfloat16 is matched by name)
_FROM_NP = {d.np: d for d in _ALL if d is not bfloat16}
_DEFAULT_FOR_CATEGORY = {BOOL: bool_, INTEGER: int64, FLOATING: float32}
_TORCH_NP = ("float64, float32, float16, complex64, complex128, int64, int32, int16, int8, "
             "uint64, uint32, uint16, uint8, and bool")
_CORE_NP = "float64, float32, float16, int64, int32, int16, int8, uint8, and bool"
_TORCH_ONLY_NP = ("complex64", "complex128", "uint16", "uint32", "uint64")


def _by_name(name: str) -> dtype:
    return _BY_NAME[name]


def all_dtypes() -> tuple:
    """The ten dtypes the core implements, in PyTorch's ScalarType order of this file."""
    return _ALL


# --------------------------------------------------------------------------- promotion
# PyTorch's promoteTypes: within a category the wider type wins, except that the two
# 8-bit integers meet in int16 and the two 16-bit floats meet in float32 (neither can
# hold the other's values). Across categories the higher category's type wins as is
# (int64 + float16 -> float16).
_SPECIAL = {
    frozenset((uint8, int8)): int16,
    frozenset((float16, bfloat16)): float32,
}
_RANK = {d: i for i, d in enumerate(_ALL)}


def promote_types(a: dtype, b: dtype) -> dtype:
    """torch.promote_types(a, b)."""
    if a is b:
        return a
    special = _SPECIAL.get(frozenset((a, b)))
    if special is not None:
        return special
    if a.category != b.category:
        return a if a.category > b.category else b
    if a.itemsize != b.itemsize:
        return a if a.itemsize > b.itemsize else b
    return a if _RANK[a] > _RANK[b] else b  # only bool/uint8/int8 ties are left: handled above


_PROMOTE = {(a, b): promote_types(a, b) for a in _ALL for b in _ALL}


def scalar_dtype(value) -> dtype:
    """The dtype a Python scalar takes when it stands alone (torch.tensor(3.) is float32)."""
    if isinstance(value, (bool, np.bool_)):
        return bool_
    if isinstance(value, (builtins.int, np.integer)):
        return int64
    return float32


def _combine(higher: dtype | None, lower: dtype | None) -> dtype | None:
    """PyTorch's combine_categories: a lower tier only matters when its category is higher
    (then both tiers are promoted together), or when the higher tier is just bool."""
    if higher is None:
        return lower
    if lower is None or higher.category == FLOATING:
        return higher
    if higher is bool_ or lower.category == FLOATING:
        return _PROMOTE[higher, lower]
    return higher


def result_type(*operands) -> dtype:
    """PyTorch's result_type over tensors and Python scalars (three priority tiers)."""
    dim = zero = wrapped = None
    for op in operands:
        d = getattr(op, "dtype", None)
        if isinstance(d, dtype):
            if op._shape:
                dim = d if dim is None else _PROMOTE[dim, d]
            else:
                zero = d if zero is None else _PROMOTE[zero, d]
        else:  # a Python scalar stands for its category's default type
            d = _DEFAULT_FOR_CATEGORY[scalar_dtype(op).category]
            wrapped = d if wrapped is None else _PROMOTE[wrapped, d]
    return _combine(_combine(dim, zero), wrapped)


def can_cast(src: dtype, dst: dtype) -> bool:
    """torch.can_cast: an in-place result may not move up a category (float into long
    fails, long into bool fails); narrowing within a category is allowed (it wraps)."""
    return src.category <= dst.category


def float_result(d: dtype) -> dtype:
    """Ops like exp or true division turn integer and bool inputs into the default float."""
    return d if d.category == FLOATING else float32


def compute_np(d: dtype) -> np.dtype:
    """The NumPy type a kernel computes in: float16/bfloat16 go through float32, as PyTorch's
    CPU kernels do (one rounding per op), everything else computes in its own type."""
    if d is float16 or d is bfloat16:
        return float32.np
    return d.np


# --------------------------------------------------------------------------- NumPy input
def from_numpy_dtype(np_dtype) -> dtype:
    """The dtype torch.tensor(ndarray) / from_numpy keep. What PyTorch refuses (object,
    str, ml_dtypes' bfloat16 ...) is refused in its words; the few NumPy types PyTorch takes
    but the core lacks (complex, uint16-uint64) are refused with a message that says so."""
    np_dtype = np.dtype(np_dtype)
    d = _FROM_NP.get(np_dtype)
    if d is not None:
        return d
    t = np_dtype.type
    name = f"{t.__module__}.{t.__name__}"
    if np_dtype.name in _TORCH_ONLY_NP:
        raise TypeError(f"can't convert np.ndarray of type {name}: PyTorch has "
                        f"torch.{np_dtype.name}, inplace_tutorial does not. Its types are: "
                        f"{_CORE_NP}.")
    raise TypeError(f"can't convert np.ndarray of type {name}. The only supported types "
                    f"are: {_TORCH_NP}.")


def parse(value) -> dtype:
    """A dtype given as a dtype object or as a torch-style string ("torch.int8")."""
    if isinstance(value, dtype):
        return value
    if isinstance(value, str):
        d = _BY_NAME.get(value.removeprefix("torch."))
        if d is not None:
            return d
    raise TypeError(f"expected a torch.dtype, got {type(value).__name__}")


# --------------------------------------------------------------------------- finfo / iinfo
class finfo:
    """torch.finfo: the limits of a floating dtype (default: float32)."""

    def __init__(self, type: dtype | None = None):  # noqa: A002  (PyTorch's name)
        type = float32 if type is None else type
        if not isinstance(type, dtype) or type.category != FLOATING:
            raise TypeError("torch.finfo() requires a floating point input type. Use "
                            "torch.iinfo to handle 'torch.finfo'")
        if type is bfloat16:
            import ml_dtypes  # NumPy's finfo does not know bfloat16; ml_dtypes' does

            info = ml_dtypes.finfo(type.np)
        else:
            info = np.finfo(type.np)
        self.bits = type.itemsize * 8
        self.eps = builtins.float(info.eps)
        self.max = builtins.float(info.max)
        self.min = builtins.float(info.min)
        self.tiny = self.smallest_normal = builtins.float(info.smallest_normal)
        # 10 ** -(decimal digits), from eps (NumPy's own resolution differs for float16)
        self.resolution = 10.0 ** -builtins.int(-np.log10(self.eps))
        self.dtype = type.name

    def __repr__(self) -> str:
        return (f"finfo(resolution={self.resolution:g}, min={self.min:g}, max={self.max:g}, "
                f"eps={self.eps:g}, smallest_normal={self.smallest_normal:g}, "
                f"tiny={self.tiny:g}, dtype={self.dtype})")


class iinfo:
    """torch.iinfo: the limits of an integer dtype."""

    def __init__(self, type: dtype):  # noqa: A002  (PyTorch's name)
        if type is bool_:
            raise TypeError("torch.bool is not supported by torch.iinfo")
        if not isinstance(type, dtype) or type.category != INTEGER:
            raise TypeError("torch.iinfo() requires an integer input type. Use torch.finfo "
                            "to handle 'torch.iinfo'")
        info = np.iinfo(type.np)
        self.bits = type.itemsize * 8
        self.min = builtins.int(info.min)
        self.max = builtins.int(info.max)
        self.dtype = type.name

    def __repr__(self) -> str:
        return f"iinfo(min={self.min:g}, max={self.max:g}, dtype={self.dtype})"



# --------------------------------------------------------------------------- checked scalars
# PyTorch converts a Python number into a tensor's type with c10::checked_convert: integers
# refuse values outside their range (an unsigned type also takes negatives down to -max,
# which wrap), NaN and infinities; floating types refuse finite values beyond their largest
# finite value (infinities and NaN pass). fill_ on a one-element tensor takes a shortcut
# that skips the check for float16/bfloat16. The C type in the message depends on the path:
# fill_/full/x[i] = v name the C++ type (int64_t), torch.tensor() names the dtype (int64)
# and checks only integers.
_C_SCALAR_NAMES = {uint8: "uint8_t", int8: "int8_t", int16: "int16_t", int32: "int",
                   int64: "int64_t", float32: "float", float16: "c10::Half",
                   bfloat16: "c10::BFloat16"}
_INT_RANGE = {d: (-(1 << (8 * d.itemsize - 1)), (1 << (8 * d.itemsize - 1)) - 1) if d.is_signed
              else (0, (1 << (8 * d.itemsize)) - 1)
              for d in (uint8, int8, int16, int32, int64)}
_FLOAT_MAX = {float16: 65504.0, bfloat16: 3.3895313892515355e38,
              float32: builtins.float(np.finfo(np.float32).max)}
_INF = builtins.float("inf")


def c_scalar_name(d: dtype) -> str:
    """The C++ type PyTorch's scalar checks name: ``int64_t``, ``float``, ``double`` ..."""
    return _C_SCALAR_NAMES.get(d) or ("double" if d is float64 else "bool")


def _overflow(value, d: dtype) -> bool:
    if d.category == FLOATING:
        top = _FLOAT_MAX.get(d)
        return top is not None and value == value and abs(value) != _INF and abs(value) > top
    if d.category != INTEGER:
        return False
    if value != value or value in (_INF, -_INF):
        return True
    lo, hi = _INT_RANGE[d]
    if lo == 0 and isinstance(value, builtins.int):  # an int may wrap: -1 is 255 in uint8
        return value > hi or (value < 0 and -value > hi)
    return value < lo or value > hi


def is_number(value) -> bool:
    """A Python or NumPy real number (what checked_scalar takes)."""
    return isinstance(value, (builtins.int, builtins.float, np.integer, np.floating, np.bool_))


def checked_scalar(value, d: dtype, path: str = "fill", numel: int = 2):
    """``value`` (a Python or NumPy number) converted for storing into a ``d`` tensor, or
    PyTorch's error. ``path``: "fill" (fill_, full, masked_fill_; ``numel`` elements),
    "setitem" (x[i] = v) or "tensor" (torch.tensor([...], dtype=d))."""
    if isinstance(value, np.generic):
        value = value.item()
    if isinstance(value, builtins.bool):
        return value
    if isinstance(value, builtins.complex) and d is not bool_:
        if value.imag != 0:  # c10's checked_convert: an imaginary part is an overflow
            raise RuntimeError(f"value cannot be converted to type {c_scalar_name(d)} without "
                               "overflow")
        value = value.real
    if isinstance(value, builtins.int) and not (-(1 << 63) <= value < (1 << 63)):
        if path == "setitem" or (path == "tensor" and d.category == INTEGER):
            raise ValueError("Overflow when unpacking long long")
        if path != "tensor" and value < -(1 << 63):
            raise OverflowError("can't convert negative int to unsigned")
        if path != "tensor" and value >= (1 << 64):
            raise OverflowError("int too big to convert")
    if path == "tensor":
        if d.category == INTEGER and _overflow(value, d):
            raise RuntimeError(f"value cannot be converted to type {d.name} without overflow")
    elif not (numel == 1 and d in (float16, bfloat16)) and _overflow(value, d):
        raise RuntimeError(f"value cannot be converted to type {_C_SCALAR_NAMES[d]} without "
                           f"overflow")
    if d.category == INTEGER:
        lo, hi = _INT_RANGE[d]
        value = builtins.int(value) - lo  # truncates toward zero, then wraps like C
        return value % (hi - lo + 1) + lo
    if d is bool_:
        return value != 0
    return builtins.float(value)  # (PyTorch reads a Python int as a double here too)


def kernel_scalar(value, np_dtype: np.dtype):
    """A Python scalar operand as an element-wise kernel sees it: PyTorch casts it to the
    computation type the C++ way, so an int wraps into a narrow integer type
    (int8 tensor + 200 adds -56); NumPy would raise instead."""
    if np_dtype.kind in "iu" and isinstance(value, builtins.int) and not isinstance(
            value, builtins.bool):
        bits = 8 * np_dtype.itemsize
        value &= (1 << bits) - 1
        if np_dtype.kind == "i" and value >> (bits - 1):
            value -= 1 << bits
        return np_dtype.type(value)
    if np_dtype == np.float32 and type(value) is builtins.float:
        return np.float32(value)  # PyTorch's float kernels take a double scalar as a float
    return value
