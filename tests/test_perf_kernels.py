"""Kernels rewritten for speed or memory (benchmarks/): the same bits as the plain NumPy
formula they replace, and no input-sized temporary where PyTorch's kernel makes none."""
from __future__ import annotations

import gc

import numpy as np
import pytest

import inplace_tutorial as ipt
from inplace_tutorial import memory
from inplace_tutorial.ops.tensor_iterator import chunk_len


def _plain_log_softmax(a: np.ndarray, dim: int) -> np.ndarray:
    """The formula as NumPy writes it, with an exp temporary: (x - max) - log(sum(exp(x - max)))."""
    shifted = a - np.max(a, axis=dim, keepdims=True)
    return shifted - np.log(np.sum(np.exp(shifted), axis=dim, keepdims=True))


# (shape, dim): a batch of class scores (in the workspace), rows too long for it, another dim
CASES = [((64, 10), 1), ((3, 5, 7), 0), ((2, 4, 5), 1), ((512, 1000), 1), ((1000, 300), 0),
         ((7,), 0)]


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


@pytest.mark.parametrize(("shape", "rows"), [((64, 10), 1), ((512, 1000), 2)])
def test_log_softmax_makes_no_input_sized_temporary(shape, rows):
    """PyTorch's kernel sums exp(x - max) as it goes: its peak is the output. The core's is
    the output plus one row buffer (the sums in the workspace) or two (rows too long)."""
    x = ipt.randn(*shape)
    assert (x.numel() <= chunk_len(np.float32)) == (rows == 1)
    gc.collect()
    memory.reset_peak_memory_stats()
    base = memory.memory_allocated()
    out = x.log_softmax(1)
    assert memory.max_memory_allocated() - base == 4 * (x.numel() + rows * shape[0])
    del out
