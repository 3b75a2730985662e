"""ipt.fused: the one-pass addbmm_ kernel of notebook 08 (no torch needed)."""
import numpy as np
import pytest

import inplace_tutorial as ipt
from inplace_tutorial.fused import addbmm_ways, fused_addbmm_


def _batches(b, n, m, p, seed=0):
    rng = np.random.default_rng(seed)
    return (ipt.tensor(rng.standard_normal((b, n, m), dtype=np.float32)),
            ipt.tensor(rng.standard_normal((b, m, p), dtype=np.float32)))


@pytest.mark.parametrize("shape", [(3, 2, 4, 5), (64, 64, 32, 64), (2, 300, 8, 300), (1, 1, 1, 1)])
@pytest.mark.parametrize("beta,alpha", [(1, 1), (0.5, 2.0), (0, 1), (2, 0)])
def test_matches_addbmm_and_allocates_nothing(shape, beta, alpha):
    b, n, m, p = shape
    b1, b2 = _batches(b, n, m, p)
    out = ipt.tensor(np.random.default_rng(1).standard_normal((n, p), dtype=np.float32))
    expected = out.clone().addbmm_(b1, b2, beta=beta, alpha=alpha)
    storage = out.untyped_storage()
    with ipt.memory.record() as tr:
        r = fused_addbmm_(out, b1, b2, beta=beta, alpha=alpha)
    assert r is out and out.untyped_storage() is storage and out._version == 1
    assert tr.events == [] and tr.peak == tr.start_allocated
    np.testing.assert_allclose(out.numpy(), expected.numpy(), rtol=1e-4, atol=1e-3)


def test_beta_zero_ignores_nan():
    b1, b2 = _batches(2, 3, 4, 5)
    out = ipt.full((3, 5), float("nan"))
    fused_addbmm_(out, b1, b2, beta=0)
    assert not np.isnan(out.numpy()).any()


def test_bad_input_gets_addbmm_errors_and_writes_nothing():
    b1, b2 = _batches(2, 3, 4, 5)
    out = ipt.zeros(3, 5)
    cases = [
        ((ipt.zeros(3, 4), b1, b2), {}, RuntimeError),          # out of the wrong shape
        ((out, b1, ipt.randn(3, 4, 5)), {}, RuntimeError),      # batch counts differ
        ((out, b1, ipt.randn(2, 5, 5)), {}, RuntimeError),      # inner sizes differ
        ((out, b1, b2), {"beta": ipt.tensor([0.5])}, TypeError),
        ((out, b1, b2.double()), {}, RuntimeError),             # dtypes differ
    ]
    for args, kwargs, exc in cases:
        with pytest.raises(exc) as got:
            fused_addbmm_(*args, **kwargs)
        with pytest.raises(exc) as want:
            args[0].clone().addbmm_(*args[1:], **kwargs)
        assert str(got.value).replace("fused_addbmm_", "addbmm_") == str(want.value)
        assert out.tolist() == [[0.0] * 5] * 3 and out._version == 0


def test_refuses_autograd_and_aliasing():
    b1, b2 = _batches(2, 3, 4, 5)
    with pytest.raises(RuntimeError, match="without autograd"):
        fused_addbmm_(ipt.zeros(3, 5), b1.requires_grad_(), b2)
    with ipt.no_grad():
        fused_addbmm_(ipt.zeros(3, 5), b1, b2)  # fine under no_grad
    base = ipt.zeros(2, 3, 3)
    with pytest.raises(RuntimeError, match="shares memory"):
        fused_addbmm_(base[0], base, ipt.zeros(2, 3, 3))


def test_ways_compute_the_same():
    b1, b2 = _batches(8, 6, 5, 7)
    out = ipt.zeros(6, 7)
    results = [fn(out.clone()).numpy() for fn in addbmm_ways(b1, b2).values()]
    for r in results[1:]:
        np.testing.assert_allclose(r, results[0], rtol=1e-4, atol=1e-4)
