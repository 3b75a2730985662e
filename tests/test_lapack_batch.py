"""ops/_lapack.py on batches: many small matrices, copied column-major a block at a time and
handed to gesdd by address, give NumPy's own gufunc's SVD bit for bit (the same LAPACK
routine; np.linalg.svd itself computes float32 in float64), also where the batch dims can't
be merged, across blocks, float32 and float64, tall and wide, full and reduced."""
from __future__ import annotations

import numpy as np
import pytest
from numpy.linalg import _umath_linalg

import inplace_tutorial as ipt
from inplace_tutorial.ops import _lapack

pytestmark = pytest.mark.skipif(_lapack.GESDD is None, reason="NumPy's LAPACK has no gesdd")

CASES = {  # name -> (shape of the base array, the view on NumPy, the same view on the core)
    "1000 3x3": ((1000, 3, 3), lambda a: a, lambda x: x),
    "3000 wide 2x5 (several blocks)": ((3000, 2, 5), lambda a: a, lambda x: x),
    "700 tall 6x2": ((700, 6, 2), lambda a: a, lambda x: x),
    "batch dims that don't merge": ((30, 40, 3, 3), lambda a: a.transpose(1, 0, 2, 3),
                                    lambda x: x.transpose(0, 1)),
    "each matrix transposed": ((500, 4, 4), lambda a: a.transpose(0, 2, 1), lambda x: x.mT),
    "an expanded batch": ((2, 1, 3), lambda a: np.broadcast_to(a, (5, 2, 1, 3)),
                          lambda x: x.expand(5, 2, 1, 3)),
}


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
@pytest.mark.parametrize("full", [True, False])
@pytest.mark.parametrize("name", sorted(CASES))
def test_batched_svd_is_numpys(dtype, full, name):
    shape, np_view, core_view = CASES[name]
    base = np.random.default_rng(len(name)).standard_normal(shape).astype(dtype)
    U, S, Vh = ipt.linalg.svd(core_view(ipt.tensor(base)), full_matrices=full)
    gufunc = _umath_linalg.svd_f if full else _umath_linalg.svd_s
    nU, nS, nVh = gufunc(np_view(base), signature="d->ddd" if dtype == np.float64 else "f->fff")
    assert np.array_equal(S.numpy(), nS)
    assert np.array_equal(U.numpy(), nU)
    assert np.array_equal(Vh.numpy(), nVh)
