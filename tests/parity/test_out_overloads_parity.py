"""The out= overloads of torch 2.13 that the core lacked: argsort(stable=True, out=),
msort(out=), nonzero(out=), side by side with torch: what lands in out (values, shape,
version, the resize warning), the dtype each wants in PyTorch's words, the refusal of
autograd (in sort's name: these are sort_out underneath), and the forms PyTorch's parser
lists when out= comes without stable=."""

import numpy as np
import pytest

from .harness import Registry, check_parity, warned

pytestmark = pytest.mark.parity

prog = Registry()


def _x(t):
    return t.tensor(np.array([[1.0, 0.0, 3.0, 3.0], [0.0, 5.0, -6.0, 5.0]], dtype=np.float32))


def _into(t, call, out):
    r, w = warned(lambda: call(out))
    return {"returned out": r is out if isinstance(r, t.Tensor) else r, "out": out,
            "version": out._version, "warnings": w, "stride": out.stride()}


@prog
def out_argsort_stable(t):
    x = _x(t)
    return {
        "default dim": _into(t, lambda o: t.argsort(x, stable=True, out=o),
                             t.empty(0, dtype=t.int64)),
        "dim 0 descending": _into(t, lambda o: t.argsort(x, stable=True, dim=0, descending=True,
                                                          out=o), t.zeros(3, dtype=t.int64)),
        "right shape": _into(t, lambda o: t.argsort(x, stable=False, out=o),
                             t.zeros(2, 4, dtype=t.int64)),
        "float out": _into(t, lambda o: t.argsort(x, stable=True, out=o), t.zeros(2)),
        "requires grad": _into(t, lambda o: t.argsort(x.clone().requires_grad_(), stable=True,
                                                       out=o), t.empty(0, dtype=t.int64)),
        "no stable": _into(t, lambda o: t.argsort(x, 1, out=o), t.empty(0, dtype=t.int64)),
        "no stable, dim=": _into(t, lambda o: t.argsort(x, dim=1, out=o),
                                 t.empty(0, dtype=t.int64)),
        "without out": t.argsort(x, stable=True, dim=1),
    }


@prog
def out_msort(t):
    x = _x(t)
    return {
        "empty out": _into(t, lambda o: t.msort(x, out=o), t.empty(0)),
        "small out": _into(t, lambda o: t.msort(x, out=o), t.zeros(2)),
        "long out": _into(t, lambda o: t.msort(x, out=o), t.empty(0, dtype=t.int64)),
        "requires grad": _into(t, lambda o: t.msort(x.clone().requires_grad_(), out=o),
                               t.empty(0)),
        "without out": t.msort(x),
    }


@prog
def out_nonzero(t):
    x = _x(t)
    return {
        "empty out": _into(t, lambda o: t.nonzero(x, out=o), t.empty(0, dtype=t.int64)),
        "small out": _into(t, lambda o: t.nonzero(x, out=o), t.zeros(3, dtype=t.int64)),
        "float out": _into(t, lambda o: t.nonzero(x, out=o), t.empty(0)),
        "int32 out": _into(t, lambda o: t.nonzero(x, out=o), t.empty(0, dtype=t.int32)),
        "as_tuple": _into(t, lambda o: t.nonzero(x, as_tuple=True, out=o),
                          t.empty(0, dtype=t.int64)),
        "of a long copy": _into(t, lambda o: t.nonzero(x, out=o), x.long()),
        "0-dim input": _into(t, lambda o: t.nonzero(t.tensor(2.0), out=o),
                             t.empty(0, dtype=t.int64)),
    }


@pytest.mark.parametrize("program", prog.params())
def test_out_overloads_parity(program, torch_mod, core):
    check_parity(program, torch_mod, core)
