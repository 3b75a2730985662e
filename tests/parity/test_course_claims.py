"""Every statement the notebooks make about PyTorch, run on torch 2.13.

Each test names the notebook (and claim) it backs. Figures the notebooks print from
``inplace_tutorial.pytorch_reference`` are measured here again, so a figure that stops being
true on PyTorch fails this file. Bytes are measured with PyTorch's own profiler
(``profile_memory=True``): every allocation and free, in order, gives the peak.
"""
from __future__ import annotations

import numpy as np
import pytest

from inplace_tutorial import pytorch_reference as ref
from inplace_tutorial.autograd.function import DERIVATIVES

from .harness import arr, ints, pos


# --------------------------------------------------------------------------- measuring torch
def torch_peak(torch, fn) -> tuple[int, list[int]]:
    """Peak bytes allocated while ``fn()`` runs (relative to the start), and every allocation."""
    from torch.profiler import ProfilerActivity, profile

    with profile(activities=[ProfilerActivity.CPU], profile_memory=True) as prof:
        fn()
    events = [e for e in prof.profiler.kineto_results.events() if e.name() == "[memory]"]
    events.sort(key=lambda e: e.start_ns())
    current = peak = 0
    allocs = []
    for e in events:
        current += e.nbytes()
        peak = max(peak, current)
        if e.nbytes() > 0:
            allocs.append(e.nbytes())
    return peak, allocs


def test_torch_peak_measures_what_it_should(torch_mod):
    """The measuring method itself: a kept tensor, a freed temporary, an in-place op."""
    torch = torch_mod
    x = torch.ones(1000, 1000)
    keep = []
    assert torch_peak(torch, lambda: keep.append(torch.empty(1000)))[0] == 4000
    assert torch_peak(torch, lambda: (x * 2).sum())[0] >= 4_000_000  # freed inside: still the peak
    assert torch_peak(torch, lambda: x.add_(x)) == (0, [])
    assert torch_peak(torch, lambda: x.mul_(2)) == (12, [8, 4])  # the 2, wrapped as a tensor


def core_peak(ipt, fn) -> int:
    with ipt.memory.record() as tr:
        fn()
    return tr.peak - tr.start_allocated


# --------------------------------------------------------------------------- 01
def test_01_cpu_reuses_freed_addresses(torch_mod, core):
    """01: address reuse is not a GPU-only effect: PyTorch's CPU allocator (malloc) reuses a
    freed block for the next tensor of the same size, and so does NumPy under the core."""
    for lib in (torch_mod, core):
        hits = 0
        for n in (3, 1000, 10_000, 1_000_000):
            for _ in range(15):
                a = lib.ones(n)
                p = a.data_ptr()
                del a
                b = lib.ones(n)
                hits += b.data_ptr() == p
                del b
        assert hits > 0, lib.__name__


# --------------------------------------------------------------------------- 03
def test_03_inference_tensors_version_counter(torch_mod, core):
    """03: inference tensors (and their views) have no version counter, in PyTorch and in the
    core: reading ``_version`` raises the same text."""
    for t in (torch_mod, core):
        with t.inference_mode():
            b = t.ones(3) * 2
        for tensor in (b, b[0]):
            assert tensor.is_inference()
            with pytest.raises(RuntimeError) as e:
                _ = tensor._version
            assert str(e.value) == ref.INFERENCE_VERSION_ERROR


def _conv_blocks(t, conv, bn, pool, x):
    relu = t.relu
    return {
        "conv": lambda: conv(x),
        "conv -> relu": lambda: relu(conv(x)),
        "conv -> relu_": lambda: conv(x).relu_(),
        "conv -> bn -> relu": lambda: relu(bn(conv(x))),
        "conv -> bn -> relu_": lambda: bn(conv(x)).relu_(),
        "conv -> bn -> relu -> pool -> relu": lambda: relu(pool(relu(bn(conv(x))))),
        "conv -> bn -> relu_ -> pool -> relu_": lambda: pool(bn(conv(x)).relu_()).relu_(),
    }


def test_03_conv_block_peaks(torch_mod, core):
    """03: conv alone already holds two activations; relu_ never lowers this block's peak."""
    torch = torch_mod
    torch.manual_seed(0)
    conv, bn = torch.nn.Conv2d(3, 64, 3), torch.nn.BatchNorm2d(64).eval()
    pool = torch.nn.MaxPool2d(2)
    x = torch.randn(4, 3, 16, 16)
    with torch.no_grad():
        blocks = _conv_blocks(torch, conv, bn, pool, x)
        got = {k: torch_peak(torch, f)[0] for k, f in blocks.items()}
    assert got == ref.CONV_BLOCK_PEAK
    from inplace_tutorial import peaks

    core_peaks = peaks.block_peaks()
    assert list(core_peaks) == list(ref.CONV_BLOCK_PEAK)
    for name, peak in core_peaks.items():  # the core: the same numbers, or a documented excess
        if name in ref.CONV_BLOCK_CORE_DIFFERS:
            assert peak > ref.CONV_BLOCK_PEAK[name], name
        else:
            assert peak == ref.CONV_BLOCK_PEAK[name], name


def test_03_expanding_layer_relu_inplace_lowers_the_peak(torch_mod):
    torch = torch_mod
    torch.manual_seed(0)
    lin, x = torch.nn.Linear(8, 4096), torch.randn(64, 8)
    with torch.no_grad():
        got = {"linear -> relu": torch_peak(torch, lambda: lin(x).relu())[0],
               "linear -> relu_": torch_peak(torch, lambda: lin(x).relu_())[0]}
    assert got == ref.EXPANDING_PEAK
    from inplace_tutorial import peaks

    assert peaks.expanding_peaks() == ref.EXPANDING_PEAK


def test_03_training_relu_inplace_keeps_the_same_bytes(torch_mod):
    """03: in training, BN saves its input and ReLU its output, with relu or relu_ alike."""
    from torch.profiler import ProfilerActivity, profile

    torch = torch_mod
    torch.manual_seed(0)
    conv, bn, x = torch.nn.Conv2d(3, 64, 3), torch.nn.BatchNorm2d(64), torch.randn(4, 3, 16, 16)
    got = {}
    for name in ref.TRAINING_KEPT:
        with profile(activities=[ProfilerActivity.CPU], profile_memory=True) as prof:
            h = bn(conv(x))
            out = h.relu_() if name.endswith("relu_") else h.relu()
            del h
        events = prof.profiler.kineto_results.events()
        got[name] = sum(e.nbytes() for e in events if e.name() == "[memory]")
        del out
    assert got == ref.TRAINING_KEPT
    from inplace_tutorial import peaks

    assert peaks.training_saved_bytes() == ref.TRAINING_KEPT


def test_03_no_inplace_batchnorm_in_pytorch_but_conv_bn_folding(torch_mod):
    """03: PyTorch's BatchNorm has no in-place option; eval-mode folding into the conv exists."""
    import inspect

    torch = torch_mod
    assert "inplace" not in inspect.signature(torch.nn.functional.batch_norm).parameters
    assert "inplace" not in inspect.signature(torch.nn.BatchNorm2d.__init__).parameters
    assert "inplace" in inspect.signature(torch.nn.ReLU.__init__).parameters
    from torch.nn.utils.fusion import fuse_conv_bn_eval

    torch.manual_seed(0)
    conv, bn = torch.nn.Conv2d(3, 64, 3).eval(), torch.nn.BatchNorm2d(64).eval()
    bn.running_mean.uniform_(-1, 1)
    bn.running_var.uniform_(0.5, 2)
    x = torch.randn(2, 3, 8, 8)
    with torch.no_grad():
        assert torch.allclose(fuse_conv_bn_eval(conv, bn)(x), bn(conv(x)), atol=1e-5)


# --------------------------------------------------------------------------- 05
@pytest.mark.parametrize("name", list(ref.SGD_STEP_PEAK))
def test_05_sgd_step_temporaries(torch_mod, core, name):
    """05: PyTorch's SGD step allocates nothing with default settings, and a full-size
    temporary per parameter with weight_decay or nesterov (``grad = grad.add(...)``)."""
    torch = torch_mod
    p = torch.tensor(arr(1000, 1000), requires_grad=True)
    p.grad = torch.tensor(arr(1000, 1000, seed=1))
    opt = torch.optim.SGD([p], lr=0.01, **ref.sgd_kwargs(name))
    opt.step()
    assert torch_peak(torch, opt.step)[0] == ref.SGD_STEP_PEAK[name]
    q = core.tensor(arr(1000, 1000), requires_grad=True)
    q.grad = core.tensor(arr(1000, 1000, seed=1))
    copt = core.optim.SGD([q], lr=0.01, **ref.sgd_kwargs(name))
    copt.step()
    # the core allocates the same full-size temporaries (no 4-byte scalar wrappers)
    assert core_peak(core, copt.step) == ref.SGD_STEP_PEAK[name] // 4_000_000 * 4_000_000


@pytest.mark.parametrize("name", list(ref.SGD_STEP_PEAK_OTHER_IMPLEMENTATIONS))
def test_05_sgd_foreach_and_fused(torch_mod, name):
    torch = torch_mod
    p = torch.tensor(arr(1000, 1000), requires_grad=True)
    p.grad = torch.tensor(arr(1000, 1000, seed=1))
    opt = torch.optim.SGD([p], lr=0.01, **ref.sgd_kwargs(name))
    opt.step()
    assert torch_peak(torch, opt.step)[0] == ref.SGD_STEP_PEAK_OTHER_IMPLEMENTATIONS[name]


def test_05_article_update_allocates_a_temporary(torch_mod):
    torch = torch_mod
    p, g = torch.ones(1000, 1000), torch.ones(1000, 1000)
    assert max(torch_peak(torch, lambda: p.sub_(0.01 * g))[1]) == 4_000_000
    assert torch_peak(torch, lambda: p.add_(g, alpha=-0.01)) == (0, [])


# --------------------------------------------------------------------------- 06
def _saved_tensor_fields(t, grad_fn):
    out = set()
    for k in dir(grad_fn):
        if k.startswith("_saved_"):
            v = getattr(grad_fn, k)
            if isinstance(v, t.Tensor) or (
                    isinstance(v, tuple) and v and all(isinstance(e, t.Tensor) for e in v)):
                out.add(k[len("_saved_"):])
    return out


def _saved_programs(t):
    """One small program per op of the core's derivative table."""
    F = t.nn.functional

    def x(*shape, seed=0):
        return t.tensor(pos(*shape, seed=seed), requires_grad=True)

    def nl(*shape, seed=0):  # a non-leaf, so in-place ops are allowed
        return x(*shape, seed=seed) * 1

    idx = t.tensor([0, 2])
    return {
        "index": lambda: x(4, 3)[idx],
        "index_put_": lambda: nl(4, 3).index_put_((idx,), x(2, 3, seed=1)),
        "index_put": lambda: x(4, 3).index_put((idx, idx), x(2, seed=1), accumulate=True),
        "add": lambda: x(3) + x(3, seed=1), "sub": lambda: x(3) - x(3, seed=1),
        "rsub": lambda: 2 - x(3), "mul": lambda: x(3) * x(3, seed=1),
        "div": lambda: x(3) / x(3, seed=1), "neg": lambda: -x(3), "sign": lambda: x(3).sign(),
        "div_mode": lambda: x(3).div(x(3, seed=1), rounding_mode="floor"),
        "pow": lambda: x(3) ** 2, "pow_tensor": lambda: x(3) ** x(3, seed=1),
        "pow_scalar": lambda: 2.0 ** x(3), "exp": lambda: x(3).exp(), "log": lambda: x(3).log(),
        "sqrt": lambda: x(3).sqrt(), "abs": lambda: x(3).abs(), "relu": lambda: x(3).relu(),
        "sigmoid": lambda: x(3).sigmoid(), "tanh": lambda: x(3).tanh(),
        "reciprocal": lambda: x(3).reciprocal(), "clamp": lambda: x(3).clamp(0.7, 1.5),
        "clamp_min": lambda: x(3).clamp_min(0.7), "clamp_max": lambda: x(3).clamp_max(1.5),
        "maximum": lambda: t.maximum(x(3), x(3, seed=1)),
        "minimum": lambda: t.minimum(x(3), x(3, seed=1)),
        "fmax": lambda: t.fmax(x(3), x(3, seed=1)), "fmin": lambda: t.fmin(x(3), x(3, seed=1)),
        "where": lambda: t.where(t.tensor([True, False, True]), x(3), x(3, seed=1)),
        "copy_": lambda: nl(3).copy_(x(3, seed=1)), "zero_": lambda: nl(3).zero_(),
        "fill_": lambda: nl(3).fill_(2.0), "normal_": lambda: nl(3).normal_(),
        "uniform_": lambda: nl(3).uniform_(), "random_from": lambda: nl(3).random_(0, 5),
        "random_to": lambda: nl(3).random_(5), "random_": lambda: nl(3).random_(),
        "bernoulli_": lambda: nl(3).bernoulli_(0.5),
        "bernoulli_tensor": lambda: nl(3).bernoulli_(x(3, seed=1).sigmoid()),
        "exponential_": lambda: nl(3).exponential_(), "geometric_": lambda: nl(3).geometric_(0.5),
        "log_normal_": lambda: nl(3).log_normal_(), "cauchy_": lambda: nl(3).cauchy_(),
        "fill_tensor": lambda: nl(3).fill_(x(3, seed=1)[0]),
        "fill_out": lambda: t.fill(x(3), 2.0), "fill_tensor_out": lambda: t.fill(x(3), x(3)[0]),
        "bernoulli": lambda: t.bernoulli(x(3).sigmoid()),
        "bernoulli_p": lambda: t.bernoulli(x(3), 0.5),
        "to": lambda: x(3).to(t.float64), "view": lambda: x(2, 3).view(3, 2),
        "_unsafe_view": lambda: x(2, 3, 4) @ x(4, 5, seed=1),
        "permute": lambda: x(2, 3).permute(1, 0), "transpose": lambda: x(2, 3).transpose(0, 1),
        "t": lambda: x(2, 3).t(), "expand": lambda: x(3, 1).expand(3, 4),
        "unsqueeze": lambda: x(3).unsqueeze(0), "squeeze": lambda: x(3, 1).squeeze(),
        "squeeze_dim": lambda: x(3, 1).squeeze(1), "select": lambda: x(2, 3)[1],
        "squeeze_dims": lambda: x(1, 3, 1).squeeze((0, -1)),
        "slice": lambda: x(4)[1:3], "alias": lambda: x(3)[...],
        "unbind": lambda: x(2, 3).unbind(0)[0], "split": lambda: x(4, 3).split(2)[0],
        "split_with_sizes": lambda: x(4, 3).split([1, 3])[0],
        "as_strided": lambda: x(6).as_strided((2, 2), (1, 2)),
        "transpose_": lambda: nl(2, 3).transpose_(0, 1), "t_": lambda: nl(2, 3).t_(),
        "unsqueeze_": lambda: nl(3).unsqueeze_(0), "squeeze_": lambda: nl(3, 1).squeeze_(),
        "squeeze_dim_": lambda: nl(3, 1).squeeze_(1),
        "squeeze_dims_": lambda: nl(1, 3, 1).squeeze_((0, -1)),
        "as_strided_": lambda: nl(6).as_strided_((2, 2), (1, 2)),
        "clone": lambda: x(3).clone(), "mm": lambda: x(2, 3).mm(x(3, 4, seed=1)),
        "bmm": lambda: x(2, 2, 3).bmm(x(2, 3, 4, seed=1)),
        "dot": lambda: x(3).dot(x(3, seed=1)), "mv": lambda: x(2, 3).mv(x(3, seed=1)),
        "addmm": lambda: t.addmm(x(2, 4), x(2, 3, seed=1), x(3, 4, seed=2)),
        "addbmm": lambda: t.addbmm(x(2, 4), x(3, 2, 3, seed=1), x(3, 3, 4, seed=2)),
        "baddbmm": lambda: t.baddbmm(x(3, 2, 4), x(3, 2, 3, seed=1), x(3, 3, 4, seed=2)),
        "einsum": lambda: t.einsum("bij,bjk->ik", x(3, 2, 3), x(3, 3, 4, seed=1)),
        "nll_loss": lambda: F.nll_loss(x(4, 3), t.tensor([0, 1, 2, 1])),
        "nll_loss2d": lambda: F.nll_loss(x(2, 3, 2, 2), t.tensor([[[0, 1], [2, 1]]] * 2),
                                         weight=x(3, seed=1).detach()),
        **{f"{op}_scalar": (lambda op=op: _scalar_overload(t, op, x(3), 1.5))
           for op in ("mul", "div", "add")},
        "mse_loss": lambda: F.mse_loss(x(4), x(4, seed=1)),
        "convolution": lambda: F.conv2d(x(1, 2, 4, 4), x(3, 2, 3, 3, seed=1), x(3, seed=2)),
        "max_pool2d": lambda: F.max_pool2d(x(1, 1, 4, 4), 2),
        "avg_pool2d": lambda: F.avg_pool2d(x(1, 1, 4, 4), 2),
        "native_batch_norm": lambda: F.batch_norm(x(4, 3), None, None, x(3, seed=1),
                                                  x(3, seed=2), training=True),
        "native_layer_norm": lambda: F.layer_norm(x(2, 3), (3,), x(3, seed=1), x(3, seed=2)),
        "embedding": lambda: F.embedding(t.tensor([1, 0]), x(2, 3)),
        "constant_pad_nd": lambda: t.constant_pad_nd(x(2, 3), (1, 2)),
        **{f"{kernel}_pad{k}d": (lambda mode=mode, k=k: F.pad(
            x(*(2, 3, 4, 5)[3 - k:]), (2, 1, 1, 0, 1, 1)[:2 * k], mode=mode))
           for kernel, mode in (("reflection", "reflect"), ("replication", "replicate"))
           for k in (1, 2, 3)},
        "linalg_cross": lambda: t.linalg.cross(x(2, 3), x(2, 3, seed=1)),
        "gelu": lambda: F.gelu(x(3)),
        "sdpa": lambda: F.scaled_dot_product_attention(x(1, 1, 2, 4), x(1, 1, 3, 4, seed=1),
                                                       x(1, 1, 3, 4, seed=2)),
        "sum": lambda: x(2, 3).sum(), "sum_dim": lambda: x(2, 3).sum(1),
        "mean": lambda: x(2, 3).mean(), "mean_dim": lambda: x(2, 3).mean(1),
        "var": lambda: x(2, 3).var(), "std": lambda: x(2, 3).std(),
        "amax": lambda: x(2, 3).amax(1), "max_all": lambda: x(2, 3).max(),
        "max_dim": lambda: x(2, 3).max(1)[0],
        "amin": lambda: x(2, 3).amin(1), "min_all": lambda: x(2, 3).min(),
        "min_dim": lambda: x(2, 3).min(1)[0],
        "softmax": lambda: F.softmax(x(2, 3), 1), "log_softmax": lambda: F.log_softmax(x(2, 3), 1),
        "lerp": lambda: x(3).lerp(x(3, seed=1), 0.5),
        "addcmul": lambda: x(3).addcmul(x(3, seed=1), x(3, seed=2)),
        "addcdiv": lambda: x(3).addcdiv(x(3, seed=1), x(3, seed=2)),
        **_pointwise_saved_programs(t, x, nl),
        **_shape_saved_programs(t, x, nl),
        **_join_index_saved_programs(t, x, nl),
        **selection_saved_programs(t, x, nl),
        **learner_saved_programs(t, x, nl),
        **_special_saved_programs(t, x, nl),
    }


def _special_saved_programs(t, x, nl):
    """The error and gamma functions (ops/erf.py, gamma.py, polygamma.py, igamma.py); inputs
    in (0.5, 2), so erfinv reads them halved and mvlgamma(p=2) shifted past 1/2."""
    return {
        "erf": lambda: x(3).erf(), "erfc": lambda: x(3).erfc(),
        "erfinv": lambda: (x(3) * 0.5).erfinv(), "lgamma": lambda: x(3).lgamma(),
        "digamma": lambda: x(3).digamma(), "polygamma": lambda: t.polygamma(2, x(3)),
        "polygamma_": lambda: nl(3).polygamma_(1), "mvlgamma": lambda: (x(3) + 1).mvlgamma(2),
        "igamma": lambda: t.igamma(x(3), x(3, seed=1)),
        "igammac": lambda: x(3).igammac(x(3, seed=1)),
    }


def learner_saved_programs(t, x, nl):
    """Functions learners reach for (issue 10): rot90 ..."""
    return {
        "rot90": lambda: x(2, 3).rot90(-1, (1, 0)),
        "diag_embed": lambda: x(2, 3).diag_embed(-1, 2, 0),
        "diagonal_copy": lambda: x(3, 4).diag(-1),
        "logaddexp": lambda: t.logaddexp(x(2, 3), x(3, seed=1)),
        "logaddexp2": lambda: x(3).logaddexp2(x(2, 3, seed=1)),
        "var_mean": lambda: t.var_mean(x(2, 3), 1)[0],
        "std_mean": lambda: t.std_mean(x(2, 3), correction=0)[1],
    }


def selection_saved_programs(t, x, nl):
    """The selecting reductions (kthvalue, median, nanmedian), cummax/cummin, aminmax."""
    return {
        "kthvalue": lambda: x(2, 3).kthvalue(2, -1)[0],
        "median": lambda: x(2, 3).median(), "median_dim": lambda: x(2, 3).median(0, True)[0],
        "nanmedian": lambda: x(2, 3).nanmedian(),
        "nanmedian_dim": lambda: x(2, 3).nanmedian(1)[0],
        "mode": lambda: x(2, 3).mode(0)[0],
        "cummax": lambda: x(2, 3).cummax(1)[0], "cummin": lambda: x(2, 3).cummin(-1)[0],
        "aminmax": lambda: x(2, 3).aminmax(dim=1)[1],
    }


def _scalar_overload(t, op: str, a, other: float):
    """``aten::mul.Scalar`` and friends, which PyTorch's Python binding never picks (a number
    is wrapped into a tensor there); its C++ losses call them (ops/scalar_overloads.py)."""
    if t.__name__ == "torch":
        return getattr(t.ops.aten, op).Scalar(a, other)
    from inplace_tutorial.ops import scalar_overloads

    return getattr(scalar_overloads, f"{op}_scalar")(a, other)


def _shape_saved_programs(t, x, nl):
    """The shape ops of issue 10 (reorder, triangular, scan ...)."""
    return {
        "flip": lambda: x(2, 3).flip(0), "roll": lambda: x(2, 3).roll(1, 1),
        "repeat": lambda: x(2, 3).repeat(2, 1), "diagonal": lambda: x(3, 3).diagonal(),
        "tril": lambda: nl(3, 3).tril_(), "triu": lambda: x(3, 3).triu(1),
        "cumsum": lambda: x(2, 3).cumsum(1), "cumprod": lambda: nl(2, 3).cumprod_(1),
        "sort": lambda: x(2, 3).sort(1)[0], "topk": lambda: x(2, 3).topk(2)[0],
        "linalg_vector_norm": lambda: x(2, 3).norm(dim=1),
        "renorm": lambda: nl(2, 3).renorm_(2, 0, 1.0),
        "unfold": lambda: x(2, 4).unfold(1, 2, 1), "i0": lambda: x(3).i0(),
    }


def _join_index_saved_programs(t, x, nl):
    """The joining, masking, index and scatter/gather rows."""
    m = t.tensor([True, False, True])
    i = t.tensor([2, 0])
    gi = t.tensor([[0, 2, 1]])
    return {
        "cat": lambda: t.cat([x(2, 3), x(1, 3, seed=1)]),
        "stack": lambda: t.stack([x(3), x(3, seed=1)], 1),
        "masked_fill": lambda: x(2, 3).masked_fill(m, 0.0),
        "masked_fill_tensor": lambda: nl(2, 3).masked_fill_(m, t.tensor(1.5, requires_grad=True)),
        "masked_scatter": lambda: x(2, 3).masked_scatter(m, x(4, seed=1)),
        "index_copy_": lambda: nl(3, 2).index_copy_(0, i, x(2, 2, seed=1)),
        "index_select": lambda: x(3, 2).index_select(0, i),
        "index_add": lambda: x(3, 2).index_add(0, i, x(2, 2, seed=1), alpha=2),
        "index_fill": lambda: x(3, 2).index_fill(0, i, 0.5),
        "index_fill_tensor": lambda: nl(3, 2).index_fill_(0, i, t.tensor(1.5, requires_grad=True)),
        "gather": lambda: x(2, 3).gather(1, gi.expand(2, 3)),
        "scatter_src": lambda: nl(2, 3).scatter_(1, gi, x(1, 3, seed=1)),
        "scatter_value": lambda: x(2, 3).scatter(1, gi, 0.5),
        "scatter_add": lambda: x(2, 3).scatter_add(1, gi, x(1, 3, seed=1)),
        "scatter_with_reduce_": lambda: nl(2, 3).scatter_(1, gi, x(1, 3, seed=1), reduce="add"),
        "scatter_with_reduce": lambda: x(2, 3).scatter(1, gi, 2.0, reduce="multiply"),
        "scatter_reduce": lambda: x(2, 3).scatter_reduce(1, gi, x(1, 3, seed=1), "amax"),
        "index_reduce": lambda: x(3, 2).index_reduce(0, i, x(2, 2, seed=1), "prod"),
        "put": lambda: nl(2, 3).put_(t.tensor([0, 4]), x(2, seed=1), accumulate=True),
        "take": lambda: x(2, 3).take(t.tensor([0, 5])),
        "addmv": lambda: t.addmv(x(2), x(2, 3, seed=1), x(3, seed=2)),
        "addr": lambda: t.addr(x(2, 3), x(2, seed=1), x(3, seed=2)),
    }


def _pointwise_saved_programs(t, x, nl):
    """The pointwise rows (trig, unary math, comparisons in place, binary math, overloads)."""
    progs = {op: (lambda op=op: getattr(x(3), op)()) for op in (
        "sin cos tan atan sinh cosh asinh deg2rad rad2deg sinc floor ceil trunc round frac "
        "exp2 expm1 log2 log10 log1p rsqrt sgn nan_to_num angle").split()}
    for op in ("asin", "acos", "atanh"):
        progs[op] = lambda op=op: getattr(x(3) * 0.4, op)()
    for op in ("asinh_", "acosh_", "atanh_"):
        progs[op] = lambda op=op: getattr(nl(3) * 0.4 + 1 if op == "acosh_" else nl(3) * 0.4,
                                          op)()
    for op in ("eq", "ne", "lt", "le", "gt", "ge"):
        progs[op + "_"] = lambda op=op: getattr(nl(3), op + "_")(1.0)
        progs[op + "_tensor_"] = lambda op=op: getattr(nl(3), op + "_")(x(3, seed=1))
    for op in ("atan2", "copysign", "fmod", "remainder", "floor_divide", "heaviside", "hypot",
               "xlogy", "ldexp", "nextafter"):
        progs[op] = lambda op=op: getattr(x(3), op)(x(3, seed=1))
    for op in ("copysign", "fmod", "remainder", "floor_divide", "xlogy"):
        progs[op + "_scalar"] = lambda op=op: getattr(x(3), op)(1.5)
    progs.update({
        "acosh": lambda: (x(3) + 1).acosh(), "round_decimals": lambda: x(3).round(decimals=1),
        "logit": lambda: (x(3) * 0.4).logit(), "conj_physical_": lambda: nl(3).conj_physical_(),
        "clamp_tensor": lambda: x(3).clamp(x(3, seed=1), x(3, seed=2) + 1),
        "clamp_min_tensor": lambda: x(3).clamp_min(x(3, seed=1)),
        "clamp_max_tensor": lambda: x(3).clamp_max(x(3, seed=1)),
        "lerp_tensor": lambda: x(3).lerp(x(3, seed=1), x(3, seed=2)),
        "normal_tensor_tensor": lambda: t.normal(x(3), x(3, seed=1)),
        "normal_tensor_float": lambda: t.normal(x(2, 3), 2.0),
        "normal_float_tensor": lambda: t.normal(1.0, x(3)),
        "masked_select": lambda: x(2, 3).masked_select(t.tensor([True, False, True])),
        "_reshape_alias": lambda: x(2, 3).t().reshape(3, 2, 1),
        "bincount": lambda: t.bincount(t.tensor([0, 2, 2]), x(3)),
        # set_ (ops/set_storage.py): a NotImplemented node, self's edge (and source's)
        "set_": lambda: nl(3).set_(), "set_source_Tensor": lambda: nl(2).set_(x(3)),
    })
    progs["_linalg_svd"] = lambda: t.linalg.svdvals(x(3, 4))  # S is output 1 of the node
    F = t.nn.functional
    progs.update({  # activations of ops/activation.py (rrelu's noise: U(0.2, 0.2) is 0.2)
        "elu": lambda: F.elu(x(3) - 1, 0.5), "elu_": lambda: F.elu_(nl(3) - 1),
        "celu": lambda: F.celu(x(3) - 1, 2.0), "celu_": lambda: F.celu_(nl(3) - 1),
        "leaky_relu": lambda: F.leaky_relu(x(3) - 1, 0.2),
        "leaky_relu_": lambda: F.leaky_relu_(nl(3) - 1),
        "hardtanh": lambda: F.hardtanh(x(3), 0.25, 1.5),
        "threshold": lambda: F.threshold(x(3), 1.0, 0.0),
        "threshold_": lambda: F.threshold_(nl(3), 1.0, 0.0),
        "rrelu_with_noise": lambda: F.rrelu(x(3) - 1, 0.2, 0.2, training=True),
        "rrelu_with_noise_": lambda: F.rrelu_(nl(3) - 1, 0.2, 0.2, True),
    })
    progs.update({  # the self-gated activations of ops/self_gated.py (in place: a copy)
        "silu": lambda: F.silu(x(3) - 1), "mish": lambda: F.mish(nl(3) - 1, True),
        "hardswish": lambda: F.hardswish(x(3) * 2 - 3),
        "hardsigmoid": lambda: F.hardsigmoid(nl(3) - 1, inplace=True),
    })
    progs.update({  # softplus, logsigmoid, the shrinks, glu, prelu (ops/softplus.py ...)
        "softplus": lambda: F.softplus(x(3) - 1, 2, 1.5), "log_sigmoid_forward": lambda:
        F.logsigmoid(x(3) - 1), "hardshrink": lambda: F.hardshrink(x(3) - 1, 0.25),
        "softshrink": lambda: F.softshrink(x(3) - 1), "glu": lambda: F.glu(x(2, 4)),
        "_prelu_kernel": lambda: F.prelu(x(2, 3) - 1, x(3)),
    })
    progs.update({  # reductions of issue 10 (ops/reduce_ops.py)
        "prod": lambda: x(3).prod(), "prod_dim_int": lambda: x(2, 3).prod(1),
        "logsumexp": lambda: x(2, 3).logsumexp(1), "nansum": lambda: x(2, 3).nansum(0),
        "trace": lambda: x(3, 3).trace(),
    })
    return progs


def test_06_every_op_in_the_derivative_table_has_a_program(core):
    """A new op in the core's table must be compared too (or the table in 06 could drift)."""
    assert set(_saved_programs(core)) == set(DERIVATIVES)


@pytest.mark.parametrize("op", list(DERIVATIVES))
def test_06_saved_tensors_match_or_are_documented(torch_mod, core, op):
    """06's saved-tensor table: where PyTorch's node and saved tensors differ from the core's,
    ``pytorch_reference.SAVED_DIFFERENCES`` says how; everywhere else they are the same."""
    t_out = _saved_programs(torch_mod)[op]()
    c_out = _saved_programs(core)[op]()
    t_node = t_out.grad_fn.name()
    t_saved = _saved_tensor_fields(torch_mod, t_out.grad_fn)
    c_node = c_out.grad_fn.name()
    c_saved = _saved_tensor_fields(core, c_out.grad_fn)
    assert c_node.split("::")[-1] == DERIVATIVES[op].node
    if op in ref.SAVED_DIFFERENCES:
        node, fields, _ = ref.SAVED_DIFFERENCES[op]
        if op == "einsum":  # no einsum node: the graph holds a bmm that saves both operands
            assert t_node == "ViewBackward0"
            f, names = t_out.grad_fn, []
            while f is not None:
                names.append(f.name())
                f = f.next_functions[0][0] if f.next_functions else None
            assert "BmmBackward0" in names and "EinsumBackward0" not in names
        else:
            assert (t_node, t_saved) == (node, set(fields))
        assert (c_node, c_saved) != (t_node, t_saved)
    else:
        assert (c_node, c_saved) == (t_node, t_saved)


def test_06_scalar_mul_saves_a_0dim_other(torch_mod, core):
    """06: ``x * 2`` and ``x / 2`` save the 2 as a 0-dim tensor ``_saved_other`` (nothing else);
    claim 7 still holds because nothing can modify that copy."""
    for t in (torch_mod, core):
        x = t.tensor([1.0, -2.0, 3.0], requires_grad=True)
        for y in (x * 2, x / 2):
            other = y.grad_fn._saved_other
            assert other.dim() == 0 and other.item() == 2 and y.grad_fn._saved_self is None
        y = x * 2
        y.relu_()
        y.sum().backward()
        assert x.grad.tolist() == [2.0, 0.0, 2.0]


def test_06_linear_saves_weight_t(torch_mod, core):
    """06 (claim 13): D(fake) records AddmmBackward0, which saves weight.t() as mat2."""
    for t in (torch_mod, core):
        t.manual_seed(0)
        lin = t.nn.Linear(3, 1)
        out = lin(t.tensor(arr(4, 3), requires_grad=True))
        f = out.grad_fn
        assert f.name() == "AddmmBackward0"
        m2 = f._saved_mat2
        assert tuple(m2.shape) == (3, 1) and tuple(m2.stride()) == (1, 3)
        assert m2.data_ptr() == lin.weight.data_ptr()


def test_06_step_between_backwards_fails(torch_mod, core):
    msgs = []
    for t in (torch_mod, core):
        t.manual_seed(0)
        G, D = t.nn.Linear(3, 3), t.nn.Linear(3, 1)
        optD = t.optim.SGD(D.parameters(), lr=0.1)
        fake = G(t.tensor(arr(4, 3)))
        d_loss, g_loss = D(fake).mean(), -D(fake).mean()
        d_loss.backward(retain_graph=True)
        optD.step()
        with pytest.raises(RuntimeError) as e:
            g_loss.backward()
        msgs.append(str(e.value).split(" Hint")[0])
    # Both name the saved view weight.t() by its grad_fn as it is when the error is raised:
    # regenerated (AsStridedBackward0) since its base changed in place.
    assert "output 0 of AsStrided," in msgs[0]
    assert msgs[1] == msgs[0]


# --------------------------------------------------------------------------- 08
def _addbmm_ways(t):
    b1 = t.tensor(arr(64, 64, 32))
    b2 = t.tensor(arr(64, 32, 64, seed=1))
    out = t.tensor(arr(64, 64, seed=2))
    return {
        "out.addbmm_(b1, b2)": lambda: out.addbmm_(b1, b2),
        "out + bmm(b1, b2).sum(0)": lambda: out + t.bmm(b1, b2).sum(0),
        "out.add_(einsum('bij,bjk->ik'))": lambda: out.add_(t.einsum("bij,bjk->ik", b1, b2)),
    }


def test_08_addbmm_memory_on_pytorch(torch_mod):
    """08: PyTorch's CPU addbmm_ allocates 0 B; its einsum copies batch1 (one (b, n, m) copy)."""
    got = {k: torch_peak(torch_mod, f)[0] for k, f in _addbmm_ways(torch_mod).items()}
    assert got == ref.ADDBMM_PEAK
    assert ref.ADDBMM_PEAK["out.add_(einsum('bij,bjk->ik'))"] - 64 * 64 * 4 == 64 * 64 * 32 * 4


def test_08_beta_alpha_must_be_numbers(torch_mod, core):
    """08: beta and alpha take numbers (a 0-dim tensor converts); any other tensor is refused."""
    for t in (torch_mod, core):
        out = t.zeros(2, 5)
        b1, b2 = t.tensor(ints(3, 2, 4)), t.tensor(ints(3, 4, 5, seed=1))
        out.addbmm_(b1, b2, beta=t.tensor(0.5))
        for bad in ({"beta": t.tensor([0.5])}, {"alpha": t.ones(2, 5)},
                    {"beta": t.tensor(0.5, requires_grad=True)}):
            before = out.clone()
            with pytest.raises(TypeError) as e:
                out.addbmm_(b1, b2, **bad)
            name = next(iter(bad))
            assert str(e.value) == f"addbmm_(): argument '{name}' must be Number, not Tensor"
            assert out.tolist() == before.tolist()
        with pytest.raises(TypeError) as e:
            t.addbmm(out, b1, b2, alpha="2")
        assert str(e.value) == "addbmm(): argument 'alpha' must be Number, not str"


# --------------------------------------------------------------------------- 09
def test_09_matmul_out_aliasing_input_may_be_wrong(torch_mod, core):
    """09: torch.matmul(a, b, out=a) never raises, and at some sizes its values are wrong."""
    torch = torch_mod
    wrong = []
    for n in (2, 16, 64, 256):
        a, b = torch.tensor(ints(n, n)), torch.tensor(ints(n, n, seed=1))
        expected = a @ b
        for which in ("a", "b"):
            x, y = a.clone(), b.clone()
            r = torch.matmul(x, y, out=x if which == "a" else y)  # no error
            if not torch.equal(r, expected):
                wrong.append((n, which))
    assert wrong, "no size gave wrong values"
    a, b = core.tensor(ints(4, 4)), core.tensor(ints(4, 4, seed=1))
    with pytest.raises(RuntimeError):
        core.matmul(a, b, out=a)


def _clamp_bound_program(t, measure):
    a, b = t.tensor(arr(256, 256)), t.tensor(arr(256, 256, seed=1))
    expected = t.minimum(a, b)
    ptr = a.data_ptr()
    assert measure(lambda: a.clamp_max_(b)) == 0
    assert a.tolist() == expected.tolist() and a.data_ptr() == ptr and a._version == 1
    c = t.tensor(arr(256, 256))
    assert measure(lambda: c.clamp_min_(b)) == 0
    assert c.tolist() == t.maximum(t.tensor(arr(256, 256)), b).tolist()


def test_09_clamp_max_with_a_tensor_is_inplace_minimum(torch_mod, core):
    """09: a.clamp_max_(b) with a tensor b is the in-place minimum and allocates nothing."""
    _clamp_bound_program(torch_mod, lambda f: torch_peak(torch_mod, f)[0])
    _clamp_bound_program(core, lambda f: core_peak(core, f))


def test_09_inplace_metadata_ops_exist_permute_does_not(torch_mod, core):
    torch = torch_mod
    for name in ("transpose_", "t_", "swapdims_", "swapaxes_", "squeeze_", "unsqueeze_",
                 "as_strided_"):
        assert hasattr(torch.Tensor, name) and hasattr(torch.ops.aten, name), name
    for name in ("permute_", "matmul_", "minimum_", "maximum_"):
        assert not hasattr(torch.Tensor, name) and not hasattr(torch.ops.aten, name), name
    for t in (torch, core):  # an in-place permute, spelled with as_strided_
        m = t.arange(24.0).view(2, 3, 4)
        expected = m.permute(2, 0, 1)
        dims = (2, 0, 1)
        ptr = m.data_ptr()
        m.as_strided_([m.shape[d] for d in dims], [m.stride()[d] for d in dims])
        assert m.tolist() == expected.tolist() and m.data_ptr() == ptr and m._version == 1
    m = torch.arange(6.0).view(2, 3)
    m.swapdims_(0, 1)
    assert tuple(m.shape) == (3, 2) and tuple(m.stride()) == (1, 3)


# --------------------------------------------------------------------------- notebook programs
# The cells whose printed behaviour the notebooks say "PyTorch does the same" about, written as
# programs and run on both: values, versions, storage relations and error texts must agree.
from .harness import catch, check_parity, same_storage  # noqa: E402

COURSE = {}


def course(fn):
    COURSE[fn.__name__] = fn
    return fn


@course
def nb01_add_inplace_vs_new(t):
    x = t.tensor([1.0, 2.0, 3.0])
    y = x + 5
    ptr = x.data_ptr()
    r = x.add_(5)
    return {"new": y.data_ptr() != x.data_ptr(), "same_ptr": x.data_ptr() == ptr,
            "returns_self": r is x, "x": x, "version": x._version}


@course
def nb01_iadd_alias(t):
    x = t.ones(1000)
    alias = x
    x += 1
    x2 = t.ones(1000)
    alias2 = x2
    x2 = x2 + 1
    return {"same": x is alias, "v": x._version, "alias0": alias[0].item(),
            "same2": x2 is alias2, "alias2": alias2[0].item()}


@course
def nb01_view_shares_version(t):
    m = t.zeros(2, 3)
    row = m[1]
    row.add_(7)
    return {"m": m, "vm": m._version, "vrow": row._version}


@course
def nb02_layout_and_errors(t):
    x = t.arange(6.0).view(2, 3)
    xt = x.t()
    ptr = x.data_ptr()
    x.t_()
    a = t.arange(12.0).view(3, 4)
    v = t.tensor([1.0, 2.0, 3.0]).view(3, 1)
    e = v.expand(3, 4)
    return {"xt_stride": xt.stride(), "xt_contig": xt.is_contiguous(), "x_shape": tuple(x.shape),
            "x_stride": x.stride(), "same_ptr": x.data_ptr() == ptr, "v": x._version,
            "contig_is": a.contiguous() is a, "t_contig_stride": a.t().contiguous().stride(),
            "view_err": catch(lambda: a.t().view(12)),
            "reshape_shares": same_storage(a.t().reshape(12), a),
            "reshape_contig_shares": same_storage(a.reshape(12), a),
            "expand_stride": e.stride(), "expand_err": catch(lambda: e.add_(1))}


@course
def nb02_channels_last(t):
    img = t.arange(24.0).view(1, 3, 2, 4)
    cl = img.contiguous(memory_format=t.channels_last)
    obs = {"nchw": img.stride(), "cl": cl.stride(), "equal": t.equal(cl, img),
           "contig": cl.is_contiguous(),
           "contig_cl": cl.is_contiguous(memory_format=t.channels_last),
           "cells": cl.as_strided((6,), (1,)).tolist(), "nchw_cells": img.view(-1)[:6].tolist(),
           "view_err": catch(lambda: cl.view(-1)),
           "reshape_shares": same_storage(cl.reshape(-1), cl)}
    cl.mul_(2)
    obs.update({"after_mul_": cl.stride(), "plus": (cl + 1).stride(),
                "pad": t.nn.functional.pad(cl, (1, 1, 1, 1), mode="reflect").stride(),
                "empty": t.empty(1, 3, 2, 4, memory_format=t.channels_last).stride()})
    return obs


@course
def nb03_inference_mode_inplace(t):
    with t.inference_mode():
        b = t.ones(3) * 2
    with t.no_grad():
        a = t.ones(3) * 2
    a.add_(1)
    c = b.clone()
    c.add_(1)
    with t.inference_mode():
        b.add_(1)
    return {"a_inf": a.is_inference(), "b_inf": b.is_inference(), "err": catch(lambda: b.add_(1)),
            "clone_inf": c.is_inference(), "c": c}


def test_03_inference_inplace_error_comes_after_the_write(torch_mod, core):
    """03: PyTorch raises *after* its kernel wrote into the inference tensor; the core raises
    before writing (its rule: nothing half-written)."""
    got = []
    for t in (torch_mod, core):
        with t.inference_mode():
            b = t.ones(3) * 2
        with pytest.raises(RuntimeError, match="Inplace update to inference tensor outside"):
            b.add_(1)
        got.append(b.tolist())
    assert got == [[3.0, 3.0, 3.0], [2.0, 2.0, 2.0]]


@course
def nb04_int_inplace_div(t):
    img = t.tensor([[0, 128, 255], [64, 32, 16]])
    unit = img.float().div_(255).sub_(0.5).div_(0.25)
    return {"dtype": img.dtype, "err": catch(lambda: img.div_(255)), "unit": unit}


def test_04_uint8_message_names_byte(torch_mod):
    img = torch_mod.tensor([[0, 128, 255]], dtype=torch_mod.uint8)
    with pytest.raises(RuntimeError) as e:
        img.div_(255)
    assert str(e.value) == "result type Float can't be cast to the desired output type Byte"


@course
def nb05_leaf_inplace(t):
    w = t.tensor([1.0, 2.0, 3.0], requires_grad=True)
    w.grad = t.ones(3)
    err = catch(lambda: w.add_(w.grad, alpha=-0.1))
    with t.no_grad():
        w.add_(w.grad, alpha=-0.1)
    return {"err": err, "w": w, "v": w._version, "rg": w.requires_grad}


@course
def nb06_claim8_and_sigmoid(t):
    xb, yb = t.tensor(arr(16, 4)), t.tensor(arr(16, 1, seed=1))
    grads = {}
    for inplace in (False, True):
        w1, b1 = t.tensor(arr(8, 4, seed=2), requires_grad=True), t.zeros(8, requires_grad=True)
        w2 = t.tensor(arr(1, 8, seed=3), requires_grad=True)
        h = xb @ w1.t() + b1
        h = h.relu_() if inplace else h.relu()
        ((h @ w2.t() - yb) ** 2).mean().backward()
        grads[inplace] = [w1.grad, b1.grad, w2.grad]
    x = t.tensor([1.0, -2.0, 3.0], requires_grad=True)
    s = x.sigmoid()
    s.mul_(2)
    return {"same_grads": all(np.allclose(g.numpy(), h.numpy(), atol=1e-6)
                              for g, h in zip(grads[False], grads[True])),
            "sigmoid_err": catch(lambda: s.sum().backward())}


@course
def nb06_immediate_errors_and_data(t):
    w = t.tensor([1.0, 2.0], requires_grad=True)
    h = t.tensor(arr(4, 3), requires_grad=True) * 1
    with t.no_grad():
        row = h[0]
    x = t.tensor([1.0, -2.0, 3.0], requires_grad=True)
    s = x.sigmoid()
    s.data.mul_(2)
    s.sum().backward()
    x2 = t.tensor([1.0, -2.0, 3.0], requires_grad=True)
    s2 = x2.sigmoid()
    s2.detach().mul_(2)
    return {"leaf": catch(lambda: w.add_(1)), "leaf_view": catch(lambda: w[0].mul_(2)),
            "unbind": catch(lambda: h.unbind(0)[0].mul_(2)),
            "split": catch(lambda: h.split(2)[1].zero_()),
            "nograd_view": catch(lambda: row.mul_(2)),
            "data_grad": x.grad, "detach_err": catch(lambda: s2.sum().backward())}


@course
def nb07_log_inplace_clones(t):
    leaf = t.tensor(pos(256, 256), requires_grad=True)
    y = leaf + 0.5
    ptr = y.data_ptr()
    y.log_()
    saved = y.grad_fn._saved_self
    return {"node": y.grad_fn.name(), "saved_is_clone": saved.data_ptr() != ptr,
            "saved_values": saved}


@course
def nb08_claims_10_11(t):
    b1, b2 = t.tensor(arr(10, 20, 30)), t.tensor(arr(10, 30, 40, seed=1))
    X = t.tensor(arr(5, 3, 2), requires_grad=True)
    Yn = t.tensor(arr(5, 2, 4, seed=1), requires_grad=True) * 1
    r = t.zeros(3, 4).addbmm_(X, Yn)
    Yn.mul_(2)
    return {"claim10": catch(lambda: t.zeros(10, 20, 40).addbmm_(b1, b2)),
            "claim11": catch(lambda: t.einsum("ijk,jkl->ikl", b1, b2)),
            "ok": t.zeros(20, 40).addbmm_(b1, b2).shape,
            "bw": catch(lambda: r.sum().backward())}


@course
def nb09_copy_overlap(t):
    x = t.tensor(arr(3, 3))
    return {"err": catch(lambda: x.copy_(x.t())), "ok": x.copy_(x.t().clone())}


def test_07_log_inplace_memory_on_pytorch(torch_mod):
    """07: in training PyTorch's log_() saves a clone of its input (one full-size buffer);
    under no_grad it allocates nothing."""
    torch = torch_mod
    y = torch.tensor(pos(256, 256), requires_grad=True) + 0.5
    assert torch_peak(torch, lambda: y.log_())[0] == 256 * 256 * 4
    z = torch.tensor(pos(256, 256)) + 0.5
    with torch.no_grad():
        assert torch_peak(torch, lambda: z.log_()) == (0, [])


def test_06_detect_anomaly_names_the_forward_node(torch_mod):
    """06: PyTorch's anomaly mode reports the node whose backward failed (ExpBackward0) with the
    forward traceback of that node; it does not name the in-place line."""
    torch = torch_mod
    with pytest.warns(UserWarning) as record:
        with torch.autograd.detect_anomaly():
            x = torch.tensor([0.5, 1.0, 2.0], requires_grad=True)
            e = (x * 3).exp()
            e.add_(1)
            with pytest.raises(RuntimeError, match="output 0 of Exp, is at version 1"):
                e.sum().backward()
    texts = [str(w.message) for w in record]
    assert any("Error detected in ExpBackward0" in m and "Traceback of forward call" in m
               for m in texts)
    assert not any("add_" in m for m in texts)


@course
def nb07_history_chain(t):
    x = t.tensor([1.0, -2.0, 3.0], requires_grad=True)
    y = x * 2
    node_before = y.grad_fn
    y.relu_()
    chain, f = [], y.grad_fn
    while f is not None:
        chain.append(f.name())
        f = f.next_functions[0][0] if f.next_functions else None
    return {"chain": chain, "kept": y.grad_fn.next_functions[0][0] is node_before}



def test_10_clip_grad_norm_formula(torch_mod):
    """10 (task 3): clip_grad_norm_ multiplies every grad by max_norm / (total + 1e-6), clamped
    at 1, with total the L2 norm of all gradients together."""
    torch = torch_mod
    for max_norm in (0.5, 1e6):
        ps = [torch.zeros(4, 3, requires_grad=True), torch.zeros(3, requires_grad=True)]
        grads = [torch.tensor(arr(4, 3)), torch.tensor(arr(3, seed=1))]
        for p, g in zip(ps, grads):
            p.grad = g.clone()
        total = torch.cat([g.flatten() for g in grads]).norm()
        coef = min(max_norm / (total.item() + 1e-6), 1.0)
        returned = torch.nn.utils.clip_grad_norm_(ps, max_norm)
        assert torch.allclose(returned, total)
        for p, g in zip(ps, grads):
            assert torch.allclose(p.grad, g * coef, atol=1e-6)


# every program registered above, run on both (keep this test last in the file)
@pytest.mark.parametrize("prog", list(COURSE.values()), ids=list(COURSE))
def test_course_program(prog, torch_mod, core):
    check_parity(prog, torch_mod, core)
