"""torch.normal in its four overloads (Tensor/Tensor, Tensor/float, float/Tensor,
float/float/size), with out= and generator=, and torch.bernoulli's out= form, side by side
with torch 2.13.

The two libraries draw from different generators, so no program compares drawn values. What
is compared: which overload a call binds to (the binding's errors word for word), the result's
shape, dtype, strides and version, what out= does to out (resize, warning, version, data
pointer), the order of the checks (out unchanged after an error), the nodes and what they
save, the gradients (zeros), and statistics of many draws as booleans with generous bounds.
"""

import numpy as np
import pytest

from .harness import Registry, catch, check_parity, fn_name, next_names, warned

pytestmark = pytest.mark.parity

prog = Registry()
N = 100_000


def _made(r):
    """What a call made, without its random values."""
    if not hasattr(r, "shape"):
        return r
    return {"shape": tuple(r.shape), "dtype": str(r.dtype), "stride": tuple(r.stride()),
            "version": r._version, "requires_grad": r.requires_grad,
            "grad_fn": fn_name(r.grad_fn)}


def _call(fn):
    return _made(catch(fn))


def _calls(t):
    z, o = t.zeros(2, 3), t.ones(2, 3)
    i64 = t.zeros(3, dtype=t.int64)
    return {
        "T,T": lambda: t.normal(z, o),
        "T,T broadcast": lambda: t.normal(t.zeros(2, 1), t.ones(3)),
        "T,T 0-dim mean": lambda: t.normal(t.tensor(1.0), t.ones(3)),
        "T,T 0-dim std": lambda: t.normal(z, t.tensor(2.0)),
        "T,T float64 std": lambda: t.normal(t.zeros(3), t.ones(3, dtype=t.float64)),
        "T,T float64 mean": lambda: t.normal(t.zeros(3, dtype=t.float64), t.ones(3)),
        "T,T float16 mean": lambda: t.normal(t.zeros(3, dtype=t.float16),
                                             t.ones(3, dtype=t.float64)),
        "T,T long std": lambda: t.normal(t.zeros(3), t.ones(3, dtype=t.int64)),
        "T,T bool std": lambda: t.normal(t.zeros(3), t.ones(3, dtype=t.bool)),
        "T,T transposed": lambda: t.normal(z.t(), o.t()),
        "T,T keywords": lambda: t.normal(std=t.ones(2), mean=t.zeros(2)),
        "T,T generator=None out=None": lambda: t.normal(z, o, generator=None, out=None),
        "T,f": lambda: t.normal(z, 2.0),
        "T,f default std": lambda: t.normal(z),
        "T,f keyword mean": lambda: t.normal(mean=z),
        "T,f int std": lambda: t.normal(z, 2),
        "T,f bool std": lambda: t.normal(z, True),
        "T,f numpy std": lambda: t.normal(z, np.float32(2.0)),
        "T,f float16": lambda: t.normal(t.zeros(3, dtype=t.float16), 1.0),
        "T,f bfloat16": lambda: t.normal(t.zeros(3, dtype=t.bfloat16), 1.0),
        "T,f float64": lambda: t.normal(t.zeros(3, dtype=t.float64), 1.0),
        "T,f transposed": lambda: t.normal(z.t(), 1.0),
        "T,f expanded": lambda: t.normal(t.zeros(1, 3).expand(2, 3), 1.0),
        "T,f permuted": lambda: t.normal(t.zeros(2, 3, 4).permute(2, 0, 1), 1.0),
        "T,f sliced": lambda: t.normal(t.zeros(4, 4)[::2, ::2], 1.0),
        "T,f 0-dim": lambda: t.normal(t.tensor(1.0), 2.0),
        "T,f empty": lambda: t.normal(t.zeros(0, 3), 1.0),
        "T,f empty int": lambda: t.normal(t.zeros(0, dtype=t.int64), 1.0),
        "f,T": lambda: t.normal(1.0, o),
        "f,T int mean": lambda: t.normal(1, o),
        "f,T numpy mean": lambda: t.normal(np.float64(1.0), o),
        "f,T keywords": lambda: t.normal(mean=1.0, std=o),
        "f,T float16": lambda: t.normal(1.5, t.ones(2, dtype=t.float16)),
        "f,T transposed": lambda: t.normal(1.0, o.t()),
        "f,T expanded": lambda: t.normal(1.0, t.ones(1, 3).expand(2, 3)),
        "f,f,size": lambda: t.normal(1.0, 2.0, (2, 3)),
        "f,f,size list": lambda: t.normal(1.0, 2.0, [2, 3]),
        "f,f,torch.Size": lambda: t.normal(1.0, 2.0, t.Size([2, 3])),
        "f,f,size keywords": lambda: t.normal(mean=1.0, std=2.0, size=(2, 3)),
        "f,f,size ints": lambda: t.normal(1, 2, (2, 3)),
        "f,f,size bool mean": lambda: t.normal(True, 2.0, (2, 3)),
        "f,f,() ": lambda: t.normal(1.0, 2.0, ()),
        "f,f,size 0-dim tensors": lambda: t.normal(t.tensor(1.0), t.tensor(2.0), (2, 3)),
        "f,f,size 0-dim mean": lambda: t.normal(t.tensor(1.0), 2.0, size=(2, 3)),
        "f,f,size float64": lambda: t.normal(1.0, 2.0, (2, 3), dtype=t.float64),
        "f,f,size float16": lambda: t.normal(1.0, 2.0, (2, 3), dtype=t.float16),
        "f,f,size requires_grad": lambda: t.normal(1.0, 2.0, (2, 3), requires_grad=True),
        "f,f,size empty long": lambda: t.normal(1.0, 2.0, (0, 3), dtype=t.int64),
        "f,f,size generator=None": lambda: t.normal(1.0, 2.0, (2, 3), generator=None),
        # errors
        "T,f std -1": lambda: t.normal(z, -1.0),
        "T,f std nan": lambda: t.normal(z, float("nan")),
        "T,f std -1 on empty": lambda: t.normal(t.zeros(0), -1.0),
        "T,f std -1 int mean": lambda: t.normal(i64, -1.0),
        "T,f int mean": lambda: t.normal(i64, 1.0),
        "T,f bool mean": lambda: t.normal(t.zeros(3, dtype=t.bool), 1.0),
        "T,f int8 mean": lambda: t.normal(t.zeros(3, dtype=t.int8), 1.0),
        "T,T negative std": lambda: t.normal(t.zeros(3), -t.ones(3)),
        "T,T nan std": lambda: t.normal(t.zeros(3), t.tensor([float("nan"), 1.0, 1.0])),
        "T,T negative std, empty": lambda: t.normal(t.zeros(0), t.tensor([-1.0])),
        "T,T int mean": lambda: t.normal(i64, t.ones(3)),
        "T,T empty int mean": lambda: t.normal(t.zeros(0, dtype=t.int64), t.zeros(0)),
        "T,T broadcast error": lambda: t.normal(t.zeros(2, 2), t.ones(3)),
        "T,T 6 vs 2x3": lambda: t.normal(t.zeros(6), t.ones(2, 3)),
        "T,T int mean, bad std": lambda: t.normal(i64, -t.ones(3)),
        "f,T negative std": lambda: t.normal(1.0, -o),
        "f,T long std": lambda: t.normal(1.0, t.ones(3, dtype=t.int64)),
        "f,T bool std": lambda: t.normal(1.0, t.ones(3, dtype=t.bool)),
        "f,f std -1": lambda: t.normal(1.0, -1.0, (2,)),
        "f,f std -2 long": lambda: t.normal(1.0, -2.0, (2, 3), dtype=t.int64),
        "f,f long": lambda: t.normal(1.0, 2.0, (2, 3), dtype=t.int64),
        "f,f long requires_grad": lambda: t.normal(1.0, 2.0, (2, 3), dtype=t.int64,
                                                   requires_grad=True),
        "f,f negative size": lambda: t.normal(1.0, 2.0, (2, -1)),
        "f,f negative size and std": lambda: t.normal(1.0, -2.0, (2, -1)),
        # the binding
        "f,f": lambda: t.normal(1.0, 2.0),
        "int,int": lambda: t.normal(1, 2),
        "f": lambda: t.normal(1.0),
        "()": lambda: t.normal(),
        "str,f": lambda: t.normal("a", 1.0),
        "T,str": lambda: t.normal(z, "a"),
        "T,None": lambda: t.normal(z, None),
        "T,complex": lambda: t.normal(z, 1j),
        "complex,T": lambda: t.normal(1j, o),
        "std= only": lambda: t.normal(std=o),
        "std=float only": lambda: t.normal(std=1.0),
        "mean=float": lambda: t.normal(mean=1.0),
        "mean=str": lambda: t.normal(mean="a"),
        "out= only": lambda: t.normal(out=t.zeros(2)),
        "f,f,int": lambda: t.normal(1.0, 2.0, 3),
        "f,f,int,int": lambda: t.normal(1.0, 2.0, 2, 3),
        "f,f,size,int": lambda: t.normal(1.0, 2.0, (2, 3), 5),
        "f,f,float size": lambda: t.normal(1.0, 2.0, (2.0, 3)),
        "T,T,size": lambda: t.normal(z, o, (2,)),
        "T,f,None": lambda: t.normal(z, 1.0, None),
        "T,f foo=": lambda: t.normal(z, 1.0, foo=1),
        "T mean= twice": lambda: t.normal(z, mean=z),
        "requires-grad 0-dim mean, size": lambda: t.normal(
            t.tensor(1.0, requires_grad=True), 2.0, (2, 3)),
        "dtype='a'": lambda: t.normal(1.0, 2.0, (2, 3), dtype="a"),
        "requires_grad=1": lambda: t.normal(1.0, 2.0, (2, 3), requires_grad=1),
        "f,T generator='a'": lambda: t.normal(1.0, o, generator="a"),
        "T,f out='a'": lambda: t.normal(z, 1.0, out="a"),
    }


@prog
def normal_binds_its_four_overloads(t):
    """Each call: the overload it binds to shows in the result's shape, dtype and strides
    (always contiguous), or the error PyTorch raises, word for word."""
    return {name: _call(fn) for name, fn in _calls(t).items()}


@prog
def normal_nodes_save_the_input_sizes(t):
    """NormalBackward1 (Tensor mean, float std), 2 (float mean, Tensor std), 3 (both
    tensors): edges to what requires grad, the sizes saved, zero gradients in each input's
    shape and dtype."""
    out = {}
    cases = {
        "T,T": lambda m, s: t.normal(m, s),
        "T,f": lambda m, s: t.normal(m, 2.0),
        "f,T": lambda m, s: t.normal(1.0, s),
        "T,T std only": lambda m, s: t.normal(m.detach(), s),
        "T,T mean only": lambda m, s: t.normal(m, s.detach()),
    }
    for name, call in cases.items():
        m = t.zeros(2, 3, requires_grad=True)
        s = t.ones(3, dtype=t.float64, requires_grad=True)
        y = call(m, s)
        fn = y.grad_fn
        saved = {k: getattr(fn, k) for k in ("_saved_mean_sym_sizes", "_saved_std_sym_sizes")
                 if hasattr(fn, k)}
        (y * 3).sum().backward()
        out[name] = {"made": _made(y), "next": next_names(fn), "saved": saved,
                     "m.grad": m.grad, "s.grad": s.grad}
    h = t.zeros(2, 3, dtype=t.float16, requires_grad=True)
    d = t.ones(3, dtype=t.float64, requires_grad=True)
    y = t.normal(h, d)
    y.sum().backward()
    out["float16 mean, float64 std"] = (_made(y), h.grad, d.grad)
    m = t.zeros(2, 3, requires_grad=True)
    with t.no_grad():
        out["no_grad"] = _made(t.normal(m, 1.0))
    y = t.normal(m * 2, 1.0)
    out["non-leaf mean"] = (next_names(y.grad_fn), next_names(y.grad_fn.next_functions[0][0]))
    return out


def _out_calls(t):
    z = t.zeros(2, 3)
    return {
        "T,T": lambda o: t.normal(z, t.ones(2, 3), out=o),
        "T,f": lambda o: t.normal(z, 1.0, out=o),
        "f,T": lambda o: t.normal(1.0, t.ones(2, 3), out=o),
        "f,f,size": lambda o: t.normal(1.0, 2.0, (2, 3), out=o),
        "T,T broadcast": lambda o: t.normal(t.zeros(2, 1), t.ones(3), out=o),
        "T,f row mean": lambda o: t.normal(t.zeros(1, 3), 1.0, out=o),
        "T,f int mean": lambda o: t.normal(t.zeros(2, 3, dtype=t.int64), 1.0, out=o),
        "f,T 1-D std": lambda o: t.normal(1.0, t.ones(3), out=o),
        "T,f std -2": lambda o: t.normal(z, -2.0, out=o),
        "T,T std -1": lambda o: t.normal(z, -t.ones(2, 3), out=o),
        "f,f std -2": lambda o: t.normal(1.0, -2.0, (2, 3), out=o),
        "f,f std -2 other size": lambda o: t.normal(1.0, -2.0, (4,), out=o),
        "f,f dtype float64": lambda o: t.normal(1.0, 2.0, (2, 3), out=o, dtype=t.float64),
        "f,f dtype float32": lambda o: t.normal(1.0, 2.0, (2, 3), out=o, dtype=t.float32),
        "f,f requires_grad": lambda o: t.normal(1.0, 2.0, (2, 3), out=o, requires_grad=True),
        "T,T mismatched": lambda o: t.normal(t.zeros(2), t.zeros(3), out=o),
    }


@prog
def normal_out_writes_into_out(t):
    """out= of every overload, into outs of several shapes, dtypes and layouts: out's shape,
    strides, version and storage afterwards, the resize warning, and the errors (out keeps
    its shape and version when the call is refused)."""
    outs = {
        "same": lambda: t.zeros(2, 3),
        "5": lambda: t.zeros(5),
        "empty": lambda: t.zeros(0),
        "4x3": lambda: t.zeros(4, 3),
        "float64": lambda: t.zeros(2, 3, dtype=t.float64),
        "float16": lambda: t.zeros(2, 3, dtype=t.float16),
        "int64": lambda: t.zeros(2, 3, dtype=t.int64),
        "transposed": lambda: t.zeros(3, 2).t(),
        "expanded": lambda: t.zeros(3).expand(2, 3),
    }
    res = {}
    for cname, call in _out_calls(t).items():
        for oname, make in outs.items():
            o = make()
            ptr = o.data_ptr()
            r, w = warned(lambda o=o, call=call: call(o))
            res[f"{cname} into {oname}"] = {
                "returns out": r is o if hasattr(r, "shape") else r,
                "warnings": [x[:60] for x in w], "shape": tuple(o.shape),
                "stride": tuple(o.stride()), "version": o._version,
                "same ptr": o.data_ptr() == ptr, "requires_grad": o.requires_grad}
    return res


@prog
def normal_out_refuses_autograd(t):
    m = t.zeros(2, 3, requires_grad=True)
    res = {}
    for name, fn in {
        "T,f mean requires grad": lambda o: t.normal(m, 1.0, out=o),
        "T,T mean requires grad": lambda o: t.normal(m, t.ones(2, 3), out=o),
        "f,T std requires grad": lambda o: t.normal(1.0, m, out=o),
        "T,f out requires grad": lambda o: t.normal(t.zeros(2, 3), 2.0, out=o.requires_grad_()),
        "f,f out requires grad": lambda o: t.normal(1.0, 2.0, (2, 3), out=o.requires_grad_()),
    }.items():
        o = t.zeros(2, 3)
        res[name] = (catch(lambda fn=fn, o=o: fn(o)), o._version)
    with t.no_grad():
        o = t.zeros(2, 3)
        res["under no_grad"] = _made(t.normal(m, 1.0, out=o))
    o = t.zeros(3)
    res["out is mean"] = (_made(catch(lambda: t.normal(o, 2.0, out=o))), o._version)
    return res


def _stats(t, x):
    v = x.detach().to(t.float64).numpy()
    return float(v.mean()), float(v.std())


@prog
def normal_draws_have_their_distribution(t):
    """Mean and std of 100,000 draws per overload, per cell where they differ."""
    out = {}
    mean = t.tensor([-3.0, 0.0, 5.0]).repeat(N // 3)
    std = t.tensor([0.5, 1.0, 2.0]).repeat(N // 3)
    for name, y in {"T,T": t.normal(mean, std), "T,f": t.normal(mean, 2.0),
                    "f,T": t.normal(1.0, std)}.items():
        cols = y.view(-1, 3)
        for k in range(3):
            m, s = _stats(t, cols[:, k])
            want_m = {"f,T": 1.0}.get(name, [-3.0, 0.0, 5.0][k])
            want_s = {"T,f": 2.0}.get(name, [0.5, 1.0, 2.0][k])
            out[f"{name} column {k}"] = (abs(m - want_m) < 0.06, abs(s - want_s) < 0.06)
    for d in ("float16", "bfloat16", "float32", "float64"):
        m, s = _stats(t, t.normal(2.0, 3.0, (N,), dtype=getattr(t, d)))
        out[f"f,f {d}"] = (abs(m - 2.0) < 0.06, abs(s - 3.0) < 0.06)
    zero = t.normal(t.tensor([1.5, -2.0]), t.zeros(2))
    out["std 0 gives the mean"] = (zero, t.normal(t.tensor([1.5]), 0.0),
                                   t.normal(4.0, t.zeros(2)), t.normal(4.0, 0.0, (2,)))
    return out


@prog
def bernoulli_out(t):
    """torch.bernoulli(p, out=o): out takes p's shape without a warning (PyTorch resizes it
    with resize_), keeps its strides when the shape is right, goes up one version, and takes
    any dtype; p's own checks and the out= refusals."""
    p = t.full((2, 3), 0.5)
    res = {}
    for oname, make in {
        "same": lambda: t.zeros(2, 3), "5": lambda: t.zeros(5), "empty": lambda: t.zeros(0),
        "int64": lambda: t.zeros(2, 3, dtype=t.int64),
        "bool": lambda: t.zeros(2, 3, dtype=t.bool),
        "float64": lambda: t.zeros(2, 3, dtype=t.float64),
        "transposed": lambda: t.zeros(3, 2).t(),
        "expanded": lambda: t.zeros(1).expand(2, 3),
    }.items():
        o = make()
        r, w = warned(lambda o=o: t.bernoulli(p, out=o))
        res[oname] = {"returns out": r is o if hasattr(r, "shape") else r, "warnings": w,
                      "meta": (tuple(o.shape), tuple(o.stride()), o._version, str(o.dtype))}
    ones = t.ones(2, 3)
    res["p ones"] = t.bernoulli(ones, out=t.zeros(2, 3, dtype=t.int64))
    res["p zeros"] = t.bernoulli(t.zeros(3), out=t.ones(3, dtype=t.bool))
    for name, fn in {
        "p 1.5": lambda o: t.bernoulli(t.full((2, 3), 1.5), out=o),
        "p long": lambda o: t.bernoulli(t.ones(2, 3, dtype=t.int64), out=o),
        "float p and out": lambda o: t.bernoulli(p, 0.5, out=o),
        "out='a'": lambda o: t.bernoulli(p, out="a"),
        "p requires grad": lambda o: t.bernoulli(t.full((2, 3), 0.5, requires_grad=True),
                                                 out=o),
        "out requires grad": lambda o: t.bernoulli(p, out=o.requires_grad_()),
        "generator=None": lambda o: t.bernoulli(p, out=o, generator=None),
        "empty p": lambda o: t.bernoulli(t.zeros(0), out=o),
    }.items():
        o = t.zeros(2, 3)
        r = catch(lambda fn=fn, o=o: fn(o))
        res[name] = (r is o if hasattr(r, "shape") else r, tuple(o.shape), o._version)
    q = t.tensor([1.0, 0.0, 1.0])
    res["out is p"] = (t.bernoulli(q, out=q), q._version)
    return res


@pytest.mark.parametrize("program", prog.params())
def test_normal_parity(program, torch_mod, core):
    check_parity(program, torch_mod, core)


def test_enough_programs():
    assert len(prog.params()) >= 6
