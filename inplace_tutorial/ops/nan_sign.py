"""Which sign a zero keeps, and which NaN comes out, where PyTorch's CPU kernels decide it.

NumPy and PyTorch agree on values but not always on these bits. Clamping to a scalar bound
(clamp, clamp_min, clamp_max, relu, whose CPU kernel is ``clamp_min(x, 0)``) is
``x < lo ? lo : x`` in PyTorch: a tie keeps x, so ``relu(-0.0)`` is -0.0 and
``clamp_min(0.0, -0.0)`` is 0.0; a NaN x comes out as it went in (sign and payload); a NaN
bound gives the canonical NaN everywhere. ``np.maximum`` returns one of its operands on a tie,
which one depends on NumPy's loop for the dtype, so the order of operands is chosen by asking
NumPy once (float32/float64 keep the second, float16 the first, in NumPy 2.2 to 2.4).
"""
from __future__ import annotations

import numpy as np


def _keeps_second(np_dtype: np.dtype) -> bool:
    """Does ``np.maximum``/``np.minimum`` of two equal zeros return its second operand?"""
    x = np.array([-0.0, -0.0], dtype=np_dtype)
    zero = np.zeros(2, dtype=np_dtype)
    return bool(np.signbit(np.maximum(zero, x)).all() and np.signbit(np.minimum(zero, x)).all())


_KEEPS_SECOND: dict = {}


def keeps_second(np_dtype) -> bool:
    np_dtype = np.dtype(np_dtype)
    found = _KEEPS_SECOND.get(np_dtype)
    if found is None:
        found = _KEEPS_SECOND[np_dtype] = _keeps_second(np_dtype)
    return found


def clamp_bound(ufunc, x, bound, out: np.ndarray, dtype) -> None:
    """``np.maximum``/``np.minimum`` of ``x`` and a bound with PyTorch's tie rule (x wins)
    and NaN rule (x's NaN as it is; a NaN scalar bound: the canonical NaN everywhere)."""
    if isinstance(bound, float) and bound != bound:
        out.fill(np.nan)
        return
    if keeps_second(dtype if dtype is not None else out.dtype):
        ufunc(bound, x, out=out, dtype=dtype, casting="unsafe")
    else:
        ufunc(x, bound, out=out, dtype=dtype, casting="unsafe")
