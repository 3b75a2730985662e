"""float16 and bfloat16 element-wise kernels: compute wide, round once.

PyTorch's CPU kernels load 16-bit floats into float32 registers, compute there (``a +
alpha * b`` as one fused multiply-add) and round once on the way back; Python scalars join
in float32 without being rounded to 16 bits first (except add's alpha, read as the tensor's
own type). Here the operands are widened chunk by chunk into counted float64 scratch, the
kernel runs there, and the result is rounded to float32 and then to 16 bits (float16 on the
bits, _narrow_f16, as NumPy's own cast has no vector instructions):
for +, -, *, /, sqrt and fused multiply-adds that gives exactly PyTorch's float32 result,
and for exp, tanh ... the correctly rounded one, which PyTorch's float32 result matches
after the rounding to 16 bits except in rare near-ties.
"""
from __future__ import annotations

import numpy as np

from ..copy_kernel import blocks
from ..storage import UntypedStorage

CHUNK = 16 * 1024  # elements per scratch buffer (128 KiB of float64)


def is_reduced(np_dtype: np.dtype) -> bool:
    """float16 or bfloat16 (bfloat16 is ml_dtypes' type, NumPy kind 'V')."""
    return np_dtype.itemsize == 2 and np_dtype.kind != "i"


# float32 bit patterns (sign cleared) that round to a normal float16: [2**-14, 65520)
_F16_NORMAL_LO, _F16_NORMAL_SPAN = 113 << 23, 30 << 23


def _narrow_f16(src: np.ndarray, out: np.ndarray, t: np.ndarray, u: np.ndarray) -> None:
    """float32 ``src`` rounded to nearest-even float16 into ``out``: NumPy's own cast runs
    about 7 ns an element (no vector instructions), so the common case is done here on the
    bits, in uint32 scratch ``t`` and ``u`` of src's shape. For a value in float16's normal
    range the half's bits are (bits - (112 << 23) + 0xfff + odd) >> 13 with the sign put
    back (odd: the lowest kept bit, so that ties go to even); zeros, subnormals, overflow,
    inf and NaN are left to NumPy's cast, element by element, for the few cells that have
    them. Bit for bit the values of ``np.copyto(out, src, casting="unsafe")``."""
    if src.size == 0:
        return
    w = src.view(np.uint32)
    np.bitwise_and(w, 0x7FFFFFFF, out=t)
    special = t.min() < _F16_NORMAL_LO or t.max() >= _F16_NORMAL_LO + _F16_NORMAL_SPAN
    np.right_shift(t, 13, out=u)
    np.bitwise_and(u, 1, out=u)
    np.add(t, u, out=t)
    np.add(t, 0xFFF - (112 << 23) + (1 << 32), out=t)  # wraps modulo 2**32: minus the bias
    np.right_shift(w, 3, out=u)  # the sign to bit 28, which is bit 15 after the shift
    np.bitwise_and(u, 1 << 28, out=u)
    np.bitwise_or(t, u, out=t)
    np.right_shift(t, 13, out=t)
    np.copyto(out.view(np.uint16), t, casting="unsafe")  # a plain cast: no loop buffer
    if special:
        np.bitwise_and(w, 0x7FFFFFFF, out=t)
        np.subtract(t, _F16_NORMAL_LO, out=t)  # below the range wraps to a large number
        mask = np.greater_equal(t, _F16_NORMAL_SPAN,
                                out=u.reshape(-1).view(np.bool_)[: t.size].reshape(t.shape))
        np.copyto(out, src, casting="unsafe", where=mask)


def _scalar(x, np_dtype: np.dtype, keep32: bool):
    if isinstance(x, np.ndarray) or not isinstance(x, (int, float, np.number)):
        return x
    x32 = np.array(x, dtype=np.float32)
    return np.float64(x32 if keep32 else x32.astype(np_dtype))


def alpha_of(kernel):
    """The alpha of an ``x + alpha * y`` kernel (elementwise.axpy_kernel), else None."""
    return getattr(kernel, "alpha", None)


def run(kernel, xs: tuple, out: np.ndarray) -> None:
    """``kernel(*xs, out=out, dtype=...)`` computed wide and rounded into out's 16-bit type
    through float32: 16-bit operands are widened chunk by chunk into counted scratch (other
    operands are read as they are), the kernel runs there (however many steps it takes),
    and only its result is rounded."""
    # A Python scalar operand is cast to the tensor's 16-bit type, as TensorIterator casts
    # every operand to the common dtype; mul and div instead read it in float32 (their CPU
    # kernels special-case a scalar operand).
    keep32 = getattr(kernel, "opmath_scalar", False)
    xs = tuple(_scalar(x, out.dtype, keep32) for x in xs)
    shape = out.shape
    # Only kernels known to read nothing but their arguments are chunked (ufuncs, add with
    # alpha); any other kernel may read arrays it closed over (where's condition, clamp's
    # tensor bounds), so it gets the whole tensor as one piece.
    whole = not getattr(kernel, "chunkable", False) and alpha_of(kernel) is None
    n = max(1, out.size if whole else min(CHUNK, out.size))
    n_arrays = sum(isinstance(x, np.ndarray) and is_reduced(x.dtype) for x in xs)
    label = f"{getattr(kernel, '__name__', 'kernel')} (float64 scratch)"
    bufs = [UntypedStorage(n, np.float64, label)._array for _ in range(n_arrays + 1)]
    single = UntypedStorage(n, np.float32, label)._array
    flat = not whole and out.flags.c_contiguous and all(
        x.shape == shape and x.flags.c_contiguous for x in xs if isinstance(x, np.ndarray))
    if flat:  # the common case: contiguous, same shape, so plain 1-D ranges
        views = [x.reshape(-1) if isinstance(x, np.ndarray) else x for x in xs]
        target = out.reshape(-1)
        pieces = ((slice(s, min(s + n, out.size)),) for s in range(0, out.size, n))
    else:  # broadcast or strided operands: blocks of whole trailing dimensions
        views = [np.broadcast_to(x, shape) if isinstance(x, np.ndarray) else x for x in xs]
        target = out
        pieces = blocks(shape, n)
    result = bufs[-1]
    alpha = alpha_of(kernel)
    if alpha is not None:  # PyTorch's add kernel reads alpha as the tensor's own type
        alpha = np.float64(np.array(alpha, dtype=np.float32).astype(out.dtype))
    for idx in pieces:
        o = target[idx]
        args, b = [], 0
        for v in views:
            if isinstance(v, np.ndarray) and not is_reduced(v.dtype):
                args.append(v[idx])  # masks, integers, float32 ...: the kernel reads them as is
            elif isinstance(v, np.ndarray):
                part = v[idx]
                buf = bufs[b][: part.size].reshape(part.shape)
                np.copyto(buf, part, casting="unsafe")  # exact: every 16-bit value fits
                args.append(buf)
                b += 1
            else:
                args.append(v)
        res = result[: o.size].reshape(o.shape)
        if alpha is None:
            kernel(*args, out=res, dtype=np.float64)
        else:  # x + alpha * y with one rounding (PyTorch's fused multiply-add)
            np.multiply(args[1], alpha, out=res)
            np.add(res, args[0], out=res)
        res32 = single[: o.size].reshape(o.shape)
        np.copyto(res32, res, casting="unsafe")  # float32 first, as PyTorch's registers
        if o.dtype == np.float16:  # the float64 result buffer is free now: uint32 scratch
            t, u = result.view(np.uint32)[: 2 * o.size].reshape((2, *o.shape))
            _narrow_f16(res32, o, t, u)
        else:
            np.copyto(o, res32, casting="unsafe")
