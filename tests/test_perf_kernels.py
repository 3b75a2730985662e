"""Kernels rewritten for speed or memory (benchmarks/): the same bits as the plain NumPy
formula they replace, and no input-sized temporary where PyTorch's kernel makes none."""
from __future__ import annotations

import gc
import math

import numpy as np
import pytest

import inplace_tutorial as ipt
from inplace_tutorial import memory
from inplace_tutorial.ops.workspace import chunk_len


def _plain_log_softmax(a: np.ndarray, dim: int) -> np.ndarray:
    """The formula as NumPy writes it, with an exp temporary: (x - max) - log(sum(exp(x - max)))."""
    shifted = a - np.max(a, axis=dim, keepdims=True)
    return shifted - np.log(np.sum(np.exp(shifted), axis=dim, keepdims=True))


# (shape, dim): a batch of class scores (in the workspace), rows too long for it, another dim
CASES = [((64, 10), 1), ((3, 5, 7), 0), ((2, 4, 5), 1), ((512, 1000), 1), ((1000, 300), 0),
         ((7,), 0), ((8, 64, 700), 2)]


@pytest.mark.parametrize("dtype", ["float32", "float64", "float16"])
@pytest.mark.parametrize(("shape", "dim"), CASES)
def test_log_softmax_gives_the_plain_formulas_bits(shape, dim, dtype):
    a = np.random.default_rng(0).standard_normal(shape).astype(dtype) * 4
    a.reshape(-1)[::17] = np.inf if dtype != "float16" else a.reshape(-1)[::17]
    a.reshape(-1)[5::23] = np.nan
    with np.errstate(all="ignore"):
        want = _plain_log_softmax(a, dim)
    got = ipt.tensor(a).log_softmax(dim).numpy()
    np.testing.assert_array_equal(got.view(f"u{a.itemsize}"), want.view(f"u{a.itemsize}"))


@pytest.mark.parametrize(("shape", "dim", "rows"), [((64, 10), 1, 1), ((512, 1000), 1, 1),
                                                     ((1000, 300), 0, 2)])
def test_log_softmax_makes_no_input_sized_temporary(shape, dim, rows):
    """PyTorch's kernel sums exp(x - max) as it goes: its peak is the output. The core's is
    the output plus one row buffer (the sums in the workspace, all at once or a block of
    last-dim rows at a time) or two (rows along another dim, too many for it)."""
    x = ipt.randn(*shape)
    assert (x.numel() <= chunk_len(np.float32)) == (shape == (64, 10))
    gc.collect()
    memory.reset_peak_memory_stats()
    base = memory.memory_allocated()
    out = x.log_softmax(dim)
    row = x.numel() // shape[dim]
    assert memory.max_memory_allocated() - base == 4 * (x.numel() + rows * row)
    del out


# nll_loss's usual call (every target a class, no weight, mean or sum) skips the masks and
# index buffers of the general path: same bits, fewer counted buffers. An ignore_index inside
# the targets' range that no target has sends the same call down the general path.
@pytest.mark.parametrize("dtype", ["float32", "float64", "float16"])
@pytest.mark.parametrize("reduction", ["mean", "sum"])
@pytest.mark.parametrize("shape", [(64, 10), (5, 3), (300, 7)])
def test_nll_loss_usual_call_matches_the_general_path(shape, reduction, dtype):
    n, c = shape
    scores = np.random.default_rng(1).standard_normal((n, c + 1)).astype(dtype)[:, :c]
    target = np.arange(n) % (c - 1)  # class c - 1 never appears: an ignore_index to route
    results = []
    for ignore_index in (-100, c - 1):
        x = ipt.tensor(scores, requires_grad=True)
        loss = ipt.nn.functional.nll_loss(x, ipt.tensor(target), reduction=reduction,
                                          ignore_index=ignore_index)
        total_weight = loss.grad_fn._saved_total_weight.numpy().copy()
        loss.backward()
        results.append((loss.detach().numpy().copy(), x.grad.numpy().copy(), total_weight))
    (l1, g1, w1), (l2, g2, w2) = results
    bits = f"u{np.dtype(dtype).itemsize}"
    np.testing.assert_array_equal(l1.view(bits), l2.view(bits))
    np.testing.assert_array_equal(g1.view(bits), g2.view(bits))
    np.testing.assert_array_equal(w1, w2)


def test_nll_loss_usual_call_allocates_only_its_results():
    x = ipt.randn(64, 10).log_softmax(1).requires_grad_()
    t = ipt.tensor(np.arange(64) % 10)
    gc.collect()
    memory.reset_peak_memory_stats()
    base = memory.memory_allocated()
    loss = ipt.nn.functional.nll_loss(x, t)
    assert memory.max_memory_allocated() - base == 4 + 4  # the loss and total_weight
    loss.backward()
    assert memory.max_memory_allocated() - base == 4 + 4 + 4 + 64 * 10 * 4  # + grad, x.grad


@pytest.mark.parametrize("bad", [10, -1])
def test_nll_loss_out_of_range_target_still_raises(bad):
    t = np.arange(64) % 10
    t[7] = bad
    with pytest.raises(IndexError, match=f"Target {bad} is out of bounds."):
        ipt.nn.functional.nll_loss(ipt.randn(64, 10), ipt.tensor(t))


def _plain_gelu_tanh_grad(x: np.ndarray, g: np.ndarray) -> np.ndarray:
    """GeluBackward0 (approximate='tanh') as whole-array NumPy steps, in the kernel's order."""
    k, c = math.sqrt(2.0 / math.pi), 0.044715  # Python floats: computed in the array dtype
    o = x * x
    o *= c
    o += 1.0
    o *= x
    o *= k
    np.tanh(o, out=o)
    t = o * o
    np.subtract(1.0, t, out=t)
    t *= x
    t *= 0.5 * k
    o += 1.0
    o *= 0.5
    t2 = x * x
    t2 *= 3 * c
    t2 += 1.0
    t *= t2
    o += t
    o *= g
    return o


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("shape", [(16, 64, 256), (3, 7), (700, 300)])
def test_gelu_tanh_backward_in_chunks_gives_the_whole_array_bits(shape, dtype):
    rng = np.random.default_rng(2)
    x = (rng.standard_normal(shape) * 3).astype(dtype)
    g = rng.standard_normal(shape).astype(dtype)
    xt = ipt.tensor(x).requires_grad_()
    src = xt.t() if len(shape) == 2 else xt  # a transposed view: strided chunks
    out = ipt.nn.functional.gelu(src, approximate="tanh")
    out.backward(ipt.tensor(g.T.copy() if len(shape) == 2 else g))
    want = _plain_gelu_tanh_grad(x.T if len(shape) == 2 else x, g.T if len(shape) == 2 else g)
    want = want.T if len(shape) == 2 else want
    bits = f"u{np.dtype(dtype).itemsize}"
    np.testing.assert_array_equal(xt.grad.numpy().view(bits), want.view(bits))


def test_gelu_tanh_backward_makes_no_input_sized_temporary():
    x = ipt.randn(16, 64, 256, requires_grad=True)
    y = ipt.nn.functional.gelu(x, approximate="tanh")
    g = ipt.randn(16, 64, 256)
    gc.collect()
    memory.reset_peak_memory_stats()
    base = memory.memory_allocated()
    y.backward(g)
    assert memory.max_memory_allocated() - base == 4 * x.numel()  # x.grad only
