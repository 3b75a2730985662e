"""isnan/isinf/isfinite: bool results for every dtype, views, 0-dim, as torch."""

import pytest

from .harness import Registry, check_parity

pytestmark = pytest.mark.parity

prog = Registry()


@prog
def float_classes(t):
    inf, nan = float("inf"), float("nan")
    out = {}
    for dt in (t.float32, t.float64, t.float16, t.bfloat16):
        x = t.tensor([[1.0, nan, -inf], [inf, 0.0, -nan]], dtype=dt)
        for op in ("isnan", "isinf", "isfinite"):
            out[f"{op}_{dt}"] = getattr(x, op)()
            out[f"{op}_{dt}_t"] = getattr(t, op)(x.t())
    for v in (t.tensor([1, -2]), t.tensor([True, False]), t.tensor(nan), t.zeros(0)):
        for op in ("isnan", "isinf", "isfinite"):
            out[f"{op}_{v.dtype}_{v.shape}"] = getattr(v, op)()
    g = t.tensor([nan, 1.0], requires_grad=True)
    out["grad"] = (g.isnan().requires_grad, g.isnan().grad_fn is None)
    return out


@pytest.mark.parametrize("program", prog.params())
def test_float_classes_parity(program, torch_mod, core):
    check_parity(program, torch_mod, core)
