"""Autograd state meeting in-place ops: retain_grad() followed by an in-place op, views made
under no_grad whose base changed, how version-counter errors name a tensor (its type and its
producer, "output 0 of AsStrided" included), checked ``.grad`` assignment and
``detect_anomaly(check_nan=True)``.

Each program is ordinary PyTorch code written against ``t``; the harness runs it once with
``t = torch`` and once with ``t = inplace_tutorial`` and compares every observation.
"""

import pytest

from .harness import Registry, arr, catch, check_parity, fn_name

pytestmark = pytest.mark.parity

prog = Registry()

W3 = arr(3, seed=7)


def _x(t):
    return t.tensor(arr(3, seed=1), requires_grad=True)


# ======================================================================================
# retain_grad() then an in-place op: .grad is the gradient of the new value


@prog
def retain_grad_then_inplace(t):
    x = _x(t)
    y = x * 2
    y.retain_grad()
    y.mul_(3)
    rg = y.retains_grad
    (y * t.tensor(W3)).sum().backward()
    return {"retains_grad": rg, "y.grad": y.grad, "x.grad": x.grad, "fn": fn_name(y.grad_fn)}


@prog
def retain_grad_then_two_inplace_ops(t):
    x = _x(t)
    y = x * 2
    y.retain_grad()
    y.add_(1)
    y.mul_(y.detach())
    (y * t.tensor(W3)).sum().backward()
    return {"retains_grad": y.retains_grad, "y.grad": y.grad, "x.grad": x.grad}


@prog
def retain_grad_on_view_then_inplace_on_view(t):
    # the view's regenerated grad_fn (AsStrided) carries retain_grad; the loss goes through the
    # base's CopySlices, not through it, so torch leaves v.grad None
    x = _x(t)
    b = x * 2
    v = b[:2]
    v.retain_grad()
    v.mul_(3)
    rg, fn = v.retains_grad, fn_name(v.grad_fn)
    (b * t.tensor(W3)).sum().backward()
    return {"retains_grad": rg, "fn": fn, "v.grad": v.grad, "x.grad": x.grad}


@prog
def retain_grad_on_view_then_inplace_on_base(t):
    x = _x(t)
    b = x * 2
    v = b[:2]
    v.retain_grad()
    b.mul_(3)
    rg, fn = v.retains_grad, fn_name(v.grad_fn)
    (v.sum() + (b * t.tensor(W3)).sum()).backward()
    return {"retains_grad": rg, "fn": fn, "v.grad": v.grad, "x.grad": x.grad}


@prog
def retain_grad_on_base_then_inplace_on_view(t):
    x = _x(t)
    b = x * 2
    b.retain_grad()
    b[:2].mul_(3)
    rg, fn = b.retains_grad, fn_name(b.grad_fn)
    (b * t.tensor(W3)).sum().backward()
    return {"retains_grad": rg, "fn": fn, "b.grad": b.grad, "x.grad": x.grad}


@prog
def retain_grad_then_metadata_inplace(t):
    x = t.tensor(arr(2, 3, seed=1), requires_grad=True)
    y = x * 2
    y.retain_grad()
    y.t_()
    (y * t.tensor(arr(3, 2, seed=4))).sum().backward()
    return {"retains_grad": y.retains_grad, "y.grad": y.grad, "x.grad": x.grad}


@prog
def retain_grad_errors(t):
    return {
        "no_grad": catch(lambda: t.zeros(3).retain_grad()),
        "leaf": catch(lambda: _x(t).retain_grad()),
    }


# ======================================================================================
# views made under no_grad whose base changed in place


def _no_grad_view(t):
    x = _x(t)
    b = x * 2
    with t.no_grad():
        v = b[:2]
    return x, b, v


@prog
def no_grad_view_grad_fn_after_base_inplace(t):
    _, b, v = _no_grad_view(t)
    before = [fn_name(v.grad_fn), v.requires_grad]
    b.mul_(3)
    outside = catch(lambda: v.grad_fn)
    with t.no_grad():
        inside = catch(lambda: v.grad_fn)
    return {"before": before, "outside": outside, "inside_no_grad": inside,
            "requires_grad": v.requires_grad}


@prog
def no_grad_view_modified_inside_no_grad(t):
    _, b, v = _no_grad_view(t)
    with t.no_grad():
        v.mul_(2)
    first = catch(lambda: v.grad_fn)
    return {"first": first, "b_version": b._version}


@prog
def no_grad_view_base_modified_under_no_grad(t):
    _, b, v = _no_grad_view(t)
    with t.no_grad():
        b.mul_(2)
    return {"grad_fn": catch(lambda: v.grad_fn)}


@prog
def no_grad_view_of_base_without_grad(t):
    x = t.tensor(arr(3))
    with t.no_grad():
        v = x[:2]
    x.mul_(2)
    plain = [catch(lambda: v.grad_fn), v.requires_grad]
    x.requires_grad_()
    return {"plain": plain, "after_requires_grad": catch(lambda: v.grad_fn),
            "rg": v.requires_grad}


@prog
def unbind_view_grad_fn_after_base_inplace(t):
    x = _x(t)
    b = x * 2
    u0, _, _ = b.unbind()
    b.mul_(2)
    outside = catch(lambda: u0.grad_fn)
    with t.no_grad():
        inside = catch(lambda: u0.grad_fn)
    return {"outside": outside, "inside": inside}


@prog
def no_grad_view_used_in_graph(t):
    # it requires grad (its base does) but has no grad_fn and no accumulator: no gradient
    x = _x(t)
    with t.no_grad():
        v = x[:2]
    y = v * 2
    y.sum().backward()
    return {"v": [v.is_leaf, v.requires_grad], "y": y.requires_grad,
            "next": [f is None for f, _ in y.grad_fn.next_functions], "x.grad": x.grad,
            "v.grad": v.grad}


@prog
def view_of_plain_tensor_made_leaf(t):
    x = t.tensor(arr(3))
    v = x[:2]
    v.requires_grad_()
    (v * 3).sum().backward()
    return {"v.grad": v.grad, "leaf": v.is_leaf}


# ======================================================================================
# how the version-counter error names the tensor


@prog
def version_error_names_bool_tensor(t):
    a = _x(t)
    m = t.tensor([True, False, True])
    z = a * m  # saves the bool tensor
    m[1] = True
    return {"err": catch(lambda: z.sum().backward())}


@prog
def version_error_names_long_and_double(t):
    a = _x(t)
    k = t.tensor([0, 2, 1])
    z = a * k  # saves the int64 tensor
    k.add_(1)
    d = t.tensor(arr(3, seed=2), dtype=t.float64, requires_grad=True)
    y = d * 1
    w = y * y
    y.add_(1)
    return {"long": catch(lambda: z.sum().backward()),
            "double": catch(lambda: w.sum().backward())}


@prog
def version_error_linear_weight_as_strided(t):
    # Linear saves weight.t(), a view that dies after forward; once the weight changes in
    # place, PyTorch names the saved view by its regenerated grad_fn: "output 0 of AsStrided"
    t.manual_seed(0)
    lin = t.nn.Linear(3, 2)
    x = t.tensor(arr(4, 3, seed=2), requires_grad=True)
    out = lin(x)
    with t.no_grad():
        lin.weight.mul_(2)
    no_bias = t.nn.Linear(3, 2, bias=False)
    out2 = no_bias(x)
    with t.no_grad():
        no_bias.weight.add_(1)
    w = t.tensor(arr(2, 3, seed=5), requires_grad=True)
    out3 = x @ w.t()
    with t.no_grad():
        w.add_(1)
    return {"addmm": catch(lambda: out.sum().backward()),
            "mm": catch(lambda: out2.sum().backward()),
            "explicit_t": catch(lambda: out3.sum().backward())}


@prog
def version_error_live_view_regenerated(t):
    # the same naming while the saved view is still alive
    x = _x(t)
    b = x * 1
    v = b[:2]
    y = v * v
    b.add_(1)
    return {"err": catch(lambda: y.sum().backward()), "v_fn": fn_name(v.grad_fn)}


# ======================================================================================
# .grad assignment


@prog
def grad_assignment_checks(t):
    x = t.zeros(3, requires_grad=True)
    xi = t.zeros(3, dtype=t.int64)
    y = t.zeros(3)
    ok = t.ones(3)
    x.grad = ok
    same = x.grad is ok
    x.grad = None
    return {
        "shape": catch(lambda: setattr(x, "grad", t.zeros(2))),
        "int64": catch(lambda: setattr(x, "grad", t.zeros(3, dtype=t.int64))),
        "float64": catch(lambda: setattr(x, "grad", t.zeros(3, dtype=t.float64))),
        "bool": catch(lambda: setattr(x, "grad", t.zeros(3, dtype=t.bool))),
        "python_int": catch(lambda: setattr(x, "grad", 3)),
        "list": catch(lambda: setattr(x, "grad", [1.0, 2.0, 3.0])),
        "dtype_and_shape": catch(lambda: setattr(x, "grad", t.zeros(2, dtype=t.int64))),
        "on_long": catch(lambda: setattr(xi, "grad", t.zeros(3))),
        "no_requires_grad_shape": catch(lambda: setattr(y, "grad", t.zeros(2))),
        "expanded": catch(lambda: setattr(x, "grad", t.zeros(1).expand(3)) or "ok"),
        "same_object": same,
        "x.grad": x.grad,
    }


# ======================================================================================
# detect_anomaly(check_nan=True)


@prog
def check_nan_raises(t):
    x = t.tensor([0.0, 1.0], requires_grad=True)
    out = {}
    with t.autograd.detect_anomaly():
        y = x.log()
        out["log"] = catch(lambda: (y * 0).sum().backward())
    out["grad_after_failure"] = x.grad
    with t.autograd.detect_anomaly():
        y = x.sqrt()
        out["sqrt"] = catch(lambda: (y * 0).sum().backward())
    with t.autograd.detect_anomaly(check_nan=False):
        y = x.log()
        out["off"] = catch(lambda: (y * 0).sum().backward())
    out["grad_off"] = x.grad
    x.grad = None
    t.autograd.set_detect_anomaly(True)
    y = x * 2
    out["root_nan"] = catch(lambda: y.backward(t.tensor([float("nan"), 1.0])))
    t.autograd.set_detect_anomaly(False)
    return out


@prog
def check_nan_second_input_and_grad(t):
    x = t.tensor([0.0, 4.0], requires_grad=True)
    w = t.tensor([1.0, 2.0], requires_grad=True)
    c = t.tensor([1.0, 1.0])
    with t.autograd.detect_anomaly():
        y = w * x.sqrt()  # d/dx sqrt at 0 is inf; times 0 upstream: nan in x's gradient
        g = catch(lambda: t.autograd.grad((y * 0).sum(), [w, x]))
        nan_input_ok = catch(lambda: (t.tensor([float("nan"), 1.0], requires_grad=True) * c)
                             .sum().backward())
    return {"grad": g, "nan_leaf_value": nan_input_ok}


# ======================================================================================
# every dtype the core has: its name in the version-counter error is PyTorch's


def _dtype_names(core):
    from inplace_tutorial.type_names import TYPE_NAMES

    return [n for n in TYPE_NAMES if isinstance(getattr(core, n, None), core.dtype)]


def test_version_error_type_name_for_every_core_dtype(torch_mod, core):
    names = _dtype_names(core)
    assert {"float32", "float64", "int64", "bool"} <= set(names)
    for name in names:
        msgs = []
        for t in (torch_mod, core):
            a = t.tensor(arr(3, seed=1), requires_grad=True)
            o = t.ones(3, dtype=getattr(t, name))
            z = a * o  # mul saves the other operand, whatever its dtype
            o[0] = 0
            msgs.append(catch(lambda z=z: z.sum().backward()))
        assert msgs[0] == msgs[1], name


# ======================================================================================


@pytest.mark.parametrize("program", prog.params())
def test_autograd_state_parity(program, torch_mod, core):
    check_parity(program, torch_mod, core)
