"""Seeded layout fuzz: random chains of view ops, then layout-sensitive ops, compared in full.

Each program starts from a contiguous tensor, applies a random chain of views (view/reshape,
flatten, squeeze/unsqueeze, expand, permute, transpose, t, select, narrow, step slicing,
as_strided, unbind/split/chunk pieces, metadata in-place ops), and then records for torch and the
core: every intermediate layout (shape, stride, storage_offset, contiguity, data_ptr offset from
the base), the layout and values of out-of-place results (memory-format propagation), clone(),
contiguous(), reshape(-1), and what an in-place write through the final view does to the base
(values, _version, or the error). Errors are compared by type and message.
"""

import os
import random

import numpy as np
import pytest

from .fuzz_pools import dtypes, pool, resolves
from .harness import Raised, Registry, arr, catch, check_parity, meta

pytestmark = pytest.mark.parity

N_LAYOUT = int(os.environ.get("IPT_LAYOUT_FUZZ_N", "200"))

prog = Registry()

# --------------------------------------------------------------------------------------
# the growing pools (issue 10's ops and dtypes), drawn with their own RNG when the core has
# them (fuzz_pools.py); torch 2.13 has every name (test_layout_tables_name_torch_ops).


def _idx(t, v, dim=0):
    """A permutation index along ``dim`` (reversed order): no duplicate targets."""
    return t.tensor(np.arange(v.shape[dim])[::-1].copy())


# views and in-place metadata ops: name -> (needs, applicable(shape), args(rng, shape) ->
# (args, new shape))
def _diag_args(rng, shape):
    off = rng.randint(-1, 1)
    n = max(0, min(shape[0] + min(off, 0), shape[1] - max(off, 0)))
    return (off, 0, 1), (*shape[2:], n)


def _unfold_args(rng, shape):
    d = rng.randrange(len(shape))
    size = rng.randint(1, shape[d])
    step = rng.randint(1, 2)
    n = (shape[d] - size) // step + 1
    return (d, size, step), shape[:d] + (n,) + shape[d + 1:] + (size,)


def _swap_args(rng, shape):
    a, b = rng.randrange(len(shape)), rng.randrange(len(shape))
    new = list(shape)
    new[a], new[b] = new[b], new[a]
    return (a, b), tuple(new)


def _movedim_args(rng, shape):
    a, b = rng.randrange(len(shape)), rng.randrange(len(shape))
    new = list(shape)
    new.insert(b, new.pop(a))
    return (a, b), tuple(new)


def _unsq_args(rng, shape):
    d = rng.randint(0, len(shape))
    return (d,), shape[:d] + (1,) + shape[d:]


def _unflatten_args(rng, shape):
    d = rng.randrange(len(shape))
    n = shape[d]
    a = rng.choice([k for k in range(1, n + 1) if n % k == 0])
    return (d, (a, n // a)), shape[:d] + (a, n // a) + shape[d + 1:]


NEW_VIEWS = {
    "diagonal": (("diagonal",), lambda s: len(s) >= 2, _diag_args),
    "unfold": (("unfold",), lambda s: len(s) >= 1 and min(s) >= 1, _unfold_args),
    "swapdims": (("swapdims",), lambda s: len(s) >= 2, _swap_args),
    "swapdims_": (("swapdims_",), lambda s: len(s) >= 2, _swap_args),
    "swapaxes_": (("swapaxes_",), lambda s: len(s) >= 2, _swap_args),
    "movedim": (("movedim",), lambda s: len(s) >= 2, _movedim_args),
    "unsqueeze_": (("unsqueeze_",), lambda s: len(s) <= 4, _unsq_args),
    "squeeze_": (("squeeze_",), lambda s: 1 in s, lambda rng, s: (
        (s.index(1),), s[:s.index(1)] + s[s.index(1) + 1:])),
    "unflatten": (("unflatten",), lambda s: len(s) >= 1 and min(s) >= 1, _unflatten_args),
}
# out-of-place results whose layout (memory-format propagation) and values are compared
NEW_RESULTS = {
    "sin": (("sin",), lambda t, v: v.sin()),
    "floor": (("floor",), lambda t, v: v.floor()),
    "sqrt_abs": (("sqrt",), lambda t, v: v.abs().sqrt()),
    "eq0": (("eq",), lambda t, v: v.eq(0)),
    "bitwise_not": (("bitwise_not",), lambda t, v: v.bitwise_not()),
    "masked_fill": (("masked_fill",), lambda t, v: v.masked_fill(v > 0, 0)),
    "where": (("t.where",), lambda t, v: t.where(v > 0, v, v * 2)),
    "tril": (("tril",), lambda t, v: v.tril()),
    "cumsum": (("cumsum",), lambda t, v: v.cumsum(-1)),
    "cummax": (("cummax",), lambda t, v: v.cummax(-1)[0]),
    "median_dim": (("median",), lambda t, v: v.median(0)[1]),
    "flip": (("flip",), lambda t, v: v.flip(0)),
    "roll": (("roll",), lambda t, v: v.roll(1, 0)),
    "cat": (("t.cat",), lambda t, v: t.cat([v, v])),
    "stack": (("t.stack",), lambda t, v: t.stack([v, v], -1)),
    "index_select": (("index_select",), lambda t, v: v.index_select(0, _idx(t, v))),
    "gather": (("gather",), lambda t, v: v.gather(0, _idx(t, v).view(
        -1, *[1] * (v.dim() - 1)).expand(*v.shape))),
    "repeat": (("repeat",), lambda t, v: v.repeat(2, *[1] * (v.dim() - 1))),
    "half": (("half",), lambda t, v: v.half()),
    "to_int8": (("to", "dtype.int8"), lambda t, v: v.to(t.int8)),
}
# in-place writes through the final view (the base's values and versions, or the error)
NEW_WRITES = {
    "sin_": (("sin_",), lambda t, v, o: v.sin_()),
    "floor_": (("floor_",), lambda t, v, o: v.floor_()),
    "round_": (("round_",), lambda t, v, o: v.round_()),
    "clamp_max_t": (("clamp_max_",), lambda t, v, o: v.clamp_max_(o)),
    "lerp_": (("lerp_",), lambda t, v, o: v.lerp_(o, 0.25)),
    "addcmul_": (("addcmul_",), lambda t, v, o: v.addcmul_(o, o, value=2)),
    "masked_fill_": (("masked_fill_",), lambda t, v, o: v.masked_fill_(o > 0, 5)),
    "index_fill_": (("index_fill_",), lambda t, v, o: v.index_fill_(0, t.tensor([0]), 3)),
    "index_add_": (("index_add_",), lambda t, v, o: v.index_add_(0, _idx(t, v), o)),
    "index_copy_": (("index_copy_",), lambda t, v, o: v.index_copy_(0, _idx(t, v), o)),
    "scatter_": (("scatter_",), lambda t, v, o: v.scatter_(0, _idx(t, v).view(
        -1, *[1] * (v.dim() - 1)).expand(*v.shape), o)),
    "tril_": (("tril_",), lambda t, v, o: v.tril_()),
    "cumsum_": (("cumsum_",), lambda t, v, o: v.cumsum_(-1)),
    "bitwise_and_": (("bitwise_and_",), lambda t, v, o: v.bitwise_and_(o)),
    "fill_diagonal_": (("fill_diagonal_",), lambda t, v, o: v.fill_diagonal_(9)),
}
NEW_DTYPES = ["float16", "bfloat16", "int8", "uint8", "int16", "int32"]
LAYOUT_TABLES = {"view": NEW_VIEWS, "result": NEW_RESULTS, "write": NEW_WRITES}


def _raises(fn, exc_name):
    try:
        fn()
    except Exception as e:  # noqa: BLE001
        return type(e).__name__ == exc_name
    return False


# Gaps found by this fuzzer, detected on the core: an entry stays out of its pool only while
# the gap is there and joins by itself when the owner's fix lands. Each detector says "no gap"
# on torch (test_layout_tables_name_torch_ops checks it).
LAYOUT_GAPS = {
    # pointwise (ops/comparisons.py): a comparison's result ignores the input's memory order
    # (torch: zeros(3, 4).t().eq(0) has strides (1, 4); the core's is contiguous)
    "eq0": lambda m: m.zeros(3, 4).t().eq(0).stride() != (1, 4),
    # pointwise: lerp_ on an integer tensor raises NotImplementedError ('"lerp_kernel_scalar"
    # not implemented for 'Long'') in torch; the core lets NumPy's UFuncTypeError through
    "lerp_": lambda m: not _raises(lambda: m.zeros(2, dtype=m.int64).lerp_(
        m.ones(2, dtype=m.int64), 0.25), "NotImplementedError"),
}
LAYOUT_POOLS = {kind: pool(table, gaps=LAYOUT_GAPS) for kind, table in LAYOUT_TABLES.items()}
LAYOUT_POOLS["dtype"] = dtypes(NEW_DTYPES)


def _plain(t, x):
    """What the harness compares (it reads bfloat16 values as float32 itself, within the
    16-bit tolerance)."""
    return x


def _gen_view(rng, shape, erng=None):
    nd = len(shape)
    if erng is not None and erng.random() < 0.25:
        fits = [k for k in LAYOUT_POOLS["view"] if NEW_VIEWS[k][1](shape)]
        if fits:
            op = erng.choice(fits)
            args, new = NEW_VIEWS[op][2](erng, shape)
            return ("new", op, args), tuple(new)
    ops = ["unsqueeze", "view_flat", "reshape_split", "step"]
    if nd >= 1:
        ops += ["select", "narrow", "expand", "flatten", "as_strided_row"]
    if nd >= 2:
        ops += ["permute", "transpose", "flatten_pair", "unbind", "split", "chunk", "transpose_"]
    if nd == 2:
        ops += ["t", "t_"]
    if 1 in shape:
        ops += ["squeeze_dim", "squeeze_all"]
    op = rng.choice(ops)
    if op == "unsqueeze":
        d = rng.randint(-nd - 1, nd)
        new = list(shape)
        new.insert(d if d >= 0 else nd + 1 + d, 1)
        return (op, d), tuple(new)
    if op == "view_flat":
        return (op,), (int(np.prod(shape)),)
    if op == "reshape_split":
        n = int(np.prod(shape))
        kind = rng.choice(["view", "reshape"])
        if n == 0:
            return (op, kind, 1, 0), (1, 0)
        a = rng.choice([k for k in range(1, n + 1) if n % k == 0])
        return (op, kind, a, n // a), (a, n // a)
    if op == "step":
        if nd == 0:
            return ("view_flat",), (1,)
        d = rng.randrange(nd)
        st = rng.randint(1, 3)
        start = rng.randint(0, max(shape[d] - 1, 0))
        size = len(range(start, shape[d], st))
        if size == 0:
            start, size = 0, len(range(0, shape[d], st))
        new = list(shape)
        new[d] = size
        return (op, d, start, st), tuple(new)
    if op == "select":
        d = rng.randrange(nd)
        if shape[d] == 0:
            return ("view_flat",), (int(np.prod(shape)),)
        i = rng.randint(-shape[d], shape[d] - 1)
        return (op, d, i), shape[:d] + shape[d + 1 :]
    if op == "narrow":
        d = rng.randrange(nd)
        start = rng.randint(0, max(shape[d] - 1, 0))
        length = rng.randint(0, shape[d] - start)
        return (op, d, start, length), shape[:d] + (length,) + shape[d + 1 :]
    if op == "expand":
        new = tuple(rng.choice([2, 3]) if s == 1 and rng.random() < 0.7 else s for s in shape)
        lead = rng.choice([(), (), (2,)])
        args = lead + tuple(
            -1 if (s == n and rng.random() < 0.3) else n for s, n in zip(shape, new, strict=False)
        )
        return (op, args), lead + new
    if op == "flatten":
        return (op,), (int(np.prod(shape)),)
    if op == "flatten_pair":
        d = rng.randrange(nd - 1)
        return (op, d), shape[:d] + (shape[d] * shape[d + 1],) + shape[d + 2 :]
    if op == "as_strided_row":
        # a row-like window over the first elements, in the storage coordinates of the view
        n = min(int(np.prod(shape)), 3)
        return (op, n), (n,)
    if op == "permute":
        perm = list(range(nd))
        rng.shuffle(perm)
        return (op, tuple(perm)), tuple(shape[p] for p in perm)
    if op in ("transpose", "transpose_"):
        a, b = rng.randrange(nd), rng.randrange(nd)
        new = list(shape)
        new[a], new[b] = new[b], new[a]
        return (op, a, b), tuple(new)
    if op in ("t", "t_"):
        return (op,), (shape[1], shape[0])
    if op == "unbind":
        if shape[0] == 0:
            return ("view_flat",), (0,)
        k = rng.randrange(shape[0])
        return (op, k), shape[1:]
    if op == "split":
        if shape[0] == 0:
            return ("view_flat",), (0,)
        size = rng.randint(1, shape[0])
        pieces = [min(size, shape[0] - s) for s in range(0, shape[0], size)]
        k = rng.randrange(len(pieces))
        return (op, size, k), (pieces[k],) + shape[1:]
    if op == "chunk":
        n = shape[-1]
        if n == 0:
            return ("view_flat",), (int(np.prod(shape)),)
        c = rng.randint(1, 3)
        size = -(-n // c)
        pieces = [min(size, n - s) for s in range(0, n, size)]
        k = rng.randrange(len(pieces))
        return (op, c, k), shape[:-1] + (pieces[k],)
    if op == "squeeze_dim":
        d = shape.index(1)
        return (op, d), shape[:d] + shape[d + 1 :]
    if op == "squeeze_all":
        return (op,), tuple(s for s in shape if s != 1)
    raise AssertionError(op)


def _apply(t, x, step):
    op = step[0]
    if op == "new":
        return getattr(x, step[1])(*step[2])
    if op == "unsqueeze":
        return x.unsqueeze(step[1])
    if op == "view_flat":
        return x.view(-1)
    if op == "reshape_split":
        return getattr(x, step[1])(step[2], step[3])
    if op == "step":
        d, start, st = step[1:]
        idx = (slice(None),) * d + (slice(start, None, st),)
        return x[idx]
    if op == "select":
        return x.select(step[1], step[2])
    if op == "narrow":
        return x.narrow(*step[1:])
    if op == "expand":
        return x.expand(*step[1])
    if op == "flatten":
        return x.flatten()
    if op == "flatten_pair":
        return x.flatten(step[1], step[1] + 1)
    if op == "as_strided_row":
        return x.as_strided((step[1],), (1,), x.storage_offset())
    if op == "permute":
        return x.permute(*step[1])
    if op == "transpose":
        return x.transpose(step[1], step[2])
    if op == "transpose_":
        return x.transpose_(step[1], step[2])
    if op == "t":
        return x.t()
    if op == "t_":
        return x.t_()
    if op == "unbind":
        return x.unbind(0)[step[1]]
    if op == "split":
        return x.split(step[1])[step[2]]
    if op == "chunk":
        return x.chunk(step[1], dim=-1)[step[2]]
    if op == "squeeze_dim":
        return x.squeeze(step[1])
    if op == "squeeze_all":
        return x.squeeze()
    raise AssertionError(op)


def _layout(base, v):
    m = meta(v)
    m["shares_storage"] = v.untyped_storage().data_ptr() == base.untyped_storage().data_ptr()
    m["ptr_offset_bytes"] = (
        v.data_ptr() - base.data_ptr() if v.numel() and m["shares_storage"] else None
    )
    return m


def make_layout_program(seed):
    rng = random.Random(seed)
    shape = tuple(rng.randint(1, 4) for _ in range(rng.randint(1, 4)))
    chain = []
    cur = shape
    # new ops and dtypes come from their own RNG: with none in the pools, a program is as before
    erng = random.Random(seed + 2 * 10**6) if any(LAYOUT_POOLS.values()) else None
    for _ in range(rng.randint(1, 5)):
        step, cur = _gen_view(rng, cur, erng)
        chain.append(step)
    write = rng.choice(
        [
            "mul_",
            "add_tensor",
            "setitem",
            "zero_",
            "copy_",
            "fill_",
            "exp_",
            "shift_add",
            "shift_copy",
            "self_add",
            "transposed_self_add",
        ]
    )
    other_perm = rng.random() < 0.5
    # the dtype comes from its own RNG, so adding it left every program's chain unchanged
    dt = random.Random(seed + 10**6).choices(["float32", "int64", "float64"], [0.85, 0.1, 0.05])[0]
    new_write = results = None
    if erng is not None:
        if LAYOUT_POOLS["dtype"] and erng.random() < 0.2:
            dt = erng.choice(LAYOUT_POOLS["dtype"])
        if LAYOUT_POOLS["write"] and erng.random() < 0.4:
            new_write = erng.choice(LAYOUT_POOLS["write"])
        results = erng.sample(LAYOUT_POOLS["result"], min(4, len(LAYOUT_POOLS["result"])))

    def data(*shp, seed):
        if dt in ("float16", "bfloat16"):  # NumPy has no bfloat16: the library rounds
            return arr(*shp, seed=seed, low=-2.0, high=2.0)
        low, high = (-2.0, 2.0) if dt in ("float32", "float64") else (-3, 4)
        if dt == "uint8":
            low, high = 0, 7
        return arr(*shp, seed=seed, dtype=np.dtype(dt), low=low, high=high)

    def tensor(t, a):
        return t.tensor(a, dtype=getattr(t, dt))

    def program(t):
        base = tensor(t, data(*shape, seed=seed))
        obs = {"base": _layout(base, base), "chain": []}
        v = base
        for step in chain:
            r = catch(lambda: _apply(t, v, step))  # noqa: B023 - called immediately
            if not isinstance(r, t.Tensor):
                obs["chain"].append({"step": step, "result": r})
                return obs
            v = r
            obs["chain"].append(
                {
                    "step": step,
                    "layout": _layout(base, v),
                    "base_is_view_base": v._base is base or (v is base),
                }
            )
        obs["values"] = _plain(t, v.clone())  # before the write below
        obs["plus_one"] = meta(v + 1)
        obs["exp"] = meta(v.exp())
        obs["times_self"] = meta(v * v)
        other = tensor(t, data(*tuple(v.shape), seed=seed + 1))
        if other_perm and v.dim() >= 2:
            other = tensor(t, data(*tuple(v.shape)[::-1], seed=seed + 1)).permute(
                *reversed(range(v.dim()))
            )
        obs["plus_other"] = meta(v + other)
        obs["other_plus"] = meta(other + v)
        obs["plus_other_values"] = _plain(t, v + other)
        for name in results or ():
            r = catch(lambda: NEW_RESULTS[name][1](t, v))  # noqa: B023 - called immediately
            obs[f"new_{name}"] = r if not isinstance(r, t.Tensor) else {
                "meta": meta(r), "values": _plain(t, r)}
        obs["clone"] = meta(v.clone())
        c = v.contiguous()
        obs["contiguous"] = {"meta": meta(c), "is_self": c is v}
        obs["reshape_flat"] = catch(lambda: _layout(base, v.reshape(-1)))
        obs["view_flat"] = catch(lambda: _layout(base, v.view(-1)))
        if v.dim() >= 1:
            obs["sum_last"] = catch(lambda: meta(v.sum(-1)))
            obs["softmax_last"] = catch(lambda: meta(v.softmax(-1)))
        v0 = base._version
        if new_write:
            w = catch(lambda: NEW_WRITES[new_write][1](t, v, other))
        elif write == "mul_":
            w = catch(lambda: v.mul_(2))
        elif write == "add_tensor":
            w = catch(lambda: v.add_(other))
        elif write == "setitem":

            def f():
                v[...] = 7.0

            w = catch(f)
        elif write == "zero_":
            w = catch(lambda: v.zero_())
        elif write == "copy_":
            w = catch(lambda: v.copy_(other))
        elif write == "fill_":
            w = catch(lambda: v.fill_(-1.0))
        elif write == "shift_add":  # partial overlap between input and output (when v has >1 rows)
            w = catch(lambda: v[1:].add_(v[:-1])) if v.dim() >= 1 else catch(lambda: v.add_(v))
        elif write == "shift_copy":
            w = catch(lambda: v[1:].copy_(v[:-1])) if v.dim() >= 1 else catch(lambda: v.copy_(v))
        elif write == "self_add":  # full overlap is allowed
            w = catch(lambda: v.add_(v))
        elif write == "transposed_self_add":
            w = catch(lambda: v.add_(v.t())) if v.dim() == 2 else catch(lambda: v.mul_(v))
        else:
            w = catch(lambda: v.exp_())
        obs["write"] = {
            "op": new_write or write,
            "error": w if not isinstance(w, t.Tensor) and w is not None else None,
            "returned_self": w is v,
            "versions": [v0, base._version, v._version],
        }
        # When PyTorch cannot prove that a shifted input and output overlap (non-dense views),
        # it does not raise and the result depends on its loop order: undefined, not compared.
        shifted = write in ("shift_add", "shift_copy", "transposed_self_add")
        undefined = not new_write and shifted and not isinstance(w, Raised)
        if not undefined:
            obs["write"]["base"] = _plain(t, base)
            obs["write"]["view_after"] = _plain(t, v)
        return obs

    program.__name__ = f"layout{seed:03d}"
    return program


for _seed in range(N_LAYOUT):
    prog(make_layout_program(_seed))


@pytest.mark.parametrize("program", prog.params())
def test_layout_fuzz_parity(program, torch_mod, core):
    check_parity(program, torch_mod, core)


def test_layout_tables_name_torch_ops(torch_mod):
    """Every op and dtype the layout fuzzer may draw exists in torch 2.13."""
    for table in LAYOUT_TABLES.values():
        for name, (needs, *_) in table.items():
            assert all(resolves(torch_mod, n) for n in needs), name
    assert all(isinstance(getattr(torch_mod, d), torch_mod.dtype) for d in NEW_DTYPES)
    assert not [k for k, gap in LAYOUT_GAPS.items() if gap(torch_mod)]
    print("layout fuzz pools from the core:", LAYOUT_POOLS)


def test_channels_last_results_follow_torch(torch_mod, core):
    """A 4-D operand that is channels-last contiguous (size-1 dims ignored) gets a channels-last
    result (TensorIterator's CHANNELS_LAST fast setup), found by this fuzzer (layout159)."""
    for t in (torch_mod, core):
        w = t.zeros(2, 3, 4, 5).permute(0, 3, 1, 2)
        v = t.zeros(4, 2, 2).transpose(1, 2).unsqueeze(2).permute(0, 1, 3, 2)
        assert v.stride() == (4, 1, 2, 4) and v.exp().stride() == (4, 1, 2, 2), t.__name__
        assert (w + w).stride() == w.exp().stride() == (60, 1, 20, 5), t.__name__
