"""What every element-wise op shares (PyTorch's TensorIterator): the out-of-place and in-place
drivers, overlap and shape checks, the output layout (the chunking through one counted
workspace is workspace.py's).

The checks run in PyTorch's order, memory overlap first, then the broadcast shape, then the
dtype cast, all before a single byte is written. The shape and stride arithmetic itself is in
layout.py; an op module (elementwise.py, unary.py, compare.py) only adds kernels and formulas.
"""
from __future__ import annotations

import numbers

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
from ..tensor import Tensor
from . import cpu_loops, dtype_rules, reduced, unary_nan_bits
from .arg_checks import argument_error


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
    if 0 in self._stride and any(s > 1 and st == 0 for s, st in zip(self._shape, self._stride)):
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
    kernel.ufunc = f  # all it does: inplace_elementwise's fast path makes this call itself
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
_INT = (int,)  # (an integer tensor's scalar: a float one would make the result float)


def _plain_same(self: Tensor, o) -> bool:
    """An operand that can't trip any check: same shape and dtype, another storage, and
    nothing autograd could care about (optimizer updates hit this path)."""
    return (type(o) is Tensor and o._shape == self._shape and o.dtype is self.dtype
            and o._storage is not self._storage and not o._requires_grad
            and (o._base is None or not o._base._requires_grad))


def inplace_elementwise(name: str, float_out: bool, kernel, self: Tensor, *others,
                        result_dtype=None, **attrs) -> Tensor:
    """In place: the kernel writes into self's own cells, through record_inplace's checks."""
    # Fast path for the common case, `x.add_(5)` or an optimizer's `buf.mul_(0.9).add_(g)`:
    # a float tensor that is no view, no inference tensor and has no broadcast (zero) stride,
    # outside any graph, and a Python scalar or a same-shape, same-dtype tensor of another
    # storage that no graph cares about; or an integer tensor (BatchNorm's
    # `num_batches_tracked.add_(1)`) with a Python int or such a tensor, in an op whose result
    # stays integer. No other check can fail (no overlap, no broadcast, no cast refused) and
    # record_inplace would record nothing: what is left is the dtype table's refusals of
    # integer dtypes (frac_ of a Long), the write and its version bump.
    floating = self.dtype.category == dtypes.FLOATING
    if (result_dtype is None and self._base is None
            and (not self._requires_grad or not STATE.grad)
            and (floating or self.dtype.category == dtypes.INTEGER and not float_out)
            and not self._inference and 0 not in self._stride
            and len(others) < 2
            and (not others or type(others[0]) in (_SCALARS if floating else _INT)
                 or _plain_same(self, others[0]))):
        if not floating:  # (the table refuses no float dtype: test_inplace_fast_path.py)
            dtype_rules.check(name, self.dtype)
        a = self._array()
        cd = a.dtype
        if cd.itemsize == 2 or hasattr(kernel, "nan_op"):  # float16/bfloat16, or NaN bits
            cd = dtypes.compute_np(self.dtype)
            xs = [a, *[arr(o, cd) for o in others]]
            self._vc.write(call_kernel, name + "_", kernel, xs, a, cd)
            return self
        # float32/float64, computed in their own type: call_kernel would only call the
        # kernel, and a bare ufunc kernel would only make this one NumPy call
        xs = [a]
        for o in others:  # (at most one: arr's two cases, written out)
            xs.append(o._array() if type(o) is Tensor else dtypes.kernel_scalar(o, cd))
        ufunc = getattr(kernel, "ufunc", None)
        if ufunc is None:
            self._vc.write(kernel, name + "_", *xs, out=a, dtype=cd)
        else:
            self._vc.write(ufunc, name + "_", *xs, out=a, dtype=cd, casting="unsafe")
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
        cpu_loops.walk(run, target, xs, method)
    else:
        run(target, xs)
