"""x.T, x.mT, x.H, x.mH and x.adjoint() on deprecated input, against torch 2.13: each of the
five on a 0-dim tensor, and x.T on a tensor that isn't 2-D, warns the first time in a process
(TORCH_WARN_ONCE in TensorShape.cpp, one flag per warning), in fresh processes since the flags
can't be reset. Values, views, grad_fn names and refusals are probes (probes_lead.TRANSPOSES).
"""
import pytest

from .warn_once import run_sequence

pytestmark = pytest.mark.parity

_CALLS = """
z = t.tensor(np.float32(2.5))
v = t.tensor(np.arange(3, dtype=np.float32))
c = t.tensor(np.ones((2, 3, 4), dtype=np.float32))
m = t.tensor(np.ones((2, 3), dtype=np.float32))
calls = {
    "zero_T": lambda: z.T, "zero_mT": lambda: z.mT, "zero_mH": lambda: z.mH,
    "zero_H": lambda: z.H, "zero_adjoint": lambda: z.adjoint(), "vector_T": lambda: v.T,
    "cube_T": lambda: c.T, "matrix_T": lambda: m.T, "function_adjoint": lambda: t.adjoint(z),
}
"""

SEQUENCES = [
    # every warning once; a 2-D x.T never warns
    "matrix_T,zero_T,zero_T,vector_T,cube_T,vector_T,zero_mT,zero_mT,zero_mH,zero_H,"
    "zero_adjoint,zero_adjoint,function_adjoint,zero_H",
    # x.T's two warnings have their own flags, whichever comes first
    "cube_T,zero_T,vector_T",
    # torch.adjoint(x) is x.adjoint(): one flag for both
    "function_adjoint,zero_adjoint,zero_mH",
]


@pytest.mark.parametrize("sequence", SEQUENCES)
def test_deprecated_input_warns_once_a_process(sequence, torch_mod):
    expected = run_sequence(_CALLS, "torch", sequence)
    assert any(w for _, _, w in expected)  # torch warned at least once in this sequence
    assert run_sequence(_CALLS, "core", sequence) == expected
