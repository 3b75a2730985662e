"""The signature table (data/torch_signatures.json) is what torch 2.13 says now, and the core's
binding refuses calls with torch's words from it.

tools/gen_torch_signatures.py reads the table out of torch (torchgen's signatures, checked
against the listing torch prints); the first test runs it again and compares byte for byte.
The others call methods both libraries have in ways no signature takes, side by side.
"""
from __future__ import annotations

import importlib.util
from pathlib import Path

import numpy as np
import pytest

from inplace_tutorial import signatures

TOOL = Path(__file__).resolve().parents[2] / "tools" / "gen_torch_signatures.py"


def _tool():
    spec = importlib.util.spec_from_file_location("gen_torch_signatures", TOOL)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_data_file_is_what_torch_says_now(torch_mod):
    tool = _tool()
    data = tool.build()
    assert signatures.DATA.read_text(encoding="utf-8") == tool.dump(data), \
        "stale: run tools/gen_torch_signatures.py"
    assert signatures.FUNCTIONS.read_text(encoding="utf-8") == tool.dump_functions(data), \
        "stale: run tools/gen_torch_signatures.py"


def test_function_table_covers_torchs_parsed_functions(torch_mod):
    """Every torch.* function bound by torch's parser is in the table, and none of torch's
    Python functions (torch.split, torch.norm ... in torch/functional.py) is."""
    table = signatures.function_signatures("functions")
    assert "split" not in table and "norm" not in table and "einsum" not in table
    for name in ("add", "div", "zeros", "empty_like", "where", "tensor", "nonzero", "arange"):
        assert name in table, name
    assert "linalg_matrix_norm" in signatures.function_signatures("linalg")
    assert "avg_pool2d" in signatures.function_signatures("nn")


def test_printing_follows_function_signature_to_string():
    tool = _tool()
    assert tool.printed("add(Tensor other, *, Scalar alpha=1)") == (
        "Tensor other, *, Number alpha = 1")
    assert tool.printed("all(IntArrayRef[1]? dim=None, bool keepdim=False)") == (
        "tuple of ints dim = None, bool keepdim = False")
    assert tool.printed("random_(int64_t from, int64_t? to, *, Generator? generator=None)") == (
        "int from, int to, *, torch.Generator generator = None")
    assert tool.printed("min()") == ""


def _message(fn) -> str:
    with pytest.raises(TypeError) as info:
        fn()
    return str(info.value)


CALLS = [  # (self, method, args, kwargs): refused by torch's binding, not by the op
    ((2, 3), "add", (1, 2, 3), {}), ((2, 3), "add_", (), {"foo": 1}),
    ((2, 3), "addmm", (), {"foo": 1}), ((2, 3), "addmm_", (1, 2, 3, 4, 5), {}),
    ((2, 3), "clamp", (), {"foo": 1}), ((2, 3), "clamp_", (1, 2, 3), {}),
    ((2, 3), "min", (), {"keepdims": True}), ((2, 3), "max", (), {"foo": 1, "dim": 0}),
    ((2, 3), "all", (), {"dim": 0, "foo": 1}), ((2, 3), "any", (1, 2, 3, 4), {}),
    ((2, 3), "argsort", (), {"foo": 1, "bar": 2}), ((2, 3), "bitwise_and", (), {"foo": 1}),
    ((2, 3), "random_", (1, 2, 3), {}), ((2, 3), "random_", (), {"foo": 1}),
    ((2, 3), "bernoulli_", (), {"foo": 1}), ((2, 3), "cauchy_", (1, 2, 3), {}),
    ((2, 3), "normal_", (), {"foo": 1}), ((2, 3), "renorm", (), {"dim": 0}),
    ((2, 3), "scatter_reduce", (), {"foo": 1}), ((2, 3), "index_put_", (), {"foo": 1}),
    ((2, 3), "round", (), {"foo": 1}), ((2, 3), "eq_", (1, 2), {}),
    ((2, 3), "lerp", (), {"foo": 1}), ((2, 3), "masked_fill", (1, 2, 3), {}),
    ((2, 3), "nonzero", (1,), {}), ((2, 3), "nonzero", (1, 2), {}),
    ((2, 3), "to", (1, 2, 3, 4, 5, 6), {}), ((2, 3), "to", (), {"foo": 1}),
    ((2, 3), "type", (1, 2, 3), {}), ((2, 3), "type", (), {"foo": 1}),
    ((2, 3), "size", (1, 2), {}), ((2, 3), "stride", (), {"foo": 1}),
    ((2, 3), "requires_grad_", (1, 2), {}), ((2, 3), "norm", (1, 2, 3, 4, 5), {}),
    ((2, 3), "narrow", (0,), {"length": 1}), ((2, 3), "cumsum", (), {"axis": 0, "foo": 1}),
    ((2, 3), "sum", (), {"keepdim": True}), ((2, 3), "fill_", (), {"foo": 1}),
]


@pytest.mark.parametrize("shape, name, args, kwargs", CALLS,
                         ids=[f"{c[1]}{c[2]}{c[3]}" for c in CALLS])
def test_refusals_word_for_word(torch_mod, core, shape, name, args, kwargs):
    texts = []
    for lib in (torch_mod, core):
        x = lib.tensor(np.arange(6, dtype=np.float32).reshape(shape))
        texts.append(_message(lambda x=x: getattr(x, name)(*args, **kwargs)))
        assert x._version == 0  # refused before anything was written
    assert texts[1] == texts[0]


def test_every_method_with_a_listing_is_refused_with_it(torch_mod, core):
    """Every method in the table that the core binds (through @binding or tensor.py's
    wrappers): a call with more arguments than any of torch's signatures takes is refused with
    torch's text (a listing, or the one signature's count)."""
    checked = 0
    for name, table in signatures._table().items():
        if not hasattr(core.Tensor, name) or table.max_positional is None or table.forms == [""]:
            continue  # (a method without arguments is CPython's METH_NOARGS: test_arg_parser)
        if not hasattr(getattr(core.Tensor, name), "__wrapped__"):
            continue  # a plain def, not bound yet (a new op wants @binding() over its def)
        call = f"x.{name}({', '.join(['1'] * (table.max_positional + 1))})"
        texts = [_message(lambda c=call, lib=lib: eval(c, {"x": lib.zeros(2, 3)}))  # noqa: S307
                 for lib in (torch_mod, core)]
        assert texts[1] == texts[0], call
        checked += 1
    assert checked > 150


CODE = [  # function forms and hand-bound methods, as the probe table writes them
    "t.arange(start=1)", "t.arange(start=1, dtype=t.float64)", "t.arange(start=1, step=2)",
    "t.unflatten(x, dim=None, sizes=(3,))", "t.unflatten(x, dim='a', sizes=(3,))",
    "t.unflatten(x, None, (3,))", "x.unflatten(dim=None, sizes=(3,))",
    "x.is_contiguous(foo=1)", "x.is_contiguous(1)", "x.size(dim=None, foo=1)",
    "x.requires_grad_(True, foo=1)", "x.squeeze(0, 5)", "x.nonzero(1)",
]


@pytest.mark.parametrize("code", CODE)
def test_function_forms_word_for_word(torch_mod, core, code):
    outcomes = []
    for lib in (torch_mod, core):
        ns = {"t": lib, "x": lib.tensor(np.arange(6, dtype=np.float32).reshape(2, 3))}
        try:
            eval(code, ns)  # noqa: S307
        except Exception as e:  # noqa: BLE001 - the error is what is compared
            outcomes.append((type(e).__name__, str(e)))
        else:
            outcomes.append(None)
    assert outcomes[0] is not None
    assert outcomes[1] == outcomes[0]


HAND_WRITTEN = {  # forms an op module keeps for its own refusals -> the method they belong to
    ("sorting", "_SORT_FORMS"): "argsort", ("reduce", "_DIM_FORMS"): "sum",
    ("var_std", "_VAR_FORMS"): "var", ("max_min", "_MAX_FORMS"): "max",
    ("any_all", "_FORMS"): "all", ("tensor_split", "_SPLIT_FORMS"): "tensor_split",
    ("indexing", "_NARROW_FORMS"): "narrow", ("masking", "_WHERE_FORMS"): "where",
    ("views", "_VIEW_FORMS"): "view", ("views", "_SQUEEZE_FORMS"): "squeeze",
    ("selection", "_MEDIAN_FORMS"): "median", ("reduce_ops", "_PROD_FORMS"): "prod",
    ("scatter_gather", "_SCATTER_FORMS"): "scatter",
}


@pytest.mark.parametrize("module, attr", sorted(HAND_WRITTEN))
def test_hand_written_forms_are_torchs(module, attr):
    """An op module that words a refusal itself lists the same forms as the table."""
    import importlib

    forms = getattr(importlib.import_module(f"inplace_tutorial.ops.{module}"), attr)
    assert list(forms) == signatures.overloads(HAND_WRITTEN[module, attr]).forms
