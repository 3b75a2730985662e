"""Matrix products whose operands BLAS can't read as they are (strided, expanded, a batch with
some strided matrices), on torch 2.13 and the core: values, gradients, result layout and
version counters. The core copies such a matrix into counted memory before np.matmul
(ops/_blas.py), one matrix of a batch at a time, as PyTorch's CPU kernels clone it.
"""

import pytest

from .harness import Registry, arr, check_parity, fn_name, leaf, meta, upstream

pytestmark = pytest.mark.parity

prog = Registry()


def _run(t, y, *leaves):
    y.backward(upstream(t, y))
    return {"y": y, "meta": meta(y), "fn": fn_name(y.grad_fn),
            "grads": [a.grad for a in leaves], "versions": [a._version for a in leaves]}


@prog
def mm_and_matmul_with_strided_and_expanded_operands(t):
    a = leaf(t, arr(6, 8, seed=1))
    b = leaf(t, arr(8, 6, seed=2))
    out = {
        "mm strided": _run(t, a[::2, ::2].mm(b[1::2, ::2]), a, b),
        "mm strided rows, transposed": _run(t, a[::2].mm(b[::2].t()), a, b),
        "matmul expanded column": _run(t, a @ b[:, :1].expand(8, 5), a, b),
        "matmul expanded row": _run(t, a[:1].expand(4, 8) @ b, a, b),
    }
    for x in (a, b):
        x.grad = None
    y = a.mm(b).sum()  # backward hands mm an expanded gradient (strides 0, 0)
    y.backward()
    out["sum"] = (y, a.grad, b.grad)
    return out


@prog
def bmm_and_batched_matmul_with_strided_matrices(t):
    a = leaf(t, arr(3, 6, 8, seed=3))
    b = leaf(t, arr(3, 8, 6, seed=4))
    w = leaf(t, arr(8, 6, seed=5))
    return {
        "bmm both strided": _run(t, a[:, ::2, ::2].bmm(b[:, ::2, ::2]), a, b),
        "bmm one strided": _run(t, a[:, :, ::2].bmm(b[:, 1::2]), a, b),
        "matmul batch broadcast": _run(t, a[:, ::2, ::2] @ w[::2, ::2], a, w),
        "matmul 4-D expanded": _run(
            t, a.reshape(3, 1, 6, 8).expand(3, 2, 6, 8) @ b[:, :, ::2].reshape(3, 1, 8, 3),
            a, b),
    }


@prog
def fused_products_with_strided_operands(t):
    a = leaf(t, arr(3, 6, 8, seed=6))
    b = leaf(t, arr(3, 8, 6, seed=7))
    s = leaf(t, arr(3, 3, seed=8))
    out = {
        "addmm": _run(t, s.addmm(a[0, ::2, ::2], b[1, ::2, ::2], beta=0.5, alpha=2), s, a, b),
        "addbmm": _run(t, s.addbmm(a[:, ::2, ::2], b[:, ::2, ::2]), s, a, b),
        "baddbmm": _run(t, s.expand(3, 3, 3).baddbmm(a[:, ::2, ::2], b[:, ::2, ::2],
                                                     alpha=-1), s, a, b),
    }
    h = t.tensor(arr(3, 3, seed=9))
    h.addmm_(h.t(), h[:, :1].expand(3, 3))
    out["addmm_ from itself, expanded"] = (h, h._version)
    return out


@prog
def products_into_out_with_strided_operands(t):
    a = t.tensor(arr(6, 8, seed=10))
    b = t.tensor(arr(3, 8, 6, seed=11))
    o = t.empty(0)
    r = t.matmul(a[::2, ::2], b[0, ::2, ::2], out=o)
    ob = t.empty(3, 3, 3)
    rb = t.bmm(b[:, ::2, ::2].transpose(1, 2)[:, :, :3], b[:, ::2, ::2][:, :4, :3].transpose(
        1, 2)[:, :, :3], out=ob)
    return {"o": o, "same": r is o, "version": o._version, "ob": ob, "same_b": rb is ob,
            "meta": meta(ob)}


@prog
def sdpa_with_strided_query_and_key(t):
    q = leaf(t, arr(2, 5, 8, seed=12))
    k = leaf(t, arr(2, 6, 8, seed=13))
    v = leaf(t, arr(2, 6, 3, seed=14))
    y = t.nn.functional.scaled_dot_product_attention(q[..., ::2], k[..., 1::2], v)
    return _run(t, y, q, k, v)


@pytest.mark.parametrize("prog", prog.params())
def test_blas_layouts_parity(prog, torch_mod, core):
    check_parity(prog, torch_mod, core)
