"""Error texts and edge cases of tensor ops (bad arguments, empty and 0-dim tensors).

Each program is ordinary PyTorch code written against ``t``; the harness runs it once
with ``t = torch`` and once with ``t = inplace_tutorial`` and compares every observation.
"""

import numpy as np
import pytest

from .harness import Registry, arr, catch, check_parity, meta, pos, same_storage

pytestmark = pytest.mark.parity

prog = Registry()


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


@pytest.mark.parametrize("program", prog.params())
def test_errors_parity(program, torch_mod, core):
    check_parity(program, torch_mod, core)
