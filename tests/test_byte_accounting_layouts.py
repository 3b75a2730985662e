"""Every byte counted, for the layouts where NumPy copies an operand itself: matrix products
whose operands BLAS can't read as they are (strided, expanded), in every product op and in
backward, and sorts along lines longer than the 512 elements one np.argsort call sorts.

Measured as in test_byte_accounting.py (forward and backward, interval by interval, against a
run at small shapes for the Python objects). NumPy 2.5 copies a non-BLAS-ready matrix inside
np.matmul behind the count (NumPy 2.4 and earlier run a slow loop instead); the core makes that
copy itself, counted, where PyTorch's CPU kernels clone (ops/_blas.py), on every NumPy.
"""
from __future__ import annotations

import numpy as np
import pytest
from byte_intervals import check, fwd_bwd, measure, remeasured, set_floor, tracing

import inplace_tutorial as ipt
from inplace_tutorial.nn import functional as F


@pytest.fixture(scope="module", autouse=True)
def traced():
    with tracing():
        yield


def _leaves(shapes, seed=0):
    rng = np.random.default_rng(seed)
    return [ipt.tensor(rng.uniform(-2.0, 2.0, s), dtype=ipt.float64, requires_grad=True)
            for s in shapes]


def _strided(a):
    return a[..., ::2, ::2]


# name -> (function of the leaves, small shapes, large shapes: float64, 512 KiB and more)
PRODUCTS = {
    "mm strided": (lambda a, b: _strided(a).mm(_strided(b)), [(4, 4), (4, 4)],
                   [(256, 256), (256, 256)]),
    "mm expanded column": (lambda a, b: a.mm(b[:, :1].expand(*b.shape)), [(3, 3), (3, 3)],
                           [(256, 256), (256, 256)]),
    "matmul 2-D strided and transposed": (lambda a, b: _strided(a) @ _strided(b).t(),
                                          [(4, 4), (4, 4)], [(256, 256), (256, 256)]),
    "bmm strided": (lambda a, b: _strided(a).bmm(_strided(b)), [(2, 4, 4), (2, 4, 4)],
                    [(8, 128, 128), (8, 128, 128)]),
    "bmm one strided operand": (lambda a, b: a[:, :, ::2].bmm(b), [(2, 3, 4), (2, 2, 3)],
                                [(8, 128, 256), (8, 128, 128)]),
    "matmul batch broadcast, strided": (lambda a, b: _strided(a) @ _strided(b),
                                        [(2, 4, 4), (4, 4)], [(8, 128, 128), (128, 128)]),
    "matmul 4-D expanded batch": (lambda a, b: a @ _strided(b).expand(2, 4, *_strided(b).shape),
                                  [(2, 4, 3, 2), (4, 4)], [(2, 4, 128, 64), (128, 128)]),
    "addmm strided": (lambda s, a, b: s.addmm(_strided(a), _strided(b), beta=0.5, alpha=2),
                      [(2, 2), (4, 4), (4, 4)], [(128, 128), (256, 256), (256, 256)]),
    "baddbmm strided": (lambda s, a, b: s.baddbmm(_strided(a), _strided(b)),
                        [(2, 2, 2), (2, 4, 4), (2, 4, 4)],
                        [(8, 64, 64), (8, 128, 128), (8, 128, 128)]),
    "addbmm strided": (lambda s, a, b: s.addbmm(_strided(a), _strided(b)),
                       [(2, 2), (2, 4, 4), (2, 4, 4)], [(64, 64), (8, 128, 128), (8, 128, 128)]),
    "mm, then sum (expanded gradient)": (lambda a, b: a.mm(b).sum(), [(3, 3), (3, 3)],
                                         [(256, 256), (256, 256)]),
    "sdpa strided query and key": (lambda q, k, v: F.scaled_dot_product_attention(
        q[..., ::2], k[..., ::2], v), [(2, 3, 4), (2, 3, 4), (2, 3, 2)],
        [(4, 128, 128), (4, 128, 128), (4, 128, 64)]),
}


@pytest.mark.parametrize("name", sorted(PRODUCTS))
@remeasured
def test_matrix_products_count_the_copies_blas_needs(name):
    fn, small_shapes, big_shapes = PRODUCTS[name]
    set_floor()
    small = fwd_bwd(fn, _leaves(small_shapes))
    big = fwd_bwd(fn, _leaves(big_shapes))
    assert big[0].peak > 1 << 18, big  # the large run really allocates
    check(f"{name} forward", small[0], big[0])
    check(f"{name} backward", small[1], big[1])


# forward only, each a function of one float32 (256, 256) tensor (small: 8 x 8)
NO_GRAD = {
    "F.embedding of a transposed weight": lambda a: F.embedding(ipt.arange(a.shape[0]), a.t()),
    "matmul out= strided": lambda a: ipt.matmul(_strided(a), _strided(a.t()),
                                                out=ipt.empty(0)),
    "bmm out= strided": lambda a: ipt.bmm(_strided(a.reshape(4, -1, a.shape[1])),
                                          _strided(a.reshape(4, a.shape[1], -1)),
                                          out=ipt.empty(0)),
}


@pytest.mark.parametrize("name", sorted(NO_GRAD))
@remeasured
def test_products_without_a_graph_count_the_copies_blas_needs(name):
    fn = NO_GRAD[name]
    set_floor()
    runs = []
    for shape in [(8, 8), (256, 256)]:
        a = ipt.tensor(np.random.default_rng(0).uniform(0, 1, shape), dtype=ipt.float32)
        fn(a)
        runs.append(measure(lambda a=a: fn(a))[1])
    check(name, *runs)
