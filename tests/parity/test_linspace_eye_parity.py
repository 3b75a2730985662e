"""torch.linspace, torch.logspace and torch.eye: values to the bit, dtypes, out=, refusals.

linspace's CPU kernel counts up from start for the first half and down from end for the
second, each element rounded once (a fused multiply-add), float16/bfloat16 rounding after
every Half operation; logspace raises ``base`` to such exponents in double. Floating results
are compared as their bit patterns (``view`` as an integer dtype), so one ulp counts.
"""

import pytest

from .harness import Registry, catch, check_parity, meta, warned

pytestmark = pytest.mark.parity

prog = Registry()

_BITS = {"float16": "int16", "bfloat16": "int16", "float32": "int32", "float64": "int64"}


def bits(t, x):
    name = str(x.dtype).replace("torch.", "")
    return x.view(getattr(t, _BITS[name])) if name in _BITS else x


_ENDS = [(0, 1), (-3.7, 11.3), (0, 10), (5, -7), (0.001, 3), (0.1, 0.7), (2, 2)]
_STEPS = (0, 1, 2, 3, 7, 16, 17, 33, 100, 257, 1500)


@prog
def linspace_bits_in_every_float_dtype(t):
    res = {}
    for d in ("float32", "float64", "float16", "bfloat16"):
        for a, b in _ENDS:
            for n in _STEPS:
                res[f"{d} {a} {b} {n}"] = bits(t, t.linspace(a, b, n, dtype=getattr(t, d)))
    res["default dtype"] = str(t.linspace(0, 10, 5).dtype)
    return res


@prog
def linspace_into_integers(t):
    res = {}
    for d in ("int64", "int32", "uint8"):
        for a, b in ((0, 10), (3, 250), (7, 7), (0, 1)):
            for n in (1, 2, 4, 5, 17, 64, 101):
                res[f"{d} {a} {b} {n}"] = t.linspace(a, b, n, dtype=getattr(t, d))
    res["negative"] = t.linspace(5, -7, 9, dtype=t.int64)
    return res


@prog
def logspace_bits(t):
    res = {}
    for d in ("float32", "float64", "float16", "bfloat16"):
        for a, b in ((0, 2), (-3.7, 1.3), (0.1, 0.7), (-2, -1)):
            for n in (1, 2, 5, 17, 40):
                res[f"{d} {a} {b} {n}"] = bits(t, t.logspace(a, b, n, dtype=getattr(t, d)))
    res["base 2"] = bits(t, t.logspace(0, 10, 11, base=2))
    res["base 0.5"] = bits(t, t.logspace(-1, 3, 9, base=0.5))
    res["int64"] = t.logspace(0, 3, 4, dtype=t.int64)
    res["int64 fractional"] = t.logspace(0, 2, 7, dtype=t.int64)
    return res


@prog
def linspace_logspace_arguments(t):
    return {
        "0-dim tensor ends": t.linspace(t.tensor(0.0), t.tensor(1.0), 5),
        "one step": t.linspace(3, 1, 1),
        "no steps": meta(t.linspace(0, 1, 0)),
        "requires_grad": t.linspace(0, 1, 4, requires_grad=True).requires_grad,
        "negative steps": catch(lambda: t.linspace(0, 1, -1)),
        "log negative steps": catch(lambda: t.logspace(0, 1, -2)),
        "float steps": catch(lambda: t.linspace(0, 1, 2.5)),
        "1-dim start": catch(lambda: t.linspace(t.tensor([0.0]), 1, 3)),
        "1-dim end": catch(lambda: t.logspace(0, t.tensor([1.0, 2.0]), 3)),
        "both tensors": catch(lambda: t.linspace(t.tensor(0.0), t.ones(2, 2), 3)),
    }


@prog
def linspace_logspace_out(t):
    res = {}
    for shape in ((7,), (6,), (2, 3), (0,)):
        for name in ("linspace", "logspace"):
            out = t.empty(shape)
            r, w = warned(lambda name=name, out=out: getattr(t, name)(0, 1, 6, out=out))
            res[f"{name} {shape}"] = {"same": r is out, "meta": meta(out), "warnings": w,
                                      "version": out._version, "bits": bits(t, out)}
    strided = t.empty(12)[::2]
    t.linspace(-1, 1, 6, out=strided)
    res["strided"] = {"meta": meta(strided), "bits": bits(t, strided)}
    i = t.empty(5, dtype=t.int64)
    t.linspace(0, 10, 5, out=i)
    res["int out"] = i
    res["dtype mismatch"] = catch(lambda: t.linspace(0, 1, 5, out=t.empty(5), dtype=t.float64))
    res["requires grad"] = catch(
        lambda: t.logspace(0, 1, 5, out=t.empty(5, requires_grad=True)))
    return res


@prog
def eye_values_dtypes_and_refusals(t):
    return {
        "square": t.eye(3),
        "wide": t.eye(2, 5),
        "tall": t.eye(4, 2),
        "bool": t.eye(2, 3, dtype=t.bool),
        "int": t.eye(3, dtype=t.int64),
        "half": t.eye(2, dtype=t.float16),
        "empty": meta(t.eye(0)),
        "empty rows": meta(t.eye(0, 3)),
        "requires_grad": t.eye(2, requires_grad=True).requires_grad,
        "negative n": catch(lambda: t.eye(-1)),
        "negative m": catch(lambda: t.eye(2, -1)),
        "float n": catch(lambda: t.eye(2.5)),
        "m by keyword": t.eye(2, m=3),
    }


@prog
def eye_out(t):
    res = {}
    for shape in ((7,), (3, 4), (2, 2), (0,)):
        out = t.empty(shape).fill_(5.0) if shape != (0,) else t.empty(shape)
        r, w = warned(lambda out=out: t.eye(3, 4, out=out))
        res[str(shape)] = {"same": r is out, "meta": meta(out), "warnings": w,
                           "version": out._version, "values": out}
    transposed = t.empty(4, 3).t()
    t.eye(3, 4, out=transposed)
    res["transposed"] = {"meta": meta(transposed), "values": transposed}
    res["dtype mismatch"] = catch(lambda: t.eye(2, out=t.empty(2, 2), dtype=t.int64))
    res["requires grad"] = catch(lambda: t.eye(2, out=t.empty(2, 2, requires_grad=True)))
    return res


@pytest.mark.parametrize("program", prog.params())
def test_linspace_eye_parity(program, torch_mod, core):
    check_parity(program, torch_mod, core)
