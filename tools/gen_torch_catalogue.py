"""Write inplace_tutorial/data/torch_inplace_methods.json from torch 2.13 itself.

    .venv/bin/python tools/gen_torch_catalogue.py          # rewrite the data file
    .venv/bin/python tools/gen_torch_catalogue.py --check  # exit 1 if the file is stale

The method list is ``dir(torch.Tensor)`` (public names ending in one underscore); the
alternatives come from torch's Python namespace and its operator schemas (an ``out``
overload); what each method saves comes from running the probe program below on torch and
reading its ``grad_fn._saved_*`` attributes. Only the probe programs (which arguments to call
each method with) and the course's scope are written by hand; tests/parity/
test_catalogue_parity.py checks that the file matches what this script computes now.
"""
from __future__ import annotations

import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from inplace_tutorial.catalogue import DATA, namespace, run_probe  # noqa: E402

# Left out of the course (issue 10): sparse tensors.
OUT_OF_SCOPE = {
    **dict.fromkeys(("resize_as_sparse_", "sparse_resize_", "sparse_resize_and_clear_"),
                    "sparse"),
}

# The probe program of each in-scope method: "args" of the call on "self" (default s(2, 3),
# a float32 non-leaf that requires grad). Names: see inplace_tutorial.catalogue.namespace.
UNARY = ("abs_ absolute_ acos_ acosh_ arccos_ arccosh_ arcsin_ arcsinh_ arctan_ arctanh_ asin_ "
         "asinh_ atan_ atanh_ ceil_ conj_physical_ cos_ cosh_ deg2rad_ exp2_ exp_ expm1_ fix_ "
         "floor_ frac_ i0_ log10_ log1p_ log2_ log_ logit_ neg_ negative_ rad2deg_ reciprocal_ "
         "relu_ round_ rsqrt_ sgn_ sigmoid_ sign_ sin_ sinc_ sinh_ sqrt_ square_ tan_ tanh_ "
         "trunc_ zero_ nan_to_num_ detach_ t_ tril_ triu_ cauchy_ exponential_ log_normal_ "
         "normal_ uniform_ erf_ erfc_ erfinv_ lgamma_ digamma_").split()
BINARY = ("add_ sub_ subtract_ mul_ multiply_ div_ divide_ true_divide_ atan2_ arctan2_ "
          "copysign_ floor_divide_ fmod_ remainder_ hypot_ ldexp_ nextafter_ xlogy_ heaviside_ "
          "eq_ ne_ lt_ le_ gt_ ge_ greater_ greater_equal_ less_ less_equal_ not_equal_ "
          "logical_and_ logical_or_ logical_xor_ copy_ igamma_ igammac_").split()
INTEGER = ("bitwise_and_ bitwise_or_ bitwise_xor_ bitwise_left_shift_ bitwise_right_shift_ "
           "gcd_ lcm_").split()
PROBES: dict[str, list[tuple[str, str, str]]] = {  # name -> [(variant, self, args)]
    **{m: [("", "s(2, 3)", "")] for m in UNARY},
    **{m: [("", "s(2, 3)", "f(2, 3)")] for m in BINARY},
    **{m: [("", "n(2, 3)", "n(2, 3)")] for m in INTEGER},
    "bitwise_not_": [("", "n(2, 3)", "")],
    "logical_not_": [("", "s(2, 3)", "")],
    "requires_grad_": [("", "f(2, 3).detach()", "")],
    "float_power_": [("", "d(2, 3)", "2.0")],
    "pow_": [("", "s(2, 3)", "2.0"), ("tensor exponent", "s(2, 3)", "f(2, 3)")],
    "clamp_": [("", "s(2, 3)", "0.2, 0.5"), ("tensor bounds", "s(2, 3)", "f(2, 3), f(2, 3)")],
    "clip_": [("", "s(2, 3)", "0.2, 0.5")],
    "clamp_min_": [("", "s(2, 3)", "0.2"), ("tensor bound = maximum_", "s(2, 3)", "f(2, 3)")],
    "clamp_max_": [("", "s(2, 3)", "0.5"), ("tensor bound = minimum_", "s(2, 3)", "f(2, 3)")],
    "lerp_": [("", "s(2, 3)", "f(2, 3), 0.5"), ("tensor weight", "s(2, 3)", "f(2, 3), f(2, 3)")],
    "addcmul_": [("", "s(2, 3)", "f(2, 3), f(2, 3), value=0.5")],
    "addcdiv_": [("", "s(2, 3)", "f(2, 3), f(2, 3), value=0.5")],
    "addmm_": [("", "s(2, 3)", "f(2, 4), f(4, 3)")],
    "addmv_": [("", "s(2)", "f(2, 3), f(3)")],
    "addr_": [("", "s(2, 3)", "f(2), f(3)")],
    "addbmm_": [("", "s(2, 3)", "f(4, 2, 5), f(4, 5, 3)")],
    "baddbmm_": [("", "s(4, 2, 3)", "f(4, 2, 5), f(4, 5, 3)")],
    "as_strided_": [("", "s(2, 3)", "(3, 2), (1, 3)")],
    "transpose_": [("", "s(2, 3)", "0, 1")],
    "swapdims_": [("", "s(2, 3)", "0, 1")],
    "swapaxes_": [("", "s(2, 3)", "0, 1")],
    "squeeze_": [("", "s(2, 1, 3)", "")],
    "unsqueeze_": [("", "s(2, 3)", "0")],
    "bernoulli_": [("", "s(2, 3)", "0.5")],
    "geometric_": [("", "s(2, 3)", "0.5")],
    "random_": [("", "s(2, 3)", "0, 10")],
    "fill_": [("", "s(2, 3)", "0.5")],
    "fill_diagonal_": [("", "s(3, 3)", "0.5")],
    "masked_fill_": [("", "s(2, 3)", "b(2, 3), 0.5")],
    "masked_scatter_": [("", "s(2, 3)", "b(2, 3), f(2, 3)")],
    "index_add_": [("", "s(2, 3)", "0, ix(1, 0), f(2, 3)")],
    "index_copy_": [("", "s(2, 3)", "0, ix(1, 0), f(2, 3)")],
    "index_fill_": [("", "s(2, 3)", "1, ix(0, 2), 0.5")],
    "index_put_": [("", "s(2, 3)", "(ix(1, 0),), f(2, 3)")],
    "index_reduce_": [("", "s(2, 3)", "0, ix(1, 0), f(2, 3), 'prod'")],
    "put_": [("", "s(2, 3)", "ix(0, 4), f(2)")],
    "scatter_": [("", "s(2, 3)", "1, ixs(2, 3, 3), f(2, 3)")],
    "scatter_add_": [("", "s(2, 3)", "1, ixs(2, 3, 3), f(2, 3)")],
    "scatter_reduce_": [("", "s(2, 3)", "1, ixs(2, 3, 3), f(2, 3), 'sum'")],
    "cumsum_": [("", "s(2, 3)", "1")],
    "cumprod_": [("", "s(2, 3)", "1")],
    "renorm_": [("", "s(2, 3)", "2, 0, 1.0")],
    "polygamma_": [("", "s(2, 3)", "2")],
    "mvlgamma_": [("", "s(2, 3)", "1")],
    # storage-level (ops/resize.py, ops/set_storage.py): resize_ refuses a tensor that
    # requires grad, so it grows a detached one; set_ records a NotImplemented node
    "resize_": [("", "f(2, 3).detach()", "3, 3")],
    "resize_as_": [("", "f(2, 3).detach()", "f(3, 3)")],
    "set_": [("", "s(2, 3)", "f(3, 2)")],
    "share_memory_": [("", "f(2, 3)", "")],  # (a leaf that requires grad: allowed)
    # a Python function per element (ops/callbacks.py): refused on a tensor that requires grad
    "apply_": [("", "s(2, 3)", "abs")],
    "map_": [("", "s(2, 3)", "f(2, 3), max")],
    "map2_": [("", "s(2, 3)", "f(2, 3), f(2, 3), max")],
}


def inplace_names(torch) -> list[str]:
    return sorted(n for n in dir(torch.Tensor)
                  if n.endswith("_") and not n.endswith("__") and not n.startswith("_"))


def alternative(torch, base: str, probes: list) -> dict[str, bool]:
    """Does torch have ``torch.base``, ``Tensor.base`` and an ``out=`` form of it?"""
    function = callable(getattr(torch, base, None))
    schemas = torch._C._jit_get_schemas_for_operator(f"aten::{base}")
    out = function and any("out" in s.overload_name.lower() for s in schemas)
    if out and probes:
        out = python_takes_out(torch, base, probes[0])
    return {"function": function,
            "method": callable(getattr(torch.Tensor, base, None)),
            "out": out}


def python_takes_out(torch, base: str, probe: tuple) -> bool:
    """An ``.out`` schema is not always bound in Python (``torch.put(..., out=)`` raises), so
    run ``torch.base(self, *args)`` once and again with ``out=`` a tensor like its result."""
    fn = getattr(torch, base)
    ns = namespace(torch, False)
    _, self_src, args_src = probe  # (variant, self, args) as PROBES lists them
    self_ = eval(self_src, ns)  # noqa: S307  (our own probe programs, as catalogue does)
    args, kwargs = eval(f"(lambda *a, **k: (a, k))({args_src})", ns)  # noqa: S307
    with torch.no_grad():
        try:
            result = fn(self_.clone(), *args, **kwargs)
        except Exception:  # noqa: BLE001  (the probe fits the method only: trust the schema)
            return True
        out = (tuple(r.new_empty(0) for r in result) if isinstance(result, tuple)
               else result.new_empty(0))
        try:
            fn(self_.clone(), *args, out=out, **kwargs)
        except TypeError as e:
            return "out" not in str(e)
        except Exception:  # noqa: BLE001  (out= was accepted; the values were refused)
            return True
    return True


def build() -> dict:
    import torch

    # put_ refuses to run under use_deterministic_algorithms(True) (the parity suite's setting)
    deterministic = torch.are_deterministic_algorithms_enabled()
    torch.use_deterministic_algorithms(False)
    try:
        return _build(torch)
    finally:
        torch.use_deterministic_algorithms(deterministic)


def _build(torch) -> dict:
    torch.manual_seed(0)
    methods = []
    for name in inplace_names(torch):
        scope = OUT_OF_SCOPE.get(name, "")
        probes = [] if scope else PROBES.get(name)
        if probes is None:
            raise SystemExit(f"{name}: torch has it, but PROBES has no probe program for it")
        entries = []
        for variant, self_, args in probes:
            probe = {"variant": variant, "self": self_, "args": args}
            probe["torch"] = run_probe(torch, name, probe, torch.Tensor)
            entries.append(probe)
        methods.append({"name": name, "base": name[:-1], "scope": scope, "probes": entries,
                        "alternative": alternative(torch, name[:-1], probes)})
    stale = sorted(set(PROBES) - {m["name"] for m in methods})
    return {"torch": torch.__version__.split("+")[0], "methods": methods, "no_such_method": stale}


def dump(data: dict) -> str:
    # one method per line: diffs stay readable
    lines = [f'{{"torch": {json.dumps(data["torch"])},',
             f' "no_such_method": {json.dumps(data["no_such_method"])},',
             ' "methods": [']
    lines += [f"  {json.dumps(m, sort_keys=True)}," for m in data["methods"]]
    lines[-1] = lines[-1].rstrip(",")
    return "\n".join(lines + [" ]}", ""])


def main(argv: list[str]) -> int:
    text = dump(build())
    if "--check" in argv:
        if DATA.read_text(encoding="utf-8") != text:
            print(f"{DATA} is stale: run tools/gen_torch_catalogue.py")
            return 1
        return 0
    DATA.write_text(text, encoding="utf-8")
    print(f"wrote {DATA.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
