"""grad_fn graphs and backward mechanics: gradient arguments, accumulation, retain_grad, inputs=.

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
    pos,
    upstream,
)

pytestmark = pytest.mark.parity

prog = Registry()


# ======================================================================================
# grad_fn graphs


@prog
def graph_next_functions_structure(t):
    x = t.tensor(arr(3, seed=1), requires_grad=True)
    w = t.tensor(arr(3, seed=2), requires_grad=True)
    c = t.tensor(arr(3, seed=3))
    y = ((x * w).exp() + c).sum()
    return {"graph": graph(y.grad_fn), "next": next_names(y.grad_fn)}


@prog
def graph_accumulate_grad_names(t):
    x = t.tensor(arr(3), requires_grad=True)
    y = x * 2
    acc = y.grad_fn.next_functions[0][0]
    return {
        "type": fn_name(acc),
        "name": acc.name(),
        "variable_is_x": acc.variable is x,
        "next_of_acc": list(acc.next_functions),
    }


@prog
def graph_constant_input_is_none(t):
    x = t.tensor(arr(3), requires_grad=True)
    c = t.tensor(arr(3, seed=1))
    return {
        "mul": next_names((x * c).grad_fn),
        "mul_rev": next_names((c * x).grad_fn),
        "add": next_names((c + x).grad_fn),
        "mm": next_names(t.mm(c.view(1, 3), x.view(3, 1)).grad_fn),
    }


@prog
def graph_view_chain(t):
    x = t.tensor(arr(2, 3, 4), requires_grad=True)
    y = x.permute(2, 0, 1)[1].t().unsqueeze(0).expand(2, 3, 2).sum()
    return {"graph": graph(y.grad_fn, depth=8)}


@prog
def graph_unbind_shares_node(t):
    x = t.tensor(arr(3, 2), requires_grad=True)
    a, b, c = x.unbind(0)
    return {
        "same_node": a.grad_fn is b.grad_fn,
        "names": [fn_name(v.grad_fn) for v in (a, b, c)],
        "output_nr": [v.output_nr for v in (a, b, c)],
    }


@prog
def graph_leaf_and_requires_grad_flags(t):
    x = t.tensor(arr(3), requires_grad=True)
    c = t.tensor(arr(3, seed=1))
    y = x * c
    z = c * 2
    return {
        "x": [x.is_leaf, x.requires_grad, x.grad_fn is None],
        "c": [c.is_leaf, c.requires_grad],
        "y": [y.is_leaf, y.requires_grad],
        "z": [z.is_leaf, z.requires_grad, z.grad_fn is None],
        "detached": [y.detach().is_leaf, y.detach().requires_grad],
    }


# ======================================================================================
# backward mechanics


@prog
def backward_with_gradient_argument(t):
    x = t.tensor(arr(2, 3), requires_grad=True)
    y = x * 3
    y.backward(gradient=t.tensor(arr(2, 3, seed=5)))
    return {"grad": x.grad}


@prog
def backward_accumulates(t):
    x = t.tensor(arr(3), requires_grad=True)
    (x * 2).sum().backward()
    g1 = x.grad.clone()
    (x * x).sum().backward()
    return {"g1": g1, "g2": x.grad}


@prog
def backward_grad_zero_between_calls(t):
    x = t.tensor(arr(3), requires_grad=True)
    (x * 2).sum().backward()
    g = x.grad
    p = g.data_ptr()
    x.grad.zero_()
    (x * 3).sum().backward()
    return {"grad": x.grad, "same_grad_object": x.grad is g, "same_ptr": x.grad.data_ptr() == p}


@prog
def backward_grad_none_before(t):
    x = t.tensor(arr(3), requires_grad=True)
    before = x.grad is None
    x.sum().backward()
    return {
        "before": before,
        "after": x.grad,
        "grad_requires_grad": x.grad.requires_grad,
        "grad_is_leaf": x.grad.is_leaf,
    }


@prog
def backward_retain_grad_twice_counts_once(t):
    x = t.tensor(arr(3), requires_grad=True)
    y = x * 2
    y.retain_grad()
    y.retain_grad()
    (y * y).sum().backward()
    return {"y_grad": y.grad}


@prog
def backward_inputs_leaf_only(t):
    a = t.tensor(arr(3, seed=1), requires_grad=True)
    b = t.tensor(arr(3, seed=2), requires_grad=True)
    y = (a * b * 3).sum()
    y.backward(inputs=[a])
    return {"a_grad": a.grad, "b_grad": b.grad}


@prog
def backward_inputs_non_leaf_retains_its_grad(t):
    a = t.tensor(arr(3, seed=1), requires_grad=True)
    h = a.sigmoid()
    y = (h * h).sum()
    y.backward(inputs=h, retain_graph=True)
    first = {"h_grad": h.grad.clone(), "a_grad": a.grad, "retains": h.retains_grad}
    y.backward(inputs=(h, a))
    return {**first, "h_grad_2": h.grad, "a_grad_2": a.grad}


@prog
def backward_inputs_through_copyslices(t):
    x = t.tensor(arr(4, seed=3), requires_grad=True)
    w = t.tensor(arr(4, seed=4), requires_grad=True)
    h = x * w
    h[1:3].mul_(2.5)
    h.sum().backward(inputs=[x])
    return {"x_grad": x.grad, "w_grad": w.grad, "h_grad_fn": fn_name(h.grad_fn)}


@prog
def backward_inputs_unreached_and_module_function(t):
    a = t.tensor(arr(3, seed=1), requires_grad=True)
    c = t.tensor(arr(3, seed=2), requires_grad=True)
    (a * 2).sum().backward(inputs=[c])
    y = (a * c).sum()
    t.autograd.backward(y, inputs=[c])
    return {"a_grad": a.grad, "c_grad": c.grad}


@prog
def backward_inputs_errors(t):
    a = t.tensor(arr(3, seed=1), requires_grad=True)
    return {
        "empty": catch(lambda: (a * 2).sum().backward(inputs=[])),
        "no_grad_input": catch(lambda: (a * 2).sum().backward(inputs=[t.ones(3)])),
    }


@prog
def backward_inputs_then_again_frees(t):
    x = t.tensor(arr(3, seed=1), requires_grad=True)
    w = t.tensor(arr(3, seed=2), requires_grad=True)
    q = (x.sigmoid() * w).sum()
    q.backward(inputs=[w])
    return {"w_grad": w.grad, "x_grad": x.grad, "again": catch(lambda: q.backward(inputs=[x]))}


@prog
def backward_retain_grad(t):
    x = t.tensor(arr(3), requires_grad=True)
    y = x * 2
    y.retain_grad()
    z = y * y
    z.sum().backward()
    return {
        "y_grad": y.grad,
        "x_grad": x.grad,
        "retains": y.retains_grad,
        "x_retains": x.retains_grad,
    }


@prog
def backward_shared_input_sums_paths(t):
    x = t.tensor(arr(3), requires_grad=True)
    y = x.exp()
    z = y * x + y.tanh()
    z.sum().backward()
    return {"grad": x.grad}


@prog
def backward_from_indexed_scalar(t):
    x = t.tensor(arr(3, 4), requires_grad=True)
    y = x.exp()
    y[1, 2].backward()
    return {"grad": x.grad}


@prog
def backward_into_preassigned_grad(t):
    x = t.tensor(arr(3), requires_grad=True)
    g = t.ones(3)
    x.grad = g
    (x * 2).sum().backward()
    return {"grad": x.grad, "same_object": x.grad is g, "g": g}


@prog
def backward_inplace_broadcast_operand_grad(t):
    x = t.tensor(arr(3, 4), requires_grad=True)
    b = t.tensor(arr(4, seed=1), requires_grad=True)
    c = t.tensor(arr(3, 1, seed=2), requires_grad=True)
    y = x * 1
    y.add_(b)
    y.mul_(c)
    y.backward(upstream(t, y))
    return {"x": x.grad, "b": b.grad, "c": c.grad, "graph": graph(y.grad_fn, depth=3)}


@prog
def backward_grad_layout_of_noncontiguous_leaf(t):
    w = t.tensor(arr(2, 3)).t().requires_grad_()
    (w * w).sum().backward()
    return {
        "leaf": w.is_leaf,
        "w_stride": w.stride(),
        "grad_stride": w.grad.stride(),
        "grad": w.grad,
    }


@prog
def backward_grad_layout_of_contiguous_leaf_from_transposed_upstream(t):
    x = t.tensor(arr(3, 2), requires_grad=True)
    y = x.t()
    y.backward(upstream(t, y).t().contiguous().t())
    return {"grad_stride": x.grad.stride(), "grad": x.grad}


@prog
def backward_twice_frees_graph(t):
    x = t.tensor(arr(3), requires_grad=True)
    y = (x * x).sum()
    y.backward()
    return {"err": catch(lambda: y.backward()), "grad": x.grad}


@prog
def backward_twice_without_saved_tensors_works(t):
    x = t.tensor(arr(3), requires_grad=True)
    y = (x + 1).sum()
    y.backward()
    r = catch(lambda: y.backward())
    return {"second": r, "grad": x.grad}


@prog
def backward_twice_per_op(t):
    """A second backward fails exactly when the graph saved something: what does each node save?"""
    ops = {
        "mul_scalar": lambda x: x * 2,
        "add_scalar": lambda x: x + 1,
        "div_scalar": lambda x: x / 2,
        "neg": lambda x: -x,
        "relu": lambda x: x.relu(),
        "exp": lambda x: x.exp(),
        "view": lambda x: x.view(3),
        "t": lambda x: x.unsqueeze(0).t(),
        "expand": lambda x: x.expand(2, 3),
        "select": lambda x: x[1],
        "slice": lambda x: x[1:],
        "clamp": lambda x: x.clamp(0, 1),
        "sum": lambda x: x.sum(),
        "mean": lambda x: x.mean(),
        "pow2": lambda x: x.pow(2),
        "abs": lambda x: x.abs(),
        "rdiv": lambda x: 2 / x,
        "rsub": lambda x: 1 - x,
        "clone": lambda x: x.clone(),
        "softmax": lambda x: x.softmax(0),
        "amax": lambda x: x.amax(0),
        "max": lambda x: x.max(),
        "maximum_const": lambda x: t.maximum(x, t.zeros(3)),
        "mul_const": lambda x: x * t.ones(3),
        "add_const": lambda x: x + t.ones(3),
        "mm_const": lambda x: x.view(1, 3).mm(t.ones(3, 1)),
        "sigmoid": lambda x: x.sigmoid(),
        "tanh": lambda x: x.tanh(),
        "sqrt": lambda x: x.sqrt(),
        "log": lambda x: x.log(),
        "unbind": lambda x: x.unbind(0)[0],
        "permute": lambda x: x.view(1, 3).permute(1, 0),
        "var": lambda x: x.var(),
        "sub_alpha": lambda x: x.sub(t.ones(3), alpha=2),
        "relu_inplace": lambda x: (x * 1).relu_(),
        "mul_inplace_scalar": lambda x: (x + 0).mul_(2),
    }
    out = {}
    for name, f in ops.items():
        x = t.tensor(pos(3), requires_grad=True)
        y = f(x).sum()
        y.backward()
        out[name] = catch(lambda: y.backward())  # noqa: B023 - called immediately
        out[name + "_grad"] = x.grad
    return out


@prog
def backward_retain_graph(t):
    x = t.tensor(arr(3), requires_grad=True)
    y = x.exp().sum()
    y.backward(retain_graph=True)
    y.backward()
    return {"grad": x.grad}


@prog
def backward_does_not_require_grad_raises(t):
    x = t.tensor(arr(3))
    return {"err": catch(lambda: (x * 2).sum().backward())}


@prog
def backward_non_scalar_raises(t):
    x = t.tensor(arr(3), requires_grad=True)
    return {"err": catch(lambda: (x * 2).backward()), "grad_none": x.grad is None}


@prog
def backward_gradient_shape_mismatch_raises(t):
    x = t.tensor(arr(3), requires_grad=True)
    return {"err": catch(lambda: (x * 2).backward(t.ones(4)))}


@prog
def requires_grad_on_int_raises(t):
    return {
        "method": catch(lambda: t.tensor([1, 2]).requires_grad_()),
        "ctor": catch(lambda: t.tensor([1, 2], requires_grad=True)),
    }


@prog
def requires_grad_does_not_bump_version(t):
    x = t.tensor(arr(3))
    r = x.requires_grad_()
    v = x._version
    x.requires_grad_(False)
    return {
        "same": r is x,
        "version": v,
        "version2": x._version,
        "rg": x.requires_grad,
        "leaf": x.is_leaf,
    }


@prog
def requires_grad_on_non_leaf_raises(t):
    x = t.tensor(arr(3), requires_grad=True)
    y = x * 2
    return {
        "err": catch(lambda: y.requires_grad_(False)),
        "ok_true": catch(lambda: y.requires_grad_(True)) is y,
    }


# ======================================================================================


@pytest.mark.parametrize("program", prog.params())
def test_backward_parity(program, torch_mod, core):
    check_parity(program, torch_mod, core)
