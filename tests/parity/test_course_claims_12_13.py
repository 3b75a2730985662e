"""Notebooks 12 and 13's statements about PyTorch, run on torch 2.13 (and the core where it
shows them)."""
from __future__ import annotations

import math
import warnings

import numpy as np
import pytest

pytestmark = pytest.mark.parity


def _dt(t, name):
    return getattr(t, name)


# --------------------------------------------------------------------------- notebook 12
def test_12_cat_allocates_a_new_storage(torch_mod, core):
    for t in (torch_mod, core):
        with t.inference_mode():
            K = t.zeros(1, 4, 10, 16)
            k = t.ones(1, 4, 1, 16)
            grown = t.cat([K, k], dim=2)
        assert grown.shape == (1, 4, 11, 16), t.__name__
        assert grown.data_ptr() != K.data_ptr(), t.__name__
        assert grown.untyped_storage().nbytes() == 11 * 4 * 16 * 4, t.__name__
        assert K.shape == (1, 4, 10, 16), t.__name__  # the old cache is untouched
        # with grad enabled, a key that requires grad makes the grown cache a graph node
        w = t.ones(16, requires_grad=True)
        cache = t.zeros(1, 4, 10, 16)
        assert t.cat([cache, t.ones(1, 4, 1, 16) * w], dim=2).grad_fn.name() == "CatBackward0"


def test_12_cache_writes_in_place(torch_mod, core):
    for t in (torch_mod, core):
        with t.no_grad():
            K = t.zeros(1, 4, 10, 16)
            k = t.ones(1, 4, 1, 16)
            ptr, version = K.data_ptr(), K._version
            K[:, :, 3:4] = k
            assert K.index_copy_(2, t.tensor([4]), k) is K, t.__name__
        assert K.data_ptr() == ptr and K._version - version == 2, t.__name__
        assert K[0, 0, :, 0].tolist() == [0, 0, 0, 1, 1, 0, 0, 0, 0, 0], t.__name__


def test_12_inference_cache_rules(torch_mod, core):
    refused = ("Inplace update to inference tensor outside InferenceMode is not allowed.You can "
               "make a clone to get a normal tensor before doing inplace update.See "
               "https://github.com/pytorch/rfcs/pull/17 for more details.")
    for t in (torch_mod, core):
        with t.inference_mode():
            K = t.zeros(1, 2, 4, 3)
            K[:, :, 0:1] = t.ones(1, 2, 1, 3)  # inside the mode: allowed
        assert K.is_inference(), t.__name__
        with pytest.raises(RuntimeError) as e:
            _ = K._version
        assert str(e.value) == "Inference tensors do not track version counter.", t.__name__
        with t.no_grad():
            with pytest.raises(RuntimeError) as e:
                K[:, :, 1:2] = t.ones(1, 2, 1, 3)
            assert str(e.value) == refused, t.__name__
            with pytest.raises(RuntimeError) as e:
                K.index_copy_(2, t.tensor([1]), t.ones(1, 2, 1, 3))
            assert str(e.value) == refused, t.__name__
        # PyTorch raises after its kernel wrote (notebook 03); the core refuses before writing
        written = [1, 1, 0, 0] if t is torch_mod else [1, 0, 0, 0]
        assert K[0, 0, :, 0].tolist() == written, t.__name__


def test_12_cache_written_with_grad(torch_mod, core):
    messages = []
    for t in (torch_mod, core):
        t.manual_seed(0)
        wk = t.randn(8, 8, requires_grad=True)
        x = t.randn(3, 8)
        cache = t.zeros(3, 8)
        cache[0] = x[0] @ wk
        score = cache[:1] @ (x[0] @ wk)
        cache[1] = x[1] @ wk
        assert cache.grad_fn.name() == "torch::autograd::CopySlices", t.__name__
        assert cache._version == 2, t.__name__
        with pytest.raises(RuntimeError) as e:
            score.sum().backward()
        messages.append(str(e.value))
    assert messages[0] == messages[1]
    assert messages[0].startswith(
        "one of the variables needed for gradient computation has been modified by an inplace "
        "operation: [torch.FloatTensor [1, 8]], which is output 0 of AsStrided, is at version "
        "2; expected version 1 instead.")


# --------------------------------------------------------------------------- notebook 13
@pytest.mark.parametrize("name", ["float32", "float16", "bfloat16"])
def test_13_finfo(torch_mod, core, name):
    a, b = torch_mod.finfo(_dt(torch_mod, name)), core.finfo(_dt(core, name))
    assert (a.bits, a.max, a.eps, a.tiny) == (b.bits, b.max, b.eps, b.tiny)
    assert a.bits == 16 or name == "float32"


def test_13_inplace_result_keeps_self_dtype(torch_mod, core):
    for t in (torch_mod, core):
        h = t.tensor([1.0, 2.0, 3.0], dtype=t.float16)
        f = t.tensor([0.1, 0.2, 0.3])
        ptr, version = h.data_ptr(), h._version
        assert (h + f).dtype == t.float32, t.__name__
        assert h.add_(f) is h and h.dtype == t.float16, t.__name__
        assert h.data_ptr() == ptr and h._version - version == 1, t.__name__
        assert f.add_(h).dtype == t.float32, t.__name__


@pytest.mark.parametrize("name", ["float16", "bfloat16"])
def test_13_add_into_half_rounds_once(torch_mod, core, name):
    rng = np.random.default_rng(13)
    x, step = rng.standard_normal(10_000, np.float32), rng.standard_normal(10_000, np.float32)
    step *= np.float32(0.01)
    results = []
    for t in (torch_mod, core):
        d = _dt(t, name)
        w = t.tensor(x).to(d)
        exact = w.float() + t.tensor(step)
        w.add_(t.tensor(step))
        # computed in float32 and rounded to 16 bits once
        assert w.tolist() == exact.to(d).tolist(), t.__name__
        rel = ((w.float() - exact).abs() / exact.abs()).max().item()
        assert rel <= t.finfo(d).eps / 2, t.__name__
        results.append(w.float().tolist())
    assert results[0] == results[1]


def test_13_small_updates_vanish(torch_mod, core):
    finals = {}
    for t in (torch_mod, core):
        for name in ("float32", "float16", "bfloat16"):
            s = t.zeros(1, dtype=_dt(t, name))
            for _ in range(3000):
                s.add_(1e-4)
            w = t.ones(1, dtype=_dt(t, name))
            for _ in range(100):
                w.add_(1e-4)
            finals[t, name] = (round(s.item(), 4), round(w.item(), 4))
    for name, expected in (("float32", (0.3, 1.01)), ("float16", (0.25, 1.0)),
                           ("bfloat16", (0.0312, 1.0))):
        assert finals[torch_mod, name] == finals[core, name] == expected, name


def test_13_overflow_and_underflow(torch_mod, core):
    values = [65504.0, 65520.0, 1e5, 257.0, 1e-5, 1e-8]
    rows = {}
    for t in (torch_mod, core):
        big = t.tensor([60000.0, 1000.0], dtype=t.float16)
        big.mul_(2)
        assert big.tolist() == [math.inf, 2000.0] and big.dtype == t.float16, t.__name__
        assert math.isnan((big - big).tolist()[0]), t.__name__
        rows[t] = [[t.tensor([v]).to(d).item() for d in (t.float16, t.bfloat16)]
                   for v in values]
    assert rows[torch_mod] == rows[core]
    f16 = [r[0] for r in rows[core]]
    bf16 = [r[1] for r in rows[core]]
    assert f16[1] == f16[2] == math.inf and f16[5] == 0.0 and f16[3] == 257.0
    assert bf16[3] == 256.0 and bf16[5] != 0.0 and math.isfinite(bf16[2])


def test_13_copy_into_half_in_place(torch_mod, core):
    for t in (torch_mod, core):
        master = t.tensor([1.0001, 2.5, 65519.0, 70000.0])
        h = t.zeros(4, dtype=t.float16)
        ptr, version = h.data_ptr(), h._version
        assert h.copy_(master) is h, t.__name__
        assert h.data_ptr() == ptr and h.dtype == t.float16, t.__name__
        assert h._version - version == 1, t.__name__
        assert h.tolist() == [1.0, 2.5, 65504.0, math.inf], t.__name__
        g32 = t.zeros(2)
        g32.copy_(t.tensor([1e-3, 3.0], dtype=t.float16))
        assert g32.dtype == t.float32 and g32.tolist()[1] == 3.0, t.__name__


def test_13_one_sum_checks_for_inf_and_nan(torch_mod, core):
    cases = ([1.0, 2.0], [math.inf, 1.0], [math.inf, -math.inf], [math.nan, 1.0])
    for t in (torch_mod, core):
        with warnings.catch_warnings():
            warnings.simplefilter("error")  # PyTorch prints no warning; neither may the core
            finite = [math.isfinite(t.tensor(c).sum().item()) for c in cases]
            assert math.isinf(t.tensor([60000.0, 60000.0], dtype=t.float16).sum().item())
        assert finite == [True, False, False, False], t.__name__


def _scaled_training(t, x_np, w_np, steps=60):
    """Notebook 13's loop: float16 weight, float32 master, dynamic loss scale."""
    x = t.tensor(x_np).to(t.float16)
    y = x.float() @ t.tensor(w_np)
    master = t.zeros(32, 4)
    w16 = master.to(t.float16).requires_grad_()
    grad32 = t.zeros(32, 4)
    scale, good, skipped, losses = 65536.0, 0, [], []
    for step in range(steps):
        w16.grad = None
        loss = ((x @ w16).float() - y).pow(2).mean()
        (loss * scale).backward()
        assert w16.grad.dtype == t.float16
        losses.append(loss.item())
        grad32.copy_(w16.grad)
        grad32.mul_(1 / scale)
        if not math.isfinite(grad32.sum().item()):
            skipped.append(step)
            scale, good = scale / 2, 0
            continue
        with t.no_grad():
            master.add_(grad32, alpha=-0.1)
            w16.copy_(master)
        good += 1
        if good == 10:
            scale, good = scale * 2, 0
    return skipped, losses, master


def test_13_scaled_training_skips_the_same_steps(torch_mod, core):
    core.manual_seed(13)
    x_np = core.randn(128, 32).numpy()
    w_np = core.randn(32, 4).numpy()
    skipped_t, losses_t, master_t = _scaled_training(torch_mod, x_np, w_np)
    skipped_c, losses_c, master_c = _scaled_training(core, x_np, w_np)
    assert skipped_t == skipped_c and len(skipped_t) >= 2 and skipped_t[0] == 0
    assert max(abs(a - b) / max(abs(a), 1e-3) for a, b in zip(losses_t, losses_c)) < 1e-3
    assert losses_c[-1] < losses_c[0] / 10
    assert np.abs(master_t.numpy() - master_c.numpy()).max() < 1e-3


def test_13_grad_scaler_defaults(torch_mod):
    scaler = torch_mod.amp.GradScaler("cpu")
    assert scaler.get_scale() == 2.0**16
    assert scaler.get_growth_factor() == 2.0 and scaler.get_backoff_factor() == 0.5
    assert scaler.get_growth_interval() == 2000


def test_13_grad_scaler_unscales_in_place_and_skips(torch_mod):
    torch = torch_mod
    w = torch.tensor([1.0, 2.0], requires_grad=True)
    opt = torch.optim.SGD([w], lr=0.1)
    scaler = torch.amp.GradScaler("cpu", init_scale=1024.0)
    scaler.scale((w * 3).sum()).backward()
    grad = w.grad
    ptr = grad.data_ptr()
    assert grad.tolist() == [3072.0, 3072.0]
    scaler.unscale_(opt)
    assert w.grad is grad and grad.data_ptr() == ptr  # the same buffer, divided in place
    assert grad.tolist() == [3.0, 3.0]
    scaler.step(opt)
    scaler.update()
    assert w.tolist() == pytest.approx([0.7, 1.7]) and scaler.get_scale() == 1024.0
    # an overflowing gradient: the step is skipped, the scale halves
    opt.zero_grad()
    scaler.scale((w * 1e36).sum()).backward()
    before = w.tolist()
    scaler.step(opt)
    scaler.update()
    assert w.tolist() == before and scaler.get_scale() == 512.0
    # float16 weights (no autocast): GradScaler refuses their gradients
    h = torch.tensor([1.0], dtype=torch.float16, requires_grad=True)
    opt16 = torch.optim.SGD([h], lr=0.1)
    scaler.scale((h * 2).sum()).backward()
    with pytest.raises(ValueError, match="^Attempting to unscale FP16 gradients.$"):
        scaler.unscale_(opt16)
    assert torch.amp.grad_scaler.__file__.replace("\\", "/").endswith("torch/amp/grad_scaler.py")
    assert hasattr(torch, "_amp_foreach_non_finite_check_and_unscale_")


def test_13_autocast_casts_per_op(torch_mod):
    import inspect

    torch = torch_mod
    a, b = torch.randn(4, 8), torch.randn(8, 3)
    acc = torch.zeros(4, 3)
    with torch.autocast("cpu", dtype=torch.bfloat16):
        c = a @ b
        loss = torch.nn.functional.mse_loss(c, torch.zeros(4, 3))
        s = c.softmax(-1)
        out_of_place = acc.addmm(a, b)
        acc.addmm_(a, b)  # in place: not autocast, the result stays in acc's float32
    assert a.dtype == torch.float32 and c.dtype == torch.bfloat16
    assert loss.dtype == torch.float32  # on CPU's float32 list
    assert s.dtype == torch.bfloat16  # softmax is not on CPU's list (it is on CUDA's)
    assert out_of_place.dtype == torch.bfloat16 and acc.dtype == torch.float32
    assert "cache_enabled" in inspect.signature(torch.autocast).parameters
