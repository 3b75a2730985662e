"""function_parser.py: PyTorch's FunctionSignature::parse and PythonArgParser's choice of a
signature, on the table of torch's function signatures (no torch needed; the parity probes in
tests/parity/probes_funcsig.py compare the texts with torch's)."""
from __future__ import annotations

import pytest

import inplace_tutorial as ipt
from inplace_tutorial import function_parser


def test_first_fitting_signature_wins():
    x = ipt.ones(2)
    sig, values = function_parser.parse("div", (x, 2), {"rounding_mode": "floor"})
    assert [p.name for p in sig.params] == ["input", "other", "rounding_mode", "out"]
    assert values["other"] == 2  # div takes numbers where a Tensor goes


def test_deprecated_forms_are_tried_last_and_never_listed():
    p = function_parser.parser("add")
    assert p.signatures[-1].hidden and len(p.forms) == len(p.signatures) - 1
    sig, values = function_parser.parse("add", (ipt.ones(2), 2, ipt.ones(2)), {})
    assert sig.hidden and values["alpha"] == 2


def test_one_plausible_signature_names_the_argument():
    with pytest.raises(TypeError, match=r"^median\(\): argument 'dim' \(position 2\) must be "
                                        r"int, not str$"):
        function_parser.parse("median", (ipt.ones(2), "a"), {})


def test_several_plausible_signatures_are_listed():
    with pytest.raises(TypeError) as info:
        function_parser.parse("any", (None,), {})
    assert str(info.value).startswith("any() received an invalid combination of arguments - "
                                      "got (NoneType), but expected one of:\n * (Tensor input")


def test_varargs_size_and_its_refusals():
    assert function_parser.parse("zeros", (2, 3), {})[1]["size"] == (2, 3)
    with pytest.raises(TypeError, match=r"^zeros\(\) takes 1 positional argument but 2 were"):
        function_parser.parse("zeros", (2.5, 2), {})
    with pytest.raises(TypeError, match=r"must be tuple of ints, not str$"):
        function_parser.parse("zeros", ("a",), {})


def test_a_tensor_list_refuses_its_first_stranger_on_the_spot():
    with pytest.raises(TypeError, match=r"^expected Tensor as element 1 in argument 0, but got "
                                        r"NoneType$"):
        function_parser.parse("cat", ([ipt.ones(2), None],), {})


def test_python_types_are_dtypes():
    assert function_parser.parse("sum", (ipt.ones(2),), {"dtype": float}) is not None
    assert function_parser.scalar_type(float) is ipt.float64
    assert function_parser.scalar_type(int) is ipt.int64
    assert ipt.zeros(2, dtype=float).dtype is ipt.float64


def test_functions_torch_writes_in_python_have_no_parser():
    assert function_parser.parser("split") is None  # torch/functional.py
    assert function_parser.parser("no_such_function") is None


def test_package_calls_may_pass_keyword_only_arguments_by_position():
    # creation.empty_strided(size, stride, dtype) from inside the package is not refused
    t = ipt.ones(2, 3).t().clone()
    assert t.stride() == (1, 3)
