"""Reductions and linear algebra: values, shapes, dtypes and error texts.

Each program is ordinary PyTorch code written against ``t``; the harness runs it once
with ``t = torch`` and once with ``t = inplace_tutorial`` and compares every observation.
"""

import pytest

from .harness import Registry, arr, catch, check_parity, ints

pytestmark = pytest.mark.parity

prog = Registry()


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


@pytest.mark.parametrize("program", prog.params())
def test_reductions_linalg_parity(program, torch_mod, core):
    check_parity(program, torch_mod, core)
