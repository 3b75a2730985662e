"""Saved tensors (_saved_* names, versions) and the version-counter error each one raises.

Each program is ordinary PyTorch code written against ``t``; the harness runs it once
with ``t = torch`` and once with ``t = inplace_tutorial`` and compares every observation.
"""


import pytest

from .harness import (
    Registry,
    arr,
    catch,
    check_parity,
    fn_name,
    pos,
)

pytestmark = pytest.mark.parity

prog = Registry()


# ======================================================================================
# saved tensors


@prog
def saved_exp_result_shares_output(t):
    x = t.tensor(arr(3), requires_grad=True)
    y = x.exp()
    s = y.grad_fn._saved_result
    return {
        "shares": s.data_ptr() == y.data_ptr(),
        "value": s,
        "has_self": hasattr(y.grad_fn, "_saved_self"),
    }


@prog
def saved_sigmoid_tanh_relu_results(t):
    x = t.tensor(arr(3), requires_grad=True)
    out = {}
    for name in ["sigmoid", "tanh", "relu", "sqrt"]:
        y = getattr(x.abs() if name == "sqrt" else x, name)()
        out[name] = {
            "has_result": hasattr(y.grad_fn, "_saved_result"),
            "has_self": hasattr(y.grad_fn, "_saved_self"),
            "shares": y.grad_fn._saved_result.data_ptr() == y.data_ptr(),
        }
    return out


@prog
def saved_log_self_shares_input(t):
    x = t.tensor(pos(3), requires_grad=True)
    y = x.log()
    s = y.grad_fn._saved_self
    return {
        "shares": s.data_ptr() == x.data_ptr(),
        "value": s,
        "has_result": hasattr(y.grad_fn, "_saved_result"),
    }


@prog
def saved_pow_and_abs_self(t):
    x = t.tensor(pos(3), requires_grad=True)
    p = x.pow(2)
    a = x.abs()
    return {
        "pow_self_shares": p.grad_fn._saved_self.data_ptr() == x.data_ptr(),
        "pow_exponent": p.grad_fn._saved_exponent,
        "abs_self_shares": a.grad_fn._saved_self.data_ptr() == x.data_ptr(),
    }


@prog
def saved_mul_by_python_scalar_saves_no_input(t):
    x = t.tensor(arr(3), requires_grad=True)
    y = x * 2
    g = y.grad_fn
    other = g._saved_other
    return {
        "self_none": g._saved_self is None,
        "other_is_full_size_tensor": other is not None
        and hasattr(other, "numel")
        and other.numel() == x.numel(),
        "grad_fn": fn_name(g),
    }


@prog
def saved_mul_saves_only_needed_operand(t):
    x = t.tensor(arr(3), requires_grad=True)
    c = t.tensor(arr(3, seed=1))
    y = x * c  # d/dx needs c; x is not needed
    z = c * x
    w = t.tensor(arr(3, seed=2), requires_grad=True)
    both = x * w
    return {
        "y_self_none": y.grad_fn._saved_self is None,
        "y_other_is_c": y.grad_fn._saved_other.data_ptr() == c.data_ptr(),
        "z_self_is_c": z.grad_fn._saved_self.data_ptr() == c.data_ptr(),
        "z_other_none": z.grad_fn._saved_other is None,
        "both": [
            both.grad_fn._saved_self.data_ptr() == x.data_ptr(),
            both.grad_fn._saved_other.data_ptr() == w.data_ptr(),
        ],
    }


@prog
def saved_mm_operands(t):
    a = t.tensor(arr(2, 3), requires_grad=True)
    b = t.tensor(arr(3, 4, seed=1), requires_grad=True)
    y = a.mm(b)
    return {
        "self": y.grad_fn._saved_self.data_ptr() == a.data_ptr(),
        "mat2": y.grad_fn._saved_mat2.data_ptr() == b.data_ptr(),
    }


@prog
def saved_after_free_raises(t):
    x = t.tensor(arr(3), requires_grad=True)
    y = x.exp()
    g = y.grad_fn
    y.sum().backward()
    return {"err": catch(lambda: g._saved_result)}


# ======================================================================================
# ---- which name, shape and version the version-counter message reports (found by the fuzzer)


@prog
def version_error_names_copy_backwards(t):
    x = t.tensor(arr(3, 4), requires_grad=True)
    w = t.tensor(arr(3, 4, seed=1), requires_grad=True)
    d = x - x
    m = t.maximum(w, d)  # saves w and d
    d.copy_(t.tensor(arr(3, 4, seed=2)))
    return {"err": catch(lambda: m.sum().backward()), "d_grad_fn": fn_name(d.grad_fn)}


@prog
def version_error_reports_current_shape_after_t_(t):
    x = t.tensor(arr(3, 4), requires_grad=True)
    w = t.tensor(arr(3, 4, seed=1), requires_grad=True)
    m = t.maximum(w, x)
    q = m / (x[2:].abs() + 0.5)  # saves m
    m.t_()
    return {
        "err": catch(lambda: q.sum().backward()),
        "m_grad_fn": fn_name(m.grad_fn),
        "m_shape": tuple(m.shape),
    }


@prog
def version_error_amax_self_and_result_both_modified(t):
    x = t.tensor(arr(3, 4), requires_grad=True)
    a = x.amax(-1)  # saves self and result
    with t.no_grad():
        x.clamp_(-0.5, 0.5)
    a.zero_()
    return {"err": catch(lambda: a.sum().backward())}


@prog
def version_error_names_regenerated_view_grad_fn(t):
    x = t.tensor(arr(3, 4), requires_grad=True)
    s = (-x).sum(0)
    v = s.narrow(0, 1, 2)
    v.exp_()  # saves its result (the view)
    z = v + v
    v.add_(z)
    return {"err": catch(lambda: (v.sum() + z.sum()).backward()), "v_grad_fn": fn_name(v.grad_fn)}


@prog
def version_error_copyslices_output_vs_amax_result(t):
    x = t.tensor(arr(2, 3, 4), requires_grad=True)
    sm = x.softmax(-1)
    a = sm.amax(-1)
    a.sigmoid_()
    r = x.unbind(0)[1]
    sm[0] = r
    return {"err": catch(lambda: (sm.sum() + a.sum() + r.sum()).backward())}


@prog
def multi_output_view_of_expanded_constant(t):
    x = t.tensor(arr(3, 4), requires_grad=True)
    e = t.tensor(arr(3, 4, seed=1)).unsqueeze(0).expand(2, 3, 4) * 0.5
    u = e.unbind(0)[1]
    return {"err": catch(lambda: u.sub_(x, alpha=2))}


@prog
def version_no_error_if_not_saved(t):
    x = t.tensor(arr(3), requires_grad=True)
    y = x + 1
    y.mul_(2)
    y.sum().backward()
    return {"grad": x.grad, "version": y._version}


@prog
def version_no_error_when_modified_after_backward(t):
    x = t.tensor(arr(3), requires_grad=True)
    y = x.exp()
    y.sum().backward()
    y.add_(1)
    return {"grad": x.grad, "y": y}


# ======================================================================================


@pytest.mark.parametrize("program", prog.params())
def test_saved_tensor_parity(program, torch_mod, core):
    check_parity(program, torch_mod, core)
