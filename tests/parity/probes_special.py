"""Probes of the special functions (ops/erf.py, ops/gamma.py, ops/polygamma.py, special.py):
erf_, erfc_, erfinv_, lgamma_, digamma_, polygamma_, mvlgamma_ on every fixture dtype (integers
and bools refused in place, promoted out of place), their argument checks, nodes, out= and the
torch.special names. Each line was run on torch 2.13 first."""
from __future__ import annotations

_UNARY = ("erf", "erfc", "erfinv", "lgamma", "digamma")

UNARY = [
    # (fixtures are compared bit for bit after a probe: float64 and polygamma's values are a
    # few ulps from torch's (test_special_parity.test_ulps), so those write into a clone)
    *[f"{v}.{op}_()" for op in _UNARY for v in ("x", "i", "b", "s", "w", "m")],
    *[f"d.clone().{op}_()" for op in _UNARY],
    *[f"{v}.{op}()" for op in _UNARY for v in ("x", "i", "b", "d", "v")],
    *[f"y.{op}_().grad_fn.name()" for op in _UNARY],
    *[f"t.{op}(x, out=i)" for op in _UNARY],
    *[f"t.{op}(i, out=d)" for op in _UNARY],
    *[f"t.{op}(w, out=x)" for op in _UNARY],
    *[f"t.{op}(x, out=x)" for op in _UNARY],
    *[f"x.{op}(1)" for op in _UNARY],
    "x.t().erf_()", "x[0].lgamma_()", "v.expand(2, 3).digamma_()", "x.erf_().erfinv_()",
    "y.lgamma().grad_fn._saved_self", "y.erfinv_().grad_fn._saved_self",
    "y.lgamma_().sum().backward()", "y.digamma().sum().backward()",
]

POLYGAMMA = [
    "x.polygamma(0)", "x.polygamma(1)", "x.polygamma(2)", "d.polygamma(3)",
    "x.clone().polygamma_(2)",
    "i.polygamma(2)", "i.polygamma_(2)", "b.polygamma(1)", "b.polygamma_(1)", "x.polygamma(-1)",
    "x.polygamma_(-2)", "x.polygamma(1.5)", "x.polygamma(True)", "x.polygamma(None)",
    "x.polygamma()", "x.polygamma(1, 2)", "x.polygamma(n=2)", "x.polygamma(k=2)",
    "t.polygamma(2, x)", "t.polygamma(x, 2)", "t.polygamma(2, x, out=x.clone())",
    "t.polygamma(2, i, out=t.empty(1))", "t.polygamma(-1, x)", "t.polygamma(n=1, input=x)",
    "w.polygamma_(1)", "(y * 1).polygamma_(2).grad_fn.name()", "y.polygamma(2).grad_fn._saved_n",
    "(y * 1).polygamma_(3).grad_fn._saved_n", "w.polygamma(1).sum().backward()",
]

MVLGAMMA = [
    "x.mvlgamma(1)", "x.mvlgamma(2)", "d.mvlgamma(3)", "x.mvlgamma_(2)", "i.mvlgamma(2)",
    "i.mvlgamma_(1)", "b.mvlgamma(1)", "b.mvlgamma_(0)", "x.mvlgamma(0)", "x.mvlgamma_(-1)",
    "x.mvlgamma(2.0)", "x.mvlgamma()", "x.mvlgamma(p=2)", "x.mvlgamma(d=2)",
    "t.mvlgamma(x, 2)", "t.mvlgamma(x, p=3)", "t.mvlgamma(x, 2, out=d)",
    "t.mvlgamma(i, 2, out=i)", "t.mvlgamma(x, 2, out=i)", "t.mvlgamma(b, 2, out=i)",
    "t.mvlgamma(x, 0, out=i)", "t.mvlgamma(x, 2, out=b)", "w.mvlgamma_(2)",
    "y.mvlgamma_(2).grad_fn.name()",
    "y.mvlgamma(3).grad_fn._saved_p", "(w + 5).mvlgamma(2).sum().backward()",
]

SPECIAL = [
    "t.special.erf(x)", "t.special.erfc(i)", "t.special.erfinv(v)", "t.special.gammaln(x)",
    "t.special.digamma(d)", "t.special.psi(x)", "t.special.polygamma(1, x)",
    "t.special.multigammaln(d, 2)", "t.special.i0(x)", "t.special.erf(x, out=d)",
    "t.special.gammaln(x, out=i)", "t.special.psi(w).grad_fn.name()",
]

# (torch's float32 igamma computes in float: a few ulps off, so in-place probes write into a
# clone, which the probe compares with a tolerance, not the fixture, compared bit for bit)
IGAMMA = [
    *[f"{a}{'.clone()' if op.endswith('_') else ''}.{op}({b})"
      for op in ("igamma", "igammac", "igamma_", "igammac_")
      for a, b in (("x", "x"), ("x", "i"), ("i", "x"), ("i", "i"), ("b", "b"), ("x", "v"),
                   ("v", "x"), ("d", "d"), ("x", "2.0"), ("x", "None"), ("m", "x"))],
    "t.igamma(x, x)", "t.igammac(x, 2)", "t.igamma(d, d, out=d.clone())", "t.igamma(x, x, out=i)",
    "t.special.gammainc(x, x)", "t.special.gammaincc(d, d)", "t.special.gammainc(x, 1.0)",
    "t.igamma(w, x).grad_fn.name()", "t.igamma(x, w).grad_fn._saved_self",
    "t.igamma(w, x).grad_fn._saved_other", "t.igamma(w, x).sum().backward()",
    "t.igammac(x.abs(), w).sum().backward()", "(y * 1).igamma_(x).grad_fn.name()",
    "w.igamma_(x)", "(y * 1).igammac_(x)._version", "i.igamma_(x)", "b.igammac_(b)",
]

# torch's module-level in-place twins (functional_inplace.py): only erf_ and erfc_ exist
TWINS = [
    "t.erf_(x)", "t.erfc_(x)", "t.erf_(i)", "t.erfc_(b)", "t.erf_(w)", "t.erf_(y).grad_fn.name()",
    "t.erf_(x, 1)", "t.erf_(None)", "t.erf_(input=x)", "t.erfc_(x.t())", "t.erf_(s)._version",
    "hasattr(t, 'erfinv_')", "hasattr(t, 'lgamma_')", "hasattr(t, 'polygamma_')",
]
