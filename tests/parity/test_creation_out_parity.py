"""out= of the factories: torch.zeros/ones/full/empty/arange(..., out=t).

A factory's out= kernel calls ``resize_`` on out (silently: no resize_output warning), keeps
an out of the right shape as it is (strides included), and writes it once (``_version`` + 1).
``empty`` only resizes (a version step only when the shape changes); ``arange`` resizes only
when the number of elements differs, warning if out had elements. Each program runs on torch
and on the core; the harness compares values, layouts, versions, warnings and errors.
"""

import pytest

from .harness import Registry, catch, check_parity, meta, same_storage, warned

pytestmark = pytest.mark.parity

prog = Registry()


@pytest.fixture(autouse=True)
def _default_determinism(torch_mod):
    """The parity session turns on torch.use_deterministic_algorithms, under which empty's
    out= also fills out with NaN (one more version step); these programs compare PyTorch's
    default mode, which the core follows."""
    torch_mod.use_deterministic_algorithms(False)
    yield
    torch_mod.use_deterministic_algorithms(True)


def _seen(t, out, r):
    return {"same_object": r is out, "meta": meta(out), "version": out._version, "out": out}


@prog
def zeros_ones_full_into_out_of_every_size(t):
    res = {}
    for name, make in (("zeros", lambda o: t.zeros(2, 3, out=o)),
                       ("ones", lambda o: t.ones(2, 3, out=o)),
                       ("full", lambda o: t.full((2, 3), 7.0, out=o))):
        for shape in ((7,), (6,), (2, 3), (0,), (1, 2, 3)):
            out = t.empty(shape).fill_(5.0) if shape != (0,) else t.empty(shape)
            r, w = warned(lambda make=make, out=out: make(out))
            res[f"{name} {shape}"] = {**_seen(t, out, r), "warnings": w}
    return res


@prog
def zeros_into_a_transposed_out_keeps_its_strides(t):
    out = t.empty(3, 2).t()
    r = t.zeros(2, 3, out=out)
    moved = t.empty(3, 4)[:, :2]  # six elements, another shape: contiguous again
    t.ones(2, 3, out=moved)
    return {"kept": _seen(t, out, r), "reshaped": meta(moved), "values": moved}


@prog
def zeros_into_a_view_grows_the_shared_storage(t):
    base = t.empty(4)
    view = base[1:]
    t.zeros(10, out=view)
    return {"view": meta(view), "shared": same_storage(view, base),
            "nbytes": base.untyped_storage().nbytes(), "base_version": base._version}


@prog
def factories_into_an_integer_out_take_its_dtype(t):
    i = t.empty(2, 3, dtype=t.int32)
    t.full((2, 3), 7.5, out=i)
    b = t.empty(2, 3, dtype=t.bool)
    t.full((2, 3), 2, out=b)
    z = t.empty(4, dtype=t.int64)
    t.zeros(4, out=z)
    a = t.empty(5, dtype=t.int64)
    t.arange(5, out=a)
    h = t.empty(5, dtype=t.float16)
    t.arange(5, out=h)
    return {"full int32": i, "full bool": b, "zeros int64": z, "arange int64": a,
            "arange float16": h, "versions": [x._version for x in (i, b, z, a, h)]}


@prog
def factory_out_refusals(t):
    f = t.empty(2, 3)
    return {
        "dtype mismatch": catch(lambda: t.zeros(2, 3, out=f, dtype=t.int64)),
        "dtype mismatch full": catch(lambda: t.full((2, 3), 1.5, out=f, dtype=t.float64)),
        "dtype mismatch arange": catch(
            lambda: t.arange(0, 1, 0.25, out=t.empty(4, dtype=t.int64), dtype=t.float32)),
        "dtype matches": catch(lambda: t.zeros(2, 3, out=f, dtype=t.float32)),
        "not a tensor": catch(lambda: t.zeros(2, 3, out=5)),
        "overflow": catch(lambda: t.full((2, 3), 300, out=t.empty(2, 3, dtype=t.uint8))),
        "memory_format": catch(
            lambda: t.empty(2, 3, out=f, memory_format=t.channels_last)),
        "version after refusals": f._version,
    }


@prog
def factory_out_under_autograd(t):
    res = {}
    for name, make in (("zeros", lambda o: t.zeros(2, 3, out=o)),
                       ("ones", lambda o: t.ones(2, 3, out=o)),
                       ("full", lambda o: t.full((2, 3), 1.0, out=o)),
                       ("empty", lambda o: t.empty(2, 3, out=o)),
                       ("arange", lambda o: t.arange(6, out=o))):
        leaf = t.empty(2, 3, requires_grad=True)
        res[name] = catch(lambda make=make, leaf=leaf: make(leaf))
        with t.no_grad():
            res[name + " no_grad"] = catch(lambda make=make, leaf=leaf: meta(make(leaf)))
    plain = t.empty(2, 3)
    r = t.zeros(2, 3, out=plain, requires_grad=True)
    res["requires_grad=True"] = {"same": r is plain, "requires_grad": plain.requires_grad,
                                 "is_leaf": plain.is_leaf}
    res["requires_grad=True int"] = catch(
        lambda: t.zeros(2, 3, out=t.empty(2, 3, dtype=t.int64), requires_grad=True))
    return res


@prog
def empty_into_out_resizes_only(t):
    res = {}
    for shape in ((5,), (6,), (2, 3), (0,)):
        out = t.empty(shape)
        r = t.empty(2, 3, out=out)
        res[str(shape)] = {"same_object": r is out, "meta": meta(out), "version": out._version}
    return res


@prog
def arange_into_out(t):
    res = {}
    for shape in ((7,), (6,), (2, 3), (0,), (3,)):
        out = t.empty(shape)
        r, w = warned(lambda out=out: t.arange(6, out=out))
        res[str(shape)] = {**_seen(t, out, r), "warnings": w}
    strided = t.empty(10)[::2]
    t.arange(1, 11, 2, out=strided)
    res["strided"] = {"meta": meta(strided), "values": strided}
    f = t.empty(4)
    t.arange(0, 1, 0.25, out=f)
    res["float step"] = f
    return res


@prog
def random_factories_into_out(t):
    """The values are each library's own draws: layouts, versions and refusals compare."""
    res = {}
    cases = (("randint", lambda o: t.randint(5, (2, 3), out=o), (4,), t.int64),
             ("randint transposed", lambda o: t.randint(5, (2, 3), out=o), (3, 2), t.int64),
             ("randint float out", lambda o: t.randint(5, (2, 3), out=o), (2, 3), t.float32),
             ("randperm", lambda o: t.randperm(5, out=o), (3,), t.int64),
             ("randperm same", lambda o: t.randperm(5, out=o), (5,), t.float32),
             ("rand transposed", lambda o: t.rand(2, 3, out=o), (3, 2), t.float32),
             ("rand grown", lambda o: t.rand(2, 3, out=o), (4,), t.float64),
             ("randn transposed", lambda o: t.randn(2, 3, out=o), (3, 2), t.float32),
             ("randn grown", lambda o: t.randn(2, 3, out=o), (4,), t.float32),
             ("randn same", lambda o: t.randn(2, 3, out=o), (2, 3), t.float32))
    for name, make, shape, d in cases:
        out = t.empty(shape, dtype=d)
        if name.endswith("transposed"):
            out = out.t()
        r = make(out)
        res[name] = {"same": r is out, "meta": meta(out), "version": out._version}
    strided = t.empty(10, dtype=t.int64)[::2]
    t.randperm(5, out=strided)
    res["randperm strided"] = {"meta": meta(strided), "values": sorted(strided.tolist())}
    res["randint range"] = catch(lambda: t.randint(5, 5, (2,), out=t.empty(7)))
    res["randint dtype"] = catch(
        lambda: t.randint(5, (2, 3), out=t.empty(2, 3), dtype=t.int32))
    res["rand int out"] = catch(lambda: t.rand(2, 3, out=t.empty(2, 3, dtype=t.int64)))
    res["randn int out"] = catch(lambda: t.randn(2, 3, out=t.empty(2, 3, dtype=t.int64)))
    for name, make in (("randint", lambda o: t.randint(5, (2, 3), out=o)),
                       ("randperm", lambda o: t.randperm(6, out=o)),
                       ("rand", lambda o: t.rand(2, 3, out=o)),
                       ("randn", lambda o: t.randn(2, 3, out=o))):
        res[name + " requires grad"] = catch(
            lambda make=make: make(t.empty(6, requires_grad=True)))
    with t.no_grad():
        res["randn requires grad, no_grad"] = catch(
            lambda: t.randn(2, 3, out=t.empty(2, 3, requires_grad=True)))
    return res


@pytest.mark.parametrize("program", prog.params())
def test_creation_out_parity(program, torch_mod, core):
    check_parity(program, torch_mod, core)
