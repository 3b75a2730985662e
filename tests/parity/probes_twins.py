"""Probes of torch's module-level in-place functions (``torch.sqrt_(x)``, ``torch.zero_(x)``,
``torch.clamp_min_(x, 0)`` ...): each is its method under another binding, so the probes
compare what the binding changes (``input`` is argument 1: non-tensors, extra or missing
arguments, keywords, out=) and what it must not (the value, ``_version``, the node, the
refusals on a leaf that requires grad or a dtype the result can't be cast to). Each line was
run on torch 2.13 first: the expected behaviour is whatever torch does."""
from __future__ import annotations

# name -> the arguments after input of one good call (the fixtures of probes.FIXTURES)
TWINS = {
    "abs_": "", "neg_": "", "negative_": "", "reciprocal_": "", "sqrt_": "", "rsqrt_": "",
    "square_": "", "log_": "", "log2_": "", "log10_": "", "log1p_": "", "exp2_": "",
    "expm1_": "", "logit_": "", "sinc_": "", "conj_physical_": "", "nan_to_num_": "",
    "sin_": "", "cos_": "", "tan_": "", "asin_": "", "acos_": "", "atan_": "", "sinh_": "",
    "cosh_": "", "asinh_": "", "acosh_": "", "atanh_": "", "arcsin_": "", "arccos_": "",
    "arctan_": "", "arcsinh_": "", "arccosh_": "", "arctanh_": "", "deg2rad_": "",
    "rad2deg_": "", "ceil_": "", "floor_": "", "trunc_": "", "fix_": "", "frac_": "",
    "round_": "", "zero_": "", "fill_": ", 2.5", "clamp_min_": ", 0", "clamp_max_": ", 0",
    "clip_": ", -1, 1", "xlogy_": ", 2.0", "detach_": "",
}
INTEGER_TWINS = {"gcd_": ", i.flip(1)", "lcm_": ", i.flip(1)"}
# values from libm/SLEEF: last bits differ by build, so these run on a copy of the fixture (a
# result is compared within rounding; a fixture afterwards bit for bit)
LIBM = {"log_", "log2_", "log10_", "log1p_", "exp2_", "expm1_", "logit_", "sinc_", "sin_",
        "cos_", "tan_", "asin_", "acos_", "atan_", "sinh_", "cosh_", "asinh_", "acosh_",
        "atanh_", "arcsin_", "arccos_", "arctan_", "arcsinh_", "arccosh_", "arctanh_", "xlogy_"}


def _on(fixture: str, name: str) -> str:
    return f"({fixture} * 1)" if name in LIBM else fixture

GOOD = (
    [f"t.{n}({_on('x', n)}{a})" for n, a in TWINS.items()]
    + [f"t.{n}({_on('y', n)}{a}).grad_fn.name()" for n, a in TWINS.items()]
    + [f"t.{n}(x{a}) is x" for n, a in (("sqrt_", ""), ("zero_", ""), ("fill_", ", 1"))]
    + [f"t.{n}(input=x)" for n in ("sqrt_", "abs_", "zero_", "ceil_", "rad2deg_")]
    + [f"t.{n}(i{a})" for n, a in INTEGER_TWINS.items()]
    + ["t.ldexp_(x, i)", "t.ldexp_(x, t.tensor(2))", "t.fill_(x, t.tensor(3.0))",
       "t.fill_(x, value=1)", "t.clamp_min_(x, v)", "t.clamp_max_(x, min=0)",
       "t.clamp_max_(x, max=v)", "t.clip_(x, max=0.5)", "t.clip_(x, min=v)", "t.clip_(x)",
       "t.xlogy_(x * 1, other=x)", "t.xlogy_(x * 1, v)", "t.logit_(x * 1, 0.25)",
       "t.logit_(x.sigmoid(), eps=0.25)", "t.logit_(input=x.sigmoid())",
       "t.nan_to_num_(x.log(), 1.0)", "t.nan_to_num_(x.log(), neginf=-9.0)",
       "t.nan_to_num_(x.log(), nan=None, posinf=3.0)", "t.round_(x, decimals=1)",
       "t.round_(x / 7, decimals=2)", "t.as_strided_(x, (2, 2), (1, 2))",
       "t.as_strided_(x, (2,), (1,), 3)", "t.as_strided_(x, size=(3,), stride=(2,))",
       "t.detach_(y).grad_fn", "t.detach_(y).requires_grad", "t.addmv_(v, m, v.flip(0))",
       "t.addmv_(v, m, v.flip(0), beta=0.5, alpha=2)", "t.addmv_(0.5, v, m, v.flip(0))",
       "t.addmv_(0.5, v, 2, m, v.flip(0))", "t.addmv_(v, mat=m, vec=v.flip(0))",
       "t.sqrt_(x[0])._version", "t.sqrt_(x.t()).stride()", "t.zero_(x[:, 1]).data_ptr() == "
       "x[:, 1].data_ptr()"])

REFUSED = (
    [f"t.{n}(w{a})" for n, a in TWINS.items()]
    + [f"t.{n}(None{a})" for n, a in TWINS.items()]
    + [f"t.{n}(x{a}, out=x)" for n, a in TWINS.items()]
    + [f"t.{n}(x{a}, foo=1)" for n, a in TWINS.items()]
    + [f"t.{n}([1.0, 2.0]{a})" for n in ("sqrt_", "zero_", "clamp_min_") for a in (TWINS[n],)]
    + [f"t.{n}(2.0{a})" for n in ("abs_", "neg_", "fill_", "xlogy_") for a in (TWINS[n],)]
    + [f"t.{n}(x, 1)" for n in ("sqrt_", "zero_", "ceil_", "sin_", "round_", "detach_")]
    + [f"t.{n}(x{a}, 1, 2, 3)" for n, a in TWINS.items() if a]
    + [f"t.{n}()" for n in ("sqrt_", "fill_", "clamp_min_", "gcd_", "as_strided_", "addmv_")]
    + [f"t.{n}(i{a})" for n, a in TWINS.items()]
    + [f"t.{n}(b{a})" for n in ("abs_", "neg_", "sqrt_", "floor_", "zero_", "fill_", "frac_",
                                "clamp_min_", "round_", "sin_") for a in (TWINS[n],)]
    + [f"t.{n}(x{a})" for n, a in INTEGER_TWINS.items()]
    + [f"t.{n}(i, 2)" for n in INTEGER_TWINS]
    + ["t.fill_(x, v)", "t.fill_(x, 'a')", "t.fill_(x, None)", "t.fill_(x, x=1)",
       "t.clamp_min_(x)", "t.clamp_min_(x, 'a')", "t.clamp_min_(x, x.t())", "t.clip_(x, 'a')",
       "t.clip_(x, 0, 'a')", "t.xlogy_(x, 'a')", "t.xlogy_(x, x.t())", "t.ldexp_(x, 2)",
       "t.logit_(x, 'a')", "t.logit_(x, eps=x)", "t.nan_to_num_(x, 'a')",
       "t.nan_to_num_(x, nan=1, inf=2)", "t.round_(x, 1)", "t.round_(x, decimals=1.5)",
       "t.round_(i, decimals=1)", "t.as_strided_(x, (7,), (1,))", "t.as_strided_(x, (2,), 1)",
       "t.as_strided_(w, (2,), (1,))", "t.addmv_(v, m)", "t.addmv_(v, m, v, 1)",
       "t.addmv_(v, m, v, beta='a')", "t.addmv_(v, x, v)", "t.addmv_(w[0], m, v)",
       "t.zero_(x.expand(2, 2, 3))", "t.sqrt_(v.expand(2, 3))", "t.zero_(w[0])",
       "t.sqrt_(w.detach())._version", "t.sin_(s * 1).shape", "t.sqrt_(x.log())"])
