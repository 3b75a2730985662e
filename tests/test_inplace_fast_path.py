"""inplace_elementwise's fast path (tensor_iterator.py) and the optimizer step built on it:
the same bits and the same version steps as the full path through record_inplace, and few
Python calls (counted, not timed)."""
from __future__ import annotations

import sys

import numpy as np
import pytest

import inplace_tutorial as ipt
from inplace_tutorial import models, optim
from inplace_tutorial.nn import functional as F
from inplace_tutorial.ops import dtype_rules

CALLS = [  # (method, operand, keywords): the optimizers' calls and their neighbours
    ("add_", "tensor", {}), ("add_", "tensor", {"alpha": -0.05}), ("add_", 0.1, {}),
    ("add_", 3, {"alpha": 0.3}), ("sub_", "tensor", {"alpha": 0.7}), ("mul_", 0.9, {}),
    ("mul_", "tensor", {}), ("div_", "tensor", {}), ("div_", 3, {}), ("pow_", 2, {}),
    ("sqrt_", None, {}), ("relu_", None, {}), ("exp_", None, {}), ("abs_", None, {}),
]


def _pair(dtype):
    rng = np.random.default_rng(0)
    a = rng.standard_normal((37, 29)) * 3
    a.reshape(-1)[::11] = np.nan
    a.reshape(-1)[5::13] = -0.0
    b = rng.standard_normal((37, 29))
    return ipt.tensor(a, dtype=dtype), ipt.tensor(b, dtype=dtype)


@pytest.mark.parametrize("dtype", [ipt.float32, ipt.float64, ipt.float16, ipt.bfloat16])
@pytest.mark.parametrize(("method", "operand", "kwargs"), CALLS)
def test_fast_path_gives_the_full_paths_bits_and_version(method, operand, kwargs, dtype):
    """The same call on a plain tensor (fast path) and on a view of the same values (full
    path: record_inplace with every check) writes the same bits and bumps once."""
    x, other = _pair(dtype)
    args = () if operand is None else (other if operand == "tensor" else operand,)
    fast = x.clone()
    full = x.clone()[:]  # a view: the full path
    assert fast._base is None and full._base is not None
    with np.errstate(all="ignore"):
        assert getattr(fast, method)(*args, **kwargs) is fast
        getattr(full, method)(*args, **kwargs)
    got, want = fast.numpy() if dtype is not ipt.bfloat16 else fast.view(ipt.int16).numpy(), \
        full.numpy() if dtype is not ipt.bfloat16 else full.view(ipt.int16).numpy()
    np.testing.assert_array_equal(got.view(f"u{got.itemsize}"), want.view(f"u{want.itemsize}"))
    assert fast._version == full._version == 1


INT_CALLS = [("add_", "tensor", {}), ("add_", 1, {}), ("add_", 1000, {}),
             ("add_", "tensor", {"alpha": 3}), ("sub_", 7, {}), ("mul_", 300, {}),
             ("mul_", "tensor", {}), ("pow_", 2, {}),
             ("abs_", None, {}), ("neg_", None, {}), ("relu_", None, {}), ("sign_", None, {}),
             ("remainder_", 7, {}), ("bitwise_and_", 6, {}), ("fmod_", "tensor", {})]


@pytest.mark.parametrize("dtype", [ipt.int8, ipt.int16, ipt.int32, ipt.int64, ipt.uint8])
@pytest.mark.parametrize(("method", "operand", "kwargs"), INT_CALLS)
def test_integer_fast_path_gives_the_full_paths_values_and_version(method, operand, kwargs,
                                                                   dtype):
    rng = np.random.default_rng(1)
    x = ipt.tensor(rng.integers(-100, 100, (6, 7)), dtype=dtype)
    other = ipt.tensor(rng.integers(1, 9, (6, 7)), dtype=dtype)
    args = () if operand is None else (other if operand == "tensor" else operand,)
    fast, full = x.clone(), x.clone()[:]
    assert getattr(fast, method)(*args, **kwargs) is fast
    getattr(full, method)(*args, **kwargs)
    np.testing.assert_array_equal(fast.numpy(), full.numpy())
    assert fast._version == full._version == 1


@pytest.mark.parametrize("call", [lambda x: x.div_(2), lambda x: x.add_(1.5),
                                  lambda x: x.sqrt_(), lambda x: x.mul_(ipt.randn(3)),
                                  lambda x: x.add_(ipt.ones(3), alpha=0.5)])
def test_integer_fast_path_leaves_float_results_to_the_checks(call):
    x = ipt.tensor([1, 2, 3])
    with pytest.raises(RuntimeError, match="can't be cast to the desired output type Long|"
                                           "alpha must not be a floating point"):
        call(x)
    assert x._version == 0 and x.tolist() == [1, 2, 3]


def test_the_dtype_table_refuses_no_float_dtype():
    """The fast path asks ops/dtype_rules.py's table only for integer tensors: a row that
    refuses a float dtype must change that (and this test)."""
    floats = {d.short for d in (ipt.float16, ipt.bfloat16, ipt.float32, ipt.float64)}
    assert not [key for key in dtype_rules.UNSUPPORTED if key[1] in floats]


def test_fast_path_still_refuses_what_the_full_path_refuses():
    x = ipt.randn(3)
    with pytest.raises(RuntimeError, match="can't be cast to the desired output type Float"):
        x.add_(1j)
    with pytest.raises(TypeError):
        x.mul_("a")
    with pytest.raises(RuntimeError, match="Boolean alpha only supported"):
        x.add_(ipt.randn(3), alpha=True)
    with pytest.raises(RuntimeError, match="doesn't match the broadcast shape"):
        x.add_(ipt.randn(2, 3))
    assert x._version == 0


def _python_calls(fn) -> int:
    """Python-level function calls made while ``fn()`` runs."""
    count = 0

    def profile(frame, event, arg):
        nonlocal count
        count += event == "call"
    sys.setprofile(profile)
    try:
        fn()
    finally:
        sys.setprofile(None)
    return count


def test_sgd_momentum_step_makes_few_python_calls():
    """The digits MLP's SGD step (4 parameters, 12 in-place ops): 312 Python function calls
    before the fast path went straight to the kernel, 160 after, 173 since ``_fma.fused``
    decides per call whether the build's single rounding can differ (float64's exact
    products skip the FMA)."""
    ipt.manual_seed(0)
    model = models.digits_mlp()
    opt = optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
    x, y = ipt.rand(64, 1, 8, 8), ipt.tensor(np.arange(64) % 10)
    for _ in range(2):
        opt.zero_grad()
        F.cross_entropy(model(x), y).backward()
    opt.step()  # the momentum buffers exist from here on
    assert _python_calls(opt.step) <= 180


def test_add_with_a_tensor_makes_few_python_calls():
    """x.add_(y): 25 calls before, 11 now (the lambda included)."""
    x, y = ipt.randn(100), ipt.randn(100)
    x.add_(y)
    assert _python_calls(lambda: x.add_(y)) <= 11
