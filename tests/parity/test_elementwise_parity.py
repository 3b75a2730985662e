"""Element-wise ops, out of place and in place: values, dtypes, overlap and shape errors.

Each program is ordinary PyTorch code written against ``t``; the harness runs it once
with ``t = torch`` and once with ``t = inplace_tutorial`` and compares every observation.
"""

import pytest

from .harness import Registry, arr, catch, check_parity, meta, pos

pytestmark = pytest.mark.parity

prog = Registry()


# ======================================================================================
# element-wise


@prog
def ew_add_sub_alpha(t):
    x = t.tensor(arr(3, seed=1))
    y = t.tensor(arr(3, seed=2))
    return {
        "add": x.add(y),
        "add_alpha": x.add(y, alpha=2),
        "module_add": t.add(x, y, alpha=-1.5),
        "sub": x.sub(y),
        "sub_alpha": x.sub(y, alpha=0.5),
        "module_sub": t.sub(x, y, alpha=3),
        "op_add": x + y,
        "op_sub": x - y,
        "radd": 1 + x,
        "rsub": 1 - x,
        "add_scalar": x.add(2.0),
        "sub_scalar": x.sub(1),
    }


@prog
def ew_add_sub_inplace_alpha(t):
    x = t.tensor(arr(3, seed=1))
    y = t.tensor(arr(3, seed=2))
    p = x.data_ptr()
    r = x.add_(y, alpha=2)
    a = x.clone()
    x.sub_(y, alpha=0.5)
    return {"a": a, "x": x, "same": r is x, "ptr": x.data_ptr() == p, "version": x._version}


@prog
def ew_mul_div(t):
    x = t.tensor(arr(2, 3, seed=1))
    y = t.tensor(pos(2, 3, seed=2))
    return {
        "mul": x.mul(y),
        "op_mul": x * y,
        "module_mul": t.mul(x, y),
        "mul_scalar": x * 3,
        "rmul": 3 * x,
        "div": x.div(y),
        "op_div": x / y,
        "module_div": t.div(x, y),
        "div_scalar": x / 4,
        "rdiv": 2 / y,
        "bcast": x * t.tensor([1.0, 2.0, 3.0]),
    }


@prog
def ew_mul_div_inplace(t):
    x = t.tensor(arr(2, 3, seed=1))
    y = t.tensor(pos(2, 3, seed=2))
    p = x.data_ptr()
    x.mul_(y)
    a = x.clone()
    x.div_(y)
    x.mul_(2)
    x.div_(4)
    return {"a": a, "x": x, "ptr": x.data_ptr() == p, "version": x._version}


@prog
def ew_pow(t):
    x = t.tensor(pos(4, seed=3))
    e = t.tensor([0.5, 1.0, 2.0, 3.0])
    return {
        "pow2": x.pow(2),
        "pow_half": x.pow(0.5),
        "op": x**3,
        "rpow": 2**x,
        "pow_t": x.pow(e),
        "module": t.pow(x, 2),
        "module_scalar_base": t.pow(2, x),
        "neg_base": t.tensor([-2.0]).pow(0.5),
    }


@prog
def ew_pow_inplace(t):
    x = t.tensor(pos(4, seed=3))
    r = x.pow_(2)
    a = x.clone()
    x.pow_(t.tensor([1.0, 0.5, 2.0, 1.0]))
    return {"a": a, "x": x, "same": r is x, "version": x._version}


@prog
def ew_unary_out_of_place(t):
    x = t.tensor(arr(2, 3, seed=4))
    p = t.tensor(pos(2, 3, seed=5))
    return {
        "neg": x.neg(),
        "op_neg": -x,
        "exp": x.exp(),
        "log": p.log(),
        "sqrt": p.sqrt(),
        "abs": x.abs(),
        "relu": x.relu(),
        "sigmoid": x.sigmoid(),
        "tanh": x.tanh(),
        "m_neg": t.neg(x),
        "m_exp": t.exp(x),
        "m_log": t.log(p),
        "m_sqrt": t.sqrt(p),
        "m_abs": t.abs(x),
        "m_relu": t.relu(x),
        "m_sigmoid": t.sigmoid(x),
        "m_tanh": t.tanh(x),
    }


@prog
def ew_unary_nan_and_inf(t):
    x = t.tensor([-1.0, 0.0, 1.0])
    return {"log": x.log(), "sqrt": x.sqrt(), "div0": x / 0, "exp_big": t.tensor([100.0]).exp()}


@prog
def ew_unary_inplace(t):
    base = arr(2, 3, seed=4)
    out = {}
    for name in ["neg_", "exp_", "abs_", "relu_", "sigmoid_", "tanh_"]:
        x = t.tensor(base)
        p = x.data_ptr()
        r = getattr(x, name)()
        out[name] = {"x": x, "same": r is x, "ptr": x.data_ptr() == p, "version": x._version}
    for name in ["log_", "sqrt_"]:
        x = t.tensor(pos(2, 3, seed=5))
        r = getattr(x, name)()
        out[name] = {"x": x, "same": r is x, "version": x._version}
    return out


@prog
def ew_clamp(t):
    x = t.tensor(arr(6, seed=6))
    return {
        "both": x.clamp(-0.5, 0.5),
        "kw": x.clamp(min=-1.0, max=1.0),
        "min_only": x.clamp(min=0),
        "max_only": x.clamp(max=0.25),
        "clamp_min": x.clamp_min(0.1),
        "clamp_max": x.clamp_max(-0.1),
        "module": t.clamp(x, -1, 1),
        "module_min": t.clamp_min(x, 0.0),
        "module_max": t.clamp_max(x, 0.0),
        "tensor_bounds": x.clamp(t.full((6,), -0.2), t.full((6,), 0.3)),
        "int": t.tensor([-3, 0, 5]).clamp(-1, 2),
    }


@prog
def ew_clamp_inplace(t):
    base = arr(6, seed=6)
    x = t.tensor(base)
    r = x.clamp_(-0.5, 0.5)
    y = t.tensor(base)
    y.clamp_min_(0.0)
    z = t.tensor(base)
    z.clamp_max_(0.0)
    w = t.tensor(base)
    w.clamp_(min=1.0)
    return {
        "x": x,
        "same": r is x,
        "y": y,
        "z": z,
        "w": w,
        "versions": [v._version for v in (x, y, z, w)],
    }


@prog
def ew_clamp_without_bounds_raises(t):
    x = t.tensor(arr(3))
    return {"err": catch(lambda: x.clamp())}


@prog
def ew_maximum_minimum(t):
    x = t.tensor(arr(2, 3, seed=7))
    y = t.tensor(arr(3, seed=8))
    return {
        "max": t.maximum(x, y),
        "min": t.minimum(x, y),
        "m_max": x.maximum(y),
        "m_min": x.minimum(y),
        "shape": tuple(t.maximum(x, y).shape),
    }


@prog
def ew_broadcasting_out_of_place(t):
    a = t.tensor(arr(2, 1, 3, seed=1))
    b = t.tensor(arr(4, 1, seed=2))
    c = a + b
    return {"c": c, "shape": tuple(c.shape), "stride": c.stride(), "mul": a * b, "sub": b - a}


@prog
def ew_broadcast_incompatible_raises(t):
    a = t.zeros(2, 3)
    b = t.zeros(4)
    return {"err": catch(lambda: a + b)}


@prog
def inplace_on_row_of_transposed(t):
    # found by the fuzzer (seed 4910): a (1, 3) view with strides (1, 4)
    c = t.arange(12.0).view(3, 4)
    v = c.t()[3:]
    m = meta(v)
    v.neg_()
    w = t.arange(12.0).view(3, 4)
    w.t()[1:2].mul_(10)
    u = t.arange(12.0).view(3, 4)
    u.t()[2:3].add_(t.tensor([[100.0, 200.0, 300.0]]))
    return {"meta": m, "c": c, "w": w, "u": u, "read": t.arange(12.0).view(3, 4).t()[3:] * 1}


@prog
def ew_iadd_keeps_data_ptr(t):
    x = t.zeros(3)
    p = x.data_ptr()
    obj = x
    x += 1
    x *= 3
    x -= 1
    x /= 2
    return {"x": x, "ptr_same": x.data_ptr() == p, "same_object": x is obj, "version": x._version}


@prog
def ew_rebinding_allocates(t):
    x = t.zeros(3)
    p = x.data_ptr()
    old = x
    x = x + 1
    return {
        "ptr_same": x.data_ptr() == p,
        "old_unchanged": old,
        "x": x,
        "old_version": old._version,
    }


@prog
def ew_out_of_place_result_layout_of_transposed(t):
    x = t.arange(6.0).view(2, 3).t()
    return {"add": meta(x + 1), "exp": meta(x.exp()), "mul": meta(x * x), "vals": x + 1}


@prog
def ew_result_layout_mixed_operands(t):
    x = t.arange(6.0).view(2, 3)
    y = t.arange(6.0).view(3, 2)
    return {
        "t_plus_c": meta(x.t() + y),
        "c_plus_t": meta(y + x.t()),
        "vals": x.t() + y,
        "t_times_scalar_tensor": meta(x.t() * t.tensor(2.0)),
        "t_plus_row": meta(x.t() + t.ones(2)),
    }


@prog
def ew_result_layout_of_expanded_and_sliced(t):
    e = t.zeros(3, 1).expand(3, 4)
    s = t.arange(12.0).view(3, 4)[:, ::2]
    return {
        "e_plus": meta(e + 1),
        "e_clone": meta(e.clone()),
        "e_contig": meta(e.contiguous()),
        "s_plus": meta(s + 1),
        "s_exp": meta(s.exp()),
        "s_vals": s * 2,
    }


@prog
def ew_int_division_by_zero(t):
    return {
        "div": t.tensor([1, -2, 0]) / 0,
        "float_div": t.tensor([1.0, -1.0]) / t.tensor([0.0, 0.0]),
    }


@prog
def ew_int_negative_power_raises(t):
    return {
        "err": catch(lambda: t.tensor([2, 3]).pow(-1)),
        "ok": t.tensor([2, 3]).pow(2),
        "float_ok": t.tensor([2.0, 4.0]).pow(-1),
    }


@prog
def ew_zero_fill(t):
    x = t.tensor(arr(2, 3))
    p = x.data_ptr()
    r = x.zero_()
    a = x.clone()
    r2 = x.fill_(2.5)
    i = t.zeros(3, dtype=t.int64)
    i.fill_(7)
    return {
        "zero": a,
        "fill": x,
        "same": [r is x, r2 is x],
        "ptr": x.data_ptr() == p,
        "version": x._version,
        "int_fill": i,
        "fill_tensor": t.zeros(2).fill_(t.tensor(3.0)),
    }


@prog
def ew_copy_broadcasting(t):
    x = t.zeros(2, 3)
    r = x.copy_(t.tensor([1.0, 2.0, 3.0]))
    y = t.zeros(2, 3)
    y.copy_(t.tensor([[5.0], [6.0]]))
    return {"x": x, "same": r is x, "y": y, "version": x._version}


@prog
def ew_copy_converts_dtype(t):
    i = t.zeros(3, dtype=t.int64)
    i.copy_(t.tensor([1.7, -2.7, 3.2]))
    f = t.zeros(3)
    f.copy_(t.tensor([1, 2, 3]))
    b = t.zeros(2, dtype=t.bool)
    b.copy_(t.tensor([0.0, 2.0]))
    return {"i": i, "f": f, "b": b}


@prog
def ew_copy_into_transposed_view(t):
    x = t.zeros(2, 3)
    x.t().copy_(t.arange(6.0).view(3, 2))
    return {"x": x, "version": x._version}


@prog
def ew_copy_bad_shape_raises(t):
    x = t.zeros(2, 3)
    return {"err": catch(lambda: x.copy_(t.ones(4)))}


@prog
def setitem_scalar_tensor_slice(t):
    x = t.zeros(3, 4)
    p = x.data_ptr()
    x[0] = 5.0
    x[1, 2] = -1.0
    x[2, 1:3] = t.tensor([7.0, 8.0])
    x[:, 3] = t.tensor([1.0, 2.0, 3.0])
    x[1:, 0] = 9
    return {"x": x, "version": x._version, "ptr": x.data_ptr() == p}


@prog
def setitem_broadcast_row(t):
    x = t.zeros(3, 4)
    x[1:] = t.arange(4.0)
    x[..., 0] = t.tensor(-1.0)
    return {"x": x, "version": x._version}


@prog
def setitem_on_view_updates_base(t):
    x = t.zeros(3, 4)
    v = x.t()
    v[1] = 2.0
    r = x[2]
    r[::2] = 3.0
    return {"x": x, "versions": [x._version, v._version, r._version]}


@prog
def setitem_bad_shape_raises(t):
    x = t.zeros(3, 4)

    def f():
        x[0] = t.ones(3)

    return {"err": catch(f), "version": x._version}


@prog
def version_shared_through_views(t):
    x = t.zeros(3, 4)
    v = x[1]
    w = x.t()
    v.add_(1)
    a = [x._version, v._version, w._version]
    w.mul_(2)
    b = [x._version, v._version, w._version]
    x.zero_()
    c = [x._version, v._version, w._version]
    u = x.view(12)
    return {"a": a, "b": b, "c": c, "new_view_version": u._version}


@prog
def version_bumps_under_no_grad(t):
    x = t.zeros(3)
    with t.no_grad():
        x.add_(1)
        x[0] = 2.0
    return {"version": x._version, "x": x}


@prog
def version_every_inplace_op_bumps_once(t):
    x = t.tensor(pos(4, seed=9))
    y = t.tensor(pos(4, seed=10))
    ops = [
        lambda: x.add_(1),
        lambda: x.sub_(y),
        lambda: x.mul_(2),
        lambda: x.div_(y),
        lambda: x.pow_(1),
        lambda: x.neg_(),
        lambda: x.abs_(),
        lambda: x.exp_(),
        lambda: x.log_(),
        lambda: x.sqrt_(),
        lambda: x.relu_(),
        lambda: x.sigmoid_(),
        lambda: x.tanh_(),
        lambda: x.clamp_(0, 1),
        lambda: x.clamp_min_(0.1),
        lambda: x.clamp_max_(0.9),
        lambda: x.fill_(0.5),
        lambda: x.zero_(),
        lambda: x.copy_(y),
    ]
    versions = []
    for op in ops:
        op()
        versions.append(x._version)
    return {"versions": versions, "x": x}


@prog
def version_out_of_place_does_not_bump(t):
    x = t.tensor(pos(3))
    _ = [x + 1, x.exp(), x.view(3), x.t(), x.clone(), x.sum(), x[0], x.detach()]
    return {"version": x._version}


@prog
def inplace_broadcast_output_shape_raises(t):
    x = t.zeros(3)
    return {"err": catch(lambda: x.add_(t.ones(2, 3))), "x": x, "version": x._version}


@prog
def inplace_broadcast_mul_raises(t):
    x = t.zeros(1, 3)
    return {"err": catch(lambda: x.mul_(t.ones(2, 1)))}


@prog
def inplace_broadcast_other_is_fine(t):
    x = t.zeros(2, 3)
    x.add_(t.tensor([1.0, 2.0, 3.0]))
    x.mul_(t.tensor([[2.0], [3.0]]))
    return {"x": x}


@prog
def inplace_on_expanded_raises(t):
    x = t.zeros(3).expand(2, 3)
    return {"err": catch(lambda: x.add_(1)), "err_mul": catch(lambda: x.mul_(2))}


@prog
def inplace_on_expanded_zero_and_fill(t):
    base = t.zeros(3)
    x = base.expand(2, 3)
    return {
        "fill": catch(lambda: x.fill_(1.0)),
        "zero": catch(lambda: x.zero_()),
        "copy": catch(lambda: x.copy_(t.ones(2, 3))),
        "base": base,
    }


@prog
def inplace_partial_overlap_raises(t):
    c = t.arange(5.0)
    return {"err": catch(lambda: c[1:].add_(c[:-1])), "c": c}


@prog
def inplace_partial_overlap_copy_raises(t):
    c = t.arange(5.0)
    return {"err": catch(lambda: c[1:].copy_(c[:-1])), "c": c}


@prog
def inplace_check_order_shape_before_overlap(t):
    # found by the layout fuzzer: the broadcast-shape check comes before the overlap check
    c = t.arange(16.0).view(4, 4)
    v = c[:, :1]
    return {"add_t": catch(lambda: v.add_(v.t())), "c": c, "version": c._version}


@prog
def inplace_check_order_row_and_its_transpose(t):
    # found by the layout fuzzer (layout1165, layout270)
    r = t.arange(6.0).view(1, 6)
    c = t.arange(3.0).view(3, 1)
    return {
        "row": catch(lambda: r.add_(r.t())),
        "col": catch(lambda: c.add_(c.t())),
        "versions": [r._version, c._version],
    }


@prog
def inplace_broadcast_error_names_dims_from_the_right(t):
    # found by the layout fuzzer (layout690)
    x = t.zeros(4, 2)
    y = t.arange(8.0).view(4, 2)
    return {
        "add_": catch(lambda: x.add_(t.zeros(2, 4))),
        "mul_": catch(lambda: x.mul_(t.zeros(3, 4, 2))),
        "self_t": catch(lambda: y.add_(y.t())),
        "copy_": catch(lambda: x.copy_(t.zeros(2, 4))),
        "out_of_place": catch(lambda: x + t.zeros(2, 4)),
    }


@prog
def copy_from_itself_through_zero_strides(t):
    # found by the layout fuzzer: copy_ whose source is exactly the destination
    x = t.arange(2.0)
    v = x[:1].view(1, 1).expand(2, 2)
    r = catch(lambda: v[1:].copy_(v[:-1]) is not None)
    return {
        "copy": r,
        "add": catch(lambda: v[1:].add_(v[:-1])),
        "x": x,
        "version": x._version,
        "same_copy": catch(lambda: v.copy_(v) is v),
    }


@prog
def empty_views_past_the_end(t):
    # found by the layout fuzzer: a (0, 1) view whose offset lies past the storage
    x = t.arange(4.0)
    v = x[3::3].reshape(1, 1)
    e = v[1:]
    return {
        "e": meta(e),
        "add": catch(lambda: e.add_(v[:-1]) is e),
        "copy": catch(lambda: e.copy_(v[:-1]) is e),
        "x": x,
        "version": x._version,
        "e_vals": e,
    }


@prog
def inplace_full_overlap_works(t):
    x = t.tensor([1.0, 2.0, 3.0])
    r = x.add_(x)
    x.mul_(x)
    return {"x": x, "same": r is x, "version": x._version}


@prog
def inplace_transposed_self_overlap_add(t):
    x = t.arange(4.0).view(2, 2)
    return {"err": catch(lambda: x.add_(x.t())), "x": x}


# ======================================================================================


@pytest.mark.parametrize("program", prog.params())
def test_elementwise_parity(program, torch_mod, core):
    check_parity(program, torch_mod, core)
