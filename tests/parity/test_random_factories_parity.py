"""randint, randint_like, randperm, rand_like, randn_like, as_tensor, tril_indices/triu_indices.

The random values come from each library's own generator, so the programs compare what does
not depend on them: shapes, dtypes, strides, ranges, that a permutation holds each value once,
``_version``, requires_grad, and the refusals word for word.
"""

import numpy as np
import pytest

from .harness import Registry, catch, check_parity, meta

pytestmark = pytest.mark.parity

prog = Registry()


def _in_range(x, lo, hi):
    a = np.asarray(x.tolist(), dtype=np.float64)
    return bool(((a >= lo) & (a < hi)).all())


@prog
def randint_forms_dtypes_and_ranges(t):
    res = {}
    for name, make, lo, hi in (("high", lambda: t.randint(5, (40, 3)), 0, 5),
                               ("low high", lambda: t.randint(-4, 3, (50,)), -4, 3),
                               ("keywords", lambda: t.randint(low=2, high=9, size=(7,)), 2, 9),
                               ("high keyword", lambda: t.randint(high=3, size=(2, 2)), 0, 3),
                               ("float32", lambda: t.randint(6, (30,), dtype=t.float32), 0, 6),
                               ("uint8", lambda: t.randint(250, (30,), dtype=t.uint8), 0, 250),
                               ("bool", lambda: t.randint(0, 2, (9,), dtype=t.bool), 0, 2),
                               ("empty", lambda: t.randint(-1, 3, (0, 2)), -1, 3)):
        x = make()
        res[name] = {"meta": meta(x), "in range": _in_range(x, lo, hi), "version": x._version,
                     "requires_grad": x.requires_grad, "grad_fn": x.grad_fn is None}
    x = t.randint(5, (3,), dtype=t.float32, requires_grad=True)
    res["requires_grad"] = [x.requires_grad, x.is_leaf, x._version]
    return res


@prog
def randint_refusals(t):
    return {
        "equal bounds": catch(lambda: t.randint(5, 5, (2,))),
        "reversed": catch(lambda: t.randint(5, 2, (2,))),
        "negative high": catch(lambda: t.randint(-3, (2,))),
        "bool range": catch(lambda: t.randint(5, (2,), dtype=t.bool)),
        "uint8 range": catch(lambda: t.randint(300, (2,), dtype=t.uint8)),
        "int size": catch(lambda: t.randint(5, 2)),
        "float high": catch(lambda: t.randint(5.5, (2,))),
        "negative size": catch(lambda: t.randint(5, (2, -1))),
        "int requires_grad": catch(lambda: t.randint(5, (2,), requires_grad=True)),
    }


@prog
def randint_like_keeps_input_layout(t):
    x = t.ones(2, 3).t()
    a = t.randint_like(x, 5)
    b = t.randint_like(x, 2, 5, dtype=t.int64)
    c = t.randint_like(t.ones(4, dtype=t.bool), 2)
    return {"a": meta(a), "a range": _in_range(a, 0, 5), "b": meta(b),
            "b range": _in_range(b, 2, 5), "c": meta(c), "versions": [a._version, b._version],
            "equal bounds": catch(lambda: t.randint_like(x, 5, 5)),
            "float bound": catch(lambda: t.randint_like(x, 2.5))}


@prog
def randperm_holds_each_value_once(t):
    res = {}
    for n, d in ((0, "int64"), (1, "int64"), (7, "int64"), (300, "int64"), (256, "uint8"),
                 (128, "int8"), (50, "float32"), (2049, "float16"), (300, "bfloat16"),
                 (40, "int32")):
        x = t.randperm(n, dtype=getattr(t, d))
        vals = sorted(x.tolist())
        res[f"{n} {d}"] = {"meta": meta(x), "a permutation": vals == list(range(n)),
                           "version": x._version}
    x = t.randperm(4, dtype=t.float64, requires_grad=True)
    res["requires_grad"] = [x.requires_grad, x.is_leaf]
    res["negative"] = catch(lambda: t.randperm(-1))
    res["uint8 overflow"] = catch(lambda: t.randperm(257, dtype=t.uint8))
    res["int8 overflow"] = catch(lambda: t.randperm(129, dtype=t.int8))
    res["bool"] = catch(lambda: t.randperm(2, dtype=t.bool))
    res["half limit"] = catch(lambda: t.randperm(2050, dtype=t.float16))
    res["float n"] = catch(lambda: t.randperm(2.5))
    res["int requires_grad"] = catch(lambda: t.randperm(5, requires_grad=True))
    return res


@prog
def rand_like_and_randn_like(t):
    x = t.ones(2, 3).t()
    r = t.rand_like(x)
    n = t.randn_like(x, dtype=t.float64)
    h = t.rand_like(t.ones(5, dtype=t.float16))
    g = t.randn_like(x, requires_grad=True)
    return {"rand_like": meta(r), "in [0, 1)": _in_range(r, 0, 1), "randn_like": meta(n),
            "half": meta(h), "grad": [g.requires_grad, g.is_leaf, g._version],
            "versions": [r._version, n._version],
            "int rand_like": catch(lambda: t.rand_like(t.ones(2, dtype=t.int64))),
            "int randn_like": catch(lambda: t.randn_like(t.ones(2, dtype=t.int64))),
            "not a tensor": catch(lambda: t.rand_like([1.0, 2.0]))}


@prog
def as_tensor_shares_or_copies(t):
    a = np.arange(4.0)
    shared = t.as_tensor(a)
    a[0] = 9.0
    copied = t.as_tensor(np.arange(4.0), dtype=t.float32)
    b = np.arange(3.0)
    c = t.as_tensor(b, dtype=t.float32)
    b[0] = 7.0
    x = t.ones(2)
    y = t.ones(2, requires_grad=True)
    z = t.as_tensor(y, dtype=t.float64)
    return {"shared": shared, "shared dtype": str(shared.dtype), "copied": copied, "c": c,
            "same object": t.as_tensor(x) is x,
            "same object, same dtype": t.as_tensor(x, dtype=t.float32) is x,
            "other dtype is new": t.as_tensor(x, dtype=t.float64) is x,
            "graph": None if z.grad_fn is None else type(z.grad_fn).__name__,
            "list": t.as_tensor([1, 2]), "scalar": t.as_tensor(1.5),
            "nested": t.as_tensor([[1.0, 2.0], [3.0, 4.0]], dtype=t.float64),
            "bad dtype": catch(lambda: t.as_tensor([1, 2], dtype=5)),
            "ragged": catch(lambda: t.as_tensor([[1, 2], [3]]))}


@prog
def tril_and_triu_indices(t):
    res = {}
    for row, col in ((3, 3), (3, 5), (5, 2), (0, 0), (1, 4), (4, 0)):
        for off in (-2, -1, 0, 1, 3):
            res[f"tril {row} {col} {off}"] = t.tril_indices(row, col, off)
            res[f"triu {row} {col} {off}"] = t.triu_indices(row, col, off)
    res["int32"] = t.tril_indices(3, 3, dtype=t.int32)
    res["meta"] = meta(t.triu_indices(4, 4))
    res["negative row"] = catch(lambda: t.tril_indices(-1, 3))
    res["negative col"] = catch(lambda: t.triu_indices(3, -2))
    res["float dtype"] = catch(lambda: t.tril_indices(3, 3, dtype=t.float32))
    res["bool dtype"] = catch(lambda: t.triu_indices(3, 3, dtype=t.bool))
    res["float row"] = catch(lambda: t.tril_indices(2.5, 3))
    return res


@pytest.mark.parametrize("program", prog.params())
def test_random_factories_parity(program, torch_mod, core):
    check_parity(program, torch_mod, core)
