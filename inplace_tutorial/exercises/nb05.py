"""Exercises for notebook 05 (training phases, optimizer updates)."""
from __future__ import annotations

import inplace_tutorial as ipt

from . import exercise


@exercise("05.1", hint="`param.add_(param.grad, alpha=-lr)` scales and adds in one op, under "
          "`ipt.no_grad()`, skipping params whose grad is None.")
def _(answer):
    if not callable(answer):
        return False, "answer should be a function sgd_update(params, lr)"
    ipt.manual_seed(2)
    a = ipt.randn(300, 400, requires_grad=True)
    b = ipt.randn(400, requires_grad=True)
    a.grad = ipt.randn(300, 400)
    expected = a.detach() - 0.1 * a.grad
    b_before = b.tolist()
    with ipt.memory.record() as trace:
        answer([a, b], 0.1)
    if b.tolist() != b_before:
        return False, "a param whose grad is None must be left alone"
    if (a.detach() - expected).abs().amax().item() > 1e-5:
        return False, "the weights are not param - lr * grad"
    biggest = max((e.nbytes for e in trace.events if e.kind == "alloc"), default=0)
    if biggest >= a.untyped_storage().nbytes():
        return False, (f"your update allocated a full-size temporary ({biggest:,} B): that "
                       "is the article's `lr * param.grad`")
    return True, "correct update, and no full-size temporary"


@exercise("05.2", hint="Adam keeps two buffers per parameter (exp_avg and exp_avg_sq), each the "
          "size of the parameter. Count parameter elements, × 2 buffers × 4 bytes.")
def _(answer):
    ipt.manual_seed(0)
    model = ipt.models.digits_mlp()
    opt = ipt.optim.Adam(model.parameters(), lr=1e-3)
    x, y = ipt.randn(8, 1, 8, 8), ipt.tensor([0, 1, 2, 3, 4, 5, 6, 7])
    ipt.nn.functional.cross_entropy(model(x), y).backward()
    opt.step()
    truth = sum(s[k].untyped_storage().nbytes() for s in opt.state.values()
                for k in ("exp_avg", "exp_avg_sq"))
    if not isinstance(answer, int):
        return False, "answer should be a whole number of bytes (an int)"
    params = sum(p.untyped_storage().nbytes() for p in model.parameters())
    if answer == params:
        return False, "that is one buffer's worth; Adam keeps two per parameter"
    if answer != truth:
        return False, f"{answer:,} B is not what Adam's exp_avg + exp_avg_sq take"
    return True, f"{truth:,} B: twice the parameters' {params:,} B"
