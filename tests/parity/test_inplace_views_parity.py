"""In-place ops on leaves and views: PyTorch's refusals, rebased histories, stale views.

Each program is ordinary PyTorch code written against ``t``; the harness runs it once
with ``t = torch`` and once with ``t = inplace_tutorial`` and compares every observation.
"""


import pytest

from .harness import (
    Registry,
    arr,
    catch,
    check_parity,
    fn_name,
    graph,
    next_names,
    upstream,
)

pytestmark = pytest.mark.parity

prog = Registry()


# ======================================================================================
# ---- in-place on leaves and views


@prog
def leaf_inplace_raises(t):
    x = t.tensor(arr(3), requires_grad=True)
    return {
        "add_": catch(lambda: x.add_(1)),
        "mul_": catch(lambda: x.mul_(2)),
        "zero_": catch(lambda: x.zero_()),
        "version": x._version,
    }


@prog
def leaf_setitem_raises(t):
    x = t.tensor(arr(3), requires_grad=True)

    def f():
        x[0] = 1.0

    return {"err": catch(f)}


@prog
def leaf_iadd_raises(t):
    x = t.tensor(arr(3), requires_grad=True)

    def f():
        nonlocal x
        x += 1

    return {"err": catch(f)}


@prog
def leaf_view_inplace_raises(t):
    x = t.tensor(arr(3, 4), requires_grad=True)
    v = x[1]
    return {
        "err": catch(lambda: v.add_(1)),
        "err_t": catch(lambda: x.t().mul_(2)),
        "err_view": catch(lambda: x.view(12).zero_()),
    }


@prog
def leaf_metadata_inplace_on_leaf(t):
    x = t.tensor(arr(3, 4), requires_grad=True)
    return {"t_": catch(lambda: x.t_() is x), "unsqueeze_": catch(lambda: x.unsqueeze_(0) is x)}


@prog
def leaf_view_inplace_under_no_grad_ok(t):
    x = t.tensor(arr(3, 4), requires_grad=True)
    with t.no_grad():
        x[0].zero_()
        x.t()[1].add_(1)
    return {"x": x, "version": x._version, "leaf": x.is_leaf, "grad_fn": x.grad_fn is None}


@prog
def leaf_detached_inplace_allowed_and_bumps_version(t):
    x = t.tensor(arr(3), requires_grad=True)
    d = x.detach()
    d.mul_(2)
    return {
        "x": x,
        "version": x._version,
        "leaf": x.is_leaf,
        "shares": d.data_ptr() == x.data_ptr(),
    }


@prog
def intermediate_iadd_breaks_saved_output(t):
    x = t.tensor(arr(3), requires_grad=True)
    y = x.exp()
    obj = y
    y += 1
    return {
        "same_object": y is obj,
        "grad_fn": fn_name(y.grad_fn),
        "err": catch(lambda: y.sum().backward()),
    }


@prog
def multi_output_view_unbind_inplace_raises(t):
    x = t.tensor(arr(3, 4), requires_grad=True)
    y = x * 1
    a, b, c = y.unbind(0)
    return {"err": catch(lambda: a.mul_(2))}


@prog
def multi_output_view_split_inplace_raises(t):
    x = t.tensor(arr(4, 3), requires_grad=True)
    y = x * 1
    p, q = y.split(2)
    return {"err": catch(lambda: q.add_(1))}


@prog
def multi_output_view_chunk_inplace_raises(t):
    x = t.tensor(arr(4, 3), requires_grad=True)
    y = x * 1
    p, q = y.chunk(2)
    return {"err": catch(lambda: p.relu_())}


@prog
def multi_output_view_no_grad_base_ok(t):
    y = t.tensor(arr(4, 3))
    p, q = y.split(2)
    p.add_(1)
    return {"y": y, "version": y._version}


@prog
def multi_output_view_modified_under_no_grad_then_used(t):
    x = t.tensor(arr(3, 4), requires_grad=True)
    y = x * 1
    a, b, c = y.unbind(0)
    with t.no_grad():
        b.clamp_(-0.5, 0.5)
    return {
        "use_b": catch(lambda: b.sum()),
        "use_a": catch(lambda: fn_name(a.grad_fn)),
        "y_version": y._version,
    }


@prog
def multi_output_view_of_plain_tensor_base_gets_grad(t):
    # found by the fuzzer (seed 588): split of a tensor that does not require grad, then the
    # base is modified in place by an op that makes it require grad
    x = t.tensor(arr(2, 3, 4), requires_grad=True)
    c = t.tensor(arr(2, 3, 4, seed=1))
    p = c.split(2)[0]
    c.mul_(x)
    return {"use_view": catch(lambda: p.sum()), "c_grad_fn": fn_name(c.grad_fn)}


@prog
def view_of_plain_tensor_setitem_then_inplace(t):
    # found by the fuzzer (seed 1753)
    x = t.tensor(arr(3, 4), requires_grad=True)
    c = t.tensor(arr(3, 4, seed=1))
    u = c.unsqueeze(0)
    u[0] = x
    obs = {
        "u_grad_fn": fn_name(u.grad_fn),
        "c_grad_fn": fn_name(c.grad_fn),
        "u_leaf": u.is_leaf,
        "c_leaf": c.is_leaf,
    }
    obs["clamp_"] = catch(lambda: u.clamp_(-0.5, 0.5) is u)
    return obs


@prog
def metadata_inplace_on_view_of_nonleaf(t):
    # found by the fuzzer (seed 2207): transpose_ on a permuted view of a non-leaf
    x = t.tensor(arr(2, 3, 4), requires_grad=True)
    y = x.clone()
    v = y.permute(1, 0, 2)
    v.transpose_(0, 2)
    obs = {"meta": tuple(v.shape), "stride": v.stride(), "grad_fn": fn_name(v.grad_fn)}
    (v.sum() * 2 + y.sum()).backward()
    obs["grad"] = x.grad
    return obs


@prog
def metadata_inplace_t_on_nonleaf_then_backward(t):
    x = t.tensor(arr(3, 4), requires_grad=True)
    y = x * 1
    y.t_()
    obs = {"grad_fn": fn_name(y.grad_fn), "shape": tuple(y.shape), "version": y._version}
    y.backward(upstream(t, y))
    obs["grad"] = x.grad
    return obs


@prog
def view_made_under_no_grad_inplace_raises(t):
    x = t.tensor(arr(3, 4), requires_grad=True)
    y = x * 1
    with t.no_grad():
        v = y[0]
    return {"err": catch(lambda: v.mul_(2)), "v_rg": v.requires_grad}


@prog
def view_of_nonleaf_inplace_copyslices(t):
    x = t.tensor(arr(3, 4), requires_grad=True)
    y = x * 2
    v = y[1]
    v.mul_(3)
    obs = {
        "base_grad_fn": fn_name(y.grad_fn),
        "base_name": y.grad_fn.name(),
        "base_next": next_names(y.grad_fn),
        "view_grad_fn": fn_name(v.grad_fn),
        "view_next": next_names(v.grad_fn),
        "versions": [y._version, v._version],
        "y": y,
    }
    y.backward(upstream(t, y))
    obs["grad"] = x.grad
    return obs


@prog
def view_of_nonleaf_slice_relu_(t):
    x = t.tensor(arr(3, 4), requires_grad=True)
    y = x.exp()
    z = y * 1
    z[:, 1:3].relu_()
    z.backward(upstream(t, z))
    return {"grad": x.grad, "graph": graph(z.grad_fn, depth=4)}


@prog
def view_of_nonleaf_relu_then_neg_raises(t):
    x = t.tensor(arr(3, 4), requires_grad=True)
    z = x * 1
    v = z[:, 1:3].relu_().neg_()
    return {"err": catch(lambda: z.sum().backward()), "v_version": v._version}


@prog
def view_of_nonleaf_setitem_with_grad_value(t):
    x = t.tensor(arr(3, 4), requires_grad=True)
    w = t.tensor(arr(4, seed=1), requires_grad=True)
    y = x * 1
    y[2] = w * w
    y.backward(upstream(t, y))
    return {"x_grad": x.grad, "w_grad": w.grad, "grad_fn": fn_name(y.grad_fn)}


@prog
def view_grad_fn_after_base_modified(t):
    x = t.tensor(arr(3, 4), requires_grad=True)
    y = x * 1
    v = y[:, 0]
    before = fn_name(v.grad_fn)
    y.mul_(2)
    after = fn_name(v.grad_fn)
    v.sum().backward()
    return {"before": before, "after": after, "grad": x.grad}


@prog
def view_of_plain_tensor_sees_base_become_differentiable(t):
    x = t.tensor(arr(3, 4), requires_grad=True)
    c = t.zeros(3, 4)
    v = c[:, ::2]
    before = v.requires_grad
    c.add_(x)
    obs = {
        "before": before,
        "after": v.requires_grad,
        "grad_fn": fn_name(v.grad_fn),
        "c_grad_fn": fn_name(c.grad_fn),
    }
    v.backward(upstream(t, v))
    obs["grad"] = x.grad
    return obs


@prog
def view_of_plain_tensor_written_with_grad_then_base_used(t):
    x = t.tensor(arr(4), requires_grad=True)
    c = t.zeros(3, 4)
    c[1] = x * 2
    c.t()[0].mul_(3)
    c.backward(upstream(t, c))
    return {"grad": x.grad, "c": c, "graph": graph(c.grad_fn, depth=3)}


@prog
def view_transposed_inplace_of_nonleaf(t):
    x = t.tensor(arr(2, 3), requires_grad=True)
    y = x + 0
    yt = y.t()
    yt.mul_(t.tensor(arr(3, 2, seed=5)))
    y.backward(upstream(t, y))
    return {"grad": x.grad, "y": y, "base": fn_name(y.grad_fn)}


@prog
def view_written_by_an_op_without_self_derivative(t):
    """igamma_'s derivative for self is not implemented: on a view of a base that needed no
    grad, CopySlices asks the op for no gradient of self, so backward works; on a view of a
    base that needs grad, it asks, and backward raises."""
    x = t.tensor(arr(2, 3, seed=1).__abs__() + 0.5, requires_grad=True)
    plain = t.linspace(0.25, 3.0, 6, dtype=x.dtype).reshape(2, 3)
    out = plain.igamma_(x * 2)
    out.backward(upstream(t, out))
    w = t.tensor(arr(6, seed=2).__abs__() + 0.5, requires_grad=True)
    grad_base = w * 1
    grad_base.view(2, 3).igamma_(x)
    return {"grad": x.grad, "out": out, "graph": graph(plain.grad_fn, depth=2),
            "needs self": catch(lambda: grad_base.backward(upstream(t, grad_base)))}


# ======================================================================================


@pytest.mark.parametrize("program", prog.params())
def test_inplace_views_parity(program, torch_mod, core):
    check_parity(program, torch_mod, core)
