"""Grad modes, inference mode, detach() and .data.

Each program is ordinary PyTorch code written against ``t``; the harness runs it once
with ``t = torch`` and once with ``t = inplace_tutorial`` and compares every observation.
"""


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


@pytest.mark.parametrize("program", prog.params())
def test_grad_mode_parity(program, torch_mod, core):
    check_parity(program, torch_mod, core)
