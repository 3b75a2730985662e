"""F.silu, F.mish, F.hardswish, F.hardsigmoid (ops/self_gated.py), their in-place forms and
layers; F.softplus, F.logsigmoid, F.hardshrink, F.softshrink, F.tanhshrink, F.softsign, F.glu,
F.prelu (ops/softplus.py, shrink.py, glu.py, prelu.py) and theirs, against torch 2.13.

Out of place or in place, the self-gated ones record the same node (SiluBackward0 ...), which
saves the input: in place, a copy taken before the write, so changing the result again before
backward is allowed, while changing the input of the out-of-place form is not.
"""

import pytest

from .harness import Registry, arr, catch, check_parity, fn_name, next_names

pytestmark = pytest.mark.parity

prog = Registry()
FLOATS = ("float32", "float64", "float16", "bfloat16")
GATED = {  # name -> function of (F, tensor, inplace)
    "silu": lambda F, y, ip: F.silu(y, ip),
    "mish": lambda F, y, ip: F.mish(y, inplace=ip),
    "hardswish": lambda F, y, ip: F.hardswish(y * 2, ip),
    "hardsigmoid": lambda F, y, ip: F.hardsigmoid(y * 2, inplace=ip),
}
# the kinks and the far ends: -3 and 3 (hardswish/hardsigmoid), overflowing exp, NaN, inf
EDGES = [float("nan"), -3.0, 3.0, -4.0, 4.0, 0.5, float("inf"), -float("inf"), -100.0, 100.0,
         -0.0, 95.0, -95.0]


def _run(t, name, inplace, dtype="float32", seed=0):
    F = t.nn.functional
    w = t.tensor(arr(3, 4, seed=seed), requires_grad=True)
    y = (w * 1).to(getattr(t, dtype))
    r = GATED[name](F, y, inplace)
    fn = r.grad_fn
    obs = {"r": r, "same": r is y, "version": y._version, "node": fn_name(fn),
           "next": next_names(fn), "saved_is_input": fn._saved_self is y,
           "saved": fn._saved_self}
    r.backward(t.tensor(arr(3, 4, seed=seed + 9)).to(r.dtype))
    obs["grad"] = w.grad
    return obs


@prog
def self_gated_values_nodes_and_gradients(t):
    return {f"{name}{'_' if ip else ''}": _run(t, name, ip, seed=i)
            for i, name in enumerate(GATED) for ip in (False, True)}


@prog
def self_gated_in_every_float_dtype(t):
    return {f"{name}_{dtype}{'_' if ip else ''}": _run(t, name, ip, dtype, seed=3)
            for name in GATED for dtype in FLOATS for ip in (False, True)}


@prog
def self_gated_at_the_kinks_and_far_ends(t):
    obs = {}
    for name, f in (("silu", "silu"), ("mish", "mish"), ("hardswish", "hardswish"),
                    ("hardsigmoid", "hardsigmoid")):
        x = t.tensor(EDGES, requires_grad=True)
        r = getattr(t.nn.functional, f)(x)
        g = t.tensor([1.0] * (len(EDGES) - 2) + [float("inf"), float("nan")])
        obs[name] = (r, t.autograd.grad(r, x, g)[0])
        obs[name + "_double"] = getattr(t.nn.functional, f)(t.tensor(EDGES, dtype=t.float64))
    return obs


@prog
def in_place_saves_a_copy_of_the_input(t):
    """silu_ & co. save the input from before the write: writing the result again is fine."""
    F = t.nn.functional
    obs = {}
    for name in GATED:
        w = t.tensor(arr(5, seed=4), requires_grad=True)
        y = w * 1
        r = GATED[name](F, y, True)
        r.mul_(2)
        obs[name] = catch(lambda r=r: r.sum().backward())
        obs[name + "_grad"] = w.grad
        obs[name + "_versions"] = (y._version, r._version)
    return obs


@prog
def out_of_place_saves_the_input_itself(t):
    F = t.nn.functional
    obs = {}
    for name in GATED:
        w = t.tensor(arr(5, seed=5), requires_grad=True)
        y = w * 1
        r = getattr(F, name)(y)
        y.add_(1)
        obs[name] = catch(lambda r=r: r.sum().backward())
    return obs


@prog
def in_place_on_leaves_views_and_expanded_tensors(t):
    F = t.nn.functional
    obs = {}
    for name in GATED:
        f = getattr(F, name)
        w = t.tensor(arr(4, 5, seed=7), requires_grad=True)
        obs[name + "_leaf"] = catch(lambda f=f, w=w: f(w, inplace=True))
        y = w * 1
        f(y[1, ::2], inplace=True)
        f(y[2:].t()[1], True)
        y.sum().backward()
        obs[name + "_view"] = (y, fn_name(y.grad_fn), w.grad, y._version)
        obs[name + "_expanded"] = catch(lambda f=f: f(t.ones(1).expand(3), inplace=True))
        obs[name + "_no_grad_leaf"] = f(t.tensor(arr(3, seed=8)), True)
        with t.no_grad():
            obs[name + "_under_no_grad"] = catch(lambda f=f, w=w: f(w, True))
    return obs


@prog
def refused_dtypes_and_arguments(t):
    F = t.nn.functional
    i = t.tensor([[-3, 0, 2], [9, -1, 5]])
    obs = {}
    for name in GATED:
        f = getattr(F, name)
        obs[name + "_long"] = catch(lambda f=f: f(i))
        obs[name + "_long_"] = catch(lambda f=f: f(i, True))
        obs[name + "_bool"] = catch(lambda f=f: f(i > 0))
        obs[name + "_byte_"] = catch(lambda f=f: f(i.abs().to(t.uint8), True))
        obs[name + "_float"] = catch(lambda f=f: f(1.0))
        obs[name + "_float_"] = catch(lambda f=f: f(1.0, True))
        obs[name + "_str"] = catch(lambda f=f: f("a"))
    return obs


@prog
def layouts_follow_the_input(t):
    F = t.nn.functional
    x = t.tensor(arr(3, 4, seed=10))
    obs = {}
    for name in GATED:
        r = getattr(F, name)(x.t())
        obs[name] = (r, r.stride(), r.is_contiguous())
        v = x * 1
        before = v.data_ptr()
        s = getattr(F, name)(v[:, 1::2], True)
        obs[name + "_"] = (s, s.stride(), s.data_ptr() - before, v)
    return obs


@prog
def self_gated_layers(t):
    nn = t.nn
    x = t.tensor(arr(2, 3, seed=9))
    layers = {"SiLU": nn.SiLU(), "SiLU_": nn.SiLU(True), "Mish": nn.Mish(),
              "Mish_": nn.Mish(inplace=True), "Hardswish": nn.Hardswish(),
              "Hardswish_": nn.Hardswish(True), "Hardsigmoid": nn.Hardsigmoid(),
              "Hardsigmoid_": nn.Hardsigmoid(inplace=True)}
    obs = {}
    for name, layer in layers.items():
        y = x * 3
        r = layer(y)
        obs[name] = (repr(layer), r, y._version, r is y, layer.inplace)
    w = t.tensor(arr(2, 3, seed=11), requires_grad=True)
    seq = nn.Sequential(nn.Linear(3, 4), nn.SiLU(True), nn.Linear(4, 2), nn.Hardswish(True))
    for p in seq.parameters():
        p.data.fill_(0.1)
    out = seq(w)
    out.sum().backward()
    obs["sequential"] = (out, fn_name(out.grad_fn), w.grad)
    return obs


@prog
def in_place_after_ops_that_save_their_output(t):
    """The course's rule for inplace=True: safe after Linear (addmm saves no output), fails at
    backward after sigmoid/tanh/exp, whose nodes saved the very tensor overwritten."""
    F = t.nn.functional
    obs = {}
    for name in GATED:
        w = t.tensor(arr(3, 4, seed=22), requires_grad=True)
        lin = t.nn.Linear(4, 4)
        for p in lin.parameters():
            p.data.fill_(0.05)
        h = getattr(F, name)(lin(w), inplace=True)
        h.sum().backward()
        obs[name + "_after_linear"] = (h, fn_name(h.grad_fn), w.grad)
        for before in ("sigmoid", "tanh", "exp"):
            v = t.tensor(arr(3, 4, seed=23), requires_grad=True)
            r = getattr(v, before)()
            out = getattr(F, name)(r, inplace=True)
            obs[f"{name}_after_{before}"] = (out._version, catch(lambda o=out: o.sum().backward()))
    return obs


OTHERS = {  # name -> function of (t, tensor)
    "softplus": lambda t, y: t.nn.functional.softplus(y, 1.5, 2.0),
    "softplus_default": lambda t, y: t.nn.functional.softplus(y * 8),
    "logsigmoid": lambda t, y: t.nn.functional.logsigmoid(y * 3),
    "hardshrink": lambda t, y: t.nn.functional.hardshrink(y, 0.75),
    "hardshrink_torch": lambda t, y: t.hardshrink(y, lambd=0.25),
    "hardshrink_method": lambda t, y: y.hardshrink(),
    "softshrink": lambda t, y: t.nn.functional.softshrink(y, 0.75),
    "tanhshrink": lambda t, y: t.nn.functional.tanhshrink(y),
    "softsign": lambda t, y: t.nn.functional.softsign(y),
    "glu": lambda t, y: t.nn.functional.glu(y),
    "glu_0": lambda t, y: t.nn.functional.glu(y[:2], 0),
    "prelu": lambda t, y: t.nn.functional.prelu(y, t.tensor([0.25]).to(y.dtype)),
    "prelu_method": lambda t, y: y.prelu(t.tensor(0.5).to(y.dtype)),
}


def _run_other(t, name, dtype="float32", seed=0):
    w = t.tensor(arr(4, 4, seed=seed), requires_grad=True)
    y = (w * 1).to(getattr(t, dtype))
    r = OTHERS[name](t, y)
    fn = r.grad_fn
    fields = {n: getattr(fn, n) for n in dir(fn) if n.startswith("_saved_")}
    obs = {"r": r, "node": fn_name(fn), "next": next_names(fn), "saved": fields,
           "saved_is_input": {n: v is y for n, v in fields.items()}}
    r.backward(t.tensor(arr(*r.shape, seed=seed + 9)).to(r.dtype))
    obs["grad"] = w.grad
    return obs


@prog
def other_activations_values_nodes_saved_and_gradients(t):
    return {name: _run_other(t, name, seed=i) for i, name in enumerate(OTHERS)}


@prog
def other_activations_in_every_float_dtype(t):
    return {f"{name}_{dtype}": _run_other(t, name, dtype, seed=5)
            for name in OTHERS for dtype in FLOATS}


@prog
def other_activations_at_the_edges(t):
    F = t.nn.functional
    edges = [float("nan"), -0.5, 0.5, -0.25, 0.0, -0.0, float("inf"), -float("inf"), 30.0,
             -30.0, 1.0, 100.0, -100.0, 1e-8]
    obs = {}
    for name, f in {"softplus": lambda x: F.softplus(x, 2, 10), "logsigmoid": F.logsigmoid,
                    "hardshrink": F.hardshrink, "softshrink": F.softshrink,
                    "tanhshrink": F.tanhshrink, "softsign": F.softsign,
                    "softplus_beta0": lambda x: F.softplus(x, 0.0),
                    "softplus_negative_beta": lambda x: F.softplus(x, -1.0, 5),
                    "hardshrink_negative": lambda x: F.hardshrink(x, -1),
                    "softshrink_zero": lambda x: F.softshrink(x, 0),
                    "prelu": lambda x: F.prelu(x, t.tensor([-0.5]))}.items():
        x = t.tensor(edges, requires_grad=True)
        r = f(x)
        obs[name] = (r, t.autograd.grad(r, x, t.ones(len(edges)))[0])
        obs[name + "_double"] = f(t.tensor(edges, dtype=t.float64)) if name != "prelu" else None
    return obs


@prog
def shrink_lambd_in_the_tensors_type(t):
    """hardshrink, and both shrinks' backward, compare with lambd rounded to a 16-bit
    tensor's type; softshrink's forward subtracts it as a float."""
    F = t.nn.functional
    obs = {"names": (F.hardshrink.__name__, t.hardshrink.__name__)}
    for dtype, v, lambd in (("float16", 0.10003662109375, 0.10002),
                            ("bfloat16", 0.10009765625, 0.10005), ("float32", 0.1, 0.1)):
        x = t.tensor([v, -v, 0.5, -0.05], dtype=getattr(t, dtype), requires_grad=True)
        for f in (F.hardshrink, F.softshrink):
            r = f(x, lambd)
            obs[f"{f.__name__}_{dtype}"] = (r, t.autograd.grad(r.sum(), x)[0])
    return obs


@prog
def prelu_weights_per_channel(t):
    F = t.nn.functional
    obs = {}
    for shape, n in (((2, 3, 4), 3), ((2, 3), 3), ((5,), 1), ((), 1), ((2, 3, 2, 2), 1)):
        x = t.tensor(arr(*shape, seed=12) if shape else 1.5, requires_grad=True)
        w = t.tensor(arr(n, seed=13), requires_grad=True)
        r = F.prelu(x * 1, w)
        r.backward(t.tensor(arr(*shape, seed=14) if shape else -2.0))
        fn = r.grad_fn
        obs[str(shape)] = (r, fn_name(fn), next_names(fn), fn._saved_weight.shape,
                           x.grad, w.grad, r.stride())
    x = t.tensor(arr(2, 3, 4, seed=15)).transpose(0, 2)
    obs["transposed"] = (F.prelu(x, t.tensor(arr(3, seed=1))).stride(),
                         t.prelu(x, t.tensor(0.5)).stride())
    w0 = t.tensor(0.3, requires_grad=True)
    r = t.prelu(t.tensor(arr(2, 3, seed=2)), w0)
    r.sum().backward()
    obs["zero_dim_weight"] = (r, w0.grad, next_names(r.grad_fn))
    return obs


@prog
def glu_halves_layouts_and_saved_dim(t):
    F = t.nn.functional
    obs = {}
    for shape, dim in (((2, 4), -1), ((2, 4), 0), ((4, 2, 6), 1), ((6,), 0), ((2, 2), -2)):
        x = t.tensor(arr(*shape, seed=16), requires_grad=True)
        r = F.glu(x * 1, dim)
        r.backward(t.tensor(arr(*r.shape, seed=17)))
        obs[f"{shape}_{dim}"] = (r, r.grad_fn._saved_dim, x.grad, r.stride())
    m = t.tensor(arr(4, 2, seed=18)).t()
    obs["transposed"] = (F.glu(m).stride(), F.glu(m, 0).stride(), F.glu(m, 0))
    return obs


@prog
def other_activations_refusals(t):
    F = t.nn.functional
    i = t.tensor([[-3, 0, 2, 1], [9, -1, 5, 4]])
    x = t.tensor(arr(2, 4, seed=19))
    calls = {
        "softplus_long": lambda: F.softplus(i), "logsigmoid_bool": lambda: F.logsigmoid(i > 0),
        "hardshrink_long": lambda: F.hardshrink(i), "softshrink_long": lambda: F.softshrink(i),
        "softshrink_long_negative": lambda: F.softshrink(i, -1),
        "softshrink_negative": lambda: F.softshrink(x, -0.5),
        "softshrink_double_negative": lambda: F.softshrink(x.double(), -1),
        "softshrink_half": lambda: F.softshrink(x.half(), -1e-3),
        "softshrink_bfloat16": lambda: F.softshrink(x.bfloat16(), -2),
        "softshrink_nan": lambda: F.softshrink(x, float("nan")),
        "tanhshrink_bool": lambda: F.tanhshrink(i > 0), "softsign_bool": lambda: F.softsign(i > 0),
        "tanhshrink_long": lambda: F.tanhshrink(i), "softsign_long": lambda: F.softsign(i),
        "glu_long": lambda: F.glu(i), "glu_scalar": lambda: F.glu(t.tensor(1.0)),
        "glu_odd": lambda: F.glu(t.ones(3)), "glu_odd_dim": lambda: F.glu(t.ones(2, 3), 1),
        "glu_dim": lambda: F.glu(x, 2),
        "glu_float_dim": lambda: F.glu(x, dim=1.0), "glu_str_dim": lambda: F.glu(x, "a"),
        "prelu_long": lambda: F.prelu(i, t.tensor([1])),
        "prelu_types": lambda: F.prelu(i, t.tensor([1.0])),
        "prelu_double": lambda: F.prelu(x, t.tensor([0.1], dtype=t.float64)),
        "prelu_count": lambda: F.prelu(x, t.tensor([0.1, 0.2])),
        "prelu_1d": lambda: F.prelu(t.ones(3), t.ones(3)),
        "prelu_0d": lambda: F.prelu(t.tensor(1.0), t.tensor([0.1, 0.2])),
        "prelu_2d_weight": lambda: F.prelu(x, t.ones(1, 1)),
        "prelu_float_weight": lambda: F.prelu(x, 0.25),
        "hardshrink_str": lambda: x.hardshrink("a"), "softplus_str": lambda: F.softplus(x, "a"),
        "hardshrink_kw": lambda: x.hardshrink(lambd="a"),
        "hardshrink_tensor": lambda: x.hardshrink(t.tensor([0.5])),
        "hardshrink_0dim": lambda: x.hardshrink(t.tensor(0.5)),
        "hardshrink_bool": lambda: x.hardshrink(True), "softplus_bool": lambda: F.softplus(x, True),
        "logsigmoid_two": lambda: F.logsigmoid(x, 1), "softplus_float": lambda: F.softplus(1.0),
        "hardshrink_float": lambda: F.hardshrink(1.0), "glu_float": lambda: F.glu(1.0),
        "tanhshrink_float": lambda: F.tanhshrink(1.0), "softsign_float": lambda: F.softsign(1.0),
    }
    return {k: catch(f) for k, f in calls.items()}


@prog
def other_activation_layers(t):
    nn = t.nn
    x = t.tensor(arr(2, 4, seed=20))
    layers = {"Softplus": nn.Softplus(), "Softplus2": nn.Softplus(2, 10),
              "LogSigmoid": nn.LogSigmoid(), "Hardshrink": nn.Hardshrink(),
              "Softshrink": nn.Softshrink(0.3), "Tanhshrink": nn.Tanhshrink(),
              "Softsign": nn.Softsign(), "GLU": nn.GLU(), "GLU0": nn.GLU(0),
              "PReLU": nn.PReLU(), "PReLU4": nn.PReLU(4, 0.1)}
    obs = {name: (repr(layer), layer(x), [(n, p) for n, p in layer.named_parameters()])
           for name, layer in layers.items()}
    p = nn.PReLU(4)
    out = p(t.tensor(arr(3, 4, seed=21)))
    out.sum().backward()
    obs["prelu_grad"] = (out, p.weight.grad)
    return obs


@pytest.mark.parametrize("program", prog.params())
def test_activations_more_parity(program, torch_mod, core):
    check_parity(program, torch_mod, core)


def test_programs_count():
    assert len(prog.programs) >= 16
