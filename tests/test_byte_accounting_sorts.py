"""Every byte counted in sorts along long lines: sort, argsort, topk, kthvalue, median,
nanmedian and mode over lines longer
than the 512 elements one NumPy call may return, in several dtypes and layouts, with few
ties and with lines full of ties (where std::sort's order is replayed), forward and backward;
and the sorted unique index of IndexFillBackward1.

Measured as in test_byte_accounting.py (interval by interval, against a run at small shapes
for the Python objects): before, a line of 4096 left about 97 KB uncounted (np.argsort's index
array, the gathered values, the tie masks, the replay's position arrays).
"""
from __future__ import annotations

import numpy as np
import pytest
from byte_intervals import check, fwd_bwd, measure, remeasured, set_floor, tracing

import inplace_tutorial as ipt


@pytest.fixture(scope="module", autouse=True)
def traced():
    with tracing():
        yield


def _values(shape, dtype, levels):
    """``levels`` distinct values (ties everywhere; floats with NaN, -0.0 and 0.0 among them),
    or (``levels=None``) uniform floats, a few ties at most."""
    rng = np.random.default_rng(0)
    if levels is None:
        return ipt.tensor(rng.uniform(-1, 1, shape)).to(dtype)
    a = rng.integers(0, levels, size=shape).astype(np.float64) - levels // 2
    if dtype.is_floating_point:
        a[a == 1] = np.nan
        a[a == 2] = -0.0
    return ipt.tensor(a).to(dtype)


F32, F64, F16, BF16 = ipt.float32, ipt.float64, ipt.float16, ipt.bfloat16
I64, I32, I8, U8 = ipt.int64, ipt.int32, ipt.int8, ipt.uint8
LONG, TIED = (16, 4096), (4, 4096)

# name -> (function of the tensor, dtype, levels (None: few ties), large shape)
SORTS = {
    "sort float32": (lambda a: a.sort(1), F32, None, LONG),
    "sort float64 descending": (lambda a: a.sort(1, descending=True), F64, None, LONG),
    "sort float16 stable": (lambda a: a.sort(dim=1, stable=True), F16, None, LONG),
    "sort bfloat16": (lambda a: a.sort(1), BF16, None, TIED),
    "sort float32 ties, NaN and zeros": (lambda a: a.sort(1), F32, 7, TIED),
    "sort float64 ties descending": (lambda a: a.sort(1, descending=True), F64, 5, TIED),
    "sort int64 ties": (lambda a: a.sort(1), I64, 5, TIED),
    "sort int8 ties, lines along dim 0": (lambda a: a.t().contiguous().sort(0), I8, 3, TIED),
    "sort uint8 ties, strided view": (lambda a: a[:, ::2].sort(1), U8, 200, (4, 8192)),
    "argsort int32": (lambda a: a.argsort(1), I32, 1000, TIED),
    "argsort float16 ties descending": (lambda a: a.argsort(1, descending=True), F16, 9,
                                        TIED),
    "argsort bool": (lambda a: (a > 0).argsort(1), F32, None, TIED),
    "topk float32 partial_sort": (lambda a: a.topk(5, 1), F32, None, LONG),
    "topk int64 ties, nth_element sorted": (lambda a: a.topk(a.shape[1] // 3, 1), I64, 4,
                                            TIED),
    "topk float32 ties unsorted smallest": (lambda a: a.topk(a.shape[1] // 3, 1, largest=False,
                                                             sorted=False), F32, 7, TIED),
    # selection: the stable order, then quick_select / std::nth_element on tied lines
    "kthvalue float32": (lambda a: a.kthvalue(a.shape[1] // 3, 1), F32, None, LONG),
    "kthvalue int64 ties": (lambda a: a.kthvalue(a.shape[1] // 3, 1), I64, 5, TIED),
    "kthvalue float16 ties, lines along dim 0": (
        lambda a: a.t().contiguous().kthvalue(a.shape[1] // 2, 0), F16, 9, TIED),
    "kthvalue int64 short tied lines (replayed 128 at a time)": (
        lambda a: a.kthvalue(4, 1), I64, 3, (8192, 9)),
    "median float64 ties": (lambda a: a.median(1), F64, 5, TIED),
    "nanmedian float32 ties and NaN": (lambda a: a.nanmedian(1), F32, 7, TIED),
    "nanmedian of all zeros (which zero: nth_element)": (lambda a: (a * 0).nanmedian(), F32,
                                                         7, TIED),
    # mode: std::sort's order (replayed), then the first longest run of every line at once
    "mode int64 ties": (lambda a: a.mode(1), I64, 5, TIED),
    "mode float32, lines along dim 0": (lambda a: a.t().contiguous().mode(0), F32, None, LONG),
    "mode int8 ties, keepdim": (lambda a: a.mode(1, keepdim=True), I8, 3, TIED),
    # lines holding NaN: std::sort's arrangement under ``<`` replayed on the values' ranks
    "mode float32 ties, NaN and zeros": (lambda a: a.mode(1), F32, 7, TIED),
    "mode bfloat16 ties and NaN, lines along dim 0": (lambda a: a.t().contiguous().mode(0),
                                                      BF16, 9, TIED),
    "mode float16 short lines with NaN (a chunk's at once)": (lambda a: a.mode(1), F16, 7,
                                                              (8192, 12)),
    "mode float64 few ties, one NaN a line": (lambda a: a.index_fill(1, _ONE, float("nan"))
                                              .mode(1), F64, None, LONG),
}


_ONE = ipt.tensor([3])


@pytest.mark.parametrize("name", sorted(SORTS))
@remeasured
def test_sorts_of_long_lines_count_their_bytes(name):
    fn, dtype, levels, shape = SORTS[name]
    set_floor()
    runs = []
    for size in [(2, 8), shape]:
        a = _values(size, dtype, levels)
        fn(a)  # warm-up
        runs.append(measure(lambda a=a: fn(a))[1])
    assert runs[1].peak > 1 << 15, runs  # the large run really allocates
    check(name, *runs)


# with autograd: values and the gradient scattered back along the long lines
GRADS = {
    # IndexFillBackward1's index.unique(): an index of 2 x 4096 entries, each twice
    "index_fill tensor value backward, long index": lambda a: (a * 1).index_fill_(
        1, _twice(a.shape[1]), a[0, 0]),
    "index_fill backward, negative long index": lambda a: (a * 1).index_fill_(
        1, _twice(a.shape[1], -a.shape[1]), 0.5),
    "sort backward": lambda a: a.sort(1)[0],
    "sort dim 0 backward": lambda a: a.t().sort(0, descending=True)[0],
    "topk backward": lambda a: a.topk(a.shape[1] // 2, 1)[0],
}


_TWICE: dict = {}


def _twice(n, start=0):
    """start, start + 1, ... start + n - 1, twice over: made once, outside the measured
    runs."""
    if (n, start) not in _TWICE:
        _TWICE[n, start] = ipt.tensor(np.arange(2 * n) % n + start)
    return _TWICE[n, start]


@pytest.mark.parametrize("name", sorted(GRADS))
@remeasured
def test_sort_backward_on_long_lines_counts_its_bytes(name):
    fn = GRADS[name]
    set_floor()
    runs = [fwd_bwd(fn, [ipt.tensor(np.random.default_rng(0).uniform(-1, 1, shape),
                                    requires_grad=True)]) for shape in [(2, 8), LONG]]
    check(f"{name} forward", runs[0][0], runs[1][0])
    check(f"{name} backward", runs[0][1], runs[1][1])
