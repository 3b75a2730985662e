"""The name the course and older code import from: ``autograd.function.DERIVATIVES``.

The pieces now live along PyTorch's own seams: the derivative table in derivatives.py,
``record``/``record_inplace``/``rebase_history`` in record.py, SavedTensor in saved_tensor.py.
This module only re-exports them, so ``from inplace_tutorial.autograd.function import
DERIVATIVES`` keeps working.
"""
from __future__ import annotations

from .derivatives import DERIVATIVES, Formula, derivative
from .errors import NO_GRAD_VIEW
from .graph import AccumulateGrad, Node, any_requires_grad, edge
from .record import check_inplace, rebase_history, record, record_inplace
from .saved_tensor import SavedTensor

__all__ = ["AccumulateGrad", "DERIVATIVES", "Formula", "NO_GRAD_VIEW", "Node", "SavedTensor",
           "any_requires_grad", "check_inplace", "derivative", "edge", "rebase_history", "record",
           "record_inplace"]
