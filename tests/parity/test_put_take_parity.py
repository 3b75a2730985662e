"""put_/put/take (flat indexing) and take's out=, side by side with torch 2.13: values on
strided tensors, negative and repeated indices, accumulate, argument errors word for word,
PutBackward0/TakeBackward0 with their ``_saved_*`` and gradients, the saved index's version."""


import numpy as np
import pytest

from .harness import (
    Registry,
    arr,
    catch,
    check_parity,
    fn_name,
    ints,
    saved_fields,
    upstream,
    warned,
)

pytestmark = pytest.mark.parity

prog = Registry()


@pytest.fixture(autouse=True)
def _default_determinism(torch_mod):
    """The parity session turns on torch.use_deterministic_algorithms, under which put_
    (accumulate=False) refuses to run; these programs compare PyTorch's default mode."""
    torch_mod.use_deterministic_algorithms(False)
    yield
    torch_mod.use_deterministic_algorithms(True)






@prog
def put_inplace_values_and_layouts(t):
    obs = {}
    x = t.zeros(2, 3)
    p = x.data_ptr()
    r = x.put_(t.tensor([0, -1, 4]), t.tensor([1.0, 2.0, 3.0]))
    obs["basic"] = (r is x, x.data_ptr() == p, x._version, x)
    y = t.zeros(4, 3)
    y.t().put_(t.tensor([0, 1, 5, 11]), t.tensor([1.0, 2.0, 3.0, 4.0]))
    obs["transposed self"] = y
    z = t.zeros(8)
    z[::2].put_(t.tensor([[0, 1], [2, 3]]).t(), t.tensor([[1.0, 2.0], [3.0, 4.0]]))
    obs["strided self, transposed index"] = z
    w = t.zeros(6)
    w.put_(t.tensor([[0, 1], [2, 3]]).t(), t.tensor([[1.0, 2.0], [3.0, 4.0]]).t())
    obs["both transposed"] = w
    obs["repeated: last wins"] = t.zeros(3).put_(t.tensor([1, 1, 1]), t.tensor([1.0, 2.0, 3.0]))
    obs["accumulate"] = t.zeros(3).put_(t.tensor([1, 1, -1]), t.tensor([1.0, 2.0, 3.0]),
                                        accumulate=True)
    obs["accumulate positional"] = t.ones(2, 2).put_(t.tensor([3, 3]), t.tensor([1.0, 1.0]),
                                                     True)
    obs["bool accumulate"] = t.zeros(3, dtype=t.bool).put_(t.tensor([1, 1]),
                                                          t.tensor([True, False]), accumulate=True)
    obs["int8 accumulate wraps"] = t.tensor([100, 0], dtype=t.int8).put_(
        t.tensor([0, 0]), t.tensor([20, 20], dtype=t.int8), accumulate=True)
    obs["half accumulate"] = t.zeros(3).half().put_(t.tensor([1, 1]),
                                                     t.tensor([1.0, 2.0]).half(), accumulate=True)
    obs["0-dim index and source"] = t.zeros(3).put_(t.tensor(2), t.tensor(5.0))
    e = t.zeros(3)
    e.put_(t.tensor([], dtype=t.int64), t.zeros(0))
    obs["empty index bumps the version"] = (e, e._version)
    obs["empty self, empty index"] = t.zeros(0).put_(t.tensor([], dtype=t.int64), t.zeros(0))
    return obs


@prog
def put_out_of_place_and_function(t):
    x = t.tensor(ints(3, 2, seed=1)).t()
    r = x.put(t.tensor([0, 5]), t.tensor([10.0, 20.0]))
    obs = {"method": (r, r.stride(), x, x._version, r.data_ptr() != x.data_ptr())}
    f = t.put(t.zeros(2, 3), t.tensor([1, 1]), t.tensor([1.0, 2.0]), True)
    obs["function accumulate"] = (f, f.stride())
    obs["sliced self"] = t.put(t.zeros(3, 2)[:, :1], t.tensor([0]), t.ones(1)).stride()
    obs["no out="] = catch(lambda: t.put(t.zeros(2), t.tensor([0]), t.ones(1), out=t.zeros(2)))
    return obs


@prog
def put_argument_errors_in_order(t):
    f = lambda *s: t.ones(*s)  # noqa: E731
    T = t.tensor
    x = t.tensor(ints(2, 3, seed=1))
    obs = {
        "numel": catch(lambda: x.put_(T([0, 5]), f(3))),
        "float index": catch(lambda: x.put_(T([0.0, 1.0]), f(2))),
        "int index": catch(lambda: x.put_(T([0, 1], dtype=t.int32), f(2))),
        "index before dtype": catch(lambda: x.put_(T([0.0, 6.0]), f(2).double())),
        "double source": catch(lambda: x.put_(T([0, 1]), f(2).double())),
        "long source": catch(lambda: x.put_(T([0, 1]), T([1, 2]))),
        "dtype before numel": catch(lambda: x.put_(T([0, 6, 7]), f(2).double())),
        "empty self": catch(lambda: t.zeros(0).put_(T([0]), f(1))),
        "numel before empty": catch(lambda: t.zeros(0).put_(T([0, 6, 7]), f(2))),
        "out of range": catch(lambda: x.put_(T([0, 6]), f(2))),
        "negative out of range": catch(lambda: x.put_(T([0, -7]), f(2))),
        "source a number": catch(lambda: x.put_(T([0, 1]), 1.0)),
        "index a list": catch(lambda: x.put_([0, 1], f(2))),
        "accumulate int positional": catch(lambda: x.put_(T([0, 1]), f(2), 1)),
        "accumulate int keyword": catch(lambda: x.put_(T([0, 1]), f(2), accumulate=1)),
        "function source a list": catch(lambda: t.put(x, T([0, 1]), [1.0])),
        "function accumulate": catch(lambda: t.put(x, T([0, 1]), f(2), accumulate=1)),
        "function float index": catch(lambda: t.put(x, T([0.0, 1.0]), f(2))),
        "function out of range": catch(lambda: t.put(x, T([0, 9]), f(2))),
        "source overlaps self": catch(lambda: x.view(-1).put_(T([0, 1]), x.view(-1)[2:4])),
        "index overlaps self": catch(lambda: (lambda y: y.put_(y[:2], T([1, 2])))(
            t.zeros(6, dtype=t.int64))),
        "expanded self": catch(lambda: t.zeros(4).expand(2, 4).put_(T([0, 1]), f(2))),
    }
    obs["x version"] = x._version
    # (PyTorch checks the range while it writes, so its x[0] would be written by "out of
    # range"; the core checks first: the values are not compared here, the version is)
    return obs


@prog
def put_graph_saved_and_gradients(t):
    obs = {}
    for who in ("self", "source", "both"):
        for acc in (False, True):
            s = t.tensor(arr(6, seed=1), requires_grad=who in ("self", "both"))
            src = t.tensor(arr(2, seed=2), requires_grad=who in ("source", "both"))
            y = (s * 1).put_(t.tensor([1, 1]) if not acc else t.tensor([1, -1]), src,
                             accumulate=acc)
            fn = y.grad_fn
            o = {"grad_fn": fn_name(fn),
                 "saved": saved_fields(fn, ("_saved_index", "_saved_source", "_saved_accumulate"))}
            y.backward(upstream(t, y))
            o["grads"] = (s.grad, src.grad)
            obs[f"{who} accumulate={acc}"] = o
    s = t.tensor(ints(2, 3, seed=3), requires_grad=True)
    src = t.tensor(ints(2, 2, seed=4), requires_grad=True)
    y = t.put(s, t.tensor([[5, 0], [2, 3]]), src)
    y.backward(upstream(t, y))
    obs["out of place"] = (fn_name(y.grad_fn), s.grad, src.grad)
    return obs


@prog
def put_saved_index_modified_before_backward(t):
    src = t.tensor([1.0, 2.0], requires_grad=True)
    idx = t.tensor([0, 2])
    y = t.zeros(4).put(idx, src)
    idx.add_(1)
    return {"error": catch(lambda: y.sum().backward())}


@prog
def put_leaf_and_view_rules(t):
    leaf = t.zeros(4, requires_grad=True)
    base = leaf * 1
    view = base[1:]
    src = t.ones(1, requires_grad=True)
    view.put_(t.tensor([1]), src)
    base.backward(upstream(t, base))
    return {
        "leaf": catch(lambda: leaf.put_(t.tensor([0]), t.ones(1))),
        "view of leaf": catch(lambda: leaf[:2].put_(t.tensor([0]), t.ones(1))),
        "into a view": (fn_name(view.grad_fn), fn_name(base.grad_fn), base, leaf.grad,
                        src.grad),
    }


@prog
def take_values_layouts_and_errors(t):
    x = t.tensor(ints(2, 3, seed=1))
    T = t.tensor
    r = t.take(x.t(), T([[0, 1], [2, 5]]))
    return {
        "transposed self": (r, r.stride()),
        "method, negative": x.take(T([-1, 0, -6])),
        "transposed index": t.take(x, T([[0, 1], [2, 3]]).t()).stride(),
        "0-dim self": t.take(T(5.0), T([0, 0, -1])),
        "0-dim index": t.take(x, T(4)),
        "empty from empty": t.take(t.zeros(0), T([], dtype=t.int64)),
        "bool": t.take(T([True, False]), T([1, 1, 0])),
        "out of range": catch(lambda: t.take(x, T([0, 6]))),
        "negative out of range": catch(lambda: t.take(x, T([0, -7]))),
        "float index": catch(lambda: t.take(x, T([0.0, 1.0]))),
        "int index": catch(lambda: t.take(x, T([0, 1], dtype=t.int32))),
        "empty self": catch(lambda: t.take(t.zeros(0), T([0]))),
        "index a list": catch(lambda: x.take([0, 1])),
        "function index a list": catch(lambda: t.take(x, [0, 1])),
    }


@prog
def take_graph_saved_and_gradients(t):
    s = t.tensor(arr(2, 3, seed=1), requires_grad=True)
    h = s * 1
    y = t.take(h, t.tensor([0, 0, 5, -1]))
    fn = y.grad_fn
    obs = {"grad_fn": fn_name(fn), "saved": saved_fields(fn, ("_saved_index", "_saved_self"))}
    y.backward(upstream(t, y))
    obs["grad"] = s.grad
    h2 = s * 2
    y2 = h2.take(t.tensor([1]))
    h2.add_(1)
    obs["self modified"] = catch(lambda: y2.sum().backward())
    return obs


@prog
def take_out_rules(t):
    x = t.tensor(np.arange(6, dtype=np.float32))
    T = t.tensor
    obs = {}
    o = t.empty(2)
    p = o.data_ptr()
    r = t.take(x, T([5, 0]), out=o)
    obs["into out"] = (r is o, o.data_ptr() == p, o._version, o)
    for label, out in (("larger", t.zeros(5)), ("smaller", t.zeros(1)), ("empty", t.empty(0))):
        p = out.data_ptr()
        r, w = warned(lambda out=out: t.take(x, T([[1, 2], [3, 4]]), out=out))
        obs[label] = (out.shape, out.stride(), out.data_ptr() == p, w, out)
    s = t.zeros(4, 2)[:, 0]
    t.take(x, T([1, 2, 3, 4]), out=s)
    obs["strided out keeps its strides"] = (s.stride(), s)
    obs["double out"] = catch(lambda: t.take(x, T([1, 2]), out=t.empty(2).double()))
    obs["float index before out dtype"] = catch(lambda: t.take(x, T([1.0]), out=t.empty(1).long()))
    obs["out is self"] = catch(lambda: t.take(x, T([1, 0]), out=x))
    obs["out is part of self"] = catch(lambda: t.take(x, T([1, 0]), out=x[4:]))
    obs["out is the index"] = catch(lambda: (lambda i: t.take(t.ones(3, dtype=t.int64), i,
                                                              out=i))(T([0, 1, 2])))
    obs["expanded out"] = catch(lambda: t.take(x, T([1, 2]), out=t.zeros(1).expand(2)))
    obs["requires grad"] = catch(lambda: t.take(t.ones(3, requires_grad=True), T([1]),
                                                out=t.empty(1)))
    obs["out a list"] = catch(lambda: t.take(x, T([1]), out=[0.0]))
    obs["x version"] = x._version
    return obs


@pytest.mark.parametrize("program", prog.params())
def test_put_take_parity(program, torch_mod, core):
    check_parity(program, torch_mod, core)


def test_enough_programs():
    assert len(prog.params()) >= 9
