"""Timing helpers shared by the benchmarks: the core and PyTorch measured in turns.

On a shared machine the load changes from one second to the next, so timing the core for a
while and then PyTorch for a while compares two different machines. Here the functions run
in turns (core, torch, core, torch ..., a few calls each) and each sample is the CPU time of
this thread (``time.thread_time``): NumPy's BLAS and PyTorch are pinned to one thread, so all
the work of one call runs on it, and time spent waiting for a core is not counted.
"""
from __future__ import annotations

import statistics
import time

CLOCK = time.thread_time


def best_us(fns: list, number: int, repeat: int = 7) -> list[float]:
    """Best time per call in microseconds of each function (``number`` calls per sample),
    sampled in turns ``repeat`` times."""
    best = [float("inf")] * len(fns)
    for _ in range(repeat):
        for i, fn in enumerate(fns):
            t0 = CLOCK()
            for _ in range(number):
                fn()
            best[i] = min(best[i], (CLOCK() - t0) / number * 1e6)
    return best


def medians(fns: list, repeat: int = 60, warmup: int = 5, block: int = 1) -> list[float]:
    """Median time per call in seconds of each function, ``repeat`` calls each, in turns of
    ``block`` calls. For a training step use blocks (10): one call each in turns leaves every
    call with the caches the other side just filled, which flatters the slower side (by about
    10% on the digits MLP), while a training loop repeats the same step."""
    for _ in range(warmup):
        for fn in fns:
            fn()
    times: list[list[float]] = [[] for _ in fns]
    for _ in range(max(1, repeat // block)):
        for fn, ts in zip(fns, times, strict=True):
            for _ in range(block):
                t0 = CLOCK()
                fn()
                ts.append(CLOCK() - t0)
    return [statistics.median(ts) for ts in times]
