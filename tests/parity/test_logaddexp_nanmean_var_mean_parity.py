"""torch.logaddexp / logaddexp2, nanmean, count_nonzero, var_mean / std_mean against torch 2.13.

logaddexp(2): element-wise with promotion and out=, floating kernels only, a node saving self
and other. nanmean: nansum then an in-place division by the count of non-NaN cells
(DivBackward0 over NansumBackward0, the count saved, the result at version 1). count_nonzero:
an int64 count. var_mean/std_mean: one node for both outputs; ``_saved_correction`` tells
which of torch's three forms the call took; std_mean also saves the std (``_saved_result0``).
"""

import math

import numpy as np
import pytest

from .harness import Raised, Registry, arr, catch, check_parity, graph, meta, upstream, warned

pytestmark = [pytest.mark.parity,
              pytest.mark.filterwarnings("ignore:An output with one or more elements")]

prog = Registry()

_EDGES = [0.0, -0.0, math.inf, -math.inf, math.nan, 80.0, -80.0, 1e-30, 3.0]


def _saved(fn):
    out = {}
    for n in dir(fn):
        if n.startswith("_saved_"):
            v = getattr(fn, n)
            out[n] = ("tensor", tuple(v.shape), str(v.dtype)) if hasattr(v, "shape") else v
    return out


# --------------------------------------------------------------------------- logaddexp
def _lae_program(name, op, a_shape, b_shape, grads=(True, True)):
    def program(t):
        a = t.tensor(arr(*a_shape, seed=1, low=-4, high=4), requires_grad=grads[0])
        b = t.tensor(arr(*b_shape, seed=2, low=-4, high=4), requires_grad=grads[1])
        y = getattr(t, op)(a, b)
        obs = {"y": y, "meta": meta(y), "graph": graph(y.grad_fn, 2), "saved": _saved(y.grad_fn),
               "method": getattr(a.detach(), op)(b.detach())}
        y.backward(upstream(t, y))
        return {**obs, "a.grad": a.grad, "b.grad": b.grad}
    program.__name__ = name
    prog(program)


for _op in ("logaddexp", "logaddexp2"):
    _lae_program(f"{_op}_same_shapes", _op, (2, 3), (2, 3))
    _lae_program(f"{_op}_broadcast", _op, (2, 3), (3,))
    _lae_program(f"{_op}_broadcast_other_first", _op, (3,), (4, 1))
    _lae_program(f"{_op}_only_self_grad", _op, (2, 3), (2, 3), grads=(True, False))
    _lae_program(f"{_op}_only_other_grad", _op, (3,), (2, 3), grads=(False, True))


@prog
def logaddexp_edge_values(t):
    x = np.array(_EDGES, dtype=np.float32)
    a, b = np.repeat(x, len(x)), np.tile(x, len(x))
    out = {}
    for op in ("logaddexp", "logaddexp2"):
        for dt in (t.float32, t.float64, t.float16, t.bfloat16):
            out[f"{op}_{dt}"] = getattr(t, op)(t.tensor(a).to(dt), t.tensor(b).to(dt))
    return out


@prog
def logaddexp_dtypes_layouts_and_errors(t):
    x, ints = t.tensor(arr(3, 4, seed=3)), t.tensor(arr(3, 4, seed=4, dtype=np.int64,
                                                        low=-3, high=3))
    calls = {
        "float_int": lambda: t.logaddexp(x, ints), "int_float": lambda: t.logaddexp2(ints, x),
        "double_half": lambda: t.logaddexp(x.double(), x.half()),
        "transposed": lambda: (lambda r: (r, meta(r)))(t.logaddexp(x.t(), x.t())),
        "ints": lambda: t.logaddexp(ints, ints), "bools": lambda: t.logaddexp2(ints > 0, ints > 0),
        "number": lambda: t.logaddexp(x, 2.0), "method_number": lambda: x.logaddexp2(1),
        "list": lambda: t.logaddexp([1.0], x), "shapes": lambda: t.logaddexp(x, x[:2]),
        "none": lambda: x.logaddexp(None), "no_inplace": lambda: hasattr(x, "logaddexp_"),
    }
    return {name: catch(fn) for name, fn in calls.items()}


@prog
def logaddexp_out(t):
    a, b = t.tensor(arr(2, 3, seed=5)), t.tensor(arr(3, seed=6))
    g = t.tensor(arr(3, seed=7), requires_grad=True)
    res = {}
    for name, x, y, o in (("fits", a, b, t.zeros(2, 3)), ("resize", a, b, t.zeros(4)),
                          ("transposed", a, b, t.zeros(3, 2).t()),
                          ("double", a, b, t.zeros(2, 3, dtype=t.float64)),
                          ("int_out", a, b, t.zeros(2, 3, dtype=t.int64)),
                          ("grad", g, b, t.zeros(3)), ("alias", a, b, a)):
        for op in ("logaddexp", "logaddexp2"):
            o2 = o.clone() if name != "alias" else a.clone()
            first = x if name != "alias" else o2
            r, w = warned(lambda op=op, first=first, y=y, o2=o2: getattr(t, op)(first, y, out=o2))
            # (o2 as float32: the result is computed in float32 and cast; torch's vector loop
            # (Sleef) and NumPy may differ in the last bit of a float32 logaddexp2)
            res[f"{op}_{name}"] = {"r": r if isinstance(r, Raised) else r is o2, "o": o2.float(),
                                   "meta": meta(o2), "version": o2._version, "warned": w}
    return res


# --------------------------------------------------------------------------- nanmean
@prog
def nanmean_graph_and_values(t):
    raw = arr(3, 4, seed=8)
    raw[0, 1] = raw[2, :] = np.nan
    a = t.tensor(raw, requires_grad=True)
    h = a * 1
    y, z, w = h.nanmean(), t.nanmean(h, 1), h.nanmean((0, 1), keepdim=True)
    obs = {"y": y, "z": z, "w": w, "graph": graph(z.grad_fn, 3), "saved": _saved(z.grad_fn),
           "versions": [y._version, z._version], "dim0": h.nanmean(0),
           "double": t.nanmean(h.double(), -1), "dtype": h.nanmean(dtype=t.float64),
           "half": h.half().nanmean(1), "empty": t.zeros(0, 3).nanmean(0)}
    (z * t.tensor([1.0, 2.0, 3.0])).sum().backward()
    return {**obs, "a.grad": a.grad}


@prog
def nanmean_errors_and_out(t):
    x = t.tensor(arr(2, 3, seed=9))
    x[0, 0] = float("nan")
    ints = t.arange(6).reshape(2, 3)
    calls = {"ints": lambda: ints.nanmean(), "bools": lambda: t.nanmean(ints > 2),
             "dim_range": lambda: x.nanmean(2), "dtype_int": lambda: x.nanmean(dtype=t.int64),
             "keepdim_int": lambda: x.nanmean(0, 1), "list": lambda: t.nanmean([1.0])}
    res = {name: catch(fn) for name, fn in calls.items()}
    for name, args, o in (("all", (), t.zeros(())), ("dim", (1,), t.zeros(2)),
                          ("resize", (0,), t.zeros(5)), ("keep", (1, True), t.zeros(2, 1)),
                          ("double", (1,), t.zeros(2, dtype=t.float64)),
                          ("int_out", (1,), t.zeros(2, dtype=t.int64))):
        r, w = warned(lambda args=args, o=o: t.nanmean(x, *args, out=o))
        res[f"out_{name}"] = {"r": r if isinstance(r, Raised) else r is o, "o": o,
                              "version": o._version, "warned": w}
    return res


# --------------------------------------------------------------------------- count_nonzero
@prog
def count_nonzero_forms(t):
    raw = np.array([[0, 1.5, -0.0, 2], [3, 0, np.nan, 0], [0, 0, 0, 0]], dtype=np.float32)
    x = t.tensor(raw, requires_grad=True)
    calls = {
        "all": lambda: x.count_nonzero(), "dim": lambda: t.count_nonzero(x, 1),
        "dims": lambda: x.count_nonzero((0, 1)), "dims_list": lambda: t.count_nonzero(x, [1]),
        "negative": lambda: x.count_nonzero(-2), "keyword": lambda: x.count_nonzero(dim=0),
        "ints": lambda: t.count_nonzero(t.tensor([[0, 3], [-1, 0]])),
        "bools": lambda: t.count_nonzero(t.tensor([True, False, True]), 0),
        "scalar": lambda: t.tensor(0.0).count_nonzero(),
        "empty": lambda: t.zeros(0, 2).count_nonzero(0),
        "half": lambda: x.detach().half().count_nonzero(0),
        "repeated": lambda: x.count_nonzero((1, 1)), "range": lambda: x.count_nonzero(2),
        "float_dim": lambda: x.count_nonzero(1.0), "out": lambda: t.count_nonzero(x, out=x),
        "list": lambda: t.count_nonzero([1, 0]),
    }
    return {name: (lambda r: (r, r.requires_grad) if hasattr(r, "requires_grad") else r)(
        catch(fn)) for name, fn in calls.items()}


# --------------------------------------------------------------------------- var_mean, std_mean
def _vm_program(name, op, *args, **kwargs):
    def program(t):
        a = t.tensor(arr(3, 4, seed=10), requires_grad=True)
        h = a * 1
        s, m = getattr(t, op)(h, *args, **kwargs)
        fn = s.grad_fn
        obs = {"s": s, "m": m, "same_node": m.grad_fn is fn, "graph": graph(fn, 2),
               "saved": _saved(fn), "output_nr": [s.output_nr, m.output_nr]}
        (s * 2).sum().backward(retain_graph=True)
        first = a.grad.clone()
        a.grad = None
        (m * upstream(t, m)).sum().backward(retain_graph=True)
        second = a.grad.clone()
        a.grad = None
        (s * upstream(t, s) + m).sum().backward()
        return {**obs, "grads": [first, second, a.grad]}
    program.__name__ = name
    prog(program)


for _op in ("var_mean", "std_mean"):
    _vm_program(f"{_op}_all", _op)
    _vm_program(f"{_op}_dim", _op, 1)
    _vm_program(f"{_op}_dim_none_positional", _op, None)
    _vm_program(f"{_op}_unbiased_only", _op, False)
    _vm_program(f"{_op}_dims_unbiased_keepdim", _op, (0, 1), False, True)
    _vm_program(f"{_op}_correction", _op, dim=-1, correction=2, keepdim=True)
    _vm_program(f"{_op}_correction_zero", _op, correction=0)
    _vm_program(f"{_op}_unbiased_keyword", _op, 0, unbiased=False)
    _vm_program(f"{_op}_empty_dims", _op, [])


@prog
def var_mean_dtypes_and_errors(t):
    x = t.tensor(arr(3, 4, seed=11))
    calls = {
        "half": lambda: t.var_mean(x.half(), 1), "double": lambda: t.std_mean(x.double(), 0),
        "bfloat16": lambda: t.std_mean(x.bfloat16()),
        "single_row": lambda: t.var_mean(x[:1], 0), "empty": lambda: t.std_mean(t.zeros(0, 3), 0),
        "ints": lambda: t.var_mean(t.arange(3)), "bools": lambda: t.std_mean(x > 0),
        "dim_range": lambda: t.var_mean(x, 5), "two_ints": lambda: t.var_mean(x, 0, 1),
        "out": lambda: t.std_mean(x, out=x), "list": lambda: t.var_mean([1.0, 2.0]),
        "no_method": lambda: hasattr(x, "var_mean"), "keyword_input": lambda: t.var_mean(input=x),
    }
    return {name: catch(fn) for name, fn in calls.items()}


@prog
def var_mean_saves_self(t):
    h = t.tensor(arr(2, 3, seed=12), requires_grad=True) * 1
    v, m = t.var_mean(h, 1)
    s, m2 = t.std_mean(h * 1, 0)
    with t.no_grad():
        h.mul_(2)
    return {"var": catch(lambda: v.sum().backward()), "std_before": s._version}


@pytest.mark.parametrize("program", prog.params())
def test_logaddexp_nanmean_var_mean_parity(program, torch_mod, core):
    check_parity(program, torch_mod, core)
