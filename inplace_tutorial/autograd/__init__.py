"""Reverse-mode autograd with PyTorch's version counters, saved tensors and errors.

Importing this package attaches ``grad_fn`` and ``backward`` to Tensor (tensor_methods.py).
Read in this order: saved_tensor -> graph -> derivatives -> record -> views_backward -> hooks
-> engine.
"""
from . import function, tensor_methods  # noqa: F401  (function: the old public path)
from .anomaly import (
    detect_anomaly,
    is_anomaly_check_nan_enabled,
    is_anomaly_enabled,
    set_detect_anomaly,
)
from .engine import backward, grad
from .explain import explain, inplace_safe
from .grad_mode import (
    enable_grad,
    inference_mode,
    is_grad_enabled,
    is_inference_mode_enabled,
    no_grad,
    set_grad_enabled,
)
from .gradcheck import GradcheckError, gradcheck
from .hooks import RemovableHandle

__all__ = ["GradcheckError", "RemovableHandle", "backward", "detect_anomaly", "enable_grad",
           "explain", "grad", "gradcheck", "inference_mode", "inplace_safe",
           "is_anomaly_check_nan_enabled", "is_anomaly_enabled", "is_grad_enabled",
           "is_inference_mode_enabled", "no_grad",
           "set_detect_anomaly", "set_grad_enabled"]
