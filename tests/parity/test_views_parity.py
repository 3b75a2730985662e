"""Views: which ops share storage, their strides and offsets, and writes through them.

Each program is ordinary PyTorch code written against ``t``; the harness runs it once
with ``t = torch`` and once with ``t = inplace_tutorial`` and compares every observation.
"""

import numpy as np
import pytest

from .harness import Registry, catch, check_parity, meta, ptr_delta, same_storage

pytestmark = pytest.mark.parity

prog = Registry()


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


@pytest.mark.parametrize("program", prog.params())
def test_views_parity(program, torch_mod, core):
    check_parity(program, torch_mod, core)
