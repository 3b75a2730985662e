"""Autograd beyond parity: anomaly culprit lines, explain(), gradcheck, memory after backward."""
from __future__ import annotations

import gc
import threading
import weakref

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from hypothesis_settings import examples

import inplace_tutorial as ipt
from inplace_tutorial import memory
from inplace_tutorial.autograd import explain, gradcheck, inplace_safe


def test_detect_anomaly_names_creation_and_culprit_lines():
    x = ipt.tensor([1.0, 2.0, 3.0], requires_grad=True)
    with ipt.autograd.detect_anomaly():
        y = x.sigmoid()  # line A
        y.mul_(2)  # line B: the culprit
        with pytest.raises(RuntimeError) as info:
            y.sum().backward()
    msg = str(info.value)
    assert msg.startswith("one of the variables needed for gradient computation")
    assert "SigmoidBackward0, created at test_autograd.py" in msg
    assert "`y = x.sigmoid()  # line A`" in msg
    assert "mul_ at test_autograd.py" in msg and "`y.mul_(2)  # line B: the culprit`" in msg
    assert "(version 0 -> 1)" in msg


def test_detect_anomaly_lists_every_culprit_in_order():
    x = ipt.tensor([1.0, 2.0], requires_grad=True)
    with ipt.autograd.detect_anomaly():
        y = x.exp()
        y.add_(1)
        y.mul_(3)
        with pytest.raises(RuntimeError) as info:
            y.sum().backward()
    msg = str(info.value)
    assert msg.index("add_ at") < msg.index("mul_ at")
    assert "(version 1 -> 2)" in msg


def test_without_anomaly_mode_the_message_is_pytorchs_only():
    x = ipt.tensor([1.0, 2.0], requires_grad=True)
    y = x.exp()
    y.add_(1)
    with pytest.raises(RuntimeError) as info:
        y.sum().backward()
    assert "\n" not in str(info.value)


def test_explain_reports_holders_and_verdicts():
    x = ipt.tensor([1.0, -2.0, 3.0], requires_grad=True)
    y = x * 2  # mul by a scalar saves no tensor
    assert inplace_safe(y)
    s = x.sigmoid()
    e = explain(s)
    assert not e.safe
    assert [(h.node, h.field, h.saved_version, h.current_version) for h in e.holders] == [
        ("SigmoidBackward0", "result", 0, 0)]
    assert "NOT SAFE" in str(e)
    leaf = explain(x)
    assert not leaf.safe and any("leaf" in r for r in leaf.reasons)


def test_explain_sees_stale_saves_and_data_bypass():
    x = ipt.tensor([1.0, 2.0], requires_grad=True)
    y = x.exp()
    y.data.add_(1)  # .data: new counter, the save is not flagged as stale
    e = explain(y)
    assert e.holders[0].stale is False
    y.add_(1)
    assert explain(y).holders[0].stale


def test_explain_forgets_released_graphs():
    x = ipt.tensor([1.0, 2.0], requires_grad=True)
    y = x.exp()
    y.sum().backward()
    assert inplace_safe(y)


def test_data_gives_silently_wrong_gradient_detach_raises():
    x = ipt.tensor([1.0, 2.0], requires_grad=True)
    y = x.exp()
    y.data.mul_(0)  # bypasses the version counter
    y.sum().backward()
    assert x.grad.tolist() == [0.0, 0.0]  # wrong (true gradient is exp(x)), and no error
    x.grad = None
    y = x.exp()
    y.detach().mul_(0)  # shares the counter: caught
    with pytest.raises(RuntimeError, match="modified by an inplace operation"):
        y.sum().backward()


def _mlp_step():
    ipt.manual_seed(0)
    w1 = ipt.randn(784, 256, requires_grad=True)
    w2 = ipt.randn(256, 10, requires_grad=True)
    base = memory.memory_allocated()
    x = ipt.randn(64, 784)
    loss = (x @ w1).relu().matmul(w2).log_softmax(1).mean()
    del x
    loss.backward()
    return w1, w2, loss, base


def test_memory_returns_to_params_plus_grads_after_backward():
    gc.collect()
    gc.disable()  # reference cycles would keep storages alive: there must be none
    try:
        w1, w2, loss, base = _mlp_step()
        grads = w1.grad.untyped_storage().nbytes() + w2.grad.untyped_storage().nbytes()
        assert memory.memory_allocated() - base == grads + loss.untyped_storage().nbytes()
        del loss
        assert memory.memory_allocated() - base == grads
    finally:
        gc.enable()


def test_second_backward_fails_only_when_something_was_saved():
    x = ipt.tensor([1.0, 2.0], requires_grad=True)
    y = (x + 1).sum()
    y.backward()
    y.backward()  # nothing saved: fine
    assert x.grad.tolist() == [2.0, 2.0]
    z = x.exp().sum()
    z.backward()
    with pytest.raises(RuntimeError, match="backward through the graph a second time"):
        z.backward()
    w = x.exp().sum()
    w.backward(retain_graph=True)
    w.backward()


_UNARY = {
    "exp": lambda a: a.exp(), "log": lambda a: (a.abs() + 0.5).log(),
    "sqrt": lambda a: (a * a + 1).sqrt(),
    "abs": lambda a: a.abs(), "relu": lambda a: a.relu(), "sigmoid": lambda a: a.sigmoid(),
    "tanh": lambda a: a.tanh(), "neg": lambda a: -a, "pow": lambda a: a.pow(3),
    "clamp": lambda a: a.clamp(-0.5, 0.5), "softmax": lambda a: a.softmax(-1),
    "log_softmax": lambda a: a.log_softmax(-1), "sum": lambda a: a.sum(0),
    "mean": lambda a: a.mean(),
    "var": lambda a: a.var(-1), "std": lambda a: a.std(), "amax": lambda a: a.amax(-1),
    "t": lambda a: a.t() * 1, "expand": lambda a: a.unsqueeze(0).expand(2, *a.shape) * 1,
    "select": lambda a: a[0] * 1, "slice": lambda a: a[:, ::2] * 1,
    "reciprocal": lambda a: 1 / (a * a + 1), "rpow": lambda a: 2 ** a,
}
_BINARY = {
    "add": lambda a, b: a + b, "sub": lambda a, b: a.sub(b, alpha=2), "mul": lambda a, b: a * b,
    "div": lambda a, b: a / (b * b + 1), "maximum": lambda a, b: ipt.maximum(a, b),
    "mm": lambda a, b: a @ b.t(), "pow_tensor": lambda a, b: (a * a + 1).pow(b),
    "addcmul": lambda a, b: a.addcmul(b, b, value=0.5), "lerp": lambda a, b: a.lerp(b, 0.3),
    "where": lambda a, b: ipt.where(a > b, a, b),
}


@examples(8)
@given(rows=st.integers(1, 3), cols=st.integers(2, 4), seed=st.integers(0, 2**16))
@pytest.mark.parametrize("name", sorted(_UNARY))
def test_gradcheck_unary(name, rows, cols, seed):
    a = np.random.default_rng(seed).uniform(-2, 2, (rows, cols)) + 0.05
    x = ipt.tensor(a, dtype=ipt.float64, requires_grad=True)
    assert gradcheck(_UNARY[name], [x])


@examples(8)
@given(rows=st.integers(1, 3), cols=st.integers(2, 4), seed=st.integers(0, 2**16))
@pytest.mark.parametrize("name", sorted(_BINARY))
def test_gradcheck_binary(name, rows, cols, seed):
    rng = np.random.default_rng(seed)
    x = ipt.tensor(rng.uniform(-2, 2, (rows, cols)), dtype=ipt.float64, requires_grad=True)
    y = ipt.tensor(rng.uniform(-2, 2, (rows, cols)) + 3.0, dtype=ipt.float64, requires_grad=True)
    assert gradcheck(_BINARY[name], [x, y])


@examples(6)
@given(seed=st.integers(0, 2**16))
def test_gradcheck_batched_linear_algebra(seed):
    rng = np.random.default_rng(seed)
    s = ipt.tensor(rng.normal(size=(2, 3)), dtype=ipt.float64, requires_grad=True)
    b1 = ipt.tensor(rng.normal(size=(4, 2, 5)), dtype=ipt.float64, requires_grad=True)
    b2 = ipt.tensor(rng.normal(size=(4, 5, 3)), dtype=ipt.float64, requires_grad=True)
    assert gradcheck(lambda s, a, b: ipt.addbmm(s, a, b, beta=0.5, alpha=2), [s, b1, b2])
    s3 = ipt.tensor(rng.normal(size=(4, 2, 3)), dtype=ipt.float64, requires_grad=True)
    assert gradcheck(lambda s, a, b: ipt.baddbmm(s, a, b, beta=2, alpha=0.5), [s3, b1, b2])
    assert gradcheck(lambda a, b: ipt.einsum("bij,bjk->ik", a, b), [b1, b2])
    assert gradcheck(lambda a, b: ipt.bmm(a, b), [b1, b2])


def test_gradcheck_catches_a_wrong_gradient():
    x = ipt.tensor([0.3, 0.7], dtype=ipt.float64, requires_grad=True)

    def wrong(a):
        return a * a.data  # .data hides the second factor from autograd: half the gradient

    with pytest.raises(ipt.autograd.GradcheckError):
        gradcheck(wrong, [x])


def test_inplace_on_view_of_nonleaf_rebases_with_copyslices():
    x = ipt.tensor([1.0, 2.0, 3.0], requires_grad=True)
    y = x * 1
    y[1:].mul_(ipt.tensor([10.0, 100.0]))
    assert y.grad_fn.name() == "torch::autograd::CopySlices"
    y.sum().backward()
    assert x.grad.tolist() == [1.0, 10.0, 100.0]


def test_zeros_add_requires_grad_input_becomes_nonleaf():
    x = ipt.tensor([1.0, 2.0], requires_grad=True)
    a = ipt.zeros(2)
    a.add_(x)
    assert not a.is_leaf and a.grad_fn.name() == "AddBackward0"
    with ipt.no_grad():
        x.mul_(2)
    assert x.is_leaf and x._version == 1


def test_create_graph_says_higher_order_gradients_are_out_of_scope():
    x = ipt.tensor([1.0, 2.0], requires_grad=True)
    y = (x * x).sum()
    for call in (lambda: y.backward(create_graph=True),
                 lambda: ipt.autograd.backward(y, create_graph=True)):
        with pytest.raises(NotImplementedError, match="higher-order gradients are out of scope"):
            call()
    assert x.grad is None  # refused before anything ran
    y.backward()  # the graph is intact
    assert x.grad.tolist() == [2.0, 4.0]


# ---------------------------------------------------------------- grad mode is per thread
def test_grad_mode_is_thread_local_under_concurrent_blocks():
    """Many threads enter and leave no_grad / inference_mode / enable_grad blocks at once,
    overlapping in time; each sees only its own mode, records a graph exactly when its own
    mode says so, and the main thread ends with grad enabled and inference mode off."""
    x = ipt.tensor([1.0, 2.0, 3.0], requires_grad=True)
    start = threading.Barrier(8)
    errors: list = []

    def worker(k: int) -> None:
        try:
            start.wait(5)
            for i in range(200):
                mode = (k + i) % 3
                block = (ipt.no_grad() if mode == 0 else
                         ipt.inference_mode() if mode == 1 else ipt.enable_grad())
                with block:
                    y = x * 2
                    want = mode == 2
                    if ipt.is_grad_enabled() != want or y.requires_grad != want:
                        errors.append((k, i, mode, ipt.is_grad_enabled(), y.requires_grad))
                    if ipt.is_inference_mode_enabled() != (mode == 1):
                        errors.append((k, i, "inference", mode))
                if not ipt.is_grad_enabled() or ipt.is_inference_mode_enabled():
                    errors.append((k, i, "not restored"))
        except Exception as e:  # noqa: BLE001 - reported below
            errors.append(repr(e))

    threads = [threading.Thread(target=worker, args=(k,)) for k in range(8)]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    assert errors == []
    assert ipt.is_grad_enabled() and not ipt.is_inference_mode_enabled()


def test_new_thread_starts_with_defaults_whatever_its_parent_has():
    seen = []
    with ipt.inference_mode():
        with ipt.enable_grad():
            th = threading.Thread(target=lambda: seen.append(
                (ipt.is_grad_enabled(), ipt.is_inference_mode_enabled())))
            th.start()
            th.join()
    assert seen == [(True, False)]


def test_anomaly_mode_is_one_switch_for_the_process():
    seen = []
    ipt.autograd.set_detect_anomaly(True, check_nan=False)
    try:
        th = threading.Thread(target=lambda: seen.append(
            (ipt.is_anomaly_enabled(), ipt.is_anomaly_check_nan_enabled())))
        th.start()
        th.join()
    finally:
        ipt.autograd.set_detect_anomaly(False)
    assert seen == [(True, False)]
    assert not ipt.is_anomaly_enabled() and ipt.is_anomaly_check_nan_enabled()


def test_grad_mode_exception_inside_block_restores():
    with pytest.raises(ValueError):
        with ipt.no_grad():
            raise ValueError
    assert ipt.is_grad_enabled()

    @ipt.inference_mode
    def boom():
        raise ValueError

    with pytest.raises(ValueError):
        boom()
    assert ipt.is_grad_enabled() and not ipt.is_inference_mode_enabled()


# ---------------------------------------------------------------- hooks, grad(), .grad
def test_hook_handle_remove_is_idempotent_and_hooks_do_not_leak_nodes():
    x = ipt.tensor([1.0, 2.0], requires_grad=True)
    y = x * 2
    h = y.register_hook(lambda g: g * 3)
    node = weakref.ref(y.grad_fn)
    h.remove()
    h.remove()
    y.sum().backward()
    assert x.grad.tolist() == [2.0, 2.0]
    del y
    gc.collect()
    assert node() is None  # the handle holds its table weakly: the node is freed


def test_autograd_grad_leaves_dot_grad_and_graph_rules():
    x = ipt.tensor([1.0, 2.0], requires_grad=True)
    y = (x * x).sum()
    (g,) = ipt.autograd.grad(y, x, retain_graph=True)
    assert g.tolist() == [2.0, 4.0] and x.grad is None
    (g2,) = ipt.autograd.grad(y, [x])
    assert g2.tolist() == [2.0, 4.0]
    with pytest.raises(RuntimeError, match="second time"):
        ipt.autograd.grad(y, x)
    with pytest.raises(NotImplementedError):
        ipt.autograd.grad((x * 2).sum(), x, create_graph=True)


def test_grad_assignment_keeps_old_value_on_error():
    x = ipt.tensor([1.0, 2.0], requires_grad=True)
    g = ipt.ones(2)
    x.grad = g
    for bad in (ipt.zeros(3), ipt.zeros(2, dtype=ipt.int64), 1, [1.0, 2.0]):
        with pytest.raises((RuntimeError, TypeError)):
            x.grad = bad
        assert x.grad is g  # nothing half-assigned


def test_type_names_table_matches_torch_for_every_dtype():
    """The table behind ``[CPUBoolType [3]]`` and the .grad assignment text, checked against
    PyTorch 2.13 for every dtype in it (whether or not the core has that dtype yet)."""
    torch = pytest.importorskip("torch")
    from inplace_tutorial.type_names import TYPE_NAMES

    for name, (type_name, c_name) in TYPE_NAMES.items():
        dt = getattr(torch, name)
        a = torch.ones(3, requires_grad=True)
        o = torch.ones(3, dtype=dt)
        z = a * o
        o.zero_()
        with pytest.raises(RuntimeError) as e:
            z.sum().backward()
        assert f"[{type_name} [3]]" in str(e.value), name
        x = torch.zeros(3, requires_grad=True) if name != "float32" else \
            torch.zeros(3, dtype=torch.float64, requires_grad=True)
        with pytest.raises(RuntimeError) as e:
            x.grad = torch.zeros(3, dtype=dt)
        assert f"with dtype '{c_name}' to" in str(e.value), name


def test_no_grad_decorated_generator_send_throw_close():
    @ipt.no_grad()
    def gen():
        try:
            sent = yield ipt.is_grad_enabled()
            yield (sent, ipt.is_grad_enabled())
        except ValueError:
            yield "caught"
        return 5

    it = gen()
    assert next(it) is False and ipt.is_grad_enabled()
    assert it.send(3) == (3, False)
    assert it.throw(ValueError()) == "caught"
    with pytest.raises(StopIteration) as stop:
        next(it)
    assert stop.value.value == 5
    it = gen()
    next(it)
    it.close()
    assert ipt.is_grad_enabled()
