"""torch's module-level in-place functions (functional_inplace.py) against torch 2.13.

``torch.sqrt_(x)`` is ``x.sqrt_()``: the tensor itself comes back, bumped once, with the
method's node and saved tensors, so a later in-place change still breaks backward in the same
words. What the function changes is only the binding: ``input`` is argument 1 (a keyword too),
and torch's parser words every refusal (probes_twins.py holds the bad calls).
"""

import pytest

from .harness import Registry, arr, catch, check_parity, fn_name, next_names, pos

pytestmark = pytest.mark.parity

prog = Registry()

# name -> (extra arguments, the input's sign: + for ops defined on positive numbers only)
UNARY = {
    "abs_": "", "neg_": "", "negative_": "", "reciprocal_": "+", "sqrt_": "+", "rsqrt_": "+",
    "square_": "", "log_": "+", "log2_": "+", "log10_": "+", "log1p_": "+", "exp2_": "",
    "expm1_": "", "sinc_": "", "sin_": "", "cos_": "", "tan_": "", "sinh_": "", "cosh_": "",
    "asinh_": "", "atan_": "", "arctan_": "", "arcsinh_": "", "deg2rad_": "", "rad2deg_": "",
    "ceil_": "", "floor_": "", "trunc_": "", "fix_": "", "frac_": "", "round_": "",
    "zero_": "", "conj_physical_": "", "nan_to_num_": "",
}
UNIT = ("asin_", "acos_", "atanh_", "arcsin_", "arccos_", "arctanh_", "logit_")  # (0, 1)
AT_LEAST_ONE = ("acosh_", "arccosh_")


def _input(t, name, seed):
    if name in UNIT:
        return t.tensor(pos(2, 3, seed=seed) / 3.0 + 0.1, requires_grad=True)
    if name in AT_LEAST_ONE:
        return t.tensor(pos(2, 3, seed=seed) + 1.5, requires_grad=True)
    if UNARY.get(name) == "+":
        return t.tensor(pos(2, 3, seed=seed), requires_grad=True)
    return t.tensor(arr(2, 3, seed=seed), requires_grad=True)


def _one(t, name, seed, *args):
    w = _input(t, name, seed)
    y = w * 2
    before = y._version
    r = getattr(t, name)(y, *args)
    obs = {"same": r is y, "bump": y._version - before, "grad_fn": fn_name(y.grad_fn),
           "next": next_names(y.grad_fn), "y": y}
    if y.requires_grad:
        (y * t.tensor(arr(2, 3, seed=seed + 50))).sum().backward()
        obs["grad"] = w.grad
    return obs


@prog
def unary_twins_are_their_methods(t):
    return {name: _one(t, name, seed) for seed, name in enumerate([*UNARY, *UNIT,
                                                                    *AT_LEAST_ONE])}


@prog
def twins_with_arguments(t):
    v = t.tensor(arr(3, seed=7))
    return {
        "fill_": _one(t, "fill_", 1, 2.5), "fill_tensor": _one(t, "fill_", 2, t.tensor(0.5)),
        "clamp_min_": _one(t, "clamp_min_", 3, 0.0), "clamp_max_": _one(t, "clamp_max_", 4, 0.5),
        "clamp_min_tensor": _one(t, "clamp_min_", 5, v), "clip_": _one(t, "clip_", 6, -1, 1),
        "xlogy_": _one(t, "xlogy_", 7, 2.0), "logit_eps": _one(t, "logit_", 8, 0.2),
        "nan_to_num_": _one(t, "nan_to_num_", 9, 1.0, 2.0, -2.0),
        "xlogy_tensor": _one(t, "xlogy_", 10, v.abs()),
    }


@prog
def integer_and_exponent_twins(t):
    a = t.tensor([[12, -18, 7], [0, 9, 10]])
    b = t.tensor([[8, 12, 0], [5, -6, 4]])
    x = t.tensor(arr(2, 3, seed=3), requires_grad=True)
    y = x * 1
    e = t.tensor([[1, 2, -1], [0, 3, -2]])
    return {"gcd_": (t.gcd_(a.clone(), b), a.clone().gcd_(b)),
            "lcm_": (t.lcm_(a.clone(), b), a.clone().lcm_(b)),
            "ldexp_": t.ldexp_(y, e), "ldexp_node": fn_name(y.grad_fn), "version": y._version}


@prog
def a_saved_result_then_changed_raises_at_backward(t):
    obs = {}
    for name in ("sqrt_", "rsqrt_", "exp2_", "tan_", "reciprocal_", "sinc_"):
        w = t.tensor(pos(3, seed=2), requires_grad=True)
        y = w * 1
        getattr(t, name)(y)
        y.add_(1)
        obs[name] = catch(lambda y=y: y.sum().backward())
    return obs


@prog
def twins_on_views_rebase_the_base(t):
    w = t.tensor(arr(3, 4, seed=4), requires_grad=True)
    y = w * 1
    t.zero_(y[0])
    t.clamp_min_(y.t()[1], 0.25)
    t.sqrt_(y[1:, ::2].abs_())
    y.sum().backward()
    return {"grad_fn": fn_name(y.grad_fn), "next": next_names(y.grad_fn), "grad": w.grad,
            "version": y._version, "y": y}


@prog
def twins_refuse_as_their_methods(t):
    w = t.tensor(arr(2, 3, seed=5), requires_grad=True)
    i = t.tensor([[1, 4], [9, 16]])
    x = t.tensor(arr(2, 3, seed=6))
    return {"leaf": catch(lambda: t.sqrt_(w)), "leaf_view": catch(lambda: t.zero_(w[0])),
            "int_sqrt": catch(lambda: t.sqrt_(i)), "int_version": i._version,
            "bool_neg": catch(lambda: t.neg_(t.tensor([True]))),
            "broadcast": catch(lambda: t.clamp_min_(x[0], x)),
            "expanded": catch(lambda: t.zero_(x[0].expand(2, 3))),
            "x_version": x._version,
            "no_grad_leaf": t.sqrt_(w.detach().abs()).requires_grad}


@prog
def detach_twin_cuts_the_graph(t):
    w = t.tensor(arr(2, 3, seed=8), requires_grad=True)
    y = w * 3
    r = t.detach_(y)
    return {"same": r is y, "grad_fn": fn_name(y.grad_fn), "requires_grad": y.requires_grad,
            "leaf": y.is_leaf, "version": y._version,
            "view": catch(lambda: t.detach_((w * 1)[0]))}


@prog
def addmv_twin_and_its_deprecated_forms(t):
    m = t.tensor(arr(3, 3, seed=9))
    vec = t.tensor(arr(3, seed=10))
    obs = {}
    for key, call in {"plain": lambda y: t.addmv_(y, m, vec),
                      "keywords": lambda y: t.addmv_(y, m, vec, beta=0.5, alpha=2),
                      "names": lambda y: t.addmv_(input=y, mat=m, vec=vec, alpha=-1),
                      "beta_first": lambda y: t.addmv_(0.5, y, m, vec),
                      "beta_alpha_first": lambda y: t.addmv_(0.5, y, 2, m, vec)}.items():
        w = t.tensor(arr(3, seed=11), requires_grad=True)
        y = w * 1
        r = call(y)
        y.sum().backward()
        obs[key] = {"same": r is y, "y": y, "grad": w.grad, "node": fn_name(y.grad_fn),
                    "version": y._version}
    return obs


@pytest.mark.parametrize("program", prog.params())
def test_functional_inplace_parity(program, torch_mod, core):
    check_parity(program, torch_mod, core)


def test_programs_count():
    assert len(prog.programs) >= 8
