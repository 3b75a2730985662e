"""BatchNorm's float32 training statistics in the order PyTorch's CPU kernel takes them
(batch_norm_kernel.cpp, Normalization.cpp), so the saved mean and invstd and the running
stats have its bits.

A contiguous (N, C, H, W) batch sums each channel in a double accumulator (acc_type<float>
is double), the squares (x - mean)^2 rounded to float first. Where each sample holds one
value per channel ((N, C), or channels-last memory) the kernel adds rows of C floats, one
sample after the other, in float32. Then, per channel: mean = float(sum / N);
invstd = float(1 / sqrt(double(var_sum / N) + eps)), the division in float (a float over an
int64 is a float division in C++); running_mean = 0.1f * mean + 0.9f * running_mean in
float; running_var = float(double(0.1f) * double(var_sum / (N - 1)) + 0.9f * running_var).
Measured against torch 2.13 under DEFAULT, AVX2 and AVX512: every bit of the running stats.
"""
from __future__ import annotations

import numpy as np

from .. import dtypes
from ..cpu_capability import VECTOR_INSTRUCTIONS
from ..tensor import Tensor
from .workspace import CHUNK, Scratch


def layout(x: np.ndarray) -> str | None:
    """"rows" (one value per channel per sample: (N, C), (N, C, 1)), "planes" (contiguous
    (N, C, ...)), or None (channels-last and non-contiguous batches, not followed here)."""
    if x.dtype != np.float32 or x.size == 0:
        return None
    n, c = x.shape[:2]
    if x.ndim == 2 or x.size == n * c:
        return "rows" if x.flags.c_contiguous else None
    return "planes" if x.flags.c_contiguous else None  # (channels-last: not followed yet)


def channel_sums(x: np.ndarray, kind: str, out: np.ndarray, op: str) -> None:
    """``out`` (float64, C) = each channel's sum as the kernel accumulates it."""
    c = x.shape[1]
    if kind == "rows":
        rows = x.reshape(-1, c)
        with Scratch(np.float32, op, c) as s:  # the float32 running row, as the kernel's
            acc = s.view((c,))
            np.add.reduce(rows, axis=0, out=acc)  # (along axis 0: row after row)
            np.copyto(out, acc)
        return
    n = x.shape[0]
    per_row = Tensor._empty((n, c), dtypes.float64, op)  # each (sample, channel) plane's sum
    _plane_sums(x.reshape(n * c, -1), per_row._array().reshape(-1), op)
    np.add.reduce(per_row._array(), axis=0, out=out)


def _plane_sums(m: np.ndarray, out: np.ndarray, op: str) -> None:
    """``out[r]`` = row r of the float32 matrix ``m`` summed in float64: blocks of rows widened
    into the workspace (exactly), each summed by one matrix-vector product with ones (a
    double sum of floats in another order than the kernel's: its rounding to float32 is the
    same but for a tie once in ~10**9)."""
    length = m.shape[1]
    with Scratch(np.float64, op, CHUNK) as s:
        block = (s._buf.size - length) // length
        if block < 1:  # (a plane larger than the workspace)
            np.add.reduce(m, axis=1, dtype=np.float64, out=out)
            return
        ones = s.view_at(0, (length,), np.float64)
        ones.fill(1.0)
        for start in range(0, m.shape[0], block):
            part = m[start:start + block]
            wide = s.view_at(8 * length, part.shape, np.float64)
            np.copyto(wide, part)
            np.matmul(wide, ones, out=out[start:start + block])


def row_var_sums(x: np.ndarray, mean: np.ndarray, out: np.ndarray, op: str) -> None:
    """``out`` (float64, C) = the kernel's sum of (x - mean)^2 for a "rows" batch: a float32
    running row, one sample after the other. The AVX2/AVX512 builds' compiler fuses the
    multiply and the add (one rounding: float64 holds the square exactly); DEFAULT rounds
    the square first."""
    c = mean.size
    with Scratch(np.float64, op, 3 * c) as s:
        acc, d = s.view_at(0, (c,), np.float32), s.view_at(4 * c, (c,), np.float32)
        wide = s.view_at(8 * c, (c,), np.float64)
        acc.fill(0)
        for row in x.reshape(-1, c):
            np.subtract(row, mean, out=d)
            if VECTOR_INSTRUCTIONS:
                np.multiply(d, d, out=wide, dtype=np.float64)
                wide += acc
                np.copyto(acc, wide, casting="unsafe")
            else:
                d *= d
                acc += d
        np.copyto(out, acc)


def update_running(var_sum: np.ndarray, mean: np.ndarray, count: int, momentum: float,
                   running_mean: np.ndarray, running_var: np.ndarray, op: str) -> None:
    """The running stats' update, in the kernel's types (module docstring)."""
    mom = np.float32(momentum)
    keep = np.float32(1) - mom
    c = mean.size
    tmp = Tensor._empty((2, c), dtypes.float64, op)
    wide, wide2 = tmp._array()
    narrow = wide2.view(np.float32)[:c]
    np.multiply(mean, mom, out=narrow)
    running_mean *= keep
    running_mean += narrow
    np.divide(var_sum, np.float32(count - 1), out=narrow)  # the unbiased variance, a float
    np.multiply(narrow, np.float64(mom), out=wide)
    running_var *= keep
    wide += running_var
    np.copyto(running_var, wide, casting="unsafe")
