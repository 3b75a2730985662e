"""The float16/bfloat16 gradients of relu, tanh and sigmoid bit for bit, and the order in which
sigmoid, reciprocal and sign compute theirs (ops/unary.py, ops/half_backward.py).

ReluBackward0 is threshold_backward, ``result <= 0 ? 0 : grad``: +0.0 where the result is
0.0 or -0.0, the gradient where it is NaN; its vector loop widens a 16-bit NaN gradient to
float32 and back. TanhBackward0 and SigmoidBackward0 are kernels that compute in float32 and
round once (float16's sigmoid_backward is Half arithmetic: rounded after every step).
Gradients of every kind of NaN, ±0, ±inf, at lengths inside one vector step, past it, with
a tail, strided and transposed; test_halfgrad_under_each_build runs them under each of
PyTorch's CPU builds (their NaNs differ).
"""
from __future__ import annotations

import json
import os
import subprocess
import sys

import numpy as np
import pytest

from inplace_tutorial import cpu_capability

from .harness import Registry, arr, check_parity
from .test_cpu_capability_parity import ROOT, _run
from .test_nan_sign_parity import bits

pytestmark = pytest.mark.parity

prog = Registry()

_PATTERNS = {  # NaNs of every kind, ±0, ±1, ±inf, two ordinary numbers
    "float16": [0x7E00, 0xFE00, 0x7E23, 0xFE23, 0x7D00, 0xFD01, 0x7C01, 0xFFFF,
                0x3C00, 0xBC00, 0x0000, 0x8000, 0x7C00, 0xFC00, 0x3555, 0xB800],
    "bfloat16": [0x7FC0, 0xFFC0, 0x7FC3, 0xFFC3, 0x7FA0, 0xFF81, 0x7F81, 0xFFFF,
                 0x3F80, 0xBF80, 0x0000, 0x8000, 0x7F80, 0xFF80, 0x3EAB, 0xBF00],
}
_DTYPES = ("float16", "bfloat16")


def _patterns(t, dtype, n, shift):
    raw = np.array(_PATTERNS[dtype], dtype=np.uint16).view(np.int16)
    raw = np.resize(np.roll(raw, shift), n).copy()
    return t.tensor(raw).view(getattr(t, dtype))


def _inputs(t, dtype, n, shift):
    """x for the forward: the patterns (rolled by ``shift``) and ordinary numbers, so that
    the gradient's patterns meet results that are positive, ±0, NaN and near ±1."""
    x = t.tensor(arr(n, seed=n)).mul(3).to(getattr(t, dtype))
    pats = _patterns(t, dtype, n, shift)
    keep = t.tensor(np.arange(n) % 3 == 0)
    return t.where(keep, pats, x)


def _grads(t, x, op, g, layout):
    """x's gradient of op through a layout: contiguous, strided (x[::2]) or transposed."""
    x = x.detach().requires_grad_()
    if layout == "strided":
        y = getattr(t, op)(x[::2])
        y.backward(g[: y.numel()])
    elif layout == "transposed":
        m = x.numel() // 4 * 4
        y = getattr(t, op)(x[:m].reshape(4, -1).t())
        y.backward(g[:m].reshape(-1, 4))
    else:
        y = getattr(t, op)(x)
        y.backward(g)
    return bits(y), bits(x.grad)


_LENGTHS = (1, 16, 31, 32, 33, 37, 64, 100, 300)


def _numbers(t, x):
    """x with its NaNs replaced by 0.75."""
    return t.where(x != x, t.full_like(x, 0.75), x)


@prog
def relu_tanh_sigmoid_16bit_gradient_bits(t):
    """relu's NaN gradients meet NaN results too. tanh's and sigmoid's NaN gradients meet
    numbers, and their NaN results numbers: where both operands are NaN, which one survives
    depends on the order the compiler gave the CPU's operands, per build and loop (not
    modelled: the core keeps the gradient's)."""
    out = {}
    for dtype in _DTYPES:
        for n in _LENGTHS:
            g = _patterns(t, dtype, n, 0)
            x = _inputs(t, dtype, n, 5)
            cases = {"relu": (x, g), "tanh": (_numbers(t, x), g),
                     "tanh_nan_result": (x, _numbers(t, g)), "sigmoid": (_numbers(t, x), g),
                     "sigmoid_nan_result": (x, _numbers(t, g))}
            for name, (xs, gs) in cases.items():
                op = name.split("_")[0]
                for layout in ("contiguous", "strided", "transposed"):
                    if layout != "contiguous" and n < 16:
                        continue
                    out[f"{name}_{dtype}_{n}_{layout}"] = _grads(t, xs, op, gs, layout)
    return out


@prog
def relu_16bit_nan_and_signed_zero_results(t):
    """A NaN result passes its gradient, -0.0 and 0.0 results give +0.0 (not sign * grad)."""
    out = {}
    for dtype in _DTYPES:
        d = getattr(t, dtype)
        for n in (8, 40, 70):
            x = t.tensor([float("nan"), -0.0, 0.0, -1.0, 2.0] * n)[:n].to(d).requires_grad_()
            g = t.tensor([-1.5, -2.0, -3.0, 0.5, -0.25] * n)[:n].to(d)
            x.relu().backward(g)
            out[f"{dtype}_{n}"] = bits(x.grad)
        x = t.tensor([-0.0, float("nan"), 1.0] * 20).to(d).requires_grad_()
        (x * 1).relu().sum().backward()  # an expanded gradient (stride 0)
        out[f"{dtype}_expanded"] = bits(x.grad)
        y = x.detach().clone().requires_grad_()
        z = y * 1
        z.relu_().backward(-t.ones(60, dtype=d))  # relu_ saves its result too
        out[f"{dtype}_inplace"] = bits(y.grad)
    return out


@prog
def tanh_sigmoid_16bit_gradients_round_once(t):
    """Ordinary numbers: the composite ``g * (1 - r * r)`` rounds three times and differs in
    the last bit from tanh_backward's one rounding in about half of these cells."""
    out = {}
    for dtype in _DTYPES:
        d = getattr(t, dtype)
        x = t.tensor(arr(4000, seed=1)).mul(2).to(d)
        g = t.tensor(arr(4000, seed=2)).to(d)
        for op in ("tanh", "sigmoid"):
            out[f"{op}_{dtype}"] = _grads(t, x, op, g, "contiguous")
        w = t.tensor(arr(4000, seed=3), requires_grad=True)
        t.nn.functional.tanhshrink((w * 3).to(d)).backward(g)
        out[f"tanhshrink_{dtype}"] = bits(w.grad)
    return out


@prog
def sigmoid_reciprocal_sign_gradients_in_pytorchs_order(t):
    """sigmoid_backward is ``(g * (1 - r)) * r``, reciprocal's ``-g * (r * r)``, sign's
    ``zeros_like(g)`` (+0.0 for a negative or NaN gradient), in every float dtype. The
    float32/float64 forward of sigmoid differs from torch's in the last bit in some cells
    (its exp), so each side checks its own gradient against the formula on its own result:
    True everywhere in torch; the old ``g * r * (1 - r)`` gave False in about a third."""
    out = {}
    for dtype in ("float32", "float64", "float16", "bfloat16"):
        d = getattr(t, dtype)
        x = t.tensor(arr(3000, seed=4)).mul(2).to(d)
        g = t.tensor(arr(3000, seed=5)).to(d)
        out[f"reciprocal_{dtype}"] = _grads(t, x, "reciprocal", g, "contiguous")
        g[::7] = float("nan")  # (a 16-bit product's NaN bits are mul's: not here)
        out[f"sign_{dtype}"] = _grads(t, x, "sign", g, "contiguous")
        if dtype.endswith("16"):
            out[f"sigmoid_{dtype}"] = _grads(t, x, "sigmoid", g, "contiguous")
            continue
        w = x.detach().requires_grad_()
        r = w.sigmoid()
        r.backward(g)
        formula = g * (1 - r.detach()) * r.detach()
        out[f"sigmoid_{dtype}_formula"] = bits(w.grad) == bits(formula)
    return out


@prog
def gradient_layout_follows_the_operands(t):
    """threshold_backward's result is laid out as relu's result (its first operand), tanh's
    and sigmoid's as the incoming gradient: through a transposed view the input's gradient
    is (4, 1)-strided for relu, (1, 5) for tanh and sigmoid. Every float dtype."""
    out = {}
    for dtype in ("float32", "float64", "float16", "bfloat16"):
        d = getattr(t, dtype)
        for op in ("relu", "tanh", "sigmoid"):
            h = t.tensor(arr(5, 4, seed=11)).to(d).requires_grad_()
            z = getattr(h.t(), op)()
            (gr,) = t.autograd.grad(z, h, t.tensor(arr(4, 5, seed=12)).to(d))
            x = t.tensor(arr(5, 4, seed=13)).to(d).t().detach().requires_grad_()
            getattr(x, op)().backward(t.tensor(arr(5, 4, seed=14)).to(d).t())
            out[f"{op}_{dtype}"] = (gr.stride(), x.grad.stride())
            if dtype.endswith("16") or op == "relu":  # (float32/64 tanh/sigmoid: forwards
                out[f"{op}_{dtype}_bits"] = (bits(gr), bits(x.grad))  # differ in last bits)
    return out


@pytest.mark.parametrize("program", prog.params())
def test_halfgrad_parity(program, torch_mod, core):
    check_parity(program, torch_mod, core)


@pytest.mark.parametrize("build", [b.lower() for b in cpu_capability.runnable_builds()])
def test_halfgrad_under_each_build(build, torch_mod):
    report = _run(build, ["tests.parity.test_halfgrad_parity"])
    assert report["torch"] == report["core"] == build.upper()
    assert len(report["programs"]) == len(prog.programs)
    differ = {name: r["diffs"][:3] for name, r in report["programs"].items() if r["diffs"]}
    assert not differ, f"under ATEN_CPU_CAPABILITY={build}: " + json.dumps(differ, indent=1)


def _tanh_wide(t, dtype: str):
    """float32/float64 tanh: the results' bits and the gradient's (ordinary, tiny and large
    inputs)."""
    d = getattr(t, dtype)
    x = t.cat([t.tensor(arr(6000, seed=7)).mul(2), t.tensor(arr(2000, seed=8)).mul(1e-3),
               t.tensor(arr(2000, seed=9)).mul(6)]).to(d).requires_grad_()
    g = t.tensor(arr(10000, seed=10)).to(d)
    r = x.tanh()
    r.backward(g)
    return bits(r), bits(x.grad)


def tanh_wide_report() -> dict:
    """Per dtype: how many cells torch's and the core's tanh results agree in, and in how
    many of those their gradients differ. (The float32/float64 forward differs from torch's
    in the last bit in some cells, so the gradients are compared where it agrees.)"""
    import torch

    import inplace_tutorial
    report = {}
    for dtype in ("float32", "float64"):
        (rt, gt), (rc, gc) = _tanh_wide(torch, dtype), _tanh_wide(inplace_tutorial, dtype)
        same = rt == rc
        report[dtype] = (int(same.sum()), int((gt != gc)[same].sum()))
    return report


@pytest.mark.parametrize("build", [b.lower() for b in cpu_capability.runnable_builds()])
def test_tanh_float32_float64_gradient_fused_as_each_build(build, torch_mod):
    """The AVX2/AVX512 builds compute ``1 - r * r`` as one fused multiply-add, DEFAULT
    rounds the square (tanh_backward.py): about half these gradients differ between the two.
    Each build in a fresh process (both libraries read ATEN_CPU_CAPABILITY on import)."""
    code = ("import json; from tests.parity.test_halfgrad_parity import tanh_wide_report; "
            "print(json.dumps(tanh_wide_report()))")
    env = dict(os.environ, ATEN_CPU_CAPABILITY=build, PYTHONPATH=str(ROOT))
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True,
                          text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-3000:]
    report = json.loads(done.stdout.strip().splitlines()[-1])
    for dtype, (compared, differ) in report.items():
        assert compared > 5000, (dtype, compared)
        assert differ == 0, f"{dtype} under {build}: {differ} of {compared} gradients differ"
