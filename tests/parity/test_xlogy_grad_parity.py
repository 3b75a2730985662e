"""xlogy's gradient with respect to self where self is 0, side by side with torch 2.13:
log(other) when other > 0, zero only where other <= 0 (derivatives.yaml's masked_fill)."""

import pytest

from .harness import Registry, check_parity

pytestmark = pytest.mark.parity

prog = Registry()


@prog
def xlogy_grad_at_zero_self(t):
    out = {}
    for name, other in {"positive": [0.5, 2.0, 3.0, 0.25], "mixed": [0.5, 0.0, -1.0, 2.0],
                        "number 2.5": 2.5, "number -1": -1.0}.items():
        x = t.tensor([0.0, 0.0, 1.5, 0.0], requires_grad=True)
        o = t.tensor(other, requires_grad=True) if isinstance(other, list) else other
        y = x.xlogy(o)
        (y * t.tensor([1.0, 2.0, 3.0, 4.0])).sum().backward()
        out[name] = (x.grad, o.grad if isinstance(other, list) else None)
    v = t.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
    s = v[1:]
    with t.no_grad():
        s.zero_()
    s.xlogy(v.abs() + 0.5).sum().backward()
    out["zeroed view"] = v.grad
    return out


@pytest.mark.parametrize("program", prog.params())
def test_xlogy_grad_parity(program, torch_mod, core):
    check_parity(program, torch_mod, core)
