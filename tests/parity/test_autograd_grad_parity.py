"""torch.autograd.grad: outputs, inputs, grad_outputs, retain_graph, allow_unused,
materialize_grads, and PyTorch's errors for each, word for word.

Each program is ordinary PyTorch code written against ``t``; the harness runs it once with
``t = torch`` and once with ``t = inplace_tutorial`` and compares every observation.
"""

import pytest

from .harness import Registry, arr, catch, check_parity, pos

pytestmark = pytest.mark.parity

prog = Registry()


def _xw(t):
    x = t.tensor(arr(3, seed=1), requires_grad=True)
    w = t.tensor(arr(3, seed=2), requires_grad=True)
    return x, w


@prog
def grad_basic_does_not_touch_dot_grad(t):
    x, w = _xw(t)
    y = (x * w).sum()
    gx, gw = t.autograd.grad(y, [x, w])
    return {"gx": gx, "gw": gw, "x.grad": x.grad, "w.grad": w.grad, "type": type((gx,)).__name__}


@prog
def grad_single_tensor_input_gives_tuple(t):
    x, _ = _xw(t)
    out = t.autograd.grad((x * x).sum(), x)
    return {"len": len(out), "g": out[0]}


@prog
def grad_unused_input(t):
    x, w = _xw(t)
    y = (x * 2).sum()
    return {
        "refused": catch(lambda: t.autograd.grad(y, [x, w], retain_graph=True)),
        "allow_unused": t.autograd.grad(y, [x, w], retain_graph=True, allow_unused=True),
        "materialize": t.autograd.grad(y, [x, w], retain_graph=True, materialize_grads=True),
        "bad_combo": catch(lambda: t.autograd.grad(y, [x, w], retain_graph=True,
                                                   allow_unused=False, materialize_grads=True)),
    }


@prog
def grad_errors(t):
    x, _ = _xw(t)
    y = (x * 2).sum()
    return {
        "empty_inputs": catch(lambda: t.autograd.grad(y, [], retain_graph=True)),
        "non_scalar": catch(lambda: t.autograd.grad(x * 2, x)),
        "output_no_grad": catch(lambda: t.autograd.grad(t.ones(3).sum(), x)),
        "input_no_grad": catch(lambda: t.autograd.grad(y, t.ones(3), retain_graph=True)),
        "input_not_tensor": catch(lambda: t.autograd.grad(y, "a", retain_graph=True)),
        "grad_outputs_number": catch(lambda: t.autograd.grad(y, x, grad_outputs=2.0,
                                                             retain_graph=True)),
        "grad_outputs_list_number": catch(lambda: t.autograd.grad(y, x, grad_outputs=[2.0],
                                                                  retain_graph=True)),
    }


@prog
def grad_twice_without_retain_graph(t):
    x = t.tensor(pos(3, seed=1), requires_grad=True)
    y = (x * x).sum()
    first = t.autograd.grad(y, x)
    return {"first": first, "second": catch(lambda: t.autograd.grad(y, x))}


@prog
def grad_retain_graph_twice(t):
    x = t.tensor(pos(3, seed=1), requires_grad=True)
    y = (x.exp() * x).sum()
    a = t.autograd.grad(y, x, retain_graph=True)
    b = t.autograd.grad(y, x)
    return {"a": a, "b": b}


@prog
def grad_grad_outputs(t):
    x, _ = _xw(t)
    y = x * 3
    v = t.tensor(arr(3, seed=5))
    return {
        "vjp": t.autograd.grad(y, x, grad_outputs=v, retain_graph=True),
        "list": t.autograd.grad([y], [x], grad_outputs=[v], retain_graph=True),
        "shape": catch(lambda: t.autograd.grad(y, x, grad_outputs=t.ones(2), retain_graph=True)),
        "double_cast": t.autograd.grad(y, x, grad_outputs=v.to(t.float64), retain_graph=True),
    }


@prog
def grad_several_outputs_summed(t):
    x, _ = _xw(t)
    z = x * 3
    zz = z.sum()
    return {
        "same_twice": t.autograd.grad([zz, zz], [x], retain_graph=True),
        "weighted": t.autograd.grad([zz, zz], [x], grad_outputs=[None, t.tensor(2.0)],
                                    retain_graph=True),
        "two_outputs": t.autograd.grad([zz, (x * x).sum()], x, retain_graph=True),
    }


@prog
def grad_with_respect_to_non_leaf(t):
    x, _ = _xw(t)
    z = x * 3
    zz = (z * z).sum()
    gz = t.autograd.grad(zz, z, retain_graph=True)
    both = t.autograd.grad(zz, [z, x], retain_graph=True)
    return {"gz": gz, "both": both, "x.grad": x.grad, "z_is_leaf": z.is_leaf}


@prog
def grad_fires_retain_grad(t):
    x, _ = _xw(t)
    y = x * 2
    y.retain_grad()
    g = t.autograd.grad((y * 3).sum(), x)
    return {"g": g, "y.grad": y.grad, "x.grad": x.grad}


@prog
def grad_after_inplace_version_error(t):
    x, _ = _xw(t)
    a = x * 1
    y = (a * a).sum()
    a.add_(1)
    return {"err": catch(lambda: t.autograd.grad(y, x))}


@prog
def grad_of_view_and_base(t):
    x = t.tensor(arr(2, 3, seed=3), requires_grad=True)
    b = x * 1
    v = b[0]
    y = (v * v).sum() + b.sum()
    return {"g": t.autograd.grad(y, [v, b, x])}


@prog
def backward_grad_tensors_forms(t):
    x, _ = _xw(t)
    y = x * 2
    return {
        "number": catch(lambda: y.backward(2.0)),
        "list_of_numbers": catch(lambda: y.backward([2.0, 1.0, 1.0])),
        "x.grad": x.grad,
    }


@prog
def backward_inputs_subset(t):
    x, w = _xw(t)
    y = (x * w).sum()
    y.backward(inputs=[x])
    return {"x.grad": x.grad, "w.grad": w.grad}


# ======================================================================================


@pytest.mark.parametrize("program", prog.params())
def test_autograd_grad_parity(program, torch_mod, core):
    check_parity(program, torch_mod, core)
