"""inplace_tutorial.torch_inspect: the course's in-place tools on real PyTorch tensors.

``detect_inplace()`` names the in-place line that broke backward; ``explain(t)`` and
``inplace_safe(t)`` answer "may I mutate t now?" from PyTorch's real graph. PyTorch stays
optional: importing this package does not import torch; calling these does.
"""
from __future__ import annotations

import importlib
import importlib.util

INSTALL_HINT = ("PyTorch is not installed. Install the CPU build with: "
                "pip install torch==2.13.0 --index-url https://download.pytorch.org/whl/cpu")

_LAZY = {"detect_inplace": "detect", "explain": "holders", "inplace_safe": "holders"}

__all__ = ["INSTALL_HINT", "detect_inplace", "explain", "inplace_safe", "require_torch",
           "torch_available"]


def torch_available() -> bool:
    """True when ``import torch`` would work (checked without importing it)."""
    return importlib.util.find_spec("torch") is not None


def require_torch():
    """``import torch``, or an ImportError whose message is the one-line install hint."""
    if not torch_available():
        raise ImportError(INSTALL_HINT)
    return importlib.import_module("torch")


def __getattr__(name: str):
    if name in _LAZY:
        if not torch_available():
            raise ImportError(INSTALL_HINT)
        return getattr(importlib.import_module(f".{_LAZY[name]}", __name__), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
