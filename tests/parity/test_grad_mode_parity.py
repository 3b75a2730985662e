"""Grad modes, inference mode, detach() and .data.

Each program is ordinary PyTorch code written against ``t``; the harness runs it once
with ``t = torch`` and once with ``t = inplace_tutorial`` and compares every observation.
"""


import threading

import numpy as np
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
# grad modes


@prog
def mode_no_grad(t):
    x = t.tensor(arr(3), requires_grad=True)
    with t.no_grad():
        y = x * 2
        enabled = t.is_grad_enabled()
        v = x[0]
    z = x * 2
    return {
        "y": [y.requires_grad, y.grad_fn is None, y.is_leaf],
        "view": [v.requires_grad, v.grad_fn is None],
        "enabled_inside": enabled,
        "after": [z.requires_grad, t.is_grad_enabled()],
    }


@prog
def mode_enable_grad_inside_no_grad(t):
    x = t.tensor(arr(3), requires_grad=True)
    with t.no_grad():
        with t.enable_grad():
            y = x * 2
        z = x * 2
    return {"y": [y.requires_grad, fn_name(y.grad_fn)], "z": z.requires_grad}


@prog
def mode_set_grad_enabled(t):
    x = t.tensor(arr(3), requires_grad=True)
    with t.set_grad_enabled(False):
        a = x + 1
        inside = t.is_grad_enabled()
    with t.set_grad_enabled(True):
        b = x + 1
    t.set_grad_enabled(False)
    c = x + 1
    t.set_grad_enabled(True)
    d = x + 1
    return {
        "a": a.requires_grad,
        "b": b.requires_grad,
        "c": c.requires_grad,
        "d": d.requires_grad,
        "inside": inside,
    }


@prog
def mode_no_grad_decorator(t):
    x = t.tensor(arr(3), requires_grad=True)

    @t.no_grad()
    def f(v):
        return v * 2

    y = f(x)
    return {"y": y.requires_grad, "after": t.is_grad_enabled()}


@prog
def mode_inference_mode(t):
    x = t.tensor(arr(3), requires_grad=True)
    with t.inference_mode():
        y = x * 2
        inside = t.is_grad_enabled()
    return {
        "y": y,
        "rg": y.requires_grad,
        "grad_fn": y.grad_fn is None,
        "inside": inside,
        "after": t.is_grad_enabled(),
    }


@prog
def mode_no_grad_update_keeps_leaf(t):
    w = t.tensor(arr(3), requires_grad=True)
    (w * w).sum().backward()
    with t.no_grad():
        w.add_(w.grad, alpha=-0.1)
        w -= 0.5 * w.grad
    return {
        "w": w,
        "leaf": w.is_leaf,
        "rg": w.requires_grad,
        "grad_fn": w.grad_fn is None,
        "version": w._version,
    }


@prog
def mode_inplace_bumps_version_under_no_grad(t):
    w = t.tensor(arr(3), requires_grad=True)
    v0 = w._version
    with t.no_grad():
        w.mul_(2)
        w[0] = 1.0
    return {"versions": [v0, w._version], "leaf": w.is_leaf}


@prog
def mode_no_grad_inplace_on_nonleaf_keeps_grad_fn(t):
    a = t.tensor(arr(3), requires_grad=True)
    y = a * 2
    with t.no_grad():
        y.add_(a)
    obs = {"grad_fn": fn_name(y.grad_fn), "version": y._version, "y": y}
    y.sum().backward()
    obs["grad"] = a.grad
    return obs


@prog
def mode_no_grad_result_then_inplace_with_grad(t):
    a = t.tensor(arr(3), requires_grad=True)
    with t.no_grad():
        y = a * 2
    y.mul_(a)
    obs = {"grad_fn": fn_name(y.grad_fn), "leaf": y.is_leaf, "rg": y.requires_grad}
    y.sum().backward()
    obs["grad"] = a.grad
    return obs


@prog
def inference_mode_tensors(t):
    with t.inference_mode():
        c = t.ones(3)
    a = t.tensor(arr(3), requires_grad=True)
    return {
        "is_inference": c.is_inference(),
        "a_is_inference": a.is_inference(),
        "saved": catch(lambda: a * c),
        "not_saved": catch(lambda: a + c),
        "inplace_outside": catch(lambda: c.add_(1)),
        "clone_ok": (a * c.clone()).requires_grad,
    }


# ======================================================================================
# detach and .data


@prog
def detach_shares_storage_and_version(t):
    x = t.tensor(arr(3), requires_grad=True)
    y = x * 2
    d = y.detach()
    same = d.data_ptr() == y.data_ptr()
    v0 = y._version
    d.add_(1)
    return {
        "same_ptr": same,
        "y_version_before": v0,
        "y_version": y._version,
        "d_version": d._version,
        "y": y,
        "d_rg": d.requires_grad,
        "d_leaf": d.is_leaf,
    }


@prog
def detach_inplace_caught_at_backward(t):
    x = t.tensor(arr(3), requires_grad=True)
    y = x.exp()
    y.detach().zero_()
    return {"err": catch(lambda: y.sum().backward())}


@prog
def data_shares_storage_not_version(t):
    x = t.tensor(arr(3), requires_grad=True)
    y = x * 2
    d = y.data
    same = d.data_ptr() == y.data_ptr()
    d.add_(1)
    return {
        "same_ptr": same,
        "y_version": y._version,
        "d_version": d._version,
        "y": y,
        "d_rg": d.requires_grad,
    }


@prog
def data_silent_wrong_gradient(t):
    x = t.tensor(np.array([0.0, 1.0, 2.0], np.float32), requires_grad=True)
    y = x.exp()
    y.data.mul_(0.0)  # bypasses the version counter: no error, wrong gradient
    y.sum().backward()
    return {"grad": x.grad, "y": y}


@prog
def data_same_program_with_detach_raises(t):
    x = t.tensor(np.array([0.0, 1.0, 2.0], np.float32), requires_grad=True)
    y = x.exp()
    y.detach().mul_(0.0)
    return {"err": catch(lambda: y.sum().backward()), "grad_none": x.grad is None}


@prog
def data_update_of_saved_operand_gives_silent_wrong_grad(t):
    w = t.tensor(np.array([1.0, 2.0, 3.0], np.float32), requires_grad=True)
    x = t.tensor(np.array([0.5, -1.0, 2.0], np.float32), requires_grad=True)
    y = w * x  # saves w (for x.grad) and x (for w.grad)
    w.data.mul_(10)  # the optimizer-via-.data pattern: no version bump
    y.sum().backward()
    return {"x_grad": x.grad, "w_grad": w.grad, "w_version": w._version}


@prog
def detach_of_view_inplace_bumps_base(t):
    x = t.tensor(arr(3, 4), requires_grad=True)
    d = x[0].detach()
    d.add_(1)
    e = x.t().detach()
    e[0, 0] = 5.0
    return {"x": x, "version": x._version, "d_base_is_x": d._base is x, "d_is_view": d._is_view()}


@prog
def requires_grad_inside_no_grad(t):
    with t.no_grad():
        w = t.tensor(arr(3)).requires_grad_()
        y = w * 2
    z = w * 2
    return {
        "w": [w.requires_grad, w.is_leaf],
        "y": y.requires_grad,
        "z": [z.requires_grad, fn_name(z.grad_fn)],
    }


@prog
def data_assignment_on_leaf(t):
    w = t.tensor(arr(3), requires_grad=True)
    w.data.mul_(2)
    return {"w": w, "version": w._version, "leaf": w.is_leaf, "rg": w.requires_grad}


# ======================================================================================
# grad mode is per thread; anomaly mode is per process (as PyTorch's static AnomalyMode)


def _in_thread(fn):
    out = []
    th = threading.Thread(target=lambda: out.append(fn()))
    th.start()
    th.join()
    return out[0]


@prog
def mode_new_thread_starts_with_grad_enabled(t):
    x = t.tensor(arr(3), requires_grad=True)

    def probe():
        y = x * 2
        return [t.is_grad_enabled(), t.is_inference_mode_enabled(), y.requires_grad,
                fn_name(y.grad_fn)]

    with t.no_grad():
        under_no_grad = _in_thread(probe)
    with t.inference_mode():
        under_inference = _in_thread(probe)
    t.set_grad_enabled(False)
    after_set_false = _in_thread(probe)
    main_thread = t.is_grad_enabled()
    t.set_grad_enabled(True)
    return {"no_grad": under_no_grad, "inference": under_inference,
            "set_false": after_set_false, "main": main_thread}


@prog
def mode_no_grad_in_thread_leaves_main_alone(t):
    x = t.tensor(arr(3), requires_grad=True)
    entered, release = threading.Event(), threading.Event()

    def worker():
        with t.no_grad():
            entered.set()
            release.wait(5)

    th = threading.Thread(target=worker)
    th.start()
    entered.wait(5)
    y = x * 2  # the other thread is inside no_grad right now
    flags = [t.is_grad_enabled(), y.requires_grad, fn_name(y.grad_fn)]
    release.set()
    th.join()
    return {"main_while_other_in_no_grad": flags, "after": t.is_grad_enabled()}


@prog
def mode_overlapping_blocks_restore(t):
    # two blocks entered and left out of nesting order restore what each saw on entry
    a, b = t.no_grad(), t.enable_grad()
    a.__enter__()
    b.__enter__()
    in_both = t.is_grad_enabled()
    a.__exit__(None, None, None)
    after_a = t.is_grad_enabled()
    b.__exit__(None, None, None)
    after_b = t.is_grad_enabled()
    t.set_grad_enabled(True)
    return {"in_both": in_both, "after_a": after_a, "after_b": after_b}


@prog
def mode_anomaly_is_process_wide(t):
    t.autograd.set_detect_anomaly(True)
    seen = _in_thread(lambda: [t.is_anomaly_enabled(), t.is_anomaly_check_nan_enabled()])
    t.autograd.set_detect_anomaly(False)
    return {"other_thread": seen, "main": t.is_anomaly_enabled()}


@prog
def mode_anomaly_check_nan_flags(t):
    flags = []
    with t.autograd.detect_anomaly(check_nan=False):
        flags.append([t.is_anomaly_enabled(), t.is_anomaly_check_nan_enabled()])
        with t.autograd.detect_anomaly():
            flags.append([t.is_anomaly_enabled(), t.is_anomaly_check_nan_enabled()])
        flags.append([t.is_anomaly_enabled(), t.is_anomaly_check_nan_enabled()])
    flags.append([t.is_anomaly_enabled(), t.is_anomaly_check_nan_enabled()])
    t.autograd.set_detect_anomaly(True, check_nan=False)
    flags.append([t.is_anomaly_enabled(), t.is_anomaly_check_nan_enabled()])
    t.autograd.set_detect_anomaly(False)
    flags.append([t.is_anomaly_enabled(), t.is_anomaly_check_nan_enabled()])
    return {"flags": flags}


# ======================================================================================
# decorators, with and without parentheses


@prog
def mode_bare_decorators(t):
    @t.no_grad
    def f():
        return t.is_grad_enabled()

    @t.enable_grad
    def g():
        return t.is_grad_enabled()

    @t.inference_mode
    def h():
        return [t.is_inference_mode_enabled(), t.is_grad_enabled()]

    @t.inference_mode()
    def h2():
        return t.is_inference_mode_enabled()

    @t.inference_mode(False)
    def h3():
        return t.is_inference_mode_enabled()

    with t.no_grad():
        g_inside = g()
    with t.inference_mode():
        h3_inside = h3()
    return {
        "no_grad": f(), "enable_grad": g_inside, "inference": h(), "inference()": h2(),
        "inference(False)": h3_inside, "names": [f.__name__, g.__name__, h.__name__],
        "set_grad_enabled_fn": catch(lambda: t.set_grad_enabled(lambda: 1)),
        "set_grad_enabled_int": catch(lambda: t.set_grad_enabled(1)),
    }


@prog
def mode_set_grad_enabled_decorator(t):
    @t.set_grad_enabled(False)
    def f():
        return t.is_grad_enabled()

    before = t.is_grad_enabled()  # the decorator's constructor set it False; restore by hand
    t.set_grad_enabled(True)
    return {"inside": f(), "constructor_set_it": before, "after": t.is_grad_enabled()}


@prog
def mode_no_grad_on_generator(t):
    x = t.tensor(arr(3), requires_grad=True)

    @t.no_grad()
    def gen():
        for _ in range(2):
            y = x * 2
            yield [t.is_grad_enabled(), y.requires_grad]

    out = []
    for step in gen():
        out.append(step + [t.is_grad_enabled()])  # the caller's mode between steps
    return {"steps": out}


# ======================================================================================


@pytest.mark.parametrize("program", prog.params())
def test_grad_mode_parity(program, torch_mod, core):
    check_parity(program, torch_mod, core)
