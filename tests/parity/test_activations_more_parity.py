"""F.silu, F.mish, F.hardswish, F.hardsigmoid (ops/self_gated.py), their in-place forms and
layers, against torch 2.13.

Out of place or in place, each records the same node (SiluBackward0 ...), which saves the
input: in place, a copy taken before the write, so changing the result again before backward
is allowed, while changing the input of the out-of-place form is not.
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
        r = GATED[name](F, y, True) if name in ("silu", "mish") else GATED[name](
            F, y, True)
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


@pytest.mark.parametrize("program", prog.params())
def test_activations_more_parity(program, torch_mod, core):
    check_parity(program, torch_mod, core)


def test_programs_count():
    assert len(prog.programs) >= 9
