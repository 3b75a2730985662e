"""torch.svd and Tensor.svd (the older API) on torch 2.13 and the core: (U, S, V) with V the
transposed view of linalg.svd's Vh, ``some=``, ``compute_uv=False`` (zeros for U and V),
``out=`` (V transposed in place around linalg.svd's out=), errors and gradients. U and V are
compared through what no sign choice changes (test_linalg_svd_parity.py's gauge)."""

import numpy as np
import pytest

from .harness import Registry, arr, catch, check_parity, leaf, meta, warned
from .test_linalg_svd_parity import gauge

pytestmark = pytest.mark.parity

prog = Registry()
F64 = np.float64


def old_gauge(r):
    U, S, V = r
    return {"gauge": gauge((U, S, V.mT)), "V": meta(V), "type": type(r).__name__,
            "named": (r.U is U, r.S is S, r.V is V)}


@prog
def torch_svd_values(t):
    out = {}
    for i, shape in enumerate([(4, 3), (3, 4), (3, 3), (2, 5, 3), (2, 3, 5)]):
        x = t.tensor(arr(*shape, seed=90 + i, dtype=F64))
        out[f"{shape}"] = old_gauge(t.svd(x))
        out[f"{shape}_full"] = old_gauge(t.svd(x, some=False))
        out[f"{shape}_method"] = old_gauge(x.svd(False))
        r = t.svd(x, compute_uv=False)
        out[f"{shape}_no_uv"] = (tuple(r), [meta(a) for a in r], type(r).__name__)
        out[f"{shape}_no_uv_full"] = tuple(x.svd(some=False, compute_uv=False))
    out["empty"] = [tuple(t.svd(t.zeros(s), some=f)) for s in [(0, 3), (3, 0), (2, 0, 3)]
                    for f in (True, False)]
    out["V_is_view"] = (lambda r: (r.V._is_view(), r.V._base is not None))(t.svd(t.zeros(3, 2)))
    return out


@prog
def torch_svd_errors(t):
    x = t.zeros(3, 4)
    return {
        "1d": catch(lambda: t.svd(t.zeros(3))),
        "1d_method": catch(lambda: t.zeros(3).svd()),
        "long": catch(lambda: t.svd(x.long())),
        "half": catch(lambda: t.svd(x.half())),
        "some_int": catch(lambda: t.svd(x, some=1)),
        "some_int_pos": catch(lambda: t.svd(x, 1)),
        "uv_none": catch(lambda: t.svd(x, compute_uv=None)),
        "method_three": catch(lambda: x.svd(True, True, 1)),
        "method_foo": catch(lambda: x.svd(foo=1)),
        "method_some_int": catch(lambda: x.svd(1)),
        "missing": catch(lambda: t.svd()),
        "four": catch(lambda: t.svd(x, True, True, True)),
        "none": catch(lambda: t.svd(None)),
        "nan": catch(lambda: t.svd(x * float("nan"))),
        "out_int": catch(lambda: t.svd(x, out=1)),
    }


@prog
def torch_svd_out(t):
    x = t.tensor(arr(3, 4, seed=95, dtype=F64))

    def outs(*shapes, dtype=t.float64):
        return tuple(t.empty(s, dtype=dtype) for s in shapes)

    def into(o, **kwargs):
        r, w = warned(lambda: t.svd(x, out=o, **kwargs))
        state = {"metas": [meta(a) for a in o], "versions": [a._version for a in o],
                 "warnings": w}
        if not isinstance(r, tuple):
            return r, state
        state.update(type=type(r).__name__, same=[a is b for a, b in zip(r, o)])
        state["S"] = o[1]
        if kwargs.get("compute_uv", True):
            state["gauge"] = gauge((o[0], o[1], o[2].mT))
        else:
            state["zeros"] = (o[0], o[2])
        return state

    return {
        "empty": into(outs((0,), (0,), (0,))),
        "right_shapes": into(outs((3, 3), (3,), (4, 3))),
        "full": into(outs((0,), (0,), (0,)), some=False),
        "wrong_shapes": into(outs((2, 2), (5,), (2, 2))),
        "no_uv": into(outs((0,), (0,), (0,)), compute_uv=False),
        "no_uv_shapes": into(outs((3, 3), (3,), (4, 4)), compute_uv=False),
        "no_uv_dtype_U": into(outs((0,), (0,), (0,), dtype=t.float32), compute_uv=False),
        "no_uv_dtype_V": into((*outs((0,), (0,)), t.empty(0)), compute_uv=False),
        "dtype_S": into((t.empty(0, dtype=t.float64), t.empty(0), t.empty(0, dtype=t.float64))),
        "two": catch(lambda: t.svd(x, out=outs((0,), (0,)))),
        "requires_grad": catch(lambda: t.svd(leaf(t, arr(3, 4)), out=outs(
            (0,), (0,), (0,), dtype=t.float32))),
        "1d": catch(lambda: t.svd(x[0], out=outs((0,), (0,), (0,)))),
    }


@prog
def torch_svd_grads(t):
    out = {}
    for i, shape in enumerate([(4, 3), (3, 4), (2, 3, 5)]):
        for some in (True, False):
            a = leaf(t, arr(*shape, seed=96 + i, dtype=F64))
            U, S, V = t.svd(a, some=some)
            (U.abs().sum() + V.abs().sum() * 2 + (S * S).sum()).backward()
            out[f"{shape}_{some}"] = (a.grad, type(V.grad_fn).__name__,
                                      [(type(f).__name__, n) for f, n in V.grad_fn.next_functions])
        b = leaf(t, arr(*shape, seed=99, dtype=F64))
        U, S, V = t.svd(b, compute_uv=False)
        S.sum().backward()
        out[f"{shape}_no_uv"] = (b.grad, U.requires_grad, V.requires_grad,
                                 type(S.grad_fn).__name__)
    return out


@pytest.mark.parametrize("prog", prog.params())
def test_torch_svd_parity(prog, torch_mod, core):
    check_parity(prog, torch_mod, core)
