"""Exercises for notebook 05 (training phases, optimizer updates)."""
from __future__ import annotations

import inplace_tutorial as ipt

from . import exercise
from .answers import short, whole_number


@exercise("05.1", hint=(
    "The update must not be recorded by autograd, must skip params whose .grad is None, and "
    "must leave .grad as it was.",
    "`lr * p.grad` is the full-size temporary. Look for one in-place op that scales its "
    "argument while adding it.",
    "Look up what `add_`'s `alpha=` argument multiplies."))
def _(answer):
    if not callable(answer):
        return False, f"answer should be a function sgd_update(params, lr), not {short(answer)}"
    ipt.manual_seed(2)
    a = ipt.randn(300, 400, requires_grad=True)
    b = ipt.randn(400, requires_grad=True)
    a.grad = ipt.randn(300, 400)
    grad, grad_values = a.grad, a.grad.clone()
    expected = a.detach() - 0.1 * a.grad
    b_before, storage = b.tolist(), a.untyped_storage()
    with ipt.memory.record() as trace:
        answer([a, b], 0.1)
    if b.tolist() != b_before or b.grad is not None:
        return False, "a param whose grad is None must be left alone"
    if a.grad is not grad or (a.grad - grad_values).abs().amax().item() != 0:
        return False, ("your update changed p.grad: the next step (or gradient clipping, or "
                       "logging) would read a wrong gradient")
    if a.untyped_storage() is not storage:
        return False, "the parameter must be updated in place (same storage)"
    if (a.detach() - expected).abs().amax().item() > 1e-5:
        return False, "the weights are not param - lr * grad"
    biggest = max((e.nbytes for e in trace.events if e.kind == "alloc"), default=0)
    if biggest >= a.untyped_storage().nbytes():
        return False, (f"your update allocated a full-size temporary ({biggest:,} B): that "
                       "is the article's `lr * param.grad`")
    return True, (f"param -= lr * grad in place, grads untouched; the largest allocation was "
                  f"{biggest:,} B for a {a.untyped_storage().nbytes():,} B weight")


@exercise("05.2", hint=(
    "Look at opt.state after one step(): one dict of tensors per parameter (the cell above "
    "prints it).",
    "exp_avg and exp_avg_sq each have their parameter's shape; step is a 0-d tensor.",
    "Count the parameters' elements (sum of p.numel()), then turn elements into bytes."))
def _(answer):
    ipt.manual_seed(0)
    model = ipt.models.digits_mlp()
    opt = ipt.optim.Adam(model.parameters(), lr=1e-3)
    x, y = ipt.randn(8, 1, 8, 8), ipt.tensor([0, 1, 2, 3, 4, 5, 6, 7])
    ipt.nn.functional.cross_entropy(model(x), y).backward()
    opt.step()
    buffers = sum(s[k].untyped_storage().nbytes() for s in opt.state.values()
                  for k in ("exp_avg", "exp_avg_sq"))
    # PyTorch's Adam (and the core's) also keeps `step` as a 0-d float32 tensor per parameter;
    # the notebook's measurement counts those too, so both totals are right.
    everything = sum(v.untyped_storage().nbytes() for s in opt.state.values()
                     for v in s.values() if isinstance(v, ipt.Tensor))
    got = whole_number(answer)
    if got is None:
        return False, f"answer should be a whole number of bytes, not {short(answer)}"
    params = sum(p.untyped_storage().nbytes() for p in model.parameters())
    if got == params:
        return False, "that is one buffer's worth; Adam keeps two per parameter"
    if got == buffers:
        return True, f"{got:,} B: exp_avg + exp_avg_sq, twice the parameters' {params:,} B"
    if got == everything:
        return True, (f"{got:,} B: exp_avg + exp_avg_sq ({buffers:,} B, twice the parameters) "
                      f"plus {len(opt.state)} `step` tensors of 4 B")
    return False, f"{got:,} B is not what Adam's state takes"
