"""PyTorch's CPU element-wise loop (``aten/src/ATen/native/cpu/Loops.h``) walked step by step,
for the one case where its order shows in the result: an in-place op whose operand overlaps the
written tensor in a way TensorIterator's overlap check calls "too hard" and lets through
(``x[:, 1:].add_(x[:, :-1])``, ``x.div_(x[:, :1])``: neither operand is dense).

TensorIterator orders the dims by the operands' strides (``reorder_dimensions``) and merges
dims that are contiguous in every operand (``coalesce_dimensions``); the innermost merged dim
is a row, and rows run one after another, the next outer dim varying fastest. A row whose
operands are all contiguous (or all but one input, which is broadcast along it) runs
``vectorized_loop``: 64 bytes at a time, each step loading all its inputs before it stores (two
vectors loaded, computed, stored), the broadcast input read once when the row starts. The
rest of that row (under 64 bytes), and every element of any other row, run ``basic_loop``:
one element at a time, each input read from memory just before that element is written. So a
step reads what earlier steps wrote. Measured on torch 2.13, one thread, under
``ATEN_CPU_CAPABILITY`` default, avx2 and avx512: a 64-byte step in all three builds (16 float32,
8 float64 or int64, 32 float16, 64 int8) for most kernels, 128 bytes in the AVX512 build for
the few compiled with 512-bit vectors there (pow, atan2, hypot), no vector loop at all for
some (``STEP_BYTES`` below). Unary ops with ``out=`` over their input run other loops for
some kernels: PyTorch's vml loop (vec::map: one vector a step, the rest of the row one block)
or MKL's vector math (steps of two widths, then a block), measured per op (``row_loop``).
With more than one thread and more than 32,768 elements, torch splits the walk between threads
wherever the split falls, and a cell read near a split may be read before or after its write:
the core, single-threaded, gives the one-thread answer.
"""
from __future__ import annotations

import itertools

import numpy as np
from numpy.lib.stride_tricks import as_strided

from .. import cpu_capability
from ..storage import UntypedStorage
from ..tensor import Tensor
from . import _grouped_walk

# Bytes one step of vectorized_loop covers (two vectors), by op where it isn't 64; 0: the
# kernel has no vector loop (cpu_kernel), every element in turn. Measured with rows of 5 to
# 150 elements of float32/float64/int32/int64 (tests/parity/test_overlap_walk_parity.py,
# test_overlap_unary_parity.py): 128 bytes in the AVX512 build for the kernels compiled with
# 512-bit vectors there.
_AVX512 = cpu_capability.CAPABILITY == cpu_capability.AVX512
_WIDE = 128 if _AVX512 else 64
STEP_BYTES = {"pow": _WIDE, "float_power": _WIDE, "atan2": _WIDE, "hypot": _WIDE,
              "sigmoid": _WIDE, "reciprocal": _WIDE, "sinh": _WIDE, "cosh": _WIDE,
              "exp2": _WIDE, "atanh": _WIDE, "logit": _WIDE, "square": _WIDE,
              "xlogy": 0, "lcm": 0, "asinh": 0, "acosh": 0, "sinc": 0}
INTEGER_STEP_BYTES = {"floor_divide": 0, "div_mode": 0}  # the integer kernels: scalar only
# The unary kernels PyTorch runs through its vml loop (IMPLEMENT_FLOAT_KERNEL): a contiguous
# row goes whole to vml::v<op>, a strided one through an 8 KiB buffer, chunk by chunk (read
# whole, then written). vml::v<op> is vec::map for these: one vector a step, the rest of the
# row one more (partial) vector, read before it is written.
VEC_MAP_BYTES = {"floor": 32, "ceil": 32, "round": 32, "i0": 32,
                 "expm1": 64 if _AVX512 else 32, "log1p": 64 if _AVX512 else 32}
VML_CHUNK_BYTES = 8192
# ... and MKL's vector math for these, in every build (MKL picks its own code for the CPU):
# steps of the first width while a whole one remains, then of the second, then the rest as
# one block. Measured on a CPU with AVX512; on another CPU MKL's steps are unknown, and the
# core reads the operand as it was before the op.
_MKL_F32 = {**dict.fromkeys(("exp", "tanh", "sin", "cos", "atan", "asin", "acos", "tan"),
                            (128, 64)),
            **dict.fromkeys(("log", "log2", "log10", "trunc"), (256, 64)), "sqrt": (64,)}
_MKL_F64 = {**dict.fromkeys(("exp", "sin", "acos", "sqrt"), (128, 64)),
            **dict.fromkeys(("log", "log2", "log10", "tanh", "cos", "atan", "asin", "tan"),
                            (256, 64)), "trunc": (512, 64)}
MKL_STEPS = ({"float32": _MKL_F32, "float64": _MKL_F64}
             if cpu_capability.AVX512 in cpu_capability.runnable_builds() else {})
# In float16/bfloat16 there is no MKL: every vml op is vec::map over 16-bit vectors, some
# compiled with 512-bit vectors in the AVX512 build.
_MAP16_WIDE = 64 if _AVX512 else 32
VEC_MAP16_BYTES = {**dict.fromkeys(("cos", "sin", "tan", "sqrt", "floor", "ceil", "round",
                                    "trunc", "i0"), 32),
                   **dict.fromkeys(("exp", "log", "tanh", "expm1", "log1p", "asin", "acos",
                                    "atan", "log2", "log10"), _MAP16_WIDE)}
# ldexp_ is mul_(other.exp2()): its operand becomes a new tensor before the loop starts.
READS_FIRST = ("ldexp",)
# kernels that can raise partway (integer division by zero): torch leaves the cells before
# the failing one written, so these walk one step at a time
STOPS_MIDWAY = ("fmod", "remainder", "floor_divide", "div_mode", "div")
# ops whose order was measured for some dtypes only: the unary ones in the float dtypes
_UNARY = (*VEC_MAP_BYTES, *_MKL_F32, "reciprocal", "sinh", "cosh", "exp2", "atanh", "logit",
          "square", "asinh", "acosh", "sinc", "rsqrt", "frac", "deg2rad", "rad2deg",
          "nan_to_num")
MEASURED_DTYPES = dict.fromkeys(_UNARY, ("float32", "float64", "float16", "bfloat16"))
MEASURED_DTYPES["logit"] = ("float32", "float64")  # 16-bit: values off in its vector part


def modelled(op: str, dtype_name: str) -> bool:
    """Does the walk know ``op``'s order for this dtype? If not, the core reads the operands
    as they were before the op (tests/parity/test_overlap_walk_parity.py lists what differs)."""
    if op in _MKL_F32 and dtype_name in ("float32", "float64"):
        return op in MKL_STEPS.get(dtype_name, {})
    return op not in READS_FIRST and dtype_name in MEASURED_DTYPES.get(op, (dtype_name,))


def row_loop(op: str, dtype_name: str, integer: bool) -> tuple[int | tuple, bool, bool]:
    """``op``'s loop over one row: (bytes per vector step, or widths taken in turn; is the
    rest of the row one block; is it PyTorch's vml loop)."""
    if op in MKL_STEPS.get(dtype_name, {}):
        return MKL_STEPS[dtype_name][op], True, True
    if dtype_name in ("float16", "bfloat16") and op in VEC_MAP16_BYTES:
        return VEC_MAP16_BYTES[op], True, True
    if op in VEC_MAP_BYTES:
        return VEC_MAP_BYTES[op], True, True
    if integer and op in INTEGER_STEP_BYTES:
        return INTEGER_STEP_BYTES[op], False, False
    return STEP_BYTES.get(op, 64), False, False


def _span(t: Tensor) -> tuple[int, int]:
    """The first and last storage element a tensor addresses (strides are never negative)."""
    last = t._offset
    for size, stride in zip(t._shape, t._stride):
        last += (size - 1) * stride
    return t._offset, last


def _same_cells(self: Tensor, o: Tensor) -> bool:
    """``o``, broadcast to self's shape, reads each cell self writes at the same index
    (``x.add_(x)``): then the order can't show."""
    if o._offset != self._offset:
        return False
    lead = len(self._shape) - len(o._shape)
    for d, size in enumerate(self._shape):
        if size == 1:
            continue
        k = d - lead
        if k < 0 or o._shape[k] != size or o._stride[k] != self._stride[d]:
            return False
    return True


def overlaps(self: Tensor, others) -> bool:
    """Does an operand read cells of ``self`` (other than the cell written at its own index)?
    Checked by address ranges, so two disjoint halves of one storage are quick to pass."""
    if 0 in self._shape:
        return False
    for o in others:
        if (isinstance(o, Tensor) and o._storage is self._storage and 0 not in o._shape
                and not _same_cells(self, o)):
            (lo, hi), (olo, ohi) = _span(self), _span(o)
            if olo <= hi and lo <= ohi:
                return True
    return False


def _should_swap(d0: int, d1: int, shape: tuple, strides: list[tuple]) -> int:
    """TensorIterator::reorder_dimensions' comparison: 1 if dim d0 goes outside d1, -1 if
    inside, 0 if no operand can tell (broadcast dims are skipped, ties go to the smaller size)."""
    for st in strides:
        s0, s1 = st[d0], st[d1]
        if s0 == 0 or s1 == 0:
            continue
        if s0 < s1:
            return -1
        if s0 > s1:
            return 1
        if shape[d0] > shape[d1]:
            return 1
    return 0


def iteration_dims(shape: tuple, strides: list[tuple]) -> tuple[list[int], list[list[int]]]:
    """The shape TensorIterator loops over and each operand's strides, innermost dim first,
    after reordering and coalescing. ``strides`` are in elements, the output's first."""
    nd = len(shape)
    perm = list(range(nd - 1, -1, -1))  # innermost (last) dim first, then insertion sort
    for i in range(1, nd):
        d1 = i
        for d0 in range(i - 1, -1, -1):
            c = _should_swap(perm[d0], perm[d1], shape, strides)
            if c > 0:
                perm[d0], perm[d1] = perm[d1], perm[d0]
                d1 = d0
            elif c < 0:
                break
    sh = [shape[p] for p in perm]
    st = [[s[p] for p in perm] for s in strides]
    if not sh:
        return [1], [[0] for _ in strides]
    prev = 0
    for d in range(1, len(sh)):
        if sh[prev] == 1 or sh[d] == 1 or all(sh[prev] * s[prev] == s[d] for s in st):
            if sh[prev] == 1:
                for s in st:
                    s[prev] = s[d]
            sh[prev] *= sh[d]
        else:
            prev += 1
            if prev != d:
                for s in st:
                    s[prev] = s[d]
                sh[prev] = sh[d]
    return sh[: prev + 1], [s[: prev + 1] for s in st]


def _vector_kind(inner: list[int], n_inputs: int) -> int | None:
    """Which loop a row takes: 0 vectorized (all contiguous), k > 0 vectorized with input k
    broadcast along the row (the first such input, as unroll_contiguous_scalar_checks tries
    them), None the element loop."""
    if all(s == 1 for s in inner):
        return 0
    for k in range(1, n_inputs + 1):
        if inner[k] == 0 and all(s == 1 for j, s in enumerate(inner) if j != k):
            return k
    return None


def walk(step, out: np.ndarray, inputs: list, op: str, nbytes: int | tuple | None = None,
         block_tail: bool | None = None, exact: bool = False) -> None:
    """Run ``step(out_part, input_parts)`` over ``out`` in PyTorch's order: the in-place
    kernel of an op whose ``inputs`` (``out`` itself first, then arrays broadcastable to it,
    or Python scalars) overlap ``out``. ``step`` computes one part. ``nbytes``: bytes per
    vector step, or several widths taken in turn (MKL's loops), 0 for a kernel without a
    vector loop; ``block_tail``: the rest of a row is read whole before it is written; both
    default to ``op``'s measured loop (row_loop). For ``out=`` the inputs don't include
    ``out``. The result is the step-by-step walk's; when rows can't see each other's
    cells it is computed many steps at a time (_grouped_walk.py); ``exact``: step by step."""
    shape, item = out.shape, out.itemsize
    op = op.rstrip("_")
    vml = False
    if nbytes is None:
        nbytes, block_tail, vml = row_loop(op, out.dtype.name, out.dtype.kind in "iub")
    widths = nbytes if isinstance(nbytes, tuple) else (nbytes,)
    arrays = [out] + [x if x is out else np.broadcast_to(x, shape)
                      for x in inputs if isinstance(x, np.ndarray)]
    sh, st = iteration_dims(shape, [tuple(s // item for s in a.strides) for a in arrays])
    views = [as_strided(a, tuple(reversed(sh)), tuple(s * item for s in reversed(ss)),
                        writeable=a is out) for a, ss in zip(arrays, st)]
    kind = _vector_kind([s[0] for s in st], len(arrays) - 1) if widths[0] else None
    if vml and kind != 0:  # the vml loop copies a strided row through a buffer, chunk by chunk
        kind, widths = 0, (VML_CHUNK_BYTES,)
    segs, i = [], 0
    for w in widths if kind is not None else ():  # each width while a whole step remains
        lanes = max(w // item, 1)
        end = i + (sh[0] - i) // lanes * lanes
        if end > i:
            segs.append((i, end, lanes))
        i = end

    def call(o, parts):
        it = iter(parts)
        step(o, [next(it) if isinstance(x, np.ndarray) else x for x in inputs])

    loop = _grouped_walk.Loop(views, arrays, sh, st, kind, segs, bool(block_tail))
    stops = op in STOPS_MIDWAY and out.dtype.kind in "iub"  # (a raise leaves a prefix written)
    if not (exact or stops) and _grouped_walk.walk_grouped(call, loop, op):
        return
    _walk_exact(call, loop, op)


def _walk_exact(call, loop: _grouped_walk.Loop, op: str) -> None:
    """The walk one step at a time, rows one after another: the reference order."""
    views, arrays, kind, lanes = loop.views, loop.arrays, loop.kind, loop.lanes
    n, vector_end, out = loop.n, loop.vector_end, arrays[0]
    # a step's inputs are loaded before it stores (copied here, so the kernel never sees
    # them overlap its output), the broadcast input once per row: a small counted buffer
    buf = UntypedStorage(lanes * (len(arrays) + 1), out.dtype, op + " (overlap walk)")._array
    held = buf[lanes * len(arrays):][:1]
    # (all but an in-place op's own self, which its kernels expect to be their output)
    copied = [k for k in range(1, len(arrays)) if k != kind and not (k == 1 and arrays[1] is out)]

    def load(parts, width):  # the step's inputs, read before anything is stored
        for k in copied:
            p = buf[lanes * k: lanes * k + width]
            p[:] = parts[k]
            parts[k] = p
        return parts

    for outer in itertools.product(*(range(s) for s in reversed(loop.sh[1:]))):
        rows = [v[outer] for v in views]
        if kind and vector_end:
            held[0] = rows[kind][0]  # the broadcast input, read once as the row starts
        for start, end, width in loop.segs:
            for i in range(start, end, width):
                parts = load([r[i: i + width] for r in rows], width)
                if kind:
                    parts[kind] = np.broadcast_to(held, (width,))
                call(parts[0], parts[1:])
        if loop.block_tail:
            parts = load([r[vector_end:] for r in rows], n - vector_end)
            call(parts[0], parts[1:])
            continue
        for i in range(vector_end, n):
            parts = load([r[i: i + 1] for r in rows], 1)
            call(parts[0], parts[1:])
