"""Every node the core's derivative table can make exposes the same ``_saved_*`` attributes as
PyTorch's, with the same values: the names (``_saved_self_sym_sizes``, ``_saved_dim`` as
passed, unsigned for negative dims ...) and what they read back as (tuples, None, tensors by
value). One program per table row (the course's saved-tensor programs of notebook 06,
tests/parity/test_course_claims.py), run on both.

``DIFFERENT`` lists the rows whose fields still differ, with how; each is asserted to differ
exactly so (a fix removes its entry)."""

import numpy as np
import pytest

from inplace_tutorial.autograd.derivatives import DERIVATIVES

from .test_course_claims import _saved_programs

pytestmark = pytest.mark.parity

DIFFERENT = {
    # no einsum node in PyTorch: its graph ends in a view of a bmm (notebook 06 says so)
    "einsum": "names torch-only ['_saved_self_sym_sizes'] core-only ['_saved_other', "
              "'_saved_rhs', '_saved_self', '_saved_sizes', '_saved_subs']",
    # the core saves the output as PyTorch's `_saved_output`, but the row declares it as the
    # result, which dir() still lists
    "sdpa": "names torch-only [] core-only ['_saved_result']",
}


def _value(t, v):
    if isinstance(v, t.Tensor):
        d = v.detach()
        a = np.array((d.float() if "bfloat16" in str(d.dtype) else d).numpy())
        return ("tensor", tuple(d.shape), str(d.dtype).split(".")[-1],
                a.astype(float).round(4).tolist() if a.dtype.kind == "f" else a.tolist())
    if isinstance(v, (list, tuple)):
        return tuple(_value(t, e) for e in v)
    if isinstance(v, float):
        return round(v, 5)
    if v is None or isinstance(v, (bool, int, str)):
        return v
    return (type(v).__name__, str(v))


def _fields(t, fn) -> dict:
    out = {}
    for name in dir(fn):
        if name.startswith("_saved_"):
            try:
                out[name] = _value(t, getattr(fn, name))
            except Exception as e:  # noqa: BLE001 - what reading it does is the observation
                out[name] = ("raised", type(e).__name__)
    return out


def _difference(torch_mod, core, op) -> str:
    ref = _fields(torch_mod, _saved_programs(torch_mod)[op]().grad_fn)
    got = _fields(core, _saved_programs(core)[op]().grad_fn)
    if set(ref) != set(got):
        return (f"names torch-only {sorted(set(ref) - set(got))} "
                f"core-only {sorted(set(got) - set(ref))}")
    return "; ".join(f"{k}: torch={ref[k]!r} core={got[k]!r}" for k in sorted(ref)
                     if ref[k] != got[k])


@pytest.mark.parametrize("op", list(DERIVATIVES))
def test_saved_fields_match_torch(op, torch_mod, core):
    assert _difference(torch_mod, core, op) == DIFFERENT.get(op, "")


def test_the_list_of_differences_names_table_rows():
    assert set(DIFFERENT) <= set(DERIVATIVES)
