"""Backward of an MLP 784-256-10 at batch 64: the core's engine vs PyTorch CPU.

Only ``loss.backward()`` is timed (the forward runs before each sample, untimed). As in the
other benchmarks (timing.py) the core and PyTorch run in turns, in blocks of 10 backward
passes, and each sample is CPU time of this thread, with NumPy's BLAS and torch both pinned
to one thread. PyTorch's default thread count is reported too: several threads' work is not
one thread's CPU time, so that column is wall-clock time (it moves with the machine's load).
"""
from __future__ import annotations

import statistics
import time

import numpy as np
from timing import CLOCK

import inplace_tutorial as ipt
from inplace_tutorial import nn
from inplace_tutorial.nn import functional as F


def backward_medians(forwards: list, repeat: int = 60, warmup: int = 5, block: int = 10,
                     clock=CLOCK) -> list[float]:
    """Median seconds of ``forward().backward()``'s backward alone, per forward in
    ``forwards``, sampled in turns of ``block`` calls."""
    for _ in range(warmup):
        for fwd in forwards:
            fwd().backward()
    times: list[list[float]] = [[] for _ in forwards]
    for _ in range(max(1, repeat // block)):
        for fwd, ts in zip(forwards, times, strict=True):
            for _ in range(block):
                loss = fwd()
                t0 = clock()
                loss.backward()
                ts.append(clock() - t0)
    return [statistics.median(ts) for ts in times]


def main() -> dict:
    import torch
    from bench_training import limit_numpy_blas_threads

    limit_numpy_blas_threads(1)
    ipt.manual_seed(0)
    model = nn.Sequential(nn.Linear(784, 256), nn.ReLU(), nn.Linear(256, 10))
    x = ipt.rand(64, 784)
    y = ipt.tensor(np.arange(64) % 10)
    tm = torch.nn.Sequential(torch.nn.Linear(784, 256), torch.nn.ReLU(), torch.nn.Linear(256, 10))
    tm.load_state_dict({k: torch.tensor(v.numpy().copy()) for k, v in model.state_dict().items()})
    tx, ty = torch.tensor(x.numpy()), torch.tensor(y.numpy())

    def core_forward():
        model.zero_grad()
        return F.cross_entropy(model(x), y)

    def torch_forward():
        tm.zero_grad()
        return torch.nn.functional.cross_entropy(tm(tx), ty)

    default_threads = torch.get_num_threads()
    (t_default,) = backward_medians([torch_forward], clock=time.perf_counter)
    torch.set_num_threads(1)
    try:
        t_core, t_torch = backward_medians([core_forward, torch_forward])
    finally:
        torch.set_num_threads(default_threads)
    ratio = t_core / t_torch
    return {
        "core backward": f"{t_core * 1e3:.3f} ms",
        "torch backward (1 thread)": f"{t_torch * 1e3:.3f} ms",
        f"torch backward ({default_threads} threads, wall clock)": f"{t_default * 1e3:.3f} ms",
        "ratio core/torch (1 thread)": f"{ratio:.2f}x ({'meets' if ratio <= 3 else 'MISSES'} "
                                       "the 3x target)",
        f"ratio core/torch ({default_threads} threads, wall clock)": f"{t_core / t_default:.2f}x",
        "timing": "thread CPU time, medians of 60 backward passes taken in turns of 10",
    }


if __name__ == "__main__":
    for k, v in main().items():
        print(f"{k}: {v}")
