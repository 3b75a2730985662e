"""nn / optim parity: layers, losses and optimizers from identical weights, against PyTorch.

Every program builds its modules in ``t`` (torch or inplace_tutorial), copies the same NumPy
weights into both, and reports values, gradients, running statistics, weights after
optimizer steps, grad_fn names and errors. Read each one as the PyTorch program it mirrors.
"""

import numpy as np
import pytest

from .harness import Registry, arr, catch, check_parity, fn_name

prog = Registry()


def load(t, module, seed=0):
    """Overwrite every parameter of ``module`` with deterministic NumPy values (in place)."""
    with t.no_grad():
        for i, (_, p) in enumerate(module.named_parameters()):
            p.copy_(t.tensor(arr(*tuple(p.shape), seed=seed + i, low=-0.5, high=0.5)))
    return module


def grads(module):
    return {n: p.grad for n, p in module.named_parameters()}


def upstream(t, y, seed=99):
    return t.tensor(arr(*tuple(y.shape), seed=seed, low=-1.0, high=1.5))


def layer_program(name, make, in_shape, x_grad=True):
    """Forward a layer, backprop a fixed upstream gradient; observe output, grads, grad_fn."""

    def program(t):
        m = load(t, make(t))
        x = t.tensor(arr(*in_shape, seed=42), requires_grad=x_grad)
        y = m(x)
        y.backward(upstream(t, y))
        return {
            "y": y,
            "grad_fn": fn_name(y.grad_fn),
            "x.grad": x.grad,
            "grads": grads(m),
            "buffers": dict(m.named_buffers()),
        }

    program.__name__ = name
    prog(program)


layer_program("linear", lambda t: t.nn.Linear(4, 3), (5, 4))
layer_program("linear_no_bias", lambda t: t.nn.Linear(4, 3, bias=False), (5, 4))
layer_program("conv2d", lambda t: t.nn.Conv2d(2, 3, 3), (2, 2, 6, 6))
layer_program(
    "conv2d_stride2_padding1", lambda t: t.nn.Conv2d(2, 4, 3, stride=2, padding=1), (2, 2, 7, 7)
)
layer_program(
    "conv2d_padding2_no_bias",
    lambda t: t.nn.Conv2d(3, 2, (3, 2), padding=2, bias=False),
    (1, 3, 5, 4),
)
layer_program(
    "conv2d_input_without_grad",
    lambda t: t.nn.Conv2d(1, 2, 3, padding=1),
    (3, 1, 5, 5),
    x_grad=False,
)
layer_program("batchnorm2d_training", lambda t: t.nn.BatchNorm2d(3), (4, 3, 3, 3))
layer_program("batchnorm1d_training", lambda t: t.nn.BatchNorm1d(5), (6, 5))
layer_program("batchnorm_momentum_none", lambda t: t.nn.BatchNorm1d(2, momentum=None), (4, 2))
layer_program("maxpool2d_k2", lambda t: t.nn.MaxPool2d(2), (2, 2, 6, 6))
layer_program("maxpool2d_k3_s2_p1_overlapping", lambda t: t.nn.MaxPool2d(3, 2, 1), (1, 2, 7, 7))
layer_program("avgpool2d", lambda t: t.nn.AvgPool2d(2, 1), (1, 2, 4, 4))
layer_program("flatten", lambda t: t.nn.Flatten(), (2, 3, 2, 2))
layer_program(
    "relu_inplace_after_linear",
    lambda t: t.nn.Sequential(t.nn.Linear(4, 6), t.nn.ReLU(inplace=True), t.nn.Linear(6, 2)),
    (5, 4),
)
layer_program(
    "relu_inplace_after_batchnorm",
    lambda t: t.nn.Sequential(
        t.nn.Conv2d(2, 3, 3, padding=1),
        t.nn.BatchNorm2d(3),
        t.nn.ReLU(inplace=True),
        t.nn.MaxPool2d(2),
    ),
    (2, 2, 4, 4),
)


@prog
def batchnorm2d_eval_after_training(t):
    bn = load(t, t.nn.BatchNorm2d(3))
    for s in range(3):
        bn(t.tensor(arr(4, 3, 2, 2, seed=s) * (s + 1)))
    bn.eval()
    x = t.tensor(arr(2, 3, 2, 2, seed=7), requires_grad=True)
    y = bn(x)
    y.backward(upstream(t, y))
    return {
        "y": y,
        "x.grad": x.grad,
        "grads": grads(bn),
        "state": dict(bn.state_dict()),
        "grad_fn": fn_name(y.grad_fn),
    }


@prog
def sigmoid_then_relu_inplace_fails_at_backward(t):
    m = load(t, t.nn.Sequential(t.nn.Linear(3, 4), t.nn.Sigmoid(), t.nn.ReLU(inplace=True)))
    y = m(t.tensor(arr(2, 3, seed=1)))
    return {"forward": y, "backward": catch(lambda: y.sum().backward())}


@prog
def tanh_then_relu_inplace_fails_at_backward(t):
    x = t.tensor(arr(2, 3, seed=1), requires_grad=True)
    y = t.nn.ReLU(inplace=True)(t.nn.Tanh()(x * 2))
    return {"backward": catch(lambda: y.sum().backward())}


def loss_program(name, fn):
    def program(t):
        logits = t.tensor(arr(6, 5, seed=3), requires_grad=True)
        out = fn(t, logits)
        g = upstream(t, out) if out.dim() else None
        out.backward(g)
        return {"loss": out, "grad": logits.grad, "grad_fn": fn_name(out.grad_fn)}

    program.__name__ = name
    prog(program)


_T = np.array([0, 4, 1, 1, 3, 2])
for _red in ("mean", "sum", "none"):
    loss_program(
        f"cross_entropy_{_red}",
        lambda t, z, r=_red: t.nn.functional.cross_entropy(z, t.tensor(_T), reduction=r),
    )
    loss_program(
        f"mse_loss_{_red}",
        lambda t, z, r=_red: t.nn.functional.mse_loss(z, t.tensor(arr(6, 5, seed=4)), reduction=r),
    )
loss_program(
    "nll_loss_ignore_index",
    lambda t, z: t.nn.functional.nll_loss(
        z.log_softmax(1), t.tensor(np.array([0, -100, 1, 1, -100, 2]))
    ),
)
loss_program("cross_entropy_loss_module", lambda t, z: t.nn.CrossEntropyLoss()(z, t.tensor(_T)))
for _red in ("mean", "sum", "none"):
    loss_program(  # the mean divides by 0: nan, and every gradient cell 0
        f"nll_loss_every_target_ignored_{_red}",
        lambda t, z, r=_red: t.nn.functional.nll_loss(
            z, t.tensor(np.array([-100] * 6)), reduction=r),
    )
    loss_program(  # an ignore_index that is also a class: its rows count for nothing
        f"nll_loss_ignore_index_2_{_red}",
        lambda t, z, r=_red: t.nn.functional.nll_loss(
            z, t.tensor(_T), reduction=r, ignore_index=2),
    )
loss_program(  # column-major logits: the targets' cells are found through the strides
    "cross_entropy_transposed_input",
    lambda t, z: t.nn.functional.cross_entropy(z.t().contiguous().t(), t.tensor(_T)),
)


@prog
def nll_loss_empty_batch(t):
    z = t.zeros(0, 5, requires_grad=True)
    out = t.nn.functional.nll_loss(z, t.tensor(np.zeros(0, dtype=np.int64)))
    out.backward()
    return {"loss": out, "grad": z.grad, "grad_fn": fn_name(out.grad_fn)}


def optim_program(name, make_opt, steps=4):
    """A small CNN + MLP head trained ``steps`` steps; observe the weights and the state.

    The conv has no bias, as before any BatchNorm: BN cancels that bias, so its gradient is
    rounding noise (~1e-9) that Adam would normalise into full-size, library-specific steps.
    """

    def program(t):
        m = load(
            t,
            t.nn.Sequential(
                t.nn.Conv2d(1, 3, 3, padding=1, bias=False),
                t.nn.BatchNorm2d(3),
                t.nn.ReLU(inplace=True),
                t.nn.MaxPool2d(2),
                t.nn.Flatten(),
                t.nn.Linear(12, 4),
            ),
        )
        opt = make_opt(t, m.parameters())
        target = t.tensor(np.array([0, 1, 2, 3, 1]))
        losses = []
        for s in range(steps):
            opt.zero_grad()
            loss = t.nn.functional.cross_entropy(m(t.tensor(arr(5, 1, 4, 4, seed=s))), target)
            loss.backward()
            opt.step()
            losses.append(loss.item())
        state = [{k: v for k, v in opt.state[p].items()} for p in m.parameters()]
        return {"weights": dict(m.state_dict()), "losses": losses, "state": state}

    program.__name__ = name
    prog(program)


optim_program("sgd_plain", lambda t, ps: t.optim.SGD(ps, lr=0.1))
optim_program("sgd_momentum", lambda t, ps: t.optim.SGD(ps, lr=0.1, momentum=0.9))
optim_program(
    "sgd_momentum_dampening", lambda t, ps: t.optim.SGD(ps, lr=0.1, momentum=0.9, dampening=0.5)
)
optim_program(
    "sgd_nesterov_weight_decay",
    lambda t, ps: t.optim.SGD(ps, lr=0.1, momentum=0.9, nesterov=True, weight_decay=0.01),
)
optim_program("adam", lambda t, ps: t.optim.Adam(ps, lr=0.01))
optim_program("adam_weight_decay", lambda t, ps: t.optim.Adam(ps, lr=0.01, weight_decay=0.1))
optim_program("adam_amsgrad", lambda t, ps: t.optim.Adam(ps, lr=0.01, amsgrad=True))
optim_program("adamw", lambda t, ps: t.optim.AdamW(ps, lr=0.01))


@prog
def zero_grad_sets_none_by_default(t):
    m = load(t, t.nn.Linear(3, 2))
    opt = t.optim.SGD(m.parameters(), lr=0.1)
    m(t.tensor(arr(4, 3))).sum().backward()
    before = grads(m)
    opt.zero_grad()
    after_opt = grads(m)
    m(t.tensor(arr(4, 3))).sum().backward()
    m.zero_grad(set_to_none=False)
    return {
        "before": before,
        "after_optimizer_zero_grad": after_opt,
        "after_module_zero_grad_false": grads(m),
    }


@prog
def module_repr_and_state_dict_keys(t):
    m = t.nn.Sequential(
        t.nn.Conv2d(1, 4, 3, stride=2, padding=1),
        t.nn.BatchNorm2d(4),
        t.nn.ReLU(inplace=True),
        t.nn.MaxPool2d(2),
        t.nn.Dropout(0.1),
        t.nn.Flatten(),
        t.nn.Linear(4, 2),
    )
    p = t.nn.Parameter(t.tensor(np.array([1.0, 2.0], dtype=np.float32)))
    return {
        "repr": repr(m),
        "keys": list(m.state_dict()),
        "param_repr": repr(p),
        "is_tensor": isinstance(p, t.Tensor),
        "len": len(m),
        "last": repr(m[-1]),
    }


@prog
def dropout_eval_is_identity_and_p0(t):
    x = t.tensor(arr(3, 4), requires_grad=True)
    d = t.nn.Dropout(0.5)
    d.eval()
    y = d(x)
    return {"eval_same_object": y is x, "p0": t.nn.functional.dropout(x, 0.0), "y": y}


@pytest.mark.parametrize("program", prog.params())
def test_nn_parity(program, torch_mod, core):
    check_parity(program, torch_mod, core)


def test_enough_programs():
    assert len(prog.programs) >= 25
