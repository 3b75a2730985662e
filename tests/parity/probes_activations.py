"""Probes of the activations the activations helper added: F.silu, F.mish, F.hardswish,
F.hardsigmoid (ops/self_gated.py) with inplace=, their layers, torch._C._nn's refusals as F
passes them on. Each line was run on torch 2.13 first."""
from __future__ import annotations

_GATED = ("silu", "mish", "hardswish", "hardsigmoid")


def _own(n: str, fixture: str) -> str:
    """The tensor an in-place probe writes: the last bits of silu, mish, softplus and
    log_sigmoid come from torch's vectorised exp/log1p (SLEEF), not NumPy's, and a fixture's
    values after a probe are compared bit for bit, so those write a copy (a result is
    compared to a tolerance)."""
    return f"({fixture} * 1)" if n in ("silu", "mish", "softplus", "log_sigmoid") else fixture


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

# F.softplus, F.logsigmoid, the shrinks, F.glu, F.prelu (ops/softplus.py, shrink.py, glu.py,
# prelu.py), torch.hardshrink/torch.prelu and the methods; none writes a fixture
OTHERS = [
    "F.softplus(x)", "F.softplus(x, 2)", "F.softplus(x, beta=0.5, threshold=1)",
    "F.softplus(x, 2, 1)", "F.softplus(d, 0.0)", "F.softplus(x, -1.0)", "F.softplus(i)",
    "F.softplus(x, 'a')", "F.softplus(x, None)", "F.softplus(x, 1, 2, 3)", "F.softplus(1.0)",
    "F.softplus(x, bet=1)", "F.softplus(y).grad_fn._saved_beta",
    "F.softplus(y, 2.0, 5).grad_fn._saved_threshold", "F.softplus(y, t.tensor(2.0))",
    "F.softplus(y, 2).grad_fn._saved_self is y", "F.softplus(x.half(), 3)",
    "F.softplus(y, 2, 1).sum().backward()", "F.softplus(img).stride()",
    "F.logsigmoid(x)", "F.logsigmoid(d)", "F.logsigmoid(i)", "F.logsigmoid(b)",
    "F.logsigmoid(x, 1)", "F.logsigmoid(input=x)", "F.logsigmoid(None)",
    "F.logsigmoid(y).grad_fn.name()", "F.logsigmoid(y).grad_fn._saved_buffer",
    "F.logsigmoid(y).grad_fn._saved_self is y", "F.logsigmoid(y).sum().backward()",
    "F.logsigmoid(x.t()).stride()", "F.logsigmoid(x.bfloat16())",
    "F.hardshrink(x)", "F.hardshrink(x, 2)", "F.hardshrink(x, lambd=3.5)", "F.hardshrink(x, -1)",
    "F.hardshrink(i)", "F.hardshrink(b)", "F.hardshrink(x, 'a')", "F.hardshrink(1.0)",
    "t.hardshrink(x, 2)", "t.hardshrink(x, lambd=2)", "t.hardshrink(x, lamb=2)",
    "t.hardshrink(x, 1, 2)", "x.hardshrink()", "x.hardshrink(2.5)", "x.hardshrink(lambd=2)",
    "x.hardshrink('a')", "x.hardshrink(lambd='a')", "x.hardshrink(t.tensor(2.0))",
    "x.hardshrink(t.tensor([2.0]))", "x.hardshrink(None)", "x.hardshrink(2, 3)",
    "y.hardshrink(2).grad_fn._saved_lambd", "F.hardshrink(y, 2).grad_fn._saved_self is y",
    "y.hardshrink(2).sum().backward()", "m.hardshrink(2).t().hardshrink(3)",
    "F.softshrink(x)", "F.softshrink(x, 2)", "F.softshrink(x, lambd=1.5)", "F.softshrink(x, -1)",
    "F.softshrink(d, -0.5)", "F.softshrink(x.half(), -1)", "F.softshrink(x.bfloat16(), -2)",
    "F.softshrink(x, float('nan'))", "F.softshrink(i)", "F.softshrink(i, -1)",
    "F.softshrink(x, 'a')", "F.softshrink(y, 1).grad_fn._saved_lambd",
    "F.softshrink(y, 3).sum().backward()", "F.softshrink(m, 1.5)",
    "F.tanhshrink(x)", "F.tanhshrink(i)", "F.tanhshrink(b)", "F.tanhshrink(y).grad_fn.name()",
    "F.tanhshrink(1.0)", "F.tanhshrink(x, 1)",
    "F.softsign(x)", "F.softsign(i)", "F.softsign(b)", "F.softsign(y).grad_fn.name()",
    "F.softsign(1.0)", "F.softsign(d)",
    "F.glu(x)", "F.glu(x, 0)", "F.glu(x, 1)", "F.glu(x, -2)", "F.glu(x, 2)", "F.glu(v)",
    "F.glu(s)", "F.glu(m)", "F.glu(img, 1)", "F.glu(i)", "F.glu(x, 1.0)", "F.glu(x, dim='a')",
    "F.glu(x, None)", "F.glu(1.0)", "F.glu(x, 0, 1)", "F.glu(img.transpose(1, 3), 1).stride()",
    "F.glu(y, 0).grad_fn._saved_dim", "F.glu(y, -2).grad_fn._saved_dim",
    "F.glu(y, 0).sum().backward()", "F.glu(y, 0).grad_fn._saved_self is y",
    "F.prelu(x, t.tensor([0.25]))", "F.prelu(x, t.tensor([0.1, 0.2, 0.3]))",
    "F.prelu(x, t.tensor(0.5))", "F.prelu(x, t.tensor([0.1, 0.2]))",
    "F.prelu(v, t.tensor([0.1, 0.2, 0.3]))", "F.prelu(s, t.tensor([0.1, 0.2]))",
    "F.prelu(s, t.tensor([0.1]))", "F.prelu(x, t.ones(1, 1))", "F.prelu(x, 0.25)",
    "F.prelu(d, t.tensor([0.25]))", "F.prelu(i, t.tensor([1]))", "F.prelu(i, t.tensor([1.0]))",
    "F.prelu(img, t.tensor([0.5, -1.0]))", "F.prelu(img.transpose(0, 3), t.tensor([2.0]))",
    "t.prelu(x, t.tensor([0.3]))", "t.prelu(x, weight=t.tensor([0.3]))", "t.prelu(x)",
    "x.prelu(t.tensor([0.3]))", "x.prelu(0.3)", "x.prelu(t.tensor([0.3]), 1)",
    "F.prelu(y, t.tensor([0.25, 0.5, 1.0], requires_grad=True)).grad_fn._saved_weight",
    "F.prelu(y, t.tensor([0.25])).grad_fn._saved_self is y",
    "F.prelu(y, t.tensor([0.25])).sum().backward()",
]

OTHER_MODULES = [
    "nn.Softplus()", "nn.Softplus(2, 10)", "nn.Softplus(beta=0.5)", "nn.Softplus()(x)",
    "nn.LogSigmoid()", "nn.LogSigmoid()(x)", "nn.Hardshrink()", "nn.Hardshrink(2)(x)",
    "nn.Hardshrink(lambd=1.5)", "nn.Softshrink(0.3)", "nn.Softshrink(2)(x)", "nn.Tanhshrink()",
    "nn.Tanhshrink()(x)", "nn.Softsign()(x)", "nn.Softsign()", "nn.GLU()", "nn.GLU(0)(x)",
    "nn.GLU()(x)", "nn.PReLU()", "nn.PReLU(3)", "nn.PReLU(3, 0.1)(x)", "nn.PReLU()(x)",
    "nn.PReLU(2)(x)", "nn.PReLU().weight", "nn.PReLU(init=-1.0)(x)",
    "list(nn.PReLU(3).state_dict())", "nn.PReLU(3).num_parameters", "nn.Softplus().beta",
    "nn.Hardshrink().lambd", "nn.GLU().dim", "nn.PReLU(dtype=t.float64)(d)",
    "nn.PReLU(device='cpu').weight.device", "nn.PReLU(device='cuda')",
    "nn.PReLU(2, device=t.device('cpu'))(x[:, :2])", "nn.PReLU(dtype=t.float16).weight",
    "nn.PReLU(0)", "nn.PReLU(-1)", "nn.PReLU(2.5)",
    "F.hardshrink(t.tensor([0.10003662109375]).half(), 0.10002)",
    "F.softshrink(t.tensor([0.10009765625]).bfloat16(), 0.10005)",
]

# out= of torch.hardshrink and torch._C._nn's softplus, softshrink, log_sigmoid (ops/
# activations_out.py), and Scalar/int arguments given as tensors or NumPy numbers
_OUTS = {"hardshrink": "t.hardshrink(x, 1.5, out={})", "softplus": "F.softplus(x, 2, out={})",
         "softshrink": "F.softshrink(x, out={})", "log_sigmoid": "F.logsigmoid(x, out={})"}
OUT = [
    *[c.format(o) for n, c in _OUTS.items() for o in (
        "t.empty(2, 3)", "t.empty(2, 3, dtype=t.float64)", "t.empty(2, 3, dtype=t.int64)",
        "t.empty(2, 3).half()", "t.empty(5)", "t.empty(0)", _own(n, "x"), "t.empty(3, 2).t()",
        "t.empty(2, 3, requires_grad=True)", "t.empty(6).expand(2, 6)[:, :3]", "None", "'a'",
        "t.empty(5, dtype=t.float64)", f"{_own(n, 'm')}[:2]")],
    *[c.format("o") + " is o and o._version" for c in (
        "(lambda o: t.hardshrink(x, out=o))(t.empty(2, 3))", )],
    "(lambda o: (F.softplus(x, out=o), o._version))(t.empty(2, 3))[1]",
    "(lambda o: (F.logsigmoid(x, out=o), o._version))(t.empty(2, 3))[1]",
    "t.hardshrink(w, out=t.empty(2, 3))", "F.softplus(w, out=t.empty(2, 3))",
    "F.logsigmoid(w, out=t.empty(2, 3))", "F.softshrink(w, out=t.empty(2, 3))",
    "F.softshrink(x, -1, out=t.empty(2, 3))", "F.softplus(i, out=t.empty(2, 3).long())",
    "t.hardshrink(x, lambd=2, out=t.empty(2, 3))", "t.hardshrink(x, 'a', out=t.empty(2, 3))",
    "F.hardshrink(x, out=t.empty(2, 3))", "F.glu(x, out=t.empty(2, 3))", "F.silu(x, out=x)",
    "t.prelu(x, t.tensor([0.5]), out=x)",
    "t.hardshrink(x, t.tensor(2.0))", "F.softplus(x, t.tensor([2.0]))",
    "F.softshrink(x, t.tensor(2.0, requires_grad=True))",
    "F.softplus(w, beta=t.tensor(2.0)).grad_fn._saved_beta", "F.glu(x, t.tensor(1))",
    "F.glu(x, np.int64(1))", "F.glu(x, t.tensor(1.0))", "F.glu(x, True)",
    "F.hardshrink(w, np.float32(0.5)).grad_fn._saved_lambd",
    "F.softplus(w, True).grad_fn._saved_beta", "F.softplus(w, np.float64(2.0)).grad_fn._saved_beta",
    "F.prelu(w, w[0, :1]).sum().backward()", "F.prelu(x.half(), t.tensor([0.5]).half())",
    "F.glu(x.half().t())", "t.hardshrink(input=x)", "t.prelu(input=x, weight=t.tensor([0.5]))",
    "x.prelu(weight=t.tensor([0.5]))", "t.prelu(b, b[0])",
]
