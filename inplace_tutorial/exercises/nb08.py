"""Exercises for notebook 08 (addbmm_ in depth): shapes, einsum subscripts, an in-place loop.

Truths are computed on the core: shapes by running bmm, values by addbmm, memory limits by
measuring addbmm_ itself with ipt.memory.
"""
from __future__ import annotations

import inplace_tutorial as ipt

from . import exercise
from .answers import int_tuple, short


def _batches(b=6, n=5, m=4, p=3, seed=0):
    ipt.manual_seed(seed)
    return ipt.randn(b, n, m), ipt.randn(b, m, p)


@exercise("08.1", hint=(
    "addbmm adds up the b matrix products batch1[i] @ batch2[i].",
    "Each product is a (20, 30) matrix times a (30, 40) matrix.",
    "Adding the b products together removes the batch dimension."))
def _(answer):
    b1, b2 = ipt.randn(10, 20, 30), ipt.randn(10, 30, 40)
    truth = tuple(ipt.bmm(b1, b2).sum(0).shape)
    got = int_tuple(answer)
    if got is None:
        return False, f"answer must be a shape tuple like (a, b), not {short(answer)}"
    if got != truth:
        return False, f"out of shape {got} does not fit: run it and read the error"
    return True, f"out must be {truth}: addbmm reduces over the batch"


@exercise("08.2", hint=(
    "Give every dimension a letter: batch1 is (b, n, m), batch2 is (b, m, p).",
    "A letter shared by both inputs is multiplied along; a letter missing after '->' is "
    "summed over.",
    "The result is (n, p): which letters survive?"))
def _(answer):
    if not isinstance(answer, str):
        return False, ("answer must be an einsum subscripts string like 'xyz,...->..', "
                       f"not {short(answer)}")
    b1, b2 = _batches()
    ref = ipt.bmm(b1, b2).sum(0)
    got = ipt.einsum(answer, b1, b2)
    if tuple(got.shape) != tuple(ref.shape):
        return False, f"shape {tuple(got.shape)}, expected {tuple(ref.shape)}"
    diff = (got - ref).abs().max().item()
    if diff > 1e-4:
        return False, f"values differ from bmm(...).sum(0) by {diff:.2e}"
    return True, f"{answer!r} gives the same values as bmm(batch1, batch2).sum(0)"


@exercise("08.3", hint=(
    "Two steps: scale out by beta in place, then add each product, scaled by alpha.",
    "bmm would materialise all b products at once; one product at a time keeps the peak at "
    "one (n, p) result, or less.",
    "Look at addmm_: what does it compute into self, and which of its arguments could be "
    "one batch?"))
def _(answer):
    if not callable(answer):
        return False, "answer must be a function f(out, batch1, batch2, beta, alpha)"
    b1, b2 = _batches(b=8, n=16, m=12, p=16, seed=1)
    out0 = ipt.randn(16, 16)
    ref = ipt.addbmm(out0, b1, b2, beta=0.5, alpha=2.0)
    limit_out = out0.clone()
    with ipt.memory.record() as tr:
        limit_out.addbmm_(b1, b2, beta=0.5, alpha=2.0)
    limit = tr.peak - tr.start_allocated
    out = out0.clone()
    with ipt.memory.record() as tr:
        res = answer(out, b1, b2, 0.5, 2.0)
    used = tr.peak - tr.start_allocated
    if not isinstance(res, ipt.Tensor) or res.data_ptr() != out.data_ptr():
        return False, "return out itself, updated in place"
    diff = (out - ref).abs().max().item()
    if diff > 1e-4:
        return False, f"values differ from addbmm(out, b1, b2, beta=0.5, alpha=2) by {diff:.2e}"
    if used > limit:
        return False, f"peak extra memory {used:,} B; addbmm_ needs only {limit:,} B"
    return True, f"in place, correct, peak extra {used:,} B (addbmm_: {limit:,} B)"
