"""inplace_tutorial: a small PyTorch-like tensor and autograd core on NumPy, for learning
what in-place operations do to memory and to autograd.

Names and semantics follow PyTorch (``ipt.tensor``, ``x.add_(5)``, ``x._version``,
``grad_fn._saved_result`` ...), and every byte is counted by ``ipt.memory``.
"""
from __future__ import annotations

import warnings

# tensor_attributes, tensor_conversions (item, numpy ...), tensor_protocols (len, iter ...) and
# ops attach methods to Tensor
from . import (  # noqa: F401
    backends,
    cuda,
    linalg,
    memory,
    ops,
    special,
    tensor_attributes,
    tensor_conversions,
    tensor_protocols,
)
from .autograd import (
    detect_anomaly,
    enable_grad,
    inference_mode,
    is_anomaly_check_nan_enabled,
    is_anomaly_enabled,
    is_grad_enabled,
    is_inference_mode_enabled,
    no_grad,
    set_grad_enabled,
)
from .creation import (
    empty,
    empty_like,
    empty_strided,
    eye,
    full,
    full_like,
    ones,
    ones_like,
    tril_indices,
    triu_indices,
    zeros,
    zeros_like,
)
from .device import device, get_default_device
from .dtypes import (  # noqa: A001  (torch.float, torch.int ... are dtypes)
    bfloat16,
    double,
    dtype,
    finfo,
    float,
    float16,
    float32,
    float64,
    half,
    iinfo,
    int,
    int8,
    int16,
    int32,
    int64,
    long,
    short,
    uint8,
)
from .dtypes import bool_ as bool  # noqa: A001
from .functional import *  # noqa: F403
from .functional import can_cast, einsum, promote_types, result_type, where
from .functional_inplace import *  # noqa: F403  (torch.sqrt_(x) ... is x.sqrt_())
from .generator import manual_seed
from .layout import (  # torch.channels_last ... (torch.memory_format objects)
    channels_last,
    channels_last_3d,
    contiguous_format,
    memory_format,
    preserve_format,
    strided,
)
from .ops.random_factories import (
    rand,
    rand_like,
    randint,
    randint_like,
    randn,
    randn_like,
    randperm,
)
from .range_factories import arange, linspace, logspace
from .storage import UntypedStorage
from .tensor import Size, Tensor
from .tensor_new import as_tensor, from_numpy, tensor

__version__ = "0.1.0"

# PyTorch computes log(0) = -inf or 0/0 = nan silently; so do we (NumPy would warn).
warnings.filterwarnings("ignore", category=RuntimeWarning, module=r"inplace_tutorial(\.|$)")

__all__ = ["Size", "Tensor", "UntypedStorage", "arange", "bfloat16", "bool", "can_cast",
           "channels_last", "channels_last_3d", "contiguous_format", "memory_format",
           "preserve_format", "strided",
           "detect_anomaly", "device", "double", "dtype", "einsum", "empty", "empty_like",
           "empty_strided", "enable_grad", "eye", "finfo", "float", "float16", "float32", "float64",
           "from_numpy", "full", "full_like", "get_default_device", "half", "iinfo",
           "inference_mode", "int", "int8",
           "int16", "int32", "int64", "is_anomaly_check_nan_enabled", "is_anomaly_enabled",
           "is_grad_enabled", "is_inference_mode_enabled", "linalg", "linspace", "logspace",
           "special",
           "long",
           "manual_seed", "memory", "no_grad", "ones", "ones_like", "promote_types", "rand",
           "rand_like", "randint", "randint_like", "randn", "randn_like", "randperm",
           "result_type", "as_tensor", "tril_indices", "triu_indices",
           "set_grad_enabled", "short", "tensor", "uint8", "where", "zeros", "zeros_like"]


def is_tensor(obj) -> bool:
    return isinstance(obj, Tensor)


def is_floating_point(input: Tensor) -> bool:  # noqa: A002  (PyTorch's name)
    return input.is_floating_point()


def get_default_dtype() -> dtype:
    return float32


def __getattr__(name: str):
    # Heavier subpackages load on first use, so `import inplace_tutorial` stays fast.
    import importlib

    if name in ("nn", "optim", "data", "viz", "widgets", "exercises", "profiler", "models"):
        return importlib.import_module(f".{name}", __name__)
    raise AttributeError(f"module 'inplace_tutorial' has no attribute {name!r}")
