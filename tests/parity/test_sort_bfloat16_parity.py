"""sort, argsort and topk of bfloat16 lines that hold NaN, on torch 2.13 and the core.

NumPy's sort takes bfloat16's comparison from ml_dtypes, where NaN is neither smaller nor
larger than anything, so a line with a NaN came back barely sorted; the core now sorts
bfloat16 lines as float32 (exact), and NaN goes last as for every other float type (first
when descending). Indices are compared exactly; values through the harness (NaN equals NaN).
"""

import numpy as np
import pytest

from .harness import Registry, check_parity

pytestmark = pytest.mark.parity

prog = Registry()


def _with_nan(*shape, seed=0):
    """float32 values from five levels, with NaN, 0.0 and -0.0 among them (ties everywhere)."""
    rng = np.random.default_rng(seed)
    a = rng.integers(0, 6, size=shape).astype(np.float32)
    a[a == 5] = np.nan
    a[a == 4] = -0.0
    a[a == 3] = 0.0
    return a


@prog
def bfloat16_sort_with_nan(t):
    out = {}
    for shape in [(7, 40), (3, 600), (50, 9), (2000,)]:
        x = t.tensor(_with_nan(*shape, seed=len(shape) + shape[0])).to(t.bfloat16)
        for d in range(x.dim()):
            for desc in (False, True):
                for stable in (False, True):
                    r = x.sort(dim=d, descending=desc, stable=stable)
                    out[f"{shape}_{d}_{desc}_{stable}"] = (r.indices, r.values.float())
                out[f"{shape}_{d}_{desc}_argsort"] = x.argsort(d, descending=desc)
    return out


@prog
def bfloat16_topk_with_nan(t):
    out = {}
    for shape in [(7, 40), (3, 600), (2000,)]:
        x = t.tensor(_with_nan(*shape, seed=shape[0])).to(t.bfloat16)
        n = shape[-1]
        for k in sorted({1, 2, n // 64 + 1, n // 3, n}):
            for largest in (False, True):
                for sorted_ in (False, True):
                    r = x.topk(k, -1, largest=largest, sorted=sorted_)
                    out[f"{shape}_{k}_{largest}_{sorted_}"] = (r.indices, r.values.float())
    return out


@pytest.mark.parametrize("prog", prog.params())
def test_sort_bfloat16_parity(prog, torch_mod, core):
    check_parity(prog, torch_mod, core)
