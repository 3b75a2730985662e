"""mode of lines holding NaN, on torch 2.13 and the core.

Under ``<`` NaN is neither smaller nor larger than anything, so where std::sort leaves the
pairs of such a line is the algorithm's alone, and with it which index mode reports
(ops/mode.py replays libstdc++'s introsort on keys that keep the NaN). Lines short (the
insertion sort alone) and long (partitions, NaN pivots, the final insertion sort), few and many
distinct values, few and many NaN, -0.0 and 0.0, every float dtype, along the last dim and
along dim 0. Indices are compared exactly, the sign of every zero through ``1 / v < 0``.
"""

import numpy as np
import pytest

from .harness import Registry, check_parity

pytestmark = pytest.mark.parity

prog = Registry()


def _nan_lines(rows, n, levels, share, seed):
    """``rows`` lines of ``n``: ``levels`` distinct numbers (0.0 and -0.0 mixed), a share of
    NaN, at least one NaN a line."""
    rng = np.random.default_rng(seed)
    a = rng.integers(0, levels, (rows, n)).astype(np.float64) - levels // 2
    a[a == 0] = np.where(rng.random(int((a == 0).sum())) < 0.5, -0.0, 0.0)
    a[rng.random(a.shape) < share] = np.nan
    a[np.arange(rows), rng.integers(0, n, rows)] = np.nan
    return a


def _mode(t, x, dim):
    r = x.mode(dim)
    return (r.indices, r.values, 1 / r.values < 0)


@prog
def mode_nan_short_lines(t):
    out = {}
    for n in (2, 3, 7, 15, 16):
        for levels, share in ((2, 0.3), (5, 0.1), (100, 0.5)):
            a = _nan_lines(12, n, levels, share, seed=n * 100 + levels)
            for dt in (t.float32, t.float64, t.float16, t.bfloat16):
                out[f"{n}_{levels}_{share}_{dt}"] = _mode(t, t.tensor(a).to(dt), 1)
    return out


@prog
def mode_nan_long_lines(t):
    out = {}
    for n in (17, 40, 129, 600, 2100):
        for levels, share in ((3, 0.05), (9, 0.4), (5000, 0.02), (5000, 0.9)):
            a = _nan_lines(4, n, levels, share, seed=n + levels)
            for dt in (t.float32, t.float64, t.float16, t.bfloat16):
                x = t.tensor(a).to(dt)
                out[f"{n}_{levels}_{share}_{dt}"] = _mode(t, x, 1)
            out[f"{n}_{levels}_{share}_dim0"] = _mode(t, t.tensor(a.T.copy()), 0)
    all_nan = t.tensor(np.full((2, 300), np.nan))
    out["all_nan"] = _mode(t, all_nan, 1)
    uniform = np.random.default_rng(3).uniform(-1, 1, (3, 5000))
    uniform[:, ::97] = np.nan
    out["uniform_few_nan"] = _mode(t, t.tensor(uniform).float(), 1)
    return out


@pytest.mark.parametrize("prog", prog.params())
def test_mode_nan_parity(prog, torch_mod, core):
    check_parity(prog, torch_mod, core)
