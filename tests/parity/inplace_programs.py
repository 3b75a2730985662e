"""Real PyTorch programs with a known in-place bug, for the detect_inplace() parity tests.

Each program takes the ``torch`` module, builds its inputs from fixed numbers, runs forward
and backward, and returns the gradients (when it does not raise). The line that modifies a
saved tensor carries ``# culprit: <name>``, the line that saved it ``# saved: <name>``; a
culprit inside torch is named by ``LIBRARY[name]`` (a file under torch/). ``FIXED`` holds
programs without a bug: they must give the same gradients inside and outside the manager.
"""
from __future__ import annotations

from collections.abc import Callable

BUGGY: dict[str, Callable] = {}
FIXED: dict[str, Callable] = {}
LIBRARY: dict[str, str] = {}  # program -> torch file that holds the in-place line


def buggy(fn=None, *, library: str | None = None):
    def register(f):
        name = f.__name__.removeprefix("p_")
        BUGGY[name] = f
        if library:
            LIBRARY[name] = library
        return f
    return register(fn) if fn is not None else register


def fixed(f):
    FIXED[f.__name__.removeprefix("f_")] = f
    return f


def _leaf(torch, *shape, seed=0):
    g = torch.Generator().manual_seed(seed)
    return (torch.rand(*shape, generator=g) + 0.5).requires_grad_()


def _grads(*leaves):
    return {f"g{i}": t.grad.clone() for i, t in enumerate(leaves)}


# ---- in-place methods on a saved output or input -----------------------------------------

@buggy
def p_sigmoid_mul_(torch):
    a = _leaf(torch, 2, 3)
    y = a.sigmoid()  # saved: sigmoid_mul_
    y.mul_(2)  # culprit: sigmoid_mul_
    y.sum().backward()


@buggy
def p_exp_add_(torch):
    a = _leaf(torch, 4)
    y = torch.exp(a)  # saved: exp_add_
    y.add_(1.0)  # culprit: exp_add_
    y.sum().backward()


@buggy
def p_tanh_zero_(torch):
    a = _leaf(torch, 3)
    y = a.tanh()  # saved: tanh_zero_
    y.zero_()  # culprit: tanh_zero_
    y.sum().backward()


@buggy
def p_pow_input_mul_(torch):
    a = _leaf(torch, 3)
    x = a.clone()
    y = x.pow(2)  # saved: pow_input_mul_
    x.mul_(3)  # culprit: pow_input_mul_
    y.sum().backward()


@buggy
def p_mul_input_add_(torch):
    a, w = _leaf(torch, 3), _leaf(torch, 3, seed=1)
    x = a * 1.0
    y = x * w  # saved: mul_input_add_
    x.add_(1)  # culprit: mul_input_add_
    y.sum().backward()


@buggy
def p_relu_relu_(torch):
    a = _leaf(torch, 5) - 1.0
    y = a.relu()  # saved: relu_relu_
    y.relu_()  # culprit: relu_relu_
    y.sum().backward()


@buggy
def p_matmul_input_(torch):
    a, w = _leaf(torch, 2, 3), _leaf(torch, 3, 2, seed=1)
    x = a.clone()
    y = x @ w  # saved: matmul_input_
    x.div_(2)  # culprit: matmul_input_
    y.sum().backward()


@buggy
def p_sqrt_div_(torch):
    a = _leaf(torch, 3)
    y = a.sqrt()  # saved: sqrt_div_
    y.div_(2)  # culprit: sqrt_div_
    y.sum().backward()


@buggy
def p_log_clamp_(torch):
    a = _leaf(torch, 3)
    x = a + 0.0
    y = x.log()  # saved: log_clamp_
    x.clamp_(min=1.0)  # culprit: log_clamp_
    y.sum().backward()


@buggy
def p_softmax_mul_(torch):
    a = _leaf(torch, 2, 4)
    y = torch.softmax(a, dim=1)  # saved: softmax_mul_
    y.mul_(0.5)  # culprit: softmax_mul_
    (y * y).sum().backward()


@buggy
def p_sin_copy_(torch):
    a = _leaf(torch, 3)
    x = a.clone()
    y = x.sin()  # saved: sin_copy_
    x.copy_(torch.ones(3))  # culprit: sin_copy_
    y.sum().backward()


@buggy
def p_div_other_fill_(torch):
    a, b = _leaf(torch, 3), _leaf(torch, 3, seed=2)
    z = b * 1.0
    y = a / z  # saved: div_other_fill_
    z.fill_(1.0)  # culprit: div_other_fill_
    y.sum().backward()


@buggy
def p_two_writes(torch):
    a = _leaf(torch, 3)
    y = a.exp()  # saved: two_writes
    y.add_(1)  # culprit: two_writes
    y.mul_(2)  # culprit: two_writes
    y.sum().backward()


# ---- augmented assignment operators -------------------------------------------------------

@buggy
def p_iadd(torch):
    a = _leaf(torch, 4)
    y = a.exp()  # saved: iadd
    y += 1  # culprit: iadd
    y.sum().backward()


@buggy
def p_imul(torch):
    a = _leaf(torch, 4)
    y = a.sigmoid()  # saved: imul
    y *= 2  # culprit: imul
    y.sum().backward()


@buggy
def p_isub(torch):
    a = _leaf(torch, 4)
    y = a.tanh()  # saved: isub
    y -= 1  # culprit: isub
    y.sum().backward()


@buggy
def p_itruediv(torch):
    a = _leaf(torch, 4)
    y = a.exp()  # saved: itruediv
    y /= 2  # culprit: itruediv
    y.sum().backward()


@buggy
def p_ipow_input(torch):
    a, w = _leaf(torch, 3), _leaf(torch, 3, seed=1)
    x = a.clone()
    y = x * w  # saved: ipow_input
    x **= 2  # culprit: ipow_input
    y.sum().backward()


# ---- slice assignment (__setitem__) ------------------------------------------------------

@buggy
def p_setitem_scalar(torch):
    a = _leaf(torch, 4)
    y = a.exp()  # saved: setitem_scalar
    y[0] = 0.0  # culprit: setitem_scalar
    y.sum().backward()


@buggy
def p_setitem_column(torch):
    a = _leaf(torch, 2, 3)
    y = a.sigmoid()  # saved: setitem_column
    y[:, 1] = torch.zeros(2)  # culprit: setitem_column
    y.sum().backward()


@buggy
def p_setitem_input(torch):
    a, w = _leaf(torch, 3), _leaf(torch, 3, seed=1)
    x = a.clone()
    y = x * w  # saved: setitem_input
    x[1] = 5.0  # culprit: setitem_input
    y.sum().backward()


# ---- out= --------------------------------------------------------------------------------

@buggy
def p_out_add(torch):
    a = _leaf(torch, 3)
    x = torch.ones(3)  # no grad: out= may write into it
    y = a * x  # saved: out_add
    torch.add(torch.ones(3), 1, out=x)  # culprit: out_add
    y.sum().backward()


@buggy
def p_out_self_no_grad(torch):
    a = _leaf(torch, 3)
    y = a.sigmoid()  # saved: out_self_no_grad
    with torch.no_grad():
        torch.mul(y, 2, out=y)  # culprit: out_self_no_grad
    y.sum().backward()


@buggy
def p_out_input(torch):
    a = _leaf(torch, 2, 2)
    x = torch.eye(2)
    y = x @ a  # saved: out_input
    torch.neg(torch.ones(2, 2), out=x)  # culprit: out_input
    y.sum().backward()


# ---- in-place on a view whose base was saved ---------------------------------------------

@buggy
def p_view_select(torch):
    a = _leaf(torch, 2, 3)
    y = a.exp()  # saved: view_select
    y[0].mul_(2)  # culprit: view_select
    y.sum().backward()


@buggy
def p_view_flat(torch):
    a = _leaf(torch, 2, 3)
    y = a.sigmoid()  # saved: view_flat
    flat = y.view(-1)
    flat.add_(1)  # culprit: view_flat
    y.sum().backward()


@buggy
def p_view_transpose(torch):
    a = _leaf(torch, 2, 3)
    y = a.tanh()  # saved: view_transpose
    yt = y.t()
    yt.zero_()  # culprit: view_transpose
    y.sum().backward()


@buggy
def p_view_of_input(torch):
    a, w = _leaf(torch, 2, 2), _leaf(torch, 2, 2, seed=1)
    x = a.clone()
    y = x * w  # saved: view_of_input
    x[:, 0].fill_(0.0)  # culprit: view_of_input
    y.sum().backward()


# ---- nn modules with inplace=True --------------------------------------------------------

@buggy(library="torch/nn/modules/activation.py")
def p_module_relu_inplace(torch):
    torch.manual_seed(0)
    nn = torch.nn
    model = nn.Sequential(nn.Linear(4, 3), nn.Sigmoid(), nn.ReLU(inplace=True))
    out = model(torch.ones(2, 4))  # culprit: module_relu_inplace
    out.sum().backward()


@buggy(library="torch/nn/modules/activation.py")
def p_module_leaky_relu_inplace(torch):
    torch.manual_seed(0)
    nn = torch.nn
    model = nn.Sequential(nn.Linear(4, 3), nn.Tanh(), nn.LeakyReLU(0.1, inplace=True))
    out = model(torch.ones(2, 4))  # culprit: module_leaky_relu_inplace
    out.sum().backward()


@buggy(library="torch/nn/modules/activation.py")
def p_module_hardtanh_inplace(torch):
    torch.manual_seed(0)
    nn = torch.nn
    model = nn.Sequential(nn.Linear(4, 3), nn.Sigmoid(), nn.Hardtanh(inplace=True))
    out = model(torch.ones(2, 4))  # culprit: module_hardtanh_inplace
    out.sum().backward()


@buggy(library="torch/nn/modules/dropout.py")
def p_module_dropout_inplace(torch):
    torch.manual_seed(0)
    nn = torch.nn
    model = nn.Sequential(nn.Linear(4, 3), nn.Sigmoid(), nn.Dropout(0.5, inplace=True))
    out = model(torch.ones(2, 4))  # culprit: module_dropout_inplace
    out.sum().backward()


@buggy
def p_functional_relu_inplace(torch):
    a = _leaf(torch, 3) - 1.0
    y = torch.exp(a)  # saved: functional_relu_inplace
    z = torch.nn.functional.relu(y, inplace=True)  # culprit: functional_relu_inplace
    z.sum().backward()


# ---- bugs inside a helper module ---------------------------------------------------------

@buggy
def p_helper_module_forward(torch):
    from . import inplace_helpers

    torch.manual_seed(0)
    block = inplace_helpers.GatedBlock()
    block(torch.ones(2, 4)).sum().backward()


@buggy
def p_helper_residual(torch):
    from . import inplace_helpers

    torch.manual_seed(0)
    block = inplace_helpers.ResidualBlock()
    block(torch.ones(2, 4)).sum().backward()


@buggy
def p_helper_function(torch):
    from . import inplace_helpers

    a = _leaf(torch, 4)
    y = a.exp()  # saved: helper_function
    inplace_helpers.normalize_(y)
    y.sum().backward()


@buggy
def p_helper_out(torch):
    from . import inplace_helpers

    a = _leaf(torch, 4)
    y = a.exp()  # saved: helper_out
    inplace_helpers.clip_(y, 2.0)
    y.sum().backward()


@buggy
def p_helper_view(torch):
    from . import inplace_helpers

    a = _leaf(torch, 2, 3)
    y = a.sigmoid()  # saved: helper_view
    inplace_helpers.scale_rows_(y)
    y.sum().backward()


# ---- optimizer steps between two backwards -----------------------------------------------

def _two_losses(torch, make_opt):
    torch.manual_seed(0)
    nn = torch.nn
    model = nn.Sequential(nn.Linear(3, 4), nn.Tanh(), nn.Linear(4, 2))
    opt = make_opt(model.parameters())
    out = model(torch.ones(5, 3))
    return model, opt, out


@buggy(library="torch/optim/sgd.py")
def p_sgd_between_backwards(torch):
    model, opt, out = _two_losses(torch, lambda p: torch.optim.SGD(p, lr=0.1))
    out[:, 0].sum().backward(retain_graph=True)
    opt.step()  # culprit: sgd_between_backwards
    out[:, 1].sum().backward()


@buggy(library="torch/optim/adam.py")
def p_adam_between_backwards(torch):
    model, opt, out = _two_losses(torch, lambda p: torch.optim.Adam(p, lr=0.1))
    out.pow(2).mean().backward(retain_graph=True)
    opt.step()  # culprit: adam_between_backwards
    out.sum().backward()


@buggy(library="torch/optim/sgd.py")
def p_sgd_foreach_between_backwards(torch):
    model, opt, out = _two_losses(
        torch, lambda p: torch.optim.SGD(p, lr=0.1, momentum=0.9, foreach=True))
    out.sum().backward(retain_graph=True)
    opt.step()  # culprit: sgd_foreach_between_backwards
    out.mean().backward()


@buggy
def p_manual_update_between_backwards(torch):
    w = _leaf(torch, 3)
    x = torch.ones(3)
    y = (w * x).sum() * w  # saved: manual_update_between_backwards
    y[0].backward(retain_graph=True)
    with torch.no_grad():
        w -= 0.1 * w.grad  # culprit: manual_update_between_backwards
    y[1].backward()


# ---- the same programs without the bug ---------------------------------------------------

@fixed
def f_sigmoid_mul(torch):
    a = _leaf(torch, 2, 3)
    y = a.sigmoid()
    y = y.mul(2)
    y.sum().backward()
    return _grads(a)


@fixed
def f_exp_iadd(torch):
    a = _leaf(torch, 4)
    y = a.exp()
    y = y + 1
    y.sum().backward()
    return _grads(a)


@fixed
def f_inplace_on_unsaved(torch):
    a, w = _leaf(torch, 3), _leaf(torch, 3, seed=1)
    y = a + w  # add saves nothing
    y.mul_(2)
    y[0] = 1.0
    y.sum().backward()
    return _grads(a, w)


@fixed
def f_relu_inplace_after_linear(torch):
    torch.manual_seed(0)
    nn = torch.nn
    model = nn.Sequential(nn.Linear(4, 3), nn.ReLU(inplace=True), nn.Linear(3, 2))
    model(torch.ones(2, 4)).sum().backward()
    return {n: p.grad.clone() for n, p in model.named_parameters()}


@fixed
def f_residual_fixed(torch):
    from . import inplace_helpers

    torch.manual_seed(0)
    block = inplace_helpers.ResidualBlockFixed()
    block(torch.ones(2, 4)).sum().backward()
    return {n: p.grad.clone() for n, p in block.named_parameters()}


@fixed
def f_training_loop(torch):
    torch.manual_seed(0)
    nn = torch.nn
    model = nn.Sequential(nn.Linear(3, 4), nn.ReLU(inplace=True), nn.Linear(4, 2))
    opt = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
    x, y = torch.ones(5, 3), torch.tensor([0, 1, 0, 1, 1])
    for _ in range(3):
        opt.zero_grad()
        torch.nn.functional.cross_entropy(model(x), y).backward()
        opt.step()
    return {n: p.detach().clone() for n, p in model.named_parameters()}


@fixed
def f_two_backwards_then_step(torch):
    torch.manual_seed(0)
    nn = torch.nn
    model = nn.Sequential(nn.Linear(3, 4), nn.Tanh(), nn.Linear(4, 2))
    opt = torch.optim.Adam(model.parameters(), lr=0.1)
    out = model(torch.ones(5, 3))
    out[:, 0].sum().backward(retain_graph=True)
    out[:, 1].sum().backward()
    opt.step()
    return {n: p.detach().clone() for n, p in model.named_parameters()}
