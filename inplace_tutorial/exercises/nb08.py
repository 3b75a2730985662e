"""Exercises for notebook 08 (addbmm_ in depth): shapes, einsum subscripts, an in-place loop.

Truths are computed on the core: shapes by running bmm, values by addbmm, memory limits by
measuring addbmm_ itself with ipt.memory.
"""
from __future__ import annotations

import inplace_tutorial as ipt

from . import exercise


def _batches(b=6, n=5, m=4, p=3, seed=0):
    ipt.manual_seed(seed)
    return ipt.randn(b, n, m), ipt.randn(b, m, p)


@exercise("08.1", hint="addbmm sums the b products batch1[i] @ batch2[i], each of shape (n, p). "
          "The batch dimension disappears.")
def _(answer):
    b1, b2 = ipt.randn(10, 20, 30), ipt.randn(10, 30, 40)
    truth = tuple(ipt.bmm(b1, b2).sum(0).shape)
    try:
        got = tuple(int(s) for s in answer)
    except TypeError:
        return False, "answer must be a shape tuple like (a, b)"
    if got != truth:
        return False, f"out of shape {got} does not fit: run it and read the error"
    return True, f"out must be {truth}: addbmm reduces over the batch"


@exercise("08.2", hint="Name the dimensions: batch1 is (b, i, j), batch2 is (b, j, k). Which "
          "letters survive in the output (n, p)?")
def _(answer):
    if not isinstance(answer, str):
        return False, "answer must be an einsum subscripts string like 'xyz,...->..'"
    b1, b2 = _batches()
    ref = ipt.bmm(b1, b2).sum(0)
    got = ipt.einsum(answer, b1, b2)
    if tuple(got.shape) != tuple(ref.shape):
        return False, f"shape {tuple(got.shape)}, expected {tuple(ref.shape)}"
    diff = (got - ref).abs().max().item()
    if diff > 1e-4:
        return False, f"values differ from bmm(...).sum(0) by {diff:.2e}"
    return True, "same values as bmm(batch1, batch2).sum(0)"


@exercise("08.3", hint="Scale out once with out.mul_(beta), then for each i: "
          "out.addmm_(batch1[i], batch2[i], alpha=alpha). Return out.")
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
    if res is None or res.data_ptr() != out.data_ptr():
        return False, "return out itself, updated in place"
    diff = (out - ref).abs().max().item()
    if diff > 1e-4:
        return False, f"values differ from addbmm(out, b1, b2, beta=0.5, alpha=2) by {diff:.2e}"
    if used > limit:
        return False, f"peak extra memory {used:,} B; addbmm_ needs only {limit:,} B"
    return True, f"in place, correct, peak extra {used:,} B (addbmm_: {limit:,} B)"
