"""Last bits that differed from torch 2.13 (last-bits' slices), each compared bit for bit.

log_sigmoid on float16/bfloat16: every one of the 65,536 bit patterns of each type,
contiguous, strided and in row tails (the kernel runs every element in float32 vectors, its
tail too), the hidden buffer LogSigmoidBackward0 saves, and the gradient (for bfloat16 its
NaNs only as NaNs: AVX2/AVX512 torch converts every NaN of a bfloat16 vector to 0xFFFF, the
core's backward helper, self_gated.gradient, gives 0xFFC0).

GELU (approximate='none') on float16/bfloat16, every pattern in the same layouts: float32
opmath rounded once, glibc's erff in the element loop, 7.1.26 with FMAs in the AVX vectors.
capability_runner.py runs these programs under each of PyTorch's CPU builds too.
"""

import numpy as np
import pytest

from .harness import Registry, check_parity
from .test_nan_sign_parity import bits

pytestmark = pytest.mark.parity

prog = Registry()


def _every_pattern(t, dtype):
    raw = np.arange(0, 0x10000, dtype=np.uint32).astype(np.uint16).view(np.int16)
    return t.tensor(raw.copy()).view(getattr(t, dtype))


@prog
def log_sigmoid_16bit_every_pattern(t):
    out = {}
    for dtype in ("float16", "bfloat16"):
        x = _every_pattern(t, dtype)
        f = t.nn.functional.logsigmoid
        w = x.clone().requires_grad_()
        y = f(w)
        buffer = bits(y.grad_fn._saved_buffer)
        y.backward(t.ones_like(y))
        grad = bits(w.grad)
        if dtype == "bfloat16":  # (the backward's bfloat16 NaNs are the shared helper's)
            grad[np.isnan(w.grad.float().numpy())] = 0x7FC0
        out[dtype] = (bits(f(x)), bits(f(x[::3])), bits(f(x.reshape(512, 128)[:, :100])),
                      buffer, grad)
    return out


@prog
def gelu_16bit_every_pattern(t):
    """oneDNN off on torch's side: on a CPU with AVX512-FP16 torch gives contiguous 16-bit
    tensors to oneDNN's GELU, whose bits are that library's and that CPU's (_gelu16.py)."""
    mkldnn = getattr(t.backends, "mkldnn", None)  # (torch's only)
    was = mkldnn.enabled if mkldnn is not None else None
    if mkldnn is not None:
        mkldnn.enabled = False
    try:
        out = {}
        for dtype in ("float16", "bfloat16"):
            x = _every_pattern(t, dtype)
            f = t.nn.functional.gelu
            out[dtype] = (bits(f(x)), bits(f(x[::3])), bits(f(x.reshape(512, 128)[:, :100])),
                          bits(f(x[:1])), bits(f(x[7:70])))
        return out
    finally:
        if mkldnn is not None:
            mkldnn.enabled = was


@pytest.mark.parametrize("prog", prog.params())
def test_last_bits_parity(prog, torch_mod, core):
    check_parity(prog, torch_mod, core)
