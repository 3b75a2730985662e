"""Issue 10's performance targets, measured in one run: the README's table.

Each target times the core and PyTorch (one thread) in turns, as CPU time of this thread
(timing.py), with the per-topic scripts' own functions: bench_training.step_times (MLP, CNN
steps), bench_transformer.block_times, the relu_ and float16 add_ rows of bench_core and
bench_dtypes, and bench_core.import_seconds. A second table (numpy_floor) times NumPy's own
calls for the two in-place rows: the floor under any core written on NumPy. On a shared
machine a ratio moves by 10-20% from run to run, so ``python benchmarks/targets.py 3`` runs
the whole set three times and prints every run's ratio; the tables are Markdown, as the
README shows them.
"""
from __future__ import annotations

import os
import sys

import numpy as np
from bench_core import import_seconds
from bench_training import limit_numpy_blas_threads, step_times
from bench_transformer import block_times
from timing import best_us

import inplace_tutorial as ipt
from inplace_tutorial import models
from inplace_tutorial.ops import unary

TARGETS = {"MLP train step (digits, batch 64)": 1.2, "CNN train step": 1.6,
           "Transformer block fwd+bwd": 2.0, "`relu_()`, 1000×1000 float32": 1.2,
           "float16 `add_(y)`, 1000×1000": 2.0}


def _inplace_rows(torch) -> dict[str, tuple[float, float]]:
    """relu_ (float32) and add_(y) (float16) on 1000x1000: best microseconds, in turns."""
    rng = np.random.default_rng(0)
    a = rng.standard_normal((1000, 1000)).astype(np.float32)
    b = rng.uniform(-1e-3, 1e-3, (1000, 1000)).astype(np.float32)
    out = {}
    xc, xt = ipt.tensor(a), torch.from_numpy(a.copy())
    out["`relu_()`, 1000×1000 float32"] = best_us([xc.relu_, xt.relu_], 50, repeat=15)
    hc, gc = ipt.tensor(a).half(), ipt.tensor(b).half()
    ht, gt = torch.from_numpy(a).half(), torch.from_numpy(b).half()
    out["float16 `add_(y)`, 1000×1000"] = best_us([lambda: hc.add_(gc), lambda: ht.add_(gt)],
                                                  5, repeat=9)
    return out


def numpy_floor(torch) -> list[tuple[str, float, float]]:
    """What NumPy alone takes for the two in-place rows, next to PyTorch's op: the floor under
    any core written on NumPy. (name, NumPy µs, PyTorch µs), best of turns."""
    rng = np.random.default_rng(0)
    a = rng.standard_normal((1000, 1000)).astype(np.float32)
    x, xt = a.copy(), torch.from_numpy(a.copy())
    h, g = a.astype(np.float16), rng.uniform(-1e-3, 1e-3, a.shape).astype(np.float16)
    wide = np.empty(a.shape, np.float32)
    clip, zero, inf = unary._clip, np.float32(0), np.float32(np.inf)  # the ufunc relu_ calls
    ht, gt = torch.from_numpy(h.copy()), torch.from_numpy(g.copy())
    threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        relu_np, relu_t = best_us([lambda: clip(x, zero, inf, out=x), xt.relu_], 50, repeat=15)
        add16, to32, to16, add_t = best_us([lambda: np.add(h, g, out=h),
                                            lambda: np.copyto(wide, h),
                                            lambda: np.copyto(h, wide),
                                            lambda: ht.add_(gt)], 5, repeat=9)
    finally:
        torch.set_num_threads(threads)
    return [("NumPy's clip ufunc `(x, 0, inf, out=x)` (float32) vs `relu_()`", relu_np, relu_t),
            ("`np.add(h, g, out=h)` (float16) vs float16 `add_`", add16, add_t),
            ("NumPy's float16 → float32 cast alone vs float16 `add_`", to32, add_t),
            ("NumPy's float32 → float16 cast alone vs float16 `add_`", to16, add_t)]


def one_run(torch) -> dict[str, tuple[float, float]]:
    """{target: (core, torch)} in milliseconds (microseconds for the two in-place rows)."""
    threads = torch.get_num_threads()
    try:
        r = {"MLP train step (digits, batch 64)": step_times(torch, models.digits_mlp),
             "CNN train step": step_times(torch, models.digits_cnn)}
        res = {k: (v["core_ms"], v["torch1_ms"]) for k, v in r.items()}
        torch.set_num_threads(1)
        b = block_times(torch)
        res["Transformer block fwd+bwd"] = (b["core_ms"], b["torch_ms"])
        res.update(_inplace_rows(torch))
    finally:
        torch.set_num_threads(threads)
    return res


def main(runs: int = 1) -> str:
    import torch

    limit_numpy_blas_threads(1)
    all_runs = [one_run(torch) for _ in range(runs)]
    wall, cpu = import_seconds()
    load = os.getloadavg()[0]
    lines = [f"(load average {load:.1f}; core / PyTorch on one thread, in turns, CPU time; "
             "ms for steps, µs for the in-place rows; last run's times)", "",
             "| target | core | PyTorch | ratio per run | target | met? |",
             "|---|---|---|---|---|---|"]
    for what, goal in TARGETS.items():
        ratios = [run[what][0] / run[what][1] for run in all_runs]
        core, ref = all_runs[-1][what]
        met = "yes" if max(ratios) <= goal else ("some runs" if min(ratios) <= goal else "no")
        digits = 2 if ref < 100 else 0  # ms to 2 decimals, microseconds whole
        lines.append(f"| {what} | {core:,.{digits}f} | {ref:,.{digits}f} | "
                     + ", ".join(f"{x:.2f}×" for x in ratios) + f" | ≤ {goal}× | {met} |")
    lines.append(f"| `import inplace_tutorial`, CPU | {cpu:.3f} s ({wall:.2f} s wall) | | | "
                 f"≤ 0.3 s | {'yes' if cpu <= 0.3 else 'no'} |")
    lines += ["", "NumPy alone, on the same arrays (µs; the floor under a core written on NumPy):",
              "", "| NumPy call vs PyTorch op | NumPy | PyTorch | ratio |", "|---|---|---|---|"]
    for what, mine, ref in numpy_floor(torch):
        lines.append(f"| {what} | {mine:,.0f} | {ref:,.0f} | {mine / ref:.2f}× |")
    return "\n".join(lines)


if __name__ == "__main__":
    print(main(int(sys.argv[1]) if len(sys.argv) > 1 else 1))
