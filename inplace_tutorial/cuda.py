"""torch.cuda on a CPU-only build, as far as a learner's first lines reach: the question
(``is_available()``: False, ``device_count()``: 0) answered, and what needs a GPU refused in
torch's words. So ``device = 'cuda' if torch.cuda.is_available() else 'cpu'`` runs here as it
runs on torch without a GPU (device.py holds what a device is).
"""
from __future__ import annotations

_NOT_COMPILED = "Torch not compiled with CUDA enabled"  # torch.cuda's lazy init, CPU-only


def is_available() -> bool:
    """False: the core has only the CPU."""
    return False


def device_count() -> int:
    return 0


def is_initialized() -> bool:
    return False


def current_device() -> int:
    raise AssertionError(_NOT_COMPILED)


def synchronize(device=None) -> None:
    raise AssertionError(_NOT_COMPILED)
