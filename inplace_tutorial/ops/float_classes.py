"""isnan, isinf, isfinite: which elements are NaN, infinite or neither (a bool tensor).

Not differentiable (a bool result carries no gradient); an integer or bool tensor has no NaN
and no infinity, so its answer is all False (isnan, isinf) or all True (isfinite).
"""
from __future__ import annotations

import numpy as np

from ..tensor import Tensor, tensor_method
from .logical import _logical


@tensor_method
def isnan(self) -> Tensor:
    return _logical("isnan", np.isnan, self)


@tensor_method
def isinf(self) -> Tensor:
    return _logical("isinf", np.isinf, self)


@tensor_method
def isfinite(self) -> Tensor:
    return _logical("isfinite", np.isfinite, self)
