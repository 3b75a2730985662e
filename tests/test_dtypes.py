"""The promotion table, without PyTorch: tiers (dimensioned > zero-dim > Python scalar),
categories (bool < int < float), and the in-place rule that self's dtype never changes."""
from __future__ import annotations

import pytest

import inplace_tutorial as ipt
from inplace_tutorial import dtypes

F32, F64, I64, B = ipt.float32, ipt.float64, ipt.int64, ipt.bool


@pytest.mark.parametrize(("a", "b", "expect"), [
    (ipt.tensor([1, 2]), 1.5, F32),                        # int tensor + Python float
    (ipt.tensor([1, 2]), 2, I64),
    (ipt.tensor([True]), 1, I64),
    (ipt.tensor([True]), True, B),
    (ipt.tensor([1.0]), ipt.tensor(2.0, dtype=F64), F32),  # a 0-dim tensor can't widen floats
    (ipt.tensor([1]), ipt.tensor(2.0, dtype=F64), F64),    # ... but can raise the category
    (ipt.tensor([1.0]), ipt.tensor([2.0], dtype=F64), F64),
    (ipt.tensor([1.0], dtype=F64), 3, F64),
])
def test_result_type(a, b, expect):
    assert dtypes.result_type(a, b) is expect
    assert (a + b).dtype is expect


def test_inplace_never_changes_self_dtype():
    x = ipt.tensor([1, 2])
    with pytest.raises(RuntimeError, match="result type Float can't be cast to the desired "
                                           "output type Long"):
        x.mul_(0.5)
    assert x.dtype is I64 and x.tolist() == [1, 2] and x._version == 0
    y = ipt.tensor([1.0, 2.0])
    y.add_(ipt.tensor([1, 1]))  # Long into Float is fine
    assert y.dtype is F32 and y.tolist() == [2.0, 3.0]


def test_dtype_names_print_like_torch():
    assert repr(F32) == "torch.float32" and ipt.float is F32 and ipt.long is I64
    assert dtypes.from_numpy_dtype("float16") is F32 and dtypes.from_numpy_dtype("int8") is I64
