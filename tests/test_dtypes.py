"""The promotion table, without PyTorch: tiers (dimensioned > zero-dim > Python scalar),
categories (bool < int < float), and the in-place rule that self's dtype never changes."""
from __future__ import annotations

import gc

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
    assert dtypes.from_numpy_dtype("float16") is ipt.float16
    assert dtypes.from_numpy_dtype("int8") is ipt.int8
    assert dtypes.from_numpy_dtype("uint8") is ipt.uint8
    with pytest.raises(TypeError, match="PyTorch has torch.uint16, inplace_tutorial does not"):
        dtypes.from_numpy_dtype("uint16")
    with pytest.raises(TypeError, match="numpy.object_. The only supported types are"):
        dtypes.from_numpy_dtype(object)


# --------------------------------------------------------------------------- small dtypes
SMALL = [ipt.float16, ipt.bfloat16, ipt.int8, ipt.uint8, ipt.int16, ipt.int32]


@pytest.mark.parametrize("d", SMALL)
def test_small_dtypes_count_their_bytes(d):
    # a garbage collection between the two readings would free earlier tests' tensors
    gc.collect()
    gc.disable()
    try:
        before = ipt.memory.memory_allocated()
        x = ipt.zeros(10, 3, dtype=d)
        after = ipt.memory.memory_allocated()
    finally:
        gc.enable()
    assert x.element_size() == d.itemsize
    assert x.untyped_storage().nbytes() == 30 * d.itemsize
    assert after - before == 30 * d.itemsize
    assert x[1].data_ptr() - x.data_ptr() == 3 * d.itemsize


def test_promotion_specials():
    assert ipt.promote_types(ipt.uint8, ipt.int8) is ipt.int16
    assert ipt.promote_types(ipt.float16, ipt.bfloat16) is ipt.float32
    assert ipt.promote_types(ipt.int64, ipt.float16) is ipt.float16
    assert ipt.promote_types(ipt.bool, ipt.uint8) is ipt.uint8
    i8 = ipt.tensor([1, 2], dtype=ipt.int8)
    assert dtypes.result_type(i8, 1000) is ipt.int8          # a scalar can't widen ints
    assert dtypes.result_type(i8, 2.5) is ipt.float32        # ... but raises the category
    assert dtypes.result_type(i8, ipt.tensor(2.5, dtype=ipt.float64)) is ipt.float64
    h = ipt.tensor([1.0], dtype=ipt.float16)
    assert dtypes.result_type(h, ipt.tensor(1.0)) is ipt.float16


def test_integer_wrap_and_cast_errors():
    u = ipt.tensor([250, 5], dtype=ipt.uint8)
    assert (u + 10).tolist() == [4, 15] and (u - 10).tolist() == [240, 251]
    assert (ipt.tensor([120], dtype=ipt.int8) + 200).tolist() == [64]
    with pytest.raises(RuntimeError, match="result type Float can't be cast to the desired "
                                           "output type Byte"):
        u.add_(1.5)
    assert u._version == 0 and u.tolist() == [250, 5]
    with pytest.raises(RuntimeError, match="value cannot be converted to type uint8_t without "
                                           "overflow"):
        u.fill_(300)
    x = ipt.zeros(3, dtype=ipt.int64)
    for bad in (float("nan"), 1e30):
        with pytest.raises(RuntimeError, match="type int64_t without overflow"):
            x[0] = bad
    assert x._version == 0


def test_float16_computes_in_float32_and_rounds_once():
    x = ipt.tensor([1000.0], dtype=ipt.float16)
    # 1000 * 1.0004 = 1000.4 in float32 rounds to 1000.5 in float16 (what torch prints);
    # had 1.0004 been rounded to float16 first (1.0), the product would stay 1000
    assert (x * 1.0004).tolist() == [1000.5] and x.mul_(1.0004).tolist() == [1000.5]
    big = ipt.ones(300, 300, dtype=ipt.float16)  # the chunked float32 path
    big.add_(ipt.full((300, 300), 0.5).half())
    assert big.dtype is ipt.float16 and set(big.reshape(-1).tolist()) == {1.5}


def test_casts_and_type_names():
    x = ipt.tensor([1.5, -2.5, 3.0])
    assert x.half().dtype is ipt.float16 and x.bfloat16().dtype is ipt.bfloat16
    assert x.char().tolist() == [1, -2, 3] and x.short().dtype is ipt.int16
    assert x.int().dtype is ipt.int32 and x.byte().dtype is ipt.uint8
    assert x.type() == "torch.FloatTensor" and x.half().type() == "torch.HalfTensor"
    assert x.type("torch.ShortTensor").dtype is ipt.int16
    assert x.to(ipt.float32) is x and x.to(ipt.float32, copy=True) is not x
    with pytest.raises(ValueError, match="invalid type: 'foo'"):
        x.type("foo")
    with pytest.raises(TypeError, match="Got unsupported ScalarType BFloat16"):
        x.bfloat16().numpy()


def test_bfloat16_import_is_lazy():
    import subprocess
    import sys

    code = ("import sys, inplace_tutorial as t; assert 'ml_dtypes' not in sys.modules; "
            "t.zeros(2, dtype=t.bfloat16); assert 'ml_dtypes' in sys.modules")
    subprocess.run([sys.executable, "-c", code], check=True)


def test_tensor_keeps_numpy_dtypes_and_refuses_others():
    import numpy as np

    for nd, d in [(np.int32, ipt.int32), (np.uint8, ipt.uint8), (np.float16, ipt.float16),
                  (np.int8, ipt.int8), (np.int16, ipt.int16)]:
        a = np.array([1, 2], dtype=nd)
        assert ipt.tensor(a).dtype is d and ipt.from_numpy(a).dtype is d
    with pytest.raises(TypeError, match="PyTorch has torch.complex128"):
        ipt.tensor(np.array([1j]))
    with pytest.raises(TypeError, match="no complex dtypes"):
        ipt.tensor([1j])
    with pytest.raises(RuntimeError, match="Could not infer dtype of NoneType"):
        ipt.tensor(None)
    with pytest.raises(ValueError, match="Overflow when unpacking long long"):
        ipt.tensor(2**63)
