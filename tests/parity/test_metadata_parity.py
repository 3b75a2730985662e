"""Metadata and printing: size/stride/offset, data_ptr, storages, _version, and reprs.

Each program is ordinary PyTorch code written against ``t``; the harness runs it once
with ``t = torch`` and once with ``t = inplace_tutorial`` and compares every observation.
"""

import pytest

from .harness import Registry, arr, catch, check_parity, meta, ptr_delta, same_storage

pytestmark = pytest.mark.parity

prog = Registry()


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


@pytest.mark.parametrize("program", prog.params())
def test_metadata_parity(program, torch_mod, core):
    check_parity(program, torch_mod, core)
