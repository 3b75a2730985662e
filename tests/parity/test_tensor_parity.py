"""Tensor parity: creation, dtypes, metadata, views, element-wise ops, reductions, linear algebra.

Each program below is ordinary PyTorch code written against ``t``; the harness runs it once with
``t = torch`` and once with ``t = inplace_tutorial`` and compares every observation.
"""

import numpy as np
import pytest

from .harness import Registry, arr, catch, check_parity, ints, meta, pos, ptr_delta, same_storage

pytestmark = pytest.mark.parity

prog = Registry()


# ======================================================================================
# dtype promotion


@prog
def promo_int_tensor_plus_python_float(t):
    a = t.tensor([1, 2, 3])
    r = a + 1.5
    return {"r": r, "dtype": str(r.dtype), "a_dtype": str(a.dtype)}


@prog
def promo_int_plus_int(t):
    a = t.tensor([1, 2, 3])
    b = t.tensor([10, 20, 30])
    return {
        "scalar": a + 2,
        "tensor": a + b,
        "mul": a * b,
        "sub": a - 5,
        "dtype": str((a + b).dtype),
    }


@prog
def promo_bool(t):
    b = t.tensor([True, False, True])
    c = t.tensor([True, True, False])
    i = t.tensor([1, 2, 3])
    return {
        "b_dtype": str(b.dtype),
        "bool_plus_bool": b + c,
        "bool_plus_int": b + 1,
        "bool_plus_float": b + 1.5,
        "bool_times_int_tensor": b * i,
    }


@prog
def promo_float64_mixing(t):
    f = t.tensor(arr(3, seed=1))
    d = t.tensor(arr(3, seed=2, dtype=np.float64))
    i = t.tensor([1, 2, 3])
    return {
        "f32_plus_f64": (f + d).dtype,
        "f64_plus_python_float": (d + 0.5).dtype,
        "int_plus_f64": (i + d).dtype,
        "values": f + d,
        "f32_times_f64": f * d,
    }


@prog
def promo_zero_dim_does_not_win_within_category(t):
    f = t.tensor(arr(3, seed=1))
    d0 = t.tensor(2.0, dtype=t.float64)
    i = t.tensor([1, 2, 3])
    return {
        "f32_vec_plus_f64_scalar_tensor": f + d0,
        "int_vec_plus_f64_scalar_tensor": i + d0,
        "int_vec_plus_f32_scalar_tensor": i + t.tensor(2.5),
        "f32_0dim_plus_int_0dim": t.tensor(1.5) + t.tensor(2),
    }


@prog
def promo_true_division_of_ints(t):
    a = t.tensor([1, 2, 3])
    b = t.tensor([2, 2, 2])
    return {"div": a / b, "div_scalar": a / 2, "rdiv": 1 / a, "method": a.div(b)}


@prog
def promo_unary_on_ints(t):
    a = t.tensor([1, 4, 9])
    return {
        "sqrt": a.sqrt(),
        "exp": a.exp(),
        "log": a.log(),
        "neg": -a,
        "abs": t.tensor([-1, 2, -3]).abs(),
        "pow_int": a.pow(2),
        "pow_float": a.pow(0.5),
        "sigmoid": a.sigmoid(),
        "relu": t.tensor([-1, 2]).relu(),
    }


@prog
def promo_inplace_float_into_long_add_(t):
    a = t.tensor([1, 2, 3])
    return {"err": catch(lambda: a.add_(1.5)), "a": a, "version": a._version}


@prog
def promo_inplace_float_into_long_iadd(t):
    a = t.tensor([1, 2, 3])

    def f():
        nonlocal a
        a += 1.5
        return a

    return {"err": catch(f), "a": a}


@prog
def promo_inplace_float_tensor_into_long_mul_(t):
    a = t.tensor([1, 2, 3])
    return {"err": catch(lambda: a.mul_(t.tensor([1.5, 1.5, 1.5]))), "a": a}


@prog
def promo_inplace_float_into_long_div_(t):
    a = t.tensor([2, 4, 6])
    return {"err": catch(lambda: a.div_(2)), "a": a}


@prog
def promo_inplace_long_into_float_is_fine(t):
    f = t.tensor([1.0, 2.0, 3.0])
    r = f.add_(t.tensor([1, 1, 1]))
    return {"f": f, "same_object": r is f, "dtype": f.dtype, "version": f._version}


@prog
def promo_inplace_float64_into_float32_keeps_float32(t):
    f = t.tensor([1.0, 2.0, 3.0])
    f.mul_(t.tensor([0.5, 0.5, 0.5], dtype=t.float64))
    return {"f": f, "dtype": f.dtype}


@prog
def promo_sum_and_mean_of_ints(t):
    a = t.tensor([[1, 2], [3, 4]])
    b = t.tensor([True, False, True])
    return {
        "sum": a.sum(),
        "sum_dim": a.sum(0),
        "sum_bool": b.sum(),
        "mean_int": catch(lambda: a.mean()),
    }


# ======================================================================================
# creation


@prog
def create_from_nested_lists(t):
    f = t.tensor([[1.0, 2.0], [3.0, 4.0]])
    i = t.tensor([[1, 2], [3, 4]])
    b = t.tensor([[True], [False]])
    m = t.tensor([1, 2.5])
    return {
        "f": f,
        "i": i,
        "b": b,
        "mixed": m,
        "dtypes": [str(x.dtype) for x in (f, i, b, m)],
        "shape": tuple(f.shape),
        "stride": f.stride(),
    }


@prog
def create_from_scalars(t):
    f = t.tensor(3.5)
    i = t.tensor(3)
    b = t.tensor(True)
    return {
        "f": f,
        "i": i,
        "b": b,
        "dims": [f.dim(), i.dim(), b.dim()],
        "shape": tuple(f.shape),
        "stride": f.stride(),
        "numel": f.numel(),
    }


@prog
def create_with_dtype_kwarg(t):
    return {
        "f_from_ints": t.tensor([1, 2], dtype=t.float32),
        "d": t.tensor([1.5, 2.5], dtype=t.float64),
        "i_from_floats": t.tensor([1.7, -2.7], dtype=t.int64),
        "b": t.tensor([0, 2], dtype=t.bool),
    }


@prog
def create_from_numpy_copies(t):
    n = np.arange(6, dtype=np.float32).reshape(2, 3)
    x = t.tensor(n)
    n[0, 0] = 100.0
    return {"x": x, "dtype": x.dtype, "stride": x.stride()}


@prog
def create_from_numpy_dtypes(t):
    return {
        "f64": t.tensor(np.arange(3, dtype=np.float64)).dtype,
        "f32": t.tensor(np.arange(3, dtype=np.float32)).dtype,
        "i64": t.tensor(np.arange(3, dtype=np.int64)).dtype,
        "bool": t.tensor(np.array([True, False])).dtype,
        "values": t.tensor(np.arange(3, dtype=np.int64)),
    }


@prog
def create_from_noncontiguous_numpy(t):
    n = np.arange(12, dtype=np.float32).reshape(3, 4).T
    x = t.tensor(n)
    return {"x": x, "meta": meta(x)}


@prog
def create_zeros_ones_full(t):
    return {
        "zeros_varargs": t.zeros(2, 3),
        "zeros_tuple": t.zeros((2, 3)),
        "ones": t.ones(4),
        "ones_int": t.ones(2, dtype=t.int64),
        "zeros_bool": t.zeros(2, dtype=t.bool),
        "full_float": t.full((2, 2), 1.5),
        "full_int_fill": t.full((2,), 7),
        "full_bool_fill": t.full((2,), True),
        "full_dtype": t.full((3,), 2, dtype=t.float64),
        "zeros_stride": t.zeros(2, 3, 4).stride(),
        "zeros_0dim": t.zeros(()),
    }


@prog
def create_empty_shape_and_dtype(t):
    e = t.empty(2, 3)
    e2 = t.empty((4,), dtype=t.int64)
    return {
        "shape": tuple(e.shape),
        "dtype": e.dtype,
        "stride": e.stride(),
        "contiguous": e.is_contiguous(),
        "shape2": tuple(e2.shape),
        "dtype2": e2.dtype,
        "requires_grad": e.requires_grad,
    }


@prog
def create_like_functions(t):
    x = t.tensor(arr(2, 3))
    i = t.tensor([[1, 2, 3]])
    return {
        "zeros_like": t.zeros_like(x),
        "ones_like": t.ones_like(i),
        "ones_like_dtype": t.ones_like(i, dtype=t.float32),
        "empty_like_shape": tuple(t.empty_like(x).shape),
        "empty_like_dtype": t.empty_like(i).dtype,
        "zeros_like_new_storage": same_storage(t.zeros_like(x), x),
    }


@prog
def create_like_preserves_strides_of_transposed(t):
    x = t.tensor(arr(2, 3)).t()
    z = t.zeros_like(x)
    o = t.ones_like(x)
    e = t.empty_like(x)
    return {"zeros_like": meta(z), "ones_like": meta(o), "empty_like": meta(e)}


@prog
def create_arange_ints(t):
    return {
        "a5": t.arange(5),
        "a2_10_3": t.arange(2, 10, 3),
        "neg": t.arange(-3, 3),
        "down": t.arange(5, 0, -2),
        "empty": t.arange(0),
        "dtype": t.arange(5).dtype,
    }


@prog
def create_arange_floats(t):
    return {
        "step_quarter": t.arange(0, 1, 0.25),
        "float_end": t.arange(5.0),
        "float_start": t.arange(1.5, 4),
        "dtype_kw": t.arange(4, dtype=t.float32),
        "dtype": t.arange(0, 1, 0.25).dtype,
    }


# ======================================================================================
# metadata


@prog
def meta_shape_size_dim(t):
    x = t.tensor(arr(2, 3, 4))
    return {
        "shape": tuple(x.shape),
        "shape_is_size": tuple(x.size()) == tuple(x.shape),
        "size0": x.size(0),
        "size_neg": x.size(-1),
        "shape1": x.shape[1],
        "dim": x.dim(),
        "ndim": x.ndim,
        "numel": x.numel(),
        "len": len(x),
    }


@prog
def meta_size_out_of_range(t):
    x = t.tensor(arr(2, 3))
    return {"err": catch(lambda: x.size(2))}


@prog
def meta_element_size(t):
    return {
        "f32": t.zeros(1).element_size(),
        "f64": t.zeros(1, dtype=t.float64).element_size(),
        "i64": t.zeros(1, dtype=t.int64).element_size(),
        "bool": t.zeros(1, dtype=t.bool).element_size(),
        "dtype_str": [str(d) for d in (t.float32, t.float64, t.int64, t.bool)],
        "itemsize": [d.itemsize for d in (t.float32, t.float64, t.int64, t.bool)],
    }


@prog
def meta_dtype_objects(t):
    return {
        "repr": [repr(d) for d in (t.float32, t.float64, t.int64, t.bool)],
        "aliases": [t.float is t.float32, t.double is t.float64, t.long is t.int64],
        "is_floating_point": [d.is_floating_point for d in (t.float32, t.float64, t.int64, t.bool)],
        "tensor_is_floating_point": [
            t.zeros(1).is_floating_point(),
            t.zeros(1, dtype=t.int64).is_floating_point(),
        ],
        "eq": t.tensor([1.0]).dtype == t.float32,
    }


@prog
def meta_strides_offsets(t):
    x = t.arange(24.0).view(2, 3, 4)
    return {
        "x": meta(x),
        "x_1": meta(x[1]),
        "x_1_2": meta(x[1, 2]),
        "x_col": meta(x[:, :, 1]),
        "x_step": meta(x[:, ::2, 1:]),
    }


@prog
def meta_storage_nbytes(t):
    x = t.arange(12.0).view(3, 4)
    v = x[1:, 2:]
    c = v.clone()
    d = t.zeros(5, dtype=t.float64)
    return {
        "x": x.untyped_storage().nbytes(),
        "view": v.untyped_storage().nbytes(),
        "clone": c.untyped_storage().nbytes(),
        "f64": d.untyped_storage().nbytes(),
        "big": t.zeros(1000, 1000).untyped_storage().nbytes(),
    }


@prog
def meta_untyped_storage_api(t):
    x = t.tensor([1.0, 2.0, 3.0])
    d = t.zeros(2, 3, dtype=t.float64)
    st = x.untyped_storage()
    return {
        "len": len(st),
        "size": st.size(),
        "nbytes": st.nbytes(),
        "type": type(st).__name__,
        "same_object": x.untyped_storage() is x.untyped_storage(),
        "view_nbytes": x[1:].untyped_storage().nbytes(),
        "f64_size": d.untyped_storage().size(),
        "f64_t_nbytes": d.t().untyped_storage().nbytes(),
    }


@prog
def meta_data_ptr_of_slices(t):
    x = t.arange(12.0).view(3, 4)
    d = t.arange(12, dtype=t.float64).view(3, 4)
    return {
        "row1": ptr_delta(x[1], x),
        "row2_col3": ptr_delta(x[2, 3], x),
        "col2": ptr_delta(x[:, 2], x),
        "tail": ptr_delta(x[1:, 1:], x),
        "f64_row1": ptr_delta(d[1], d),
        "rule": all(
            v.data_ptr() == x.data_ptr() + v.storage_offset() * x.element_size()
            for v in (x[1], x[2, 3], x[:, 2], x[1:, 1:], x.t()[3])
        ),
    }


@prog
def meta_storage_data_ptr_shared_by_views(t):
    x = t.arange(12.0).view(3, 4)
    views = [
        x[1],
        x.t(),
        x[:, 1:3],
        x.view(12),
        x.transpose(0, 1)[2],
        x.unsqueeze(0),
        x.expand(2, 3, 4),
    ]
    return {
        "same_storage": [same_storage(v, x) for v in views],
        "same_storage_ptr_as_data_ptr": x.untyped_storage().data_ptr() == x.data_ptr(),
        "clone_differs": same_storage(x.clone(), x),
        "add_differs": same_storage(x + 0, x),
    }


@prog
def meta_version_counter_basics(t):
    x = t.zeros(3)
    v0 = x._version
    x.add_(1)
    v1 = x._version
    x.mul_(2).add_(1)
    v3 = x._version
    y = x + 1
    return {"v": [v0, v1, v3], "y_version": y._version, "x_after_out_of_place": x._version}


@prog
def meta_base_relations(t):
    x = t.arange(12.0)
    v = x.view(3, 4)
    w = v[1]
    tt = v.t()
    c = v.clone()
    return {
        "x_base_none": x._base is None,
        "v_base_is_x": v._base is x,
        "w_base_is_x": w._base is x,
        "t_base_is_x": tt._base is x,
        "clone_base_none": c._base is None,
        "detach_base_none": x.detach()._base is None,
        "is_view": [x._is_view(), v._is_view(), c._is_view()],
    }


@prog
def meta_item(t):
    f = t.tensor([2.5])
    i = t.tensor(7)
    b = t.tensor([True])
    return {
        "f": f.item(),
        "f_type": type(f.item()).__name__,
        "i": i.item(),
        "i_type": type(i.item()).__name__,
        "b": b.item(),
        "b_type": type(b.item()).__name__,
        "sum_item": t.tensor([1.0, 2.0]).sum().item(),
    }


@prog
def meta_item_many_elements_raises(t):
    return {"err": catch(lambda: t.tensor([1.0, 2.0]).item())}


@prog
def meta_tolist(t):
    x = t.arange(6).view(2, 3)
    f = t.tensor([[0.5, 1.5]])
    return {
        "ints": x.tolist(),
        "floats": f.tolist(),
        "transposed": x.t().tolist(),
        "scalar": t.tensor(3.0).tolist(),
        "bools": t.tensor([True, False]).tolist(),
    }


@prog
def meta_clone_new_storage_contiguous(t):
    x = t.arange(12.0).view(3, 4)
    c = x.clone()
    c[0, 0] = 100.0
    return {
        "c": c,
        "x": x,
        "meta": meta(c),
        "same_storage": same_storage(c, x),
        "version_x": x._version,
        "version_c": c._version,
    }


@prog
def meta_clone_of_transposed_preserves_strides(t):
    x = t.arange(12.0).view(3, 4)
    c = x.t().clone()
    s = x[:, ::2].clone()
    return {"t_clone": meta(c), "t_values": c, "step_clone": meta(s), "step_values": s}


@prog
def meta_contiguous(t):
    x = t.arange(12.0).view(3, 4)
    xt = x.t()
    c = xt.contiguous()
    return {
        "self_when_contiguous": x.contiguous() is x,
        "new_when_not": c is xt,
        "meta": meta(c),
        "values": c,
        "same_storage": same_storage(c, x),
        "c_base_none": c._base is None,
    }


# ======================================================================================
# views


@prog
def view_with_minus_one(t):
    x = t.arange(12.0)
    a = x.view(3, -1)
    b = x.view(-1, 2, 3)
    return {"a": meta(a), "b": meta(b), "ptr": a.data_ptr() == x.data_ptr(), "b_vals": b}


@prog
def view_tuple_shape(t):
    x = t.arange(6.0)
    return {"v": x.view((2, 3)), "meta": meta(x.view((2, 3)))}


@prog
def view_of_transposed_raises(t):
    x = t.arange(12.0).view(3, 4).t()
    return {"err": catch(lambda: x.view(12))}


@prog
def view_of_transposed_compatible_split(t):
    x = t.arange(24.0).view(4, 6).t()  # (6, 4) strides (1, 6)
    v = x.view(2, 3, 4)
    return {"meta": meta(v), "v": v}


@prog
def view_invalid_size_raises(t):
    x = t.arange(6.0)
    return {"err": catch(lambda: x.view(5)), "err2": catch(lambda: x.view(-1, -1))}


@prog
def reshape_views_when_possible(t):
    x = t.arange(12.0)
    r = x.reshape(3, 4)
    return {"meta": meta(r), "same_ptr": r.data_ptr() == x.data_ptr(), "base_is_x": r._base is x}


@prog
def reshape_copies_when_needed(t):
    x = t.arange(12.0).view(3, 4)
    r = x.t().reshape(12)
    return {"r": r, "meta": meta(r), "same_storage": same_storage(r, x)}


@prog
def transpose_and_t(t):
    x = t.arange(24.0).view(2, 3, 4)
    m = t.arange(6.0).view(2, 3)
    return {
        "t": meta(m.t()),
        "t_vals": m.t(),
        "T": meta(m.T),
        "tr01": meta(x.transpose(0, 1)),
        "tr_neg": meta(x.transpose(-1, -2)),
        "tr_neg_vals": x.transpose(-1, -2),
        "module_t": meta(t.t(m)),
        "module_transpose": meta(t.transpose(x, 0, 2)),
        "t_1d": meta(t.arange(3.0).t()),
    }


@prog
def t_of_3d_raises(t):
    x = t.zeros(2, 3, 4)
    return {"err": catch(lambda: x.t())}


@prog
def permute_meta(t):
    x = t.arange(24.0).view(2, 3, 4)
    p = x.permute(2, 0, 1)
    q = x.permute((1, 2, 0))
    return {
        "p": meta(p),
        "p_vals": p,
        "q": meta(q),
        "module": meta(t.permute(x, (0, 2, 1))),
        "same_ptr": p.data_ptr() == x.data_ptr(),
    }


@prog
def permute_wrong_length_raises(t):
    x = t.zeros(2, 3)
    return {"err": catch(lambda: x.permute(1, 0, 2))}


@prog
def expand_stride_zero(t):
    x = t.tensor([[1.0], [2.0], [3.0]])
    e = x.expand(3, 4)
    f = x.expand(2, -1, 5)
    g = t.tensor([1.0, 2.0]).expand(3, 2)
    return {
        "e": meta(e),
        "e_vals": e,
        "f": meta(f),
        "g": meta(g),
        "g_vals": g,
        "same_ptr": e.data_ptr() == x.data_ptr(),
        "e_nbytes": e.untyped_storage().nbytes(),
    }


@prog
def expand_bad_size_raises(t):
    x = t.ones(1, 3)
    return {"err": catch(lambda: x.expand(2, 4))}


@prog
def unsqueeze_squeeze(t):
    x = t.arange(6.0).view(2, 3)
    y = t.zeros(1, 3, 1, 2)
    return {
        "u0": meta(x.unsqueeze(0)),
        "u1": meta(x.unsqueeze(1)),
        "u_neg": meta(x.unsqueeze(-1)),
        "sq_all": meta(y.squeeze()),
        "sq_dim0": meta(y.squeeze(0)),
        "sq_dim2": meta(y.squeeze(2)),
        "sq_non1": meta(y.squeeze(1)),
        "sq_t": meta(x.t().unsqueeze(1).squeeze(1)),
    }


@prog
def flatten_variants(t):
    x = t.arange(24.0).view(2, 3, 4)
    f = x.flatten()
    g = x.flatten(1)
    h = x.transpose(0, 1).flatten()
    s = t.tensor(3.0).flatten()
    return {
        "f": meta(f),
        "f_view": f.data_ptr() == x.data_ptr() and f._base is x,
        "g": meta(g),
        "h": meta(h),
        "h_vals": h,
        "h_same_storage": same_storage(h, x),
        "s": meta(s),
        "range": meta(x.flatten(0, 1)),
    }


@prog
def view_and_reshape_of_expanded(t):
    e = t.zeros(3, 1).expand(3, 4)
    r = e.reshape(12)
    return {
        "view_flat": catch(lambda: meta(e.view(12))),
        "view_split": catch(lambda: meta(e.view(3, 2, 2))),
        "reshape": meta(r),
        "reshape_copied": r._base is None,
        "reshape_same_shape": meta(e.reshape(3, 4)),
        "reshape_same_shape_is_view": e.reshape(3, 4)._base is not None,
    }


@prog
def unsqueeze_strides_of_views(t):
    x = t.arange(6.0).view(2, 3)
    return {
        "t_u1": meta(x.t().unsqueeze(1)),
        "u2": meta(x.unsqueeze(2)),
        "step_u0": meta(x[:, ::2].unsqueeze(0)),
        "sel_u": meta(x[:, 1].unsqueeze(-1)),
        "u_u": meta(x.unsqueeze(0).unsqueeze(0)),
    }


@prog
def numpy_shares_memory(t):
    x = t.arange(6.0).view(2, 3)
    n = x.numpy()
    n[0, 0] = 50.0
    v = x.t().numpy()
    return {
        "x": x,
        "n_shape": n.shape,
        "v_strides": v.strides,
        "version": x._version,
        "from_view_shares": bool(np.shares_memory(v, n)),
    }


@prog
def create_empty_list(t):
    e = t.tensor([])
    return {"dtype": e.dtype, "shape": tuple(e.shape), "numel": e.numel(), "sum": e.sum()}


@prog
def select_and_narrow(t):
    x = t.arange(12.0).view(3, 4)
    return {
        "sel0": meta(x.select(0, 1)),
        "sel0_vals": x.select(0, 1),
        "sel1_neg": meta(x.select(1, -1)),
        "sel1_vals": x.select(1, -1),
        "narrow": meta(x.narrow(1, 1, 2)),
        "narrow_vals": x.narrow(1, 1, 2),
        "narrow0": meta(x.narrow(0, 2, 1)),
        "module_select": t.select(x, 0, 2),
        "module_narrow": t.narrow(x, 0, 0, 2),
    }


@prog
def select_out_of_range_raises(t):
    x = t.zeros(3, 4)
    return {"err": catch(lambda: x.select(0, 5))}


@prog
def indexing_int_and_negative(t):
    x = t.arange(12.0).view(3, 4)
    return {
        "x1": meta(x[1]),
        "x1_vals": x[1],
        "x_neg": x[-1],
        "x_neg_meta": meta(x[-1]),
        "x1_neg1": meta(x[1, -1]),
        "x1_neg1_val": x[1, -1],
        "x_neg2_neg3": x[-2][-3],
    }


@prog
def indexing_slices_and_steps(t):
    x = t.arange(24.0).view(4, 6)
    return {
        "rows": meta(x[1:3]),
        "rows_vals": x[1:3],
        "cols": meta(x[:, 2:5]),
        "step": meta(x[::2]),
        "step_vals": x[::2],
        "both": meta(x[1::2, ::3]),
        "both_vals": x[1::2, ::3],
        "neg_slice": meta(x[-2:, :-1]),
        "neg_vals": x[-2:, :-1],
        "col": meta(x[:, 1]),
        "empty": meta(x[2:2]),
        "clamped": meta(x[2:100]),
    }


@prog
def indexing_ellipsis_and_none(t):
    x = t.arange(24.0).view(2, 3, 4)
    return {
        "ell": meta(x[..., 1]),
        "ell_vals": x[..., 1],
        "none": meta(x[None]),
        "none_mid": meta(x[:, None]),
    }


@prog
def indexing_zero_dim_raises(t):
    s = t.tensor(2.0)

    def f():
        s[0] = 1.0

    return {
        "get": catch(lambda: s[0]),
        "set": catch(f),
        "ellipsis": s[...],
        "none": tuple(s[None].shape),
    }


@prog
def indexing_out_of_range_raises(t):
    x = t.zeros(3, 4)
    return {"err": catch(lambda: x[5]), "err_neg": catch(lambda: x[0, -5])}


@prog
def unbind_outputs(t):
    x = t.arange(6.0).view(2, 3)
    a = x.unbind(0)
    b = t.unbind(x, 1)
    return {
        "type": type(a).__name__,
        "a": [meta(v) for v in a],
        "a_vals": list(a),
        "b": [meta(v) for v in b],
        "b_vals": list(b),
        "base": [v._base is x for v in b],
    }


@prog
def split_and_chunk(t):
    x = t.arange(10.0).view(5, 2)
    s = x.split(2)
    s2 = x.split([1, 4])
    c = x.chunk(3)
    c2 = t.chunk(x, 2, dim=1)
    return {
        "split_type": type(s).__name__,
        "split": [meta(v) for v in s],
        "split_vals": list(s),
        "split_sizes": [meta(v) for v in s2],
        "chunk": [meta(v) for v in c],
        "chunk_vals": list(c),
        "chunk_dim1": [meta(v) for v in c2],
        "module_split": [tuple(v.shape) for v in t.split(x, 3)],
    }


@prog
def as_strided_view(t):
    x = t.arange(9.0)
    a = x.as_strided((2, 2), (1, 2), 1)
    b = t.as_strided(x, (3, 3), (3, 1))
    return {
        "a": meta(a),
        "a_vals": a,
        "b": meta(b),
        "b_vals": b,
        "ptr": ptr_delta(a, x),
        "base": a._base is x,
    }


@prog
def metadata_inplace_transpose_(t):
    x = t.arange(6.0).view(2, 3)
    p = x.data_ptr()
    r = x.transpose_(0, 1)
    return {
        "same": r is x,
        "meta": meta(x),
        "vals": x,
        "ptr_same": x.data_ptr() == p,
        "version": x._version,
    }


@prog
def metadata_inplace_t_(t):
    x = t.arange(6.0).view(2, 3)
    p = x.data_ptr()
    r = x.t_()
    return {
        "same": r is x,
        "meta": meta(x),
        "vals": x,
        "ptr_same": x.data_ptr() == p,
        "version": x._version,
    }


@prog
def metadata_inplace_unsqueeze_squeeze_(t):
    x = t.arange(6.0).view(2, 3)
    p = x.data_ptr()
    r = x.unsqueeze_(1)
    m1 = meta(x)
    r2 = x.squeeze_(1)
    m2 = meta(x)
    x.unsqueeze_(0)
    x.squeeze_()
    return {
        "same": [r is x, r2 is x],
        "m1": m1,
        "m2": m2,
        "m3": meta(x),
        "ptr_same": x.data_ptr() == p,
        "version": x._version,
    }


@prog
def metadata_inplace_as_strided_(t):
    x = t.arange(9.0)
    p = x.data_ptr()
    r = x.as_strided_((2, 2), (3, 1), 1)
    return {
        "same": r is x,
        "meta": meta(x),
        "vals": x,
        "ptr_delta": x.data_ptr() - p,
        "storage_same": x.untyped_storage().data_ptr() == p,
        "version": x._version,
    }


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
# reductions


@prog
def red_sum(t):
    x = t.tensor(arr(2, 3, 4, seed=11))
    return {
        "all": x.sum(),
        "d0": x.sum(0),
        "d_neg": x.sum(-1),
        "keep": x.sum(1, keepdim=True),
        "dims": x.sum((0, 2)),
        "dim_kw": x.sum(dim=1),
        "module": t.sum(x, 0),
        "dtype": x.sum().dtype,
    }


@prog
def red_mean(t):
    x = t.tensor(arr(2, 3, 4, seed=11))
    return {
        "all": x.mean(),
        "d0": x.mean(0),
        "keep": x.mean(-1, keepdim=True),
        "dims": x.mean((1, 2)),
        "module": t.mean(x, dim=2),
    }


@prog
def red_var_std(t):
    x = t.tensor(arr(3, 5, seed=12))
    return {
        "var": x.var(),
        "std": x.std(),
        "var_biased": x.var(unbiased=False),
        "std_biased": x.std(unbiased=False),
        "var_corr0": x.var(correction=0),
        "std_corr2": x.std(correction=2),
        "var_dim": x.var(1),
        "var_dim_keep": x.var(0, keepdim=True),
        "std_dim_biased": x.std(1, unbiased=False),
        "std_dim_corr": x.std(dim=0, correction=0),
        "module_var": t.var(x, 1),
        "module_std": t.std(x),
    }


@prog
def red_var_single_element(t):
    return {"var": t.tensor([1.0]).var(), "std_biased": t.tensor([2.0]).std(unbiased=False)}


@prog
def red_amax(t):
    x = t.tensor(arr(3, 4, seed=13))
    return {
        "d1": x.amax(1),
        "d0_keep": x.amax(0, keepdim=True),
        "all_dims": x.amax((0, 1)),
        "module": t.amax(x, dim=-1),
    }


@prog
def red_max_all_and_dim(t):
    x = t.tensor(arr(3, 4, seed=14))
    r = x.max(1)
    v, i = x.max(0, keepdim=True)
    return {
        "all": x.max(),
        "values": r.values,
        "indices": r.indices,
        "r0": r[0],
        "kv": v,
        "ki": i,
        "indices_dtype": r.indices.dtype,
        "module": t.max(x),
        "module_dim": t.max(x, dim=1)[0],
        "binary": t.max(x, t.zeros(3, 4)),
    }


@prog
def red_max_ties_first_index(t):
    x = t.tensor([[1.0, 3.0, 3.0], [2.0, 2.0, 0.0]])
    return {"idx": x.max(1).indices, "argmax": x.argmax(1), "argmax_all": x.argmax()}


@prog
def red_argmax(t):
    x = t.tensor(arr(3, 4, seed=15))
    return {
        "all": x.argmax(),
        "d0": x.argmax(0),
        "d1_keep": x.argmax(1, keepdim=True),
        "module": t.argmax(x, dim=1),
        "dtype": x.argmax().dtype,
    }


@prog
def red_softmax_log_softmax(t):
    x = t.tensor(arr(2, 5, seed=16))
    return {
        "sm1": x.softmax(1),
        "sm0": x.softmax(dim=0),
        "lsm": x.log_softmax(-1),
        "m_sm": t.softmax(x, dim=1),
        "m_lsm": t.log_softmax(x, 0),
        "big": t.tensor([1000.0, 1001.0]).softmax(0),
        "big_lsm": t.tensor([1000.0, 1001.0]).log_softmax(0),
    }


@prog
def red_dim_out_of_range_raises(t):
    x = t.zeros(2, 3)
    return {"sum": catch(lambda: x.sum(2)), "mean": catch(lambda: x.mean(-3))}


# ======================================================================================
# linear algebra


@prog
def la_matmul_shapes(t):
    v = t.tensor(arr(3, seed=20))
    w = t.tensor(arr(3, seed=21))
    m = t.tensor(arr(2, 3, seed=22))
    n = t.tensor(arr(3, 4, seed=23))
    b = t.tensor(arr(5, 2, 3, seed=24))
    c = t.tensor(arr(5, 3, 4, seed=25))
    return {
        "vv": v @ w,
        "mv": m @ v,
        "vm": v @ n,
        "mm": m @ n,
        "bb": b @ c,
        "b2": b @ n,
        "method": m.matmul(n),
        "module": t.matmul(b, c),
        "vv_dim": (v @ w).dim(),
        "vb": v @ c,
    }


@prog
def la_matmul_shape_error(t):
    m = t.zeros(2, 3)
    return {
        "err": catch(lambda: m @ t.zeros(4, 2)),
        "err_vec": catch(lambda: t.zeros(3) @ t.zeros(4)),
    }


@prog
def la_mm_bmm(t):
    m = t.tensor(arr(2, 3, seed=26))
    n = t.tensor(arr(3, 4, seed=27))
    b = t.tensor(arr(4, 2, 3, seed=28))
    c = t.tensor(arr(4, 3, 5, seed=29))
    return {
        "mm": m.mm(n),
        "t_mm": t.mm(m, n),
        "bmm": b.bmm(c),
        "t_bmm": t.bmm(b, c),
        "mm_t": m.mm(m.t()),
        "bmm_shape": tuple(t.bmm(b, c).shape),
    }


@prog
def la_mm_shape_errors(t):
    return {
        "mm": catch(lambda: t.mm(t.zeros(2, 3), t.zeros(4, 5))),
        "mm_3d": catch(lambda: t.mm(t.zeros(2, 3, 4), t.zeros(4, 5))),
        "bmm": catch(lambda: t.bmm(t.zeros(2, 3, 4), t.zeros(2, 5, 6))),
        "bmm_batch": catch(lambda: t.bmm(t.zeros(2, 3, 4), t.zeros(3, 4, 5))),
        "bmm_2d": catch(lambda: t.bmm(t.zeros(3, 4), t.zeros(4, 5))),
    }


@prog
def la_addmm(t):
    s = t.tensor(arr(2, 4, seed=30))
    m = t.tensor(arr(2, 3, seed=31))
    n = t.tensor(arr(3, 4, seed=32))
    bias = t.tensor(arr(4, seed=33))
    return {
        "plain": t.addmm(s, m, n),
        "beta_alpha": s.addmm(m, n, beta=0.5, alpha=2.0),
        "bcast_bias": t.addmm(bias, m, n),
        "beta0": t.addmm(s, m, n, beta=0),
    }


@prog
def la_addmm_inplace(t):
    s = t.tensor(arr(2, 4, seed=30))
    m = t.tensor(arr(2, 3, seed=31))
    n = t.tensor(arr(3, 4, seed=32))
    p = s.data_ptr()
    r = s.addmm_(m, n, beta=2.0, alpha=0.5)
    return {"s": s, "same": r is s, "ptr": s.data_ptr() == p, "version": s._version}


@prog
def la_addbmm(t):
    s = t.tensor(arr(3, 5, seed=34))
    b1 = t.tensor(arr(4, 3, 2, seed=35))
    b2 = t.tensor(arr(4, 2, 5, seed=36))
    return {
        "plain": t.addbmm(s, b1, b2),
        "method": s.addbmm(b1, b2),
        "beta_alpha": s.addbmm(b1, b2, beta=0.5, alpha=-1),
        "bcast_self": t.addbmm(t.tensor(arr(5, seed=37)), b1, b2),
        "shape": tuple(t.addbmm(s, b1, b2).shape),
    }


@prog
def la_addbmm_inplace(t):
    s = t.tensor(arr(3, 5, seed=34))
    b1 = t.tensor(arr(4, 3, 2, seed=35))
    b2 = t.tensor(arr(4, 2, 5, seed=36))
    p = s.data_ptr()
    r = s.addbmm_(b1, b2, beta=0.5, alpha=2)
    return {"s": s, "same": r is s, "ptr": s.data_ptr() == p, "version": s._version}


@prog
def la_addbmm_seed_article_example(t):
    out = t.zeros(10, 20, 40)
    batch1 = t.tensor(arr(10, 20, 30, seed=38))
    batch2 = t.tensor(arr(10, 30, 40, seed=39))
    return {
        "inplace": catch(lambda: out.addbmm_(batch1, batch2)),
        "version": out._version,
        "out_of_place": catch(lambda: t.addbmm(out, batch1, batch2)),
    }


@prog
def la_addbmm_correct_shape_for_seed_example(t):
    out = t.zeros(20, 40)
    batch1 = t.tensor(ints(10, 20, 30, seed=38))
    batch2 = t.tensor(ints(10, 30, 40, seed=39))
    out.addbmm_(batch1, batch2)
    return {"out": out, "bmm_then_sum": t.bmm(batch1, batch2).sum(0)}


@prog
def la_addbmm_shape_errors(t):
    return {
        "batch_mismatch": catch(
            lambda: t.addbmm(t.zeros(3, 5), t.zeros(4, 3, 2), t.zeros(5, 2, 5))
        ),
        "inner_mismatch": catch(
            lambda: t.addbmm(t.zeros(3, 5), t.zeros(4, 3, 2), t.zeros(4, 3, 5))
        ),
        "not_3d": catch(lambda: t.addbmm(t.zeros(3, 5), t.zeros(3, 2), t.zeros(2, 5))),
    }


@prog
def la_baddbmm(t):
    s = t.tensor(arr(4, 3, 5, seed=40))
    b1 = t.tensor(arr(4, 3, 2, seed=41))
    b2 = t.tensor(arr(4, 2, 5, seed=42))
    return {
        "plain": t.baddbmm(s, b1, b2),
        "method": s.baddbmm(b1, b2, beta=2, alpha=0.5),
        "bcast_self": t.baddbmm(t.tensor(arr(3, 5, seed=43)), b1, b2),
    }


@prog
def la_baddbmm_inplace(t):
    s = t.tensor(arr(4, 3, 5, seed=40))
    b1 = t.tensor(arr(4, 3, 2, seed=41))
    b2 = t.tensor(arr(4, 2, 5, seed=42))
    r = s.baddbmm_(b1, b2, beta=0.5, alpha=-2)
    return {"s": s, "same": r is s, "version": s._version}


@prog
def la_baddbmm_seed_article_alternative_shape(t):
    out = t.zeros(10, 20, 40)
    b1 = t.tensor(ints(10, 20, 30, seed=38))
    b2 = t.tensor(ints(10, 30, 40, seed=39))
    out.baddbmm_(b1, b2)
    return {"shape": tuple(out.shape), "out": out}


@prog
def la_einsum(t):
    b1 = t.tensor(arr(4, 3, 2, seed=44))
    b2 = t.tensor(arr(4, 2, 5, seed=45))
    m = t.tensor(arr(3, 2, seed=46))
    n = t.tensor(arr(2, 5, seed=47))
    return {
        "addbmm_like": t.einsum("bij,bjk->ik", b1, b2),
        "bmm_like": t.einsum("bij,bjk->bik", b1, b2),
        "mm": t.einsum("ij,jk->ik", m, n),
        "list_operands": t.einsum("ij,jk->ik", [m, n]),
        "trace_like_sum": t.einsum("ij->", m),
        "transpose": t.einsum("ij->ji", m),
    }


@prog
def la_einsum_seed_article_subscripts_fail(t):
    b1 = t.zeros(10, 20, 30)
    b2 = t.zeros(10, 30, 40)
    r = catch(lambda: t.einsum("ijk,jkl->ikl", b1, b2))
    return {"raised_type": type(r).__name__ == "Raised" and r.type}


@prog
def la_no_type_promotion_in_matmul_family(t):
    # found by the fuzzer: unlike element-wise ops, matrix products do not promote dtypes
    d = t.ones(2, 3, dtype=t.float64)
    f = t.ones(3, 4)
    return {
        "mm": catch(lambda: d.mm(f)),
        "matmul": catch(lambda: d @ f),
        "matmul_rev": catch(lambda: f.t() @ d.t()),
        "bmm": catch(lambda: t.bmm(d.unsqueeze(0), f.unsqueeze(0))),
        "addmm_mats": catch(lambda: t.addmm(t.zeros(2, 4), d, f)),
        "addmm_self": catch(lambda: t.addmm(t.zeros(2, 4), d, f.double())),
        "addmm_ok": catch(lambda: t.addmm(t.zeros(2, 4, dtype=t.float64), d, f.double()).dtype),
        "addbmm": catch(lambda: t.addbmm(t.zeros(2, 4), d.unsqueeze(0), f.unsqueeze(0))),
        "einsum": catch(lambda: t.einsum("ij,jk->ik", d, f)),
        "dot": catch(lambda: t.ones(3).dot(t.ones(3, dtype=t.float64))),
        "int_matmul": catch(lambda: t.ones(3, dtype=t.int64) @ t.ones(3, dtype=t.int64)),
        "int_float": catch(lambda: t.ones(2, 3, dtype=t.int64) @ t.ones(3, 2)),
    }


@prog
def la_module_functions_exist(t):
    return {
        name: callable(getattr(t, name, None))
        for name in ["bmm", "addbmm", "baddbmm", "einsum", "matmul", "mm", "addmm"]
    }


# ======================================================================================
# more error texts and edge cases


@prog
def err_int_alpha_float(t):
    return {
        "err": catch(lambda: t.tensor([1, 2]).add_(1, alpha=0.5)),
        "out_of_place": catch(lambda: t.tensor([1, 2]).add(t.tensor([1, 1]), alpha=0.5)),
    }


@prog
def err_expand_minus_one_leading(t):
    return {"err": catch(lambda: t.zeros(3).expand(-1, 3))}


@prog
def err_dim_out_of_range_in_view_ops(t):
    x = t.zeros(3, 4)
    return {
        "squeeze": catch(lambda: x.squeeze(3)),
        "transpose": catch(lambda: x.transpose(0, 2)),
        "unsqueeze": catch(lambda: x.unsqueeze(3)),
        "unsqueeze_ok": tuple(x.unsqueeze(2).shape),
        "unsqueeze_neg": tuple(x.unsqueeze(-3).shape),
        "select": catch(lambda: x.select(2, 0)),
        "softmax": catch(lambda: x.softmax(2)),
    }


@prog
def err_narrow_out_of_range(t):
    x = t.zeros(3, 4)
    return {"err": catch(lambda: x.narrow(1, 3, 2)), "ok": tuple(x.narrow(1, 3, 1).shape)}


@prog
def err_split_sizes_must_sum(t):
    return {
        "err": catch(lambda: t.zeros(5).split([1, 2])),
        "ok": [tuple(v.shape) for v in t.zeros(5).split([2, 3])],
    }


@prog
def err_arange_bad_bounds(t):
    return {
        "err": catch(lambda: t.arange(1, 0)),
        "tenth": t.arange(0, 1, 0.1),
        "len": t.arange(0, 1, 0.1).numel(),
    }


@prog
def err_ragged_nested_list(t):
    return {"err": catch(lambda: t.tensor([[1, 2], [3]]))}


@prog
def layout_of_reductions_and_softmax_on_permuted(t):
    y = t.arange(24.0).view(2, 3, 4).permute(2, 0, 1)
    return {
        "sum0": meta(y.sum(0)),
        "sum1": meta(y.sum(1)),
        "sum2": meta(y.sum(2)),
        "mean_keep": meta(y.mean(1, keepdim=True)),
        "amax0": meta(y.amax(0)),
        "max0": meta(y.max(0).values),
        "argmax0": meta(y.argmax(0)),
        "var0": meta(y.var(0)),
        "softmax0": meta(y.softmax(0)),
        "log_softmax2": meta(y.log_softmax(2)),
        "exp": meta(y.exp()),
        "vals": y.sum(1),
        "sm_vals": y.softmax(0),
    }


@prog
def layout_of_matmul_with_transposed_inputs(t):
    a = t.tensor(arr(3, 2, seed=1))
    b = t.tensor(arr(4, 3, seed=2))
    bb = t.tensor(arr(5, 3, 2, seed=3))
    return {
        "mm": meta(a.t().mm(b.t())),
        "matmul": meta(a.t() @ b.t()),
        "bmm": meta(bb.transpose(1, 2).bmm(bb)),
        "vals": a.t() @ b.t(),
    }


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


@prog
def comparisons_and_logical(t):
    x = t.tensor([1.0, 2.0, 3.0])
    y = t.tensor([3.0, 2.0, 1.0])
    gt = x > y
    return {
        "gt": gt,
        "ge": x >= 2,
        "lt": x < y,
        "le": x <= y,
        "eq": x == y,
        "ne": x != 2,
        "methods": [x.gt(y), x.eq(2.0), t.lt(x, y)],
        "and": gt.logical_and(x > 1),
        "or": gt.logical_or(x < 2),
        "int_vs_float": t.tensor([1, 2]) == t.tensor([1.0, 2.5]),
        "dtype": gt.dtype,
    }


@prog
def creation_extras(t):
    x = t.tensor(arr(2, 3))
    e = t.empty_strided((2, 3), (1, 2))
    return {
        "full_like": t.full_like(x, 2.5),
        "full_like_int": t.full_like(t.tensor([1, 2]), 7),
        "empty_strided": meta(e),
        "is_tensor": [t.is_tensor(x), t.is_tensor(3.0), t.is_tensor(np.zeros(2))],
    }


@prog
def optimizer_style_inplace_plain(t):
    p = t.tensor(pos(4, seed=1))
    g = t.tensor(arr(4, seed=2))
    m = t.zeros(4)
    v = t.zeros(4)
    ptrs = [p.data_ptr(), m.data_ptr(), v.data_ptr()]
    m.mul_(0.9).add_(g, alpha=0.1)
    v.mul_(0.999).addcmul_(g, g, value=0.001)
    p.addcdiv_(m, v.sqrt().add_(1e-8), value=-0.01)
    m.lerp_(g, 0.5)
    return {
        "p": p,
        "m": m,
        "v": v,
        "versions": [p._version, m._version, v._version],
        "ptrs_same": [
            a == b for a, b in zip(ptrs, [p.data_ptr(), m.data_ptr(), v.data_ptr()], strict=True)
        ],
    }


@prog
def uniform_inplace(t):
    x = t.zeros(200)
    r = x.uniform_(-1, 2)
    vals = x.tolist()
    return {
        "same": r is x,
        "version": x._version,
        "in_range": all(-1 <= v < 2 for v in vals),
        "spread": min(vals) < 0 < max(vals),
    }


@prog
def advanced_indexing_copies(t):
    x = t.arange(12.0).view(3, 4)
    rows = x[[0, 2]]
    mask = x > 5
    sel = x[mask]
    return {
        "rows": rows,
        "rows_base_none": rows._base is None,
        "rows_same_storage": same_storage(rows, x),
        "sel": sel,
        "sel_meta": meta(sel),
        "x_version": x._version,
    }


@prog
def advanced_indexing_setitem(t):
    x = t.arange(12.0).view(3, 4)
    x[x > 5] = 0.0
    v1 = x._version
    x[[0, 2], 1] = t.tensor([-1.0, -2.0])
    return {"x": x, "versions": [v1, x._version]}


@prog
def inplace_bool_cannot_hold_long(t):
    b = t.tensor([True, False])
    return {"err": catch(lambda: b.add_(1)), "ok": t.tensor([1, 2]).add_(t.tensor([True, False]))}


# ======================================================================================
# printing (notebooks show these reprs; nbval compares them)


@prog
def repr_simple_tensors(t):
    return {
        "float": repr(t.tensor([1.0, 2.0])),
        "int": repr(t.tensor([1, 2])),
        "bool": repr(t.tensor([True, False])),
        "scalar": repr(t.tensor(3.5)),
        "f64": repr(t.tensor([1.5, 2.0], dtype=t.float64)),
        "empty": repr(t.tensor([])),
        "matrix": repr(t.arange(6.0).view(2, 3)),
        "decimals": repr(t.tensor([0.5, 1.25])),
        "int_matrix": repr(t.arange(6).view(3, 2)),
        "negative": repr(t.tensor([-1.0, 2.5])),
    }


@prog
def repr_formatting_edge_cases(t):
    return {
        "sci_small": repr(t.tensor([1e-5, 1.0])),
        "sci_big": repr(t.tensor([1e10, 1.0])),
        "mixed_widths": repr(t.tensor([[1.0, -22.5], [333.25, 0.125]])),
        "nan_inf": repr(t.tensor([float("nan"), float("inf"), -float("inf"), 1.0])),
        "ints_wide": repr(t.tensor([1, -100, 12345])),
        "long_summarized": repr(t.arange(2000.0)),
        "long_int_summarized": repr(t.arange(1500)),
        "matrix_summarized": repr(t.arange(3000.0).view(1000, 3)),
        "3d": repr(t.arange(8.0).view(2, 2, 2)),
        "whole_floats": repr(t.tensor([100.0, 2.0])),
        "f64_grad": repr(t.tensor([1.0, 2.0], dtype=t.float64, requires_grad=True) * 2),
        "int_0dim": repr(t.tensor(7)),
        "bool_0dim": repr(t.tensor(False)),
        "empty_2d": repr(t.zeros(0, 3)),
        "str": str(t.tensor([0.5, 1.5])),
    }


@prog
def repr_autograd_suffixes(t):
    a = t.tensor([1.0, 2.0], requires_grad=True)
    with t.no_grad():
        n = a * 2
    return {
        "leaf": repr(a),
        "mul": repr(a * 2),
        "sum": repr((a * 2).sum()),
        "no_grad": repr(n),
        "view": repr(a[0]),
        "detached": repr(a.detach()),
    }


@prog
def repr_size_and_dtype(t):
    x = t.zeros(2, 3)
    return {
        "shape": str(x.shape),
        "size": repr(x.size()),
        "dtype": str(x.dtype),
        "empty_shape": str(t.tensor(1.0).shape),
    }


# ======================================================================================
# dtype conversions and factory kwargs


@prog
def dtype_conversions(t):
    f = t.tensor([1.7, -2.7])
    i = t.tensor([1, 2])
    d = f.double()
    return {
        "double": d,
        "float": i.float(),
        "long": f.long(),
        "to": f.to(t.float64),
        "to_same_is_self": f.to(t.float32) is f,
        "float_same_is_self": f.float() is f,
        "d_new_storage": same_storage(d, f),
    }


@prog
def factories_with_requires_grad(t):
    z = t.zeros(3, requires_grad=True)
    o = t.ones(2, 2, requires_grad=True)
    f = t.full((2,), 1.5, requires_grad=True)
    return {
        "z": [z.is_leaf, z.requires_grad],
        "o": [o.is_leaf, o.requires_grad],
        "f": [f.is_leaf, f.requires_grad],
        "int_rg": catch(lambda: t.zeros(2, dtype=t.int64, requires_grad=True)),
    }


# ======================================================================================
# which in-place methods exist


@prog
def exists_inplace_methods(t):
    x = t.zeros(2, 2)
    names = [
        "matmul_",
        "permute_",
        "minimum_",
        "maximum_",
        "transpose_",
        "t_",
        "clamp_",
        "clamp_min_",
        "clamp_max_",
        "pow_",
        "neg_",
        "zero_",
        "fill_",
        "copy_",
        "random_",
        "normal_",
        "add_",
        "mul_",
        "relu_",
        "sigmoid_",
        "addbmm_",
        "baddbmm_",
        "addmm_",
        "unsqueeze_",
        "squeeze_",
        "as_strided_",
        "view_",
        "reshape_",
        "expand_",
        "mm_",
        "bmm_",
        "einsum_",
        "softmax_",
        "sum_",
    ]
    return {n: hasattr(x, n) for n in names}


@prog
def random_and_normal_inplace_metadata(t):
    x = t.zeros(100)
    p = x.data_ptr()
    r = x.normal_()
    v1 = x._version
    y = t.zeros(50)
    y.random_(0, 10)
    xs, ys = x.tolist(), y.tolist()
    return {
        "same": r is x,
        "ptr": x.data_ptr() == p,
        "v1": v1,
        "nonzero": any(v != 0 for v in xs),
        "y_ints_in_range": all(v == int(v) and 0 <= v < 10 for v in ys),
        "y_version": y._version,
    }


# ======================================================================================


@pytest.mark.parametrize("program", prog.params())
def test_tensor_parity(program, torch_mod, core):
    check_parity(program, torch_mod, core)
