"""torch's deprecated call forms (the hidden signatures, scalars first: ``x.add_(2, y)``,
``x.addcmul_(0.5, a, b)``, ``torch.addmm(0.5, m, a, b)``) against torch 2.13: they bind, and
the first one of a process prints one UserWarning naming the form and the signatures to use
instead; no deprecated call after it warns, whatever its op (TORCH_WARN_ONCE in
python_arg_parser.cpp's raw_parse: one flag for the whole parser). A fresh process per
library and per sequence (the flag can't be reset). Values, versions and refusals of the forms
are probes (probes_twins.DEPRECATED)."""
import pytest

from .warn_once import run_sequence

pytestmark = pytest.mark.parity

_CALLS = """
x = t.tensor(np.ones(3, dtype=np.float32))
y = t.tensor(np.arange(3, dtype=np.float32))
m = t.tensor(np.eye(3, dtype=np.float32))
calls = {
    "add_": lambda: x.add_(2, y), "add": lambda: x.add(2, y), "sub_": lambda: x.sub_(3, y),
    "function_add": lambda: t.add(x, 2, y), "addcmul_": lambda: x.addcmul_(0.5, y, y),
    "addcdiv": lambda: x.addcdiv(2, y, x), "addmm_": lambda: m.addmm_(0.5, m * 1, m * 1),
    "addmm_beta_alpha": lambda: m.addmm(0.5, 2, m, m), "function_addmv_": lambda: t.addmv_(
        0.5, x, m, y), "function_addmm": lambda: t.addmm(0.5, m, 2, m, m),
    "addr_": lambda: m.addr_(2, y, y), "visible": lambda: x.add_(y, alpha=2),
    "refused": lambda: x.add_(2, y, alpha=3),
}
"""

SEQUENCES = [  # each in two fresh processes (torch's flag can't be reset), so only three
    # a visible call and a refused one don't use the flag up; then a method's form, in the
    # method's words; nothing after it
    "visible,refused,add_,add_,function_add,addcmul_,addcdiv,addr_",
    # a function's form first: "add(Tensor input, Number alpha, Tensor other, ...)"
    "function_add,add_,addmm_,sub_",
    "function_addmm,addmm_beta_alpha,function_addmv_,add",
]


def _run(which: str, sequence: str) -> list:
    return run_sequence(_CALLS, which, sequence)


@pytest.mark.parametrize("sequence", SEQUENCES)
def test_deprecated_forms_warn_once_a_process(sequence, torch_mod):
    expected = _run("torch", sequence)
    assert sum(len(w) for _, _, w in expected) == 1  # one warning in all, in torch
    assert _run("core", sequence) == expected
