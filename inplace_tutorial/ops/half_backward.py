"""float16/bfloat16 gradients of the unary ops whose backward is a kernel of its own in
PyTorch (threshold_backward for relu, tanh_backward, sigmoid_backward), with its bits.

Those kernels load both 16-bit operands into float32, compute there and round once on the
way back, where the composite ``g * (1 - r * r)`` would round after every step (float16's
sigmoid_backward is the exception: Half arithmetic, rounded every step). Which NaN comes out
depends on the loop (cpu_lanes.py; a step of threshold_backward takes 64 bytes, of the
other two 64 in AVX2 and 128 in AVX512) and the build (cpu_capability.py), measured on
torch 2.13 under ATEN_CPU_CAPABILITY=default/avx2/avx512:
- the vector loop widens and narrows every lane: a float16 NaN is quieted, sign and payload
  kept, by AVX2/AVX512's instructions, and becomes 0x7E00 with its sign in the DEFAULT
  build; a bfloat16 NaN becomes 0xFFFF (AVX2/AVX512) or 0x7FC0 (DEFAULT);
- the element loop of tanh_backward and sigmoid_backward narrows its float32 result as c10
  does (float16 as the vector loop of the same build; bfloat16 0x7FC0), while
  threshold_backward's element loop only selects: the gradient's bits pass as they are;
- a NaN gradient is the one kept (the CPU's product keeps its first operand's NaN). Where
  the result is NaN too, the builds differ by the order their compiler gave the operands:
  not modelled.
"""
from __future__ import annotations

from collections.abc import Callable

import numpy as np

from .. import dtypes
from ..cpu_capability import AVX512, CAPABILITY, VECTOR_INSTRUCTIONS
from ..tensor import Tensor
from ._chunked import run_chunked
from ._pointwise import new_output
from .cpu_lanes import element_strides, vector_mask
from .unary_nan_bits import has_nan


def float32_backward(body: Callable, op: str, g: Tensor, r: Tensor,
                     half_steps: bool = False) -> Tensor:
    """``body(g32, r32, t32, narrow)`` (float32 chunks, t32 scratch, the result left in g32)
    for 16-bit g and r, rounded once into a new gradient of g's dtype, its NaNs given
    PyTorch's bits. ``narrow(a)`` rounds ``a`` to float16 in place if ``half_steps`` (a
    float16 kernel that rounds every step), else does nothing."""
    out = new_output(op, r._shape, g.dtype, (g, r))  # laid out as TensorIterator would
    o = out._array()
    each_step = half_steps and o.dtype == np.float16

    def chunk(gs, rs, out, dtype, tmp):
        g32, r32, t32, nan = tmp

        def narrow(a):
            if each_step:  # (through the output chunk, which is free until the end)
                np.copyto(out, a, casting="unsafe")
                np.copyto(a, out)
        np.copyto(g32, gs, casting="unsafe")  # exact: every 16-bit value is a float32
        np.copyto(r32, rs, casting="unsafe")
        body(g32, r32, t32, narrow)
        if has_nan(gs):  # the CPU's product keeps its first operand's NaN: the gradient's
            np.isnan(gs, out=nan)  # (NumPy's loops may take the other's)
            np.copyto(g32, gs, where=nan, casting="unsafe")
        np.copyto(out, g32, casting="unsafe")  # the rounding, to nearest even

    with np.errstate(all="ignore"):
        run_chunked(chunk, op, (np.float32, np.float32, np.float32, np.bool_),
                    (g._array(), r._array()), o, None)
    # (cpu_kernel_vec steps two vectors: 32 bytes each in AVX2, 64 in AVX512)
    nan_bits(o, _lanes(out, g, r, 128 if CAPABILITY == AVX512 else 64), selects=False)
    return out


def threshold_nan_bits(out: Tensor, r: Tensor, g: Tensor) -> None:
    """relu's 16-bit gradient ``out``, the gradient's bits selected where the result is > 0
    or NaN (unary.py), given the NaN bits of threshold_backward's vector loop."""
    nan_bits(out._array(), _lanes(out, r, g, 64), selects=True)  # (64 bytes in each build)


def _lanes(out: Tensor, a: Tensor, b: Tensor, step: int) -> np.ndarray | None:
    """Where the binary loop runs in vectors, ``step`` bytes at a time (operands in
    TensorIterator's order)."""
    shape = out._shape
    return vector_mask(shape, [element_strides(t, shape) for t in (out, a, b)], 2, step)


def nan_bits(o: np.ndarray, vector: np.ndarray | None, selects: bool) -> None:
    """Give the NaNs of 16-bit ``o`` (NumPy's narrowing: a float16 NaN quieted, sign and
    payload kept) PyTorch's bits; ``vector``: the vector lanes (None: none); ``selects``:
    the element loop moved bits without converting them (leave its NaNs alone)."""
    if not has_nan(o):
        return
    mask_t = Tensor._empty((2, *o.shape), dtypes.bool_, "NaN bits (masks)")
    nan, m = mask_t._array()
    np.isnan(o, out=nan)
    u = o.view(np.uint16)
    half = o.dtype.kind == "f"
    for on_vector in (True, False):
        if on_vector and vector is None or not on_vector and selects:
            continue
        if vector is None:
            np.copyto(m, nan)
        else:  # (nan > vector: NaN and not a vector lane)
            (np.logical_and if on_vector else np.greater)(nan, vector, out=m)
        if half and VECTOR_INSTRUCTIONS:
            np.bitwise_or(u, np.uint16(0x0200), out=u, where=m)  # quieted, as NumPy did
        elif half:  # DEFAULT: 0x7E00 with its sign
            np.bitwise_and(u, np.uint16(0x8000), out=u, where=m)
            np.bitwise_or(u, np.uint16(0x7E00), out=u, where=m)
        else:
            np.copyto(u, np.uint16(0xFFFF if on_vector and VECTOR_INSTRUCTIONS else 0x7FC0),
                      where=m)
