"""cross_entropy (log_softmax + nll_loss), core vs PyTorch on one thread.

The loss of the digits MLP's training step: (64, 10) class scores and class-index targets,
forward alone and forward + backward, at the step's shape and at a larger one (a language
model's (512, 1000) logits). Core and PyTorch run in turns and are timed as CPU time of this
thread (timing.py); microseconds per call, best of the samples.
"""
from __future__ import annotations

import numpy as np
from bench_training import limit_numpy_blas_threads
from timing import best_us

import inplace_tutorial as ipt
from inplace_tutorial.nn import functional as F

SHAPES = ((64, 10), (512, 1000))


def rows(torch) -> list[tuple[str, float, float]]:
    """(what, core us, torch us) for each shape, forward and forward + backward."""
    out = []
    tf = torch.nn.functional
    for n, c in SHAPES:
        rng = np.random.default_rng(0)
        x = rng.standard_normal((n, c)).astype(np.float32)
        y = np.arange(n) % c
        cx, cy = ipt.tensor(x, requires_grad=True), ipt.tensor(y)
        tx, ty = torch.tensor(x, requires_grad=True), torch.tensor(y)
        number = 100 if n * c < 10_000 else 5
        for what, fc, ft in _cases(F, tf, cx, cy, tx, ty):
            core, tt = best_us([fc, ft], number, repeat=9)
            out.append((f"cross_entropy {n}x{c} {what}", core, tt))
    return out


def _cases(F, tf, cx, cy, tx, ty) -> list:  # noqa: N803 (PyTorch's name)
    return [("forward", lambda: F.cross_entropy(cx, cy), lambda: tf.cross_entropy(tx, ty)),
            ("forward + backward", lambda: F.cross_entropy(cx, cy).backward(),
             lambda: tf.cross_entropy(tx, ty).backward())]


def main() -> list[str]:
    import torch

    limit_numpy_blas_threads(1)
    threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        result = rows(torch)
    finally:
        torch.set_num_threads(threads)
    return [f"{what:<40} core {core:8.1f} us | torch(1 thread) {tt:7.1f} us -> {core / tt:5.2f}x"
            for what, core, tt in result]


if __name__ == "__main__":
    for line in main():
        print(line)
