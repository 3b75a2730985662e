"""What every element-wise op shares: broadcasting, dtype rules, overlap checks, chunking.

These mirror PyTorch's TensorIterator checks, in its order: memory overlap first, then
the broadcast shape, then the dtype cast. They all run before a single byte is written.
"""
from __future__ import annotations

import numpy as np

from .. import dtypes
from ..storage import UntypedStorage
from ..tensor import Tensor, contiguous_strides, non_overlapping_and_dense

WORKSPACE_BYTES = 256 * 1024  # the one scratch buffer every chunked kernel shares
CHUNK = WORKSPACE_BYTES // 8  # elements per chunk for float64 (twice as many for float32)


def chunk_len(np_dtype) -> int:
    """Elements of ``np_dtype`` that fit the workspace: fewer, bigger NumPy calls."""
    return WORKSPACE_BYTES // np.dtype(np_dtype).itemsize


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


def shape_of(x) -> tuple:
    return x._shape if isinstance(x, Tensor) else ()


def arr(x):
    """The NumPy view of a tensor, or the Python scalar itself."""
    return x._array() if isinstance(x, Tensor) else x


def check_internal_overlap(self: Tensor) -> None:
    if 0 in self._shape:
        return  # an empty tensor writes nothing
    if any(s > 1 and st == 0 for s, st in zip(self._shape, self._stride)):
        raise RuntimeError(
            "unsupported operation: more than one element of the written-to tensor refers to "
            "a single memory location. Please clone() the tensor before performing the "
            "operation.")


def check_partial_overlap(self: Tensor, other) -> None:
    """PyTorch's get_overlap_status: full overlap (x.add_(x)) is fine, partial is refused.

    Like PyTorch it only judges dense tensors, by their [first, first + numel) element ranges;
    equal ranges with equal strides are a full overlap."""
    if not isinstance(other, Tensor) or other._storage is not self._storage:
        return
    if not (non_overlapping_and_dense(self._shape, self._stride)
            and non_overlapping_and_dense(other._shape, other._stride)):
        return  # "too hard" for PyTorch too
    a0, b0 = self._offset, other._offset
    a1, b1 = a0 + self.numel(), b0 + other.numel()
    if a0 == b0 and a1 == b1 and self._stride == other._stride:
        return
    if a0 < b1 and b0 < a1:
        raise RuntimeError(
            "unsupported operation: some elements of the input tensor and the written-to tensor "
            "refer to a single memory location. Please clone() the tensor before performing the "
            "operation.")


def check_inplace_operands(self: Tensor, others: tuple, result: dtypes.dtype) -> None:
    check_internal_overlap(self)
    for o in others:
        check_partial_overlap(self, o)
    shape = self._shape
    for o in others:
        if isinstance(o, Tensor):
            shape = broadcast_shapes(shape, o._shape)
    if shape != self._shape:
        raise RuntimeError(
            f"output with shape [{', '.join(map(str, self._shape))}] doesn't match the "
            f"broadcast shape [{', '.join(map(str, shape))}]")
    if not dtypes.can_cast(result, self.dtype):
        raise RuntimeError(
            f"result type {result.short} can't be cast to the desired output type "
            f"{self.dtype.short}")


def chunks(shape: tuple, limit: int = CHUNK):
    """Index tuples that cover ``shape`` in pieces of at most ``limit`` elements."""
    inner, k = 1, len(shape)
    while k > 0 and inner * shape[k - 1] <= limit:
        inner *= shape[k - 1]
        k -= 1
    if k == 0:
        yield (Ellipsis,)  # the whole thing fits (a 0-dim array stays an array with ...)
        return
    step = max(1, limit // inner)
    for idx in np.ndindex(*shape[: k - 1]):
        for s in range(0, shape[k - 1], step):
            yield idx + (slice(s, min(s + step, shape[k - 1])),)


class _Workspace:
    """One counted 256 KiB buffer, made once and reused by every chunked kernel (as BLAS and
    cuDNN keep a workspace), so an in-place op allocates nothing per call. It shows up in
    ``memory_allocated()`` from the first import on, labelled "core workspace"."""

    def __init__(self):
        self.storage = UntypedStorage(WORKSPACE_BYTES, np.uint8, "core workspace")
        self.storage._array.fill(0)
        self.busy = False
        self.zeroed = True  # still all zeros (a ReLU reads it as its zero operand)


_WORKSPACE = _Workspace()


class Scratch:
    """Chunk-sized scratch: the shared workspace, or (if a caller already holds it) a small
    counted buffer of its own. Use as ``with Scratch(dtype, op, n) as s: s.view(shape)``."""

    def __init__(self, np_dtype, op: str, needed: int = CHUNK, zeros: bool = False):
        """``zeros=True``: the caller only reads, and needs zeros (cheap when still clean)."""
        np_dtype = np.dtype(np_dtype)
        self.capacity = chunk_len(np_dtype)
        n = min(self.capacity, max(needed, 1))  # never larger than the work itself
        self._owner = not _WORKSPACE.busy
        if self._owner:
            _WORKSPACE.busy = True
            self._buf = _WORKSPACE.storage._array[: n * np_dtype.itemsize].view(np_dtype)
            if zeros and not _WORKSPACE.zeroed:
                _WORKSPACE.storage._array.fill(0)
            _WORKSPACE.zeroed = zeros
        else:
            self._storage = UntypedStorage(n, np_dtype, op + " (scratch)")
            self._buf = self._storage._array
            if zeros:
                self._buf.fill(0)

    def __enter__(self) -> Scratch:
        return self

    def __exit__(self, *exc) -> None:
        if self._owner:
            _WORKSPACE.busy = False

    def view(self, shape: tuple) -> np.ndarray:
        n = 1
        for s in shape:
            n *= s
        return self._buf[:n].reshape(shape)


def axpy_(out: np.ndarray, x, alpha, op: str, loop_dtype) -> None:
    """out += alpha * x, chunked so no full-size temporary of alpha * x ever exists."""
    if not isinstance(x, np.ndarray):
        np.add(out, alpha * x, out=out, dtype=loop_dtype, casting="unsafe")
        return
    with Scratch(loop_dtype, op, out.size) as scratch:
        if x.shape == out.shape and out.size <= scratch.capacity:  # one chunk: no slicing
            tmp = scratch.view(out.shape)
            np.multiply(x, alpha, out=tmp, dtype=loop_dtype, casting="unsafe")
            np.add(out, tmp, out=out, dtype=loop_dtype, casting="unsafe")
            return
        xb = np.broadcast_to(x, out.shape)
        for idx in chunks(out.shape, scratch.capacity):
            o = out[idx]
            tmp = scratch.view(o.shape)
            np.multiply(xb[idx], alpha, out=tmp, dtype=loop_dtype, casting="unsafe")
            np.add(o, tmp, out=o, dtype=loop_dtype, casting="unsafe")


def _broadcast_strides(t: Tensor, shape: tuple) -> tuple:
    lead = len(shape) - t.dim()
    return (0,) * lead + tuple(0 if s == 1 and n != 1 else st
                               for s, st, n in zip(t._shape, t._stride, shape[lead:]))


def out_strides(shape: tuple, operands) -> tuple | None:
    """The output layout TensorIterator picks: follow the inputs' memory order.

    None means plain contiguous. Same-shape operands that are all contiguous, or all dense
    with identical strides, are copied as they are (its "fast setup"); otherwise this is
    PyTorch's reorder_dimensions: an insertion sort of the dims where the first operand with
    a strict stride order decides. A Python scalar counts as a 0-dim operand.
    """
    tensors = [o for o in operands if isinstance(o, Tensor)]
    if all(t._stride == contiguous_strides(t._shape) for t in tensors):
        return None  # the everyday case, decided without the sort
    if len(tensors) == len(operands) and all(t._shape == shape for t in tensors):
        first = tensors[0]
        if all(t.is_contiguous() for t in tensors):
            return None
        if all(t._stride == first._stride for t in tensors) and \
                non_overlapping_and_dense(shape, first._stride):
            return first._stride
    if len(shape) < 2:
        return None
    strides = [_broadcast_strides(t, shape) for t in tensors]

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
