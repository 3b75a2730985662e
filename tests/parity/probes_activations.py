"""Probes of the activations the activations helper added: F.silu, F.mish, F.hardswish,
F.hardsigmoid (ops/self_gated.py) with inplace=, their layers, torch._C._nn's refusals as F
passes them on. Each line was run on torch 2.13 first."""
from __future__ import annotations

_GATED = ("silu", "mish", "hardswish", "hardsigmoid")


def _own(n: str, fixture: str) -> str:
    """The tensor an in-place probe writes: silu's and mish's last bits come from torch's
    vectorised exp (SLEEF), not NumPy's, and a fixture's values after a probe are compared
    bit for bit, so those two write a copy (a result is compared to a tolerance)."""
    return f"({fixture} * 1)" if n in ("silu", "mish") else fixture


SELF_GATED = [
    *[f"F.{n}(x)" for n in _GATED],
    *[f"F.{n}({_own(n, 'x')}, True)" for n in _GATED],
    *[f"F.{n}({_own(n, 'img')}, inplace=True)" for n in _GATED],
    *[f"F.{n}({_own(n, 'y')}, inplace=True).grad_fn.name()" for n in _GATED],
    *[f"F.{n}({_own(n, 'y')}, True).grad_fn._saved_self" for n in _GATED],
    *[f"F.{n}(y).grad_fn._saved_self is y" for n in _GATED],
    *[f"F.{n}(y, True).grad_fn._saved_self is y" for n in ("hardswish", "hardsigmoid")],
    *[f"F.{n}(w, True)" for n in _GATED],
    *[f"F.{n}(w[0], True)" for n in _GATED],
    *[f"F.{n}(i)" for n in _GATED],
    *[f"F.{n}(b, True)" for n in _GATED],
    *[f"F.{n}({_own(n, 'd')}, 1)" for n in _GATED],
    *[f"F.{n}({_own(n, 's')}, inplace=1)" for n in _GATED],
    *[f"F.{n}(1.0)" for n in _GATED],
    *[f"F.{n}(None, True)" for n in _GATED],
    *[f"F.{n}(x, True, 1)" for n in _GATED],
    *[f"F.{n}(inp=x)" for n in _GATED],
    *[f"F.{n}(input={_own(n, 'x')}, inplace=True)" for n in _GATED],
    *[f"F.{n}({_own(n, 'x')}.t(), True).stride()" for n in _GATED],
    *[f"F.{n}(x.expand(2, 2, 3), True)" for n in _GATED],
    *[f"F.{n}({_own(n, 'y')}, True).sum().backward()" for n in _GATED],
    "F.hardswish(y, True).mul_(2).sum().backward()", "F.hardsigmoid(y[0], True)._version",
    "F.hardswish(y[:, 1], True).grad_fn.name()", "F.hardsigmoid(m, True)",
    "F.silu(x.half())", "F.mish(x.bfloat16() * 1, True)", "F.hardswish(m * 0.75)",
    "F.hardsigmoid(m.double() * 0.75, True)", "F.silu(y * 1, True).mul_(2).sum().backward()",
    "F.mish(y[0] * 1, True)._version",
]

SELF_GATED_MODULES = [
    "nn.SiLU()", "nn.SiLU(True)", "nn.Mish(inplace=True)", "nn.Hardswish(True)",
    "nn.Hardsigmoid(inplace=True)", "nn.Hardsigmoid()", "nn.SiLU(True)(x * 1)", "nn.Mish()(x)",
    "nn.Hardswish(True)(x)", "nn.Hardsigmoid(True)(m)", "nn.SiLU(True).inplace",
    "nn.Hardswish().inplace", "nn.SiLU(True)(w)", "nn.Mish(True)(y * 1).grad_fn.name()",
    "nn.SiLU(1, 2)", "nn.Hardswish(inplace=True, x=1)", "nn.SiLU()(i)",
    "nn.Sequential(nn.SiLU(True), nn.Hardswish())", "len(list(nn.SiLU().parameters()))",
]
