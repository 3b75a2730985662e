"""Exercises for notebook 09 (the in-place catalogue): what exists, and what to use instead."""
from __future__ import annotations

import inplace_tutorial as ipt

from . import exercise
from .answers import names, short

# The in-place methods the seed article's appendix lists, in its order.
ARTICLE_LIST = ("add_", "sub_", "mul_", "div_", "relu_", "sigmoid_", "tanh_", "pow_", "neg_",
                "matmul_", "transpose_", "permute_", "clamp_min_", "clamp_max_", "clamp_",
                "minimum_", "maximum_", "zero_", "fill_", "copy_", "random_", "normal_")
QUIZ = ("matmul_", "t_", "permute_", "clamp_", "minimum_", "maximum_", "exp_", "softmax_",
        "sqrt_", "addbmm_", "bmm_", "lerp_")


@exercise("09.1", hint=(
    "Predict first: an in-place method writes its result into self, so the result must have "
    "self's shape and dtype.",
    "Elementwise ops (each output element from the same input element) have in-place forms; "
    "ops that read many input elements for each output element mostly don't. A few in-place "
    "methods change only shape and strides.",
    "Then test your prediction: hasattr(ipt.Tensor, name) for each name."))
def _(answer):
    got = names(answer)
    if got is None:
        return False, f"answer must be a set of names from nb09.QUIZ, not {short(answer)}"
    if got - set(QUIZ):
        return False, f"unknown names: {sorted(got - set(QUIZ))}"
    truth = {n for n in QUIZ if hasattr(ipt.Tensor, n)}
    if got != truth:
        return False, f"{len(got ^ truth)} of {len(QUIZ)} wrong"
    return True, f"these exist: {sorted(truth)}"


@exercise("09.2", hint=(
    "There is no minimum_; look for another way to say where a result is written.",
    "Many functions take `out=`: the result goes into a tensor you pass in.",
    "For an elementwise function, out= may be one of the inputs."))
def _(answer):
    if not callable(answer):
        return False, "answer must be a function f(a, b) that writes min(a, b) into a"
    a, b = ipt.tensor([1.0, 5.0, -2.0, 3.0]), ipt.tensor([2.0, 4.0, -3.0, 3.0])
    ref = ipt.minimum(a, b)
    storage = a.untyped_storage()
    with ipt.memory.record() as trace:
        res = answer(a, b)
    if not isinstance(res, ipt.Tensor) or res.untyped_storage() is not storage:
        return False, "return a itself, with the result written into its own storage"
    if a.tolist() != ref.tolist():
        return False, f"a is {a.tolist()}, expected {ref.tolist()}"
    if b.tolist() != [2.0, 4.0, -3.0, 3.0]:
        return False, "b must not change"
    extra = sum(e.nbytes for e in trace.events if e.kind == "alloc")
    if extra:
        return True, (f"a now holds min(a, b) in its own storage; your function allocated "
                      f"{extra} B on the way (out=a writes straight into a)")
    return True, "a now holds min(a, b) in its own storage, and nothing was allocated"
