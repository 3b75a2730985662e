"""Notebook 11's statements about PyTorch (in-place inside a Transformer), run on torch 2.13
and on the core. Each test reads like the notebook cell it backs."""
from __future__ import annotations

import math

import numpy as np
import pytest

from inplace_tutorial.models import block_memory as bm

pytestmark = pytest.mark.parity

T = 4


def _qkv(t, seed=1):
    rng = np.random.default_rng(seed)
    return [t.tensor(rng.standard_normal((1, 2, T, 8)).astype(np.float32), requires_grad=True)
            for _ in range(3)]


def _future(t):
    return t.arange(T).unsqueeze(0) > t.arange(T).unsqueeze(1)


def _backward_error(fn) -> str | None:
    try:
        fn()
    except RuntimeError as e:
        return str(e)
    return None


def test_11_masked_fill_before_softmax_is_safe(torch_mod, core):
    results = {}
    for t in (torch_mod, core):
        q, k, v = _qkv(t)
        scores = q.matmul(k.transpose(-2, -1)) * 8 ** -0.5
        assert scores.grad_fn.name() == "MulBackward0", t.__name__
        scores.masked_fill_(_future(t), float("-inf"))
        assert scores._version == 1, t.__name__
        probs = scores.softmax(-1)
        probs.matmul(v).sum().backward()
        assert np.abs(np.array(probs.sum(-1).tolist()) - 1).max() < 1e-6, t.__name__
        results[t] = [q.grad.numpy(), k.grad.numpy(), v.grad.numpy()]
    for a, b in zip(*results.values()):
        assert np.abs(a - b).max() < 1e-5


def test_11_masked_fill_after_softmax_breaks(torch_mod, core):
    errors = []
    for t in (torch_mod, core):
        q, k, v = _qkv(t)
        probs = (q.matmul(k.transpose(-2, -1)) * 8 ** -0.5).softmax(-1)
        assert probs.grad_fn.name() == "SoftmaxBackward0", t.__name__
        assert probs.grad_fn._saved_result.data_ptr() == probs.data_ptr(), t.__name__
        probs.masked_fill_(_future(t), 0.0)
        out = probs.matmul(v)
        errors.append(_backward_error(lambda out=out: out.sum().backward()))
    assert errors[0] is not None and "output 0 of Softmax, is at version 1" in errors[0]
    assert errors[0] == errors[1]


def test_11_softmax_has_no_inplace_variant(torch_mod, core):
    for t in (torch_mod, core):
        assert not hasattr(t.Tensor, "softmax_"), t.__name__
        assert hasattr(t.Tensor, "masked_fill_"), t.__name__


def _block(t, seed=0):
    """A LayerNorm followed by a linear layer: the residual branch, shrunk."""
    rng = np.random.default_rng(seed)
    ln, proj = t.nn.LayerNorm(6), t.nn.Linear(6, 6)
    with t.no_grad():
        proj.weight.copy_(t.tensor(rng.standard_normal((6, 6)).astype(np.float32)))
    x0 = t.tensor(rng.standard_normal((2, 3, 6)).astype(np.float32), requires_grad=True)
    return ln, proj, x0


def test_11_residual_add_in_place(torch_mod, core):
    errors, grads, nodes = [], {}, {}
    for t in (torch_mod, core):
        ln, proj, x0 = _block(t)
        x = x0 * 1.0
        a = ln(x)
        assert a.grad_fn.name() == "NativeLayerNormBackward0", t.__name__
        assert a.grad_fn._saved_input.data_ptr() == x.data_ptr(), t.__name__
        x += proj(a)
        errors.append(_backward_error(lambda x=x: x.sum().backward()))
        for how in ("out of place", "into the branch"):
            x0.grad = None
            x = x0 * 1.0
            h = proj(ln(x))
            x = x + h if how == "out of place" else h.add_(x)
            nodes[t, how] = [x.grad_fn.name()] + [f.name() for f, _ in x.grad_fn.next_functions
                                                  if f is not None]
            x.sum().backward()
            grads[t, how] = x0.grad.numpy().copy()
    assert errors[0] is not None and "output 0 of Add, is at version 1" in errors[0]
    assert errors[0] == errors[1]
    ref = grads[torch_mod, "out of place"]
    for g in grads.values():
        assert np.abs(g - ref).max() < 1e-5
    # a linear layer's 3-D output is a view of its 2-D product: h += x writes into a view
    assert nodes[torch_mod, "into the branch"] == ["AsStridedBackward0",
                                                   "torch::autograd::CopySlices"]
    assert nodes[torch_mod, "out of place"][0] == "AddBackward0"
    for how in ("out of place", "into the branch"):
        assert nodes[torch_mod, how] == nodes[core, how], how


def test_11_dropout_inplace(torch_mod, core):
    outcome = {}
    for t in (torch_mod, core):
        t.manual_seed(0)
        drop = t.nn.Dropout(0.1, inplace=True)
        proj = t.nn.Linear(48, 48)
        stream = t.randn(1, T, 48, requires_grad=True)
        q, k, v = _qkv(t)
        probs = (q.matmul(k.transpose(-2, -1)) * 8 ** -0.5).softmax(-1)
        after_linear = _backward_error(
            lambda drop=drop, proj=proj, stream=stream: drop(proj(stream)).sum().backward())
        after_softmax = _backward_error(
            lambda drop=drop, probs=probs, v=v: drop(probs).matmul(v).sum().backward())
        fc = t.nn.Linear(48, 192)
        h = t.nn.functional.gelu(fc(t.randn(2, 16, 48)), approximate="tanh")
        y = drop(h)
        saved = y.grad_fn._saved_other
        outcome[t] = (after_linear, after_softmax, y is h, y.grad_fn.name(), saved.dtype,
                      tuple(saved.shape), saved.untyped_storage().nbytes(),
                      h.untyped_storage().nbytes())
    a, b = outcome.values()
    assert a[0] is None and "output 0 of Softmax, is at version 1" in a[1]
    assert a[2:4] == (True, "MulBackward0") and a[5:] == ((2, 16, 192), 24576, 24576)
    assert a[:4] == b[:4] and a[5:] == b[5:] and str(a[4]) == str(b[4])


def test_11_slice_writes(torch_mod, core):
    got = {}
    for t in (torch_mod, core):
        w = t.tensor(np.arange(-6, 6, dtype=np.float32).reshape(3, 4) / 4, requires_grad=True)
        y = w * 2
        y[:, 0] = 0
        names = [y.grad_fn.name(), [f.name() for f, _ in y.grad_fn.next_functions if f], y._version]
        y = w * 2
        y[y > 0] = 0
        names += [y.grad_fn.name(), y._version]
        y.sum().backward()
        names.append(w.grad.tolist())
        e = w.exp()
        e[:, 0] = 0
        names.append(_backward_error(lambda e=e: e.sum().backward()))
        got[t] = names
    a, b = got.values()
    assert a[:5] == ["torch::autograd::CopySlices", ["MulBackward0"], 1, "IndexPutBackward0", 1]
    assert "output 0 of Exp, is at version 1" in a[6]
    assert a == b


def _torch_saved_bytes(torch, choices: bm.Choices, n: int, batch: int = 4, c: int = 48,
                       h: int = 4) -> int:
    """The block of models.block_memory, written in PyTorch with the same weights; the bytes
    of every storage the graph saved (parameters excluded), as saved_tensors_hooks see them."""
    core_block = bm.SwitchBlock(c, h, n, choices)
    p = {k: torch.tensor(v.numpy().copy(), requires_grad=k != "attn.causal_mask")
         for k, v in core_block.state_dict().items()}
    params = {v.untyped_storage().data_ptr() for v in p.values()}
    F = torch.nn.functional
    x = torch.randn(batch, n, c, requires_grad=True)
    future = p["attn.causal_mask"][:n, :n]
    seen: dict[int, int] = {}

    def pack(t):
        st = t.untyped_storage()
        if st.data_ptr() not in params:
            seen[st.data_ptr()] = st.nbytes()
        return t

    def lin(t, name):
        return F.linear(t, p[name + ".weight"], p[name + ".bias"])

    def ln(t, name):
        return F.layer_norm(t, (c,), p[name + ".weight"], p[name + ".bias"])

    def attend(a):
        q, k, v = lin(a, "attn.qkv").split(c, dim=2)
        q, k, v = (t.reshape(batch, n, h, c // h).transpose(1, 2) for t in (q, k, v))
        if choices.attention == "sdpa":
            y = F.scaled_dot_product_attention(q, k, v, is_causal=True)
        else:
            scale = 1.0 / math.sqrt(c // h)
            if choices.inplace_mask:
                scores = q.matmul(k.transpose(-2, -1)).mul_(scale)
                scores.masked_fill_(future, float("-inf"))
            else:
                scores = (q.matmul(k.transpose(-2, -1)) * scale).masked_fill(future,
                                                                              float("-inf"))
            y = scores.softmax(-1).matmul(v)
        return lin(y.transpose(1, 2).reshape(batch, n, c), "attn.proj")

    def residual(x, b):
        return b.add_(x) if choices.inplace_residual else x + b

    with torch.autograd.graph.saved_tensors_hooks(pack, lambda t: t):
        x1 = residual(x, attend(ln(x, "ln1")))
        mlp = lin(F.gelu(lin(ln(x1, "ln2"), "fc"), approximate="tanh"), "fc_out")
        residual(x1, mlp).sum()
    return sum(seen.values())


@pytest.mark.parametrize("n", [16, 64])
@pytest.mark.parametrize("variant", ["written out", "in place", "sdpa"])
def test_11_block_saved_bytes(torch_mod, n, variant):
    choices = {"written out": bm.Choices(),
               "in place": bm.Choices(inplace_mask=True, inplace_residual=True),
               "sdpa": bm.Choices(attention="sdpa")}[variant]
    assert _torch_saved_bytes(torch_mod, choices, n) == bm.measure_block(choices, n).saved


def test_11_sdpa_saves_no_probabilities(torch_mod, core):
    layouts = []
    for t in (torch_mod, core):
        x = t.randn(2, 16, 3 * 48, requires_grad=True)  # heads split from one projection
        q, k, v = (a.reshape(2, 16, 4, 12).transpose(1, 2) for a in x.split(48, dim=2))
        out = t.nn.functional.scaled_dot_product_attention(q, k, v, is_causal=True)
        fn = out.grad_fn
        assert fn.name() == "ScaledDotProductFlashAttentionForCpuBackward0", t.__name__
        assert tuple(fn._saved_logsumexp.shape) == (2, 4, 16), t.__name__
        assert fn._saved_attn_mask is None, t.__name__  # is_causal: no mask kept either
        shapes = [tuple(getattr(fn, a).shape) for a in dir(fn)
                  if a.startswith("_saved_") and hasattr(getattr(fn, a, None), "shape")]
        assert (2, 4, 16, 16) not in shapes, t.__name__
        merged = out.transpose(1, 2).reshape(2, 16, 48)
        layouts.append((out.stride(), merged.data_ptr() == out.data_ptr()))
        merged.sum().backward()
        assert tuple(x.grad.shape) == (2, 16, 144), t.__name__
    assert layouts[0] == layouts[1] == ((768, 12, 48, 1), True)


def test_10_cache_written_with_grad_joins_the_graph(torch_mod, core):
    # docs/instructor.md, lab 10 debrief 6: a cache written with grad enabled records one
    # CopySlices per write, chained, so each step's graph stays alive with the cache
    chains = []
    for t in (torch_mod, core):
        w = t.randn(4, requires_grad=True)
        cache = t.zeros(3, 4)
        for pos in range(3):
            cache[pos:pos + 1] = (w * pos).unsqueeze(0)
        names, fn = [], cache.grad_fn
        while fn is not None and fn.name() == "torch::autograd::CopySlices":
            names.append(fn.name())
            fn = fn.next_functions[0][0]
        chains.append((cache.requires_grad, len(names), cache._version))
    assert chains[0] == chains[1] == (True, 3, 3)
