"""ops/cpu_loops.py: the overlap walk computed many steps per NumPy call gives exactly what the
step-by-step walk gives (the order torch's CPU loop writes in; the parity files compare that
order with torch), over random overlapping layouts of one buffer."""

import numpy as np
import pytest
from byte_intervals import check, measure, remeasured, set_floor, tracing
from numpy.lib.stride_tricks import as_strided

import inplace_tutorial as ipt
from inplace_tutorial.ops import _grouped_walk, cpu_loops


def _add(o, xs):
    np.add(xs[0], xs[1], out=o)


def _fma(o, xs):  # one to three operands, scaled and summed: order shows in every bit
    np.multiply(xs[-1], 1.25, out=o)
    np.add(o, xs[0] if len(xs) > 1 else 0.5, out=o)
    if len(xs) > 2:
        np.subtract(o, xs[1], out=o)


def _view(buf, rng, shape, allow_zero=False):
    """A view of ``buf`` with random non-negative strides (or None if it doesn't fit)."""
    strides = []
    for s in shape:
        st = int(rng.integers(0 if allow_zero else 1, 9))
        strides.append(st if s > 1 else int(rng.integers(0, 3)))
    span = sum((s - 1) * st for s, st in zip(shape, strides))
    if span >= buf.size:
        return None
    off = int(rng.integers(0, buf.size - span))
    return as_strided(buf[off:], shape, [st * buf.itemsize for st in strides])


def _distinct_cells(v):
    idx = np.arange(v.size)
    addr = sum(i * (st // v.itemsize) for i, st in zip(np.unravel_index(idx, v.shape),
                                                        v.strides))
    return len(set(np.atleast_1d(addr).tolist())) == v.size


def _case(seed):
    rng = np.random.default_rng(seed)
    dtype = rng.choice([np.float32, np.float64])
    buf = (np.arange(300) % 11 * 0.37 + 1.1).astype(dtype)
    nd = int(rng.integers(1, 4))
    shape = tuple(int(rng.integers(1, 6 if d < nd - 1 else 40)) for d in range(nd))
    out = _view(buf, rng, shape)
    if out is None or not _distinct_cells(out):
        return None
    others = []
    for _ in range(int(rng.integers(1, 3))):
        sub = shape[int(rng.integers(0, nd)):]  # broadcast from the right
        o = _view(buf, rng, sub, allow_zero=True)
        if o is None:
            return None
        others.append(o)
    in_place = bool(rng.integers(0, 2))
    nbytes = [0, 16, 32, 64, 128, (128, 64), (256, 32, 8)][int(rng.integers(0, 7))]
    block_tail = bool(rng.integers(0, 2))
    return buf, out, others, in_place, nbytes, block_tail


def _run(case, exact):
    buf, out, others, in_place, nbytes, block_tail = case
    b = buf.copy()

    def rebase(v):
        return as_strided(b[(_addr(v) - _addr(buf)) // buf.itemsize:], v.shape, v.strides)

    o = rebase(out)
    ins = ([o] if in_place else []) + [rebase(v) for v in others]
    step = _add if len(ins) == 2 and not in_place else _fma
    cpu_loops.walk(step, o, ins, "test_", nbytes, block_tail, exact=exact)
    return b


def _addr(a):
    return a.__array_interface__["data"][0]


@pytest.mark.parametrize("block", range(8))
def test_grouped_walk_equals_the_step_by_step_walk(block):
    done = 0
    for seed in range(block * 150, (block + 1) * 150):
        case = _case(seed)
        if case is None:
            continue
        want, got = _run(case, exact=True), _run(case, exact=False)
        assert want.tobytes() == got.tobytes(), (seed, case[1].shape, case[1].strides)
        done += 1
    assert done > 40  # enough layouts survived the filters


def _shift(n_rows, n, step_cols=1):
    b = np.ones((n_rows, n + step_cols), np.float32)
    return b, b[:, step_cols:], b[:, :-step_cols]


@pytest.mark.parametrize("layout", ["shift", "strided", "column", "read_ahead"])
def test_common_layouts_take_the_grouped_path(layout, monkeypatch):
    b = (np.arange(2 * 300 * 41) % 7 + 1.0).astype(np.float32).reshape(600, 41)
    out, other = {"shift": (b[:, 1:], b[:, :-1]), "strided": (b[:, 2::2], b[:, :-2:2]),
                  "column": (b, b[:, 20:21]), "read_ahead": (b[:, :-1], b[:, 1:])}[layout]
    ref = b.copy()
    flat = ref.reshape(-1)
    r_out = as_strided(flat[(_addr(out) - _addr(b)) // 4:], out.shape, out.strides)
    r_other = as_strided(flat[(_addr(other) - _addr(b)) // 4:], other.shape, other.strides)
    cpu_loops.walk(_add, r_out, [r_out, r_other], "add_", 64, exact=True)
    calls = []
    monkeypatch.setattr(cpu_loops, "_walk_exact", lambda *a: calls.append(a))
    cpu_loops.walk(_add, out, [out, other], "add_", 64)
    assert not calls
    assert b.tobytes() == ref.tobytes()


@pytest.mark.parametrize("rows_apart", [1, 2, 3, -1, -2])
@pytest.mark.parametrize("cols_apart", [0, 1, 5, -1, -17])
@pytest.mark.parametrize("nbytes", [0, 64, (128, 64)])
def test_rows_reading_rows_run_in_bands(rows_apart, cols_apart, nbytes, monkeypatch):
    """x[d:, c:] += x[:-d, :-c] on a non-dense x: bands of |d| rows run side by side, each
    band after the one it reads; same bytes as the step-by-step walk."""
    b = (np.arange(9 * 60) % 11 * 0.37 + 1.1).astype(np.float32).reshape(9, 60)
    x = b[:, :50]
    d, c = abs(rows_apart), abs(cols_apart)
    w, r = (slice(d, None), slice(None, 9 - d)), (slice(None, 9 - d), slice(d, None))
    if rows_apart < 0:
        w, r = r, w
    wc, rc = (slice(c, None), slice(None, 50 - c)) if cols_apart >= 0 else (
        slice(None, 50 - c), slice(c, None))
    ref = b.copy()
    rx = ref[:, :50]
    cpu_loops.walk(_add, rx[w[0], wc], [rx[w[0], wc], rx[r[0], rc]], "add_", nbytes,
                   exact=True)
    calls = []
    monkeypatch.setattr(cpu_loops, "_walk_exact", lambda *a: calls.append(a))
    cpu_loops.walk(_add, x[w[0], wc], [x[w[0], wc], x[r[0], rc]], "add_", nbytes)
    assert not calls
    assert b.tobytes() == ref.tobytes()


def test_rows_reading_rows_over_two_row_dims_walk_step_by_step(monkeypatch):
    b = np.ones((3, 5, 8), np.float32)
    x = b[:, :, :5]
    calls = []
    real = cpu_loops._walk_exact
    monkeypatch.setattr(cpu_loops, "_walk_exact", lambda *a: (calls.append(1), real(*a)))
    cpu_loops.walk(_add, x[:, 1:], [x[:, 1:], x[:, :-1]], "add_", 64)
    assert calls and b[0, :, :5].tolist() == [[1.0 * (r + 1)] * 5 for r in range(5)]


def test_integer_division_walks_step_by_step(monkeypatch):
    """A zero divisor raises partway; torch has then written the cells before it."""
    calls = []
    monkeypatch.setattr(_grouped_walk, "walk_grouped", lambda *a: calls.append(1))
    b = np.arange(1, 13, dtype=np.int64).reshape(2, 6)
    cpu_loops.walk(lambda o, xs: np.floor_divide(xs[0], xs[1], out=o), b[:, 1:],
                   [b[:, 1:], b[:, :-1]], "fmod_", 0)
    assert not calls


# each a function of one float32 tensor (small: 8 x 9, large: 512 x 513), walked in place
OVERLAPPING = {
    "shift add_": lambda x: x[:, 1:].add_(x[:, :-1]),
    "strided shift add_": lambda x: x[:, 2::2].add_(x[:, :-2:2], alpha=0.5),
    "column div_": lambda x: x[:, :-1].div_(x[:, 3:4]),
    "read ahead mul_": lambda x: x[:, :-1].mul_(x[:, 1:]),
    "shift out=": lambda x: ipt.maximum(x[:, :-1], x[:, 1:], out=x[:, 1:]),
    "rows reading rows": lambda x: x[1:, :-1].add_(x[:-1, :-1]),
    "put_ from an overlapping source (ops/put_take.py)": lambda x: x[:, :-1].put_(
        ipt.arange(x.shape[0] * (x.shape[1] - 2)).remainder(97), x[:, 1:-1], accumulate=True),
}


@pytest.mark.parametrize("name", sorted(OVERLAPPING))
@remeasured
def test_the_overlap_walk_counts_its_buffers(name):
    fn = OVERLAPPING[name]
    with tracing():
        set_floor()
        runs = []
        for shape in [(8, 9), (512, 513)]:
            x = ipt.tensor(np.random.default_rng(0).uniform(0.5, 1, shape), dtype=ipt.float32)
            fn(x)
            runs.append(measure(lambda x=x: fn(x))[1])
        check(name, *runs)
