"""layout: the arithmetic of shapes and strides, and nothing else (the bottom layer).

A tensor is a shape, strides and an offset over a flat storage; every question about which
cells it addresses, or which layout a new result gets, is answered here from plain tuples.
No tensor, storage or NumPy code is imported, as in MiniTorch's ``tensor_data``.
"""
from __future__ import annotations

import functools


@functools.lru_cache(maxsize=4096)
def contiguous_strides(shape: tuple) -> tuple:
    """Row-major strides: the last dim moves fastest (PyTorch's contiguous_format)."""
    strides, acc = [], 1
    for s in reversed(shape):
        strides.append(acc)
        acc *= max(s, 1)
    return tuple(reversed(strides))


def non_overlapping_and_dense(shape: tuple, stride: tuple) -> bool:
    """PyTorch's is_non_overlapping_and_dense: some permutation of the dims is contiguous."""
    if 0 in shape:
        return True  # no element, no overlap (PyTorch keeps an empty tensor's strides)
    if len(shape) == 1:
        return shape[0] < 2 or stride[0] == 1
    order = sorted((d for d in range(len(shape)) if shape[d] >= 2), key=lambda d: stride[d])
    expected = 1
    for d in order:
        if stride[d] != expected:
            return False
        expected *= shape[d]
    return True


def storage_extent(shape, stride) -> int:
    """Elements a geometry spans from its first element (0 when it has no elements)."""
    if not all(shape):
        return 0
    return 1 + sum((s - 1) * st for s, st in zip(shape, stride))


def storage_nbytes(size, stride, itemsize: int, offset: int = 0) -> int | None:
    """PyTorch's computeStorageNbytes, (offset + 1 + sum of (size - 1) * stride) * itemsize, in
    uint64 arithmetic (so a negative size or stride overflows, unless its size is 1); None when
    it overflows, 0 for a geometry with no element."""
    if not all(size):
        return 0
    n = 1
    for sz, st in zip(size, stride):
        n += (st % 2**64) * ((sz - 1) % 2**64)
        if n >= 2**64:
            return None
    n = (n + offset) * itemsize
    return None if n > 2**63 - 1 else n


def numel_overflows(shape) -> bool:
    """c10's safe_compute_numel: the sizes multiplied as uint64 (a negative size is huge),
    any wrap-around sticking even if a later size is 0, the product above int64's largest
    (PyTorch's "numel: integer multiplication overflow")."""
    prod, overflow = 1, False
    for s in shape:
        prod *= s % 2**64
        if prod >= 2**64:
            overflow, prod = True, prod % 2**64
    return overflow or prod > 2**63 - 1


def wrap_dim(dim: int, ndim: int) -> int:
    """A dim argument in [-ndim, ndim) made non-negative; a 0-dim tensor accepts 0 and -1."""
    n = max(ndim, 1)
    if not -n <= dim < n:
        raise IndexError(
            f"Dimension out of range (expected to be in range of [{-n}, {n - 1}], but got {dim})")
    return dim % n


def broadcast_shapes(a: tuple, b: tuple) -> tuple:
    """PyTorch's infer_size: align from the right, report the first mismatch from the right."""
    n = max(len(a), len(b))
    a, b = (1,) * (n - len(a)) + tuple(a), (1,) * (n - len(b)) + tuple(b)
    out = [0] * n
    for i in range(n - 1, -1, -1):
        x, y = a[i], b[i]
        if x != y and x != 1 and y != 1:
            raise RuntimeError(
                f"The size of tensor a ({x}) must match the size of tensor b ({y}) "
                f"at non-singleton dimension {i}")
        out[i] = y if x == 1 else x
    return tuple(out)


def is_contiguous(shape: tuple, stride: tuple) -> bool:
    """Row-major, ignoring the strides of size-1 dims (as PyTorch does)."""
    if 0 in shape:
        return True  # PyTorch: an empty tensor is always contiguous
    expected = 1
    for size, st in zip(reversed(shape), reversed(stride)):
        if size != 1 and st != expected:
            return False
        expected *= size
    return True


def is_channels_last(shape: tuple, stride: tuple) -> bool:
    """PyTorch's is_contiguous(memory_format=torch.channels_last) for a 4-D tensor: NHWC
    order, size-1 dims ignored."""
    expected = 1
    for d in (1, 3, 2, 0):
        if shape[d] != 1:
            if stride[d] != expected:
                return False
            expected *= shape[d]
    return True


def channels_last_strides(shape: tuple) -> tuple:
    n, c, h, w = shape
    return (h * w * c, 1, w * c, c)


class memory_format:  # noqa: N801 - PyTorch's name
    """torch.memory_format: the order clone/contiguous/empty_like/to lay a tensor's cells out
    in (c10::MemoryFormat). ``channels_last`` is NHWC for a 4-D NCHW tensor (channels
    innermost), ``channels_last_3d`` NDHWC for 5-D; ``preserve_format`` keeps the source's."""

    __slots__ = ("name", "rank", "order")

    def __init__(self, name: str, rank: int | None = None, order: tuple = ()):
        self.name, self.rank, self.order = name, rank, order  # order: innermost dim first

    def __repr__(self) -> str:
        return f"torch.{self.name}"


class layout:  # noqa: N801 - PyTorch's name
    """torch.layout: how a tensor's cells are stored. The core has PyTorch's default one only,
    ``strided`` (a storage, an offset and a stride per dim); sparse layouts are not here."""

    __slots__ = ("name",)

    def __init__(self, name: str):
        self.name = name

    def __repr__(self) -> str:
        return f"torch.{self.name}"


strided = layout("strided")

contiguous_format = memory_format("contiguous_format")
preserve_format = memory_format("preserve_format")
channels_last = memory_format("channels_last", 4, (1, 3, 2, 0))
channels_last_3d = memory_format("channels_last_3d", 5, (1, 4, 3, 2, 0))


def check_rank(fmt: memory_format, shape: tuple) -> None:
    """PyTorch's refusal of a channels-last format for a tensor of another rank."""
    if fmt.rank is not None and len(shape) != fmt.rank:
        raise RuntimeError(f"required rank {fmt.rank} tensor to use {fmt.name} format")


def format_strides(fmt: memory_format, shape: tuple) -> tuple:
    """The dense strides of ``shape`` in ``fmt`` (a channels-last one; else contiguous)."""
    if fmt.rank is None:
        return contiguous_strides(shape)
    stride, expected = [0] * len(shape), 1
    for d in fmt.order:  # (no max(size, 1) here, unlike row-major strides: PyTorch's
        stride[d] = expected  # get_channels_last_strides_2d multiplies the sizes as they are)
        expected *= shape[d]
    return tuple(stride)


def is_contiguous_as(fmt: memory_format, shape: tuple, stride: tuple) -> bool:
    """is_contiguous(memory_format=fmt): a channels-last format asks for its order (size-1
    dims ignored; a tensor of another rank is not), the others for row-major."""
    if fmt.rank is None:
        return is_contiguous(shape, stride)
    if len(shape) != fmt.rank:
        return False
    expected = 1
    for d in fmt.order:
        if shape[d] != 1:
            if stride[d] != expected:
                return False
            expected *= shape[d]
    return True


def broadcast_strides(shape: tuple, stride: tuple, to: tuple) -> tuple:
    """The strides of ``shape``/``stride`` expanded to ``to``: broadcast dims get stride 0."""
    lead = len(to) - len(shape)
    return (0,) * lead + tuple(0 if s == 1 and n != 1 else st
                               for s, st, n in zip(shape, stride, to[lead:]))


def out_strides(shape: tuple, operands) -> tuple | None:
    """The output layout TensorIterator picks: follow the inputs' memory order.

    ``operands`` are (shape, stride) pairs, or None for a Python scalar (a 0-dim operand).
    None means plain contiguous. Same-shape operands that are all contiguous, or all dense
    with identical strides, are copied as they are (its "fast setup"); otherwise this is
    PyTorch's reorder_dimensions: an insertion sort of the dims where the first operand with
    a strict stride order decides.
    """
    geoms = [g for g in operands if g is not None]
    if all(st == contiguous_strides(sh) for sh, st in geoms):
        return None  # the everyday case, decided without the sort
    if len(geoms) == len(operands) and all(sh == shape for sh, _ in geoms):
        first = geoms[0][1]
        if all(is_contiguous(sh, st) for sh, st in geoms):
            return None
        if len(shape) == 4 and all(is_channels_last(sh, st) for sh, st in geoms):
            return channels_last_strides(shape)  # its CHANNELS_LAST fast setup
        if all(st == first for _, st in geoms) and non_overlapping_and_dense(shape, first):
            return first
    if len(shape) < 2:
        return None
    strides = [broadcast_strides(sh, st, shape) for sh, st in geoms]

    def should_swap(d0: int, d1: int) -> int:
        for st in strides:
            s0, s1 = st[d0], st[d1]
            if s0 == 0 or s1 == 0:
                continue
            if s0 != s1:
                return -1 if s0 < s1 else 1
            if shape[d0] > shape[d1]:
                return 1
        return 0

    perm = list(range(len(shape)))[::-1]  # perm[0] is the fastest-moving dim
    for i in range(1, len(perm)):
        d1 = i
        for d0 in range(i - 1, -1, -1):
            c = should_swap(perm[d0], perm[d1])
            if c > 0:
                perm[d0], perm[d1] = perm[d1], perm[d0]
                d1 = d0
            elif c < 0:
                break
    out, acc = [0] * len(shape), 1
    for d in perm:
        out[d] = acc
        acc *= max(shape[d], 1)
    return tuple(out)


def dense_strides(shape: tuple, stride: tuple) -> tuple | None:
    """Strides that clone()/empty_like() keep (preserve_format), or None for contiguous.

    PyTorch keeps the exact strides of a non-overlapping and dense tensor; otherwise it lays
    the copy out in the tensor's memory order, as TensorIterator would."""
    if non_overlapping_and_dense(shape, stride):
        return None if stride == contiguous_strides(shape) else stride
    return out_strides(shape, ((shape, stride),))
