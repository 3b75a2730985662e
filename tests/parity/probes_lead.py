"""Probes of the lead's last fixes (issue 11): the ``int dim`` of ``size``/``stride`` and the
``bool`` of ``requires_grad_`` and Parameter's constructor, checked as torch's parser checks
them (no more raw Python errors or silent acceptance), and the attribute transposes
``x.H``/``x.mH``/``x.adjoint()`` with ``x.mT``'s refusal of 1-D tensors in torch's words
(ops/adjoint.py). Their one-time warnings on 0-dim tensors are in test_adjoint_parity.py.
Each line was run on torch 2.13 first."""
from __future__ import annotations

TENSOR_ARGUMENTS = [
    "x.size('a')", "x.size(1.0)", "x.size(True)", "x.size(None)", "x.size(t.tensor([1]))",
    "x.size(t.tensor(1.0))", "x.size(t.tensor(1))", "x.size(np.int64(1))", "x.size(-3)",
    "x.size(1, 2)", "x.size(d=1)", "x.stride('a')", "x.stride(1.0)", "x.stride(True)",
    "x.stride(t.tensor(1))", "x.stride(np.int32(-1))",
    "w.detach().requires_grad_(1)", "x.requires_grad_(None)", "x.requires_grad_(np.bool_(True))",
    "x.requires_grad_(t.tensor(True))", "x.requires_grad_(True).requires_grad",
    "nn.Parameter(x, requires_grad=1)", "nn.Parameter(i, requires_grad=1)",
    "nn.Parameter(i, requires_grad=True)", "nn.Linear(2, 2).requires_grad_(1)",
    "t.tensor([1.0], requires_grad=1)", "t.zeros(2, requires_grad=1)",
]

TRANSPOSES = [
    "x.mH", "x.H", "x.adjoint()", "t.adjoint(x)", "x.mT", "v.mT", "v.mH", "v.H", "v.adjoint()",
    "t.adjoint(v)", "img.H", "img.mH", "img.adjoint()", "w.mH.grad_fn.name()",
    "w.H.grad_fn.name()", "w.adjoint().grad_fn.name()", "w.H._base is w",
    "w.mT.grad_fn._saved_dim0",
    "s.mT is s", "s.mH is s", "s.H is s", "s.adjoint() is s", "s.T is s", "x.adjoint(1)",
    "t.adjoint(x, 1)", "t.adjoint(3)", "x.H.stride()", "x.H.add_(1)", "w.mH.sum().backward()",
    "x.T", "img.T.shape", "v.T",
]

# An integer pow's exponent as PyTorch reads it: to int64, then to the result's type (a
# value either can't hold is an overflow, before any write), NumPy integers as Python ints;
# the core computed u8.pow(256) as u8.pow(0) and took np.int64(200) as int8's -56.
INT_EXPONENTS = [
    "i.to(t.int8).pow(1000)", "i.to(t.int8).pow(127)", "i.to(t.int8).pow(128)",
    "i.abs().to(t.uint8).pow(255)", "i.abs().to(t.uint8).pow(256)",
    "i.to(t.int32).pow(2**31)", "i.to(t.int32).pow(2**31 - 1)", "i.to(t.int16).pow_(2**15)",
    "i.to(t.int8).pow(np.int64(200))", "i.to(t.int8).pow(np.int8(-1))",
    "i.to(t.int8).pow(np.uint8(3))", "i.to(t.int8) ** 128", "t.pow(i.to(t.int8), 128)",
    "b.pow(2**40)", "b.pow(2**63)", "i.pow(2**62)", "i.pow(2**63)", "i.pow_(2**63)",
    "x.pow(np.int64(2))", "x.pow(2**63)",
]
