"""The harness must notice differences; otherwise every parity test passes vacuously."""

import numpy as np
import pytest

from .harness import Raised, compare, observe, strip_hint

pytestmark = pytest.mark.parity


def test_compare_detects_value_shape_dtype_and_grad_flag(torch_mod):
    t = torch_mod
    a = observe(t, {"x": t.tensor([1.0, 2.0])})
    assert compare(a, observe(t, {"x": t.tensor([1.0, 2.0])})) == []
    assert compare(a, observe(t, {"x": t.tensor([1.0, 2.1])}))
    assert compare(a, observe(t, {"x": t.tensor([[1.0, 2.0]])}))
    assert compare(a, observe(t, {"x": t.tensor([1.0, 2.0], dtype=t.float64)}))
    assert compare(a, observe(t, {"x": t.tensor([1.0, 2.0], requires_grad=True)}))
    assert compare(observe(t, {"i": t.tensor([1, 2])}), observe(t, {"i": t.tensor([1, 3])}))


def test_compare_scalars_keep_their_python_type():
    assert compare({"v": 1}, {"v": 1.0})
    assert compare({"v": True}, {"v": 1})
    assert compare({"v": (1, 2)}, {"v": [1, 2]})
    assert compare({"v": 1.0}, {"v": 1.0 + 1e-9}) == []
    assert compare({"v": 1.0}, {"v": 1.01})
    assert compare({"v": 1}, {"v": ("numpy scalar", "int64", 1)})


def test_compare_missing_and_extra_keys():
    assert compare({"a": 1}, {})
    assert compare({}, {"a": 1})


def test_compare_exceptions():
    r = Raised("RuntimeError", "boom  here. Hint: do x")
    assert compare(r, Raised("RuntimeError", "boom here. Hint: do x")) == []
    assert compare(r, Raised("ValueError", "boom here. Hint: do x"))
    diff = compare(r, Raised("RuntimeError", "boom here. Hint: do y"))
    assert diff and "only in the Hint" in diff[0]
    assert compare(r, {"x": 1})
    assert compare({"x": 1}, r)
    assert strip_hint("a b. Hint: c") == "a b."


def test_float_tolerance_and_nan(torch_mod):
    t = torch_mod
    a = observe(t, t.tensor([np.nan, 1.0]))
    assert compare(a, observe(t, t.tensor([np.nan, 1.0 + 1e-7]))) == []
    assert compare(a, observe(t, t.tensor([0.0, 1.0])))
