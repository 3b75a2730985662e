"""The core's default random generator: one seeded NumPy PCG64 that every random op draws from
(rand/randn, normal_, uniform_, random_, bernoulli_, dropout), as PyTorch's ops draw from its
default CPU generator. ``manual_seed`` replaces it. It is made on the first draw: importing
``numpy.random`` (with ``secrets``, ``hashlib`` ...) was a tenth of ``import inplace_tutorial``.
"""
from __future__ import annotations

import numpy as np

_generator: np.random.Generator | None = None  # PCG64(0) on first use (default_generator)


def manual_seed(seed: int) -> np.random.Generator:
    """Seed the global generator (randn, rand, normal_, uniform_, random_, dropout)."""
    global _generator
    seed = int(seed)
    if not -2**63 <= seed < 2**64:
        raise ValueError("Overflow when unpacking long long")
    # PyTorch reads the seed as a uint64: -1 is 2**64 - 1 (a non-negative seed is unchanged)
    _generator = np.random.Generator(np.random.PCG64(seed % 2**64))
    return _generator


def default_generator() -> np.random.Generator:
    global _generator
    if _generator is None:
        _generator = np.random.Generator(np.random.PCG64(0))
    return _generator


__all__ = ["default_generator", "manual_seed"]
