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

from .harness import Raised, Registry, arr, catch, check_parity, meta

pytestmark = pytest.mark.parity

N_LAYOUT = int(os.environ.get("IPT_LAYOUT_FUZZ_N", "200"))

prog = Registry()


def _gen_view(rng, shape):
    nd = len(shape)
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
    for _ in range(rng.randint(1, 5)):
        step, cur = _gen_view(rng, cur)
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

    def data(*shp, seed):
        low, high = (-3, 4) if dt == "int64" else (-2.0, 2.0)
        return arr(*shp, seed=seed, dtype=np.dtype(dt), low=low, high=high)

    def program(t):
        base = t.tensor(data(*shape, seed=seed))
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
        obs["values"] = v.clone()  # before the write below
        obs["plus_one"] = meta(v + 1)
        obs["exp"] = meta(v.exp())
        obs["times_self"] = meta(v * v)
        other = t.tensor(data(*tuple(v.shape), seed=seed + 1))
        if other_perm and v.dim() >= 2:
            other = t.tensor(data(*tuple(v.shape)[::-1], seed=seed + 1)).permute(
                *reversed(range(v.dim()))
            )
        obs["plus_other"] = meta(v + other)
        obs["other_plus"] = meta(other + v)
        obs["plus_other_values"] = v + other
        obs["clone"] = meta(v.clone())
        c = v.contiguous()
        obs["contiguous"] = {"meta": meta(c), "is_self": c is v}
        obs["reshape_flat"] = catch(lambda: _layout(base, v.reshape(-1)))
        obs["view_flat"] = catch(lambda: _layout(base, v.view(-1)))
        if v.dim() >= 1:
            obs["sum_last"] = catch(lambda: meta(v.sum(-1)))
            obs["softmax_last"] = catch(lambda: meta(v.softmax(-1)))
        v0 = base._version
        if write == "mul_":
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
            "op": write,
            "error": w if not isinstance(w, t.Tensor) and w is not None else None,
            "returned_self": w is v,
            "versions": [v0, base._version, v._version],
        }
        # When PyTorch cannot prove that a shifted input and output overlap (non-dense views),
        # it does not raise and the result depends on its loop order: undefined, not compared.
        undefined = write in ("shift_add", "shift_copy", "transposed_self_add") and not isinstance(
            w, Raised
        )
        if not undefined:
            obs["write"]["base"] = base
            obs["write"]["view_after"] = v
        return obs

    program.__name__ = f"layout{seed:03d}"
    return program


for _seed in range(N_LAYOUT):
    prog(make_layout_program(_seed))


@pytest.mark.parametrize("program", prog.params())
def test_layout_fuzz_parity(program, torch_mod, core):
    check_parity(program, torch_mod, core)
