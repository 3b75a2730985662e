"""optim: the update formulas against hand-written NumPy, in-place updates, counted state."""
import numpy as np
import pytest

import inplace_tutorial as ipt
from inplace_tutorial import nn, optim


def param(values):
    return nn.Parameter(ipt.tensor(np.asarray(values, dtype=np.float32)))


def test_sgd_plain_is_an_in_place_add_with_minus_lr():
    p = param([1.0, 2.0])
    p.grad = ipt.tensor([0.5, -1.0])
    ptr, v = p.data_ptr(), p._version
    optim.SGD([p], lr=0.1).step()
    np.testing.assert_allclose(p.detach().numpy(), [0.95, 2.1], rtol=1e-6)
    assert p.data_ptr() == ptr and p._version == v + 1


def test_sgd_momentum_nesterov_weight_decay_match_numpy():
    rng = np.random.default_rng(0)
    w0, grads = rng.standard_normal(6), [rng.standard_normal(6) for _ in range(4)]
    for nesterov, damp in ((False, 0.1), (True, 0.0)):
        p = param(w0)
        opt = optim.SGD([p], lr=0.05, momentum=0.9, dampening=damp, weight_decay=0.01,
                        nesterov=nesterov)
        w, buf = w0.astype(np.float64), None
        for g in grads:
            p.grad = ipt.tensor(g.astype(np.float32))
            opt.step()
            d = g + 0.01 * w
            buf = d.copy() if buf is None else 0.9 * buf + (1 - damp) * d
            w = w - 0.05 * (d + 0.9 * buf if nesterov else buf)
        np.testing.assert_allclose(p.detach().numpy(), w, rtol=1e-5)
        assert isinstance(opt.state[p]["momentum_buffer"], ipt.Tensor)


@pytest.mark.parametrize("cls,wd", [(optim.Adam, 0.0), (optim.Adam, 0.1), (optim.AdamW, 0.1)])
def test_adam_and_adamw_match_numpy(cls, wd):
    rng = np.random.default_rng(1)
    w0, grads = rng.standard_normal(5), [rng.standard_normal(5) for _ in range(5)]
    p = param(w0)
    opt = cls([p], lr=0.01, weight_decay=wd)
    w, m, v = w0.copy(), np.zeros(5), np.zeros(5)
    for t, g in enumerate(grads, 1):
        p.grad = ipt.tensor(g.astype(np.float32))
        opt.step()
        if cls is optim.AdamW:
            w = w * (1 - 0.01 * wd)
        else:
            g = g + wd * w
        m = 0.9 * m + 0.1 * g
        v = 0.999 * v + 0.001 * g * g
        denom = np.sqrt(v) / np.sqrt(1 - 0.999 ** t) + 1e-8
        w = w - 0.01 / (1 - 0.9 ** t) * m / denom
    np.testing.assert_allclose(p.detach().numpy(), w, rtol=1e-5, atol=1e-6)
    assert opt.state[p]["step"].item() == 5.0


def test_state_buffers_come_from_the_allocator():
    p = param(np.zeros(1000))
    p.grad = ipt.ones(1000)
    opt = optim.Adam([p])
    before = ipt.memory.memory_allocated()
    opt.step()
    assert ipt.memory.memory_allocated() - before >= 2 * 4000  # exp_avg + exp_avg_sq


def test_sgd_update_allocates_no_full_size_temporary():
    p = param(np.zeros(200_000))
    p.grad = ipt.ones(200_000)
    opt = optim.SGD([p], lr=0.1)
    with ipt.memory.record() as trace:
        opt.step()
    assert max((e.nbytes for e in trace.events if e.kind == "alloc"), default=0) <= 256 * 1024


def test_zero_grad_set_to_none_default_and_false_and_skips_none_grads():
    a, b = param([1.0]), param([2.0])
    opt = optim.SGD([{"params": [a]}, {"params": [b], "lr": 0.5}], lr=0.1)
    assert [g["lr"] for g in opt.param_groups] == [0.1, 0.5]
    a.grad = ipt.tensor([1.0])
    opt.step()  # b.grad is None: skipped
    assert b.item() == 2.0 and abs(a.item() - 0.9) < 1e-7
    opt.zero_grad(set_to_none=False)
    assert a.grad.item() == 0.0
    opt.zero_grad()
    assert a.grad is None


def test_invalid_arguments():
    with pytest.raises(ValueError, match="Nesterov momentum requires"):
        optim.SGD([param([1.0])], lr=0.1, nesterov=True)
    with pytest.raises(ValueError, match="empty parameter list"):
        optim.Adam([])
