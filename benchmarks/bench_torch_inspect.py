"""Overhead of ``torch_inspect.detect_inplace()`` on one training step of the digits MLP.

The same MLP as ``ipt.models.digits_mlp`` (Flatten -> Linear(64, 128) -> ReLU(inplace=True)
-> Linear(128, 10)), built in real PyTorch, trained on batches of the course's digits with
SGD(momentum=0.9). One step = zero_grad, forward, cross-entropy, backward, step. Medians of
many steps, one torch thread, timed as this thread's CPU time (with one torch thread, forward,
backward and the optimizer all run on it), so that other processes on a shared machine do not
distort the ratio; the steps of the plain and the managed run alternate. Target: at most 3x
slower inside the manager; outside it the manager must leave nothing installed (checked: no
torch function mode remains).
"""
from __future__ import annotations

import statistics
import time

import numpy as np

from inplace_tutorial.data import load_digits

BATCH, TARGET = 64, 3.0


def _step_fn(torch):
    torch.manual_seed(0)
    nn = torch.nn
    model = nn.Sequential(nn.Flatten(), nn.Linear(64, 128), nn.ReLU(inplace=True),
                          nn.Linear(128, 10))
    opt = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
    x, y = load_digits()
    xb = torch.tensor(x.numpy()[:BATCH].reshape(BATCH, 1, 8, 8).astype(np.float32))
    yb = torch.tensor(y.numpy()[:BATCH].astype(np.int64))

    def step():
        opt.zero_grad()
        torch.nn.functional.cross_entropy(model(xb), yb).backward()
        opt.step()

    return step


def _medians(fns: list, repeat: int, warmup: int = 30) -> list[float]:
    """Median time of each function, run in turns so that load on the machine hits all alike."""
    for _ in range(warmup):
        for fn in fns:
            fn()
    times: list[list[float]] = [[] for _ in fns]
    for _ in range(repeat):
        for fn, ts in zip(fns, times, strict=True):
            t0 = time.thread_time()
            fn()
            ts.append(time.thread_time() - t0)
    return [statistics.median(ts) for ts in times]


def measure(repeat: int = 300) -> dict:
    import torch

    from inplace_tutorial.torch_inspect import detect_inplace

    threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        step = _step_fn(torch)
        plain_before = _medians([step], repeat)[0]

        def managed():
            with detect_inplace():
                step()

        plain, inside = _medians([step, managed], repeat)
        plain = min(plain, plain_before)
        # Outside the manager nothing of it is left: no function mode stays installed.
        modes_after = len(torch.overrides._get_current_function_mode_stack())
    finally:
        torch.set_num_threads(threads)
    return {"plain_ms": plain * 1e3, "inside_ms": inside * 1e3, "ratio": inside / plain,
            "modes_after": modes_after}


def main() -> dict:
    r = measure()
    ok = "meets" if r["ratio"] <= TARGET else "MISSES"
    return {
        "digits MLP step": (f"plain {r['plain_ms']:.3f} ms | inside detect_inplace() "
                            f"{r['inside_ms']:.3f} ms -> {r['ratio']:.2f}x ({ok} the "
                            f"{TARGET:.0f}x target)"),
        "after the manager": f"{r['modes_after']} torch function mode(s) left installed",
    }


if __name__ == "__main__":
    for k, v in main().items():
        print(f"{k}: {v}")
