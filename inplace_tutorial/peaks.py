"""Peak memory of the seed article's inference block and its variants (notebook 03).

conv(3->64, 3x3) -> [bn] -> relu or relu_ -> [pool -> relu_], in eval mode under no_grad, on a
small batch. ``block_peaks`` measures each variant's peak with ``ipt.memory.record``;
the parity suite checks that PyTorch's CPU peaks are the same numbers.
"""
from __future__ import annotations

import gc
from collections.abc import Callable, Iterator
from contextlib import contextmanager

from . import nn
from .autograd import grad_mode
from .generator import manual_seed
from .memory import Trace, record
from .ops.random_factories import randn
from .tensor import Tensor

BATCH = (4, 3, 16, 16)

VARIANTS: tuple[str, ...] = (
    "conv",
    "conv -> relu",
    "conv -> relu_",
    "conv -> bn -> relu",
    "conv -> bn -> relu_",
    "conv -> bn -> relu -> pool -> relu",
    "conv -> bn -> relu_ -> pool -> relu_",
)


@contextmanager
def _quiet_record() -> Iterator[Trace]:
    """``record()`` with garbage from earlier code collected first and the collector paused,
    so that only the measured program's own allocations and frees are in the trace."""
    gc.collect()
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        with record() as trace:
            yield trace
    finally:
        if was_enabled:
            gc.enable()


def _blocks(conv, bn, pool, x) -> dict[str, Callable[[], Tensor]]:
    return {
        "conv": lambda: conv(x),
        "conv -> relu": lambda: conv(x).relu(),
        "conv -> relu_": lambda: conv(x).relu_(),
        "conv -> bn -> relu": lambda: bn(conv(x)).relu(),
        "conv -> bn -> relu_": lambda: bn(conv(x)).relu_(),
        "conv -> bn -> relu -> pool -> relu": lambda: pool(bn(conv(x)).relu()).relu(),
        "conv -> bn -> relu_ -> pool -> relu_": lambda: pool(bn(conv(x)).relu_()).relu_(),
    }


def block_traces(batch: tuple[int, int, int, int] = BATCH) -> dict[str, Trace]:
    """One memory trace per variant (the output is freed at the end of each)."""
    manual_seed(0)
    conv, bn, pool = nn.Conv2d(batch[1], 64, 3), nn.BatchNorm2d(64).eval(), nn.MaxPool2d(2)
    x = randn(*batch)
    traces = {}
    with grad_mode.no_grad():
        for name, run in _blocks(conv, bn, pool, x).items():
            with _quiet_record() as trace:
                out = run()
                del out
            traces[name] = trace
    return traces


def block_peaks(batch: tuple[int, int, int, int] = BATCH) -> dict[str, int]:
    """Peak bytes above the start, per variant."""
    return {name: t.peak - t.start_allocated for name, t in block_traces(batch).items()}


def activation_bytes(batch: tuple[int, int, int, int] = BATCH) -> int:
    """Bytes of one conv output (64 channels, 3x3 kernel, no padding, float32)."""
    n, _, h, w = batch
    return n * 64 * (h - 2) * (w - 2) * 4


def expanding_peaks(batch: int = 64, features: int = 8, width: int = 4096) -> dict[str, int]:
    """Linear(features -> width) -> relu or relu_ under no_grad: a layer whose output is much
    bigger than its input, so the ReLU's moment (input and output alive together) is the peak."""
    manual_seed(0)
    lin = nn.Linear(features, width)
    x = randn(batch, features)
    runs = {"linear -> relu": lambda: lin(x).relu(), "linear -> relu_": lambda: lin(x).relu_()}
    peaks = {}
    with grad_mode.no_grad():
        for name, run in runs.items():
            with _quiet_record() as trace:
                out = run()
                del out
            peaks[name] = trace.peak - trace.start_allocated
    return peaks


def training_saved_bytes(batch: tuple[int, int, int, int] = BATCH) -> dict[str, int]:
    """conv -> bn -> relu / relu_ in training: bytes still allocated after the forward pass (the
    output and what backward saved), before backward runs."""
    manual_seed(0)
    conv, bn = nn.Conv2d(batch[1], 64, 3), nn.BatchNorm2d(64)
    x = randn(*batch)
    kept = {}
    for name in ("conv -> bn -> relu", "conv -> bn -> relu_"):
        with _quiet_record() as trace:
            h = bn(conv(x))
            out = h.relu_() if name.endswith("relu_") else h.relu()
            del h
        kept[name] = trace.events[-1].allocated - trace.start_allocated
        del out
    return kept
