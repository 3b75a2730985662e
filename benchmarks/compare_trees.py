"""Two versions of the core against each other, in turns in one process.

On the shared machine PyTorch's own MLP step moves by 3x from one run to the next (0.55 to
1.65 ms at load 15), so a ratio to PyTorch can't tell a 20% change from noise. This script
imports several copies of the package under other names and times the same step of each in
turns (timing.medians), so all of them see the same load::

    git archive 66d74dd inplace_tutorial | tar -x -C /tmp/before   # any revision
    mkdir /tmp/trees && cp -r /tmp/before/inplace_tutorial /tmp/trees/ipt_before
    cp -r inplace_tutorial /tmp/trees/ipt_after
    python benchmarks/compare_trees.py mlp /tmp/trees ipt_before ipt_after

The package imports itself only relatively, so a renamed copy is a second, independent core
(its own allocator counts and generator). Steps: ``mlp``/``cnn`` (bench_training's SGD step at
batch 64) and ``block`` (bench_transformer's block, forward + backward).
"""
from __future__ import annotations

import importlib
import os
import sys

import numpy as np
from bench_training import BATCH, limit_numpy_blas_threads
from bench_transformer import BATCH as BLOCK_BATCH
from bench_transformer import EMBD, HEADS, SEQ
from timing import medians


def step_of(name: str, what: str):
    """The step ``what`` built from the package imported as ``name``."""
    ipt = importlib.import_module(name)
    models = importlib.import_module(name + ".models")
    ipt.manual_seed(0)
    if what == "block":
        block = models.Block(EMBD, HEADS, SEQ)
        x = np.random.default_rng(0).standard_normal((BLOCK_BATCH, SEQ, EMBD))
        cx = ipt.tensor(x.astype(np.float32), requires_grad=True)
        return lambda: block(cx).sum().backward()
    optim = importlib.import_module(name + ".optim")
    F = importlib.import_module(name + ".nn.functional")  # noqa: N806 (PyTorch's name)
    model = models.digits_mlp() if what == "mlp" else models.digits_cnn()
    opt = optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
    x, y = ipt.rand(BATCH, 1, 8, 8), ipt.tensor(np.arange(BATCH) % 10)

    def step():
        opt.zero_grad()
        F.cross_entropy(model(x), y).backward()
        opt.step()
    return step


def main(what: str, folder: str, names: list[str]) -> str:
    sys.path.insert(0, folder)
    limit_numpy_blas_threads(1)
    steps = [step_of(n, what) for n in names]
    repeat, block = (30, 5) if what == "block" else (100, 10)
    times = medians(steps, repeat=repeat, block=block)
    line = " | ".join(f"{n} {t * 1e3:.3f} ms" for n, t in zip(names, times, strict=True))
    ratios = ", ".join(f"{n}/{names[0]} {t / times[0]:.3f}"
                       for n, t in zip(names[1:], times[1:], strict=True))
    return f"{what}: {line} ({ratios}; load {os.getloadavg()[0]:.1f})"


if __name__ == "__main__":
    print(main(sys.argv[1], sys.argv[2], sys.argv[3:]))
