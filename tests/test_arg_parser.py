"""call_site.call_keywords, without torch: an argument given by keyword loses "(position n)".

call_keywords reads the calling instruction, whose bytecode differs between Python 3.10
(CALL_FUNCTION_KW), 3.11 (KW_NAMES, PRECALL, CALL), 3.12 (KW_NAMES, CALL) and 3.13 (CALL_KW),
so these run on every Python the package supports (the parity suite runs on one). The
expected texts are PyTorch 2.13's (tests/parity/probes_args.py KEYWORDS compares them).
"""
from __future__ import annotations

import pytest

import inplace_tutorial as ipt


def message(call) -> str:
    with pytest.raises(TypeError) as info:
        call()
    return str(info.value)


@pytest.fixture
def x():
    return ipt.ones(2, 3)


def test_a_method_call_names_the_position_of_a_positional_argument(x):
    assert message(lambda: x.add_(None)) == (
        "add_(): argument 'other' (position 1) must be Tensor, not NoneType")


def test_a_method_call_with_a_keyword_names_no_position(x):
    assert message(lambda: x.add_(other=None)) == (
        "add_(): argument 'other' must be Tensor, not NoneType")
    assert message(lambda: x.sub_(other=None, alpha=2)) == (
        "sub_(): argument 'other' must be Tensor, not NoneType")


def test_a_function_call(x):
    assert message(lambda: ipt.add(x, None)) == (
        "add(): argument 'other' (position 2) must be Tensor, not NoneType")
    assert message(lambda: ipt.add(x, other=None)) == (
        "add(): argument 'other' must be Tensor, not NoneType")


def test_a_call_through_star_args_keeps_its_keywords(x):
    """f(*args, **kwargs) is CALL_FUNCTION_EX: the bytecode names no keyword, the binding's
    **kwargs holds them (torch 2.13: x.add_(**{'other': None}) names no position)."""
    args, kwargs = (None,), {"other": None}
    assert message(lambda: x.add_(*args)) == (
        "add_(): argument 'other' (position 1) must be Tensor, not NoneType")
    assert message(lambda: x.add_(**kwargs)) == (
        "add_(): argument 'other' must be Tensor, not NoneType")
    assert message(lambda: x.add_(*args, **{})) == (
        "add_(): argument 'other' (position 1) must be Tensor, not NoneType")


def test_the_overload_message_lists_keywords_in_reverse_call_order(x):
    got = message(lambda: x.narrow(dim=0, start=None, length=1))
    assert got.startswith("narrow() received an invalid combination of arguments - got "
                          "(length=int, start=NoneType, dim=int, ), but expected one of:\n")
    assert "(dim=int, !start=NoneType!, length=int, )" in got
    got = message(lambda: x.narrow(0, None, length=1))
    assert "got (int, NoneType, length=int), but" in got


def test_clamp_with_one_bound_by_keyword(x):
    assert message(lambda: x.clamp_(min=[0])) == (
        "clamp_() received an invalid combination of arguments - got (min=list, ), but "
        "expected one of:\n * (Tensor min = None, Tensor max = None)\n"
        " * (Number min = None, Number max = None)\n")


def test_sort_with_keywords_lists_only_what_was_given(x):
    assert message(lambda: x.sort(descending=1)) == (
        "sort() received an invalid combination of arguments - got (descending=int, ), but "
        "expected one of:\n * (*, bool stable, int dim = -1, bool descending = False)\n"
        " * (int dim = -1, bool descending = False)\n")
    assert "got (int, str), but" in message(lambda: x.sort(0, "a"))


def test_a_keyword_through_a_module_function_with_two_forms(x):
    assert message(lambda: ipt.addmm(x, x, x.t(), alpha="a")).startswith(
        "addmm() received an invalid combination of arguments - got (Tensor, Tensor, Tensor, "
        "alpha=str), but expected one of:\n")


def test_a_caller_in_a_nested_function_is_read_too(x):
    def learner_code(t):
        return t.mul_(other="a")
    assert message(lambda: learner_code(x)) == (
        "mul_(): argument 'other' must be Tensor, not str")


def test_a_tuple_of_ints_by_keyword(x):
    """permute/view/expand/flip/repeat take their sizes as varargs, one sequence or the keyword;
    by keyword the type error names no position and a bad first element is "not list"."""
    assert x.permute(dims=(1, 0)).shape == (3, 2)
    assert x.expand(size=[2, 2, 3], implicit=True).shape == (2, 2, 3)
    assert message(lambda: x.permute(dims=None)) == (
        "permute(): argument 'dims' must be tuple of ints, not NoneType")
    assert message(lambda: x.flip(dims=[0.0])) == (
        "flip(): argument 'dims' must be tuple of ints, not list")
    assert message(lambda: x.repeat(2, 1, repeats=(2, 1))) == (
        "repeat() got multiple values for argument 'repeats'")
    assert message(lambda: x.reshape(size=(6,))) == (
        'reshape() missing 1 required positional arguments: "shape"')
    assert message(lambda: x.view(size=6)).startswith(
        "view() received an invalid combination of arguments - got (size=int, ), but")


def test_a_method_torch_writes_in_python_passes_its_arguments_by_position(x):
    assert message(lambda: x.unflatten(dim=None, sizes=(3,))) == (
        "unflatten(): argument 'dim' (position 1) must be int, not NoneType")
    assert message(lambda: x.unflatten(1, (3, 1), 2)) == (
        "Tensor.unflatten() takes 3 positional arguments but 4 were given")


def test_a_keyword_only_argument_given_by_position(x):
    """Python's own binding would count self and name no PyTorch form; @binding words it as
    PyTorch's parser does."""
    assert message(lambda: x.add_(x, 2)) == "add_() takes 1 positional argument but 2 were given"
    assert message(lambda: x.cumsum(1, ipt.float64)) == (
        "cumsum() takes 1 positional argument but 2 were given")
    assert message(lambda: x.sum(0, True, ipt.float64)) == (
        "sum() takes from 1 to 2 positional arguments but 3 were given")
    assert message(lambda: x.sort(0, True, True)) == (
        "sort() takes from 1 to 0 positional arguments but 3 were given")  # (sic) PyTorch's
    assert message(lambda: ipt.add(x, x, 2)) == (
        "add() takes 2 positional arguments but 3 were given")


def test_a_missing_argument_comes_before_an_unknown_keyword(x):
    assert message(lambda: x.transpose(0, dim=1)) == (
        'transpose() missing 1 required positional arguments: "dim1"')
    # narrow has two forms (start a Tensor or an int): both take 3 arguments, so neither is
    # the one plausible form to name the missing one, and torch 2.13 lists them
    assert message(lambda: x.narrow(0, length=1)) == (
        "narrow() received an invalid combination of arguments - got (int, length=int), but "
        "expected one of:\n * (int dim, Tensor start, int length)\n"
        " * (int dim, int start, int length)\n")
    assert message(lambda: x.renorm(dim=0)) == (
        'renorm() missing 3 required positional argument: "p", "dim", "maxnorm"')  # (sic)


def test_numpy_names_and_the_forms_keywords_must_fit(x):
    assert x.sum(axis=0, keepdims=True).shape == (1, 3)
    assert x.max(axis=1).values.shape == (2,)
    assert message(lambda: x.sum(dim=0, axis=0)) == (
        "sum() got an unexpected keyword argument 'axis'")
    assert message(lambda: x.sum(keepdim=True)).startswith(
        "sum() received an invalid combination of arguments - got (keepdim=bool, ), but")
    assert message(lambda: ipt.max(x, keepdim=True)) == (
        "max() received an invalid combination of arguments - got (Tensor, keepdim=bool), but "
        "expected one of:\n * (Tensor input, *, Tensor out = None)\n"
        " * (Tensor input, Tensor other, *, Tensor out = None)\n"
        " * (Tensor input, int dim, bool keepdim = False, *, tuple of Tensors out = None)\n")


def test_out_given_to_a_function_without_an_out_form(x):
    assert message(lambda: ipt.relu(x, out=None)) == (
        "relu() got an unexpected keyword argument 'out'")
    assert message(lambda: ipt.squeeze(x, out=x)).startswith(
        "squeeze() received an invalid combination of arguments - got (Tensor, out=Tensor), but")
