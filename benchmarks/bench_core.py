"""Core benchmarks (issue 2): per-op overhead, big in-place element-wise ops, import time.

Each row compares the core with PyTorch on one thread and with the fastest NumPy
formulation that allocates nothing, all measured in the same run, in turns (timing.py). Run with
``python benchmarks/bench_core.py`` or ``make bench``. Not a test: numbers vary by machine.
"""
from __future__ import annotations

import os
import subprocess
import sys
import tempfile

import numpy as np
from timing import best_us

import inplace_tutorial as ipt

CHUNK = 65536  # float32 elements in the core's 256 KiB workspace


def _numpy_relu_inplace(a: np.ndarray, zero: np.ndarray) -> None:
    # np.maximum(a, 0) has no SIMD path for a scalar; against a zero block it has: rows of
    # CHUNK elements against one zero row in one call, then the rest
    flat = a.reshape(-1)
    rows = flat.size // CHUNK * CHUNK
    np.maximum(flat[:rows].reshape(-1, CHUNK), zero, out=flat[:rows].reshape(-1, CHUNK))
    np.maximum(flat[rows:], zero[:flat.size - rows], out=flat[rows:])


def rows(torch=None) -> list[tuple[str, float, float | None, float, float | None, float | None]]:
    """(what, core us, torch us, numpy us, ratio vs torch, ratio vs numpy)."""
    out = []
    x, a = ipt.zeros(3), np.zeros(3, np.float32)
    t = torch.zeros(3) if torch else None
    core, npy, *tt = best_us([lambda: x.add_(1), lambda: np.add(a, 1, out=a)]
                             + ([lambda: t.add_(1)] if torch else []), 20000)
    out.append(("x.add_(1), 3 elements", core, tt[0] if tt else None, npy))

    rng = np.random.default_rng(0)
    base = rng.standard_normal((1000, 1000)).astype(np.float32)
    g_np = rng.uniform(0.999, 1.001, (1000, 1000)).astype(np.float32)  # stays finite
    xc, gc = ipt.tensor(base), ipt.tensor(g_np)
    xt = torch.from_numpy(base.copy()) if torch else None
    gt = torch.from_numpy(g_np.copy()) if torch else None
    an, zero = base.copy(), np.zeros(CHUNK, np.float32)
    cases = [
        ("add_(5), 1000x1000", lambda: xc.add_(5), lambda: xt.add_(5),
         lambda: np.add(an, 5, out=an)),
        ("mul_(g), 1000x1000", lambda: xc.mul_(gc), lambda: xt.mul_(gt),
         lambda: np.multiply(an, g_np, out=an)),
        ("relu_(), 1000x1000", lambda: xc.relu_(), lambda: xt.relu_(),
         lambda: _numpy_relu_inplace(an, zero)),
        ("add_(g, alpha=-0.1), 1000x1000", lambda: xc.add_(gc, alpha=-0.1),
         lambda: xt.add_(gt, alpha=-0.1), None),
    ]
    for what, fc, ft, fn in cases:
        fns = [fc] + ([ft] if torch else []) + ([fn] if fn else [])
        core, *rest = best_us(fns, 50, repeat=15)  # in turns: the same load for all three
        tt = rest.pop(0) if torch else None
        npy = rest.pop(0) if fn else None
        out.append((what, core, tt, npy))
        np.copyto(xc._array(), base)  # keep values finite between cases
        np.copyto(an, base)
        if torch:
            xt.copy_(torch.from_numpy(base))
    return out


def import_seconds() -> tuple[float, float]:
    """Best wall time and best CPU time of ``import inplace_tutorial`` in a fresh Python (of
    10 runs); on a loaded machine the wall time includes waiting for a core.

    Measured as a learner's Python imports it: from cached bytecode. With
    PYTHONDONTWRITEBYTECODE set (CI and the helpers' shells set it) every run would compile
    all ~100 modules from source again (about 0.1 s more), so the runs write their bytecode
    to a temporary directory instead (PYTHONPYCACHEPREFIX), filled by one warm-up run."""
    code = ("import time; t, c = time.perf_counter(), time.process_time(); "
            "import inplace_tutorial; print(time.perf_counter() - t, time.process_time() - c)")
    with tempfile.TemporaryDirectory() as cache:
        env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
        env["PYTHONPYCACHEPREFIX"] = cache

        def once() -> tuple[float, float]:
            out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                                 check=True, env=env).stdout
            return tuple(map(float, out.split()))

        once()  # writes the bytecode
        runs = [once() for _ in range(10)]
    return min(w for w, _ in runs), min(c for _, c in runs)


def main() -> str:
    try:
        import torch
    except ImportError:
        torch = None
    threads = torch.get_num_threads() if torch else 0
    if torch:
        torch.set_num_threads(1)
    lines = [f"{'what':<34}{'core':>10}{'torch':>10}{'numpy':>10}{'vs torch':>10}{'vs numpy':>10}"]
    for what, core, tt, npy in rows(torch):
        vt = f"{core / tt:.2f}x" if tt else "-"
        vn = f"{core / npy:.2f}x" if npy else "-"
        tts = f"{tt:.1f}" if tt else "-"
        nps = f"{npy:.1f}" if npy else "-"
        lines.append(f"{what:<34}{core:>10.1f}{tts:>10}{nps:>10}{vt:>10}{vn:>10}")
    lines.append("(CPU microseconds of this thread per call, best of 15 samples taken in turns "
                 "with torch and NumPy; torch on 1 thread)")
    if torch:
        torch.set_num_threads(threads)  # the next benchmark module sees the default again
    wall, cpu = import_seconds()
    lines.append(f"import inplace_tutorial: {wall:.3f} s wall, {cpu:.3f} s CPU (target <= 0.3 s)")
    return "\n".join(lines)


if __name__ == "__main__":
    print(main())
