"""torch.searchsorted / bucketize, torch.isin and torch.bincount against torch 2.13.

searchsorted: 1-D and batched sequences, left/right (``right=`` and ``side=``), ``sorter``,
int32 indices, a number as the value; its checks in torch's order. bucketize: the same search
with 1-D boundaries. isin: bool marks, ``invert``, numbers on either side, NaN never found,
bool refused. bincount: int64 counts, weight sums (float32 weights in float32, others in
float64), ``minlength``, the empty input, and its refusals.
"""

import numpy as np
import pytest

from .harness import Registry, arr, catch, check_parity

pytestmark = pytest.mark.parity

prog = Registry()


def _observed(calls):
    return {name: catch(fn) for name, fn in calls.items()}


@prog
def searchsorted_forms(t):
    seq = t.tensor([1.0, 3.0, 3.0, 5.0, 7.0])
    vals = t.tensor([[0.0, 3.0, 6.0], [8.0, 1.0, 5.0]])
    rows = t.tensor([[1.0, 3.0, 5.0], [2.0, 4.0, 6.0]])
    return _observed({
        "left": lambda: t.searchsorted(seq, vals), "right": lambda: t.searchsorted(
            seq, vals, right=True), "side_right": lambda: t.searchsorted(seq, vals, side="right"),
        "side_left": lambda: t.searchsorted(seq, vals, side="left"),
        "int32": lambda: t.searchsorted(seq, vals, out_int32=True),
        "number": lambda: t.searchsorted(seq, 4), "number_right": lambda: t.searchsorted(
            seq, 3.0, right=True),
        "batched": lambda: t.searchsorted(rows, t.tensor([[2.0, 6.0], [2.0, 7.0]])),
        "sorter": lambda: t.searchsorted(t.tensor([5.0, 1.0, 3.0]), t.tensor([2.0, 4.0]),
                                         sorter=t.tensor([1, 2, 0])),
        "ints": lambda: t.searchsorted(t.arange(0, 10, 2), t.tensor([3, 4, 11])),
        "int_seq_float_values": lambda: t.searchsorted(t.tensor([1, 3]), t.tensor([2.0])),
        "strided": lambda: t.searchsorted(t.arange(10.0)[::2], t.tensor([[3.5], [8.0]]).t()),
        "empty_values": lambda: t.searchsorted(seq, t.zeros(0)),
        "right_and_side_right": lambda: t.searchsorted(seq, vals, right=True, side="right"),
        "side_right_right_false": lambda: t.searchsorted(seq, vals, right=False, side="right"),
    })


@prog
def searchsorted_errors(t):
    seq, vals = t.tensor([1.0, 3.0, 5.0]), t.tensor([2.0])
    return _observed({
        "side": lambda: t.searchsorted(seq, vals, side="up"),
        "opposites": lambda: t.searchsorted(seq, vals, right=True, side="left"),
        "scalar_sequence": lambda: t.searchsorted(t.tensor(1.0), vals),
        "mismatch": lambda: t.searchsorted(t.zeros(2, 2), t.zeros(3, 1)),
        "ranks": lambda: t.searchsorted(t.zeros(2, 2), t.zeros(2)),
        "sorter_size": lambda: t.searchsorted(seq, vals, sorter=t.tensor([0, 1])),
        "list": lambda: t.searchsorted([1.0, 2.0], vals), "none": lambda: t.searchsorted(seq, None),
        "side_int": lambda: t.searchsorted(seq, vals, side=1),
    })


@prog
def bucketize_forms_and_errors(t):
    b = t.tensor([1.0, 3.0, 5.0, 7.0])
    x = t.tensor([[0.0, 3.0, 6.0], [8.0, 1.0, 5.0]])
    return _observed({
        "left": lambda: t.bucketize(x, b), "right": lambda: t.bucketize(x, b, right=True),
        "int32": lambda: t.bucketize(x, b, out_int32=True), "number": lambda: t.bucketize(4, b),
        "keywords": lambda: t.bucketize(input=x, boundaries=b),
        "ints": lambda: t.bucketize(t.tensor([0, 4, 9]), t.tensor([1, 4, 8])),
        "boundaries_2d": lambda: t.bucketize(x, b.reshape(2, 2)),
        "boundaries_0d": lambda: t.bucketize(x, b[0]), "list": lambda: t.bucketize(x, [1.0]),
        "side": lambda: t.bucketize(x, b, side="right"),
    })


@prog
def isin_forms_and_errors(t):
    e = t.tensor([[1, 2], [3, 4]])
    f = t.tensor([1.0, float("nan"), 2.5, -0.0])
    return _observed({
        "ints": lambda: t.isin(e, t.tensor([2, 3, 9])),
        "invert": lambda: t.isin(e, t.tensor([2]), invert=True),
        "unique": lambda: t.isin(e, t.tensor([4, 1]), assume_unique=True),
        "number_first": lambda: t.isin(2, e), "number_second": lambda: t.isin(e, 3),
        "floats_ints": lambda: t.isin(f, t.tensor([1, 0])),
        "nan": lambda: t.isin(f, t.tensor([float("nan")])),
        "zero_signs": lambda: t.isin(f, t.tensor([0.0])),
        "empty": lambda: t.isin(t.zeros(0), f), "empty_tests": lambda: t.isin(f, t.zeros(0)),
        "half": lambda: t.isin(f.half(), t.tensor([2.5])),
        "bool": lambda: t.isin(t.tensor([True]), t.tensor([True])),
        "bool_tests": lambda: t.isin(e, e > 2), "numbers": lambda: t.isin(1, 2),
        "list": lambda: t.isin(e, [1, 2]),
    })


@prog
def bincount_forms_and_errors(t):
    x = t.tensor([1, 3, 3, 0, 5])
    w = t.tensor(arr(5, seed=1))
    return _observed({
        "counts": lambda: t.bincount(x), "weights": lambda: x.bincount(w),
        "minlength": lambda: x.bincount(minlength=8), "short_minlength": lambda: x.bincount(
            None, 2),
        "double_weights": lambda: x.bincount(w.double()), "half_weights": lambda: x.bincount(
            w.half()), "int_weights": lambda: x.bincount(x), "bool_weights": lambda: x.bincount(
            x > 1),
        "int8": lambda: t.bincount(x.to(t.int8)), "uint8": lambda: t.bincount(x.to(t.uint8)),
        "strided": lambda: t.bincount(t.arange(10)[::3]),
        "empty": lambda: t.bincount(t.tensor([], dtype=t.int64), minlength=3),
        "empty_weights": lambda: t.bincount(t.tensor([], dtype=t.int64), t.zeros(0)),
        "many": lambda: t.bincount(t.tensor(arr(200, seed=2, dtype=np.int64, low=0, high=7)),
                                   t.tensor(arr(200, seed=3))),
        "negative": lambda: t.bincount(t.tensor([-1, 2])),
        "matrix": lambda: t.bincount(x.reshape(1, 5)), "float": lambda: t.bincount(w),
        "bool": lambda: t.bincount(x > 2), "weights_length": lambda: x.bincount(w[:3]),
        "minlength_negative": lambda: x.bincount(minlength=-1),
        "minlength_float": lambda: x.bincount(minlength=2.0),
        "weights_list": lambda: x.bincount([1.0] * 5), "list": lambda: t.bincount([1, 2]),
    })


@pytest.mark.parametrize("program", prog.params())
def test_bucketize_bincount_parity(program, torch_mod, core):
    check_parity(program, torch_mod, core)
