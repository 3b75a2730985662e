"""ops/reduced.py: the float32 -> float16 rounding done on the bits gives NumPy's cast bit for bit.

The rounding of a normal value depends only on its low 14 mantissa bits (the kept bit that
decides ties, and the 13 dropped ones) and on a carry into the exponent, so every exponent
(all 256, both signs) is checked with every pattern of those 14 bits under a few upper
mantissas; the two exponents at the ends of float16's normal range are checked whole.
"""
from __future__ import annotations

import numpy as np
import pytest

import inplace_tutorial as ipt
from inplace_tutorial import memory
from inplace_tutorial.ops.reduced import _narrow_f16


def _check(bits: np.ndarray) -> None:
    src = bits.view(np.float32)
    out, ref = np.empty(src.shape, np.float16), np.empty(src.shape, np.float16)
    t, u = np.empty(src.shape, np.uint32), np.empty(src.shape, np.uint32)
    with np.errstate(all="ignore"):
        np.copyto(ref, src, casting="unsafe")
        _narrow_f16(src, out, t, u)
    bad = out.view(np.uint16) != ref.view(np.uint16)
    assert not bad.any(), [hex(b) for b in bits[bad][:5]]


@pytest.mark.parametrize("upper", [0x1FF, 0x0AA])  # all ones: the carry into the exponent
def test_every_exponent_every_rounding_pattern(upper):
    low = np.arange(1 << 14, dtype=np.uint32)
    exps = np.arange(256, dtype=np.uint32) << 23
    for sign in (0, 1 << 31):
        bits = (np.uint32(sign) | exps[:, None] | np.uint32(upper << 14) | low).reshape(-1)
        _check(bits)


@pytest.mark.parametrize(("exponent", "sign"), [(113, 1 << 31), (142, 0)])
def test_range_ends_whole(exponent, sign):
    # 113: the smallest normal half (below it NumPy's cast takes over); 142: the largest,
    # whose top values round up to inf
    _check(np.uint32(sign) | np.uint32(exponent << 23) | np.arange(1 << 23, dtype=np.uint32))


def test_strided_output_and_ops_agree_with_numpy():
    x = np.random.default_rng(1).standard_normal((300, 70)).astype(np.float32) * 1000
    x[0, :6] = [0, -0.0, np.inf, np.nan, 1e-7, 7e4]
    big = np.zeros((300, 140), np.float16)
    t, u = np.empty((300, 70), np.uint32), np.empty((300, 70), np.uint32)
    with np.errstate(all="ignore"):
        _narrow_f16(x, big[:, ::2], t, u)
        ref = x.astype(np.float16)
    assert np.array_equal(big[:, ::2].view(np.uint16), ref.view(np.uint16))
    assert not big[:, 1::2].any()  # the cells between were not touched
    # through an op: float16 add rounds the float32 sum once
    a = np.random.default_rng(2).standard_normal(70_000).astype(np.float16)
    b = np.random.default_rng(3).standard_normal(70_000).astype(np.float16)
    got = (ipt.tensor(a) + ipt.tensor(b)).numpy()
    want = (a.astype(np.float32) + b.astype(np.float32)).astype(np.float16)
    assert np.array_equal(got.view(np.uint16), want.view(np.uint16))


@pytest.mark.parametrize("call", [
    lambda h, o: h.relu_(), lambda h, o: h.sigmoid_(), lambda h, o: h.neg_(),
    lambda h, o: h.sin_(), lambda h, o: h.rsqrt_(), lambda h, o: h.floor_(),
    lambda h, o: h.atan2_(o), lambda h, o: h.fmod_(o), lambda h, o: h.xlogy_(o),
    lambda h, o: h.eq_(o), lambda h, o: h.nan_to_num_(), lambda h, o: h.logit_(0.1),
], ids=["relu_", "sigmoid_", "neg_", "sin_", "rsqrt_", "floor_", "atan2_", "fmod_", "xlogy_",
        "eq_", "nan_to_num_", "logit_"])
def test_16_bit_in_place_ops_compute_in_small_chunks(call):
    # PyTorch's CPU loop widens a few registers at a time and allocates nothing; the core's
    # float64 scratch is chunk-sized (counted), never as large as the 2 MiB tensor
    h = ipt.rand(1024, 1024).half().add_(0.5)
    o = ipt.rand(1024, 1024).half().add_(0.5)
    memory.reset_peak_memory_stats()
    base = memory.memory_allocated()
    call(h, o)
    assert memory.max_memory_allocated() - base < 512 * 1024
