"""``x + alpha * y`` bit for bit (ops/_fma.py): add/sub/rsub with ``alpha=``, in place, out of
place and ``out=``, the optimizers' updates. PyTorch's AVX2 and AVX512 builds round once (a
fused multiply-add), except in the 16-byte steps of a row's tail when ``other`` is one number;
the DEFAULT build rounds twice. The programs cover lengths inside one vector step, past it and
with every tail length, strided and broadcast operands, alphas that float32 can't hold, and
sums that fall exactly halfway between two float32 numbers once rounded to float64;
test_each_build runs them under every build this CPU can run, each in a fresh process.
"""

import numpy as np
import pytest

from inplace_tutorial import cpu_capability

from .harness import Registry, arr, check_parity
from .test_cpu_capability_parity import _run
from .test_nan_sign_parity import bits

pytestmark = pytest.mark.parity

prog = Registry()

ALPHAS = (-0.05, 0.3, 1 / 3, -0.1, 7, 1e-3)
LENGTHS = (*range(1, 41), 47, 63, 64, 65, 100, 1000, 4099)


def _pair(t, n, seed):
    return t.tensor(arr(n, seed=seed)), t.tensor(arr(n, seed=seed + 1000))


@prog
def add_inplace_every_length(t):
    out = {}
    for n in LENGTHS:
        x, y = _pair(t, n, n)
        alpha = ALPHAS[n % len(ALPHAS)]
        out[n] = (bits(x.clone().add_(y, alpha=alpha)), bits(x.clone().sub_(y, alpha=alpha)),
                  bits(x.add(y, alpha=-alpha)), bits(t.sub(x, y, alpha=alpha)),
                  bits(t.rsub(x, y, alpha=alpha)), bits(x.subtract(y, alpha=alpha)))
    return out


@prog
def add_a_number_every_length(t):
    """other one number: a Python scalar, a 0-dim tensor (float32, float64), rsub's."""
    out = {}
    for n in LENGTHS:
        x, _ = _pair(t, n, n)
        alpha, s = ALPHAS[n % len(ALPHAS)], float(arr(1, seed=n)[0]) * 3.7
        out[n] = (bits(x.clone().add_(s, alpha=alpha)), bits(t.add(x, s, alpha=alpha)),
                  bits(x.clone().sub_(s, alpha=alpha)),
                  bits(x.clone().add_(t.tensor(np.float32(s)), alpha=alpha)),
                  bits(x.clone().add_(t.tensor(s, dtype=t.float64), alpha=alpha)),
                  bits(t.rsub(x, s, alpha=alpha)), bits(t.add(t.tensor(np.float32(s)), x,
                                                           alpha=alpha)))
    return out


@prog
def add_strided_and_broadcast(t):
    out = {}
    for shape in ((300, 70), (5, 7), (3, 17), (64, 9), (2, 3, 37), (4, 16)):
        a, b = t.tensor(arr(*shape, seed=1)), t.tensor(arr(*shape, seed=2))
        col, row = b[..., :1].clone(), b[(0,) * (len(shape) - 1)].clone()
        out[str(shape)] = {
            "col": bits(a.clone().add_(col, alpha=0.7)),
            "row": bits(a.clone().add_(row, alpha=0.7)),
            "col_out": bits(t.add(a, col, alpha=-0.3)),
            "row_self": bits(t.add(row, a, alpha=0.1)),
            "t": bits(a.clone().mT.add_(b.mT.contiguous(), alpha=0.7)),
            "both_t": bits(a.mT.add(b.mT, alpha=0.7)),
            "col_t": bits(a.mT.contiguous().mT.add_(col, alpha=0.7)),
            "step2": bits(a.clone()[..., ::2].add_(b[..., ::2], alpha=1 / 3)),
            "scalar_step2": bits(a.clone()[..., ::2].add_(2.5, alpha=1 / 3)),
            "mixed": bits(a.clone().add_(b[..., ::2].repeat_interleave(2, -1)[..., :shape[-1]],
                                         alpha=0.3))}
    return out


@prog
def add_dtypes_and_out(t):
    """An integer operand (cast to float32 first), out= of float32 and float64, float64
    self with a float32 other (computed in float64: rounded twice today, checked as such
    only where torch agrees)."""
    out = {}
    for n in (5, 16, 37, 100):
        x, y = _pair(t, n, n)
        ints = t.tensor((arr(n, seed=n) * 1e8).astype(np.int64))
        o32, o64 = t.empty(n), t.empty(n, dtype=t.float64)
        t.add(x, y, alpha=0.3, out=o32)
        t.sub(x, y, alpha=0.3, out=o64)
        out[n] = (bits(t.add(ints, y, alpha=0.3)), bits(t.add(x[:0], y[:0], alpha=0.3)),
                  bits(t.add(x, y, alpha=0.3, out=t.empty(0))), bits(t.add(y, ints, alpha=0.3)),
                  bits(o32), bits(o64), bits(x.clone().add_(ints, alpha=3)))
    return out


def _ties(t):
    """x + alpha * y whose float64 sum is exactly halfway between two float32 numbers: 1 +
    2**-24 + k * 2**-71, 0 < k < 2**17 (u * v = 2**47 + k), both signs; and sums in float32's
    subnormal range."""
    u, v = 8390641, 16773151  # u * v - 2**47 = 124463
    alpha = u * 2.0 ** -23
    y = np.float32(v * 2.0 ** -48)
    xs = np.array([1.0, -1.0, 2.0, 0.5] * 10, dtype=np.float32)
    ys = np.array([y, -y, 2 * y, y / 2] * 10, dtype=np.float32)
    tiny = np.array([1e-45, -3e-44, 1e-39, 2e-38, 0.0, -0.0] * 6, dtype=np.float32)
    return alpha, t.tensor(xs), t.tensor(ys), t.tensor(tiny), t.tensor(tiny[::-1].copy())


@prog
def add_ties_and_subnormals(t):
    alpha, xs, ys, tiny, tiny2 = _ties(t)
    return {"ties": bits(xs.clone().add_(ys, alpha=alpha)),
            "ties_neg": bits(xs.clone().add_(ys, alpha=-alpha)),
            "ties_sub": bits(t.sub(xs, ys, alpha=alpha)),
            "tiny": bits(tiny.clone().add_(tiny2, alpha=0.75)),
            "tiny_big_alpha": bits(tiny.clone().add_(tiny2, alpha=-1e30)),
            "inf_zero": bits(t.tensor([1e38, 3e38, -3e38, 0.0] * 5).add_(
                t.tensor([3e38, 3e38, -1e38, 5.0] * 5), alpha=0.9))}


@prog
def sgd_steps(t):
    """SGD's `p.add_(grad, alpha=-lr)`, with weight decay, momentum and nesterov (their
    `grad.add(p, alpha=wd)` and `grad.add(buf, alpha=momentum)`)."""
    out = {}
    for kw in ({}, {"weight_decay": 1e-2}, {"momentum": 0.9, "nesterov": True,
                                             "weight_decay": 3e-3}, {"momentum": 0.8,
                                                                     "dampening": 0.1}):
        p = t.nn.Parameter(t.tensor(arr(33, 7, seed=3)))
        opt = t.optim.SGD([p], lr=0.013, **kw)
        for step in range(3):
            p.grad = t.tensor(arr(33, 7, seed=10 + step))
            opt.step()
        out[str(kw)] = bits(p)
    return out


@pytest.mark.parametrize("prog", prog.params())
def test_fma_parity(prog, torch_mod, core):
    check_parity(prog, torch_mod, core)


@pytest.mark.parametrize("build", [b.lower() for b in cpu_capability.runnable_builds()])
def test_each_build(build, torch_mod):
    report = _run(build, ["tests.parity.test_fma_parity"])
    assert report["torch"] == report["core"] == build.upper()
    assert len(report["programs"]) == len(prog.programs)
    differ = {name: r["diffs"][:3] for name, r in report["programs"].items() if r["diffs"]}
    assert not differ, f"under ATEN_CPU_CAPABILITY={build}: {differ}"
