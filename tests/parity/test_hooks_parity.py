"""Tensor hooks: register_hook, register_post_accumulate_grad_hook, handles, and the rules for
hooks on a tensor that is later modified in place (which gradient each hook sees).

Each program is ordinary PyTorch code written against ``t``; the harness runs it once with
``t = torch`` and once with ``t = inplace_tutorial`` and compares every observation.
"""

import pytest

from .harness import Registry, arr, catch, check_parity, fn_name

pytestmark = pytest.mark.parity

prog = Registry()

W3 = arr(3, seed=7)  # a non-uniform upstream weight, so each position's gradient differs


def _x(t):
    return t.tensor(arr(3, seed=1), requires_grad=True)


@prog
def hook_leaf_returns_new_grad_then_remove(t):
    x = _x(t)
    handle = x.register_hook(lambda g: g * 10)
    (x * 2).sum().backward()
    first = x.grad.clone()
    handle.remove()
    handle.remove()  # a second remove does nothing
    (x * 2).sum().backward()
    return {"first": first, "after_remove": x.grad}


@prog
def hook_chain_in_registration_order(t):
    x = _x(t)
    seen = []
    x.register_hook(lambda g: seen.append(("a", g.clone())))
    x.register_hook(lambda g: g + 1)
    x.register_hook(lambda g: seen.append(("c", g.clone())))
    (x * t.tensor(W3)).sum().backward()
    return {"seen": seen, "grad": x.grad}


@prog
def hook_handle_as_context_manager(t):
    x = _x(t)
    with x.register_hook(lambda g: g * 0):
        (x * 2).sum().backward()
    inside = x.grad.clone()
    (x * 2).sum().backward()
    return {"inside": inside, "after": x.grad}


@prog
def hook_nonleaf_registered_before_and_after_inplace(t):
    # The hook registered before mul_ stays on the old node: it sees the gradient of y's
    # old value; the one registered after sees the gradient of the new value.
    x = _x(t)
    y = x * 2
    seen = []
    y.register_hook(lambda g: seen.append(("before", g.clone())))
    y.mul_(3)
    y.register_hook(lambda g: seen.append(("after", g.clone())))
    (y * t.tensor(W3)).sum().backward()
    return {"seen": seen, "grad": x.grad, "grad_fn": fn_name(y.grad_fn)}


@prog
def hook_on_view_then_inplace_on_that_view(t):
    x = _x(t)
    b = x * 1
    v = b[:2]
    seen = []
    v.register_hook(lambda g: seen.append(("v", g.clone())))
    b.register_hook(lambda g: seen.append(("b", g.clone())))
    v.mul_(5)
    (b * t.tensor(W3)).sum().backward()
    return {"seen": seen, "grad": x.grad, "v_fn": fn_name(v.grad_fn), "b_fn": fn_name(b.grad_fn)}


@prog
def hook_on_base_then_inplace_through_view(t):
    x = _x(t)
    b = x * 1
    seen = []
    b.register_hook(lambda g: seen.append(("old", g.clone())))
    b[:2].mul_(5)
    b.register_hook(lambda g: seen.append(("new", g.clone())))
    (b * t.tensor(W3)).sum().backward()
    return {"seen": seen, "grad": x.grad}


@prog
def hook_on_view_after_base_changed(t):
    # v's grad_fn is regenerated (AsStrided) after its base changed; the hook goes there.
    # (torch 2.13 crashes with a segmentation fault if register_hook is the first thing to
    # touch the stale view, so the program reads grad_fn first.)
    x = _x(t)
    b = x * 1
    v = b[1:]
    b.mul_(2)
    regenerated = fn_name(v.grad_fn)
    seen = []
    v.register_hook(lambda g: seen.append(g.clone()))
    (v * t.tensor(W3[:2])).sum().backward()
    return {"seen": seen, "grad": x.grad, "v_fn": regenerated}


@prog
def hook_returning_new_grad_on_nonleaf(t):
    x = _x(t)
    y = x * 2
    y.register_hook(lambda g: g * 100)
    (y * t.tensor(W3)).sum().backward()
    return {"grad": x.grad}


@prog
def hook_and_retain_grad_order(t):
    # retain_grad's .grad is taken after every tensor hook, whichever was registered first
    x = _x(t)
    y1 = x * 2
    y1.retain_grad()
    y1.register_hook(lambda g: g * 100)
    y2 = x * 3
    y2.register_hook(lambda g: g * 100)
    y2.retain_grad()
    (y1 + y2).sum().backward()
    return {"y1": y1.grad, "y2": y2.grad, "x": x.grad}


@prog
def hook_errors(t):
    x = _x(t)

    def size_hook(g):
        return g[:2]

    y = x * 2
    y.register_hook(size_hook)
    size = catch(lambda: y.sum().backward())
    y = x * 2
    y.register_hook(lambda g: g.to(t.float64))
    dtype = catch(lambda: y.sum().backward())
    y = x * 2
    y.register_hook(lambda g: 5)
    not_tensor = catch(lambda: y.sum().backward())
    y = x * 2
    y.register_hook(lambda g: g.to(t.int64))
    to_long = catch(lambda: y.sum().backward())
    return {
        "size": size, "dtype": dtype, "not_tensor": not_tensor, "to_long": to_long,
        "grad": x.grad,  # nothing was accumulated by the failed runs
        "no_grad_tensor": catch(lambda: t.zeros(3).register_hook(lambda g: g)),
        "under_no_grad": catch(lambda: _no_grad_register(t, x)),
    }


def _no_grad_register(t, x):
    with t.no_grad():
        h = x.register_hook(lambda g: g)
    h.remove()
    return "registered"


@prog
def hook_mask_with_retain_graph(t):
    # a hook that zeroes part of the gradient, removed between two backward passes
    x = _x(t)
    y = (x * x).sum()
    mask = t.tensor([1.0, 0.0, 1.0])
    h = x.register_hook(lambda g: g * mask)
    y.backward(retain_graph=True)
    first = x.grad.clone()
    h.remove()
    y.backward()
    return {"first": first, "second": x.grad}


@prog
def post_accumulate_grad_hook(t):
    z = t.tensor(arr(2, seed=3), requires_grad=True)
    seen = []
    h = z.register_post_accumulate_grad_hook(lambda p: seen.append(p.grad.clone()))
    (z * 3).sum().backward()
    (z * 3).sum().backward()  # sees the accumulated .grad
    h.remove()
    (z * 3).sum().backward()
    return {
        "seen": seen, "grad": z.grad,
        "non_leaf": catch(lambda: (z * 2).register_post_accumulate_grad_hook(lambda p: None)),
        "no_grad": catch(lambda: t.zeros(2).register_post_accumulate_grad_hook(lambda p: None)),
    }


@prog
def post_accumulate_hook_runs_after_tensor_hook(t):
    z = t.tensor(arr(2, seed=3), requires_grad=True)
    order = []
    z.register_post_accumulate_grad_hook(lambda p: order.append(("post", p.grad.clone())))
    z.register_hook(lambda g: order.append(("pre", g.clone())))
    (z * 5).sum().backward()
    return {"order": order}


@prog
def hooks_with_autograd_grad(t):
    w = t.tensor(arr(2, seed=4), requires_grad=True)
    w.register_hook(lambda g: g * 7)
    leaf_grad = t.autograd.grad((w * 2).sum(), w)
    q = w * 2
    q.register_hook(lambda g: g * 3)
    nonleaf_grad = t.autograd.grad((q * q).sum(), q)
    return {"leaf": leaf_grad, "nonleaf": nonleaf_grad, "w.grad": w.grad}


# ======================================================================================


@pytest.mark.parametrize("program", prog.params())
def test_hooks_parity(program, torch_mod, core):
    check_parity(program, torch_mod, core)
