"""sort, argsort and topk along lines longer than 512 elements, on torch 2.13 and the core.

A line longer than 512 elements is sorted in place in counted memory (sorting.py's
_order_long: ranks by binary search, then int64 (rank, index) pairs), and the replay of
std::sort / partial_sort / nth_element on lines with ties works on counted buffers piece by
piece (_std_sort.py). These programs check that the order equal values come out in is still
torch's: lines full of ties in every dtype, NaN, -0.0 and 0.0 among them, along the last dim,
along dim 0 (strided lines) and on a strided view. Indices are compared exactly; values
through the harness, and the sign of every zero through ``1 / v < 0``.
"""

import numpy as np
import pytest

from .harness import Registry, check_parity

pytestmark = pytest.mark.parity

prog = Registry()


def _levels(shape, levels, seed, dtype):
    """Values drawn from ``levels`` distinct numbers (ties everywhere); floats also get NaN,
    -0.0 and 0.0."""
    rng = np.random.default_rng(seed)
    a = rng.integers(0, levels, size=shape)
    if np.dtype(dtype).kind != "f":
        return (a % 2 == 0) if dtype is bool else a.astype(dtype)
    a = a.astype(np.float64) - levels // 2
    a[a == 1] = np.nan
    a[a == 2] = -0.0
    return a.astype(dtype)


def _zero_signs(t, v):
    """Where a float result holds -0.0 (None for integer results)."""
    return (1 / v < 0) if v.is_floating_point() else None


_FLOAT_CASES = [("float32", 7), ("float64", 5), ("float16", 9), ("float32", 3000)]
_INT_CASES = [("int64", 4), ("int8", 3), ("uint8", 200), ("int32", 40), ("bool", 2)]


def _inputs(t):
    out = {}
    for i, (name, levels) in enumerate(_FLOAT_CASES + _INT_CASES):
        dtype = bool if name == "bool" else getattr(np, name)
        out[f"{name}_{levels}"] = t.tensor(_levels((3, 1100), levels, i, dtype))
    return out


@prog
def long_sort_and_argsort(t):
    out = {}
    for name, x in _inputs(t).items():
        for desc in (False, True):
            for stable in (False, True):
                r = x.sort(dim=1, descending=desc, stable=stable)
                out[f"{name}_{desc}_{stable}"] = (r.indices, r.values, _zero_signs(t, r.values))
            out[f"{name}_{desc}_argsort"] = x.argsort(1, descending=desc)
    return out


@prog
def long_sort_strided_lines(t):
    out = {}
    for name, x in _inputs(t).items():
        for desc in (False, True):
            r = x.t().contiguous().sort(0, descending=desc)  # lines with stride 3
            out[f"{name}_{desc}_dim0"] = (r.indices, r.values, _zero_signs(t, r.values))
            r = x[:, ::2].sort(1, descending=desc)  # a strided view
            out[f"{name}_{desc}_view"] = (r.indices, r.values, _zero_signs(t, r.values))
    return out


@prog
def long_topk(t):
    out = {}
    for name, x in _inputs(t).items():
        if name.startswith("bool"):
            continue  # topk refuses bool
        n = x.shape[1]
        for k in (1, 5, n // 64, n // 64 + 1, n // 3, n):
            for largest in (False, True):
                for sorted_ in (False, True):
                    r = x.topk(k, 1, largest=largest, sorted=sorted_)
                    out[f"{name}_{k}_{largest}_{sorted_}"] = (
                        r.indices, r.values, _zero_signs(t, r.values))
    return out


@prog
def long_sort_random_floats(t):
    """Few ties: a couple of equal values per line among thousands (float32 and float16),
    and one line of 6000."""
    rng = np.random.default_rng(7)
    out = {}
    for name, a in [("f32", rng.uniform(0, 1, (4, 4096)).astype(np.float32)),
                    ("f16", rng.uniform(0, 1, (2, 3000)).astype(np.float16)),
                    ("one", rng.uniform(-1, 1, 6000).astype(np.float32))]:
        x = t.tensor(a)
        for desc in (False, True):
            r = x.sort(-1, descending=desc)
            out[f"{name}_{desc}"] = (r.indices, r.values)
        out[f"{name}_topk"] = x.topk(700, -1, sorted=False).indices
    return out


@prog
def long_kthvalue_median_nanmedian(t):
    """quick_select (kthvalue), the stable pick (median), std::nth_element (nanmedian's
    all-NaN lines) and std::sort's runs (mode) on lines of 1100 full of ties; which of equal
    values is picked shows in the index and in the zero's sign."""
    out = {}
    for name, x in _inputs(t).items():
        if name.startswith("bool"):
            continue  # kthvalue and median refuse bool
        n = x.shape[1]
        for k in (1, 2, n // 3, n // 2, n - 1, n):
            r = x.kthvalue(k, 1)
            out[f"{name}_kth_{k}"] = (r.indices, r.values, _zero_signs(t, r.values))
        r = x.t().kthvalue(n // 4, 0)  # strided lines
        out[f"{name}_kth_dim0"] = (r.indices, r.values, _zero_signs(t, r.values))
        for op in ("median", "nanmedian", "mode"):
            r = getattr(x, op)(1)
            out[f"{name}_{op}"] = (r.indices, r.values, _zero_signs(t, r.values))
    for name, x in _inputs(t).items():  # mode along strided lines, and of a whole line
        r = x.t().mode(0)
        out[f"{name}_mode_dim0"] = (r.indices, r.values, _zero_signs(t, r.values))
        r = x.reshape(-1).mode()
        out[f"{name}_mode_flat"] = (r.indices, r.values, _zero_signs(t, r.values))
    nan_rows = t.tensor(np.full((2, 700), np.nan, dtype=np.float32))
    r = nan_rows.nanmedian(1)
    out["all_nan_rows"] = (r.indices, r.values)
    zeros = t.tensor(_levels((3000,), 3, 5, np.float32) * 0)  # 0.0 and -0.0 (and NaN)
    out["zeros_median_all"] = (zeros.nanmedian(), _zero_signs(t, zeros.nanmedian()))
    return out


@pytest.mark.parametrize("prog", prog.params())
def test_sort_long_lines_parity(prog, torch_mod, core):
    check_parity(prog, torch_mod, core)
