"""addbmm_ and its alternatives over a range of batch sizes (notebook 08, "effective for large
batch sizes"): time per call and peak bytes, in the core and (if installed) in PyTorch.

Each call computes out (32, 32) += sum of b products (32x32 @ 32x32), float32, for
b in 1 ... 1024. Times are the best of several repeats; they move by ±10% between runs.

    python benchmarks/bench_addbmm.py
"""
from __future__ import annotations

import importlib.util
import timeit

import numpy as np

import inplace_tutorial as ipt
from inplace_tutorial.fused import addbmm_ways

BATCHES = (1, 4, 16, 64, 256, 1024)
N = 32


def _best_us(fn, number: int = 20, repeat: int = 5) -> float:
    return min(timeit.repeat(fn, number=number, repeat=repeat)) / number * 1e6


def core_rows() -> list[tuple[int, str, float, int]]:
    rows = []
    rng = np.random.default_rng(0)
    for b in BATCHES:
        b1 = ipt.tensor(rng.standard_normal((b, N, N), dtype=np.float32))
        b2 = ipt.tensor(rng.standard_normal((b, N, N), dtype=np.float32))
        out = ipt.zeros(N, N)
        for name, fn in addbmm_ways(b1, b2).items():
            with ipt.memory.record() as tr:
                fn(out)
            rows.append((b, name, _best_us(lambda fn=fn, out=out: fn(out)),
                         tr.peak - tr.start_allocated))
    return rows


def _torch_ways(torch, out, b1, b2) -> dict:
    return {
        "out.addbmm_(b1, b2)": lambda: out.addbmm_(b1, b2),
        "out + bmm(b1, b2).sum(0)": lambda: out + torch.bmm(b1, b2).sum(0),
        "out.add_(einsum('bij,bjk->ik'))": lambda: out.add_(torch.einsum("bij,bjk->ik", b1, b2)),
    }


def torch_rows() -> list[tuple[int, str, float]]:
    if importlib.util.find_spec("torch") is None:
        return []
    import torch

    threads = torch.get_num_threads()
    torch.set_num_threads(1)
    rows = []
    rng = np.random.default_rng(0)
    try:
        for b in BATCHES:
            b1 = torch.from_numpy(rng.standard_normal((b, N, N), dtype=np.float32))
            b2 = torch.from_numpy(rng.standard_normal((b, N, N), dtype=np.float32))
            out = torch.zeros(N, N)
            ways = _torch_ways(torch, out, b1, b2)
            for name, fn in ways.items():
                rows.append((b, name, _best_us(fn)))
    finally:
        torch.set_num_threads(threads)  # the next benchmark module sees the default again
    return rows


def main() -> str:
    lines = [f"core (NumPy), out ({N}, {N}) += sum of b products {N}x{N} @ {N}x{N}",
             f"{'b':>6}  {'way':<34}{'µs per call':>12}{'peak bytes':>14}{'µs per product':>16}"]
    for b, name, us, peak in core_rows():
        lines.append(f"{b:>6}  {name:<34}{us:>12.1f}{peak:>14,}{us / b:>16.2f}")
    rows = torch_rows()
    if rows:
        lines += ["", "PyTorch (CPU, 1 thread)", f"{'b':>6}  {'way':<34}{'µs per call':>12}"
                  f"{'':>14}{'µs per product':>16}"]
        for b, name, us in rows:
            lines.append(f"{b:>6}  {name:<34}{us:>12.1f}{'':>14}{us / b:>16.2f}")
    return "\n".join(lines)


if __name__ == "__main__":
    print(main())
