"""Notebook 14's statements about PyTorch, run on torch 2.13 (and the core where it shows them)."""
from __future__ import annotations

import pytest

from inplace_tutorial.nn import utils

pytestmark = pytest.mark.parity


def test_14_grad_accumulates_in_place(torch_mod, core):
    for t in (torch_mod, core):
        w = t.tensor([1.0, 2.0, 3.0], requires_grad=True)
        (w * 2).sum().backward()
        g = w.grad
        ptr, version = g.data_ptr(), g._version
        (w * w).sum().backward()
        assert w.grad is g and w.grad.data_ptr() == ptr, t.__name__
        assert w.grad._version - version == 1, t.__name__
        assert g.tolist() == [4.0, 6.0, 8.0], t.__name__


def test_14_accumulating_loss_over_k_gives_the_full_batch_gradient(torch_mod):
    torch_mod.manual_seed(0)
    w = torch_mod.randn(4, 3, requires_grad=True)
    x, y = torch_mod.randn(8, 4), torch_mod.randn(8, 3)
    ((x @ w - y) ** 2).mean().backward()
    full, w.grad = w.grad.clone(), None
    for xb, yb in zip(x.chunk(4), y.chunk(4)):
        (((xb @ w - yb) ** 2).mean() / 4).backward()
    assert (w.grad - full).abs().max().item() < 1e-5


def test_14_zero_grad_frees_or_zeroes(torch_mod, core):
    for t in (torch_mod, core):
        w = t.tensor([1.0, 2.0], requires_grad=True)
        opt = t.optim.SGD([w], lr=0.1)
        (w * 3).sum().backward()
        g = w.grad
        opt.zero_grad(set_to_none=False)
        assert w.grad is g and w.grad.tolist() == [0.0, 0.0], t.__name__
        (w * 3).sum().backward()
        assert w.grad is g, t.__name__  # added into the zeroed buffer
        opt.zero_grad()  # set_to_none=True is the default
        assert w.grad is None, t.__name__


def test_14_clip_grad_norm_scales_in_place(torch_mod, core):
    clips = {torch_mod: torch_mod.nn.utils.clip_grad_norm_, core: utils.clip_grad_norm_}
    for t, clip in clips.items():
        a = t.tensor([3.0, 4.0], requires_grad=True)
        b = t.tensor([[12.0]], requires_grad=True)
        a.grad, b.grad = t.tensor([3.0, 4.0]), t.tensor([[12.0]])
        ptrs = [a.grad.data_ptr(), b.grad.data_ptr()]
        v = a.grad._version
        total = clip([a, b], 1.0)
        assert abs(total.item() - 13.0) < 1e-6, t.__name__
        assert [a.grad.data_ptr(), b.grad.data_ptr()] == ptrs, t.__name__
        assert abs(a.grad.tolist()[0] - 3.0 / (13.0 + 1e-6)) < 1e-6, t.__name__
        assert a.grad._version - v == 1, t.__name__
        clip([a, b], 1000.0)  # below max_norm: still multiplied (by 1.0), one more step
        assert a.grad._version - v == 2, t.__name__


def test_14_functionalize_replaces_inplace_ops(torch_mod):
    import importlib.util

    from torch.fx.experimental.proxy_tensor import make_fx

    def f(x):
        y = x * 2
        y.add_(1)
        x.mul_(3)
        return y

    g = make_fx(torch_mod.func.functionalize(f))(torch_mod.ones(3))
    targets = [str(n.target) for n in g.graph.nodes if n.op == "call_function"]
    assert targets == ["aten.mul.Tensor", "aten.add.Tensor", "aten.mul.Tensor",
                       "aten.copy_.default"]
    assert importlib.util.find_spec("torch._inductor.fx_passes.reinplace") is not None


def test_14_hook_on_an_expanded_gradient(torch_mod, core):
    for t in (torch_mod, core):
        w = t.tensor([1.0, -2.0, 3.0], requires_grad=True)
        y = w * 4
        strides = []
        y.register_hook(lambda grad: strides.append(grad.stride()))  # noqa: B023
        y.register_hook(lambda grad: grad.mul_(0.5))
        with pytest.raises(RuntimeError, match="more than one element of the written-to"):
            y.sum().backward()
        assert strides == [(0,)], t.__name__
        w.grad = None
        y = w * 4
        y.register_hook(lambda grad: grad * 0.5)
        y.sum().backward()
        assert w.grad.tolist() == [2.0, 2.0, 2.0], t.__name__
