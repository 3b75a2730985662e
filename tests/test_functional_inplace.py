"""functional_inplace.py: each torch.<op>_ twin is its method under another binding (the parity
suite, tests/parity/test_functional_inplace_parity.py, compares them with torch itself)."""
from __future__ import annotations

import ast
import inspect

import numpy as np
import pytest

import inplace_tutorial as ipt
from inplace_tutorial import functional_inplace

ARGS = {"fill_": (2.5,), "clamp_min_": (0.0,), "clamp_max_": (0.5,), "clip_": (0.0, 1.0),
        "xlogy_": (2.0,), "as_strided_": ((2,), (1,)), "gcd_": None, "lcm_": None,
        "ldexp_": None, "addmv_": None}


NO_METHOD = [*functional_inplace.ACTIVATIONS, "dropout_", "feature_dropout_", "alpha_dropout_",
             "feature_alpha_dropout_"]


def test_every_twin_is_exported_and_named_as_its_method():
    for name in functional_inplace.__all__:
        if name in NO_METHOD:
            continue  # ops/activation.py's and dropout_: no Tensor method (torch has none)
        fn = getattr(ipt, name)
        assert fn.__name__ == name and callable(getattr(ipt.Tensor, name)), name


def test_each_def_calls_the_method_of_its_own_name():
    """A twin's body calls ``input.<its name>(...)``: no twin calls another op by mistake."""
    tree = ast.parse(inspect.getsource(functional_inplace))
    for node in tree.body:
        if isinstance(node, ast.FunctionDef) and node.name not in NO_METHOD + ["dropout_impl"]:
            called = {c.func.attr for c in ast.walk(node)
                      if isinstance(c, ast.Call) and isinstance(c.func, ast.Attribute)
                      and c.func.attr.endswith("_")}
            assert called == {node.name}, (node.name, called)


UNARY_LIKE = [n for n in functional_inplace.__all__ if ARGS.get(n, ()) is not None
              and n not in NO_METHOD]


@pytest.mark.parametrize("name", UNARY_LIKE)
def test_the_twin_returns_its_input_bumped_once_with_the_methods_values(name):
    a = np.array([0.25, 0.5, 0.75], dtype=np.float32)
    x, y = ipt.tensor(a), ipt.tensor(a)
    r = getattr(ipt, name)(x, *ARGS.get(name, ()))
    getattr(y, name)(*ARGS.get(name, ()))
    assert r is x and x._version == y._version
    np.testing.assert_array_equal(x.numpy(), y.numpy())


def test_integer_twins_and_addmv():
    a, b = ipt.tensor([12, 18]), ipt.tensor([8, 12])
    assert ipt.gcd_(a, b).tolist() == [4, 6] and a._version == 1
    assert ipt.lcm_(ipt.tensor([4, 6]), b).tolist() == [8, 12]
    assert ipt.ldexp_(ipt.tensor([1.0, 3.0]), ipt.tensor([2, 1])).tolist() == [4.0, 6.0]
    y = ipt.tensor([1.0, 2.0])
    assert ipt.addmv_(0.5, y, ipt.ones(2, 2), ipt.tensor([1.0, 1.0])).tolist() == [2.5, 3.0]


def test_dropout_twin():
    x = ipt.ones(2, 3)
    assert ipt.dropout_(x, 0.0, True) is x and x._version == 0  # no write at all
    assert ipt.dropout_(x, 1.0, True) is x and x._version == 1 and x.sum().item() == 0
    ipt.manual_seed(0)
    y = ipt.ones(1000)
    ipt.dropout_(y, 0.25, True)
    kept = y[y != 0]
    assert 650 < kept.numel() < 850 and bool((kept == 1 / 0.75).all())
    with pytest.raises(RuntimeError, match="between 0 and 1, but got 1.5"):
        ipt.dropout(x, 1.5, True)
