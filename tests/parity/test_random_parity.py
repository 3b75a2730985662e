"""Random fills (normal_, uniform_, random_, bernoulli_, exponential_, geometric_, log_normal_,
cauchy_) and fill_ with a tensor value, side by side with torch 2.13.

The two libraries draw from different generators, so no program compares drawn values. What is
compared: the errors (type and text, in PyTorch's order of checks), dtypes, shapes, strides,
data pointers, ``_version``, ``grad_fn`` names and edges, gradients (zeros), the range every draw
falls in, and statistics of 100,000 draws (as booleans with generous tolerances: a wrong
distribution is many standard errors away, a right one almost never is).
"""

import functools
import math
import warnings

import numpy as np
import pytest

from .harness import Registry, catch, check_parity, fn_name, next_names

pytestmark = pytest.mark.parity

prog = Registry()

DTYPES = ("bool", "uint8", "int8", "int16", "int32", "int64", "float16", "bfloat16",
          "float32", "float64")
N = 100_000


def _values(t, x):
    """The drawn values as float64 NumPy (bfloat16 has no NumPy type in torch)."""
    return x.detach().to(t.float64).numpy()


def _ok(t, fn, *args):
    """'ok' and the version after ``fn(*args)``, or what it raised."""
    def run():
        r = fn(*args)
        return ("ok", r._version, str(r.dtype))
    return catch(run)


# The calls every dtype is tried with: good arguments, and each argument check PyTorch makes.
CALLS = {
    "normal_()": lambda x: x.normal_(),
    "normal_(0, -1)": lambda x: x.normal_(0, -1),
    "normal_(0, nan)": lambda x: x.normal_(0, float("nan")),
    "uniform_()": lambda x: x.uniform_(),
    "uniform_(1, 0)": lambda x: x.uniform_(1, 0),
    "uniform_(0, inf)": lambda x: x.uniform_(0, float("inf")),
    "uniform_(nan, 1)": lambda x: x.uniform_(float("nan"), 1),
    "uniform_(0, 70000)": lambda x: x.uniform_(0, 70000),
    "uniform_(-3e38, 3e38)": lambda x: x.uniform_(-3e38, 3e38),
    "uniform_(-1e308, 1e308)": lambda x: x.uniform_(-1e308, 1e308),
    "exponential_()": lambda x: x.exponential_(),
    "exponential_(0)": lambda x: x.exponential_(0),
    "exponential_(-1.5)": lambda x: x.exponential_(-1.5),
    "geometric_(0.3)": lambda x: x.geometric_(0.3),
    "geometric_(0)": lambda x: x.geometric_(0),
    "geometric_(1)": lambda x: x.geometric_(1),
    "geometric_(nan)": lambda x: x.geometric_(float("nan")),
    "log_normal_()": lambda x: x.log_normal_(),
    "log_normal_(0, 0)": lambda x: x.log_normal_(0, 0),
    "cauchy_()": lambda x: x.cauchy_(),
    "cauchy_(0, -1)": lambda x: x.cauchy_(0, -1),
    "bernoulli_()": lambda x: x.bernoulli_(),
    "bernoulli_(0.25)": lambda x: x.bernoulli_(0.25),
    "bernoulli_(1.5)": lambda x: x.bernoulli_(1.5),
    "bernoulli_(-0.1)": lambda x: x.bernoulli_(-0.1),
    "random_()": lambda x: x.random_(),
    "random_(5)": lambda x: x.random_(5),
    "random_(0)": lambda x: x.random_(0),
    "random_(-1)": lambda x: x.random_(-1),
    "random_(5, 2)": lambda x: x.random_(5, 2),
    "random_(3, 3)": lambda x: x.random_(3, 3),
    "random_(-1, 3)": lambda x: x.random_(-1, 3),
    "random_(0, 300)": lambda x: x.random_(0, 300),
    "random_(-200, 3)": lambda x: x.random_(-200, 3),
    "random_(0, 70000)": lambda x: x.random_(0, 70000),
    "random_(-3, None)": lambda x: x.random_(-3, None),
    "random_(2**40, None)": lambda x: x.random_(2 ** 40, None),
}


@prog
def random_fills_on_every_dtype(t):
    """Which dtype each fill takes, and each argument error, for every dtype."""
    out = {}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # random_'s precision warning (random_precision_warnings)
        for name, call in CALLS.items():
            for d in DTYPES:
                x = t.zeros(3, dtype=getattr(t, d))
                out[f"{name} {d}"] = (_ok(t, call, x), x._version)
    return out


@prog
def random_fills_check_order_expanded_and_empty(t):
    """An expanded self is refused (written-to cells overlap) and an empty self returns early,
    each at the point where PyTorch's kernel checks it: before or after the argument and the
    dtype check."""
    out = {}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for name, call in CALLS.items():
            for d in ("int64", "float32", "bool"):
                e = t.zeros(1, dtype=getattr(t, d)).expand(3)
                out[f"expanded {name} {d}"] = (_ok(t, call, e), e._version)
                z = t.zeros(0, dtype=getattr(t, d))
                out[f"empty {name} {d}"] = (_ok(t, call, z), z._version)
    return out


@prog
def random_fills_refuse_a_leaf_first(t):
    """Autograd's leaf check comes before the argument checks."""
    x = t.zeros(3, requires_grad=True)
    return {name: catch(functools.partial(call, x)) for name, call in CALLS.items()} | {
        "version": x._version}


FILLS = {
    "normal_": lambda y: y.normal_(1.0, 2.0),
    "uniform_": lambda y: y.uniform_(-1, 1),
    "random_()": lambda y: y.random_(),
    "random_(to)": lambda y: y.random_(10),
    "random_(from, to)": lambda y: y.random_(2, 10),
    "random_(from, None)": lambda y: y.random_(2, None),
    "bernoulli_(float)": lambda y: y.bernoulli_(0.5),
    "bernoulli_()": lambda y: y.bernoulli_(),
    "exponential_": lambda y: y.exponential_(2.0),
    "geometric_": lambda y: y.geometric_(0.5),
    "log_normal_": lambda y: y.log_normal_(),
    "cauchy_": lambda y: y.cauchy_(),
    "fill_(number)": lambda y: y.fill_(2.0),
    "zero_": lambda y: y.zero_(),
}


@prog
def random_fills_under_autograd(t):
    """Each fill is an in-place op: self keeps its storage, its version goes up once, its
    grad_fn is the fill's node, and backward sends zeros to what self was computed from."""
    out = {}
    for name, fill in FILLS.items():
        x = t.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], requires_grad=True)
        y = x * 2
        p = y.data_ptr()
        r = fill(y)
        (y * 3).sum().backward()
        out[name] = {"same": r is y, "ptr": y.data_ptr() == p, "version": y._version,
                     "grad_fn": fn_name(y.grad_fn), "next": next_names(y.grad_fn),
                     "x.grad": x.grad, "shape": tuple(y.shape), "dtype": y.dtype}
    return out


@prog
def random_fills_on_a_view_rebase_the_base(t):
    """A fill on a view of a non-leaf: the base gets CopySlices, the view its own node."""
    out = {}
    for name, fill in FILLS.items():
        x = t.zeros(2, 3, requires_grad=True)
        base = x + 1
        v = base[:, 1]
        fill(v)
        base.sum().backward()
        out[name] = {"base": fn_name(base.grad_fn), "view": fn_name(v.grad_fn),
                     "versions": (base._version, v._version), "x.grad": x.grad}
    return out


@prog
def bernoulli_with_a_tensor_p(t):
    """bernoulli_(p tensor): BernoulliBackward1 with edges to self and p (both get zeros); p
    of zeros and ones gives exactly those values; p expands to self's shape."""
    x = t.zeros(2, 3, requires_grad=True)
    q = t.tensor([0.0, 1.0, 1.0], requires_grad=True)
    y = x * 1
    p = q + 0
    y.bernoulli_(p)
    exact = y.detach().clone()
    (y * 2).sum().backward()
    ints = t.zeros(2, 3, dtype=t.int64).bernoulli_(t.tensor([[1.0], [0.0]], dtype=t.float64))
    bools = t.zeros(4, dtype=t.bool).bernoulli_(t.tensor([1.0, 0.0, 1.0, 0.0],
                                                         dtype=t.float16))
    halves = t.zeros(3, dtype=t.float16).bernoulli_(t.tensor(1.0))
    same = t.tensor([1.0, 0.0, 1.0])
    same.bernoulli_(same)  # p is self: read before the draw
    return {"grad_fn": fn_name(y.grad_fn), "next": next_names(y.grad_fn), "values": exact,
            "x.grad": x.grad, "q.grad": q.grad, "ints": ints, "bools": bools,
            "halves": halves, "same": same, "version": y._version}


@prog
def bernoulli_tensor_p_errors(t):
    z = t.zeros(3)
    return {
        "int p": catch(lambda: z.bernoulli_(t.tensor([1, 0, 1]))),
        "bool p": catch(lambda: z.bernoulli_(t.tensor([True, False, True]))),
        "p > 1": catch(lambda: z.bernoulli_(t.tensor([1.5, 0.2, 0.3]))),
        "p nan": catch(lambda: z.bernoulli_(t.tensor([float("nan"), 0.2, 0.3]))),
        "p too short": catch(lambda: z.bernoulli_(t.tensor([0.5, 0.2]))),
        "int p too short": catch(lambda: z.bernoulli_(t.tensor([1, 0]))),
        "p too many dims": catch(lambda: z.bernoulli_(t.full((2, 3), 0.5))),
        "expanded self": catch(lambda: t.zeros(1).expand(3).bernoulli_(t.full((3,), 0.5))),
        "empty self, bad p": catch(lambda: t.zeros(0).bernoulli_(t.tensor([2.0]))),
        "version": z._version,
    }


@prog
def random_fills_type_errors(t):
    z = t.zeros(3)
    calls = {
        "normal_('a')": lambda: z.normal_("a"),
        "normal_(None)": lambda: z.normal_(None),
        "normal_(0, 'a')": lambda: z.normal_(0, "a"),
        "uniform_(0, 'a')": lambda: z.uniform_(0, "a"),
        "uniform_(0, None)": lambda: z.uniform_(0, None),
        "exponential_('a')": lambda: z.exponential_("a"),
        "geometric_('a')": lambda: z.geometric_("a"),
        "log_normal_(0, 'a')": lambda: z.log_normal_(0, "a"),
        "cauchy_('a')": lambda: z.cauchy_("a"),
        "bernoulli_('a')": lambda: z.bernoulli_("a"),
        "bernoulli_(None)": lambda: z.bernoulli_(None),
        "bernoulli_([0.5])": lambda: z.bernoulli_([0.5]),
        "random_(1.5)": lambda: z.random_(1.5),
        "random_('a')": lambda: z.random_("a"),
        "random_(None)": lambda: z.random_(None),
        "random_(True)": lambda: z.random_(True),
        "random_('a', 1)": lambda: z.random_("a", 1),
        "random_(1, 2.5)": lambda: z.random_(1, 2.5),
        "random_(None, 3)": lambda: z.random_(None, 3),
        "random_(0, 2**63)": lambda: t.zeros(3, dtype=t.int64).random_(0, 2 ** 63),
        "random_(-2**63 - 1, 0)": lambda: t.zeros(3, dtype=t.int64).random_(-2 ** 63 - 1, 0),
    }
    out = {k: catch(fn) for k, fn in calls.items()}
    out["version"] = z._version
    return out


@prog
def random_fills_take_numpy_numbers_and_one_element_tensors(t):
    z = t.zeros(3)
    return {
        "normal_(np.float64)": _ok(t, lambda: z.normal_(np.float64(1.0))),
        "normal_(True)": _ok(t, lambda: z.normal_(True)),
        "normal_(tensor)": _ok(t, lambda: z.normal_(t.tensor(1.0))),
        "exponential_(tensor)": _ok(t, lambda: z.exponential_(t.tensor(2.0))),
        "random_(np.int64)": _ok(t, lambda: z.random_(np.int64(5))),
        "random_(int tensor)": _ok(t, lambda: z.random_(t.tensor(5))),
        "bernoulli_(np.float64)": _ok(t, lambda: z.bernoulli_(np.float64(0.5))),
        "keywords": _ok(t, lambda: z.normal_(mean=0, std=1).cauchy_(median=0, sigma=1)
                        .log_normal_(mean=0, std=1).geometric_(p=0.5).exponential_(lambd=2)
                        .random_(to=5).random_(0, to=5).bernoulli_(p=0.2)),
        "generator=None": _ok(t, lambda: z.normal_(generator=None).random_(generator=None)),
    }


def _stats(v):
    return float(np.mean(v)), float(np.std(v))


@prog
def continuous_fills_have_their_distribution(t):
    out = {}
    for d in ("float16", "bfloat16", "float32", "float64"):
        dt = getattr(t, d)
        m, s = _stats(_values(t, t.empty(N, dtype=dt).normal_(2.0, 3.0)))
        out[f"normal_ {d}"] = (abs(m - 2.0) < 0.05, abs(s - 3.0) < 0.05)
        u = _values(t, t.empty(N, dtype=dt).uniform_(-1.0, 3.0))
        out[f"uniform_ {d}"] = (bool(u.min() >= -1.0), bool(u.max() <= 3.0),
                                abs(u.mean() - 1.0) < 0.03, abs(u.std() - 4 / math.sqrt(12)) < 0.03)
        e = _values(t, t.empty(N, dtype=dt).exponential_(2.0))
        out[f"exponential_ {d}"] = (bool(e.min() >= 0), abs(e.mean() - 0.5) < 0.01)
        ln = _values(t, t.empty(N, dtype=dt).log_normal_(0.0, 0.5))
        out[f"log_normal_ {d}"] = (bool(ln.min() > 0), abs(np.median(ln) - 1.0) < 0.02,
                                   abs(np.log(ln).std() - 0.5) < 0.01)
        c = _values(t, t.empty(N, dtype=dt).cauchy_(1.0, 2.0))
        q1, q2, q3 = np.quantile(c, [0.25, 0.5, 0.75])
        out[f"cauchy_ {d}"] = (abs(q2 - 1.0) < 0.05, abs(q1 + 1.0) < 0.1, abs(q3 - 3.0) < 0.1)
    return out


@prog
def discrete_fills_have_their_distribution(t):
    out = {}
    for d in ("uint8", "int64", "float16", "float32", "float64"):
        dt = getattr(t, d)
        g = _values(t, t.empty(N, dtype=dt).geometric_(0.25))
        out[f"geometric_ {d}"] = (bool(g.min() >= 1), bool(np.all(g == np.floor(g))),
                                  abs(g.mean() - 4.0) < 0.1, abs((g == 1).mean() - 0.25) < 0.01)
    for d in DTYPES:
        dt = getattr(t, d)
        b = _values(t, t.empty(N, dtype=dt).bernoulli_(0.3))
        out[f"bernoulli_ {d}"] = (sorted(set(b.tolist())), abs(b.mean() - 0.3) < 0.01)
    out["bernoulli_(0) / (1)"] = (t.ones(5).bernoulli_(0.0), t.zeros(5).bernoulli_(1.0))
    return out


@prog
def random_fills_keep_the_layout(t):
    """A strided self is filled in place: strides, offset and storage stay; only its cells
    change (the cells between stay as they were)."""
    out = {}
    for name, fill in FILLS.items():
        base = t.zeros(4, 6)
        v = base.t()[1:, ::2]
        fill(v)
        untouched = base.t()[1:, 1::2].clone()
        out[name] = {"stride": v.stride(), "offset": v.storage_offset(),
                     "versions": (base._version, v._version), "between": untouched,
                     "first column": base[:, 0].clone()}
    return out


@prog
def fill_with_a_tensor_value(t):
    x = t.zeros(3, requires_grad=True)
    v = t.tensor(2.5, requires_grad=True)
    y = x * 1
    y.fill_(v * 2)
    (y * t.tensor([1.0, 2.0, 3.0])).sum().backward()
    ints = t.zeros(3, dtype=t.int64).fill_(t.tensor(2.7))
    wrapped = t.zeros(3, dtype=t.int8).fill_(t.tensor(300))
    from_bool = t.zeros(2).fill_(t.tensor(True))
    own = t.tensor([1.0, 2.0, 3.0])
    own.fill_(own[1])
    plain = t.zeros(3, requires_grad=True) * 1
    plain.fill_(t.tensor(4.0))
    return {"grad_fn": fn_name(y.grad_fn), "next": next_names(y.grad_fn), "y": y,
            "x.grad": x.grad, "v.grad": v.grad, "ints": ints, "wrapped": wrapped,
            "from_bool": from_bool, "own": own, "own version": own._version,
            "no grad value": (fn_name(plain.grad_fn), next_names(plain.grad_fn))}


@prog
def fill_value_errors(t):
    x = t.zeros(3)
    return {
        "1-D": catch(lambda: x.fill_(t.tensor([1.0]))),
        "2-D": catch(lambda: x.fill_(t.zeros(2, 2))),
        "empty 1-D": catch(lambda: x.fill_(t.zeros(0))),
        "None": catch(lambda: x.fill_(None)),
        "str": catch(lambda: x.fill_("a")),
        "expanded self, tensor value": catch(lambda: t.zeros(1).expand(3).fill_(t.tensor(1.0))),
        "expanded self, number": _ok(t, lambda: t.zeros(1).expand(3).fill_(1.0)),
        "int8 300 as a number": catch(lambda: t.zeros(3, dtype=t.int8).fill_(300)),
        "version": x._version,
    }


@pytest.mark.parametrize("program", prog.params())
def test_random_parity(program, torch_mod, core):
    check_parity(program, torch_mod, core)


def test_enough_programs():
    assert len(prog.params()) >= 14
