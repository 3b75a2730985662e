"""Last bits that differed from torch 2.13 (last-bits' slices), each compared bit for bit.

log_sigmoid on float16/bfloat16: every one of the 65,536 bit patterns of each type,
contiguous, strided and in row tails (the kernel runs every element in float32 vectors, its
tail too), the hidden buffer LogSigmoidBackward0 saves, and the gradient (for bfloat16 its
NaNs only as NaNs: AVX2/AVX512 torch converts every NaN of a bfloat16 vector to 0xFFFF, the
core's backward helper, self_gated.gradient, gives 0xFFC0).
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


@pytest.mark.parametrize("prog", prog.params())
def test_last_bits_parity(prog, torch_mod, core):
    check_parity(prog, torch_mod, core)
