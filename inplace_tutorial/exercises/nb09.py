"""Exercises for notebook 09 (the in-place catalogue): what exists, and what to use instead."""
from __future__ import annotations

import inplace_tutorial as ipt

from . import exercise

# The in-place methods the seed article's appendix lists, in its order.
ARTICLE_LIST = ("add_", "sub_", "mul_", "div_", "relu_", "sigmoid_", "tanh_", "pow_", "neg_",
                "matmul_", "transpose_", "permute_", "clamp_min_", "clamp_max_", "clamp_",
                "minimum_", "maximum_", "zero_", "fill_", "copy_", "random_", "normal_")
QUIZ = ("matmul_", "t_", "permute_", "clamp_", "minimum_", "maximum_", "exp_", "softmax_",
        "sqrt_", "addbmm_", "bmm_", "lerp_")


@exercise("09.1", hint="Check each name with hasattr(ipt.Tensor, name). Ops whose result has a "
          "different shape or needs a second buffer anyway (matmul, bmm, permute, softmax) have no "
          "in-place form.")
def _(answer):
    if not isinstance(answer, (set, frozenset, list, tuple)):
        return False, "answer must be a set of names from nb09.QUIZ"
    got = set(answer)
    if got - set(QUIZ):
        return False, f"unknown names: {sorted(got - set(QUIZ))}"
    truth = {n for n in QUIZ if hasattr(ipt.Tensor, n)}
    if got != truth:
        return False, f"{len(got ^ truth)} of {len(QUIZ)} wrong"
    return True, f"these exist: {sorted(truth)}"


@exercise("09.2", hint="There is no minimum_, but ipt.minimum takes out=: "
          "ipt.minimum(a, b, out=a) writes the result into a itself. Return a.")
def _(answer):
    if not callable(answer):
        return False, "answer must be a function f(a, b) that writes min(a, b) into a"
    a, b = ipt.tensor([1.0, 5.0, -2.0, 3.0]), ipt.tensor([2.0, 4.0, -3.0, 3.0])
    ref = ipt.minimum(a, b)
    storage = a.untyped_storage()
    res = answer(a, b)
    if res is None or res.untyped_storage() is not storage:
        return False, "return a itself, with the result written into its own storage"
    if a.tolist() != ref.tolist():
        return False, f"a is {a.tolist()}, expected {ref.tolist()}"
    if b.tolist() != [2.0, 4.0, -3.0, 3.0]:
        return False, "b must not change"
    return True, "a now holds the elementwise minimum, in its own storage"
