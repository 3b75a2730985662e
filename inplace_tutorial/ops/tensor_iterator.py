"""What every element-wise op shares (PyTorch's TensorIterator): the out-of-place and in-place
drivers, overlap and shape checks, the output layout, and chunking through one workspace.

The checks run in PyTorch's order, memory overlap first, then the broadcast shape, then the
dtype cast, all before a single byte is written. The shape and stride arithmetic itself is in
layout.py; an op module (elementwise.py, unary.py, compare.py) only adds kernels and formulas.
"""
from __future__ import annotations

import numbers
import sys

import numpy as np

from .. import dtypes
from ..autograd.record import record, record_inplace
from ..creation import empty_strided
from ..layout import (
    broadcast_shapes,
    contiguous_strides,
    dense_strides,
    non_overlapping_and_dense,
)
from ..layout import out_strides as layout_out_strides
from ..modes import STATE
from ..storage import UntypedStorage
from ..tensor import Tensor
from . import cpu_loops, dtype_rules, reduced, unary_nan_bits
from .arg_checks import argument_error

WORKSPACE_BYTES = 256 * 1024  # the one scratch buffer every chunked kernel shares
CHUNK = WORKSPACE_BYTES // 8  # elements per chunk for float64 (twice as many for float32)

# NumPy's ufuncs take a loop buffer of their own, uncounted, for the length of a call whenever
# they cannot run straight through their operands (a cast, a broadcast or transposed operand):
# 8192 elements by default, 64 KiB in float64, which tests/test_byte_accounting.py sees in
# half the ops. Capped at 1024 elements (8 KiB in float64: the size of a few Python objects);
# as fast on this machine as 8192, where 512 made casts 1.4x slower. It is NumPy's setting
# for the importing thread (np.setbufsize), so a learner's own NumPy code shares it.
LOOP_BUFFER_ELEMENTS = 1024
np.setbufsize(LOOP_BUFFER_ELEMENTS)


def chunk_len(np_dtype) -> int:
    """Elements of ``np_dtype`` that fit the workspace: fewer, bigger NumPy calls."""
    return WORKSPACE_BYTES // np.dtype(np_dtype).itemsize


def shape_of(x) -> tuple:
    return x._shape if isinstance(x, Tensor) else ()


def arr(x, np_dtype=None):
    """The NumPy view of a tensor, or the Python scalar (wrapped into ``np_dtype`` if given)."""
    if isinstance(x, Tensor):
        return x._array()
    return x if np_dtype is None else dtypes.kernel_scalar(x, np_dtype)


_FAST_OPERANDS = (Tensor, float, int)


def check_operands(method: str, others) -> None:
    """Operands after self must be tensors or numbers, checked before anything is computed
    or written (op modules with other overloads check their own arguments first)."""
    for pos, o in enumerate(others, 1):
        if type(o) in _FAST_OPERANDS:
            continue  # the common case, without numbers.Number's slow ABC check
        if not isinstance(o, (Tensor, numbers.Number, np.bool_)):
            raise argument_error(method, "other", pos, "Tensor", o)


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
        self.owner: Scratch | None = None  # the Scratch using it now
        self.zeroed = True  # still all zeros (a ReLU reads it as its zero operand)

    @property
    def busy(self) -> bool:
        return self.owner is not None and not _abandoned(self.owner)


def _abandoned(owner: Scratch) -> bool:
    """True if the function that took the workspace is no longer running in any thread.

    A KeyboardInterrupt that lands right where a ``with`` block ends (after its last line,
    before ``__exit__`` starts) skips ``__exit__``; Python offers no way to close that gap, so
    the next user looks for the owner's frame on every thread's stack instead."""
    for frame in sys._current_frames().values():
        while frame is not None:
            if frame is owner._frame:
                return False
            frame = frame.f_back
    return True


_WORKSPACE = _Workspace()


class Scratch:
    """Chunk-sized scratch: the shared workspace, or (if another caller or thread holds it) a
    small counted buffer of its own. Use only as ``with Scratch(dtype, op, n) as s: s.view(shape)``.

    The workspace is taken in ``__enter__`` and given back in ``__exit__``. A KeyboardInterrupt
    (delivered between two bytecodes, never inside a NumPy call) can't leave it taken: taking
    and giving back are statements without calls, whatever fails inside ``__enter__`` gives it
    back, and an owner whose function stopped running is recognised (``_abandoned``)."""

    def __init__(self, np_dtype, op: str, needed: int = CHUNK, zeros: bool = False):
        """``zeros=True``: the caller only reads, and needs zeros (cheap when still clean)."""
        self._dtype = np.dtype(np_dtype)
        self.capacity = chunk_len(self._dtype)
        self._n = min(self.capacity, max(needed, 1))  # never larger than the work itself
        self._op, self._zeros = op, zeros

    def __enter__(self) -> Scratch:
        try:
            self._frame = sys._getframe(1)  # the kernel using the scratch
            owner = _WORKSPACE.owner
            if owner is not None and owner is not self and _abandoned(owner):
                _WORKSPACE.owner = None if _WORKSPACE.owner is owner else _WORKSPACE.owner
            if _WORKSPACE.owner is None:  # check and take without a call in between: atomic
                _WORKSPACE.owner = self  # under the GIL and for signals
            dt, n = self._dtype, self._n
            if _WORKSPACE.owner is self:
                self._buf = _WORKSPACE.storage._array[: n * dt.itemsize].view(dt)
                if self._zeros and not _WORKSPACE.zeroed:
                    _WORKSPACE.storage._array.fill(0)
                _WORKSPACE.zeroed = self._zeros
            else:
                self._storage = UntypedStorage(n, dt, self._op + " (scratch)")
                self._buf = self._storage._array
                if self._zeros:
                    self._buf.fill(0)
            return self
        except BaseException:
            self.__exit__()
            raise

    def __exit__(self, *exc) -> None:
        _WORKSPACE.owner = None if _WORKSPACE.owner is self else _WORKSPACE.owner
        self._frame = None

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


def var_into(a: np.ndarray, axis: tuple, correction, out: np.ndarray, op: str,
             sqrt: bool = False) -> None:
    """var (or std) of ``a`` over ``axis`` into ``out``, without an input-sized temporary.

    NumPy's ``np.var`` builds ``a - mean`` in full. Here the means go into a counted buffer of
    the output's size, and the squared deviations are summed chunk by chunk in the workspace
    (half of it holds a chunk, the other half that chunk's partial sums) onto ``out``."""
    keep = tuple(1 if i in axis else s for i, s in enumerate(a.shape))
    acc = out.reshape(keep)  # a view: out is freshly allocated and contiguous
    n = 1
    for d in axis:
        n *= a.shape[d]
    if n == 0:  # the mean of nothing (NumPy would warn): PyTorch gives nan
        acc.fill(np.nan)
        return
    means = UntypedStorage(max(acc.size, 1), out.dtype, op + " (means)")._array
    m = means[: acc.size].reshape(keep)
    with np.errstate(all="ignore"), Scratch(out.dtype, op, chunk_len(out.dtype)) as scratch:
        np.mean(a, axis=axis, keepdims=True, out=m, dtype=out.dtype)
        mean = np.broadcast_to(m, a.shape)
        acc.fill(0)
        half = scratch.capacity // 2
        for idx in chunks(a.shape, half):
            if idx == (Ellipsis,):
                idx = ()
            idx = tuple(slice(i, i + 1) if isinstance(i, int) else i for i in idx)
            idx += (slice(None),) * (a.ndim - len(idx))
            rows = tuple(slice(None) if i in axis else x for i, x in enumerate(idx)) + (...,)
            idx += (...,)  # views even of a 0-dim array
            part = a[idx]
            tmp = scratch.view(part.shape)
            np.subtract(part, mean[idx], out=tmp, dtype=out.dtype, casting="unsafe")
            np.multiply(tmp, tmp, out=tmp)
            target = acc[rows]
            red = scratch._buf[half:half + target.size].reshape(target.shape)
            np.add.reduce(tmp, axis=axis, keepdims=True, out=red)
            np.add(target, red, out=target)
        np.divide(acc, n - correction, out=acc)
        if sqrt:
            np.sqrt(acc, out=acc)


def out_strides(shape: tuple, operands) -> tuple | None:
    """layout.out_strides for tensors and Python scalars (a scalar is a 0-dim operand)."""
    return layout_out_strides(shape, [(o._shape, o._stride) if isinstance(o, Tensor) else None
                                      for o in operands])


# --------------------------------------------------------------------------- the two drivers
def pure_kernel(kernel):
    """Mark a kernel that reads nothing but its arguments: reduced.py may then split a
    float16/bfloat16 op into chunks (small counted scratch, as PyTorch allocates nothing)."""
    kernel.chunkable = True
    return kernel


def ufunc_kernel(f):
    """A NumPy ufunc as a kernel ``(*arrays, out, dtype)`` that casts like PyTorch."""
    def kernel(*xs, out, dtype):
        f(*xs, out=out, dtype=dtype, casting="unsafe")
    kernel.chunkable = True  # it reads only its arguments (reduced.py may split them)
    return kernel


def call_kernel(kernel, xs: list, out: np.ndarray, dtype) -> None:
    """Run an element-wise kernel; float16/bfloat16 results compute in float32 chunk by
    chunk and round once (reduced.py), as PyTorch's CPU kernels do; a unary op's NaNs get the
    bits PyTorch's build leaves (unary_nan_bits.py); a kernel that follows PyTorch's 16-bit
    steps itself (div_rounding.py) says so."""
    op = getattr(kernel, "nan_op", None)  # a unary op whose NaN bits PyTorch's builds set
    saved = None if op is None else unary_nan_bits.save_input(op, xs[0], out)
    if reduced.is_reduced(out.dtype) and not getattr(kernel, "rounds_16_bits_itself", False):
        reduced.run(kernel, xs, out)
    else:
        kernel(*xs, out=out, dtype=dtype)
    if op is not None:
        unary_nan_bits.repair(op, xs[0], saved, out)


def promote(float_out: bool, *operands) -> dtypes.dtype:
    """The promoted dtype of the operands; ops like exp/div promote integers to float."""
    rd = dtypes.result_type(*operands)
    return dtypes.float_result(rd) if float_out else rd


def new_elementwise(name: str, float_out: bool, kernel, *operands, result_dtype=None,
                    **attrs) -> Tensor:
    """Out-of-place: allocate the broadcast result, run the kernel into it, record."""
    check_operands(name, operands[1:])
    if isinstance(operands[0], Tensor):
        dtype_rules.check(name, operands[0].dtype)
    rd = result_dtype or promote(float_out, *operands)
    shape = shape_of(operands[0])
    for o in operands[1:]:
        shape = broadcast_shapes(shape, shape_of(o))
    if float_out and len(operands) == 1 and operands[0].dtype.category < dtypes.FLOATING:
        # exp(int tensor): PyTorch first casts the input (empty_like's dense layout), and the
        # result's layout follows that copy
        o = operands[0]
        copy = dense_strides(o._shape, o._stride) or contiguous_strides(o._shape)
        strides = layout_out_strides(shape, [(o._shape, copy)])
    else:
        strides = out_strides(shape, operands)
    if strides is None:
        out = Tensor._empty(shape, rd, name)
    else:
        out = empty_strided(shape, strides, rd)
        out._storage.op = name
    cd = dtypes.compute_np(rd)  # float16/bfloat16 compute in float32, as PyTorch's CPU kernels
    call_kernel(kernel, [arr(o, cd) for o in operands], out._array(), cd)
    return record(name, out, dict(zip(("self", "other"), operands)), **attrs)


_SCALARS = (int, float)


def _plain_same(self: Tensor, o) -> bool:
    """An operand that can't trip any check: same shape and dtype, another storage, and
    nothing autograd could care about (optimizer updates hit this path)."""
    return (type(o) is Tensor and o._shape == self._shape and o.dtype is self.dtype
            and o._storage is not self._storage and not o._requires_grad
            and (o._base is None or not o._base._requires_grad))


def inplace_elementwise(name: str, float_out: bool, kernel, self: Tensor, *others,
                        result_dtype=None, **attrs) -> Tensor:
    """In place: the kernel writes into self's own cells, through record_inplace's checks."""
    # Fast path for the common teaching case `x.add_(5)`: a float tensor with no autograd
    # history and a Python scalar can neither fail a check nor record a node.
    if (result_dtype is None and self._base is None
            and (not self._requires_grad or not STATE["grad"])
            and self.dtype.category == 2
            and not self._inference and 0 not in self._stride
            and (not others or type(others[0]) in _SCALARS or _plain_same(self, others[0]))):
        a = self._array()
        cd = dtypes.compute_np(self.dtype)
        self._vc.write(lambda: call_kernel(kernel, [a, *[arr(o, cd) for o in others]], a, cd),
                       name + "_")
        return self
    check_operands(name + "_", others)
    dtype_rules.check(name, self.dtype)
    rd = result_dtype or promote(float_out, self, *others)
    a = self._array()
    inputs = dict(zip(("self", "other"), (self, *others)))
    return record_inplace(
        name, self, inputs,
        compute=lambda: _inplace_kernel(kernel, name + "_", self, a, others, rd),
        check=lambda: check_inplace_operands(self, others, rd), **attrs)


def _inplace_kernel(kernel, method: str, self: Tensor, a: np.ndarray, others: tuple, rd) -> None:
    cd = dtypes.compute_np(rd)
    write_inplace(lambda o, xs: call_kernel(kernel, xs, o, cd), method, self,
                  [a, *[arr(o, cd) for o in others]], others)


def write_inplace(run, method: str, self: Tensor, xs: list, others: tuple,
                  out: np.ndarray | None = None) -> None:
    """``run(out, xs)``: the kernel writing into self's array (``xs[0]``; for ``out=`` the
    separate array ``out``). An operand that overlaps self in a way the overlap check let
    through (``x[:, 1:].add_(x[:, :-1])``) reads cells already written, in the order
    PyTorch's CPU loop writes them (cpu_loops.py); only when every tensor shares self's
    dtype, as otherwise PyTorch reads cast copies."""
    op = method[:-1]
    target = xs[0] if out is None else out
    if (cpu_loops.overlaps(self, others) and cpu_loops.modelled(op, self.dtype.name)
            and all(o.dtype is self.dtype for o in others if isinstance(o, Tensor))):
        cpu_loops.walk(run, target, xs, method,
                       cpu_loops.step_bytes(op, not self.dtype.is_floating_point),
                       op in cpu_loops.BLOCK_TAIL)
    else:
        run(target, xs)
