"""Creation ops: tensor, zeros, ones, empty, full, the *_like family, arange, rand/randn.

Every new tensor gets a fresh storage from the allocator. ``tensor()`` always copies,
like torch.tensor. Randomness comes from one seeded NumPy generator (manual_seed).
"""
from __future__ import annotations

import math
import numbers
import types

import numpy as np

from . import cpu_capability, dtypes, storage
from .arg_parser import (
    argument_error,
    call_keywords,
    int_list,
    is_number,
    size_arg,
    type_name,
)
from .function_parser import torch_function
from .layout import (
    check_rank,
    contiguous_strides,
    dense_strides,
    format_strides,
    non_overlapping_and_dense,
    preserve_format,
    storage_extent,
    storage_nbytes,
    strided,
)
from .layout import layout as layout_type
from .storage import UntypedStorage
from .tensor import Tensor, check_memory_format

_generator = np.random.Generator(np.random.PCG64(0))


def manual_seed(seed: int) -> np.random.Generator:
    """Seed the global generator (randn, rand, normal_, uniform_, random_, dropout)."""
    global _generator
    seed = int(seed)
    if not -2**63 <= seed < 2**64:
        raise ValueError("Overflow when unpacking long long")
    # PyTorch reads the seed as a uint64: -1 is 2**64 - 1 (a non-negative seed is unchanged)
    _generator = np.random.Generator(np.random.PCG64(seed % 2**64))
    return _generator


def default_generator() -> np.random.Generator:
    return _generator


def _shape(op: str, size: tuple, varargs: bool = True, kwargs: dict | None = None) -> tuple:
    """A ``tuple of ints size`` as PyTorch's binding reads it (``zeros(2, 3)``,
    ``zeros((2, 3))`` or ``zeros(size=(2, 3))``), then its negative-size check (zeros words it
    its own way)."""
    shape = (size_arg(op, "size", size, kwargs) if kwargs
             else int_list(op, "size", size, position=1, varargs=varargs))
    negative = [s for s in shape if s < 0]
    if negative:
        if op == "zeros":
            raise RuntimeError("zeros: Dimension size must be non-negative.")
        raise RuntimeError(f"Trying to create tensor with negative dimension {negative[0]}: "
                           f"{list(shape)}")
    return shape


def _check_options(op: str, dtype, requires_grad, layout=None, device=None,
                   pin_memory=None) -> bool:
    """The keyword arguments every factory takes (torch's ``ScalarType? dtype=None, Layout?
    layout=None, Device? device=None, bool? pin_memory=False, bool? requires_grad=False``:
    None is each one's default). Returns requires_grad as a bool."""
    if dtype is not None and not isinstance(dtype, dtypes.dtype):
        raise argument_error(op, "dtype", None, "torch.dtype", dtype)
    if requires_grad is not None and not isinstance(requires_grad, bool):
        raise argument_error(op, "requires_grad", None, "bool", requires_grad)
    if layout is not None and not isinstance(layout, layout_type):
        raise argument_error(op, "layout", None, "torch.layout", layout)
    if layout not in (None, strided):  # (the core has no other layout object)
        raise RuntimeError("inplace_tutorial has only the strided layout (layout=None or "
                           "torch.strided)")
    if device not in (None, "cpu"):
        raise RuntimeError(f"inplace_tutorial has only the CPU; device={device!r} is not one")
    if pin_memory is not None and not isinstance(pin_memory, bool):
        raise argument_error(op, "pin_memory", None, "bool", pin_memory)
    if pin_memory:  # torch's CPU-only build
        raise RuntimeError("pin_memory=True requires a CUDA or other accelerator backend; no "
                           "pinned memory allocator is available on this system.")
    return bool(requires_grad)


def _no_out(op: str, out) -> None:
    """out=None is torch's default; the core's factories don't write into a given tensor."""
    if out is not None:
        raise NotImplementedError(f"inplace_tutorial: {op}(out=...) is not implemented; "
                                  f"write {op}(...) and copy_ it into the tensor")


def _finish(t: Tensor, requires_grad: bool) -> Tensor:
    if requires_grad:
        if not t.dtype.is_floating_point:
            raise RuntimeError(
                "Only Tensors of floating point and complex dtype can require gradients")
        t.requires_grad_(True)
    return t


_PLAIN = (bool, int, float)
_REDUCED = (dtypes.float16, dtypes.bfloat16)
_CAST_CHUNK = 64 * 1024  # elements per step when a cast goes through float32


def cast_into(dst: np.ndarray, src, dst_dtype: dtypes.dtype, op: str = "to") -> None:
    """Write ``src`` (an array or a scalar) into ``dst`` converted as PyTorch converts:
    floats truncate toward zero into integers, integers wrap into narrower integers, and
    float64 or wide integers reach float16/bfloat16 through float32 (PyTorch builds Half and
    BFloat16 from a float), one counted float32 chunk at a time."""
    src_np = getattr(src, "dtype", None)
    to_reduced = not (dst_dtype not in _REDUCED or src_np is None or src_np == np.float32
                      or src_np == dst.dtype or (src_np.itemsize <= 2 and src_np.kind != "f"))
    # bfloat16 into integers goes through float32 too (exact), as a float -> int conversion:
    # ml_dtypes 0.7's own cast saturates negative values into unsigned types (-1 -> 0), where
    # PyTorch gives 255 as it does from float32.
    from_bf16 = src_np is not None and src_np.name == "bfloat16" and dst.dtype.kind in "iub"
    if not (to_reduced or from_bf16):
        np.copyto(dst, src, casting="unsafe")
    else:
        src = np.broadcast_to(src, dst.shape)
        scratch = UntypedStorage(min(_CAST_CHUNK, max(dst.size, 1)), np.float32,
                                 op + " (scratch)")
        buf = scratch._array
        for idx in blocks(dst.shape, buf.size):
            d = dst[idx]
            tmp = buf[: d.size].reshape(d.shape)
            np.copyto(tmp, src[idx], casting="unsafe")
            np.copyto(d, tmp, casting="unsafe")
    if src_np is not None and (src_np.name, dst.dtype.name) in _NAN_BITS and dst.size:
        _nan_bits(dst, np.broadcast_to(src, dst.shape), op)


def _payload_f16(d, s, m, m2, v):
    """sign | 0x7E00 | the payload's top 10 bits: the CPU's cvtps2ph quiets the NaN and keeps
    what fits (a payload that was all in the low bits is lost: 0x7E00, where NumPy makes sure
    a bit stays set)."""
    u = s.view(np.uint32)
    np.right_shift(u, 13, out=d, where=m, casting="unsafe")
    np.bitwise_and(d, 0x3FF, out=d, where=m)  # the payload; the sign next
    np.bitwise_or(d, 0x7E00, out=d, where=m)
    _sign_of(s, m2)
    np.logical_and(m, m2, out=m2)
    np.bitwise_or(d, 0x8000, out=d, where=m2)


def _quiet_f32(d, s, m, m2, v):
    """float16 -> float32: the NaN quieted (NumPy keeps a signalling one), except in the
    scalar tail of a conversion of two contiguous tensors (its last n % 8 elements), where
    PyTorch leaves 0x7FFFFFFF (measured alike in the three builds)."""
    np.bitwise_or(d, np.uint32(1 << 22), out=d, where=m)
    if v is not True:
        if v is not False:
            np.greater(m, v, out=m)  # (m and not v)
        np.copyto(d, np.uint32(0x7FFFFFFF), where=m)


def _f16_by_loop(d, s, m, m2, v):
    """float32 -> float16 in the DEFAULT build: its vector loop (arrays converted one by one)
    keeps the payload as the CPU's instruction would, its element loop doesn't."""
    if v is not False:
        _payload_f16(d, s, m, m2, v)
    if v is not True:
        if v is not False:
            np.greater(m, v, out=m)  # (m and not v)
        _signed_canonical_f16(d, s, m, m2, v)


def _bf16_payload_to_f16(d, s, m, m2, v):
    """sign | 0x7e00 | the 7 payload bits moved up by 3: PyTorch keeps the payload."""
    np.bitwise_and(s, 0x7F, out=d, where=m)
    np.left_shift(d, 3, out=d, where=m)
    np.bitwise_or(d, 0x7E00, out=d, where=m)
    np.greater_equal(s, 0x8000, out=m2)
    np.logical_and(m, m2, out=m2)
    np.bitwise_or(d, 0x8000, out=d, where=m2)


def _sign_of(s, out) -> None:
    """The sign bits of a NaN source: 16-bit sources arrive as their unsigned bit patterns."""
    if s.dtype.kind == "u":
        np.greater_equal(s, 0x8000, out=out)
    else:
        np.signbit(s, out=out)


def _signed_canonical_f16(d, s, m, m2, v):
    """sign | 0x7E00: the NaN keeps its sign and loses its payload."""
    np.copyto(d, 0x7E00, where=m)
    _sign_of(s, m2)
    np.logical_and(m, m2, out=m2)
    np.bitwise_or(d, 0x8000, out=d, where=m2)


def _to_bf16_by_loop(d, s, m, m2, v):
    """Into bfloat16: 0xFFFF where the vector loop converted (its NaN mask), 0x7FC0 in the
    element loop (c10's round_to_nearest_even)."""
    np.copyto(d, 0x7FC0, where=m)
    if v is True:
        np.copyto(d, 0xFFFF, where=m)
    elif v is not False:
        np.logical_and(m, v, out=m2)
        np.copyto(d, 0xFFFF, where=m2)


# (source dtype, destination dtype) -> what PyTorch leaves in a NaN's bits where NumPy's or
# ml_dtypes' cast differs (measured on torch 2.13's CPU conversions, every length), in its
# AVX2/AVX512 builds ...
_NAN_BITS = {
    ("float32", "float16"): _payload_f16,
    ("float16", "float32"): _quiet_f32,
    ("bfloat16", "float16"): _bf16_payload_to_f16,
    ("float32", "bfloat16"): _to_bf16_by_loop,
    ("float64", "bfloat16"): _to_bf16_by_loop,
    ("float16", "bfloat16"): lambda d, s, m, m2, v: np.copyto(d, 0x7FC0, where=m),  # canonical
    ("float16", "float64"): lambda d, s, m, m2, v: np.bitwise_or(d, 1 << 51, out=d, where=m),
}
# elements per vector step of the conversions whose bits depend on the loop (measured: float32
# -> bfloat16 converts every element of a contiguous row in vectors, tail included; float64
# -> bfloat16 steps 16 elements and leaves the tail to the element loop)
_CAST_LANES = {("float32", "bfloat16"): 1, ("float64", "bfloat16"): 16}
_WHOLE_ONLY: set = set()
# ... and where its DEFAULT build (ATEN_CPU_CAPABILITY=default, or a CPU without AVX2) differs:
# c10's scalar conversions, BFloat16's round_to_nearest_even (every NaN is 0x7FC0) and Half's
# (sign kept, payload dropped), take the place of the vector instructions' bits.
if cpu_capability.CAPABILITY == cpu_capability.DEFAULT:
    _NAN_BITS.update({
        ("float32", "bfloat16"): lambda d, s, m, m2, v: np.copyto(d, 0x7FC0, where=m),
        ("float64", "bfloat16"): lambda d, s, m, m2, v: np.copyto(d, 0x7FC0, where=m),
        ("bfloat16", "float16"): _signed_canonical_f16,
        ("float64", "float16"): _signed_canonical_f16,
        ("float32", "float16"): _f16_by_loop,
    })
    _CAST_LANES = {("float32", "float16"): 1}
    _WHOLE_ONLY = {("float32", "float16")}  # (rows of a sliced tensor: the element loop)


def _copy_vectors(dst: np.ndarray, src: np.ndarray, lanes: int, whole: bool = False):
    """Where a conversion's loop takes the element in a vector: True/False for all, else a
    counted bool array broadcastable to dst. TensorIterator orders the dims by dst's strides,
    merges the innermost ones that are contiguous in both arrays into one row, and converts
    the row's first ``n - n % lanes`` elements in vectors (none if the row isn't contiguous;
    ``whole``: none unless the row is the whole array)."""
    if dst.size == 0:
        return False
    order = sorted(range(dst.ndim), key=lambda a: dst.strides[a], reverse=True)
    d, s = dst.transpose(order), src.transpose(order)
    row, k = 1, d.ndim
    while k > 0 and (d.shape[k - 1] == 1 or (
            d.strides[k - 1] == row * d.itemsize and s.strides[k - 1] == row * s.itemsize)):
        row *= d.shape[k - 1]
        k -= 1
    if (k == d.ndim or whole and k > 0) and d.size > 1:
        return False  # the innermost dim isn't contiguous in both: the element loop
    vector = row - row % lanes
    if vector == row:
        return True
    if vector == 0:
        return False
    flat = UntypedStorage(row, np.bool_, "cast (vector lanes)")._array
    flat[:vector] = True
    flat[vector:] = False
    mask = np.broadcast_to(flat.reshape(d.shape[k:]), d.shape)
    return mask.transpose(np.argsort(order))


def _nan_bits(dst: np.ndarray, src: np.ndarray, op: str) -> None:
    """A cast's NaN bits as PyTorch's: a quick sum says whether any NaN can be there (a NaN
    or inf - inf makes it NaN), then a counted mask, chunk by chunk, picks the NaN cells."""
    with np.errstate(invalid="ignore", over="ignore"):
        if not np.isnan(np.add.reduce(dst, axis=None, dtype=np.float64)):
            return
    pair = (src.dtype.name, dst.dtype.name)
    fix = _NAN_BITS[pair]
    lanes = _CAST_LANES.get(pair)
    vector = True if lanes is None else _copy_vectors(dst, src, lanes, pair in _WHOLE_ONLY)
    if pair == ("float16", "float32"):  # (the tail rule holds for two whole contiguous arrays)
        contiguous = dst.flags.c_contiguous and src.flags.c_contiguous
        vector = _copy_vectors(dst, src, 8) if contiguous and op == "to" else True
    uint = f"u{dst.dtype.itemsize}"
    n = min(_CAST_CHUNK, dst.size)
    masks = UntypedStorage(2 * n, np.bool_, op + " (NaN masks)")._array
    for idx in blocks(dst.shape, n):
        d = dst[idx]
        m, m2 = (masks[k * n: k * n + d.size].reshape(d.shape) for k in (0, 1))
        np.isnan(d, out=m)
        s = src[idx]
        v = vector if isinstance(vector, bool) else vector[idx]
        fix(d.view(uint), s.view(f"u{s.dtype.itemsize}") if s.dtype.itemsize == 2 else s, m, m2,
            v)


def blocks(shape: tuple, limit: int):
    """Index tuples covering ``shape`` in pieces of at most ``limit`` elements, whole
    trailing dimensions first (the chunking every chunked kernel uses)."""
    inner, k = 1, len(shape)
    while k > 0 and inner * shape[k - 1] <= limit:
        inner *= shape[k - 1]
        k -= 1
    if k == 0:
        yield (Ellipsis,)
        return
    step = max(1, limit // inner)
    for idx in np.ndindex(*shape[: k - 1]):
        for s in range(0, shape[k - 1], step):
            yield idx + (slice(s, min(s + step, shape[k - 1])),)


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
    _check_options("tensor", dtype, requires_grad, None, device, pin_memory)
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
    return _finish(t, requires_grad)


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


def _dense_layout(a) -> tuple | None:
    """Element strides of a dense (possibly permuted) array, else None.

    torch.tensor(ndarray) and the *_like functions keep such a layout (preserve_format)."""
    if isinstance(a, Tensor):
        return dense_strides(a._shape, a._stride)
    if not isinstance(a, np.ndarray) or a.ndim < 2 or a.flags.c_contiguous:
        return None
    if any(s < 0 or s % a.itemsize for s in a.strides):
        return None
    strides = tuple(s // a.itemsize for s in a.strides)
    return strides if non_overlapping_and_dense(a.shape, strides) else None


def _empty_preserving(shape, strides, dtype, op: str) -> Tensor:
    if strides is None or tuple(strides) == contiguous_strides(tuple(shape)):
        return Tensor._empty(tuple(shape), dtype, op)
    t = empty_strided(shape, strides, dtype)
    t._storage.op = op
    return t


@torch_function()
def empty(*size, dtype: dtypes.dtype | None = None, requires_grad: bool | None = False,
          layout=None, device=None, pin_memory: bool | None = None, out=None,
          memory_format=None, **kwargs) -> Tensor:
    """torch.empty; ``memory_format=torch.channels_last`` lays a 4-D tensor out NHWC (the only
    factory of PyTorch's that takes it: zeros, new_empty and empty_strided refuse it)."""
    _no_out("empty", out)
    requires_grad = _check_options("empty", dtype, requires_grad, layout, device, pin_memory)
    check_memory_format("empty", memory_format, optional=True)
    shape = _shape("empty", size, kwargs=kwargs)
    dtype = dtype or dtypes.float32
    if memory_format is None or memory_format.rank is None and memory_format is not \
            preserve_format:  # (contiguous_format)
        return _finish(Tensor._empty(shape, dtype, "empty"), requires_grad)
    if memory_format is preserve_format:
        raise RuntimeError("unsupported memory format Preserve")
    check_rank(memory_format, shape)
    out = empty_strided(shape, format_strides(memory_format, shape), dtype)
    out._storage.op = "empty"
    return _finish(out, requires_grad)


@torch_function()
def empty_strided(size, stride, dtype: dtypes.dtype | None = None, *, layout=None, device=None,
                  pin_memory: bool | None = None, requires_grad: bool | None = False
                  ) -> Tensor:
    size = _shape("empty_strided", (size,), varargs=False)
    stride = int_list("empty_strided", "stride", (stride,), position=2, varargs=False)
    requires_grad = _check_options("empty_strided", dtype, requires_grad, layout, device,
                                   pin_memory)
    dtype = dtype or dtypes.float32
    if storage_nbytes(size, stride, dtype.itemsize) is None:
        raise RuntimeError(f"Storage size calculation overflowed with sizes={list(size)} and "
                           f"strides={list(stride)}")
    storage = UntypedStorage(storage_extent(size, stride), dtype.np, "empty_strided")
    return _finish(Tensor._make(storage, size, stride, 0, dtype), requires_grad)


@torch_function()
def full(size, fill_value, dtype: dtypes.dtype | None = None,
         requires_grad: bool | None = False, *, layout=None, device=None,
         pin_memory: bool | None = None) -> Tensor:
    shape = _shape("full", (size,), varargs=False)
    if not is_number(fill_value):
        raise argument_error("full", "fill_value", 2, "Number", fill_value)
    requires_grad = _check_options("full", dtype, requires_grad, layout, device, pin_memory)
    dtype = dtype or dtypes.scalar_dtype(fill_value)
    value = dtypes.checked_scalar(fill_value, dtype, "fill", math.prod(shape))
    t = Tensor._empty(shape, dtype, "full")
    t._array().fill(value)
    return _finish(t, requires_grad)


@torch_function()
def zeros(*size, dtype: dtypes.dtype | None = None, requires_grad: bool | None = False,
          layout=None, device=None, pin_memory: bool | None = None, out=None, **kwargs) -> Tensor:
    _no_out("zeros", out)
    requires_grad = _check_options("zeros", dtype, requires_grad, layout, device, pin_memory)
    t = Tensor._empty(_shape("zeros", size, kwargs=kwargs), dtype or dtypes.float32, "zeros")
    t._array().fill(0)
    return _finish(t, requires_grad)


@torch_function()
def ones(*size, dtype: dtypes.dtype | None = None, requires_grad: bool | None = False,
         layout=None, device=None, pin_memory: bool | None = None, out=None, **kwargs) -> Tensor:
    _no_out("ones", out)
    requires_grad = _check_options("ones", dtype, requires_grad, layout, device, pin_memory)
    t = Tensor._empty(_shape("ones", size, kwargs=kwargs), dtype or dtypes.float32, "ones")
    t._array().fill(1)
    return _finish(t, requires_grad)


def _like(t: Tensor, dtype, requires_grad: bool | None, fill, op: str,
          memory_format=preserve_format, placement: tuple = (None, None, None)) -> Tensor:
    if not isinstance(t, Tensor):
        raise argument_error(op, "input", 1, "Tensor", t)
    if op == "full_like" and not is_number(fill):
        raise argument_error(op, "fill_value", 2, "Number", fill)
    requires_grad = _check_options(op, dtype, requires_grad, *placement)
    if memory_format is preserve_format or memory_format is None:
        strides = _dense_layout(t)
    else:
        check_memory_format(op, memory_format)
        check_rank(memory_format, t._shape)
        strides = format_strides(memory_format, t._shape)
    out = _empty_preserving(t._shape, strides, dtype or t.dtype, op)
    if fill is not None:
        out._array().fill(fill)
    return _finish(out, requires_grad)


@torch_function()
def empty_like(input: Tensor, dtype=None, requires_grad: bool | None = False,  # noqa: A002
               *, memory_format=preserve_format, layout=None, device=None,
               pin_memory: bool | None = None) -> Tensor:
    return _like(input, dtype, requires_grad, None, "empty_like", memory_format,
                 (layout, device, pin_memory))


@torch_function()
def zeros_like(input: Tensor, dtype=None, requires_grad: bool | None = False,  # noqa: A002
               *, memory_format=preserve_format, layout=None, device=None,
               pin_memory: bool | None = None) -> Tensor:
    return _like(input, dtype, requires_grad, 0, "zeros_like", memory_format,
                 (layout, device, pin_memory))


@torch_function()
def ones_like(input: Tensor, dtype=None, requires_grad: bool | None = False,  # noqa: A002
              *, memory_format=preserve_format, layout=None, device=None,
              pin_memory: bool | None = None) -> Tensor:
    return _like(input, dtype, requires_grad, 1, "ones_like", memory_format,
                 (layout, device, pin_memory))


@torch_function()
def full_like(input: Tensor, fill_value, dtype=None,  # noqa: A002
              requires_grad: bool | None = False, *, memory_format=preserve_format,
              layout=None, device=None, pin_memory: bool | None = None) -> Tensor:
    return _like(input, dtype, requires_grad, fill_value, "full_like", memory_format,
                 (layout, device, pin_memory))


_ARANGE_CHUNK = 1024  # float64 positions arange computes at a time (8 KiB, never counted)


_NOT_GIVEN = object()


@torch_function()
def arange(start=_NOT_GIVEN, end=None, step=1, dtype: dtypes.dtype | None = None,
           requires_grad: bool | None = False, *, layout=None, device=None,
           pin_memory: bool | None = None, out=None) -> Tensor:
    """torch.arange's three forms (end), (start, end), (start, end, step); a call that fits
    none (``arange()``, ``arange(start=1)``) is refused by torch's parser in its words."""
    _no_out("arange", out)
    requires_grad = _check_options("arange", dtype, requires_grad, layout, device, pin_memory)
    if start is _NOT_GIVEN:  # arange(end=3): PyTorch's (Number end) form by name
        if end is None:
            raise TypeError("arange() fits none of torch's forms")  # (torch_function words it)
        start = 0
    elif end is None:
        if "start" in call_keywords():  # arange(start=1): only (Number end) takes one argument
            raise TypeError("arange() fits none of torch's forms")  # (torch_function words it)
        if not is_number(start):
            raise argument_error("arange", "end", 1, "Number", start)
        start, end = 0, start
    if not all(math.isfinite(v) for v in (start, end)):
        raise RuntimeError(f"unsupported range: {start} -> {end}")
    if step == 0:
        raise RuntimeError("step must be nonzero")
    if (end - start) * step < 0:
        raise RuntimeError("upper bound and lower bound inconsistent with step sign")
    if dtype is None:
        is_int = all(isinstance(v, (int, np.integer)) for v in (start, end, step))
        dtype = dtypes.int64 if is_int else dtypes.float32
    n = max(0, math.ceil((end - start) / step))
    t = Tensor._empty((n,), dtype, "arange")
    o = t._array()
    if dtype.np == np.float64:  # the positions 0, 1, 2 ... made in place (exact below 2**53)
        o.fill(1.0)
        o[:1] = 0.0
        np.cumsum(o, out=o)
        np.multiply(o, step, out=o)
    else:  # float64 positions a chunk at a time: no n-sized temporary behind the count
        for s in range(0, n, _ARANGE_CHUNK):
            e = min(n, s + _ARANGE_CHUNK)
            np.multiply(np.arange(s, e, dtype=np.float64), step, out=o[s:e], casting="unsafe")
    o += start
    return _finish(t, requires_grad)


@torch_function()
def randn(*size, dtype: dtypes.dtype | None = None, requires_grad: bool | None = False,
          generator: np.random.Generator | None = None, layout=None, device=None,
          pin_memory: bool | None = None, **kwargs) -> Tensor:
    requires_grad = _check_options("randn", dtype, requires_grad, layout, device, pin_memory)
    dtype = dtype or dtypes.float32
    t = Tensor._empty(_shape("randn", size, kwargs=kwargs), dtype, "randn")
    gen = generator or _generator
    _draw(t, gen.standard_normal, "normal_kernel_cpu")
    return _finish(t, requires_grad)


@torch_function()
def rand(*size, dtype: dtypes.dtype | None = None, requires_grad: bool | None = False,
         generator: np.random.Generator | None = None, layout=None, device=None,
         pin_memory: bool | None = None, **kwargs) -> Tensor:
    requires_grad = _check_options("rand", dtype, requires_grad, layout, device, pin_memory)
    dtype = dtype or dtypes.float32
    t = Tensor._empty(_shape("rand", size, kwargs=kwargs), dtype, "rand")
    _draw(t, (generator or _generator).random, "check_uniform_bounds")
    return _finish(t, requires_grad)


def _draw(t: Tensor, sample, kernel: str) -> None:
    """Fill ``t`` from NumPy's sampler, which makes only float32 and float64: a float16 or
    bfloat16 tensor draws float32 values into a counted buffer and rounds them, as PyTorch
    builds Half and BFloat16 from a float; integer dtypes have no such kernel in PyTorch."""
    if not t.dtype.is_floating_point:
        raise NotImplementedError(f'"{kernel}" not implemented for \'{t.dtype.short}\'')
    if t.dtype.np in (np.float32, np.float64):
        sample(out=t._array(), dtype=t.dtype.np)
        return
    single = Tensor._empty(t._shape, dtypes.float32, t._storage.op + " (float32 draw)")
    sample(out=single._array(), dtype=np.float32)
    cast_into(t._array(), single._array(), t.dtype)


__all__ = ["arange", "empty", "empty_like", "empty_strided", "full", "full_like", "manual_seed",
           "ones", "ones_like", "rand", "randn", "tensor", "zeros", "zeros_like"]
