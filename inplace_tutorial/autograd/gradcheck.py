"""gradcheck: compare autograd's gradients with central finite differences in float64."""
from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np

from .. import dtypes
from ..tensor import Tensor
from ..tensor_new import tensor
from . import grad_mode


class GradcheckError(RuntimeError):
    pass


def gradcheck(fn: Callable, inputs: Sequence, eps: float = 1e-6, atol: float = 1e-5,
              rtol: float = 1e-3, raise_exception: bool = True) -> bool:
    """Check d(sum(fn(*inputs) * v))/d input against finite differences, for a random v."""
    inputs = tuple(inputs)
    rng = np.random.default_rng(0)
    with grad_mode.no_grad():
        out0 = fn(*inputs)
    v = tensor(rng.standard_normal(out0.shape), dtype=dtypes.float64)

    def scalar() -> float:
        with grad_mode.no_grad():
            return float((fn(*inputs).to(dtypes.float64) * v).sum().item())

    for x in inputs:
        if isinstance(x, Tensor) and x.requires_grad:
            x.grad = None
    (fn(*inputs).to(dtypes.float64) * v).sum().backward()
    for i, x in enumerate(inputs):
        if not (isinstance(x, Tensor) and x.requires_grad):
            continue
        a = x.detach()._array()
        numeric = np.zeros(a.shape)
        for idx in np.ndindex(*a.shape):
            old = a[idx]
            a[idx] = old + eps
            hi = scalar()
            a[idx] = old - eps
            lo = scalar()
            a[idx] = old
            numeric[idx] = (hi - lo) / (2 * eps)
        analytic = np.zeros(a.shape) if x.grad is None else x.grad._array().astype(np.float64)
        if not np.allclose(analytic, numeric, atol=atol, rtol=rtol):
            if raise_exception:
                raise GradcheckError(
                    f"Jacobian mismatch for output 0 with respect to input {i},\n"
                    f"numerical:{numeric}\nanalytical:{analytic}")
            return False
    return True
