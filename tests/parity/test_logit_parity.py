"""logit and logit_ on torch 2.13 and the core (issue 10): eps as PyTorch's kernel reads it
(a negative eps clamps nothing, a NaN eps clamps nothing, past 0.5 the bounds cross and
``x < lo ? lo : (x > hi ? hi : x)`` decides), their gradients, and the NaN bits of
float32/float64 results: a NaN input passes quieted with its sign and payload, the log of a
negative ratio is the positive NaN, inf / -inf's NaN keeps its sign.
capability_runner.py runs the bit program under each of PyTorch's CPU builds too.
"""

import numpy as np
import pytest

from .harness import Registry, check_parity, leaf
from .test_nan_sign_parity import bits

pytestmark = pytest.mark.parity

prog = Registry()

_EPS = [None, 0.0, 0.1, -0.1, 0.25, 0.5, 0.6, 0.75, 1.0, 2.0, float("nan")]
_NUMBERS = [0.0, -0.0, 1.0, -1.0, 2.0, 0.5, 0.25, 1.5, -0.5, float("inf"), -float("inf"),
            1e-30, 0.9999, 0.61, 0.39, 0.7, 0.3, 0.55, 0.45]


@prog
def logit_eps_values(t):
    """Values (compared with the harness's tolerance) for every kind of eps, out of place and
    in place, contiguous and strided (MKL's loop and the element loop), all float dtypes."""
    out = {}
    for dtype in ("float32", "float64", "float16", "bfloat16"):
        x = t.tensor(_NUMBERS).to(getattr(t, dtype))
        long = x.repeat(6)
        for eps in _EPS:
            key = f"{dtype}_{eps}"
            out[key] = (x.logit(eps), x.clone().logit_(eps), long[::3].logit(eps),
                        t.logit(long, eps=eps) if eps is not None else t.logit(long))
    out["int_input"] = t.tensor([0, 1, 2]).logit(0.6)
    return out


@prog
def logit_eps_gradients(t):
    """LogitBackward0 with each eps: zero where the clamp bit, NaN outside [0, 1] without a
    clamp (None or a negative eps), the formula everywhere for a NaN eps."""
    out = {}
    for eps in _EPS:
        x = leaf(t, np.array([0.05, 0.2, 0.5, 0.62, 0.9, 1.2, -0.3], dtype=np.float64))
        y = x.logit(eps) if eps is not None else x.logit()
        y.backward(t.ones_like(y))
        out[str(eps)] = (y, x.grad, y.grad_fn.name(), y.grad_fn._saved_eps)
    return out


def _nan_bits(t, y):
    """The bit patterns of y's NaNs (other elements as 0, whatever their last bit)."""
    b = bits(y)
    b[~np.isnan(y.detach().double().numpy())] = 0
    return b


_WIDE_NANS = {
    "float32": ([0x7FC00000, 0xFFC00000, 0x7FC12345, 0xFFC12345, 0x7FA00000, 0xFF800001],
                np.uint32, np.float32),
    "float64": ([0x7FF8000000000000, 0xFFF8000000000000, 0x7FF8000012345000,
                 0xFFF8000012345000, 0x7FF4000000000000, 0xFFF0000000000001],
                np.uint64, np.float64),
}


@prog
def logit_nan_bits_float32_float64(t):
    """A contiguous (or transposed: the same order) float32/float64 tensor, the loop PyTorch
    hands to MKL; strided ones take glibc/SLEEF loops whose bits depend on the build."""
    out = {}
    for dtype, (pats, uint, flt) in _WIDE_NANS.items():
        nans = np.array(pats, dtype=uint).view(flt)
        x = t.tensor(np.concatenate([nans, np.array(_NUMBERS, dtype=flt)]))
        long = x.repeat(8)
        for eps in _EPS:
            out[f"{dtype}_{eps}"] = (
                _nan_bits(t, x.logit(eps)), _nan_bits(t, x.clone().logit_(eps)),
                _nan_bits(t, long.logit(eps)),
                _nan_bits(t, long.reshape(8, -1).t().logit(eps)))
    return out


@pytest.mark.parametrize("prog", prog.params())
def test_logit_parity(prog, torch_mod, core):
    check_parity(prog, torch_mod, core)
