"""The catalogue's data file (notebook 09) is what torch 2.13 says now.

tools/gen_torch_catalogue.py computes it from ``dir(torch.Tensor)``, torch's operator schemas and
a probe program per method; this test runs the tool again and compares byte for byte, so the
file can't go stale. It also checks that the core invents no in-place name torch lacks.
"""
from __future__ import annotations

import importlib.util
from pathlib import Path

from inplace_tutorial import catalogue

TOOL = Path(__file__).resolve().parents[2] / "tools" / "gen_torch_catalogue.py"


def _tool():
    spec = importlib.util.spec_from_file_location("gen_torch_catalogue", TOOL)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_data_file_is_what_torch_says_now(torch_mod):
    tool = _tool()
    assert catalogue.DATA.read_text(encoding="utf-8") == tool.dump(tool.build()), \
        "stale: run tools/gen_torch_catalogue.py"


def test_every_probe_names_a_method_torch_has(torch_mod):
    data = catalogue.load()
    assert data["torch"] == torch_mod.__version__.split("+")[0]
    assert data["no_such_method"] == []
    names = [m["name"] for m in data["methods"]]
    assert names == sorted(n for n in dir(torch_mod.Tensor) if n.endswith("_")
                           and not n.startswith("_") and not n.endswith("__"))


def test_the_core_has_no_inplace_method_torch_lacks(torch_mod, core):
    ours = {n for n in dir(core.Tensor) if n.endswith("_") and not n.startswith("_")}
    assert ours - set(dir(torch_mod.Tensor)) == set()


def test_article_names_torch_lacks(torch_mod):
    # notebook 09, claim 12: four names on the article's list are not torch methods
    missing = [n for n in catalogue.ARTICLE_LIST if not hasattr(torch_mod.Tensor, n)]
    assert missing == ["matmul_", "permute_", "minimum_", "maximum_"]


def test_clamp_with_tensor_bounds_is_minimum_and_maximum(torch_mod):
    # notebook 09: clamp_max_(tensor) is the in-place minimum, clamp_min_(tensor) the maximum
    a = torch_mod.tensor([1.0, 5.0, -2.0])
    b = torch_mod.tensor([2.0, 4.0, -3.0])
    ptr = a.data_ptr()
    assert a.clone().clamp_max_(b).tolist() == torch_mod.minimum(a, b).tolist()
    assert a.clone().clamp_min_(b).tolist() == torch_mod.maximum(a, b).tolist()
    assert a.clamp_max_(b).data_ptr() == ptr


def test_inplace_inverse_hyperbolic_has_no_backward(torch_mod):
    # notebook 09: acosh_/asinh_/atanh_ record a node that saves nothing, and backward raises
    for name, start in (("acosh_", 1.5), ("asinh_", 0.5), ("atanh_", 0.5)):
        x = torch_mod.tensor([start, start], requires_grad=True).clone()
        y = getattr(x, name)()
        assert y.grad_fn is not None
        try:
            y.sum().backward()
        except NotImplementedError as e:
            assert f"inplace version of {name[:-1]}" in str(e)
        else:
            raise AssertionError(f"{name}: backward ran")
