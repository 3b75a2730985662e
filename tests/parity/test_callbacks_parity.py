"""apply_, map_, map2_: a Python function on every element, in place.

Compared: the order of the calls and the Python type of each argument, the values stored (with
torch's conversions of the answer: floats truncated into integer tensors, overflow, a str
refused), what an exception half-way leaves written, overlapping and expanded operands (each
call sees the earlier writes), ``_version`` (never stepped), broadcasting, and torch's
refusals word for word.
"""

import numpy as np
import pytest

from .harness import Registry, catch, check_parity

pytestmark = pytest.mark.parity

prog = Registry()


def _recorder(calls, answer):
    def fn(*args):
        calls.append(tuple((type(a).__name__, a) for a in args))
        return answer(*args)
    return fn


@prog
def apply_walks_in_row_major_order(t):
    x = t.arange(6.0).view(2, 3).t()
    calls = []
    r = x.apply_(_recorder(calls, lambda v: v * 2))
    return {"returns self": r is x, "x": x, "calls": calls, "version": x._version,
            "0-dim": t.tensor(2.0).apply_(lambda v: v * v),
            "empty": t.zeros(0).apply_(lambda v: 1 / 0)}


@prog
def apply_by_dtype(t):
    res = {}
    for dt in (t.float32, t.float64, t.float16, t.bfloat16, t.int64, t.int32, t.int16,
               t.int8, t.uint8, t.bool):
        calls = []
        x = t.tensor([0, 1, 2]).to(dt)
        x.apply_(_recorder(calls, lambda v: v / 3 if isinstance(v, float) else v))
        res[str(dt)] = {"x": x.float(), "calls": calls}
    return res


@prog
def what_apply_stores(t):
    res = {}
    for name, dt, answer in (
            ("float into int", t.int64, lambda v: v * 1.5 + 0.7),
            ("negative float into int", t.int32, lambda v: -v - 0.5),
            ("float into uint8", t.uint8, lambda v: 300.0), ("int into int8", t.int8,
                                                             lambda v: 200),
            ("int into int32", t.int32, lambda v: 2**40), ("int into int64", t.int64,
                                                             lambda v: 2**70),
            ("str into float", t.float32, lambda v: "a"),
            ("None into float", t.float32, lambda v: None),
            ("str into int", t.int64, lambda v: "a"), ("float into bool", t.bool,
                                                       lambda v: 0.5),
            ("int into bool", t.bool, lambda v: 2**70), ("str into bool", t.bool, lambda v: "a"),
            ("tensor into float", t.float32, lambda v: t.tensor(3.5)),
            ("int tensor into int", t.int64, lambda v: t.tensor(4)),
            ("float tensor into int", t.int64, lambda v: t.tensor(4.5)),
            ("numpy into float", t.float64, lambda v: np.float32(0.1)),
            ("numpy into int", t.int64, lambda v: np.int16(-3)),
            ("rounded once", t.float32, lambda v: 0.1 + v),
            ("half", t.float16, lambda v: 1 / 3 + v), ("bfloat16", t.bfloat16,
                                                       lambda v: 1 / 3 + v),
            ("nan into int", t.int64, lambda v: float("nan")),
            ("inf into int32", t.int32, lambda v: float("inf")),
            ("-1 into uint8 (wraps)", t.uint8, lambda v: -255 * v + 254),
            ("-256 into uint8", t.uint8, lambda v: -256), ("-0.5 into uint8", t.uint8,
                                                           lambda v: -0.5),
            ("255.9 into uint8", t.uint8, lambda v: 255.9), ("-128.9 into int8", t.int8,
                                                            lambda v: -128.9),
            ("1e300 into float32", t.float32, lambda v: 1e300)):
        x = t.tensor([1, 2]).to(dt)
        res[name] = {"raised": catch(lambda x=x, answer=answer: x.apply_(answer)),
                     "x": x.double()}
    return res


@prog
def an_exception_stops_the_walk(t):
    y = t.zeros(4)
    n = [0]

    def halfway(v):
        n[0] += 1
        if n[0] == 3:
            raise ValueError("stop")
        return 7.0
    return {"raised": catch(lambda: y.apply_(halfway)), "y": y, "version": y._version,
            "not callable": catch(lambda: t.zeros(2).apply_(3)),
            "not callable, empty": t.zeros(0).apply_(3).shape}


@prog
def overlapping_and_expanded_operands(t):
    q = t.arange(4.0)
    q[1:].map_(q[:-1], lambda u, v: u + v)
    e = t.zeros(3).expand(2, 3)
    e.apply_(lambda v: v + 1)
    f = t.arange(3.0)
    f.map_(f.flip(0), lambda u, v: u + v)
    g = t.arange(3.0)
    g.map_(g, lambda u, v: u * v)
    return {"running sum": q, "expanded": e,
            "flipped": f, "itself": g}


@prog
def map_and_map2_broadcast(t):
    a = t.arange(6.0).view(2, 3)
    calls = []
    a.map_(t.tensor([10.0, 20.0, 30.0]), _recorder(calls, lambda u, v: u + v))
    b = t.zeros(2, 3)
    b.map2_(t.ones(3), t.full((2, 1), 2.0), lambda x, y, z: x + y * z)
    return {"a": a, "calls": calls, "b": b, "versions": (a._version, b._version),
            "keywords": t.zeros(2).map_(other=t.ones(2), callable=lambda u, v: u + v),
            "map2_ keywords": t.zeros(2).map2_(x=t.ones(2), y=t.ones(2),
                                               callable=lambda u, v, w: v + w)}


@prog
def refusals(t):
    w = t.zeros(2, requires_grad=True)
    f, i = t.zeros(2), t.zeros(2, dtype=t.int64)
    res = {
        "apply_ no argument": catch(lambda: f.apply_()),
        "apply_ two": catch(lambda: f.apply_(abs, abs)),
        "apply_ keyword": catch(lambda: f.apply_(callable=abs)),
        "apply_ leaf": catch(lambda: w.apply_(abs)),
        "apply_ non-leaf": catch(lambda: (w * 1).apply_(abs)),
        "map_ other requires grad": catch(lambda: f.map_(w, lambda u, v: u)),
        "map_ self requires grad": catch(lambda: w.map_(f, lambda u, v: u)),
        "map_ dtype": catch(lambda: f.map_(i, lambda u, v: u)),
        "map_ dtype the other way": catch(lambda: i.map_(f, lambda u, v: u)),
        "map_ not a tensor": catch(lambda: f.map_(3, lambda u, v: u)),
        "map_ missing": catch(lambda: f.map_(f)),
        "map_ broadcast self": catch(lambda: f.map_(t.zeros(2, 2), lambda u, v: u)),
        "map_ not callable": catch(lambda: f.map_(f, 3)),
        "map2_ x dtype": catch(lambda: f.map2_(i, f, lambda a, b, c: a)),
        "map2_ y dtype": catch(lambda: f.map2_(f, i, lambda a, b, c: a)),
        "map2_ requires grad": catch(lambda: f.map2_(f, w, lambda a, b, c: a)),
        "map2_ missing": catch(lambda: f.map2_(f, f)),
    }
    with t.no_grad():
        res["apply_ leaf under no_grad"] = catch(lambda: w.apply_(abs))
    with t.inference_mode():
        inf = t.zeros(2)
    res["inference tensor"] = inf.apply_(lambda v: v + 1)
    return res


@pytest.mark.parametrize("prog", prog.params())
def test_parity(prog, torch_mod, core):
    check_parity(prog, torch_mod, core)
