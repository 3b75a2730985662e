"""Which of PyTorch's CPU kernel builds torch runs on this machine: DEFAULT, AVX2 or AVX512.

ATen compiles every kernel in ``aten/src/ATen/native/cpu`` several times and picks one build
when it first dispatches (``DispatchStub.cpp:compute_cpu_capability``): the environment
variable ``ATEN_CPU_CAPABILITY`` ("default", "avx2" or "avx512") if it names one, else the
CPU's features. The builds agree on values but not always on the bits they leave (the NaN a
vectorised ``maximum`` returns, whether a float16 product is rounded before the sum), so
ops/cpu_lanes.py and the casts in copy_kernel.py ask this module which build to imitate. It sits
at the bottom, with no imports from the package, so every layer can ask.
"""
from __future__ import annotations

import os
import platform
import warnings

DEFAULT, AVX2, AVX512 = "DEFAULT", "AVX2", "AVX512"  # torch.backends.cpu's spelling

_FROM_ENV = {"default": DEFAULT, "avx2": AVX2, "avx512": AVX512}  # compared exactly, as ATen does


def _cpu_flags() -> set[str] | None:
    """The x86 feature flags Linux reports, or None where /proc/cpuinfo can't tell."""
    try:
        with open("/proc/cpuinfo", encoding="ascii", errors="replace") as f:
            for line in f:
                if line.startswith("flags"):
                    return set(line.partition(":")[2].split())
    except OSError:
        pass
    return None


def _from_cpu() -> str:
    """ATen's test: AVX512 needs avx512vl, avx512bw, avx512dq and FMA; AVX2 needs avx2 and FMA."""
    if platform.machine().lower() not in ("x86_64", "amd64", "i686", "x86"):
        return DEFAULT  # torch's x86 builds only; other CPUs have builds of their own
    flags = _cpu_flags()
    if flags is None:
        return AVX2  # no /proc/cpuinfo (macOS, Windows): every x86-64 CPU since 2013 has it
    if {"avx512vl", "avx512bw", "avx512dq", "fma"} <= flags:
        return AVX512
    if {"avx2", "fma"} <= flags:
        return AVX2
    return DEFAULT


def _compute() -> str:
    env = os.environ.get("ATEN_CPU_CAPABILITY")
    if env is not None:
        if env in _FROM_ENV:
            return _FROM_ENV[env]
        warnings.warn(f"ignoring invalid value for ATEN_CPU_CAPABILITY: {env}", stacklevel=3)
    return _from_cpu()


# read once, when the package is imported, as ATen caches it on its first dispatch
CAPABILITY = _compute()

# Do vector registers compute the vectorised part of a loop? In the DEFAULT build PyTorch's
# Vectorized<T> is a plain array whose operations run one element at a time in C++, so the
# bits it leaves are those of the scalar code (an operand's NaN, a product rounded to 16 bits).
VECTOR_INSTRUCTIONS = CAPABILITY != DEFAULT


def runnable_builds() -> list[str]:
    """The builds this CPU can run, from DEFAULT up to the one it would choose by itself."""
    order = [DEFAULT, AVX2, AVX512]
    return order[: order.index(_from_cpu()) + 1]


def get_cpu_capability() -> str:
    """``torch.backends.cpu.get_cpu_capability()``: the build PyTorch would run here."""
    return CAPABILITY
