"""F.elu, F.celu, F.selu, F.leaky_relu, F.hardtanh, F.relu6, F.threshold, F.rrelu, their
in-place forms and layers (ops/activation.py) against torch 2.13.

The out-of-place forms save their input; elu/celu/selu/leaky_relu/rrelu in place save their
result (EluBackward1 ...), so modifying that result before backward raises, and a negative
slope in place is refused at backward; hardtanh_/threshold_ save a copy of the input.
"""

import pytest

from .harness import Registry, arr, catch, check_parity, fn_name, next_names

pytestmark = pytest.mark.parity

prog = Registry()
FLOATS = ("float32", "float64", "float16", "bfloat16")
CALLS = {  # name -> (function of (F, tensor, inplace))
    "elu": lambda F, y, ip: F.elu(y, 0.7, ip),
    "celu": lambda F, y, ip: F.celu(y, 1.5, ip),
    "selu": lambda F, y, ip: F.selu(y, ip),
    "leaky_relu": lambda F, y, ip: F.leaky_relu(y, 0.15, ip),
    "hardtanh": lambda F, y, ip: F.hardtanh(y, -0.75, 1.25, ip),
    "relu6": lambda F, y, ip: F.relu6(y * 4, ip),
    "threshold": lambda F, y, ip: F.threshold(y, 0.4, -3.0, ip),
    "rrelu": lambda F, y, ip: F.rrelu(y, 0.1, 0.3, False, ip),
}


def _run(t, name, inplace, dtype="float32", seed=0):
    F = t.nn.functional
    w = t.tensor(arr(3, 4, seed=seed), requires_grad=True)
    y = (w * 1).to(getattr(t, dtype))
    r = CALLS[name](F, y, inplace)
    fn = r.grad_fn
    obs = {"r": r, "same": r is y, "version": y._version, "node": fn_name(fn),
           "next": next_names(fn)}
    r.backward(t.tensor(arr(3, 4, seed=seed + 9)).to(r.dtype))
    obs["grad"] = w.grad
    return obs


@prog
def activations_values_nodes_and_gradients(t):
    return {f"{name}{'_' if ip else ''}": _run(t, name, ip, seed=i)
            for i, name in enumerate(CALLS) for ip in (False, True)}


@prog
def activations_in_every_float_dtype(t):
    return {f"{name}_{dtype}": _run(t, name, False, dtype, seed=3)
            for name in CALLS for dtype in FLOATS}


@prog
def in_place_activations_save_their_result_or_a_copy(t):
    F = t.nn.functional
    obs = {}
    for name in CALLS:
        w = t.tensor(arr(5, seed=4), requires_grad=True)
        y = w * 1
        CALLS[name](F, y, True)
        y.mul_(2)
        obs[name] = catch(lambda y=y: y.sum().backward())
        obs[name + "_grad"] = w.grad
    return obs


@prog
def out_of_place_activations_save_their_input(t):
    F = t.nn.functional
    obs = {}
    for name in CALLS:
        w = t.tensor(arr(5, seed=5), requires_grad=True)
        y = w * 1
        r = CALLS[name](F, y, False)
        y.add_(1)
        obs[name] = catch(lambda r=r: r.sum().backward())
    return obs


@prog
def negative_slopes_in_place_fail_at_backward(t):
    F = t.nn.functional
    obs = {}
    for key, call in {"elu_": lambda y: F.elu_(y, -0.5), "celu_": lambda y: F.celu_(y, -2.0),
                      "leaky_relu_": lambda y: F.leaky_relu_(y, -0.1),
                      "rrelu_": lambda y: F.rrelu_(y, -0.3, -0.1),
                      "elu": lambda y: F.elu(y, -0.5), "leaky": lambda y: F.leaky_relu(y, -0.1)
                      }.items():
        w = t.tensor(arr(4, seed=6), requires_grad=True)
        r = call(w * 1)
        obs[key] = (r, catch(lambda r=r: r.sum().backward()), w.grad)
    return obs


@prog
def activations_on_views_and_integers(t):
    F = t.nn.functional
    w = t.tensor(arr(4, 5, seed=7), requires_grad=True)
    y = w * 1
    F.hardtanh_(y[1, ::2], -0.5, 0.5)  # saves a copy: later writes to y don't matter
    F.threshold_(y[2:].t()[1], 0.0, 9.0)
    F.elu_(y[3, 2:])  # saves its result, a view of y: the last write to y
    y.sum().backward()
    v = w * 1
    F.leaky_relu_(v[0], 0.3)
    F.hardtanh_(v[1])  # another region, but views share y's version counter
    shared = catch(lambda: v.sum().backward())
    i = t.tensor([[-3, 0, 2, 7], [9, -1, 5, 1]])
    return {"y": y, "node": fn_name(y.grad_fn), "grad": w.grad, "version": y._version,
            "shared_counter": shared,
            "hardtanh_int": F.hardtanh(i, -1.5, 4.9), "relu6_int": F.relu6(i),
            "threshold_int": F.threshold(i, 1.5, -7.25), "u8": catch(
                lambda: F.hardtanh(i.abs().to(t.uint8), -1, 3)),
            "leaky_int": catch(lambda: F.leaky_relu(i)), "elu_bool": catch(
                lambda: F.elu(i > 0)), "threshold_expanded": F.threshold_(
                t.tensor([0.5, -1.5]).expand(3, 2), 0.0, 1.0)}


@prog
def rrelu_training_draws_and_saves_its_noise(t):
    F = t.nn.functional
    w = t.tensor(arr(3, 4, seed=8), requires_grad=True)
    y = w * 1
    r = F.rrelu(y, 0.25, 0.25, training=True)  # U(0.25, 0.25) is 0.25: the same on both
    r.sum().backward()
    fn = r.grad_fn
    z = F.rrelu(w * 1, 0.1, 0.3, training=True)
    low = (z / w).detach()
    return {"r": r, "grad": w.grad, "noise": fn._saved_noise, "training": fn._saved_training,
            "lower": fn._saved_lower, "upper": fn._saved_upper,
            "random_in_bounds": bool(((low >= 0.1) & (low <= 0.3) | (w > 0)).all()),
            "positive_kept": bool((z == w)[w > 0].all())}


@prog
def activation_layers(t):
    nn = t.nn
    x = t.tensor(arr(2, 3, seed=9))
    layers = {"ELU": nn.ELU(0.5), "CELU": nn.CELU(2.0, True), "SELU": nn.SELU(),
              "LeakyReLU": nn.LeakyReLU(0.2, True), "Hardtanh": nn.Hardtanh(-0.5, 0.5),
              "ReLU6": nn.ReLU6(True), "Threshold": nn.Threshold(0.1, 20.0),
              "RReLU": nn.RReLU(0.1, 0.3).eval()}
    obs = {}
    for name, layer in layers.items():
        y = x * 3
        obs[name] = (repr(layer), layer(y), y._version)
    obs["bad_hardtanh"] = catch(lambda: nn.Hardtanh(1.0, -1.0))
    return obs


@pytest.mark.parametrize("program", prog.params())
def test_activation_parity(program, torch_mod, core):
    check_parity(program, torch_mod, core)


def test_programs_count():
    assert len(prog.programs) >= 8
