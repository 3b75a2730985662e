"""Where one digits-MLP training step spends its time, phase by phase, and its Python calls.

Run: ``python benchmarks/profile_mlp_step.py`` prints the median microseconds of zero_grad +
forward, cross_entropy, backward and SGD's step (300 steps, after 50 to warm up); with
``--calls`` it also counts the Python calls of 500 steps and prints cProfile's top 25. The
call count does not depend on the machine's load, so it compares two versions of the core
where timings on a shared machine can't (the README's MLP row quotes both).
"""
from __future__ import annotations

import cProfile
import os
import pstats
import sys
import time

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # one BLAS thread, as the other benchmarks

import numpy as np  # noqa: E402  (after the thread setting, which NumPy reads at import)

import inplace_tutorial as ipt  # noqa: E402
from inplace_tutorial import models, optim  # noqa: E402
from inplace_tutorial.nn import functional as F  # noqa: E402


def main(calls: bool = False) -> None:
    ipt.manual_seed(0)
    model = models.digits_mlp()
    opt = optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
    x, y = ipt.rand(64, 1, 8, 8), ipt.tensor(np.arange(64) % 10)

    def step() -> None:
        opt.zero_grad()
        F.cross_entropy(model(x), y).backward()
        opt.step()

    def phases() -> list[float]:
        t0 = time.perf_counter()
        opt.zero_grad()
        out = model(x)
        t1 = time.perf_counter()
        loss = F.cross_entropy(out, y)
        t2 = time.perf_counter()
        loss.backward()
        t3 = time.perf_counter()
        opt.step()
        t4 = time.perf_counter()
        return [t1 - t0, t2 - t1, t3 - t2, t4 - t3]

    for _ in range(50):
        step()
    us = np.median([phases() for _ in range(300)], axis=0) * 1e6
    print("forward {:.0f}  cross_entropy {:.0f}  backward {:.0f}  SGD step {:.0f}  "
          "total {:.0f} µs".format(*us, us.sum()))
    if calls:
        profile = cProfile.Profile()
        profile.enable()
        for _ in range(500):
            step()
        profile.disable()
        stats = pstats.Stats(profile)
        print(f"{stats.total_calls:,} Python calls in 500 steps")
        stats.sort_stats("tottime").print_stats(25)


if __name__ == "__main__":
    main("--calls" in sys.argv)
