"""min/amin/argmin, the mirror of max/amax/argmax: values, indices (ties, NaN), node names,
gradients (ties: amin and min() share evenly, min(dim) gives all to one index), out= forms and
the errors for nothing to reduce. The same programs on max/amax/argmax where those errors were
missing too."""

import numpy as np
import pytest

from .harness import Registry, arr, catch, check_parity, fn_name, leaf, upstream

pytestmark = pytest.mark.parity

prog = Registry()

NAN = float("nan")
TIES = np.array([[1.0, 0.0, 0.0], [2.0, -1.0, -1.0]], np.float32)
WITH_NAN = np.array([[1.0, NAN, 0.0, NAN], [3.0, 0.0, 0.0, 1.0]], np.float32)


@prog
def min_values_and_indices(t):
    x = t.tensor(arr(3, 4, seed=31))
    r = x.min(1)
    v, i = x.min(0, keepdim=True)
    return {
        "all": x.min(), "values": r.values, "indices": r.indices, "r0": r[0], "kv": v, "ki": i,
        "type": type(r).__name__, "repr": repr(t.tensor([1.0, 0.0]).min(0)),
        "module": t.min(x), "module_dim": t.min(x, dim=1)[0], "binary": t.min(x, t.zeros(3, 4)),
        "amin": x.amin(1), "amin_keep": x.amin(0, keepdim=True), "amin_all": x.amin(),
        "amin_dims": x.amin((0, 1)), "amin_module": t.amin(x, dim=-1),
        "argmin": x.argmin(), "argmin0": x.argmin(0), "argmin_keep": x.argmin(1, keepdim=True),
        "argmin_all_keep": x.argmin(keepdim=True), "argmin_module": t.argmin(x, dim=1),
    }


@prog
def min_ties_and_nan(t):
    x, n = t.tensor(TIES), t.tensor(WITH_NAN)
    return {
        "idx": x.min(1).indices, "argmin": x.argmin(1), "argmin_all": x.argmin(),
        "nan_all": n.min(), "nan_dim": n.min(1), "nan_argmin": n.argmin(1),
        "nan_argmin_all": n.argmin(), "nan_amin": n.amin(1),
        "nan_argmax": n.argmax(1), "nan_max": n.max(1),
    }


@prog
def min_dtypes(t):
    i = t.tensor([[3, -1, 2], [0, 5, -1]])
    b = t.tensor([True, False, True])
    return {"int": i.min(1), "int_all": i.min(), "int_amin": i.amin(0), "int_arg": i.argmin(),
            "bool_all": b.min(), "bool_dim": b.min(0), "bool_max_dim": b.max(0),
            "bool_amin": b.amin(), "bool_argmin": catch(lambda: b.argmin()),
            "bool_argmax": catch(lambda: b.argmax())}


@prog
def min_zero_dim(t):
    s = t.tensor(3.0)
    return {"min0": s.min(0), "min_keep": s.min(-1, keepdim=True), "amin0": s.amin(0),
            "argmin0": s.argmin(0, keepdim=True), "max0": s.max(0), "bad": catch(lambda: s.min(1))}


@prog
def min_max_nothing_to_reduce(t):
    e, e2 = t.zeros(0), t.zeros(2, 0)
    out = {}
    for op in ("min", "max", "amin", "amax", "argmin", "argmax"):
        out[op] = catch(lambda op=op: getattr(e, op)())
        out[op + "_d0"] = catch(lambda op=op: getattr(e, op)(0))
        out[op + "_2x0_d1"] = catch(lambda op=op: getattr(e2, op)(1))
        out[op + "_2x0_d0"] = catch(lambda op=op: getattr(e2, op)(0))
        out[op + "_keep"] = catch(lambda op=op: getattr(e, op)(keepdim=True))
    out["amin_dims"] = catch(lambda: e2.amin((0, 1)))
    out["amax_dims0"] = catch(lambda: e2.amax((0,)))
    return out


@prog
def min_bad_arguments(t):
    x = t.tensor(arr(2, 3, seed=32))
    return {
        "keepdim": catch(lambda: x.min(0, keepdim=1)),
        "amin_keepdim": catch(lambda: x.amin(0, keepdim=1)),
        "argmin_keepdim": catch(lambda: x.argmin(0, keepdim=1)),
        "range": catch(lambda: x.min(2)), "amin_range": catch(lambda: x.amin(-3)),
        "argmin_range": catch(lambda: x.argmin(5)),
    }


@prog
def min_out_forms(t):
    n = t.tensor(WITH_NAN)
    v, i = t.zeros(2), t.zeros(2, dtype=t.int64)
    r = t.min(n, 1, out=(v, i))
    a, am, m = t.zeros(2), t.zeros((), dtype=t.int64), t.zeros(())
    return {
        "pair": r, "pair_type": type(r).__name__, "same": (r[0] is v, r[1] is i),
        "amin": t.amin(n, 1, out=a), "argmin": t.argmin(n, out=am), "min": t.min(n, out=m),
        "amin_dtype": catch(lambda: t.amin(n, 1, out=t.zeros(2, dtype=t.float64))),
        "argmin_dtype": catch(lambda: t.argmin(n, out=t.zeros(()))),
        "pair_dtype": catch(lambda: t.min(n, 0, out=(t.zeros(4), t.zeros(4)))),
        "grad": catch(lambda: t.min(leaf(t, arr(2, seed=3)), out=t.zeros(()))),
    }


def _grad(forward, data):
    def program(t):
        x = leaf(t, data)
        y = forward(t, x)
        obs = {"y": y, "grad_fn": fn_name(y.grad_fn), "name": y.grad_fn.name()}
        y.backward(upstream(t, y))
        obs["grad"] = x.grad
        return obs

    return program


for _name, _fwd, _data in [
    ("min_all", lambda t, x: x.min(), arr(3, 4, seed=33)),
    ("min_all_ties", lambda t, x: x.min(), TIES),
    ("min_dim", lambda t, x: x.min(1).values, arr(3, 4, seed=33)),
    ("min_dim_ties", lambda t, x: x.min(1)[0], TIES),
    ("min_dim_keepdim", lambda t, x: x.min(0, keepdim=True)[0], TIES),
    ("min_0dim", lambda t, x: x[1, 2].min(0)[0], TIES),
    ("amin", lambda t, x: x.amin(1), arr(3, 4, seed=33)),
    ("amin_ties", lambda t, x: x.amin(1), TIES),
    ("amin_all_ties", lambda t, x: x.amin(), TIES),
    ("amin_keepdim_ties", lambda t, x: t.amin(x, 0, keepdim=True), TIES),
    ("max_0dim", lambda t, x: x[1, 2].max(0).values, TIES),
]:
    _p = _grad(_fwd, _data)
    _p.__name__ = "grad_" + _name
    prog(_p)


@prog
def min_saved_tensors(t):
    x = leaf(t, TIES)
    r, a, m = x.min(1), x.amin(1), x.min()
    return {
        "indices": r.values.grad_fn._saved_indices, "dim": r.values.grad_fn._saved_dim,
        "keepdim": r.values.grad_fn._saved_keepdim,
        "amin_result": a.grad_fn._saved_result, "amin_self": a.grad_fn._saved_self,
        "min_result": m.grad_fn._saved_result, "min_self": m.grad_fn._saved_self,
    }


@pytest.mark.parametrize("program", prog.params())
def test_min_parity(program, torch_mod, core):
    check_parity(program, torch_mod, core)
