"""ops/_gemv_sums.py: per-channel, row and column sums as BLAS gemv with a ones vector from
the workspace give np.sum's values (to float rounding), in one block or several, and allocate
nothing uncounted."""
from __future__ import annotations

import tracemalloc

import numpy as np
import pytest
from byte_intervals import OtherThreads, assert_alone, remeasured

from inplace_tutorial.ops._gemv_sums import channel_sums, column_sums, row_sums
from inplace_tutorial.ops.workspace import Scratch

# one block; several blocks of samples (N * C beyond the workspace); rows too long for it
# (np.sum's fallback); a 2-d (N, C) input as BatchNorm1d passes
SHAPES = [(64, 32, 4, 4), (64, 16, 8, 8), (4000, 64, 1, 2), (2, 3, 300, 300), (64, 10)]


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("shape", SHAPES)
def test_channel_sums_match_np_sum(shape, dtype):
    a = np.random.default_rng(0).standard_normal(shape).astype(dtype)
    out = np.empty(shape[1], dtype)
    channel_sums(a, out, "test")
    want = a.astype(np.float64).sum(axis=(0,) + tuple(range(2, a.ndim)))
    tol = 1e-4 if dtype == "float32" else 1e-11
    np.testing.assert_allclose(out, want, rtol=tol, atol=tol * np.sqrt(a.size))


@pytest.mark.parametrize("case", ["transposed", "float16", "workspace taken"])
def test_channel_sums_other_inputs(case):
    a = np.random.default_rng(1).standard_normal((8, 5, 3, 3)).astype(np.float32)
    if case == "transposed":
        a = np.ascontiguousarray(a.transpose(0, 1, 3, 2)).transpose(0, 1, 3, 2)
    if case == "float16":
        a = a.astype(np.float16)
    out = np.empty(5, a.dtype)
    if case == "workspace taken":  # a small counted buffer of its own instead
        with Scratch(np.float32, "holder"):
            channel_sums(a, out, "test")
    else:
        channel_sums(a, out, "test")
    np.testing.assert_allclose(out, a.astype(np.float64).sum(axis=(0, 2, 3)), rtol=2e-3,
                               atol=1e-2)


@remeasured
def test_channel_sums_allocate_no_input_sized_buffer():
    a = np.random.default_rng(2).standard_normal((64, 32, 4, 4)).astype(np.float32)
    out = np.empty(32, np.float32)
    channel_sums(a, out, "test")  # warm up
    tracemalloc.start()
    try:
        others = OtherThreads()
        tracemalloc.reset_peak()
        channel_sums(a, out, "test")
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    # Python objects only; the ones and partials are the workspace's
    assert_alone(peak < 4096, f"{peak:,} B", others)


@pytest.mark.parametrize("dtype", ["float32", "float64", "float16"])
@pytest.mark.parametrize("shape", [(1024, 64), (3, 5), (2, 70000), (70000, 2)])
def test_row_and_column_sums_match_np_sum(shape, dtype):
    a = np.random.default_rng(3).standard_normal(shape).astype(dtype)
    rows, cols = np.empty(shape[0], dtype), np.empty(shape[1], dtype)
    row_sums(a, rows, "test")
    column_sums(a, cols, "test")
    tol = {"float32": 1e-4, "float64": 1e-11, "float16": 2e-2}[dtype]
    wide = a.astype(np.float64)
    np.testing.assert_allclose(rows, wide.sum(axis=1), rtol=tol, atol=tol * 300)
    np.testing.assert_allclose(cols, wide.sum(axis=0), rtol=tol, atol=tol * 300)


@pytest.mark.parametrize("layout", ["contiguous", "permuted", "1d"])
def test_batch_norm_forward_by_rows_matches_the_formula(layout):
    """native_batch_norm's x * alpha + beta over rows of C * L (contiguous) or broadcast
    (any other layout) gives (x - mean) / sqrt(var + eps) * weight + bias."""
    import inplace_tutorial as ipt
    from inplace_tutorial.nn import functional as F

    shape = (6, 4) if layout == "1d" else (6, 4, 3, 5)
    a = np.random.default_rng(4).standard_normal(shape).astype(np.float32)
    x = ipt.tensor(a)
    if layout == "permuted":
        x = ipt.tensor(np.ascontiguousarray(a.transpose(0, 2, 3, 1))).permute(0, 3, 1, 2)
    w, b = ipt.tensor(np.arange(1, 5, dtype=np.float32)), ipt.tensor(np.ones(4, np.float32))
    got = F.batch_norm(x, None, None, w, b, training=True, eps=1e-5).numpy()
    axes = (0,) + tuple(range(2, a.ndim))
    keep = (1, 4) + (1,) * (a.ndim - 2)
    want = (a - a.mean(axis=axes, keepdims=True)) / np.sqrt(a.var(axis=axes, keepdims=True)
                                                           + 1e-5)
    want = want * w.numpy().reshape(keep) + b.numpy().reshape(keep)
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-5)


def test_batch_norm_backward_by_rows_matches_the_broadcast_path():
    """NativeBatchNormBackward0's per-channel passes over rows of C * L (a contiguous input)
    give the broadcast path's values (a channels-last input takes that one)."""
    import inplace_tutorial as ipt
    from inplace_tutorial.nn import functional as F

    rng = np.random.default_rng(5)
    a = rng.standard_normal((6, 4, 3, 5))
    g = rng.standard_normal((6, 4, 3, 5))
    grads = []
    for permuted in (False, True):
        x = ipt.tensor(a, requires_grad=True)
        xin = x
        if permuted:
            xin = x.permute(0, 2, 3, 1).contiguous().permute(0, 3, 1, 2)
        w = ipt.tensor(np.arange(1.0, 5.0), requires_grad=True)
        b = ipt.tensor(np.zeros(4), requires_grad=True)
        F.batch_norm(xin, None, None, w, b, training=True).backward(ipt.tensor(g))
        grads.append((x.grad.numpy(), w.grad.numpy(), b.grad.numpy()))
    for got, want in zip(grads[0], grads[1], strict=True):
        np.testing.assert_allclose(got, want, rtol=1e-12, atol=1e-12)
