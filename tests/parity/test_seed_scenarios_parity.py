"""The seed articles' scenarios, run on both libraries.

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
)

pytestmark = pytest.mark.parity

prog = Registry()


# ======================================================================================
# seed article scenarios


@prog
def seed_mul_scalar_then_relu_inplace_works(t):
    x = t.tensor([1.0, -2.0, 3.0], requires_grad=True)
    y = x * 2
    y.relu_()
    y.sum().backward()
    return {"grad": x.grad, "y": y, "grad_fn": fn_name(y.grad_fn)}


@prog
def seed_sigmoid_then_mul_inplace_fails(t):
    x = t.tensor([1.0, -2.0, 3.0], requires_grad=True)
    y = x.sigmoid()
    y.mul_(2)
    return {"err": catch(lambda: y.sum().backward())}


def _linear_relu_linear(t, inplace):
    x = t.tensor(arr(4, 5, seed=50))
    w1 = t.tensor(arr(6, 5, seed=51) * 0.5, requires_grad=True)
    b1 = t.tensor(arr(6, seed=52) * 0.1, requires_grad=True)
    w2 = t.tensor(arr(3, 6, seed=53) * 0.5, requires_grad=True)
    b2 = t.tensor(arr(3, seed=54) * 0.1, requires_grad=True)
    h = t.addmm(b1, x, w1.t())
    h = h.relu_() if inplace else h.relu()
    out = h @ w2.t() + b2
    loss = (out * out).mean()
    loss.backward()
    return {
        "loss": loss,
        "grads": [p.grad for p in (w1, b1, w2, b2)],
        "h_grad_fn": fn_name(h.grad_fn),
    }


@prog
def seed_linear_relu_inplace_linear_trains(t):
    return _linear_relu_linear(t, inplace=True)


@prog
def seed_linear_relu_out_of_place_same_grads(t):
    return _linear_relu_linear(t, inplace=False)


@prog
def seed_sgd_steps_with_add_alpha(t):
    x = t.tensor(arr(8, 3, seed=60))
    target = t.tensor(arr(8, 1, seed=61))
    w = t.tensor(arr(3, 1, seed=62), requires_grad=True)
    losses = []
    for _ in range(3):
        loss = ((x @ w - target) ** 2).mean()
        loss.backward()
        with t.no_grad():
            w.add_(w.grad, alpha=-0.1)
        w.grad.zero_()
        losses.append(loss.item())
    return {"losses": losses, "w": w, "leaf": w.is_leaf, "version": w._version}


@prog
def seed_sgd_between_two_backwards_fails(t):
    x = t.tensor(arr(4, 3, seed=63))
    w = t.tensor(arr(3, 2, seed=64), requires_grad=True)
    v = t.tensor(arr(2, seed=65), requires_grad=True)
    h = x @ w  # shared part of the graph, saves w
    loss1 = (h * v).sum()
    loss2 = (h * h).sum()
    loss1.backward(retain_graph=True)
    with t.no_grad():
        w.add_(w.grad, alpha=-0.01)
    return {"err": catch(lambda: loss2.backward()), "w_version": w._version}


@prog
def seed_sgd_sub_with_temporary(t):
    w = t.tensor(arr(3), requires_grad=True)
    (w * w).sum().backward()
    p = w.data_ptr()
    with t.no_grad():
        tmp = 0.1 * w.grad
        w.sub_(tmp)
    return {
        "w": w,
        "ptr": w.data_ptr() == p,
        "tmp_new_storage": tmp.data_ptr() != w.grad.data_ptr(),
    }


# ======================================================================================


@pytest.mark.parametrize("program", prog.params())
def test_seed_scenarios_parity(program, torch_mod, core):
    check_parity(program, torch_mod, core)
