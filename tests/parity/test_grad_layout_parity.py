"""Which gradient a leaf keeps as its ``.grad``, and in which layout: mm's backward formulas
lay a gradient out like a transposed (column-major) input, so Linear's weight gradient comes
through TBackward0 already in the weight's layout, and AccumulateGrad keeps it instead of
copying it. A gradient sent along two edges is copied; views made during backward are kept
(they are no views to PyTorch but share storage and version counter).

Each program is ordinary PyTorch code written against ``t``; the harness runs it once with
``t = torch`` and once with ``t = inplace_tutorial`` and compares every observation.
"""

import pytest

from .harness import Registry, arr, check_parity, meta, ptr_delta, same_storage

pytestmark = pytest.mark.parity

prog = Registry()


def _linear_leaves(t):
    w = t.tensor(arr(3, 4, seed=1), requires_grad=True)
    b = t.tensor(arr(3, seed=2), requires_grad=True)
    x = t.tensor(arr(5, 4, seed=3))
    return w, b, x


@prog
def linear_weight_grad_is_kept_not_copied(t):
    w, b, x = _linear_leaves(t)
    (t.nn.functional.linear(x, w, b) * t.tensor(arr(5, 3, seed=4))).sum().backward()
    g = w.grad
    return {"grad": g, "meta": meta(g), "is_view": g._is_view(), "version": g._version,
            "storage_bytes": g.untyped_storage().nbytes(), "bias": meta(b.grad)}


@prog
def linear_second_backward_adds_into_the_kept_grad(t):
    w, b, x = _linear_leaves(t)
    t.nn.functional.linear(x, w, b).pow(2).sum().backward()
    ptr = w.grad.data_ptr()
    t.nn.functional.linear(x, w, b).pow(2).sum().backward()
    return {"grad": w.grad, "same_ptr": w.grad.data_ptr() == ptr, "version": w.grad._version}


@prog
def linear_layer_weight_grad_in_weight_layout(t):
    t.manual_seed(0)
    lin = t.nn.Linear(4, 3)
    x = t.tensor(arr(2, 6, 4, seed=5))  # 3-D input: a view to 2-D, one addmm
    lin(x).exp().sum().backward()
    return {"weight": meta(lin.weight.grad), "bytes": lin.weight.grad.untyped_storage().nbytes(),
            "bias": meta(lin.bias.grad)}


def _record(seen, key):
    """A hook that notes the gradient's strides and values (and returns None: no change)."""
    def hook(g):
        seen[key] = (g.stride(), g.clone())
    return hook


@prog
def mm_gradient_strides_seen_by_hooks(t):
    # mm_mat1_backward / mm_mat2_backward: a column-major input gets a column-major gradient
    seen = {}
    for name, (ra, ca), (rb, cb) in (("plain", (5, 4), (4, 3)), ("mat1_t", (4, 5), (4, 3)),
                                     ("mat2_t", (5, 4), (3, 4)), ("both_t", (4, 5), (3, 4))):
        a = t.tensor(arr(ra, ca, seed=6), requires_grad=True)
        b = t.tensor(arr(rb, cb, seed=7), requires_grad=True)
        ma = a.t() if name in ("mat1_t", "both_t") else a * 1
        mb = b.t() if name in ("mat2_t", "both_t") else b * 1
        ma.register_hook(_record(seen, name + " mat1"))
        mb.register_hook(_record(seen, name + " mat2"))
        (ma @ mb).sin().sum().backward()
        seen[name + " leaves"] = (meta(a.grad), meta(b.grad))
    return seen


@prog
def addmm_gradient_strides_seen_by_hooks(t):
    seen = {}
    bias = t.tensor(arr(3, seed=8), requires_grad=True)
    a = t.tensor(arr(4, 5, seed=9), requires_grad=True)
    b = t.tensor(arr(3, 4, seed=10), requires_grad=True)
    ma, mb = a.t(), b.t()
    ma.register_hook(_record(seen, "mat1"))
    mb.register_hook(_record(seen, "mat2"))
    t.addmm(bias, ma, mb, beta=0.5, alpha=2.0).cos().sum().backward()
    seen["leaves"] = (meta(a.grad), meta(b.grad), meta(bias.grad))
    return seen


@prog
def retain_grad_of_a_column_major_gradient_is_row_major(t):
    w = t.tensor(arr(3, 4, seed=11), requires_grad=True)
    wt = w.t()
    wt.retain_grad()
    (t.tensor(arr(5, 4, seed=12)) @ wt).sum().backward()
    return {"retained": meta(wt.grad), "values": wt.grad, "leaf": meta(w.grad)}


@prog
def cat_leaves_keep_views_of_one_gradient(t):
    a = t.tensor(arr(4, seed=13), requires_grad=True)
    b = t.tensor(arr(4, seed=14), requires_grad=True)
    (t.cat([a, b]) * 2).sum().backward()
    out = {"same_storage": same_storage(a.grad, b.grad), "delta": ptr_delta(b.grad, a.grad),
           "is_view": (a.grad._is_view(), b.grad._is_view())}
    b.grad.add_(1)  # one version counter, as views of one buffer
    out["versions"] = (a.grad._version, b.grad._version)
    out["grads"] = (a.grad, b.grad)
    return out


@prog
def one_gradient_sent_to_two_leaves_is_copied(t):
    a = t.tensor(arr(3, seed=15), requires_grad=True)
    b = t.tensor(arr(3, seed=16), requires_grad=True)
    ((a + b) * t.tensor(arr(3, seed=17))).sum().backward()
    return {"same_storage": same_storage(a.grad, b.grad), "grads": (a.grad, b.grad)}


@pytest.mark.parametrize("program", prog.params())
def test_grad_layout_parity(program, torch_mod, core):
    check_parity(program, torch_mod, core)
