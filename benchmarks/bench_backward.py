"""Backward of an MLP 784-256-10 at batch 64: the core's engine vs PyTorch CPU.

Only ``loss.backward()`` is timed (the forward runs before each sample, untimed), with
NumPy's BLAS and torch both pinned to one thread; torch's default threads reported too.
"""
from __future__ import annotations

import statistics
import time

import numpy as np

import inplace_tutorial as ipt
from inplace_tutorial import nn
from inplace_tutorial.nn import functional as F


def _backward_time(lib_forward, repeat: int = 60, warmup: int = 5) -> float:
    times = []
    for i in range(repeat + warmup):
        loss = lib_forward()
        t0 = time.perf_counter()
        loss.backward()
        if i >= warmup:
            times.append(time.perf_counter() - t0)
    return statistics.median(times)


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
    t_default = _backward_time(torch_forward)
    torch.set_num_threads(1)
    t_torch = _backward_time(torch_forward)
    torch.set_num_threads(default_threads)
    t_core = _backward_time(core_forward)
    ratio = t_core / t_torch
    return {
        "core backward": f"{t_core * 1e3:.3f} ms",
        "torch backward (1 thread)": f"{t_torch * 1e3:.3f} ms",
        f"torch backward ({default_threads} threads)": f"{t_default * 1e3:.3f} ms",
        "ratio core/torch (1 thread)": f"{ratio:.2f}x ({'meets' if ratio <= 3 else 'MISSES'} "
                                       "the 3x target)",
        "ratio core/torch (default)": f"{t_core / t_default:.2f}x",
    }


if __name__ == "__main__":
    for k, v in main().items():
        print(f"{k}: {v}")
