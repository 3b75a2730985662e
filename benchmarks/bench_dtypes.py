"""Reduced and small dtypes (issue 10): in-place element-wise ops on 1000x1000 tensors.

float16 and bfloat16 compute in float32 and round once per op, as PyTorch's CPU kernels do:
float16 add and sub on the bits in integer NumPy passes, bfloat16 add, sub and mul through
ml_dtypes' vectorised casts (ops/_half_add.py), other ops in wide scratch (ops/reduced.py).
NumPy has no vectorised float16 arithmetic; the NumPy column is its own float16 loop, which
gives the same values. Run with ``python benchmarks/bench_dtypes.py`` or
``make bench``. Not a test: numbers vary by machine.
"""
from __future__ import annotations

import numpy as np
from timing import best_us

import inplace_tutorial as ipt


def rows(torch=None) -> list[tuple[str, float, float | None, float | None]]:
    """(what, core us, torch us, numpy us)."""
    rng = np.random.default_rng(0)
    a = rng.standard_normal((1000, 1000)).astype(np.float32)
    b = rng.uniform(-1e-3, 1e-3, (1000, 1000)).astype(np.float32)  # values stay in range
    out = []
    for name, np_dtype in (("float16", np.float16), ("bfloat16", None), ("int8", np.int8),
                           ("uint8", np.uint8), ("int16", np.int16)):
        d = getattr(ipt, name)
        ints = not d.is_floating_point
        av, bv = (np.clip(a * 10, -60, 60), np.sign(b)) if ints else (a, b)
        xc, yc = ipt.tensor(av).to(d), ipt.tensor(bv).to(d)
        fns = [lambda: xc.add_(yc)]  # noqa: B023
        if torch:
            td = getattr(torch, name)
            xt, yt = torch.from_numpy(av.copy()).to(td), torch.from_numpy(bv.copy()).to(td)
            fns.append(lambda: xt.add_(yt))  # noqa: B023
        if np_dtype is not None:
            an, bn = av.astype(np_dtype), bv.astype(np_dtype)
            fns.append(lambda: np.add(an, bn, out=an))  # noqa: B023
        core, *rest = best_us(fns, 5, repeat=9)  # in turns: the same load for all three
        ft = rest.pop(0) if torch else None
        fn = rest.pop(0) if np_dtype is not None else None
        out.append((f"{name} add_(y), 1000x1000", core, ft, fn))
    return out


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
        vt = f"{core / tt:.1f}x" if tt else "-"
        vn = f"{core / npy:.2f}x" if npy else "-"
        tts = f"{tt:.1f}" if tt else "-"
        nps = f"{npy:.1f}" if npy else "-"
        lines.append(f"{what:<34}{core:>10.1f}{tts:>10}{nps:>10}{vt:>10}{vn:>10}")
    lines.append("(CPU microseconds of this thread per call, best of 9 samples taken in turns; "
                 "torch on 1 thread; target: float16 add_ <= 2x torch)")
    if torch:
        torch.set_num_threads(threads)
    return "\n".join(lines)


if __name__ == "__main__":
    print(main())
