"""Numerics of issue 10 on torch 2.13 and the core: which of several equal values sort and
topk put first (values AND indices, with NaN, -0.0, every dtype, stable or not); how wide
cumsum/cumprod's running value is.

Integer indices are compared exactly, so a tie put in another order fails the program; float
results are compared bit for bit through ``bits``.
"""

import numpy as np
import pytest

from .harness import Registry, arr, check_parity

pytestmark = pytest.mark.parity

prog = Registry()


def bits(x):
    """The bit patterns of a float tensor's values (float16/bfloat16 widened exactly to
    float32 first): the harness compares arrays of integers exactly."""
    a = x.detach()
    a = (a.double() if str(a.dtype) == "torch.float64" else a.float()).numpy()
    return a.view(np.int64 if a.dtype == np.float64 else np.int32).copy()


def _ties(*shape, seed=0, levels=4, nan=0.0, negzero=0.0):
    """float32 values from a few levels (so most values tie), some NaN and -0.0 if asked."""
    rng = np.random.default_rng(seed)
    a = rng.integers(0, levels, size=shape).astype(np.float32)
    a[rng.random(shape) < nan] = np.nan
    a[(a == 0) & (rng.random(shape) < negzero)] = -0.0
    return a


# ======================================================================================
# sort / argsort: std::sort (stable=False, the default) or std::stable_sort


@prog
def sort_ties_std_sort_order(t):
    out = {}
    for n in (5, 16, 17, 40, 333, 2000):
        x = t.tensor(_ties(n, seed=n, nan=0.1, negzero=0.5))
        out[n] = {
            "asc": x.sort(), "desc": x.sort(descending=True),
            "unstable": x.sort(stable=False, descending=True),
            "stable": x.sort(stable=True), "stable_desc": x.sort(stable=True, descending=True),
            "argsort": x.argsort(), "argsort_desc": x.argsort(descending=True),
            "argsort_stable": x.argsort(stable=True, descending=True),
        }
    return out


@prog
def sort_ties_along_each_dim(t):
    x = t.tensor(_ties(6, 40, 30, seed=3, levels=3, nan=0.05))
    return {f"d{d}_{desc}": x.sort(d, desc) for d in (0, 1, 2) for desc in (False, True)} | {
        "t": x.transpose(0, 2).sort(1),
        "slice": x[:, ::2].sort(1, True),
    }


@prog
def sort_ties_every_dtype(t):
    a = _ties(4, 300, seed=5, levels=5)
    out = {}
    for name in ("float64", "float16", "bfloat16", "int64", "int32", "int16", "int8", "uint8",
                 "bool"):
        x = t.tensor(a).to(getattr(t, name))
        out[name] = (x.sort(), x.sort(0, True), x.argsort(1, True))
    return out


@prog
def sort_patterns(t):
    """Sorted, reversed, organ-pipe and saw-tooth lines: the pivots' worst cases."""
    n = 3000
    pats = {
        "sorted": np.arange(n) // 7, "reversed": np.arange(n)[::-1] // 7,
        "organ": np.concatenate([np.arange(n // 2), np.arange(n // 2)[::-1]]) // 3,
        "saw": np.arange(n) % 17, "same": np.zeros(n),
    }
    return {k: (t.tensor(p.astype(np.float32)).sort(), t.tensor(p.astype(np.float32)).sort(
        descending=True)) for k, p in pats.items()}


@prog
def sort_long_integer_radix(t):
    """A 1-D integer tensor of 32768 or more elements sorted ascending goes to FBGEMM's
    (stable) radix sort; shorter, descending or 2-D ones to std::sort."""
    a = np.random.default_rng(7).integers(0, 3, 33000)
    x = t.tensor(a)
    return {
        "radix": x.sort().indices, "int8": x.to(t.int8).argsort(),
        "desc": x.sort(descending=True).indices, "short": x[:32767].argsort(),
        "bool": x.bool().argsort(), "float": x.float().argsort(),
    }


@prog
def sort_expanded_line_keeps_index_order(t):
    x = t.tensor([2.0]).expand(50)
    y = t.tensor(_ties(40, 1, seed=2)).expand(40, 30)
    return {"sort": x.sort(), "argsort": x.argsort(descending=True), "rows": y.sort(1),
            "cols": y.sort(0)}


# ======================================================================================
# topk: std::partial_sort (k * 64 <= n) or std::nth_element (+ std::sort of k - 1)


@prog
def topk_ties_order(t):
    out = {}
    for n in (10, 64, 65, 200, 3000):
        x = t.tensor(_ties(n, seed=n + 1, nan=0.05, negzero=0.5))
        for k in sorted({1, 2, n // 64, n // 64 + 1, n // 3, n - 1, n} - {0}):
            out[f"{n}_{k}"] = (x.topk(k), x.topk(k, largest=False),
                               x.topk(k, sorted=False), x.topk(k, largest=False, sorted=False))
    return out


@prog
def topk_unsorted_without_ties(t):
    """sorted=False leaves std::nth_element's arrangement, ties or not."""
    x = t.tensor(arr(500, seed=3))
    return {k: (x.topk(k, sorted=False), x.topk(k, largest=False, sorted=False))
            for k in (3, 7, 8, 9, 100, 499)}


@prog
def topk_ties_dims_and_dtypes(t):
    a = _ties(5, 120, seed=9, levels=3)
    out = {}
    for name in ("float32", "float16", "bfloat16", "int64", "int8", "uint8"):
        x = t.tensor(a).to(getattr(t, name))
        out[name] = (x.topk(30), x.topk(2, 0, largest=False), x.t().topk(1, 0, sorted=False))
    return out


# ======================================================================================
# cumsum / cumprod: the running value is acc_type<T, false> (double for float)


@prog
def cumsum_float32_accumulates_in_float64(t):
    """100000 float32 terms: summed in float32 the result drifts by many units in the last
    place; PyTorch's CPU loop keeps a double and rounds each output once."""
    x = t.tensor(arr(3, 100000, seed=1, low=-1.0, high=1.0))
    y = t.tensor(arr(40000, 3, seed=2, low=0.0, high=1.0))
    z = x.clone()
    z.cumsum_(1)
    return {"d1": bits(x.cumsum(1)), "d0": bits(y.cumsum(0)), "t": bits(y.t().cumsum(1)),
            "inplace": bits(z), "slice": bits(x[:, ::3].cumsum(-1)),
            "module": bits(t.cumsum(y, dim=0)),
            "from_double": bits(x.double().cumsum(1, dtype=t.float32)),
            "from_half": bits(x.half().cumsum(1, dtype=t.float32))}


@prog
def cumprod_float32_accumulates_in_float64(t):
    x = t.tensor(1 + arr(2, 60000, seed=3, low=-1e-3, high=1e-3))
    z = x.clone()
    z.cumprod_(1)
    return {"d1": bits(x.cumprod(1)), "d0": bits(x.t().cumprod(0)), "inplace": bits(z),
            "long": bits(t.tensor(1 + arr(5, 7, 3000, seed=4, low=-1e-3, high=1e-3)).cumprod(2))}


@prog
def cumsum_cumprod_reduced_accumulate_in_float32(t):
    x = t.tensor(arr(4, 5000, seed=5, low=-1.0, high=1.0))
    out = {}
    for name in ("float16", "bfloat16"):
        h = x.to(getattr(t, name))
        p = (1 + x * 1e-3).to(getattr(t, name))
        hi = h.clone()
        hi.cumsum_(0)
        out[name] = (bits(h.cumsum(1)), bits(h.cumsum(0)), bits(p.cumprod(1)), bits(hi))
    out["float64"] = bits(x.double().cumsum(1))
    return out


@prog
def cumsum_cumprod_backward_float32(t):
    x = t.tensor(1 + arr(2, 30000, seed=6, low=-1e-3, high=1e-3), requires_grad=True)
    g = t.tensor(arr(2, 30000, seed=7, low=-1.0, high=1.0))
    x.cumsum(1).backward(g)
    gs = x.grad.clone()
    x.grad = None
    x.cumprod(1).backward(g)
    return {"cumsum": bits(gs), "cumprod": bits(x.grad)}


@pytest.mark.parametrize("prog", prog.params())
def test_numerics_parity(prog, torch_mod, core):
    check_parity(prog, torch_mod, core)
