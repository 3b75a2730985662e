"""Last bits that differed from torch 2.13 (last-bits' slices), each compared bit for bit.

log_sigmoid on float16/bfloat16: every one of the 65,536 bit patterns of each type,
contiguous, strided and in row tails (the kernel runs every element in float32 vectors, its
tail too), the hidden buffer LogSigmoidBackward0 saves, and the gradient (for bfloat16 its
NaNs only as NaNs: AVX2/AVX512 torch converts every NaN of a bfloat16 vector to 0xFFFF, the
core's backward helper, self_gated.gradient, gives 0xFFC0).

GELU (approximate='none') on float16/bfloat16, every pattern in the same layouts: float32
opmath rounded once, glibc's erff in the element loop, 7.1.26 with FMAs in the AVX vectors.

BatchNorm's running stats, saved statistics and output (float32) in the kernel's order and
types.
capability_runner.py runs these programs under each of PyTorch's CPU builds too.
"""

import numpy as np
import pytest

from .harness import Registry, check_parity, every_16bit_pattern
from .test_nan_sign_parity import bits

pytestmark = pytest.mark.parity

prog = Registry()


@prog
def log_sigmoid_16bitevery_16bit_pattern(t):
    out = {}
    for dtype in ("float16", "bfloat16"):
        x = every_16bit_pattern(t, dtype)
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
def gelu_16bitevery_16bit_pattern(t):
    """oneDNN off on torch's side: on a CPU with AVX512-FP16 torch gives contiguous 16-bit
    tensors to oneDNN's GELU, whose bits are that library's and that CPU's (_gelu16.py)."""
    mkldnn = getattr(t.backends, "mkldnn", None)  # (torch's only)
    was = mkldnn.enabled if mkldnn is not None else None
    if mkldnn is not None:
        mkldnn.enabled = False
    try:
        out = {}
        for dtype in ("float16", "bfloat16"):
            x = every_16bit_pattern(t, dtype)
            f = t.nn.functional.gelu
            out[dtype] = (bits(f(x)), bits(f(x[::3])), bits(f(x.reshape(512, 128)[:, :100])),
                          bits(f(x[:1])), bits(f(x[7:70])))
        return out
    finally:
        if mkldnn is not None:
            mkldnn.enabled = was


@prog
def batch_norm_running_stats_bits(t):
    """BatchNorm's statistics in the kernel's order and types (_bn_stats.py): the running
    mean and variance after two training steps, the saved mean and invstd, and the output
    (x * alpha + beta, fused in the AVX2/AVX512 builds), bit for bit, for contiguous
    (N, C, H, W), (N, C, L) and (N, C) batches."""
    rng = np.random.default_rng(7)
    out = {}
    for shape in [(64, 16, 8, 8), (32, 3, 5, 7), (16, 32, 4, 4), (2, 5, 33, 33), (200, 32),
                  (8, 4), (33, 17), (12, 6, 10)]:
        layer = (t.nn.BatchNorm2d if len(shape) == 4 else t.nn.BatchNorm1d)(shape[1])
        saved = []
        for step in range(2):
            x = t.tensor((rng.standard_normal(shape) * 3 + 1.5 - step).astype(np.float32),
                         requires_grad=True)
            y = layer(x)
            saved += [bits(y.grad_fn._saved_result1), bits(y.grad_fn._saved_result2), bits(y)]
        out[shape] = (bits(layer.running_mean), bits(layer.running_var), *saved)
    return out


@pytest.mark.parametrize("prog", prog.params())
def test_last_bits_parity(prog, torch_mod, core):
    check_parity(prog, torch_mod, core)
